"""The `kiai` command: outputs and one-line errors for bad input (exit 2, no traceback)."""

from __future__ import annotations

import json
import subprocess
import sys

import pandas as pd
import pytest
from kiai.strategies.registry import DEFAULT

from conftest import run

pytestmark = pytest.mark.usefixtures("engine")

JSON_KEYS = {
    "games", "wins", "win_rate", "ci95", "outcomes", "ended_in_round", "mean_barricades_left",
    "mean_farmsteads_left", "mean_families_left", "mean_wound_steps", "kiai_activations_per_game",
    "cards_confronted_per_game", "cards_defended_per_game", "stalled_games", "games_per_second",
    "seed", "strategy", "components_sha256",
}


def test_simulate_json_has_the_stable_keys(capsys):
    code, out, _ = run(capsys, "simulate", "-n", "500", "--seed", "4", "--json")
    assert code == 0
    data = json.loads(out)
    assert JSON_KEYS <= set(data)
    assert data["games"] == 500 and data["seed"] == 4 and data["strategy"] == DEFAULT
    assert sum(data["outcomes"].values()) == 500
    assert sum(data["ended_in_round"].values()) == 500
    assert data["wins"] == data["outcomes"]["win"]
    lo, hi = data["ci95"]
    assert 0 <= lo <= data["win_rate"] <= hi <= 1
    assert len(data["components_sha256"]) == 64


def test_simulate_is_reproducible_and_thread_independent(capsys):
    _, a, _ = run(capsys, "simulate", "-n", "800", "--seed", "9", "--json", "--threads", "1")
    _, b, _ = run(capsys, "simulate", "-n", "800", "--seed", "9", "--json", "--threads", "2")
    strip = lambda s: {k: v for k, v in json.loads(s).items() if k not in ("games_per_second", "seconds", "threads")}  # noqa: E731
    assert strip(a) == strip(b)


def test_simulate_text_summary(capsys):
    code, out, _ = run(capsys, "simulate", "-n", "300", "-s", "gorobei,kanbei,katsushiro", "-d", "easy")
    assert code == 0
    assert "win rate" in out and "95% CI" in out and "outcomes" in out and "games/s" in out


def test_simulate_writes_its_table_in_the_sweep_schema(capsys, tmp_path):
    from kiai.reports.playing.tables import COLUMNS

    for name in ("t.csv", "t.parquet"):
        path = tmp_path / name
        assert run(capsys, "simulate", "-n", "200", "--out", str(path))[0] == 0
        df = pd.read_csv(path) if name.endswith(".csv") else pd.read_parquet(path)
        assert list(df.columns) == list(COLUMNS)
        assert df.loc[0, "games"] == 200 and df.loc[0, "out_death"] + df.loc[0, "wins"] <= 200


def test_trace_reads_like_a_game(capsys):
    code, out, _ = run(capsys, "trace", "--seed", "2", "--game-index", "3")
    assert code == 0
    assert "=== Round 1 ===" in out and "'s turn" in out and "reveals" in out
    assert "End of round" in out or "Game over" in out
    assert out.strip().splitlines()[-1].startswith("The samurai")


def test_strategies_json(capsys):
    code, out, _ = run(capsys, "strategies", "--json")
    items = {s["name"]: s for s in json.loads(out)}
    assert code == 0 and {"reference", "random", "foresight"} <= set(items)
    assert items["reference"]["params"]["T"]["default"] == 3
    assert items["foresight"]["honest"] is False and items["reference"]["honest"] is True


BAD = [
    (["simulate", "-s", "kyuzo,nobody"], "unknown samurai"),
    (["simulate", "-s", "kyuzo,kyuzo"], "twice"),
    (["simulate", "-s", "kyuzo"], "2 to 7"),
    (["simulate", "-s", "heihachi,daisuke,gorobei,kanbei,kyuzo,katsushiro,kikuchiyo,heihachi"], "twice"),
    (["simulate", "-d", "nightmare"], "unknown difficulty"),
    (["simulate", "--strategy", "psychic"], "unknown strategy"),
    (["simulate", "--games", "0"], "at least 1"),
    (["simulate", "--games", "-5"], "at least 1"),
    (["simulate", "--games", "many"], "--games"),
    (["simulate", "--param", "T"], "NAME=VALUE"),
    (["simulate", "--param", "risk=1.2.3"], "not a number"),
    (["simulate", "--param", "risk=abc"], "number"),
    (["simulate", "--param", "edge=9"], "must be in"),
    (["simulate", "--param", "Q=1"], "no parameter"),
    (["simulate", "--absent-tokens", "maybe"], "on, off or auto"),
    (["simulate", "--components", "/no/such/file.toml"], "/no/such/file.toml"),
    (["simulate", "--seed", "-1"], "--seed"),
    (["simulate", "--threads", "0"], "--threads"),
    (["trace", "--game-index", "-1"], "--game-index"),
    (["bench", "--games", "0"], "at least 1"),
    (["simulate", "--frobnicate"], "No such option"),
]


