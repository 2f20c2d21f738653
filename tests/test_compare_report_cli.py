"""`kiai compare` and `kiai report`: outputs, and one-line errors for bad input."""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pandas as pd
import pytest

from kiai.cli.main import main
from kiai.reports.search import compare as C
from kiai.simcore.seatings import seatings_from
from kiai.simcore.stats import holm, paired_test
from kiai.strategies.registry import DEFAULT
from conftest import run

pytestmark = pytest.mark.usefixtures("engine")

LINEUP = "kyuzo,heihachi,daisuke,gorobei"
STEMS = ("winrate_by_level", "samurai_effect", "neighbour_effect", "loss_causes", "score_grades")
JSON_KEYS = {"rank", "seating", "games", "wins", "win_rate", "ci95", "ci_method", "diff_from_best", "diff_ci",
             "p_value", "p_holm", "significant", "discordant", "difficulty", "strategy", "params", "rules", "seed",
             "as_typed"}  # fmt: skip


# ---------------------------------------------------------------------------- compare


@pytest.fixture(scope="module")
def compared():
    """`kiai compare --json` on a 4-samurai line-up, and the per-game wins of every seating."""
    import contextlib
    import io

    from kiai.strategies.run.config import GameConfig
    from kiai.strategies.run.games import run_games

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main(["compare", "--lineup", LINEUP, "-d", "easy", "-n", "4000", "--seed", "2", "--json"]) == 0
    wins = {",".join(s): run_games(GameConfig(s, "easy"), 4000, 2)[:, 0] == 0 for s in seatings_from(LINEUP)}
    return json.loads(buf.getvalue()), wins


def test_compare_json_ranks_every_seating(compared):
    items, wins = compared
    assert len(items) == math.factorial(3) == len(wins)
    assert all(set(e) == JSON_KEYS for e in items)
    assert [e["rank"] for e in items] == list(range(1, 7))
    assert {e["seating"] for e in items} == set(wins)
    rates = [e["win_rate"] for e in items]
    assert rates == sorted(rates, reverse=True) and rates[0] > 0
    for e in items:
        assert e["wins"] == int(wins[e["seating"]].sum()) and e["games"] == 4000
        assert e["ci95"][0] <= e["win_rate"] <= e["ci95"][1]
        assert e["diff_from_best"] == pytest.approx(e["win_rate"] - rates[0])
    assert items[0]["p_value"] is None and items[0]["p_holm"] is None and items[0]["significant"] is False


def test_compare_p_values_are_mcnemar_then_holm(compared):
    items, wins = compared
    best = wins[items[0]["seating"]]
    raw = [paired_test(wins[e["seating"]], best)["pvalue"] for e in items[1:]]
    assert [e["p_value"] for e in items[1:]] == pytest.approx(raw)
    adjusted = holm(raw)
    assert [e["p_holm"] for e in items[1:]] == pytest.approx(list(adjusted))
    assert [e["significant"] for e in items[1:]] == [bool(p < 0.05) for p in adjusted]
    assert all(e["p_holm"] >= e["p_value"] for e in items[1:])


def test_compare_text_says_holm(capsys):
    code, out, _ = run(capsys, "compare", "--lineup", "heihachi,daisuke,kyuzo", "-d", "easy", "-n", "3000")
    assert code == 0
    assert "Holm-adjusted" in out and "McNemar" in out
    ranked = [line.split() for line in out.splitlines() if re.match(r"^\s+\d+\s", line)]
    assert [r[0] for r in ranked] == ["1", "2"]  # a line-up of three has two seatings
    rates = [float(r[2].rstrip("%")) for r in ranked]
    assert rates == sorted(rates, reverse=True)
    assert "best" in ranked[0]


