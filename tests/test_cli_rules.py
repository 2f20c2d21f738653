"""--rule NAME=VALUE on every command, the sweep's `rules` axis and column, and `kiai compare --rules`.

Games are few and played by `reference` (fast). Where a test checks that a reading was played,
it compares the command's figures with the engine's under that reading, and checks that docs/rules.md's
reading gives other figures on those games, so the test fails if the option were ignored."""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest

from kiai.cli.main import main
from kiai.reports.playing import grid as G
from kiai.reports.playing import tables
from kiai.reports.playing.racing import deal_seed
from kiai.reports.search import tune as T
from kiai.simcore.stats import paired_test
from kiai.simcore import results as L
from kiai.simcore.readings import DEFAULTS, READINGS
from kiai.strategies.run.config import GameConfig
from kiai.strategies.run.games import run_games
from conftest import one_line_error, run

pytestmark = pytest.mark.usefixtures("engine")

SEATING = ("kyuzo", "heihachi", "daisuke")
TRIO = ",".join(SEATING)
OTHER = "gorobei,kanbei,katsushiro"



def wins_of(games, seed=0, offset=0, seating=SEATING, level="easy", rules=None, **params):
    config = GameConfig(tuple(seating), level, "reference", params, rules=rules or {})
    return run_games(config, games, seed, game_offset=offset)[:, L.O_OUTCOME] == 0


# --------------------------------------------------------------------------- kiai rules


def test_rules_lists_every_reading(capsys):
    code, out, _ = run(capsys, "rules")
    assert code == 0
    for r in READINGS:
        assert re.search(rf"^{re.escape(r.name)} \({r.v}, departs from .*\): {re.escape(r.default)} \(default\) or "
                         rf"{re.escape(r.values[1])}$", out, flags=re.M), r.name  # fmt: skip
    code, out, _ = run(capsys, "rules", "--json")
    items = json.loads(out)
    assert code == 0 and [i["name"] for i in items] == [r.name for r in READINGS]
    assert all(i["default"] == i["values"][0] for i in items)
    assert {i["name"]: i["default"] for i in items} == DEFAULTS


# ----------------------------------------------------------------------- simulate, trace


def test_simulate_rule_shows_in_header_and_json(capsys, tmp_path):
    code, out, _ = run(capsys, "simulate", "-n", 200, "--strategy", "reference", "--rule", "heal=wounded")
    assert code == 0
    assert out.splitlines()[0].endswith(", rules heal=wounded")
    code, out, _ = run(capsys, "simulate", "-n", 200, "--strategy", "reference", "-s", TRIO, "-d", "easy",
                       "--rule", "penalty=once", "--rule", "heal=wounded", "--json", "--out", tmp_path / "t.csv")
    data = json.loads(out)
    assert code == 0 and data["rules"] == {**DEFAULTS, "heal": "wounded", "penalty": "once"}
    played = wins_of(200, rules={"heal": "wounded", "penalty": "once"})
    assert data["wins"] == int(played.sum()) != int(wins_of(200).sum())
    table = pd.read_csv(tmp_path / "t.csv")
    assert list(table.columns) == list(tables.COLUMNS) and table.loc[0, "rules"] == "heal=wounded,penalty=once"


def test_simulate_default_header_is_unchanged(capsys):
    code, out, _ = run(capsys, "simulate", "-n", 200, "--strategy", "reference")
    assert code == 0 and "rules" not in out
    assert out.splitlines()[0] == "kyuzo, kikuchiyo, heihachi, daisuke at normal, strategy reference"
    code, out, _ = run(capsys, "simulate", "-n", 200, "--strategy", "reference", "--rule", "heal=any", "--json")
    assert code == 0 and json.loads(out)["rules"] == DEFAULTS  # the rules' own value is the default: no change
    code, out, _ = run(capsys, "simulate", "-n", 200, "--strategy", "reference", "--rule", "heal=any")
    assert code == 0 and "rules" not in out


