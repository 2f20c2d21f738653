"""`kiai compare --strategies`, `kiai tune` and --params-file, end to end."""

from __future__ import annotations

import contextlib
import io
import json
import re

import numpy as np
import pandas as pd
import pytest

from kiai.cli.main import main
from kiai.reports.playing.racing import deal_seed
from kiai.reports.search import tune as T
from kiai.simcore.stats import holm, paired_test
from kiai.simcore import results as L
from kiai.strategies.run.config import GameConfig
from kiai.strategies.run.games import run_games
from kiai.strategies.registry import DEFAULT
from conftest import one_line_error, run

pytestmark = pytest.mark.usefixtures("engine")

SEATING = ("kyuzo", "heihachi", "daisuke")
TRIO = ",".join(SEATING)


def quiet(*argv):
    """main() in a module fixture (no capsys): (exit code, stdout)."""
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        code = main([str(a) for a in argv])
    return code, buf.getvalue()


def wins_of(strategy, games, seed, offset=0, seating=SEATING, level="easy", **params):
    return run_games(GameConfig(seating, level, strategy, params), games, seed, game_offset=offset)[:, L.O_OUTCOME] == 0


def write(path, data):
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return path


# -------------------------------------------------------------------- compare --strategies

GAMES = 3000


@pytest.fixture(scope="module")
def compared():
    code, out = quiet("compare", "--strategies", "reference,random,foresight", "-s", TRIO, "-d", "easy",
                      "-n", GAMES, "--seed", 4, "--param", "reference.T=2", "--json")  # fmt: skip
    assert code == 0
    wins = {"reference": wins_of("reference", GAMES, 4, T=2), "random": wins_of("random", GAMES, 4),
            "foresight": wins_of("foresight", GAMES, 4)}  # fmt: skip
    return json.loads(out), wins


def test_compare_strategies_json_rates(compared):
    doc, wins = compared
    assert doc["mode"] == "strategies" and doc["seating"] == list(SEATING) and doc["difficulty"] == "easy"
    assert doc["games"] == GAMES and doc["seed"] == 4
    rows = {r["strategy"]: r for r in doc["strategies"]}
    assert set(rows) == set(wins)
    for name, w in wins.items():  # each arm played games 0..N-1 of the seed, as run_games does
        assert rows[name]["wins"] == int(w.sum()) and rows[name]["games"] == GAMES
        lo, hi = rows[name]["ci95"]
        assert lo <= rows[name]["win_rate"] <= hi and rows[name]["ci_method"] in ("wilson", "clopper-pearson")
    assert rows["reference"]["params"] == {"T": 2} and rows["foresight"]["params"] == {
        "samples": 1, "base": 0, "horizon": 0, "support": 1, "farm": 2.0, "family": 5.0, "wound": 1.0, "scarce": 0.0,
        "value": 0, "margin": 0.0, "decisions": 0,
    }
    assert rows["random"]["params"] == {}
    assert rows["foresight"]["honest"] is False and rows["reference"]["honest"] is True
    rates = [r["win_rate"] for r in doc["strategies"]]
    assert rates == sorted(rates, reverse=True) and [r["rank"] for r in doc["strategies"]] == [1, 2, 3]
    assert rows["foresight"]["wins"] > rows["reference"]["wins"] > 0


def test_compare_strategies_every_pair_is_a_paired_test(compared):
    doc, wins = compared
    pairs = doc["pairs"]
    k = len(doc["strategies"])
    assert len(pairs) == k * (k - 1) // 2 == 3
    order = [r["strategy"] for r in doc["strategies"]]
    assert [(p["a"], p["b"]) for p in pairs] == [(order[0], order[1]), (order[0], order[2]), (order[1], order[2])]
    raw = []
    for p in pairs:
        t = paired_test(wins[p["a"]], wins[p["b"]])
        assert p["discordant"] == [t["a_only"], t["b_only"]]
        assert p["diff"] == pytest.approx(wins[p["a"]].mean() - wins[p["b"]].mean())
        assert p["diff_ci"] == pytest.approx(list(t["diff_ci"]))
        assert p["p_value"] == pytest.approx(t["pvalue"], rel=1e-9, abs=0)
        raw.append(t["pvalue"])
    assert [p["p_holm"] for p in pairs] == pytest.approx(list(holm(raw)), rel=1e-9, abs=0)
    assert [p["significant"] for p in pairs] == [bool(p["p_holm"] < 0.05) for p in pairs]
    # foresight wins far more often than random on the same deals
    fr = next(p for p in pairs if {p["a"], p["b"]} == {"foresight", "random"})
    assert fr["a"] == "foresight" and fr["diff"] > 0.02 and fr["significant"]


