"""When two runs share an output: every writer claims its output before any work (kiai/outputs.py),
so a second run refuses in one line that names the holder and leaves the output as it was; the
temporaries of a run are named for it, so a dead run's are cleaned and a live run's never; a report
written again into a folder removes the earlier report's files it does not make again, and nothing
else.

The holder of a claim is a small Python process (`with claim(path): sleep`), so that no test races
two long runs; one test does race two real `kiai record` runs."""

from __future__ import annotations

import importlib
import json
import shlex
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest

import kiai
from conftest import one_line_error, run

pytestmark = pytest.mark.usefixtures("engine")

KIAI = Path(sys.executable).parent / "kiai"

HOLD = """
import sys, time
from kiai.outputs import claim, temp_path
with claim(sys.argv[1]):
    print(temp_path(sys.argv[1]), flush=True)
    time.sleep(300)
"""

LIVE = """
import sys, time
from kiai.outputs import temp_path
print(*(temp_path(p) for p in sys.argv[1:]), sep="\\n", flush=True)
time.sleep(300)
"""

DEAD = """
import sys
from kiai.outputs import temp_path
print(*(temp_path(p) for p in sys.argv[1:]), sep="\\n", flush=True)
"""


@contextmanager
def process(code: str, *paths: Path, lines: int = 1):
    """A Python process running `code` on `paths`, alive in the block: (process, the lines it printed)."""
    proc = subprocess.Popen([sys.executable, "-c", code, *map(str, paths)], stdout=subprocess.PIPE, text=True)
    try:
        said = [proc.stdout.readline().strip() for _ in range(lines)]
        assert all(said), "the helper process died before it said its temporaries"
        yield proc, said
    finally:
        proc.kill()
        proc.wait()
        proc.stdout.close()


def dead_temps(*paths: Path) -> list[Path]:
    """Temporary files beside `paths` named for a process that has ended (as a killed run leaves them)."""
    done = subprocess.run([sys.executable, "-c", DEAD, *map(str, paths)], capture_output=True, text=True, check=True)
    temps = [Path(line) for line in done.stdout.split()]
    for t in temps:
        t.write_text("half a file of a killed run")
    return temps


def _refused(capsys, argv: list, holder) -> None:
    one_line_error(*run(capsys, *argv), "is being written by another kiai run", f"pid {holder.pid} ")


# ------------------------------------------------------------------ two runs on one output

@pytest.fixture(scope="module")
def table(tmp_path_factory):
    path = tmp_path_factory.mktemp("table") / "one.parquet"
    kiai.simulate("kyuzo,kikuchiyo", "easy", 30).to_frame().to_parquet(path)
    return path


FILE_WRITERS = {  # a command that replaces OUT with --force
    "record": "record -s kyuzo,kikuchiyo -d easy -n 2 --out OUT --force",
    "simulate": "simulate -s kyuzo,kikuchiyo -d easy -n 20 --out OUT --force",
    "sweep": "sweep --out OUT -d easy --players 2 --lineups sample:1 -n 20 --force --csv",
    "tune": "tune reference -s kyuzo,heihachi,daisuke -d easy -n 20 -k 2 --out OUT --force",
}
NAMES = {"record": "r.jsonl", "simulate": "t.parquet", "sweep": "s.parquet", "tune": "t.json"}


@pytest.mark.parametrize("writer", list(FILE_WRITERS))
def test_a_second_writer_of_a_file_refuses_and_leaves_it(capsys, tmp_path, writer):
    out = tmp_path / NAMES[writer]
    out.write_text("the first run's")
    argv = shlex.split(FILE_WRITERS[writer].replace("OUT", str(out)))
    with process(HOLD, out) as (holder, _):
        _refused(capsys, argv, holder)
    assert out.read_text() == "the first run's"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([out.name, f".{out.name}.lock"])


def test_a_second_sweep_resume_refuses_while_the_first_runs(capsys, tmp_path):
    out = tmp_path / "s.parquet"
    with process(HOLD, out) as (holder, _):
        _refused(capsys, ["sweep", "--out", out, "-d", "easy", "--players", 2, "--lineups", "sample:1", "-n", 20,
                          "--resume"], holder)  # fmt: skip
    assert not out.exists()


