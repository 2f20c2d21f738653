"""What the figures read of a results table: the columns a figure needs (NoChartData where the
table holds nothing to draw), each row's strategy in words (a variant: strategies are never pooled
together), the levels in order, and wins and games pooled over rows with their 95% interval.
reports.page.charts draws with them; reports.findings.effects and ladder compute with them."""

from __future__ import annotations

import pandas as pd

from kiai.reports.findings.pooling import balanced, whole_counts
from kiai.simcore.stats import proportion_ci_arrays
from kiai.simcore.codes import LEVELS


class NoChartData(Exception):
    """The table holds nothing this chart could draw; the message says why."""


def as_bool(values: pd.Series) -> pd.Series:
    # a CSV round trip may leave "True"/"False" strings, and bool("False") is True
    if values.dtype == object:
        return values.astype(str).str.strip().str.lower().isin(("true", "1", "yes"))
    return values.astype(bool)


def strategy_labels(df: pd.DataFrame) -> pd.Series:
    """Per-row name of what was played: strategy, its params where one strategy ran with
    several, "(cheating)" for dishonest ones, and ", absent tokens" (", no absent tokens" with two
    samurai) where the absent-token variant departs from the rules' default (R-18)."""
    label = df["strategy"].astype(str)
    if "params" in df:
        several = df.groupby("strategy")["params"].transform("nunique") > 1
        label = label.where(~several, label + " " + df["params"].astype(str))
    if "honest" in df:
        label = label.where(as_bool(df["honest"]), label + " (cheating)")
    if "absent_tokens" in df:
        on = as_bool(df["absent_tokens"])
        two = df["n_samurai"].astype(int) == 2 if "n_samurai" in df else pd.Series(False, index=df.index)
        # the rules' default (R-18) has them on with two samurai and off otherwise: only a departure is named
        label = label.where(~on | two, label + ", absent tokens")
        label = label.where(on | ~two, label + ", no absent tokens")
    return label


def level_order(values) -> list[str]:
    """Levels present, easy to heroic, any unknown ones after them."""
    present = set(map(str, values))
    return [lv for lv in LEVELS if lv in present] + sorted(present - set(LEVELS))


def require_columns(df: pd.DataFrame, columns) -> None:
    missing = [c for c in columns if c not in df]
    if missing:
        raise NoChartData(f"the table lacks column(s) {', '.join(missing)}")
    if df.empty or df["games"].sum() <= 0:
        raise NoChartData("the table holds no games")


def with_variant(df: pd.DataFrame) -> pd.DataFrame:
    d = df.assign(variant=strategy_labels(df), difficulty=df["difficulty"].astype(str))
    return d[d["games"] > 0]


def pooled_rates(df: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """Sum wins and games over rows sharing `by`, each row counted once (pooling.balanced); add
    win_rate, ci_low, ci_high, ci_method."""
    pooled = balanced(df, by).groupby(by, as_index=False, sort=False)[["wins", "games"]].sum()
    pooled = pooled[pooled["games"] > 0].reset_index(drop=True)
    lo, hi, method = proportion_ci_arrays(*whole_counts(pooled["wins"], pooled["games"]))
    return pooled.assign(
        win_rate=pooled["wins"] / pooled["games"], ci_low=lo, ci_high=hi, ci_method=method
    )