def test_compare_strategies_text(capsys, tmp_path):
    pf = write(tmp_path / "f.json", {"strategy": "foresight", "params": {"base": 3}})
    code, out, _ = run(capsys, "compare", "--strategies", "reference,foresight", "-s", TRIO, "-d", "easy", "-n", 2000,
                       "--params-file", pf)  # fmt: skip
    assert code == 0
    assert "strategies on kyuzo,heihachi,daisuke (seat 0 first) at easy" in out
    table = [line for line in out.splitlines() if re.match(r"^\s+\d+\s", line)]
    assert len(table) == 2
    fs = next(line for line in table if "foresight" in line)
    ref = next(line for line in table if "reference" in line)
    assert "(cheating)" in fs and "base=3" in fs and "(cheating)" not in ref and "T=3" in ref
    pair_lines = [line for line in out.splitlines() if " - " in line and " pp " in line]
    assert len(pair_lines) == 1 and "McNemar" in out and "Holm" in out
    rate = float(fs.split("%")[0].split()[-1])
    assert rate == pytest.approx(100 * wins_of("foresight", 2000, 0, base=3).mean(), abs=1e-3)


BAD_STRATEGIES = [
    (["--strategies", "reference,reference"], "twice"),
    (["--strategies", "reference[T=3],reference[T=3]"], "twice"),
    (["--strategies", "reference[],reference"], "no parameters"),
    (["--strategies", "reference[T=3],reference", "--param", "reference.T=4"], "listed more than once"),
    (["--strategies", "reference[T=99],reference"], "must be in"),
    (["--strategies", "reference[T=3,psychic=1],reference"], "no parameter 'psychic'"),
    (["--strategies", "reference"], "at least 2"),
    (["--strategies", "reference,psychic"], "unknown strategy"),
    (["--strategies", "reference,random", "--param", "T=3"], "STRATEGY.NAME=VALUE"),
    (["--strategies", "reference,random", "--param", "foresight.T=3"], "not one of --strategies"),
    (["--strategies", "reference,random", "--param", "random.T=3"], "no parameter 'T'"),
    (["--strategies", "reference,random", "--param", "reference.T=99"], "must be in"),
    (["--strategies", "reference,random", "--strategy", "reference"], "exclude each other"),
    (["--strategies", "reference,random", "-s", "kyuzo,kyuzo,daisuke"], "seated twice"),
    (["--strategies", "reference,random", "-s", "kyuzo"], "2 to 7 samurai"),
]


@pytest.mark.parametrize("argv,words", BAD_STRATEGIES)
def test_compare_strategies_bad_input(capsys, argv, words):
    one_line_error(*run(capsys, "compare", "-d", "easy", "-n", 100, *argv), words)


def test_compare_strategies_params_file_errors(capsys, tmp_path):
    ref = write(tmp_path / "r.json", {"strategy": "reference", "params": {"T": 2}})
    ref2 = write(tmp_path / "r2.json", {"strategy": "reference", "params": {"T": 5}})
    fs = write(tmp_path / "f.json", {"strategy": "foresight", "params": {}})
    base = ["compare", "--strategies", "reference,random", "-n", 100]
    one_line_error(*run(capsys, *base, "--params-file", fs), "which --strategies reference,random does not list")
    one_line_error(*run(capsys, *base, "--params-file", ref, "--params-file", ref2), "both for strategy reference")
    # without --strategies one file at most
    one_line_error(*run(capsys, "compare", "-n", 100, "--params-file", ref, "--params-file", fs), "more than once")