@pytest.mark.parametrize("writer, argv", [
    ("balance", "balance --players 3 --target 2 --games 20 --lineups 1 --generations 1 --candidates 2 "
                "--verify 20 --out OUT --force"),
    ("report", "report TABLE --out OUT"),
])
def test_a_second_writer_of_a_folder_refuses_and_leaves_it(capsys, tmp_path, table, writer, argv):
    out = tmp_path / "folder"
    out.mkdir()
    kept = out / ("balance.md" if writer == "balance" else "report.html")
    kept.write_text("the first run's")
    with process(HOLD, out) as (holder, _):
        _refused(capsys, shlex.split(argv.replace("OUT", str(out)).replace("TABLE", str(table))), holder)
    assert [p.name for p in out.iterdir()] == [kept.name] and kept.read_text() == "the first run's"


TRAIN = {  # tiny runs: refused at the claim, before any training
    "value": ["--iterations", 1, "--tables", 2, "-n", 20, "--keep", 1, "--h1", 8, "--h2", 4, "--epochs", 1,
              "--eval-games", 2],
    "learned": ["--iterations", 1, "--games", 24, "--tables", 4, "--samples", 2, "--hidden", 4, "--epochs", 2,
                "--eval-games", 40, "--teacher-games", 4, "--eval", "kanbei,heihachi,kikuchiyo:easy"],
}


@pytest.mark.parametrize("kind", list(TRAIN))
def test_a_second_training_run_on_a_folder_refuses(capsys, tmp_path, kind):
    pytest.importorskip("torch")
    folder = tmp_path / "run"
    with process(HOLD, folder) as (holder, _):
        _refused(capsys, ["train", kind, folder, *TRAIN[kind]], holder)
    assert not folder.exists()


def test_a_second_ship_of_a_family_refuses(capsys, tmp_path):
    from kiai.strategies.nets.modelfile import family_file

    value = family_file(4, "easy")  # a value kiai ships
    dest = tmp_path / value.name
    with process(HOLD, dest) as (holder, _):
        _refused(capsys, ["train", "ship", value, "--to", tmp_path], holder)
    assert not dest.exists()


STUDIES = {  # make reach and make coverage: (module, its arguments at their smallest, the outputs it writes)
    "reach": ("kiai.reports.search.reach", ["--deals", 1, "--budget", 50], {"--table": "r.parquet", "--out": "r.json"}),
    "coverage": ("kiai.reports.search.coverage", ["--seeds", 2, "--games", 4, "--size", 2, "--level", "easy",
                                                  "--strategy", "reference", "--strong", "reference"],
                 {"--out": "c.json"}),
}


@pytest.mark.parametrize("study, option", [(s, o) for s, (_, _, outs) in STUDIES.items() for o in outs])
def test_a_second_study_on_an_output_refuses_before_its_first_deal(capsys, tmp_path, study, option):
    module, args, outs = STUDIES[study]
    paths = {o: tmp_path / name for o, name in outs.items()}
    paths[option].write_text("the first run's")
    argv = [str(a) for a in args] + [str(x) for o, p in paths.items() for x in (o, p)]
    with process(HOLD, paths[option]) as (holder, _), pytest.raises(SystemExit) as e:
        importlib.import_module(module).main(argv)
    out, err = capsys.readouterr()
    assert e.value.code == 2 and out == "" and len(err.strip().splitlines()) == 1, (e.value.code, out, err)
    assert err.startswith(f"{study}: {option} {paths[option]} is being written by another kiai run")
    assert f"pid {holder.pid} " in err and paths[option].read_text() == "the first run's"
    assert not any(p.exists() for o, p in paths.items() if o != option)  # nothing played, nothing written