def test_trace_rule_shows_in_header(capsys):
    code, out, _ = run(capsys, "trace", "--strategy", "reference", "--seed", 2, "--rule", "round-end=drawn")
    first = out.splitlines()[0]
    assert code == 0 and first.startswith("Game 0 of seed 2:") and first.endswith(", rules round-end=drawn.")
    code, out, _ = run(capsys, "trace", "--strategy", "reference", "--seed", 2)
    assert code == 0 and "rules" not in out.splitlines()[0]


# ------------------------------------------------------------------------------ bad input


@pytest.mark.parametrize("argv,words", [
    (["simulate", "--rule", "nope=1"], "unknown rule 'nope'"),
    (["simulate", "--rule", "heal=bogus"], "rule heal must be any or wounded"),
    (["simulate", "--rule", "heal"], "NAME=VALUE"),
    (["simulate", "--rule", "heal=any,wounded"], "give one value"),
    (["simulate", "--rule", "heal=any", "--rule", "heal=wounded"], "given twice"),
    (["trace", "--rule", "penalty=never"], "rule penalty must be"),
    (["compare", "--rule", "nope=1"], "unknown rule 'nope'"),
    (["compare", "--rules", "heal=any"], "at least 2 values"),
    (["compare", "--rules", "heal"], "--rules expects NAME=V1,V2"),
    (["compare", "--rules", "heal=any,bogus"], "rule heal must be any or wounded"),
    (["compare", "--rules", "heal=any,any"], "twice"),
    (["compare", "--rules", "heal=any,wounded", "--strategies", "reference,random"], "exclude each other"),
    (["compare", "--rules", "heal=any,wounded", "--rule", "heal=wounded"], "exclude each other"),
    (["tune", "reference", "--rule", "end-kiai=maybe"], "rule end-kiai must be off or on"),
    (["tune", "reference", "--rule", "end-kiai=off,on"], "give one value"),
])  # fmt: skip
def test_bad_rule_is_one_line_and_exit_2(capsys, tmp_path, argv, words):
    extra = {"tune": ["--out", tmp_path / "x.json", "-n", 10], "trace": []}.get(argv[0], ["-n", 10])
    one_line_error(*run(capsys, *argv, *extra), words)
    assert not (tmp_path / "x.json").exists()


@pytest.mark.parametrize("argv,words", [
    (["--rule", "nope=a,b"], "unknown rule 'nope'"),
    (["--rule", "heal=any,nothing"], "rule heal must be"),
    (["--preset", "ladder", "--rule", "heal=wounded"], "drop --rule"),
])  # fmt: skip
def test_bad_sweep_rule_writes_nothing(capsys, tmp_path, argv, words):
    out = tmp_path / "s.parquet"
    grid = [] if argv[0] == "--preset" else ["--lineup", TRIO, "-n", 10]
    one_line_error(*run(capsys, "sweep", "--out", out, *grid, *argv), words)
    assert not out.exists()


# ---------------------------------------------------------------------------------- sweep


def test_rule_variants_are_the_cartesian_product():
    assert G.rule_variants(None) == [{}]
    assert G.rule_variants({"heal": ["any", "wounded"], "penalty": ["once"]}) == [
        {"heal": "any", "penalty": "once"}, {"heal": "wounded", "penalty": "once"}]
    plan = G.build_plan(["easy"], [SEATING], [("reference", {})], rules=G.rule_variants({"heal": ["any", "wounded"]}))
    assert [c.rules["heal"] for c in plan] == ["any", "wounded"]
    assert "rules" in tables.COLUMNS and "rules" in tables.DEFINING


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    import contextlib
    import io

    out = tmp_path_factory.mktemp("sweep") / "s.parquet"
    with contextlib.redirect_stdout(io.StringIO()):
        code = main(["sweep", "--out", str(out), "--lineup", TRIO, "--lineup", OTHER, "-d", "easy", "-n", "300",
                     "--strategy", "reference", "--rule", "penalty=every-turn,once", "--csv"])  # fmt: skip
    assert code == 0
    return out


