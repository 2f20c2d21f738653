"""The report's skill ladder (reports.page.ladder) and its place in the report."""

import pandas as pd
import pytest
from test_reports_report import _row

from kiai.reports.page import ladder
from kiai.reports.findings.rows import NoChartData
from kiai.reports.page.report import write_report

A, B, C = ("heihachi", "daisuke", "gorobei"), ("kanbei", "kyuzo", "kikuchiyo"), ("daisuke", "kyuzo", "katsushiro")
RATES = {"reference": 5, "keeper": 30, "learned": 40, "lookahead": 60, "judge": 70, "foresight": 180}
PLANNERS = ("lookahead", "judge", "foresight")


def _ladder():
    rows = []
    for strategy, wins in RATES.items():
        games = 200 if strategy in PLANNERS else 1000
        for seating in (A, B):
            rows.append(_row("easy", seating, wins=wins * games // 200, games=games, strategy=strategy,
                             honest=strategy != "foresight"))
    rows.append(_row("easy", C, wins=900, games=1000, strategy="learned"))  # only learned played it: not a rung's table
    rows.append(_row("easy", A, wins=RATES["learned"] * 5, games=1000, strategy="learned"))  # the main sweep's same games
    return pd.DataFrame(rows)


def test_the_ladder_pools_each_rung_over_the_tables_they_share():
    table = ladder.ladder_table(_ladder())
    assert len(table) == 1 and table.loc[0, "line-ups"] == 2
    for strategy, wins in RATES.items():
        games = 400 if strategy in PLANNERS else 2000
        assert table.loc[0, f"{strategy} games"] == games  # C left out, A counted once
        assert table.loc[0, strategy].startswith(f"{100 * wins / 200:.1f}% (")


def test_the_ladder_chart_puts_every_rung_on_one_log_scale_and_marks_a_rung_without_wins():
    df = _ladder()
    df.loc[df["strategy"] == "reference", "wins"] = 0  # a level where the baseline never wins
    fig = ladder.plot_ladder(df)
    ax = fig.axes[0]
    assert ax.get_yscale() == "log" and ax.get_ylim()[1] > 100  # the cheating ceiling (90%) fits too
    triangles = [ln for ln in ax.get_lines() if ln.get_marker() == "v" and len(ln.get_xdata())]
    assert len(triangles) == 1 and triangles[0].get_ydata()[0] <= ax.get_ylim()[0] * 2  # on the axis
    dots = [ln for ln in ax.get_lines() if ln.get_marker() == "o" and len(ln.get_xdata())]
    assert min(min(ln.get_ydata()) for ln in dots) == pytest.approx(100 * RATES["keeper"] / 200)


def test_no_ladder_without_two_rungs_on_one_table():
    df = pd.DataFrame([_row("easy", A, 10, strategy="learned"), _row("easy", B, 10, strategy="keeper")])
    with pytest.raises(NoChartData):
        ladder.ladder_table(df)


def test_the_report_opens_with_a_summary_and_shows_the_ladder(tmp_path):
    df = pd.concat([_ladder(), pd.DataFrame([_row("normal", s, 20, strategy="learned") for s in (A, B, C)])])
    written = write_report(df, tmp_path)
    md = (tmp_path / "report.md").read_text()
    assert "skill_ladder.png" in written and "## Skill ladder" in md
    head = md.split("## Skill ladder")[0]
    assert "## In short" in head and "### 3 samurai" in head
    assert "- How hard for `learned`, all its 3 line-ups pooled: Easy " in head  # not kiai's default player
    assert "- Line-up (at Normal, 3 line-ups): " in head  # the hardest level still won 10% of the time
    # the sections are the default strategy's, and say so
    assert "## How hard is each level" in md and "## Which line-up" in md
    assert "strategy `learned`" in md.split("## How hard is each level")[1].split("##")[0]
    # the ladder's learned row on seating A is the main sweep's same games: counted once
    rates = pd.read_csv(tmp_path / "level_rates.csv")
    assert set(rates["player"]) == {"default"}  # judge's two line-ups of the ladder are no rate of a team size
    assert rates.loc[(rates["level"] == "easy") & (rates["n_samurai"] == 3), "games"].item() == 3000
