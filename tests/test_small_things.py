"""The smaller things of a hostile tester's list: a strategy listed twice, a hint that names a
parameter the strategy lacks, a standard output that takes ASCII only, a training command that
asks for PyTorch before checking its arguments, Ctrl-C on record and report.

Bad input: exit 2 and one `kiai: error:` line, before any game; an interrupted run: exit 130 and
one line saying the output was left as it was."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import kiai
from conftest import one_line_error, run

ROOT = Path(kiai.__file__).resolve().parent.parent


@pytest.fixture
def no_games(monkeypatch):
    """Any game played fails the test: bad input is refused before the work starts."""
    from kiai.reports.playing import play
    from kiai.strategies.run import games

    def refuse(*a, **k):
        raise AssertionError("bad input was not refused before the work started")

    for module, name in ((play, "play_block"), (games, "run_one"), (games, "record_game")):
        monkeypatch.setattr(module, name, refuse)


# ---------------------------------------------------------------- a value listed twice

SWEEP = ["sweep", "-d", "easy", "--players", "2", "-n", "10"]


@pytest.mark.parametrize("args, words", [
    (["--strategy", "selfplay,selfplay"], "--strategy lists selfplay twice"),
    (["--strategy", "reference, random,reference"], "--strategy lists reference twice"),
])
def test_sweep_refuses_a_strategy_listed_twice(capsys, no_games, tmp_path, args, words):
    out = tmp_path / "s.parquet"
    one_line_error(*run(capsys, *SWEEP, "--out", out, *args), words)
    assert not out.exists()


def test_the_api_refuses_a_strategy_listed_twice(no_games, tmp_path):
    with pytest.raises(kiai.KiaiError, match="--strategy lists reference twice"):
        kiai.sweep(levels="easy", players=2, games=10, strategies=["reference", "reference"])


@pytest.mark.parametrize("lineups, seatings, words", [
    (["kyuzo,kanbei", "kyuzo,kanbei"], "given", "--lineup lists kyuzo,kanbei twice"),
    (["kyuzo,kanbei,heihachi", "kanbei,heihachi,kyuzo"], "all", ("kyuzo,kanbei,heihachi", "kanbei,heihachi,kyuzo",
                                                                 "--seatings all")),
])
def test_sweep_refuses_a_line_up_listed_twice(capsys, no_games, tmp_path, lineups, seatings, words):
    argv = [a for lineup in lineups for a in ("--lineup", lineup)]
    out = tmp_path / "s.parquet"
    words = (words,) if isinstance(words, str) else words
    one_line_error(*run(capsys, "sweep", "-d", "easy", "-n", "10", "--seatings", seatings, *argv, "--out", out),
                   *words)


def test_one_line_up_in_two_seat_orders_is_two_seatings(no_games):
    """Given as typed, two seat orders of one line-up are two seatings to play, not a duplicate."""
    from kiai.inputs.sweep_plan import Axes, grid_plan
    from kiai.inputs.configs import load_components

    axes = Axes.of("easy", None, ["kyuzo,kanbei,heihachi", "kanbei,kyuzo,heihachi"], None, "given", "reference",
                   None, None)
    plan = grid_plan(axes, ["reference"], {}, {}, "auto", load_components(None), None, 0, print)
    assert len(plan) == 2


def test_one_reader_of_a_level_list_takes_a_text_or_tunes_repeated_texts():
    """kiai.inputs.configs.parse_levels reads --difficulty for every command: a text (a sweep's, a
    training's) or tune's repeated texts, each text's levels in turn, each level once."""
    from kiai.errors import KiaiError
    from kiai.inputs.configs import load_components, parse_levels

    comp = load_components(None)
    assert parse_levels(None, comp) == ["normal"]
    assert parse_levels("Easy, hard", comp) == ["easy", "hard"]
    assert parse_levels(["easy", "normal,hard"], comp) == ["easy", "normal", "hard"]
    assert parse_levels(["all"], comp) == parse_levels("all", comp)
    for given in ("easy,easy", ["easy", "easy"], ["easy", "normal,easy"]):
        with pytest.raises(KiaiError, match="--difficulty lists easy twice; give each value once"):
            parse_levels(given, comp)
    with pytest.raises(KiaiError, match="--difficulty 'easy,,hard' has an empty name"):
        parse_levels(["normal", "easy,,hard"], comp)


# ------------------------------------------------------ the hint for a strategy listed twice

def _hinted(err: str) -> tuple[str, dict]:
    """The strategy and parameters of the `e.g. NAME[P=V]` of a one-line error."""
    m = re.search(r"e\.g\. (\w+)\[(\w+)=([^\]]+)\]", err)
    assert m, err
    return m.group(1), {m.group(2): float(m.group(3))}


@pytest.mark.parametrize("strategies", ["reference[T=3],reference[T=3]", "reference,reference", "keeper,keeper",
                                        "judge,judge", "counter[risk=0.125],counter[risk=0.125]"])
def test_the_hint_names_a_parameter_the_strategy_takes(capsys, no_games, strategies):
    """Each hint, typed as the second arm, is taken: a parameter of the strategy, in its range, at
    another value than the arm listed twice."""
    from kiai.strategies import registry

    code, out, err = run(capsys, "compare", "-d", "easy", "-n", "100", "--strategies", strategies)
    one_line_error(code, out, err, "twice")
    name, hint = _hinted(err)
    assert name == strategies.split("[")[0].split(",")[0]
    info = registry.get(name)
    info.param_vector(hint)  # raises for a parameter it lacks, or a value out of range
    first = strategies.split(",")[0]
    given = dict(re.findall(r"(\w+)=([^\],]+)", first))
    assert all(info.param_dict(hint)[k] != info.param_dict({k: float(v)})[k] for k, v in given.items()) \
        and info.param_dict(hint) != info.param_dict({})


def test_no_parameter_example_for_a_strategy_without_parameters(capsys, no_games):
    code, out, err = run(capsys, "compare", "-d", "easy", "-n", "100", "--strategies", "random,random")
    one_line_error(code, out, err, "'random'", "twice")
    assert "[" not in err.split("twice", 1)[1], err


@pytest.mark.parametrize("strategies, words", [
    ("reference,reference[T=3]", ("'reference'", "'reference[T=3]'")),
    ("judge[samples=8,race=0.05],judge[race=0.05,samples=8]", ("judge[samples=8,race=0.05]",)),
])
def test_two_arms_of_the_same_parameters_are_refused(capsys, no_games, strategies, words):
    """Brackets that set a strategy's own defaults, or the same parameters in another order, play
    the same games as the arm they repeat."""
    one_line_error(*run(capsys, "compare", "-d", "easy", "-n", "100", "--strategies", strategies), *words)


# ------------------------------------------------------------ a standard output of ASCII only

def _kiai(argv, cwd, **env):
    return subprocess.run([sys.executable, "-m", "kiai.cli", *map(str, argv)], cwd=cwd, capture_output=True,
                          env={**os.environ, **env}, timeout=600)


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_every_line_survives_a_standard_output_that_lacks_the_characters(tmp_path, encoding):
    """A sweep's and a report's last lines name their outputs, whose names the output's encoding
    cannot write: written with backslash escapes, and the run ends well (the files were written)."""
    name = "R_ü€"  # ü is in latin-1, € in neither
    sweep = _kiai(["sweep", "-o", f"{name}.parquet", "-d", "easy", "--lineup", "kyuzo,kanbei", "-n", 10,
                   "--strategy", "reference"], tmp_path, PYTHONIOENCODING=encoding)
    assert sweep.returncode == 0, sweep.stderr.decode(errors="replace")
    assert b"Traceback" not in sweep.stderr and b"table written to R_" in sweep.stdout
    report = _kiai(["report", f"{name}.parquet", "--out", name], tmp_path, PYTHONIOENCODING=encoding)
    assert report.returncode == 0, report.stderr.decode(errors="replace")
    assert b"Traceback" not in report.stderr and b"\\u20ac" in report.stdout, report.stdout
    assert (tmp_path / name / "report.html").is_file()
    bad = _kiai(["simulate", "-s", f"kyuzo,{name}"], tmp_path, PYTHONIOENCODING=encoding)
    assert bad.returncode == 2 and bad.stderr.count(b"\n") == 1 and b"kiai: error:" in bad.stderr, bad.stderr


# ------------------------------------------------------- training: the arguments before PyTorch

@pytest.mark.parametrize("argv, words", [
    (["learned", "--hidden", "0"], "--hidden"),
    (["learned", "--members", "9"], "--members"),
    (["learned", "--eval", "kyuzo,kanbei"], "--eval must be SEATING:LEVEL"),
    (["learned", "--eval", "kyuzo,kanbei:easy", "--eval", "kyuzo,kanbei:Easy"], "--eval lists kyuzo,kanbei:easy twice"),
    (["value", "--iterations", "0"], "iterations"),
    (["value", "--player", "psychic"], "--player"),
])
def test_training_checks_its_arguments_before_asking_for_pytorch(capsys, monkeypatch, tmp_path, argv, words):
    """Without PyTorch a bad argument still gets its own message: a user fixes it before installing
    PyTorch for nothing, and learns what else is wrong only once that is done."""
    monkeypatch.setitem(sys.modules, "torch", None)  # `import torch` raises ImportError
    command, *options = argv
    code, out, err = run(capsys, "train", command, tmp_path / "run", *options)
    one_line_error(code, out, err, words)
    assert "PyTorch" not in err and not (tmp_path / "run").exists()


@pytest.mark.parametrize("command", ["learned", "value"])
def test_training_asks_for_pytorch_where_the_arguments_are_good(capsys, monkeypatch, tmp_path, command):
    monkeypatch.setitem(sys.modules, "torch", None)
    one_line_error(*run(capsys, "train", command, tmp_path / "run"), "needs PyTorch")
    assert not (tmp_path / "run").exists()


# --------------------------------------------------------------- Ctrl-C on record and report

def _interrupt_after(monkeypatch, module, name, calls: int):
    """module.name raises KeyboardInterrupt (Ctrl-C) on its call number calls + 1."""
    real, made = getattr(module, name), []

    def work(*a, **k):
        if len(made) == calls:
            raise KeyboardInterrupt
        made.append(1)
        return real(*a, **k)

    monkeypatch.setattr(module, name, work)


def _left(folder: Path) -> list[str]:
    """The names in folder, but the claims' lock files (kiai.outputs), which a run may leave."""
    return sorted(p.name for p in folder.iterdir() if not p.name.endswith(".lock"))


def _interrupted(code, out, err, what):
    assert code == 130 and out == "", (code, out, err)
    assert err.strip().splitlines() == [f"kiai: interrupted; {what}"], err


@pytest.mark.parametrize("earlier", [None, "an earlier file\n"])
def test_ctrl_c_on_record_says_the_output_was_left_as_it_was(capsys, monkeypatch, tmp_path, earlier):
    from kiai.strategies.run import games

    out = tmp_path / "rec.jsonl"
    if earlier is not None:
        out.write_text(earlier)
    _interrupt_after(monkeypatch, games, "record_game", 2)
    code, stdout, err = run(capsys, "record", "-s", "kyuzo,kanbei", "-d", "easy", "-n", 5, "--out", out, "--force")
    _interrupted(code, stdout, err, f"{out} left as it was")
    assert (out.read_text() if out.exists() else None) == earlier
    assert _left(tmp_path) == ([out.name] if earlier else [])


def test_ctrl_c_on_record_to_standard_output_says_how_many_were_written(capsys, monkeypatch):
    from kiai.strategies.run import games

    _interrupt_after(monkeypatch, games, "record_game", 2)
    code, out, err = run(capsys, "record", "-s", "kyuzo,kanbei", "-d", "easy", "-n", 5)
    assert code == 130 and len(out.splitlines()) == 2, (code, err)
    assert err.strip().splitlines() == ["kiai: interrupted; 2 game records written to standard output"], err


@pytest.fixture(scope="module")
def results_table(tmp_path_factory):
    path = tmp_path_factory.mktemp("table") / "t.parquet"
    kiai.sweep(levels="easy", lineups=[["kyuzo", "kanbei"]], games=10, strategies="reference", out=path)
    return path


@pytest.mark.parametrize("earlier", [False, True])
def test_ctrl_c_on_report_says_the_folder_was_left_as_it_was(capsys, monkeypatch, tmp_path, results_table, earlier):
    from kiai.reports.page import report as page

    out = tmp_path / "rep"
    if earlier:
        out.mkdir()
        (out / "notes.txt").write_text("mine")
    _interrupt_after(monkeypatch, page, "write_report", 0)
    code, stdout, err = run(capsys, "report", results_table, "--out", out)
    _interrupted(code, stdout, err, f"{out} left as it was")
    assert _left(tmp_path) == (["rep"] if earlier else [])
    if earlier:
        assert _left(out) == ["notes.txt"]


# ------------------------------------------------------------ a file or component file given twice
def test_replay_refuses_a_record_file_given_twice(capsys, tmp_path):
    records = tmp_path / "r.jsonl"
    kiai.record("kyuzo,kikuchiyo", "easy", 2, out=records)
    one_line_error(*run(capsys, "replay", records, f"{tmp_path}/./r.jsonl"), "given twice")


COMPONENTS = Path(__file__).resolve().parent.parent / "simcore" / "data" / "components.toml"


def test_replay_refuses_a_component_file_given_twice(capsys, tmp_path):
    records = tmp_path / "r.jsonl"
    kiai.record("kyuzo,kikuchiyo", "easy", 2, out=records)
    one_line_error(*run(capsys, "replay", records, "--components", COMPONENTS, "--components", COMPONENTS), "twice")


def test_report_refuses_a_component_file_given_twice(capsys, tmp_path):
    table = tmp_path / "t.parquet"
    kiai.simulate("kyuzo,kikuchiyo", "easy", 20).to_frame().to_parquet(table)
    one_line_error(*run(capsys, "report", table, "--out", tmp_path / "rep", "--components", f"{COMPONENTS},{COMPONENTS}"),
                   "twice")
