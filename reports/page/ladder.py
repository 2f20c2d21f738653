"""The report's skill ladder.

The ladder sets, for each level and team size, the win rates of the rungs of skill side by
side on the same tables (the `ladder` and `ladder-planners` presets): `reference`, `keeper`,
`learned`, the `lookahead`, the strong tier `judge` and, as the ceiling, the cheating
`foresight`, which sees every hidden card. What separates reference from foresight is what skill
and knowledge can win; what foresight still loses is the deal itself.

A level and team size that only the default and `judge` played (the `agreement` preset's tables of
2, 6 and 7 samurai) is no step of the ladder: reports.page.agreement compares the two there.
"""

from __future__ import annotations

import pandas as pd

from kiai.reports.page import charts
from kiai.reports.page.charts import NoChartData, pooled_rates
from kiai.reports.page.wording import fmt_ci, fmt_rate

STRONG = "judge"  # the strong tier: the strongest honest rung, which the agreement section sets beside the default
RUNGS = ("reference", "keeper", "learned", "selfplay", "lookahead", STRONG, "foresight")


def _pair() -> frozenset:
    """The agreement section's two strategies: kiai's default and the strong tier."""
    from kiai.strategies.registry import DEFAULT

    return frozenset((DEFAULT, STRONG))


def ladder_rows(df: pd.DataFrame) -> pd.DataFrame:
    """The rows of the tables (level, seating) that two or more rungs played, at the levels and
    team sizes where a rung other than the default and judge played too (the agreement stage's
    players alone make no ladder)."""
    from kiai.reports.page.agreement import without_controls
    from kiai.reports.page.strongest import variants

    d = without_controls(df[df["strategy"].astype(str).isin(RUNGS) & (df["games"] > 0)])
    d = distinct_games(d[~variants(d).to_numpy()])  # the agreement stage's lookahead over learned: no rung
    d = d.assign(difficulty=d["difficulty"].astype(str), strategy=d["strategy"].astype(str))
    played = d.groupby(["difficulty", "seating"])["strategy"].transform("nunique")
    d = d[played >= 2]
    pair = _pair()
    ladder = d.groupby(["difficulty", "n_samurai"])["strategy"].transform(lambda s: bool(set(s) - pair))
    return d[ladder.astype(bool).to_numpy()]


def distinct_games(df: pd.DataFrame) -> pd.DataFrame:
    """The rows with each configuration's games once. A table played by the main sweep and by
    the ladder (same strategy, seating, level, parameters and seed) holds the same games, games
    0..N-1 of the seed: keep the longer run, never both."""
    key = [c for c in ("strategy", "difficulty", "seating", "params", "seed", "absent_tokens", "rules",
                       "components_sha256", "models") if c in df]
    if not key:  # a bare table of counts names no configuration: each row is its own
        return df
    return df.sort_values("games", ascending=False, kind="stable").drop_duplicates(key).sort_index()


def ladder_rates(df: pd.DataFrame) -> pd.DataFrame:
    """Long form, one row per level, team size and rung: its pooled wins, games, win rate and
    95% interval over the tables every rung present at that level and size played, and how many
    tables that is (line-ups); levels easy to heroic, then team size, then rung."""
    d = ladder_rows(df)
    if d.empty:
        raise NoChartData("no table was played by two or more of " + ", ".join(RUNGS))
    out = []
    for (level, n), cell in d.groupby(["difficulty", "n_samurai"]):
        rungs = [r for r in RUNGS if r in set(cell["strategy"])]
        shared = set.intersection(*(set(cell.loc[cell["strategy"] == r, "seating"]) for r in rungs))
        pooled = pooled_rates(cell[cell["seating"].isin(shared)], ["strategy"])
        out.append(pooled.assign(level=level, samurai=int(n), lineups=len(shared)))
    rates = pd.concat(out, ignore_index=True)
    level = {lv: i for i, lv in enumerate(charts.level_order(rates["level"]))}
    rung = {r: i for i, r in enumerate(RUNGS)}
    return rates.assign(_l=rates["level"].map(level), _r=rates["strategy"].map(rung)).sort_values(
        ["_l", "samurai", "_r"], ignore_index=True).drop(columns=["_l", "_r"])


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


def main_strategy(df: pd.DataFrame) -> str:
    """The strategy the main charts show: kiai's default where the table has it, else the one
    played on the most configurations."""
    from kiai.strategies.registry import DEFAULT

    names = df["strategy"].astype(str)
    if names.empty or (names == DEFAULT).any():
        return DEFAULT
    return names.value_counts().index[0]


def spread(games: pd.Series) -> str:
    lo, hi = int(games.min()), int(games.max())
    return f"{lo:,}" if lo == hi else f"{lo:,} to {hi:,}"