def test_compare_strategies_param_overrides_file(capsys, tmp_path):
    ref = write(tmp_path / "r.json", {"strategy": "reference", "params": {"T": 2}})
    code, out, _ = run(capsys, "compare", "--strategies", "random,reference", "-s", TRIO, "-d", "easy", "-n", 500,
                       "--params-file", ref, "--param", "reference.T=6", "--json")  # fmt: skip
    assert code == 0
    rows = {r["strategy"]: r for r in json.loads(out)["strategies"]}
    assert rows["reference"]["params"] == {"T": 6}
    assert rows["reference"]["wins"] == int(wins_of("reference", 500, 0, T=6).sum())


def test_compare_a_strategy_with_itself_under_other_parameters(capsys):
    """judge[samples=8],judge: one strategy twice, told apart by the parameters in its brackets;
    each arm plays what its brackets say, on the same deals."""
    code, out, _ = run(capsys, "compare", "--strategies", "reference[T=2],reference", "-s", TRIO, "-d", "easy",
                       "-n", 500, "--json")  # fmt: skip
    assert code == 0
    doc = json.loads(out)
    rows = {r["label"]: r for r in doc["strategies"]}
    assert set(rows) == {"reference[T=2]", "reference"}
    assert rows["reference[T=2]"]["params"] == {"T": 2}
    assert rows["reference[T=2]"]["wins"] == int(wins_of("reference", 500, 0, T=2).sum())
    assert rows["reference"]["wins"] == int(wins_of("reference", 500, 0).sum())
    assert {doc["pairs"][0]["a"], doc["pairs"][0]["b"]} == set(rows)
    code, text, _ = run(capsys, "compare", "--strategies", "reference[T=2],reference", "-s", TRIO, "-d", "easy",
                        "-n", 200)  # fmt: skip
    assert code == 0 and "reference[T=2] - reference" in text or "reference - reference[T=2]" in text


# ---------------------------------------------------------------------------------- tune

TUNE = ["tune", "reference", "-s", TRIO, "-d", "easy", "-n", 2000, "-k", 4, "--eta", 2, "--seed", 3]


@pytest.fixture(scope="module")
def tuned(tmp_path_factory):
    path = tmp_path_factory.mktemp("tune") / "tuned.json"
    code, out = quiet(*TUNE, "--out", path)
    assert code == 0
    return path, json.loads(path.read_text()), out


def test_tune_writes_a_reproducible_result(tuned):
    path, doc, out = tuned
    cands = T.sample_candidates(registry_get("reference"), 4, seed=3)
    assert doc["strategy"] == "reference" and doc["params"] in cands
    assert doc["search"]["method"] == "halving" and doc["search"]["candidates"] == 4 and doc["search"]["eta"] == 2
    assert [r["games_per_configuration"] for r in doc["search"]["rungs"]] == [1000, 2000]
    assert [len(r["candidates"]) for r in doc["search"]["rungs"]] == [4, 2]
    assert [t["params"] for t in doc["search"]["tried"]] == cands
    for key in ("command", "kiai_version", "seed", "games", "configurations", "win_rate", "ci95", "date"):
        assert key in doc, key
    assert doc["command"].startswith("kiai tune reference -s kyuzo,heihachi,daisuke")
    assert doc["seed"] == 3 and doc["configurations"][0]["samurai"] == list(SEATING)
    # the search's totals are the engine's wins on games 0..n-1 of seed 3, the same for all candidates
    last = doc["search"]["rungs"][-1]
    for c, w in zip(last["candidates"], last["wins"]):
        assert w == int(wins_of("reference", 2000, 3, **cands[c]).sum())
    assert doc["params"] == cands[last["kept"][0]]
    assert f"best parameters   T={doc['params']['T']}" in out and str(path) in out


