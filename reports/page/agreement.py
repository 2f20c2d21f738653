"""Does the report hold for stronger players?

The `agreement` preset replays the main sweep's line-ups with kiai's default strategy and its
strongest player (reports.page.strongest: `judge`, or the lookahead over `learned`, by team size) on the
same deals. This module sets three of the report's findings side by side for the two: the win rate
by level and team size; each samurai's effect at one level and team size; the best and worst
line-ups there. For each it gives the rank
correlation of the two strategies' figures (Spearman's, over the level and team sizes, the
samurai or the line-ups) and flags every part of the finding that the two reverse beyond noise.

Reversed beyond noise: each strategy's difference (between two level and team sizes, between two
line-ups, or a samurai's effect against zero) has a 95% interval that excludes zero, and the two
lie on opposite sides of it. The intervals are Newcombe's for two independent proportions
(advice.difference, effects.samurai_effects), as everywhere in the report; the games of the two
line-ups, and of the two strategies, share their deals, which correlates them positively, so
these intervals are wider than paired ones (conservative): a flag is never noise made to look
like a reversal by the pairing.

Both strategies' rows are the agreement stage's: the same configurations on the same games
(same seed and number of games). The main sweep's own row of a configuration plays more games of
the same deals; it chooses the best and worst line-ups but is not compared (paired_rows).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from kiai.reports.page import advice, charts
from kiai.reports.page import wording
from kiai.reports.page import effects as eff
from kiai.reports.page.charts import NoChartData
from kiai.reports.page.strongest import tiers

STRONG = "strongest player"  # the strategy column's value for the strongest player's rows (paired_rows)

TOP = 3  # the best and the worst line-ups shown, each
# the status of one comparison: both strategies separate it from noise in the same direction, in
# opposite directions (the flag), only one of them ("{name} within noise": the other), or neither
HOLDS, REVERSED, ONE_WITHIN, NEITHER = "holds", "FLAG: reversed", "{name} within noise", "within noise for both"


def sign(lo: float, hi: float) -> int:
    """+1 where a 95% interval of a difference lies above zero, -1 below, 0 where it holds zero."""
    return 1 if lo > 0 else -1 if hi < 0 else 0


def status(a: int, b: int, strategy: str, strong: str = STRONG) -> str:
    """The status of a comparison from its two signs (sign): `strategy`'s and `strong`'s."""
    if a and b:
        return HOLDS if a == b else REVERSED
    if a or b:
        return ONE_WITHIN.format(name=strong if a else strategy)
    return NEITHER


def rank_correlation(a, b) -> tuple[float, float, int]:
    """(Spearman's rho, its p-value, how many pairs): nan where fewer than three pairs, or where
    either side does not vary."""
    from scipy.stats import spearmanr

    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if len(a) < 3 or np.ptp(a) == 0 or np.ptp(b) == 0:
        return float("nan"), float("nan"), len(a)
    rho, p = spearmanr(a, b)
    return float(rho), float(p), len(a)


def fmt_rho(rho: float, p: float, n: int, what: str) -> str:
    """'rank correlation 0.93 (p < 0.0001, over 24 levels and team sizes)'."""
    if not np.isfinite(rho):
        return f"rank correlation not defined (over {n} {what}: too few, or all equal)"
    return f"rank correlation {rho:.2f} ({wording.p_is(p)}, over {n} {what})"


# ------------------------------------------------------------------------------- rows


def without_controls(rows: pd.DataFrame) -> pd.DataFrame:
    """`rows` less those a paired race played beside another player on deals of their own (they kept
    each game's win, tables' `outcomes`: the agreement stage's default, the strongest player's
    control), unless nothing else is left. Their deals are not the main sweep's, so they would
    count as more games of the line-ups they replay, a few hundred beside thousands, and tilt every
    pooled figure of the default toward those line-ups."""
    if "outcomes" not in rows or rows.empty:
        return rows
    kept = rows["outcomes"].fillna("").astype(str) != ""
    return rows[~kept.to_numpy()] if not kept.all() else rows


def own_race(rows: pd.DataFrame) -> pd.DataFrame:
    """The rows of `rows` a paired race played on deals of their own (they kept each game's win: the
    agreement stage's), unless none did. The strongest player's figures are that stage's measure:
    the skill ladder's few games of the same player, on the main sweep's deals, would weigh its
    line-ups unevenly and count games the stage did not play for them."""
    if "outcomes" not in rows or rows.empty:
        return rows
    kept = (rows["outcomes"].fillna("").astype(str) != "").to_numpy()
    return rows[kept] if kept.any() else rows


def paired_rows(df: pd.DataFrame, strategy: str, strong: str = STRONG) -> pd.DataFrame:
    """The main rows (advice.main_rows: the rules' own readings and absent tokens) of the
    configurations that `strategy` and kiai's strongest player of their family (reports.page.strongest,
    its rows' strategy shown as `strong`) both played on the same games: the same level, seating,
    seed and number of games; one row per player and configuration."""
    d = advice.main_rows(df)
    d = d.assign(strategy=d["strategy"].astype(str).where(tiers(d).to_numpy() != "strongest", strong))
    d = d[d["strategy"].isin([strategy, strong])]
    key = [c for c in ("difficulty", "seating", "seed", "games", "components_sha256") if c in d]
    d = d.drop_duplicates(key + ["strategy"])
    if d.empty:
        return d
    both = d.groupby(key)["strategy"].transform("nunique") == 2
    return d[both.to_numpy()].assign(strategy=lambda x: x["strategy"].astype(str))


def effect_cell(pairs: pd.DataFrame) -> tuple[str, int] | None:
    """The level and team size where the line-ups played by both have the most games each (at least
    four line-ups: each samurai's effect needs line-ups with and without him; the agreement stage
    plays its check there), then the most line-ups, the easier level first among equals."""
    if pairs.empty:
        return None
    cells = pairs.groupby(["difficulty", "n_samurai"]).agg(lineups=("lineup", "nunique"), games=("games", "median"))
    cells = cells[cells["lineups"] >= 4]
    if cells.empty:
        return None
    order = {lv: i for i, lv in enumerate(advice.levels_present(cells.index.get_level_values(0)))}
    (level, n), _ = sorted(cells.iterrows(), key=lambda kv: (-kv[1]["games"], -kv[1]["lineups"], order[kv[0][0]],
                                                             kv[0][1]))[0]
    return str(level), int(n)


# ---------------------------------------------------------------------------- findings


def levels(pairs: pd.DataFrame, strategy: str, strong: str = STRONG) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The win rate by level and team size, every line-up both played pooled: (rates, reversals).
    rates: a row per level and team size with line-ups, games and, per strategy, wins, rate and
    95% interval (columns suffixed _a for `strategy`, _b for `strong`); levels easy to heroic.
    reversals: every pair of rows of one level (two team sizes) or of one team size (two levels),
    with each strategy's difference (first minus second) and interval, and its status."""
    a = advice.level_rates(pairs[pairs["strategy"] == strategy])
    b = advice.level_rates(pairs[pairs["strategy"] == strong])
    rates = a.merge(b.drop(columns="lineups"), on=["difficulty", "n_samurai"], suffixes=("_a", "_b"))
    rows = []
    cells = list(rates.itertuples(index=False))
    for i, x in enumerate(cells):
        for y in cells[i + 1:]:
            if (x.difficulty == y.difficulty) == (x.n_samurai == y.n_samurai):
                continue  # only one level's team sizes, or one team size's levels
            da, loa, hia = advice.difference(x.wins_a, x.games_a, y.wins_a, y.games_a)
            db, lob, hib = advice.difference(x.wins_b, x.games_b, y.wins_b, y.games_b)
            rows.append({"first": _cell(x), "second": _cell(y), "diff_a": da, "lo_a": loa, "hi_a": hia,
                         "diff_b": db, "lo_b": lob, "hi_b": hib,
                         "status": status(sign(loa, hia), sign(lob, hib), strategy, strong)})
    return rates, pd.DataFrame(rows, columns=["first", "second", "diff_a", "lo_a", "hi_a", "diff_b", "lo_b", "hi_b",
                                              "status"])


def _cell(r) -> str:
    return f"{r.difficulty.capitalize()}, {int(r.n_samurai)} samurai"


def effects(pairs: pd.DataFrame, level: str, n: int, strategy: str, strong: str = STRONG) -> pd.DataFrame:
    """Each samurai's effect at `level` with n samurai (effects.samurai_effects: the win rate of
    the line-ups with him minus those without, Newcombe's 95% interval) for both strategies,
    side by side (suffixes _a, _b), with the status of its sign; samurai in codes.SAMURAI order."""
    cell = pairs[(pairs["difficulty"] == level) & (pairs["n_samurai"] == n)]
    keep = ["samurai", "diff", "ci_low", "ci_high"]
    a = eff.samurai_effects(cell[cell["strategy"] == strategy])[keep]
    b = eff.samurai_effects(cell[cell["strategy"] == strong])[keep]
    out = a.merge(b, on="samurai", suffixes=("_a", "_b"))
    return out.assign(status=[status(sign(r.ci_low_a, r.ci_high_a), sign(r.ci_low_b, r.ci_high_b), strategy, strong)
                              for r in out.itertuples()])


def lineups(pairs: pd.DataFrame, main: pd.DataFrame, level: str, n: int, strategy: str,
            strong: str = STRONG) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """The best and worst line-ups of n samurai at `level`: (every line-up, shown, reversals).

    every line-up both played, with the main rows' rate (`main`: the main strategy's rows with the
    most games, advice.grid_rows) and rank, and each strategy's (suffixes _a, _b) on the paired
    games, with its rank; shown: the TOP best and TOP worst by the main rows' rate; reversals:
    every pair of those, better first by the main rows, with each strategy's difference and
    status."""
    cell = pairs[(pairs["difficulty"] == level) & (pairs["n_samurai"] == n)]
    a = advice.lineup_rates(cell[cell["strategy"] == strategy])
    b = advice.lineup_rates(cell[cell["strategy"] == strong])
    both = a.merge(b, on=["difficulty", "n_samurai", "lineup"], suffixes=("_a", "_b"))
    grid = advice.grid_rows(main)
    ref = advice.lineup_rates(grid[(grid["difficulty"] == level) & (grid["n_samurai"] == n)])
    ref = ref[ref["lineup"].isin(both["lineup"])][["lineup", "wins", "games", "rate"]]
    every = both.merge(ref.rename(columns={"wins": "wins_main", "games": "games_main", "rate": "rate_main"}),
                       on="lineup", how="left")
    every = every.sort_values(["rate_main", "rate_a", "lineup"], ascending=[False, False, True]).reset_index(drop=True)
    for col in ("main", "a", "b"):
        every[f"rank_{col}"] = every[f"rate_{col}"].rank(ascending=False, method="min").astype("Int64")
    keep = sorted(set(range(min(TOP, len(every)))) | set(range(max(len(every) - TOP, 0), len(every))))
    shown = every.iloc[keep].reset_index(drop=True)
    rows = []
    for i, x in shown.iterrows():
        for _, y in shown.iloc[i + 1:].iterrows():
            da, loa, hia = advice.difference(x["wins_a"], x["games_a"], y["wins_a"], y["games_a"])
            db, lob, hib = advice.difference(x["wins_b"], x["games_b"], y["wins_b"], y["games_b"])
            rows.append({"first": x["lineup"], "second": y["lineup"], "diff_a": da, "lo_a": loa, "hi_a": hia,
                         "diff_b": db, "lo_b": lob, "hi_b": hib,
                         "status": status(sign(loa, hia), sign(lob, hib), strategy, strong)})
    return every, shown, pd.DataFrame(rows, columns=["first", "second", "diff_a", "lo_a", "hi_a", "diff_b", "lo_b",
                                                     "hi_b", "status"])


# ------------------------------------------------------------------------------- chart


def plot_agreement(rates: pd.DataFrame, effect: pd.DataFrame | None, shown: pd.DataFrame | None,
                   strategy: str, strong: str = STRONG, where: str = ""):
    """Up to three panels: the win rate of every level and team size where either won a game (the
    strong tier's against the default strategy's, on log scales, the diagonal where they are
    equal); each samurai's
    effect; the best and worst line-ups (best on top); in the last two each strategy is a colour
    and each value has its 95% interval, and a row that the two reverse beyond noise is labelled
    (reversed). `where` ends the last two panels' titles (' at easy, 4 samurai')."""
    if rates.empty:
        raise NoChartData(f"no configuration was played by both {strategy} and {strong}")
    dots = [part for part in (effect, shown) if part is not None and not part.empty]
    fig, axes = charts.figure(1, 1 + len(dots), min(charts.MAX_WIDTH / (1 + len(dots)), 3.7), 3.6)
    axes = list(axes[0])
    _scatter_levels(axes[0], rates, strategy, strong)
    colours = {strategy: charts.OKABE_ITO[3], strong: charts.OKABE_ITO[4]}
    ax = axes[1] if effect is not None and not effect.empty else None
    if ax is not None:
        rows = effect.iloc[::-1]
        labels = [s + (" (reversed)" if st == REVERSED else "") for s, st in zip(rows["samurai"], rows["status"])]
        _paired_dots(ax, rows, ("diff", "ci_low", "ci_high"), labels, colours, strategy, strong)
        ax.axvline(0, color="#888888", linewidth=0.8)
        ax.set_xlabel("with him minus without (pp)")
        ax.set_title(f"each samurai's effect{where}")
    if shown is not None and not shown.empty:
        ax = axes[-1]
        rows = shown.iloc[::-1]
        _paired_dots(ax, rows, ("rate", "lo", "hi"), [advice.names(x, short=True) for x in rows["lineup"]], colours,
                     strategy, strong)
        if len(rows) == 2 * TOP:  # the best above the line, the worst below
            ax.axhline(TOP - 0.5, color="#888888", linewidth=0.8, linestyle=":")
        ax.set_xlabel("win rate (%)")
        ax.set_title(f"best and worst line-ups{where}")
    if dots:
        handles, labels = axes[-1].get_legend_handles_labels()
        fig.legend(handles, labels, loc="outside lower center", ncols=2)
    return fig


def _scatter_levels(ax, rates: pd.DataFrame, strategy: str, strong: str) -> None:
    """The strong tier's win rate against the default's, a dot per level and team size where either
    won a game, numbered by team size; one that won nothing is an open triangle on its axis."""
    rates = rates[(rates["wins_a"] > 0) | (rates["wins_b"] > 0)]
    both = rates[(rates["wins_a"] > 0) & (rates["wins_b"] > 0)]
    low = min(float(both["rate_a"].min()), float(both["rate_b"].min())) * 100 / 2 if len(both) else 0.01
    floor = max(low, 1e-3)
    for level in charts.level_order(rates["difficulty"]):
        part = rates[rates["difficulty"] == level]
        colour = charts.OKABE_ITO[charts.LEVELS.index(level) % 8] if level in charts.LEVELS else charts.OKABE_ITO[6]
        x = np.maximum(part["rate_a"].to_numpy(float) * 100, floor)
        y = np.maximum(part["rate_b"].to_numpy(float) * 100, floor)
        none = (part["wins_a"].to_numpy() == 0) | (part["wins_b"].to_numpy() == 0)
        ax.scatter(x[~none], y[~none], s=16, color=colour, label=level, zorder=3)
        ax.scatter(x[none], y[none], s=22, facecolors="none", edgecolors=colour, marker="v", zorder=3)
        for xi, yi, n in zip(x, y, part["n_samurai"]):
            ax.annotate(str(int(n)), (xi, yi), textcoords="offset points", xytext=(3, 2), fontsize=6.5, color=colour)
    ax.plot([floor, 100], [floor, 100], color="#888888", linewidth=0.8, linestyle="--")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(floor / 1.3, 130)
    ax.set_ylim(floor / 1.3, 130)
    ticks = [t for t in (0.01, 0.1, 1, 10, 100) if floor / 1.3 <= t <= 100]
    ax.set_xticks(ticks, [f"{t:g}%" for t in ticks])
    ax.set_yticks(ticks, [f"{t:g}%" for t in ticks])
    ax.set_xlabel(f"{strategy}'s win rate")
    ax.set_ylabel(f"{strong}'s win rate")
    ax.set_title("win rate by level (number: samurai)")
    ax.grid(color="#eeeeee")
    ax.legend(loc="upper left", fontsize=7)


def _paired_dots(ax, rows: pd.DataFrame, columns: tuple[str, str, str], labels: list[str], colours: dict,
                 strategy: str, strong: str) -> None:
    """Two dots per row, `strategy`'s above `strong`'s, each with its interval: columns (value, low,
    high), suffixed _a and _b, in 0..1 (drawn in percent)."""
    y = np.arange(len(rows))
    for offset, suffix, name in ((0.17, "a", strategy), (-0.17, "b", strong)):
        v, l, h = (rows[f"{c}_{suffix}"].to_numpy(float) for c in columns)
        ax.errorbar(v * 100, y + offset, xerr=charts.yerr(v, l, h), fmt="o", markersize=3.5, color=colours[name],
                    capsize=charts.CAPSIZE, label=name)
    ax.set_yticks(y, labels, fontsize=7)
    ax.set_ylim(-0.7, len(rows) - 0.3)
    ax.grid(axis="x", color="#eeeeee")