def test_rank_flags_a_clear_difference():
    """Synthetic arms: A wins the first 300 of 1,000 games, B the first 250, C the first 100."""

    class Arm:
        def __init__(self, label):
            self.label = label

    arms = [("C", 100), ("A", 300), ("B", 250)]
    both = C.both_won([np.arange(1000) < k for _, k in arms])

    def played(i, n=1000):
        label, k = arms[i]
        return {"arm": Arm(label), "index": i, "both": both[i],
                "summary": {"games": n, "wins": k, "win_rate": k / n, "ci95": [0.0, 1.0], "ci_method": "wilson"}}

    ranked = C.rank([played(0), played(1), played(2)])
    assert [e["label"] for e in ranked] == ["A", "B", "C"]
    assert ranked[1]["discordant"] == [0, 50] and ranked[2]["discordant"] == [0, 200]
    assert ranked[2]["significant"] and ranked[2]["p_holm"] < 1e-10
    assert ranked[1]["significant"]  # 50 discordant games, all one way
    assert ranked[1]["diff_from_best"] == pytest.approx(-0.05)


BAD_COMPARE = [
    (["--lineup", "kyuzo,nobody,daisuke"], "unknown samurai"),
    (["--lineup", "kyuzo,daisuke"], "at least 3"),
    (["--lineup", "kyuzo,kyuzo,daisuke"], "repeated"),
    (["--games", "0"], "at least 1"),
    (["-d", "nightmare"], "unknown difficulty"),
    (["--strategy", "psychic"], "unknown strategy"),
    (["--param", "edge=9"], "must be in"),
    (["--param", "T"], "NAME=VALUE"),
    (["--seed", "-1"], "--seed"),
    (["--threads", "0"], "--threads"),
]


@pytest.mark.parametrize("argv,words", BAD_COMPARE)
def test_compare_bad_input(capsys, argv, words):
    code, out, err = run(capsys, "compare", *argv)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kiai: error:"), err
    assert words in lines[0]


# ----------------------------------------------------------------------------- report


@pytest.fixture(scope="module")
def sweep_table(tmp_path_factory):
    """A small sweep with something for every chart: wins, losses, several seatings."""
    path = tmp_path_factory.mktemp("report") / "results.parquet"
    argv = ["sweep", "--out", str(path), "--csv", "-d", "easy,normal", "--players", "3", "--lineups", "sample:3",
            "--seatings", "all", "--games", "1500"]  # fmt: skip
    assert main(argv) == 0
    return path


@pytest.mark.parametrize("suffix", [".parquet", ".csv"])
def test_report_writes_every_chart(sweep_table, tmp_path, capsys, suffix):
    out_dir = tmp_path / "rep"
    code, out, _ = run(capsys, "report", sweep_table.with_suffix(suffix), "--out", out_dir)
    assert code == 0 and "report.html" in out
    for stem in STEMS:
        for fmt in ("png", "svg"):
            path = out_dir / f"{stem}.{fmt}"
            assert path.is_file() and path.stat().st_size > 1000, path
    assert (out_dir / "winrate_by_level.png").read_bytes()[:4] == b"\x89PNG"
    md = (out_dir / "report.md").read_text()
    html = (out_dir / "report.html").read_text()
    # every chart is drawn; the skill ladder, the house rules and the check against stronger play need sweeps
    # of their own (make report plays them)
    assert md.count("Not drawn") == 3 and "Not drawn: no table was played by two or more" in md
    assert "Not drawn: the table holds no games under another rule reading" in md
    assert f"Not drawn: no table was played by both `{DEFAULT}` and kiai's strongest player" in md
    assert html.startswith("<!DOCTYPE html>")
    assert str(sweep_table.with_suffix(suffix)) in md
    if suffix == ".parquet":  # the sweep's own command line, from the table's metadata
        assert "kiai sweep" in md and "--seatings all" in md


def test_report_bad_inputs(sweep_table, tmp_path, capsys):
    garbage = tmp_path / "garbage.parquet"
    garbage.write_bytes(b"this is not parquet")
    thin = tmp_path / "thin.csv"
    pd.DataFrame({"difficulty": ["easy"], "games": [10]}).to_csv(thin, index=False)
    a_file = tmp_path / "file"
    a_file.write_text("x")
    cases = [
        ([tmp_path / "missing.parquet"], "no such file"),
        ([tmp_path / "results.xlsx"], ".parquet or .csv"),
        ([garbage], "cannot read"),
        ([thin], "lacks column"),
        ([sweep_table, "--out", a_file], "not a folder"),
        ([], "give the results tables"),
    ]
    for argv, words in cases:
        code, out, err = run(capsys, "report", *argv)
        assert code == 2 and out == "", argv
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("kiai: error:"), err
        assert words in lines[0], (argv, err)