def test_sweep_rule_is_an_axis_and_a_column(swept):
    df, keys, info = tables.read_table(swept)
    assert len(df) == 4 and len(set(keys)) == 4  # 2 seatings x 2 readings
    assert list(df.columns) == list(tables.COLUMNS)
    assert sorted(df["rules"]) == ["default", "default", "penalty=once", "penalty=once"]
    assert "--rule penalty=every-turn,once" in info["command"]
    for row in df.itertuples():
        rules = {} if row.rules == "default" else {"penalty": "once"}
        # the seating's own deals, shared by both readings (racing.seating_key)
        assert row.seed == deal_seed(0, row.seating)
        assert row.wins == int(wins_of(300, seed=row.seed, seating=row.seating.split(","), rules=rules).sum())
    once = df[df["rules"] == "penalty=once"].set_index("seating")["wins"]
    default = df[df["rules"] == "default"].set_index("seating")["wins"]
    assert (once != default).any()
    csv = pd.read_csv(swept.with_suffix(".csv"))
    assert list(csv["rules"]) == list(df["rules"])


def test_report_reads_tables_with_and_without_the_rules_column(swept, tmp_path, capsys):
    old = tmp_path / "old.csv"
    pd.read_csv(swept.with_suffix(".csv")).query("rules == 'default'").drop(columns="rules").to_csv(old, index=False)
    code, out, err = run(capsys, "report", old, "--out", tmp_path / "r-old")
    assert code == 0, err
    assert "Rule readings (docs/rules.md section 14, `kiai rules`): default." in (tmp_path / "r-old" / "report.md").read_text()
    code, out, err = run(capsys, "report", swept, "--out", tmp_path / "r-new")
    assert code == 0, err
    text = (tmp_path / "r-new" / "report.md").read_text()
    assert "default in the charts and tables; the results also hold penalty=once (2 configurations, not shown)" in text
    assert text.startswith("# kiai report\n\n4 configurations")


def test_old_sweep_table_gets_the_default_rules():
    old = pd.DataFrame({"difficulty": ["easy"], "absent_tokens": [False], "games": [1]})
    filled = tables.with_rules_column(old)
    assert list(filled.columns) == ["difficulty", "absent_tokens", "rules", "games"]
    assert list(filled["rules"]) == ["default"] and "rules" not in old


# -------------------------------------------------------------------------------- compare


GAMES = 2000


@pytest.fixture(scope="module")
def compared():
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        code = main(["compare", "--rules", "heal=any,wounded", "-s", TRIO, "-d", "easy", "-n", str(GAMES),
                     "--strategy", "reference", "--seed", "3", "--json"])  # fmt: skip
    assert code == 0
    wins = {v: wins_of(GAMES, seed=3, rules={"heal": v}) for v in ("any", "wounded")}
    return json.loads(buf.getvalue()), wins


def test_compare_rules_json_has_two_arms_and_a_paired_test(compared):
    doc, wins = compared
    assert doc["mode"] == "rules" and doc["rule"] == "heal" and doc["seating"] == list(SEATING)
    assert doc["strategy"] == "reference" and doc["games"] == GAMES and doc["seed"] == 3
    arms = {a["reading"]: a for a in doc["readings"]}
    assert set(arms) == {"any", "wounded"}
    assert np.any(wins["any"] != wins["wounded"])  # the reading changes some games
    for value, arm in arms.items():
        assert arm["label"] == f"heal={value}" and arm["rules"] == {**DEFAULTS, "heal": value}
        assert arm["default"] is (value == "any")
        assert arm["wins"] == int(wins[value].sum()) and arm["games"] == GAMES
    assert [a["rank"] for a in doc["readings"]] == [1, 2]
    assert doc["readings"][0]["win_rate"] >= doc["readings"][1]["win_rate"]
    (pair,) = doc["pairs"]
    a, b = pair["a"].split("=")[1], pair["b"].split("=")[1]
    t = paired_test(wins[a], wins[b])
    assert pair["discordant"] == [t["a_only"], t["b_only"]] and sum(pair["discordant"]) > 0
    assert pair["p_value"] == pytest.approx(t["pvalue"], rel=1e-9, abs=0) and pair["p_holm"] == pair["p_value"]
    assert pair["diff"] == pytest.approx(wins[a].mean() - wins[b].mean())


