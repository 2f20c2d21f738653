"""What a new user hits first: output paths, sizes, progress, the seating typed, first-run silence.

Each test names the item of the rough-edges issue it pins (#1 to #19)."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from conftest import RecordingBar, one_line_error, run

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

pytestmark = pytest.mark.usefixtures("engine")

ROOT = Path(__file__).resolve().parent.parent
UNWRITABLE = Path("/proc")  # no one, root included, can create files there


@pytest.fixture
def no_games(monkeypatch):
    """Fails the test if any game is played (every command plays through reports.playing.play.play_block)."""
    from kiai.reports.playing import play as S

    def refuse(*a, **k):
        raise AssertionError("a game was played before the output path was checked")

    monkeypatch.setattr(S, "play_block", refuse)


# ------------------------------------------------------------------ #1-3, #17: output paths


@pytest.mark.parametrize("name", ["x.csv", "x.parquet"])
def test_simulate_unwritable_out_fails_before_playing(capsys, no_games, name):  # 1
    one_line_error(*run(capsys, "simulate", "-n", 5000, "--out", UNWRITABLE / name), "--out", "cannot write")


def test_simulate_out_naming_a_folder_fails_before_playing(capsys, no_games, tmp_path):  # 1
    folder = tmp_path / "t.csv"
    folder.mkdir()
    one_line_error(*run(capsys, "simulate", "-n", 5000, "--out", folder), "is a folder")


def test_simulate_prints_its_summary_when_a_late_write_fails(capsys, monkeypatch, tmp_path):  # 1
    from kiai.reports.playing.simulation import Simulation

    def disk_full(*a):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Simulation, "write_table", disk_full)
    code, out, err = run(capsys, "simulate", "-n", 300, "--out", tmp_path / "t.csv")
    # (a cold cache adds the compile notes of strategies.run.warm.warm_engine)
    err = [line for line in err.strip().splitlines() if "compil" not in line]
    assert code == 1 and "win rate" in out and len(err) == 1 and "No space left" in err[0]


@pytest.mark.parametrize("where", ["proc", "folder"])
def test_sweep_bad_out_fails_before_the_first_configuration(capsys, no_games, tmp_path, where):  # 2
    if where == "proc":
        out = UNWRITABLE / "x.parquet"
        words = ("cannot write",)
    else:
        out = tmp_path / "x.parquet"
        out.mkdir()
        words = ("is a folder",)
    one_line_error(*run(capsys, "sweep", "--out", out, "--force", "-n", 1000, "--lineup", "kyuzo,heihachi"), *words)


def test_sweep_unwritable_csv_companion_fails_first(capsys, no_games, tmp_path):  # 2
    (tmp_path / "x.csv").mkdir()
    one_line_error(*run(capsys, "sweep", "--out", tmp_path / "x.parquet", "--csv", "-n", 1000,
                        "--lineup", "kyuzo,heihachi"), "--csv", "is a folder")  # fmt: skip


def test_tune_unwritable_out_fails_before_the_search(capsys, no_games):  # 3
    one_line_error(*run(capsys, "tune", "reference", "-n", 1000, "-k", 2, "-o", UNWRITABLE / "t.json"),
                   "cannot write")  # fmt: skip


def test_tune_prints_the_best_parameters_when_a_late_write_fails(capsys, monkeypatch, tmp_path):  # 3
    from kiai import outputs

    def disk_full(*a, **k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(outputs, "finish", disk_full)  # every file kiai writes passes here
    code, out, err = run(capsys, "tune", "reference", "-s", "kyuzo,heihachi,daisuke", "-d", "easy", "-n", 300,
                         "-k", 2, "-o", tmp_path / "t.json")  # fmt: skip
    assert code == 1 and "best parameters" in out and "No space left" in err


@pytest.mark.parametrize("argv", [["simulate", "-n", 100], ["tune", "reference", "-n", 100, "-k", 2]])
def test_existing_output_needs_force(capsys, no_games, tmp_path, argv):  # 17
    path = tmp_path / ("t.json" if argv[0] == "tune" else "t.csv")
    path.write_text("keep me")
    one_line_error(*run(capsys, *argv, "--out", path), "exists", "--force")
    assert path.read_text() == "keep me"


def test_force_replaces_an_existing_output(capsys, tmp_path):  # 17
    path = tmp_path / "t.csv"
    path.write_text("old")
    assert run(capsys, "simulate", "-n", 100, "--out", path, "--force")[0] == 0
    assert pd.read_csv(path).loc[0, "games"] == 100


# ------------------------------------------------------------------------- #4-6: sizes and lists


def test_trace_game_index_is_bounded_like_the_seed(capsys):  # 4
    one_line_error(*run(capsys, "trace", "--game-index", 2**63), "--game-index", "2**63-1")
    code, out, _ = run(capsys, "trace", "--game-index", 2**63 - 1)
    assert code == 0 and out.strip().splitlines()[-1].startswith("The samurai")


@pytest.mark.parametrize("command", ["simulate", "compare", "bench"])
def test_absurd_game_counts_are_refused(capsys, no_games, command):  # 5
    one_line_error(*run(capsys, command, "-n", "99999999999999999999999"), "--games", "at most 100,000,000")


def test_max_games_zero_is_refused_not_ignored(capsys, no_games, tmp_path):  # 6
    one_line_error(*run(capsys, "sweep", "--out", tmp_path / "s.parquet", "--precision", 0.01, "--max-games", 0,
                        "--lineup", "kyuzo,heihachi"), "--max-games")  # fmt: skip


def test_too_many_threads_are_named(capsys):  # 6
    import numba

    code, _, err = run(capsys, "simulate", "-n", 100, "--threads", 1000)
    assert code == 0
    assert f"--threads 1000: this machine runs at most {numba.config.NUMBA_NUM_THREADS}" in err


def test_a_sample_larger_than_the_line_ups_is_named(capsys, tmp_path):  # 6
    code, _, err = run(capsys, "sweep", "--out", tmp_path / "s.parquet", "--players", 6, "--lineups",
                       "sample:10000", "-n", 100)  # fmt: skip
    assert code == 0 and "only 7 line-ups of 6 samurai; playing all of them" in err
    assert len(pd.read_parquet(tmp_path / "s.parquet")) == 7


@pytest.mark.parametrize("argv", [
    ["simulate", "-s", "kyuzo,,heihachi"],
    ["simulate", "-s", "kyuzo,heihachi,"],
    ["compare", "--lineup", "kyuzo,,heihachi,daisuke"],
    ["tune", "reference", "-s", "kyuzo,,heihachi"],
])  # fmt: skip
def test_an_empty_samurai_name_is_refused(capsys, no_games, argv):  # 6
    one_line_error(*run(capsys, *argv), "empty name")


def test_sweep_lineup_with_an_empty_name_is_refused(capsys, no_games, tmp_path):  # 6
    one_line_error(*run(capsys, "sweep", "--out", tmp_path / "s.parquet", "--lineup", "kyuzo,,heihachi"),
                   "empty name")  # fmt: skip


@pytest.mark.parametrize("command", ["simulate", "trace", "bench"])
def test_a_parameter_given_twice_is_refused(capsys, no_games, command):  # 6
    one_line_error(*run(capsys, command, "--param", "T=3", "--param", "T=4"), "--param T", "twice")


# ------------------------------------------------------------------------------ #7: report input


def _table(capsys, tmp_path) -> Path:
    path = tmp_path / "sim.parquet"
    assert run(capsys, "simulate", "-n", 300, "-d", "easy", "-s", "kyuzo,heihachi,daisuke", "--out", path)[0] == 0
    return path


def test_report_on_text_counts_is_one_line_and_leaves_no_folder(capsys, tmp_path):  # 7
    df = pd.read_parquet(_table(capsys, tmp_path))
    bad = tmp_path / "bad.csv"
    df.assign(wins="many").to_csv(bad, index=False)
    out = tmp_path / "rep"
    one_line_error(*run(capsys, "report", bad, "--out", out), "wins", "whole number")
    assert not out.exists()


def test_report_on_a_folder_reads_its_results_table(capsys, tmp_path):  # 7
    folder = tmp_path / "kiai-report"
    folder.mkdir()
    _table(capsys, tmp_path).rename(folder / "results.parquet")
    code, out, _ = run(capsys, "report", folder, "--out", tmp_path / "rep")
    assert code == 0 and (tmp_path / "rep" / "report.html").is_file()
    one_line_error(*run(capsys, "report", tmp_path / "rep"), "is a folder without a results.parquet")


# ---------------------------------------------------------------- #8: stale companions of a sweep


def test_force_removes_the_old_tables_before_playing(tmp_path):  # 8
    from kiai.reports.playing import sweep as S
    from kiai.strategies.run.config import GameConfig

    out = tmp_path / "s.parquet"
    out.write_text("old table")
    out.with_suffix(".csv").write_text("old,csv\n")
    S.Sweep([GameConfig(("kyuzo", "heihachi"))], 0, S.Request(games=10), out, csv=True, force=True)
    assert not out.exists() and not out.with_suffix(".csv").exists()


# --------------------------------------------------------------------------- #9-11: progress


def test_play_range_moves_in_small_parts_for_a_slow_strategy(monkeypatch):  # 9
    from kiai.reports.playing import play as S
    from kiai.strategies.run.config import GameConfig

    config = GameConfig(("kyuzo", "heihachi"))
    real = S.play_block
    parts = []

    def slow(config, seed, offset, count):  # 200 games/s, like a planner
        time.sleep(count / 200)
        parts.append(count)
        return real(config, seed, offset, count)

    monkeypatch.setattr(S, "play_block", slow)
    seen = []
    rows = np.concatenate(list(S.play_chunks(config, 3, 0, 300, seen.append)))
    assert seen == parts and sum(parts) == 300 and parts[0] == S.FIRST_CHUNK
    assert max(parts) <= 4 * S.FIRST_CHUNK * S.CHUNK_SECONDS * 200  # about half a second each
    assert np.array_equal(rows, real(config, 3, 0, 300))  # the parts change no game


def test_play_range_grows_to_full_blocks_for_a_fast_strategy(monkeypatch):  # 9
    from kiai.reports.playing import play as S

    parts = []
    monkeypatch.setattr(S, "play_block", lambda c, s, o, k: parts.append(k) or np.zeros((k, 1), np.int32))
    list(S.play_chunks(None, 0, 0, 4 * S.BLOCK, None))
    assert parts[0] == S.FIRST_CHUNK and parts[-2] == S.BLOCK and sum(parts) == 4 * S.BLOCK


def test_the_rate_shown_is_the_recent_speed():  # 9
    from rich.progress import Progress

    from kiai.cli.common import RateColumn

    clock = [0.0]
    bar = Progress(RateColumn(), get_time=lambda: clock[0], speed_estimate_period=10, disable=True)
    task = bar.add_task("games", total=None, rate="")
    for _ in range(5):  # a fast arm: 10,000 games a second ...
        clock[0] += 1
        bar.advance(task, 10_000)
    for _ in range(20):  # ... then a slow one: 100 games a second
        clock[0] += 1
        bar.advance(task, 100)
    assert str(RateColumn().render(bar.tasks[0])) == "100 games/s"


def test_a_one_configuration_sweep_counts_its_games(capsys, monkeypatch, tmp_path):  # 10
    from kiai.cli import sweep as cli_sweep

    bar = RecordingBar()
    monkeypatch.setattr(cli_sweep, "progress", bar)
    assert run(capsys, "sweep", "--out", tmp_path / "s.parquet", "--lineup", "kyuzo,heihachi", "-n", 3000)[0] == 0
    games = next(i for i, t in enumerate(bar.tasks) if t["description"] == "games")
    assert bar.tasks[games]["total"] == 3000 and bar.tasks[games]["completed"] == 3000
    assert sum(1 for t, _ in bar.moves if t == games) > 1  # it moved before the end


def test_simulate_bar_advances_in_parts(capsys, monkeypatch):  # 9
    from kiai.cli import simulate as cli_simulate

    bar = RecordingBar()
    monkeypatch.setattr(cli_simulate, "progress", bar)
    assert run(capsys, "simulate", "-n", 2000)[0] == 0
    assert bar.moves[0] == (0, 16) and sum(k for _, k in bar.moves) == 2000


def test_a_slow_start_says_the_engine_is_compiling(capsys, monkeypatch):  # 11
    from kiai.cli.common import stderr
    from kiai.strategies.run import compiling, games, warm

    monkeypatch.setattr(warm, "COMPILE_NOTE_AFTER", 0.05)
    monkeypatch.setattr(compiling, "prepare", lambda configs: None)
    monkeypatch.setattr(games, "run_games", lambda config, n, seed: time.sleep(0.3))
    monkeypatch.setattr(compiling, "uncompiled", lambda configs: (True, ["learned"]))  # a cold cache
    warm.warm_engine(None, note=stderr)
    err = capsys.readouterr().err
    assert "compiling the engine and the strategies it plays (learned)" in err
    assert "compiled the engine and the strategies it plays (learned) in 0 s (cached for later runs)" in err
    assert "once" not in err

    # a later command that plays new strategies: the engine is cached, they are compiled
    monkeypatch.setattr(compiling, "uncompiled", lambda configs: (False, ["lookahead", "foresight"]))
    warm.warm_engine(None, note=stderr)
    err = capsys.readouterr().err
    assert "compiling strategies lookahead, foresight, played for the first time" in err
    assert "compiling the engine" not in err and "once" not in err

    # everything cached but slow to load (a busy machine): nothing is said to compile
    monkeypatch.setattr(compiling, "uncompiled", lambda configs: (False, []))
    warm.warm_engine(None, note=stderr)
    err = capsys.readouterr().err
    assert "loading the compiled engine" in err and "compil" not in err.replace("compiled", "")


def test_games_per_second_leave_the_compile_out(capsys, monkeypatch):  # 11
    from kiai.strategies.run import games

    real, calls = games.run_games, []

    def first_call_compiles(*a, **k):
        if not calls:
            time.sleep(1.5)
        calls.append(1)
        return real(*a, **k)

    monkeypatch.setattr(games, "run_games", first_call_compiles)
    code, out, _ = run(capsys, "simulate", "-n", 1000, "--json")
    assert code == 0 and json.loads(out)["seconds"] < 1.0


def test_bench_says_what_it_is_timing(capsys, monkeypatch):  # 11
    from kiai import bench

    monkeypatch.setattr(bench, "_probe", lambda cache, strategy: 0.5)
    code, _, err = run(capsys, "bench", "-n", 1000)
    assert code == 0 and "timing a cold compile" in err and "playing 1,000 games" in err


def test_make_report_prints_its_stages_and_times():  # 12
    # -n prints the recipes without running them (none calls $(MAKE), which -n would run);
    # -W pretends pyproject.toml changed, so the set-up stage is shown too
    done = subprocess.run(["make", "-n", "-W", "pyproject.toml", "report"], cwd=ROOT, capture_output=True,
                          text=True, check=True)  # fmt: skip
    lines = done.stdout
    for stage in ("set-up", "sweep", "advice", "agreement", "ladder", "planners", "report"):  # each by its first word
        assert f'echo "== {stage}' in lines and f'echo "== {stage} done in $((' in lines
    assert "make report: sweep and report in" in lines


# ---------------------------------------------------------------- #13-15: what the output says


def test_compare_shows_the_seating_as_typed_with_simulates_figures(capsys):  # 13
    typed = "kyuzo,kikuchiyo,heihachi,daisuke"
    code, out, _ = run(capsys, "compare", "--lineup", typed, "-d", "easy", "-n", 3000, "--seed", 4, "--json")
    items = {e["seating"]: e for e in json.loads(out)}
    assert code == 0 and len(items) == 6 and all(s.startswith("kyuzo,") for s in items)
    assert [s for s, e in items.items() if e["as_typed"]] == [typed]
    code, out, _ = run(capsys, "simulate", "-s", typed, "-d", "easy", "-n", 3000, "--seed", 4, "--json")
    assert items[typed]["wins"] == json.loads(out)["wins"]


def test_every_table_kiai_writes_can_be_reported(capsys, tmp_path):  # 14
    code, out, err = run(capsys, "report", _table(capsys, tmp_path), "--out", tmp_path / "rep")
    assert code == 0, err
    assert (tmp_path / "rep" / "report.html").is_file()


def test_absent_tokens_a_strategy_ignores_are_named(capsys):  # 15
    _, out, _ = run(capsys, "simulate", "-n", 100, "-s", "kyuzo,heihachi,daisuke", "--absent-tokens", "on",
                    "--strategy", "reference")  # fmt: skip
    assert "absent tokens on (this strategy never uses them: no effect)" in out.splitlines()[0]
    _, out, _ = run(capsys, "simulate", "-n", 100, "-s", "kyuzo,heihachi,daisuke", "--absent-tokens", "on",
                    "--strategy", "counter")  # fmt: skip
    assert out.splitlines()[0].endswith("absent tokens on")
    _, out, _ = run(capsys, "simulate", "-n", 100, "-s", "kyuzo,heihachi,daisuke", "--absent-tokens", "on", "--json",
                    "--strategy", "reference")  # fmt: skip
    assert json.loads(out)["absent_tokens_unused"] is True


def test_strategies_marks_the_default(capsys):  # 18
    from kiai.strategies.registry import DEFAULT

    code, out, _ = run(capsys, "strategies", "--json")
    assert code == 0 and [s["name"] for s in json.loads(out) if s["default"]] == [DEFAULT]
    _, out, _ = run(capsys, "strategies")
    assert f"{DEFAULT}  (default)" in out.splitlines()


def test_the_package_declares_license_and_data_the_current_way():  # 19
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert isinstance(meta["project"]["license"], str)  # an SPDX expression, not a table
    setup = meta["tool"]["setuptools"]
    # the five folders at the top install under the one name kiai (no clash with a user's own
    # reports/ or cli/): kiai.simcore is simcore/, and so on
    dirs = setup["package-dir"]
    assert dirs == {"kiai": "kiai", **{f"kiai.{f}": f for f in ("simcore", "strategies", "training", "reports", "cli")}}
    for package, patterns in setup["package-data"].items():
        assert package in setup["packages"] and all("/" not in p for p in patterns)
    for package in setup["packages"]:  # every listed package is a folder with the files it names
        top, _, rest = package.removeprefix("kiai.").partition(".")
        folder = (ROOT / dirs.get(f"kiai.{top}", f"kiai/{top}") / rest.replace(".", "/") if package != "kiai"
                  else ROOT / "kiai")  # a package not mapped (kiai.inputs) is a folder of kiai/
        assert folder.is_dir(), package
    for folder in ROOT.glob("*/*/"):  # every folder inside a package is a listed package
        if f"kiai.{folder.parent.name}" in setup["packages"] and not folder.name.startswith(("_", ".")):
            assert f"kiai.{folder.parent.name}.{folder.name}" in setup["packages"], folder
    # setuptools warns about the import hook of such an editable install; make silences it
    assert "PYTHONWARNINGS=ignore" in (ROOT / "Makefile").read_text()


def test_version_names_what_results_are_made_with(capsys):
    from kiai.strategies.learned import load_model as load
    from kiai.strategies.nets.modelfile import AFTER, family_path
    from kiai.strategies.nets.modelfile import load as load_file

    code, out, err = run(capsys, "--version")
    assert code == 0 and err == ""
    assert out.startswith("kiai ") and f"learned's model {load().sha256[:12]}" in out
    shipped = sum(family_path(k, lv) is not None for k in range(2, 8) for lv in ("easy", "normal", "hard", "heroic"))
    assert f"selfplay's values of {shipped} families " in out
    components = out.split("components ")[1].rstrip(")\n")
    code, out, _ = run(capsys, "simulate", "-n", 10, "--strategy", "learned")
    assert code == 0 and f"components {components}" in out and f"strategy learned (model, {load().sha256[:8]})" in out
    # the default plays its table's family value (4 samurai at Normal): results name that file
    code, out, _ = run(capsys, "simulate", "-n", 10)
    value = load_file(family_path(4, 'normal'), AFTER).sha256[:8]
    assert code == 0 and f"strategy selfplay (family value 4 samurai normal, {value}, tuned play)" in out


def test_version_reports_a_damaged_shipped_model(capsys, tmp_path, monkeypatch):
    from kiai.strategies.nets import modelfile

    broken = tmp_path / "learned.npz"
    broken.write_bytes(b"not a model")
    monkeypatch.setattr(modelfile, "shipped_path", lambda kind: broken)
    code, out, err = run(capsys, "--version")
    assert code == 0 and err == "" and out.count("\n") == 1
    assert f"learned's model unreadable: model {broken}: not a kiai model file" in out


# ------------------------------------------------ "A newcomer's first hour", item 8: small slips

KNOWN = "heihachi, daisuke, gorobei, kanbei, kyuzo, katsushiro, kikuchiyo"  # simcore.codes.SAMURAI


@pytest.mark.parametrize("argv", [
    ["simulate", "-s", "bob,kyuzo,eve,heihachi"],
    ["trace", "-s", "bob,kyuzo,eve,heihachi"],
    ["record", "-s", "bob,kyuzo,eve,heihachi"],
    ["compare", "--lineup", "bob,kyuzo,eve,heihachi"],
    ["compare", "--lineup", "bob,kyuzo,eve,heihachi", "--strategies", "reference,keeper"],
    ["compare", "--lineup", "bob,kyuzo,eve,heihachi", "--rules", "heal=any,wounded"],
    ["tune", "reference", "-s", "bob,kyuzo,eve,heihachi"],
    ["sweep", "--out", "s.parquet", "--lineup", "bob,kyuzo,eve,heihachi"],
    ["train", "learned", "--eval", "bob,kyuzo,eve,heihachi:normal"],
])  # fmt: skip
def test_unknown_samurai_are_named_in_one_form(capsys, no_games, tmp_path, monkeypatch, argv):  # item 8.1
    monkeypatch.chdir(tmp_path)  # sweep's --out
    if argv[0] == "train":
        pytest.importorskip("torch")
    code, out, err = run(capsys, *argv)
    assert (code, out, err) == (2, "", f"kiai: error: unknown samurai 'bob', 'eve' (known: {KNOWN})\n")


def test_the_library_names_unknown_samurai_in_the_same_form():  # item 8.1
    from kiai.simcore.seatings import seatings_from

    with pytest.raises(ValueError) as e:
        seatings_from("kyuzo,bob,heihachi")
    assert str(e.value) == f"unknown samurai 'bob' (known: {KNOWN})"


def test_plural_is_singular_for_one():  # item 8.2
    from kiai.words import plural

    assert plural(1, "configuration") == "1 configuration"
    assert plural(2, "configuration") == "2 configurations"
    assert plural(0, "game") == "0 games"
    assert plural(20_000, "game") == "20,000 games"
    assert plural(1, "strategy", "strategies") == "1 strategy"
    assert plural(3, "strategy", "strategies") == "3 strategies"


def test_compare_of_two_seatings_speaks_of_one_comparison(capsys):  # item 8.2
    code, out, _ = run(capsys, "compare", "--lineup", "kyuzo,heihachi,daisuke", "-d", "easy", "-n", 200)
    assert code == 0 and "2 seatings x 200 games, seed 0" in out
    assert "Holm-adjusted over the 1 comparison with the best seating" in out


def test_compare_of_two_strategies_speaks_of_one_pair(capsys):  # item 8.2
    code, out, _ = run(capsys, "compare", "--lineup", "kyuzo,heihachi", "--strategies", "reference,random",
                       "-d", "easy", "-n", 200)  # fmt: skip
    assert code == 0 and "adjusted over the 1 pair ('yes'" in " ".join(out.split())


def test_a_one_configuration_sweep_says_configuration(capsys, tmp_path):  # item 8.2
    code, out, _ = run(capsys, "sweep", "--out", tmp_path / "s.parquet", "--lineup", "kyuzo,heihachi",
                       "--strategy", "reference", "-n", 200)  # fmt: skip
    assert code == 0 and out.startswith("sweep: 1 configuration (1 played, 0 resumed), 200 games;")


def test_a_one_configuration_report_says_configuration():  # item 8.2
    from kiai.reports.page.opening import summary as _summary

    assert _summary(pd.DataFrame({"games": [300], "wins": [12]})) == "1 configuration, 300 games, 12 won."


def test_kiai_help_gives_whole_summaries(capsys):  # item 8.3
    from typer.main import get_command

    from kiai.cli.main import app

    code, out, _ = run(capsys, "--help")
    listed = out.split("Commands:")[1]
    assert code == 0 and "..." not in listed
    for name, command in get_command(app).commands.items():
        summary = command.short_help  # one short sentence, shown whole
        assert summary and summary.endswith(".") and len(summary) <= 70, name
        assert _squeezed(f"{name} {summary}") in _squeezed(listed)


def _squeezed(text: str) -> str:
    """Help text without its white space: the same words however wide the terminal wraps them."""
    return "".join(text.split())


def test_sweep_help_quotes_the_default_presets_real_games(capsys, monkeypatch):  # item 8.4
    from kiai.reports.playing import presets

    code, out, _ = run(capsys, "sweep", "--help")
    text = _squeezed(out)
    assert code == 0 and _squeezed(presets.PRESETS["default"]) in text and "20,000" not in text
    assert _squeezed(f"up to {presets.DEFAULT_GAMES:,} each") in text
    monkeypatch.setitem(presets.PRESETS, "default", "every line-up once; 7 games each")  # read, not copied
    assert _squeezed("every line-up once; 7 games each") in _squeezed(run(capsys, "sweep", "--help")[1])


@pytest.mark.parametrize("argv", [
    ["simulate", "-n", 200, "--out", "x.parquet"],
    ["sweep", "-n", 200, "--lineup", "kyuzo,heihachi", "--out", "x.parquet"],
    ["sweep", "-n", 200, "--lineup", "kyuzo,heihachi", "--csv", "--out", "x.parquet"],
    ["record", "--out", "x.jsonl"],
    ["tune", "reference", "-n", 200, "-k", 2, "--out", "t.json"],
])  # fmt: skip
def test_a_missing_output_folder_is_refused_before_playing(capsys, no_games, tmp_path, argv):  # item 8.5
    missing = tmp_path / "no" / "such"
    path = missing / argv[-1]
    code, out, err = run(capsys, *argv[:-1], path)
    assert (code, out, err) == (2, "", f"kiai: error: --out {path}: folder {missing} does not exist; create it first\n")
    assert not (tmp_path / "no").exists()


def test_report_makes_its_own_folder_but_not_its_parent(capsys, tmp_path):  # item 8.5
    table = _table(capsys, tmp_path)
    out = tmp_path / "no" / "rep"
    code, printed, err = run(capsys, "report", table, "--out", out)
    assert (code, printed, err) == (2, "", f"kiai: error: --out {out}: folder {out.parent} does not exist; "
                                           "create it first\n")  # fmt: skip
    assert not out.parent.exists()
