"""Faults and odd input that slipped through (issue 56): a house level a team cannot set up, an
unwritable cache, level names, a full disk, nan and inf, NUMBA_NUM_THREADS, odd records, numpy
and pandas values, special files, duplicates and the smaller things.

Each section names its item of the issue. Bad input: exit 2 and one `kiai: error:` line, the API
a KiaiError (or TypeError) of one line; an I/O fault: exit 1 and one line, and nothing unreadable
left on disk."""

from __future__ import annotations

import errno
import json
import math
import os
import shlex
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import kiai
from conftest import one_line_error, run

pytestmark = pytest.mark.usefixtures("engine")

ROOT = Path(kiai.__file__).resolve().parent.parent
L3 = "kyuzo,kikuchiyo,heihachi"
LEVEL = ("\n[difficulty.{}]\nextra_barricades = {}\nplunderers_per_samurai = 7\n"
         "lieutenants = {{ per_samurai = 1, offset = 0 }}\nbosses = {{ per_samurai = 1, offset = 0 }}\n"
         "farmstead_penalties = false\nfamily_bonuses = true\n")


def _default_text() -> str:
    from kiai.simcore.components import default_components_path

    return default_components_path().read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """Component files: a house level 3 samurai cannot set up (8 extra barricades), levels named
    with capitals or a comma, one with a byte-order mark."""
    f = tmp_path_factory.mktemp("faults")
    text = _default_text()
    (f / "big.toml").write_text(text + LEVEL.format("big", 8))
    (f / "caps.toml").write_text(text + LEVEL.format("Normal-6", 2))
    (f / "easy-caps.toml").write_text(text + LEVEL.format("Easy", 2))
    (f / "comma.toml").write_text(text + LEVEL.format('"a,b"', 2))
    (f / "bom.toml").write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    return f


def _no_games(monkeypatch):
    from kiai.reports.playing import play
    from kiai.strategies.run import games

    def refuse(*a, **k):
        raise AssertionError("bad input was not refused before the work started")

    for module, name in ((play, "play_block"), (games, "run_one"), (games, "record_game")):
        monkeypatch.setattr(module, name, refuse)


def _holds(line: str, words) -> None:
    for w in (words,) if isinstance(words, str) else words:
        assert w in line, line


# ------------------------------------------------------------ 1: a level the team cannot set up

SETUP = [
    f"compare --lineup {L3} -d big --components big.toml -n 10",
    f"compare --lineup {L3} -d big --components big.toml -n 10 --strategies reference,keeper",
    f"compare --lineup {L3} -d big --components big.toml -n 10 --rules heal=any,wounded",
    f"compare --lineup {L3} --components default,big.toml@big -n 10",
]


@pytest.mark.parametrize("args", SETUP)
def test_compare_refuses_a_level_the_team_cannot_set_up(capsys, monkeypatch, folder, args):  # 1
    _no_games(monkeypatch)
    monkeypatch.chdir(folder)
    one_line_error(*run(capsys, *shlex.split(args)), "needs 11 barricades for 3 samurai")


@pytest.mark.parametrize("arguments", [
    dict(level="big", components="big.toml"),
    dict(level="big", components="big.toml", strategies="reference,keeper"),
    dict(level="big", components="big.toml", readings="heal=any,wounded"),
    dict(components="default,big.toml@big"),
])
def test_the_api_compare_refuses_a_level_the_team_cannot_set_up(monkeypatch, folder, arguments):  # 1
    _no_games(monkeypatch)
    monkeypatch.chdir(folder)
    with pytest.raises(kiai.KiaiError, match="needs 11 barricades"):
        kiai.compare(L3, games=10, **arguments)


# ------------------------------------------------------------ 2: an unwritable cache folder

PROBE = """
import sys
sys.path.insert(0, sys.argv[1])
from kiai.simcore import _cache
import probe56
print(probe56.f(1), _cache.CACHE_DIR, _cache.CACHED)
"""