def test_compare_rules_text(capsys):
    code, out, _ = run(capsys, "compare", "--rules", "penalty=every-turn,once", "--rule", "heal=wounded", "-s", TRIO,
                       "-d", "easy", "-n", 500, "--strategy", "reference")  # fmt: skip
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith(f"rule penalty (V-2, departs from section 3, step 2) on {TRIO} (seat 0 first) at easy, "
                               "strategy reference")
    assert lines[0].endswith(", every arm with heal=wounded")
    table = [line for line in lines if re.match(r"^\s+\d+\s", line)]
    assert len(table) == 2
    assert any("penalty=every-turn (default)" in line for line in table)
    assert any("penalty=once" in line and "(default)" not in line for line in table)
    once = next(line for line in table if "penalty=once" in line)
    rate = float(once.split("%")[0].split()[-1])
    assert rate == pytest.approx(100 * wins_of(500, rules={"penalty": "once", "heal": "wounded"}).mean(), abs=1e-3)
    pair_lines = [line for line in lines if " - " in line and " pp " in line]
    assert len(pair_lines) == 1 and "McNemar" in out


def test_compare_seatings_and_strategies_record_fixed_rules(capsys):
    code, out, _ = run(capsys, "compare", "--lineup", TRIO, "-d", "easy", "-n", 300, "--strategy", "reference",
                       "--rule", "penalty=once", "--json")  # fmt: skip
    items = json.loads(out)
    assert code == 0 and all(e["rules"] == {**DEFAULTS, "penalty": "once"} for e in items)
    typed = next(e for e in items if e["as_typed"])
    assert typed["wins"] == int(wins_of(300, rules={"penalty": "once"}).sum()) != int(wins_of(300).sum())
    code, out, _ = run(capsys, "compare", "--lineup", TRIO, "-d", "easy", "-n", 300, "--strategy", "reference",
                       "--rule", "penalty=once")  # fmt: skip
    assert code == 0 and out.splitlines()[0].endswith(", rules penalty=once")
    code, out, _ = run(capsys, "compare", "--strategies", "reference,random", "-s", TRIO, "-d", "easy", "-n", 300,
                       "--rule", "penalty=once", "--json")  # fmt: skip
    doc = json.loads(out)
    assert code == 0 and doc["rules"]["penalty"] == "once"
    ref = next(r for r in doc["strategies"] if r["strategy"] == "reference")
    assert ref["rules"]["penalty"] == "once" and ref["wins"] == int(wins_of(300, rules={"penalty": "once"}).sum())


# ----------------------------------------------------------------------------------- tune


def test_tune_plays_its_fixed_rules(capsys, tmp_path):
    path = tmp_path / "t.json"
    code, out, _ = run(capsys, "tune", "reference", "-s", TRIO, "-d", "easy", "-n", 300, "-k", 2, "--method", "random",
                       "--rule", "penalty=once", "--out", path)  # fmt: skip
    assert code == 0
    assert out.splitlines()[0] == f"tune reference on 1 configuration: {TRIO} at easy, rules penalty=once"
    doc = json.loads(path.read_text())
    assert doc["rules"] == {**DEFAULTS, "penalty": "once"}
    fresh = wins_of(300, offset=T.EVAL_OFFSET, rules={"penalty": "once"}, **doc["params"])
    assert doc["wins"] == int(fresh.sum()) != int(wins_of(300, offset=T.EVAL_OFFSET, **doc["params"]).sum())