def test_tune_reports_fresh_games_not_the_search(tuned):
    _, doc, out = tuned
    best = wins_of("reference", 2000, 3, offset=T.EVAL_OFFSET, **doc["params"])
    base = wins_of("reference", 2000, 3, offset=T.EVAL_OFFSET)  # the defaults, T=3
    assert doc["wins"] == int(best.sum()) and doc["games"] == 2000
    assert doc["win_rate"] == pytest.approx(best.mean())
    assert doc["ci95"][0] <= doc["win_rate"] <= doc["ci95"][1]
    assert doc["baseline"]["params"] == {"T": 3} and doc["baseline"]["wins"] == int(base.sum())
    t = paired_test(best, base)
    assert doc["vs_baseline"]["p_value"] == pytest.approx(t["pvalue"], rel=1e-9, abs=0)
    assert doc["vs_baseline"]["discordant"] == [t["a_only"], t["b_only"]]
    assert doc["evaluation"]["first_game_index"] == T.EVAL_OFFSET
    assert f"{100 * doc['win_rate']:7.3f}%" in out and "fresh games" in out


def test_tune_is_deterministic(tuned, tmp_path, capsys):
    _, doc, _ = tuned
    again = tmp_path / "again.json"
    assert run(capsys, *TUNE, "--out", again)[0] == 0
    other = json.loads(again.read_text())
    drop = lambda d: {k: v for k, v in d.items() if k not in ("date", "command")}  # noqa: E731
    assert drop(other) == drop(doc)


def test_simulate_loads_what_tune_wrote(tuned, capsys):
    path, doc, _ = tuned
    code, out, _ = run(capsys, "simulate", "--params-file", path, "-s", TRIO, "-d", "easy", "-n", 700, "--seed", 3,
                       "--json")  # fmt: skip
    data = json.loads(out)
    assert code == 0 and data["strategy"] == "reference" and data["params"] == doc["params"]
    assert data["wins"] == int(wins_of("reference", 700, 3, **doc["params"]).sum())
    other = 9 if doc["params"]["T"] != 9 else 8
    code, out, _ = run(capsys, "simulate", "--params-file", path, "--param", f"T={other}", "-n", 100, "--json")
    assert code == 0 and json.loads(out)["params"] == {"T": other}


def test_tune_start_point_and_random_method(tmp_path, capsys):
    start = write(tmp_path / "start.json", {"strategy": "reference", "params": {"T": 1}})
    out_path = tmp_path / "r.json"
    code, out, _ = run(capsys, "tune", "--params-file", start, "--method", "random", "-s", TRIO, "-d", "easy",
                       "-n", 300, "-k", 3, "--out", out_path)  # fmt: skip
    assert code == 0
    doc = json.loads(out_path.read_text())
    assert doc["strategy"] == "reference" and doc["search"]["start"] == {"T": 1}
    assert doc["baseline"]["params"] == {"T": 1} and doc["baseline"]["label"] == "start"
    assert doc["search"]["eta"] is None
    assert doc["search"]["rungs"] == [{**doc["search"]["rungs"][0], "candidates": [0, 1, 2],
                                       "games_per_configuration": 300}]  # fmt: skip
    assert doc["search"]["tried"][0]["params"] == {"T": 1}
    assert all(t["games_per_configuration"] == 300 for t in doc["search"]["tried"])


def test_tune_cross_entropy_method(tmp_path, capsys):
    """--method cem: generations of --candidates on the same games, the last mean re-evaluated."""
    out_path = tmp_path / "cem.json"
    code, out, _ = run(capsys, "tune", "risk", "--method", "cem", "-k", 4, "--generations", 2, "-s", TRIO, "-d",
                       "easy", "-n", 200, "--out", out_path)  # fmt: skip
    assert code == 0 and "cross-entropy method (2 generations of 4)" in out and "generation 2: 4 candidates" in out
    doc = json.loads(out_path.read_text())
    search = doc["search"]
    assert search["method"] == "cem" and search["population"] == 4 and len(search["generations"]) == 2
    first, second = search["generations"]
    assert first["candidates"][0] == 0 and len(set(first["candidates"] + second["candidates"])) >= 4
    assert set(second["mean"]) == {"risk", "caution", "late", "stay"}
    # the start point's wins are its games' wins, and the result is the last mean, played fresh
    start = search["tried"][0]
    assert start["wins"] == int(wins_of("risk", 200, 0).sum()) and start["games_per_configuration"] == 200
    assert doc["params"] == search["tried"][-1]["params"] and doc["games"] == 200
    assert doc["wins"] == int(wins_of("risk", 200, 0, offset=T.EVAL_OFFSET, **doc["params"]).sum())


