"""Where nothing measured kiai's strongest player stronger than the default, the page says "not told
apart" instead of naming a strongest: where it wins under 1%, or its difference with the default, on
the deals both played, has a 95% interval that holds zero or lies below (strongest.told_apart,
views.with_difference). At a glance, the headline (How hard is each level) and In short say so."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from test_reports_report import _row

from kiai.reports.findings.strongest import NOT_TOLD_APART, told_apart
from kiai.reports.findings.views import views
from kiai.reports.page.report import write_report
from kiai.reports.playing.tables import outcome_text
from kiai.simcore.seatings import all_lineups
from kiai.strategies.registry import DEFAULT

LINEUPS = all_lineups(3)[:6]
# per level: the default's wins of 2,000 games a line-up (the main sweep), and on the agreement
# stage's deals (GAMES a line-up, a seed each) the default's wins and the strongest's
CELLS = {"easy": (800, 200, 80, 120),  # 40% against 60% on the same deals: told apart
         "normal": (200, 100, 10, 11),  # 10% against 11%: within noise
         "heroic": (17, 39, 0, 0)}  # the default 0.85% (102 of 12,000), the strongest 0 of 234


def _main_row(level, lineup, wins, games, strategy=DEFAULT, seed=0, won=None):
    row = _row(level, lineup, wins=wins, games=games, strategy=strategy, seed=seed)
    row.update(absent_tokens=False, rules="default", outcomes="" if won is None else outcome_text(won))
    return row


def _table() -> pd.DataFrame:
    rows = []
    for level, (main, games, default, strong) in CELLS.items():
        for i, lineup in enumerate(LINEUPS):
            rows.append(_main_row(level, lineup, main, 2000))
            deals = np.arange(games)
            for strategy, wins in ((DEFAULT, default), ("judge", strong)):  # the strongest wins the default's deals and more
                rows.append(_main_row(level, lineup, wins, games, strategy, seed=100 + i, won=deals < wins))
    return pd.DataFrame(rows)


def test_the_rule():
    assert told_apart(0.2, 0.01) and not told_apart(0.2, 0.0) and not told_apart(0.2, -0.05)
    assert not told_apart(0.009, 0.005)  # under 1%: never told apart


def test_each_cells_difference_is_read_on_the_deals_both_played():
    strong = views(_table()).strong.set_index("difficulty")
    assert list(strong.loc[["easy", "normal", "heroic"], "told_apart"]) == [True, False, False]
    heroic = strong.loc["heroic"]
    assert (heroic["wins"], heroic["games"]) == (0, 234)
    assert heroic["diff_lo"] < 0 < heroic["diff_hi"]
    assert strong.loc["easy", "diff"] == pytest.approx(0.2) and strong.loc["easy", "diff_lo"] > 0.15
    assert strong.loc["normal", "diff_lo"] < 0


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    out = tmp_path_factory.mktemp("told")
    write_report(_table(), out)
    return out


def test_at_a_glance_says_not_told_apart(report):
    md = (report / "report.md").read_text()
    glance = md.split("## At a glance")[1].split("\n## ")[0]
    row = next(line for line in glance.splitlines() if line.startswith("| 3 "))
    easy, normal, heroic = (cell.strip() for cell in row.strip("|").split("|")[1:])
    assert re.fullmatch(r"40\.0% \(often won\); strongest 60\.0% \([\d.]+ to [\d.]+%\)", easy), easy
    assert f"; {NOT_TOLD_APART} (strongest " in normal and "strongest 11" not in normal, normal
    assert heroic.startswith("0.85% (almost never won); not told apart (strongest 0 to "), heroic
    html = (report / "report.html").read_text()
    assert html.count(f'<span class="strong">{NOT_TOLD_APART}</span>') == 2
    assert '<span class="strong">strongest 60.0%</span>' in html


def test_the_headline_says_not_told_apart(report):
    md = (report / "report.md").read_text()
    levels = md.split("## How hard is each level")[1].split("\n## ")[0]
    assert re.search(r"\| easy \| kiai's default player \| 40\.0% \(.*\|\n\|  \| kiai's strongest player \| 60\.0% \(",
                     levels), levels
    assert re.search(r"\| heroic \| kiai's default player \| 0\.85% \(.*\|\n\|  \| kiai's strongest player \| "
                     r"not told apart \(0%; 0 to [\d.]+%\) \|", levels), levels
    assert "\"not told apart\" instead of naming it the stronger where it wins under 1%" in levels


def test_in_short_says_not_told_apart(report):
    md = (report / "report.md").read_text()
    short = md.split("## In short")[1].split("\n## ")[0]
    line = next(x for x in short.splitlines() if x.startswith("- How hard for kiai's default player"))
    assert "for kiai's strongest player, `judge`, on the same line-ups: Easy 40.0%, strongest 60.0% (" in line, line
    assert re.search(r"Normal 10\.0%, not told apart \(11\.0%; [\d.]+ to [\d.]+%\)", line), line
    assert re.search(r"Heroic 0\.85%, not told apart \(0%; 0 to [\d.]+%\)\.$", line), line


def test_a_team_size_told_apart_nowhere_names_no_strongest(tmp_path):
    df = _table()
    df = df[df["difficulty"] != "easy"]
    write_report(df, tmp_path)
    short = (tmp_path / "report.md").read_text().split("## In short")[1].split("\n## ")[0]
    line = next(x for x in short.splitlines() if x.startswith("- How hard for kiai's default player"))
    assert "after each level's figure, for `judge`, not told apart from the default at any level, on the same" in line
    assert "strongest player" not in line and ", strongest " not in line, line
