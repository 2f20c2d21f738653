"""The figures of the samurai's effects on a sweep's results (reports.page.effects draws them):
each samurai's effect on the win rate, the effect of who sits beside whom, and the best and worst
seatings of each line-up.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from statsmodels.stats.proportion import confint_proportions_2indep

from kiai.reports.findings.pooling import balanced
from kiai.reports.findings.rows import level_order, pooled_rates, require_columns, with_variant
from kiai.simcore.stats import holm, homogeneity_p
from kiai.simcore.codes import SAMURAI
from kiai.simcore.seatings import lineup_key, seating_key


# -------------------------------------------------------------- 2. each samurai's effect


def samurai_effects(df: pd.DataFrame) -> pd.DataFrame:
    """Win rate of line-ups with each samurai minus line-ups without, within each strategy,
    level and samurai count (team size changes the win rate far more than any samurai does, so
    it must not be mixed in). Interval: Newcombe's hybrid score interval for the difference of
    two independent proportions (statsmodels confint_proportions_2indep, method "newcomb")."""
    require_columns(df, ["difficulty", "n_samurai", "lineup", "strategy", "games", "wins"])
    keys = ["variant", "difficulty", "n_samurai"]
    d = balanced(with_variant(df), keys)  # each line-up counted once, however many games it played
    members = d["lineup"].astype(str).str.split(",").map(lambda xs: {x.strip() for x in xs})
    parts = []
    for samurai in SAMURAI:
        has = members.map(lambda m, s=samurai: s in m)
        with_ = d[has].groupby(keys)[["wins", "games"]].sum()
        without = d[~has].groupby(keys)[["wins", "games"]].sum()
        both = with_.reset_index().merge(without.reset_index(), on=keys, suffixes=("_with", "_without"))
        parts.append(both.assign(samurai=samurai))
    effects = pd.concat(parts, ignore_index=True)
    effects = effects[(effects["games_with"] > 0) & (effects["games_without"] > 0)]
    if effects.empty:
        return effects.assign(diff=[], ci_low=[], ci_high=[])
    lo, hi = confint_proportions_2indep(
        effects["wins_with"].to_numpy(float),
        effects["games_with"].to_numpy(float),
        effects["wins_without"].to_numpy(float),
        effects["games_without"].to_numpy(float),
        method="newcomb",
        compare="diff",
    )
    diff = effects["wins_with"] / effects["games_with"] - effects["wins_without"] / effects["games_without"]
    return effects.assign(diff=diff, ci_low=np.asarray(lo), ci_high=np.asarray(hi)).reset_index(drop=True)


# ---------------------------------------------------------------- 3. neighbour effects


def neighbour_effects(df: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """Per strategy, a 7x7 table in percentage points: row A, column B holds the mean effect
    of seating A directly to B's left (seat(A) = seat(B) + 1 mod n).

    Only line-ups played in two or more distinct seatings at one level count. Within each such
    group a seating's effect is its win rate minus the unweighted mean over the group's
    seatings, so the line-up's own strength cancels. NaN where no seating put A left of B.
    """
    return {variant: tables[0] for variant, tables in neighbour_effect_tests(df).items()}


def neighbour_effect_tests(df: pd.DataFrame) -> dict[str, tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]]:
    """Per strategy: (mean effect, seatings counted, Holm-adjusted p) as 7x7 tables (neighbour_effects).
    The p-value is a one-sample t-test that a cell's effects (one per seating with A left of B)
    average zero, Holm-adjusted over the cells of the table; NaN where fewer than two seatings
    count."""
    from scipy.stats import t as student

    require_columns(df, ["difficulty", "seating", "strategy", "games", "wins"])
    d = with_variant(df)
    d = d[d["seating"].notna() & (d["seating"].astype(str).str.len() > 0)]
    if d.empty:
        return {}
    d = d.assign(seat_key=d["seating"].map(seating_key))
    d = d.assign(group=d["seat_key"].map(lineup_key))
    keys = ["variant", "difficulty", "group", "seat_key"]
    pooled = d.groupby(keys, as_index=False)[["wins", "games"]].sum()
    pooled["rate"] = pooled["wins"] / pooled["games"]
    grouped = pooled.groupby(["variant", "difficulty", "group"])["rate"]
    pooled["effect"] = (pooled["rate"] - grouped.transform("mean")) * 100
    pooled = pooled[grouped.transform("size") >= 2]
    index = {name: i for i, name in enumerate(SAMURAI)}
    size = len(SAMURAI)
    tables = {}
    for variant, sub in pooled.groupby("variant"):
        cells: dict[tuple[int, int], list[float]] = {}
        for seat_key, effect in zip(sub["seat_key"], sub["effect"]):
            seats = seat_key.split(",")
            n = len(seats)
            for b in range(n):
                cells.setdefault((index[seats[(b + 1) % n]], index[seats[b]]), []).append(effect)
        mean, count, p = (np.full((size, size), np.nan) for _ in range(3))
        for (a, b), values in cells.items():
            values = np.asarray(values)
            mean[a, b], count[a, b] = values.mean(), len(values)
            if len(values) >= 2:
                sd = values.std(ddof=1)
                p[a, b] = 1.0 if sd == 0 else 2 * student.sf(abs(values.mean()) / (sd / np.sqrt(len(values))),
                                                             len(values) - 1)
        p = holm(p.ravel()).reshape(size, size)
        frame = lambda m: pd.DataFrame(m, index=list(SAMURAI), columns=list(SAMURAI))  # noqa: E731
        tables[variant] = (frame(mean), frame(count), frame(p))
    return tables


# --------------------------------------------------------------------------- 6. tables


def best_worst_seatings(df: pd.DataFrame) -> pd.DataFrame:
    """Per strategy, level and line-up played in two or more seatings: its best and worst
    seating, the spread between them, and whether the seatings differ at all.

    The p-value is a chi-square test of homogeneity of win rates across the line-up's seatings
    (scipy chi2_contingency; simulated where an expected count is under 5, simcore.stats.homogeneity_p),
    Holm-adjusted over every line-up in the table. Seatings played
    on shared seeds are positively correlated, which makes this test conservative.
    """
    columns = [
        "strategy", "level", "line-up", "seatings", "best seating", "best (%)",
        "worst seating", "worst (%)", "spread (pp)", "p", "p (Holm)",
    ]
    require_columns(df, ["difficulty", "seating", "strategy", "games", "wins"])
    d = with_variant(df)
    d = d[d["seating"].notna() & (d["seating"].astype(str).str.len() > 0)]
    if d.empty:
        return pd.DataFrame(columns=columns)
    d = d.assign(seat_key=d["seating"].map(seating_key))
    d = d.assign(group=d["seat_key"].map(lineup_key))
    pooled = pooled_rates(d, ["variant", "difficulty", "group", "seat_key"])
    rows = []
    for (variant, level, group), sub in pooled.groupby(["variant", "difficulty", "group"]):
        if len(sub) < 2:
            continue
        sub = sub.sort_values(["win_rate", "seat_key"], ascending=[False, True])
        best, worst = sub.iloc[0], sub.iloc[-1]
        rows.append(
            {
                "strategy": variant,
                "level": level,
                "line-up": group,
                "seatings": len(sub),
                "best seating": best["seat_key"],
                "best (%)": round(100 * best["win_rate"], 1),
                "worst seating": worst["seat_key"],
                "worst (%)": round(100 * worst["win_rate"], 1),
                "spread (pp)": round(100 * (best["win_rate"] - worst["win_rate"]), 1),
                "p": homogeneity_p(sub["wins"].to_numpy(), sub["games"].to_numpy()),
            }
        )
    table = pd.DataFrame(rows, columns=columns[:-1])
    table["p (Holm)"] = holm(table["p"].to_numpy(float)) if len(table) else []
    table["p"] = table["p"].astype(float).round(4)
    table["p (Holm)"] = table["p (Holm)"].astype(float).round(4)
    return _sort_by_level(table)


def _sort_by_level(table: pd.DataFrame) -> pd.DataFrame:
    if table.empty:
        return table.reset_index(drop=True)
    rank = {lv: i for i, lv in enumerate(level_order(table["level"]))}
    order = table["level"].map(rank)
    ordered = table.assign(_order=order).sort_values(["strategy", "_order"], kind="stable")
    return ordered.drop(columns="_order").reset_index(drop=True)