@pytest.mark.parametrize("argv,words", BAD)
def test_bad_input_is_one_line_and_exit_2(capsys, argv, words):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kiai: error:"), err
    assert words in lines[0]


def test_invalid_component_file_is_rejected(capsys, tmp_path):
    from kiai.simcore.components import default_components_path

    text = default_components_path().read_text().replace("kyuzo      = { human = 9", "kyuzo      = { human = 99")
    bad = tmp_path / "bad.toml"
    bad.write_text(text)
    code, _, err = run(capsys, "simulate", "--components", str(bad))
    assert code == 2 and "bad.toml" in err and "kyuzo" in err and len(err.strip().splitlines()) == 1


def test_console_script_has_no_traceback():
    done = subprocess.run([sys.executable, "-m", "cli", "simulate", "-s", "x,y"],
                          capture_output=True, text=True, check=False)  # fmt: skip
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1


def test_training_stages_rate_leaves_out_the_first_step(monkeypatch, capsys):
    """A stage's rate counts from its first advance: the first step may compile what it plays
    (a minute), and a rate over it would understate the speed many times over."""
    import time

    from rich.console import Console
    from rich.progress import Progress

    from kiai.cli.common import StageBars

    clock = iter([0.0, 60.0, 61.0, 62.0, 62.5])  # stage start; then three advances; the epoch stage
    monkeypatch.setattr(time, "perf_counter", lambda: next(clock))
    bars = StageBars(Progress(console=Console(file=sys.stderr, force_terminal=False)))
    bars.stage("self-play", 300)
    bars.advance(100)  # 60 s: compiling, then 100 games
    assert bars._rate(60.0) == ""
    bars.advance(100)
    bars.advance(100)  # 200 games in the 2 s after the first step: 100 games/s, not 300 / 62 s
    err = capsys.readouterr().err
    assert "self-play: 300 to do" in err and "self-play: 300 of 300 in 1.0 min (100 games/s)" in err
    assert "self-play: 100 of 300 in 1.0 min\n" in err  # no rate from the first step alone
    bars.stage("fit", 6, unit="epochs")
    assert bars.unit == "epochs" and bars._rate(62.5) == ""


@pytest.mark.parametrize("argv, now", [
    (["train-value", "run", "--player", "selfplay"], "kiai train value"),
    (["ship-value", "value-0.npz"], "kiai train ship"),
    (["train", "kiai-train", "--games", "10"], "kiai train learned"),
])
def test_training_commands_of_earlier_spellings_end_in_a_hint(capsys, argv, now):
    """The training commands are one group (`kiai train learned|value|ship`): an earlier spelling
    ends in one line that names what to type now, exit 2, before anything runs."""
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and err.count("\n") == 1 and now in err and "kiai: error:" in err


def test_training_commands_are_one_group(capsys):
    """`kiai --help` lists `train` once, not three training commands beside the analyses."""
    code, out, _ = run(capsys, "--help")
    listed = [line.split()[0] for line in out.split("Commands:")[1].splitlines() if line.strip()]
    assert "train" in listed and not {"train-value", "ship-value"} & set(listed)
    code, out, _ = run(capsys, "train", "--help")
    assert code == 0 and all(name in out for name in ("learned", "value", "ship"))


def test_strategies_lists_the_users_parameters_and_all_lists_the_experts(capsys):
    """`kiai strategies` shows each strategy's user-level parameters and how many expert ones it
    hides; --all shows those too, marked, and the default's own play on each family; --json marks
    every parameter."""

    code, out, _ = run(capsys, "strategies")
    selfplay = out.split("\nselfplay")[1].split("\nlookahead")[0]
    assert code == 0 and "--param chance=" in selfplay and "--param risk=" not in selfplay
    assert "expert parameters: kiai strategies --all" in selfplay and "kiai strategies --all lists them" in selfplay
    code, out, _ = run(capsys, "strategies", "--all")
    selfplay = out.split("\nselfplay")[1].split("\nlookahead")[0]
    assert "--param risk=" in selfplay and "[expert]" in selfplay and "4@normal: risk 0.835" in selfplay
    assert "7@hard: learned's answers" in selfplay
    code, out, _ = run(capsys, "strategies", "--json")
    items = {it["name"]: it for it in json.loads(out)}
    assert items["selfplay"]["params"]["risk"]["expert"] and not items["selfplay"]["params"]["chance"]["expert"]
    assert not items["keeper"]["params"]["risk"]["expert"] and "4@normal" in items["selfplay"]["family_plays"]
