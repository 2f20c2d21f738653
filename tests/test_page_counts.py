"""The page's counts (reports/page/opening.py summary, the methods' count line): `kiai report` of two
tables, the second repeating configurations of the first, counts each configuration once, and its
games once, as the tables do (views.distinct_counts: ladder.distinct_games keeps the longer run of
the same deals); and "Your table" says whose rate it shows (your_table.whose, in the JSON)."""

from __future__ import annotations

import re

import pandas as pd
import pytest
from conftest import run

from kiai.reports.findings.views import distinct_counts
from kiai.simcore.seatings import all_lineups, distinct_seatings, lineup_key

STRATEGY = "reference"  # cheap: the two sweeps take a few seconds


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    """base: every line-up of 3 samurai at Easy and Normal, 20 games each; small: those of Easy again,
    40 games each (the same configurations, on the same deals, played longer)."""
    from kiai.cli.main import main

    folder = tmp_path_factory.mktemp("counts")
    base, small = folder / "base.parquet", folder / "small.parquet"
    for out, levels, games in ((base, "easy,normal", 20), (small, "easy", 40)):
        code = main(["sweep", "-o", str(out), "-d", levels, "--players", "3", "--strategy", STRATEGY,
                     "-n", str(games), "--seed", "7"])
        assert code == 0
    return base, small


def test_a_repeated_configuration_counts_once_in_the_header_and_the_methods(tables, tmp_path, capsys):
    base, small = tables
    a, b = pd.read_parquet(base), pd.read_parquet(small)
    assert len(a) == 70 and len(b) == 35
    # small repeats base's Easy rows: the same configurations, on the same deals
    key = ["difficulty", "seating", "strategy", "params", "seed", "rules", "models"]
    repeated = b[key].astype(str).merge(a[key].astype(str), on=key)
    assert len(repeated) == 35
    configurations, games = 70, 35 * 40 + 35 * 20  # Easy's longer run once, Normal's
    code, out, err = run(capsys, "report", base, small, "--out", tmp_path / "rep")
    assert code == 0, err
    md = (tmp_path / "rep" / "report.md").read_text()
    header = md.split("\n## ")[0]
    assert f"{configurations} configurations, {games:,} games" in header, header
    methods = md.split("## How these results were made")[1]
    assert f"; {configurations} configurations, {games:,} games." in methods, methods
    # what the tables count: each line-up once, at Easy by its 40 games
    lineups = pd.read_csv(tmp_path / "rep" / "lineups.csv")
    assert len(lineups) == configurations and set(lineups.loc[lineups["level"] == "easy", "games"]) == {40}
    assert int(lineups["games"].sum()) == games
    # one function counts for both: the header's figures are distinct_counts' of the two tables
    counts = distinct_counts(pd.concat([a, b], ignore_index=True))
    assert (counts.configurations, counts.games) == (configurations, games)
    assert re.search(rf"{configurations} configurations, {games:,} games, {counts.wins:,} won\.", header)


def test_each_table_alone_counts_what_it_played(tables, tmp_path, capsys):
    base, _ = tables
    code, out, err = run(capsys, "report", base, "--out", tmp_path / "rep")
    assert code == 0, err
    md = (tmp_path / "rep" / "report.md").read_text()
    assert "70 configurations, 1,400 games" in md.split("\n## ")[0]
    assert "; 70 configurations, 1,400 games." in md.split("## How these results were made")[1]


# ----------------------------------------------------------------------- Your table: whose rate


def _row(level, seating, wins, games=400):
    return {"difficulty": level, "n_samurai": len(seating), "lineup": lineup_key(seating), "seating": ",".join(seating),
            "strategy": "selfplay", "honest": True, "params": "{}", "absent_tokens": False, "rules": "default",
            "games": games, "wins": wins, "seed": 3}


def test_your_tables_json_says_whose_rate_it_shows():
    """The form's data word, for every line-up, what the answer adds to its win rate where the group
    typed another seating than the one the figure is of: the typed seating's own (played), or the
    line-up's (not played), naming the seating, or saying it pools several."""
    from kiai.reports.findings import advice
    from kiai.reports.page import your_table

    seated = ("heihachi", "daisuke", "kanbei", "kikuchiyo")  # its own order first: every seating played at Easy
    pooled = ("gorobei", "kanbei", "kyuzo", "katsushiro")  # never seated in its own order: two others, pooled
    rows = [_row("easy", s, 100 + 20 * i) for i, s in enumerate(distinct_seatings(seated))]
    rows += [_row("normal", seated, 150)]
    rows += [_row("easy", s, 90) for s in distinct_seatings(pooled)[1:3]]
    rows += [_row("easy", x, 120) for x in all_lineups(4)[:3] if lineup_key(x) not in map(lineup_key, (seated, pooled))]
    df = pd.DataFrame(rows)
    data = your_table.table_data(advice.grid_rows(df), df, df, "selfplay", df)
    names = "Heihachi, Daisuke, Kanbei, Kikuchiyo"
    easy, normal = data["lineups"]["easy|" + lineup_key(seated)], data["lineups"]["normal|" + lineup_key(seated)]
    assert easy["seating"] == ",".join(seated) and easy["pct"] == "25.0%"
    # a seating the report played: the answer shows its own rate, then whose the line-up's figure is
    assert easy["whose"]["played"] == (f", seated as you typed; the line-up seated {names}, as the rank below "
                                       "compares it: 25.0%")
    assert easy["whose"]["of"] == f"seated {names}"
    # a seating it did not play: the line-up's rate, naming the seating it is of
    assert normal["whose"]["other"] == f", seated {names}: the seating the report played, not yours"
    assert "played" not in normal["whose"]  # no seating of it played at Normal: no words for one
    # a line-up whose figures pool several seatings says so
    mixed = data["lineups"]["easy|" + lineup_key(pooled)]
    assert mixed["seating"] is None and mixed["games"] == 800
    assert mixed["whose"]["other"] == ", pooled over the seatings of this line-up the report played, not yours"
    assert mixed["whose"]["played"] == ", seated as you typed; the line-up, all its seatings pooled: 22.5%"
    assert mixed["whose"]["of"] == "its seatings pooled"