def test_an_unwritable_cache_moves_to_the_temporary_folder_never_the_source_tree(tmp_path):  # 2
    (tmp_path / "probe56.py").write_text("from numba import njit\n\n@njit(cache=True)\ndef f(x):\n    return x + 1\n")
    (tmp_path / "tmp").mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("XDG_CACHE_HOME", "KIAI_CACHE_DIR", "KIAI_CACHE_WARNED")}
    env.update(HOME="/proc/no-home", TMPDIR=str(tmp_path / "tmp"))
    done = subprocess.run([sys.executable, "-c", PROBE, str(tmp_path)], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot write numba's cache" in lines[0] and str(tmp_path / "tmp") in lines[0]
    value, where, cached = done.stdout.split()
    assert value == "2" and where.startswith(str(tmp_path / "tmp")) and cached == "True"
    assert not (tmp_path / "__pycache__").exists() or not list((tmp_path / "__pycache__").glob("*.nb*"))
    assert list(Path(where).rglob("*.nbi"))  # cached where it says


def test_no_writable_cache_folder_runs_uncached_with_one_warning(monkeypatch, capsys, tmp_path):  # 2
    from numba.core import caching, config, dispatcher

    from kiai.simcore import _cache, sources

    monkeypatch.setattr(dispatcher.Dispatcher, "enable_caching", dispatcher.Dispatcher.enable_caching)
    monkeypatch.setattr(caching.CacheImpl, "_locator_classes", caching.CacheImpl._locator_classes)
    monkeypatch.setattr(config, "CACHE_DIR", config.CACHE_DIR)
    monkeypatch.setattr(_cache, "CACHED", True)
    monkeypatch.setattr(_cache, "CACHE_DIR", _cache.CACHE_DIR)
    monkeypatch.setattr(_cache, "cache_root", lambda: Path("/proc/no-home"))
    monkeypatch.setattr(_cache, "temporary_root", lambda: Path("/proc/no-tmp"))
    monkeypatch.delenv("KIAI_CACHE_WARNED", raising=False)
    monkeypatch.setenv("KIAI_CACHE_DIR", os.environ.get("KIAI_CACHE_DIR", ""))
    assert _cache.configure(sources.source_hash()) is None and _cache.CACHED is False
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "running uncached" in err[0]
    from numba import njit

    @njit(cache=True)
    def g(x):
        return x * 2

    assert g(2) == 4 and g._cache.__class__.__name__ == "NullCache"


# ------------------------------------------------------------ 3: level names a command cannot type

@pytest.mark.parametrize("name, level", [("caps.toml", "Normal-6"), ("easy-caps.toml", "Easy"), ("comma.toml", "a,b")])
def test_a_level_name_no_command_can_type_is_refused_when_the_file_is_loaded(capsys, monkeypatch, folder, name, level):  # 3
    _no_games(monkeypatch)
    monkeypatch.chdir(folder)
    words = (name, f"difficulty.{level}", "lowercase letters, digits")
    one_line_error(*run(capsys, "simulate", "-s", "kyuzo,kikuchiyo", "-d", "easy", "-n", 10, "--components", name), *words)
    with pytest.raises(kiai.KiaiError) as raised:
        kiai.simulate("kyuzo,kikuchiyo", "easy", 10, components=name)
    _holds(str(raised.value), words)


# ------------------------------------------------------------ 9: special files

SPECIAL = [  # (the command's arguments, with FILE for the special file)
    "simulate -s kyuzo,kikuchiyo -d easy -n 10 --components FILE",
    "simulate -s kyuzo,kikuchiyo -d easy -n 10 --params-file FILE",
    "simulate -s kyuzo,kikuchiyo -d easy -n 10 --model FILE",
    f"compare --lineup {L3} -n 10 --components default,FILE",
    "sweep --out s.parquet --preset advice --from FILE",
    "report FILE --out rep",
    "replay FILE",
    "balance --players 3 --components FILE",
    "tune reference -n 10 --components FILE",
]


@pytest.fixture
def specials(tmp_path, monkeypatch):
    """A FIFO (a reader would wait for ever) beside the devices /dev/zero and /dev/null."""
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    monkeypatch.chdir(tmp_path)
    return {"a FIFO": str(fifo), "a device": "/dev/zero", "a device ": "/dev/null"}


@pytest.mark.parametrize("args", SPECIAL)
@pytest.mark.parametrize("kind", ["a FIFO", "a device", "a device "])
def test_a_special_file_is_refused_for_what_it_is(capsys, monkeypatch, specials, args, kind):  # 9
    _no_games(monkeypatch)
    path = specials[kind]
    argv = [a.replace("FILE", path) for a in shlex.split(args)]
    code, out, err = run(capsys, *argv)
    one_line_error(code, out, err, path, kind.strip())
    assert "no such file" not in err


def test_a_special_file_is_refused_by_the_api(specials):  # 9
    for call in (lambda f: kiai.simulate("kyuzo,kikuchiyo", "easy", 10, components=f),
                 lambda f: kiai.simulate("kyuzo,kikuchiyo", "easy", 10, params_file=f),
                 lambda f: kiai.replay(f), lambda f: kiai.sweep(preset="advice", results=f)):
        for kind, path in specials.items():
            with pytest.raises(kiai.KiaiError, match=kind.strip()):
                call(path)


def test_a_component_file_beyond_the_cap_is_refused(capsys, tmp_path):  # 9
    big = tmp_path / "huge.toml"
    big.write_text(_default_text() + "#" * 5_000_000 + "\n")
    one_line_error(*run(capsys, "simulate", "-n", 10, "--components", big), "huge.toml", "more than the 4,000,000")


# ------------------------------------------------------------ 12: a byte-order mark, 'default' alone

@pytest.mark.parametrize("components", ["bom.toml", "default"])
def test_a_component_file_with_a_bom_and_default_alone_are_read(monkeypatch, folder, components):  # 12
    monkeypatch.chdir(folder)
    assert kiai.simulate("kyuzo,kikuchiyo", "easy", 10, components=components).games == 10


# ------------------------------------------------------------ 4: a full disk

def _disk_full(*a, **k):
    raise OSError(errno.ENOSPC, "No space left on device")


WRITERS = [  # (a command that writes a file, with OUT for where)
    "simulate -s kyuzo,kikuchiyo -d easy -n 20 --out OUT/t.parquet",
    "sweep --out OUT/s.parquet -d easy --players 2 --lineups sample:1 -n 20",
    "sweep --out OUT/s.parquet -d easy --players 2 --lineups sample:1 -n 20 --csv",
    "record -s kyuzo,kikuchiyo -d easy -n 2 --out OUT/r.jsonl",
    "record -s kyuzo,kikuchiyo -d easy -n 2 --out OUT/r.jsonl.gz",
    "tune reference -s kyuzo,heihachi,daisuke -d easy -n 20 -k 2 --out OUT/t.json",
    "balance --players 3 --target 2 --games 20 --lineups 1 --generations 1 --candidates 2 --verify 20 --out OUT/b",
    "report TABLE --out OUT/rep",
]


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    path = tmp_path_factory.mktemp("table") / "one.parquet"
    kiai.simulate("kyuzo,kikuchiyo", "easy", 50).to_frame().to_parquet(path)
    return path


def _files(folder: Path) -> list[str]:
    """What a run left in `folder`, but the lock files of the outputs it claimed (kiai/outputs.py:
    each stays in place, unlocked, so that runs waiting on it share one file)."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if not p.name.endswith(".lock"))


@pytest.mark.parametrize("args", WRITERS)
def test_a_full_disk_is_one_line_exit_1_and_leaves_nothing(capsys, monkeypatch, tmp_path, table, args):  # 4
    from kiai import outputs

    monkeypatch.setattr(outputs, "finish", _disk_full)  # every file kiai writes passes here
    argv = [a.replace("OUT", str(tmp_path)).replace("TABLE", str(table)) for a in shlex.split(args)]
    code, out, err = run(capsys, *argv)
    lines = [line for line in err.strip().splitlines() if line.startswith("kiai: error")]
    assert code == 1 and len(lines) == 1 and "No space left on device" in lines[0], (code, err)
    assert "Traceback" not in err
    left = [f for f in _files(tmp_path) if not Path(tmp_path / f).is_dir()]
    assert left == [], left  # nothing half-written, no temporary file


@pytest.mark.parametrize("argv", [["rules"], ["--help"], ["strategies"], ["simulate", "--help"],
                                  ["simulate", "-s", "kyuzo,kikuchiyo", "-d", "easy", "-n", "20"],
                                  ["record", "-s", "kyuzo,kikuchiyo", "-d", "easy", "-n", "1"]])
def test_a_full_standard_output_is_one_line_and_exit_1(capsys, monkeypatch, argv):  # 4
    class Full:
        def write(self, text):
            _disk_full()

        def flush(self):
            _disk_full()

        isatty = lambda self: False  # noqa: E731

    monkeypatch.setattr(sys, "stdout", Full())
    from kiai.cli.main import main

    code = main(argv)
    err = capsys.readouterr().err
    lines = [line for line in err.strip().splitlines() if "compil" not in line]
    assert code == 1 and len(lines) == 1 and "cannot write standard output: No space left" in lines[0], err


@pytest.mark.parametrize("argv", [["rules"], ["--help"], ["strategies"]])
def test_dev_full_as_standard_output_says_one_line(argv):  # 4
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full on this machine")
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "kiai.cli", *argv], stdout=full, stderr=subprocess.PIPE, text=True)
    assert done.returncode == 1 and done.stderr.strip().splitlines() == [
        "kiai: error: cannot write standard output: No space left on device"], done.stderr


@pytest.fixture
def small_disk(tmp_path):
    """A 64 KB tmpfs, where the machine lets us mount one (root on Linux), else a skip."""
    disk = tmp_path / "disk"
    disk.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(disk)], capture_output=True).returncode:
        pytest.skip("cannot mount a small tmpfs here (not root, or no mount)")
    yield disk
    subprocess.run(["umount", str(disk)], check=True)


def test_a_report_on_a_small_disk_leaves_no_half_folder(capsys, small_disk, table):  # 4
    (small_disk / "filler").write_bytes(b"x" * 40_000)
    code, out, err = run(capsys, "report", table, "--out", small_disk / "rep")
    assert code == 1 and "No space left" in err and "Traceback" not in err
    assert _files(small_disk) == ["filler"]


def test_a_record_on_a_small_disk_leaves_nothing(capsys, small_disk):  # 4
    code, out, err = run(capsys, "record", "-s", "kyuzo,kikuchiyo", "-d", "easy", "-n", 20, "--out", small_disk / "r.jsonl")
    assert code == 1 and "No space left" in err and _files(small_disk) == []


def test_solve_on_a_full_disk_still_shows_its_answer(capsys, monkeypatch, tmp_path):  # 4
    """A solve can run for hours: its answer is printed before the write, so a full disk loses
    the file, not the answer."""
    from kiai import outputs

    monkeypatch.setattr(outputs, "finish", _disk_full)
    code, out, err = run(capsys, "solve", "-s", "kyuzo,heihachi", "-d", "easy", "-n", 2, "--budget", 200,
                         "--out", tmp_path / "s.json")
    lines = [line for line in err.strip().splitlines() if "compil" not in line]
    assert code == 1 and "2 deals of seed 0" in out and len(lines) == 1 and "No space left" in lines[0], (out, err)
    assert _files(tmp_path) == []

def test_the_api_raises_the_write_error_and_leaves_nothing(monkeypatch, tmp_path):  # 4
    from kiai import outputs

    monkeypatch.setattr(outputs, "finish", _disk_full)
    with pytest.raises(OSError, match="No space left"):
        kiai.record("kyuzo,kikuchiyo", "easy", 2, out=tmp_path / "r.jsonl")
    with pytest.raises(OSError, match="No space left"):
        kiai.sweep(levels="easy", lineups=["kyuzo,kikuchiyo"], games=20, out=tmp_path / "s.parquet")
    assert _files(tmp_path) == []


# ------------------------------------------------------------ 5: nan and inf

NOT_FINITE = ["nan", "inf", "-inf", "NaN%", "inf%"]


@pytest.mark.parametrize("value", NOT_FINITE)
def test_balance_refuses_a_target_that_is_not_finite(capsys, monkeypatch, tmp_path, value):  # 5
    _no_games(monkeypatch)
    monkeypatch.chdir(tmp_path)
    one_line_error(*run(capsys, "balance", "--target", value), "--target")
    with pytest.raises(kiai.KiaiError, match="--target"):
        kiai.balance(target=float(value.rstrip("%")))


@pytest.mark.parametrize("arguments", [dict(precision=float("nan")), dict(precision=float("inf")),
                                       dict(precision="0.1")])
def test_sweep_refuses_a_precision_that_is_not_a_finite_number(monkeypatch, arguments):  # 5, 11
    _no_games(monkeypatch)
    with pytest.raises(kiai.KiaiError, match="--precision"):
        kiai.sweep(levels="easy", players=2, **arguments)


# ------------------------------------------------------------ 6: NUMBA_NUM_THREADS

def _kiai(env: dict, *argv):
    return subprocess.run([sys.executable, "-m", "kiai.cli", *argv], env={**os.environ, **env},
                          capture_output=True, text=True)


@pytest.mark.parametrize("value", ["0", "-1", "abc", ""])
@pytest.mark.parametrize("argv", [["rules"], ["strategies"]])
def test_numba_num_threads_below_one_is_one_line_exit_2(value, argv):  # 6
    done = _kiai({"NUMBA_NUM_THREADS": value}, *argv)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1 and "NUMBA_NUM_THREADS" in lines[0], done.stderr


def test_numba_num_threads_below_one_is_a_kiai_error_in_the_api():  # 6
    code = "import kiai\ntry:\n    kiai.simulate('kyuzo,kikuchiyo', 'easy', 5)\nexcept kiai.KiaiError as e:\n    print(e)"
    done = subprocess.run([sys.executable, "-c", code], env={**os.environ, "NUMBA_NUM_THREADS": "0"},
                          capture_output=True, text=True)
    assert done.returncode == 0 and "NUMBA_NUM_THREADS" in done.stdout, done.stderr


def test_numba_num_threads_above_the_cores_is_capped_and_said():  # 6
    from kiai.environment import cores

    done = _kiai({"NUMBA_NUM_THREADS": "999"}, "simulate", "-s", "kyuzo,kikuchiyo", "-d", "easy", "-n", "20")
    assert done.returncode == 0, done.stderr
    assert f"NUMBA_NUM_THREADS=999: this machine has {cores()} cores" in done.stderr
    assert "999 threads" not in done.stdout and f"on {cores()} thread" in done.stdout


# ------------------------------------------------------------ 11: the API's type errors

@pytest.mark.parametrize("function, arguments, words", [
    ("balance", dict(out=None), "--out expects a folder"),
    ("balance", dict(out=3), "--out expects"),
])
def test_the_api_names_a_wrong_type(monkeypatch, function, arguments, words):  # 11
    _no_games(monkeypatch)
    with pytest.raises(kiai.KiaiError, match=words):
        getattr(kiai, function)(**arguments)


# ------------------------------------------------------------ 7: odd records

@pytest.fixture(scope="module")
def record():
    return kiai.record("kyuzo,kikuchiyo", "easy", 1, strategy="reference")[0]


ODD = [  # (the field changed, its value, the words)
    ("record", 2, "format 1"), ("record", "1", "format 1"), ("record", True, "format 1"),
    ("seed", 2**70, "'seed'"), ("seed", -1, "'seed'"), ("seed", "0", "'seed'"), ("seed", 0.0, "'seed'"),
    ("game", 2**64, "'game'"), ("game", -1, "'game'"), ("game", "0", "'game'"), ("game", 0.0, "'game'"),
]


@pytest.mark.parametrize("field, value, words", ODD, ids=[f"{f}={v!r}" for f, v, _ in ODD])
def test_an_odd_record_is_refused_not_verified(capsys, tmp_path, record, field, value, words):  # 7
    odd = {**record, field: value}
    with pytest.raises(kiai.KiaiError, match=words):
        kiai.replay(odd)
    path = tmp_path / "odd.jsonl"
    path.write_text(json.dumps(odd) + "\n")
    one_line_error(*run(capsys, "replay", path), words)


def test_deeply_nested_json_is_refused_in_one_line(capsys, tmp_path):  # 7
    path = tmp_path / "deep.jsonl"
    path.write_text("[" * 100_000 + "]" * 100_000 + "\n")
    one_line_error(*run(capsys, "replay", path), "nested too deeply")


def test_a_model_file_whose_header_is_nested_too_deeply_is_refused_in_one_line(capsys, tmp_path):  # 7
    header = "[" * 100_000 + "]" * 100_000
    path = tmp_path / "deep.npz"
    np.savez(path, header=np.array(header), w1=np.zeros((2, 2), np.float32))
    one_line_error(*run(capsys, "simulate", "-s", "kyuzo,kikuchiyo", "-n", 10, "--model", path), "nested too deeply")


# ------------------------------------------------------------ 8: numpy and pandas values

NUMPY = [
    dict(samurai=np.array(["kyuzo", "kikuchiyo"])),
    dict(samurai=pd.Series(["kyuzo", "kikuchiyo"])),
    dict(samurai=["kyuzo", np.str_("kikuchiyo")]),
    dict(samurai="kyuzo,kikuchiyo", strategy="reference", params={"T": np.float64(3)}),
    dict(samurai="kyuzo,kikuchiyo", strategy="reference", params={"T": np.int64(3)}),
]


@pytest.mark.parametrize("arguments", NUMPY)
def test_numpy_and_pandas_values_are_taken_as_python_ones(arguments):  # 8
    assert kiai.simulate(level="easy", games=10, **arguments).games == 10


def test_a_sweep_axis_of_numpy_numbers_is_taken():  # 8
    df = kiai.sweep(levels=pd.Series(["easy"]), lineups=[np.array(["kyuzo", "kikuchiyo"])], games=10,
                    strategies=["reference"], params={"T": np.array([2.0, 3.0])})
    assert len(df) == 2


# ------------------------------------------------------------ 10: one line-up of a size

def test_a_single_line_up_of_three_is_not_called_all_seven():  # 10
    from kiai.reports.findings.in_short import lineup_sentence

    assert "all seven" not in lineup_sentence(None, 3) and "3 samurai" in lineup_sentence(None, 3)
    assert "all seven" in lineup_sentence(None, 7)


# ------------------------------------------------------------ 12: the smaller things

DUPLICATES = [
    ("sweep --out s.parquet -d easy,easy --players 2 -n 10", "--difficulty lists easy twice"),
    ("sweep --out s.parquet -d easy --players 2,2 -n 10", "--players lists 2 twice"),
    ("sweep --out s.parquet -d easy --players 2 -n 10 --strategy reference --param T=3,3", "--param T lists 3 twice"),
    ("balance --players 2,2", "--players lists 2 twice"),
    ("tune reference -d easy,easy -n 10", "--difficulty lists easy twice"),
    ("tune reference -d easy -d easy -n 10", "--difficulty lists easy twice"),
]


@pytest.mark.parametrize("args, words", DUPLICATES)
def test_a_value_given_twice_is_refused_everywhere(capsys, monkeypatch, tmp_path, args, words):  # 12
    _no_games(monkeypatch)
    monkeypatch.chdir(tmp_path)
    one_line_error(*run(capsys, *shlex.split(args)), words)


def test_the_api_refuses_duplicates_too(monkeypatch):  # 12
    _no_games(monkeypatch)
    with pytest.raises(kiai.KiaiError, match="--players lists 2 twice"):
        kiai.sweep(levels="easy", players=[2, 2], games=10)
    with pytest.raises(kiai.KiaiError, match="--players lists 2 twice"):
        kiai.balance(players=[2, 2])


@pytest.mark.parametrize("link", ["dangling", "looping"])
def test_a_link_given_as_out_is_not_replaced_without_force(capsys, monkeypatch, tmp_path, link):  # 12
    _no_games(monkeypatch)
    out = tmp_path / "t.csv"
    os.symlink(tmp_path / "nowhere" if link == "dangling" else out, out)
    one_line_error(*run(capsys, "simulate", "-n", 10, "--out", out), "exists", "--force")
    assert out.is_symlink()


def test_balance_help_names_no_params_file(capsys):  # 12
    code, out, _ = run(capsys, "balance", "--help")
    assert code == 0 and "--params-file" not in out


def test_the_markdown_report_escapes_tags_as_the_html_does():  # 12
    from kiai.reports.page.render import to_html, to_markdown

    blocks = [("h1", "<script>alert(1)</script>"), ("p", "a level <script>x</script> and p < 0.05")]
    assert "<script>" not in to_markdown(blocks) and "<script>" not in to_html(blocks, "t")
    assert "p < 0.05" in to_markdown(blocks)


@pytest.fixture(scope="module")
def other_kiai(tmp_path_factory):
    path = tmp_path_factory.mktemp("other") / "other-kiai.toml"
    path.write_text(_default_text().replace("kyuzo      = { human = 9,", "kyuzo      = { human = 10,"))
    return path


@pytest.mark.parametrize("args", ["sweep --out OUT/s.parquet -d easy --players 2 -n 10 --components FILE --strict",
                                  "tune selfplay -s kyuzo,kikuchiyo -d easy -n 10 -k 2 --components FILE --strict "
                                  "--out OUT/t.json"])
def test_sweep_and_tune_take_strict_as_the_other_commands_do(capsys, monkeypatch, tmp_path, other_kiai, args):  # 12
    _no_games(monkeypatch)
    argv = [a.replace("OUT", str(tmp_path)).replace("FILE", str(other_kiai)) for a in shlex.split(args)]
    one_line_error(*run(capsys, *argv), "other component data", "--strict refuses")
    assert list(tmp_path.iterdir()) == []