def test_tune_several_configurations(tmp_path, capsys):
    out_path = tmp_path / "multi.json"
    code, out, _ = run(capsys, "tune", "reference", "-s", TRIO, "-s", "gorobei,kanbei,katsushiro", "-d", "easy,normal",
                       "-n", 400, "-k", 3, "--out", out_path)  # fmt: skip
    assert code == 0 and "4 configurations" in out
    doc = json.loads(out_path.read_text())
    grid = [(c["samurai"], c["difficulty"]) for c in doc["configurations"]]
    assert grid == [(list(SEATING), "easy"), (list(SEATING), "normal"),
                    (["gorobei", "kanbei", "katsushiro"], "easy"), (["gorobei", "kanbei", "katsushiro"], "normal")]
    assert doc["games"] == 1600 and sum(c["wins"] for c in doc["configurations"]) == doc["wins"]
    w = wins_of("reference", 400, 0, offset=T.EVAL_OFFSET, seating=("gorobei", "kanbei", "katsushiro"),
                level="normal", **doc["params"])  # fmt: skip
    assert doc["configurations"][3]["wins"] == int(w.sum())


BAD_TUNE = [
    (["random"], "no parameters to tune"),
    (["reference", "--param", "T=3"], "nothing to tune"),
    (["reference", "--param", "Q=3"], "no parameter 'Q'"),
    ([], "give the STRATEGY"),
    (["psychic"], "unknown strategy"),
    (["reference", "--method", "grid"], "--method"),
    (["reference", "-k", "1"], "--candidates"),
    (["reference", "--eta", "1"], "--eta"),
    (["reference", "--method", "cem", "--generations", "0"], "--generations"),
    (["reference", "-n", "0"], "--games"),
    (["reference", "-d", "nightmare"], "unknown difficulty"),
    (["reference", "-s", "kyuzo,nobody"], "unknown samurai"),
    (["reference", "--seed", "-1"], "--seed"),
]


@pytest.mark.parametrize("argv,words", BAD_TUNE)
def test_tune_bad_input(capsys, tmp_path, argv, words):
    one_line_error(*run(capsys, "tune", *argv, "--out", tmp_path / "x.json"), words)
    assert not (tmp_path / "x.json").exists()


def test_tune_out_is_a_folder(capsys, tmp_path):
    one_line_error(*run(capsys, "tune", "reference", "--out", tmp_path), "is a folder")


# --------------------------------------------------------------------------- --params-file


def registry_get(name):
    from kiai.strategies import registry

    return registry.get(name)


@pytest.fixture
def files(tmp_path):
    return {
        "good": write(tmp_path / "good.json", {"strategy": "reference", "params": {"T": 5}, "win_rate": 0.1}),
        "badjson": write(tmp_path / "bad.json", '{"strategy": "reference", '),
        "list": write(tmp_path / "list.json", "[1, 2]"),
        "nostrat": write(tmp_path / "nostrat.json", {"params": {"T": 5}}),
        "unknown": write(tmp_path / "unknown.json", {"strategy": "psychic", "params": {}}),
        "range": write(tmp_path / "range.json", {"strategy": "reference", "params": {"T": 55}}),
        "noparam": write(tmp_path / "noparam.json", {"strategy": "reference", "params": {"Q": 1}}),
        "notnum": write(tmp_path / "notnum.json", {"strategy": "reference", "params": {"T": "five"}}),
        "missing": tmp_path / "missing.json",
    }


FILE_ERRORS = [
    ("missing", "no such file"),
    ("badjson", "not valid JSON"),
    ("list", "expected a JSON object"),
    ("nostrat", "'strategy' must be"),
    ("unknown", "unknown strategy 'psychic'"),
    ("range", "must be in [0, 20]"),
    ("noparam", "no parameter 'Q'"),
    ("notnum", "must be a number"),
]
COMMANDS = {
    "simulate": ["simulate", "-n", "50"],
    "trace": ["trace"],
    "bench": ["bench", "-n", "50", "--no-compile"],
    "sweep": ["sweep", "--players", "3", "--lineups", "sample:1", "-n", "50"],
    "compare": ["compare", "-n", "50"],
    "tune": ["tune", "-n", "50"],
}


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize("which,words", FILE_ERRORS)
def test_params_file_errors_in_every_command(capsys, tmp_path, files, command, which, words):
    argv = list(COMMANDS[command]) + (["--out", tmp_path / "o.parquet"] if command == "sweep" else [])
    code, out, err = run(capsys, *argv, "--params-file", files[which])
    one_line_error(code, out, err, words)
    assert f"--params-file {files[which]}" in err  # the message names the file


