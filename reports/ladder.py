"""The report's skill ladder and its summary in plain words.

The ladder sets, for each level and team size, the win rates of the rungs of skill side by
side on the same tables (the `ladder` and `ladder-planners` presets): `reference`, `keeper`,
`learned`, the `lookahead` and, as the ceiling, the cheating `foresight`, which sees every
hidden card. What separates reference from foresight is what skill and knowledge can win;
what foresight still loses is the deal itself.
"""

from __future__ import annotations

import pandas as pd

from kiai.reports import charts
from kiai.reports.charts import NoChartData, pooled_rates
from kiai.reports.words import plural

RUNGS = ("reference", "keeper", "learned", "lookahead", "foresight")


def ladder_rows(df: pd.DataFrame) -> pd.DataFrame:
    """The rows of the tables (level, seating) that two or more rungs played."""
    d = distinct_games(df[df["strategy"].astype(str).isin(RUNGS) & (df["games"] > 0)])
    d = d.assign(difficulty=d["difficulty"].astype(str))
    played = d.groupby(["difficulty", "seating"])["strategy"].transform("nunique")
    return d[played >= 2]


def distinct_games(df: pd.DataFrame) -> pd.DataFrame:
    """The rows with each configuration's games once. A table played by the main sweep and by
    the ladder (same strategy, seating, level, parameters and seed) holds the same games, games
    0..N-1 of the seed: keep the longer run, never both."""
    key = [c for c in ("strategy", "difficulty", "seating", "params", "seed", "absent_tokens", "rules",
                       "components_sha256", "model_sha256") if c in df]
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
    """Level x team size rows; for each rung its win rate (%) with the 95% interval, and its
    games (ladder_rates)."""
    rates = ladder_rates(df)
    out = []
    for (level, n), cell in rates.groupby(["level", "samurai"], sort=False):
        row = {"level": level, "samurai": int(n), "line-ups": int(cell["lineups"].iloc[0])}
        for p in cell.itertuples():
            row[f"{p.strategy} (%)"] = f"{100 * p.win_rate:.1f} ({100 * p.ci_low:.1f}-{100 * p.ci_high:.1f})"
            row[f"{p.strategy} games"] = int(p.games)
        out.append(row)
    return pd.DataFrame(out)


def plot_ladder(df: pd.DataFrame):
    """One panel per level: team sizes along x, one bar per rung with its 95% interval."""
    rates = ladder_rates(df)
    levels = list(dict.fromkeys(rates["level"]))
    rungs = [r for r in RUNGS if r in set(rates["strategy"])]
    fig, axes = charts._figure(1, len(levels), 3.6, 3.4, sharey=True)
    offsets, width = charts._grouped_offsets(len(rungs))
    for ax, level in zip(axes[0], levels):
        sizes = sorted(set(rates.loc[rates["level"] == level, "samurai"]))
        for j, r in enumerate(rungs):
            part = rates[(rates["level"] == level) & (rates["strategy"] == r)]
            x = [sizes.index(n) + offsets[j] for n in part["samurai"]]
            label = r + (" (cheating)" if r == "foresight" else "")
            ax.bar(x, 100 * part["win_rate"], width, label=label, color=charts.OKABE_ITO[j % 8],
                   yerr=charts._yerr(part["win_rate"], part["ci_low"], part["ci_high"]), capsize=charts.CAPSIZE)
        ax.set_xticks(range(len(sizes)), [f"{n} samurai" for n in sizes])
        ax.set_title(level)
    axes[0][0].set_ylabel("win rate (%)")
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncols=len(rungs), fontsize="small")
    fig.suptitle("Skill ladder: win rate of each strategy on the same tables (95% intervals)")
    return fig


def main_strategy(df: pd.DataFrame) -> str:
    """The strategy the main charts show: kiai's default where the table has it, else the one
    played on the most configurations."""
    from kiai.strategies.registry import DEFAULT

    names = df["strategy"].astype(str)
    if names.empty or (names == DEFAULT).any():
        return DEFAULT
    return names.value_counts().index[0]


def plain_summary(df: pd.DataFrame, strategy: str) -> list[str]:
    """A few sentences: what a strong team can expect, the best and worst line-ups, and how
    much seating matters, from the rows of `strategy`."""
    d = df[df["strategy"].astype(str) == strategy]
    d = d.assign(difficulty=d["difficulty"].astype(str))
    lines = []
    if d.empty or d["games"].sum() <= 0:
        return ["The table holds no games."]
    pooled = pooled_rates(d[d["games"] > 0], ["difficulty", "n_samurai"])
    for level in charts.level_order(pooled["difficulty"]):
        part = pooled[pooled["difficulty"] == level].sort_values("n_samurai")
        rates = ", ".join(f"{int(n)} samurai {100 * r:.1f}%" for n, r in zip(part["n_samurai"], part["win_rate"]))
        lines.append(f"At {level}, a team playing as `{strategy}` wins: {rates}.")
    try:
        best = charts.best_worst_lineups(d)
    except NoChartData:
        best = pd.DataFrame()
    if not best.empty and "level" in best:
        # one level's line-ups: Normal's, or the first level played
        shown = "normal" if (best["level"] == "normal").any() else best["level"].iloc[0]
        for (level, n), part in best[best["level"] == shown].groupby(["level", "samurai"], sort=False):
            top, bottom = part.iloc[0], part.iloc[-1]
            lines.append(f"At {level} with {n} samurai the best line-up is {top['line-up']} "
                         f"({top['win rate (%)']}%), the worst {bottom['line-up']} ({bottom['win rate (%)']}%).")
    try:
        seats = charts.best_worst_seatings(d)
    except NoChartData:
        seats = pd.DataFrame()
    if not seats.empty and "spread (pp)" in seats:
        spread = seats["spread (pp)"].astype(float)
        clear = int((seats["p (Holm)"].astype(float) < 0.05).sum()) if "p (Holm)" in seats else 0
        lines.append(f"How much seating matters: across {plural(len(seats), 'line-up')} played in several seatings, "
                     f"the best seating beats the worst by {spread.median():.1f} percentage points (median; at most "
                     f"{spread.max():.1f}); {clear} of them differ clearly after Holm's adjustment.")
    return lines


def spread(games: pd.Series) -> str:
    lo, hi = int(games.min()), int(games.max())
    return f"{lo:,}" if lo == hi else f"{lo:,} to {hi:,}"
