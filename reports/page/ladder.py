"""The report's section "Skill ladder": its table and its chart (reports.findings.ladder gives the rates).

The ladder sets, for each level and team size, the win rates of the rungs of skill side by
side on the same tables (the `ladder` and `ladder-planners` presets): `reference`, `keeper`,
`learned`, the `lookahead`, the strong tier `judge` and, as the ceiling, the cheating
`foresight`, which sees every hidden card. What separates reference from foresight is what skill
and knowledge can win; what foresight still loses is the deal itself.
"""

from __future__ import annotations

import pandas as pd

from kiai.reports.findings.ladder import RUNGS, ladder_rates, ladder_rows
from kiai.reports.findings.rows import NoChartData
from kiai.reports.findings.wording import fmt_ci, fmt_rate
from kiai.reports.page import charts
from kiai.reports.page.render import Page
from kiai.reports.page.scope import Inputs, csv_columns

LADDER_CAPTION = (
    "Skill ladder",
    "For each level and team size, the win rate of each strategy on the same tables and deals: "
    "`reference` (the plain baseline), `keeper`, `learned`, `selfplay` (kiai's default, which weighs its answers "
    "by a value of the table learned by self-play), the `lookahead` and `judge`, the strong tier, which plays "
    "each answer two turns on and values the table it reaches (both on fewer games, since they play many times "
    "slower than `selfplay`), and, as a ceiling, "
    "`foresight`, which cheats by seeing every hidden card. The climb from `reference` to `judge` is what "
    "skill wins; what even `foresight` loses is the deal.",
)


def section(page: Page, inputs: Inputs) -> None:
    """The section "Skill ladder": each rung's win rate on the tables two or more rungs played."""
    shown = inputs.views.shown
    heading, text = LADDER_CAPTION
    page.add(("h2", heading))
    try:
        table = ladder_table(shown)
    except NoChartData as exc:
        page.add(("note", f"Not drawn: {exc} (make report plays the presets ladder and ladder-planners)."))
        return
    games = [c for c in table if c.endswith(" games")]
    rows = ladder_rows(shown)
    seeds = sorted(set(rows["seed"].astype(int))) if "seed" in rows else []
    page.add(("p", f"Scope: every level played, {', '.join(map(str, sorted(set(table['samurai']))))} samurai, "
                   f"{int(table['line-ups'].max())} line-ups per level and team size, seated in their own order; "
                   "games per strategy, level and team size: " + "; ".join(f"`{c[: -len(' games')]}` {spread(table[c])}"
                                                       for c in games)
                   + f"; the rules' own readings, seed {', '.join(map(str, seeds)) or 'not recorded'}."))
    page.chart("skill_ladder", plot_ladder, heading, shown)
    page.add(("p", text + " The scale is logarithmic and shared by the levels; an open triangle on the axis is a "
                          "strategy that won no game there."), ("table", table.drop(columns=games)))
    page.csv("ladder.csv", csv_columns(ladder_rates(shown)), "the skill ladder's rates")


def ladder_table(df: pd.DataFrame) -> pd.DataFrame:
    """Level x team size rows; for each rung its win rate with the 95% interval (wording.fmt_rate,
    fmt_ci), and its games (ladder_rates)."""
    rates = ladder_rates(df)
    out = []
    for (level, n), cell in rates.groupby(["level", "samurai"], sort=False):
        row = {"level": level, "samurai": int(n), "line-ups": int(cell["lineups"].iloc[0])}
        for p in cell.itertuples():
            row[p.strategy] = f"{fmt_rate(p.wins, p.games)} ({fmt_ci(p.ci_low, p.ci_high)})"
            row[f"{p.strategy} games"] = int(p.games)
        out.append(row)
    return pd.DataFrame(out)


def plot_ladder(df: pd.DataFrame):
    """One panel per level: team sizes along x, one dot per rung with its 95% interval, on a log
    scale shared by the levels, so that the honest rungs at Hard and Heroic (hundredths of a
    percent) read beside the cheating ceiling's tens; a rung that won no game is an open triangle
    on the axis."""
    rates = ladder_rates(df)
    levels = list(dict.fromkeys(rates["level"]))
    rungs = [r for r in RUNGS if r in set(rates["strategy"])]
    positive = rates.loc[rates["wins"] > 0, "ci_low"]
    floor = max(float(positive.min()) * 100 / 3, 1e-3) if len(positive) else 1e-2
    fig, axes = charts.figure(1, len(levels), min(charts.MAX_WIDTH / len(levels), 2.7), 3.2, sharey=True)
    offsets, _ = charts.grouped_offsets(len(rungs))
    for ax, level in zip(axes[0], levels):
        sizes = sorted(set(rates.loc[rates["level"] == level, "samurai"]))
        for j, r in enumerate(rungs):
            part = rates[(rates["level"] == level) & (rates["strategy"] == r)]
            colour = charts.OKABE_ITO[j % 8]
            won = part[part["wins"] > 0]
            x = [sizes.index(n) + offsets[j] for n in won["samurai"]]
            ax.errorbar(x, 100 * won["win_rate"], yerr=charts.yerr(won["win_rate"], won["ci_low"], won["ci_high"]),
                        fmt="o", markersize=3.5, color=colour, capsize=charts.CAPSIZE,
                        label=r + (" (cheating)" if r == "foresight" else ""))
            none = part[part["wins"] == 0]
            ax.plot([sizes.index(n) + offsets[j] for n in none["samurai"]], [floor * 1.3] * len(none),
                    linestyle="none", marker="v", markersize=5, markerfacecolor="none", color=colour)
        ax.set_yscale("log")
        ax.set_ylim(floor, 150)
        ticks = [t for t in (0.001, 0.01, 0.1, 1, 10, 100) if floor <= t <= 100]
        ax.set_yticks(ticks, [f"{t:g}%" for t in ticks])
        ax.set_xticks(range(len(sizes)), [str(n) for n in sizes])
        ax.set_xlim(-0.6, len(sizes) - 0.4)
        ax.grid(axis="y", color="#eeeeee")
        ax.set_xlabel("samurai")
        ax.set_title(level)
    axes[0][0].set_ylabel("win rate (log scale)")
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncols=len(rungs))
    return fig


def spread(games: pd.Series) -> str:
    lo, hi = int(games.min()), int(games.max())
    return f"{lo:,}" if lo == hi else f"{lo:,} to {hi:,}"