def test_two_records_started_together_one_writes_the_other_refuses(tmp_path):
    """Two real runs on one --out: one writes its own records whole; the other refuses, whether it
    meets the claim held or the file the first has written meanwhile."""
    out = tmp_path / "r.jsonl"
    runs = {seed: subprocess.Popen([str(KIAI), "record", "-s", "kyuzo,kikuchiyo", "-d", "easy", "-n", "200",
                                    "--seed", str(seed), "--out", str(out)], stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True)
            for seed in (1, 2)}  # fmt: skip
    done = {}
    for seed, p in runs.items():
        stdout, stderr = p.communicate(timeout=600)  # read as they run: a full pipe would stall them
        done[seed] = (p.returncode, stdout, stderr)
    codes = sorted(code for code, _, _ in done.values())
    assert codes == [0, 2], done
    winner = next(seed for seed, (code, _, _) in done.items() if code == 0)
    # a cold numba cache adds progress lines about compiling; the refusal is the one error line
    loser = [line for line in done[3 - winner][2].strip().splitlines() if line.startswith("kiai: error")]
    assert len(loser) == 1 and loser[0].startswith("kiai: error: --out") and (
        "being written by another kiai run" in loser[0] or "written by another run since" in loser[0]), loser
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 200 and {r["seed"] for r in records} == {winner}


# ------------------------------------------------------------------ temporaries named for their run

def test_a_dead_runs_temporary_is_cleaned_and_a_live_runs_is_left(capsys, tmp_path):
    out = tmp_path / "r.jsonl"
    dead = dead_temps(out)
    with process(LIVE, out) as (_, live):
        Path(live[0]).write_text("a live run's, being written")
        code, _, err = run(capsys, "record", "-s", "kyuzo,kikuchiyo", "-d", "easy", "-n", 2, "--out", out)
        assert code == 0, err
        assert not any(t.exists() for t in dead) and Path(live[0]).read_text() == "a live run's, being written"
    assert len(out.read_text().splitlines()) == 2


def test_a_sweep_leaves_a_live_runs_temporaries_alone(capsys, tmp_path):
    out = tmp_path / "s.parquet"
    dead = dead_temps(out, out.with_suffix(".csv"))
    with process(LIVE, out, out.with_suffix(".csv"), lines=2) as (_, live):
        for t in live:
            Path(t).write_text("a live run's checkpoint")
        code, _, err = run(capsys, "sweep", "--out", out, "-d", "easy", "--players", 2, "--lineups", "sample:1",
                           "-n", 20, "--csv")  # fmt: skip
        assert code == 0, err
        assert all(Path(t).read_text() == "a live run's checkpoint" for t in live)
    assert not any(t.exists() for t in dead)


# ------------------------------------------------------------------ a report written again

def test_a_second_report_removes_the_first_ones_extra_charts_only(capsys, tmp_path):
    small = tmp_path / "small.parquet"
    kiai.simulate("kyuzo,kikuchiyo", "easy", 30).to_frame().to_parquet(small)
    folder = tmp_path / "rep"
    folder.mkdir()
    big = folder / "results.parquet"  # a table in the report's folder, as `make report` leaves one
    import pandas as pd

    pd.concat([kiai.simulate(s, "easy", 30).to_frame() for s in
               ("kyuzo,kikuchiyo", "kyuzo,kikuchiyo,heihachi", "kyuzo,heihachi,kikuchiyo", "daisuke,kyuzo,heihachi")],
              ignore_index=True).to_parquet(big)  # fmt: skip
    (folder / "notes.txt").write_text("mine")
    code, _, err = run(capsys, "report", big, "--out", folder)
    assert code == 0 and (folder / "lineups_3.png").is_file(), err
    listed = (folder / "report-files.txt").read_text().split()
    assert "lineups_3.png" in listed and "report.html" in listed and "results.parquet" not in listed
    with open(folder / "report-files.txt", "a") as f:  # a hand that adds names: never removed for it
        f.write("results.parquet\nnotes.txt\n../small.parquet\n")
    code, _, err = run(capsys, "report", small, "--out", folder)
    assert code == 0, err
    left = {p.name for p in folder.iterdir()}
    assert "lineups_3.png" not in left and "lineups_3.svg" not in left and "neighbour_effects.csv" not in left
    assert {"results.parquet", "notes.txt", "report.html", "winrate_by_level.png"} <= left and small.exists()
    assert (folder / "notes.txt").read_text() == "mine"
    assert sorted((folder / "report-files.txt").read_text().split()) == sorted(left - {"results.parquet", "notes.txt"})