@pytest.mark.parametrize("command", list(COMMANDS))
def test_params_file_strategy_mismatch_in_every_command(capsys, tmp_path, files, command):
    argv = list(COMMANDS[command]) + (["--out", tmp_path / "o.parquet"] if command == "sweep" else [])
    argv += ["foresight"] if command == "tune" else ["--strategy", "foresight"]
    code, out, err = run(capsys, *argv, "--params-file", files["good"])
    one_line_error(code, out, err, "foresight")
    assert "good.json" in err and "reference" in err


def test_params_file_in_trace_and_bench(capsys, files):
    code, out, _ = run(capsys, "trace", "--params-file", files["good"], "--seed", 1)
    assert code == 0 and "strategy reference {'T': 5}" in out.splitlines()[0]
    code, out, _ = run(capsys, "bench", "-n", 200, "--no-compile", "--json", "--params-file", files["good"],
                       "--param", "T=6")  # fmt: skip
    data = json.loads(out)
    assert code == 0 and data["strategy"] == "reference" and data["params"] == {"T": 6}


def test_params_file_in_sweep_applies_to_its_strategy(capsys, tmp_path, files):
    table = tmp_path / "s.parquet"
    code, *_ = run(capsys, "sweep", "--out", table, "--lineup", TRIO, "-d", "easy", "-n", 600,
                   "--strategy", "random,reference", "--params-file", files["good"])  # fmt: skip
    df = pd.read_parquet(table).set_index("strategy")
    assert code == 0 and json.loads(df.loc["reference", "params"]) == {"T": 5}
    assert json.loads(df.loc["random", "params"]) == {}
    # the seating's own deals (reports.playing.racing.seating_key)
    assert df.loc["reference", "wins"] == int(wins_of("reference", 600, int(df.loc["reference", "seed"]), T=5).sum())
    assert df.loc["reference", "seed"] == df.loc["random", "seed"] == deal_seed(0, TRIO)
    # the file's strategy is the default --strategy; a --param axis overrides the file's value
    code, *_ = run(capsys, "sweep", "--out", table, "--force", "--lineup", TRIO, "-d", "easy", "-n", 600,
                   "--params-file", files["good"], "--param", "T=1,7")  # fmt: skip
    df = pd.read_parquet(table)
    assert code == 0 and list(df["strategy"]) == ["reference", "reference"]
    assert sorted(json.loads(p)["T"] for p in df["params"]) == [1, 7]


def test_params_file_in_compare_seatings(capsys, files):
    code, out, _ = run(capsys, "compare", "--lineup", TRIO, "-d", "easy", "-n", 300, "--json",
                       "--params-file", files["good"])  # fmt: skip
    items = json.loads(out)
    assert code == 0 and len(items) == 2 and all(e["params"] == {"T": 5} for e in items)
    wins = {e["seating"]: e["wins"] for e in items}
    assert wins[TRIO] == int(wins_of("reference", 300, 0, T=5).sum())  # the seating as typed


def test_simulate_without_a_file_is_unchanged(capsys):
    code, out, _ = run(capsys, "simulate", "-n", 300, "--seed", 2, "-s", TRIO, "-d", "easy", "--json")
    data = json.loads(out)
    # the default's parameters as its games play them (selfplay: the family value's header's play)
    played = GameConfig(tuple(TRIO.split(",")), "easy", DEFAULT).played_params()
    assert code == 0 and data["strategy"] == DEFAULT and data["params"] == played
    assert set(played) == set(registry_get(DEFAULT).param_dict(None))
    assert data["wins"] == int(wins_of(DEFAULT, 300, 2).sum())
    assert np.isclose(data["win_rate"], data["wins"] / 300)
