"""Whether a results table could have been played: the checks `kiai report` (and a sweep's --from)
runs on a table before anything is written, each refusal one line naming the row and the column."""

from __future__ import annotations

import numpy as np
import pandas as pd

from kiai.reports.findings.advice import rules_of
from kiai.simcore.codes import SAMURAI
from kiai.simcore.components import load_components

REQUIRED = ("difficulty", "n_samurai", "lineup", "strategy", "games", "wins")


def check_results(df: pd.DataFrame) -> None:
    """Raise ValueError (one line) unless df has the columns a report needs and every row could
    have been played (_check_counts, _check_names). Checked before anything is written; the
    message names the first bad row (counted from 1) and its column."""
    missing = [c for c in REQUIRED if c not in df]
    if missing:
        raise ValueError(f"results table lacks column(s): {', '.join(missing)}")
    if df.empty:
        raise ValueError("the results table has no rows")
    _check_counts(df)
    _check_names(df)


def _check_counts(df: pd.DataFrame) -> None:
    """At least one game, 2 to 7 samurai, and whole counts of games that add up: no more wins
    than games, and, where the table has them, outcomes that sum to the games, scores to the wins
    and losses by round to the games lost."""
    for col, low, high, why in (("games", 1, np.inf, "of at least 1"), ("wins", 0, np.inf, "of at least 0"),
                                ("n_samurai", 2, len(SAMURAI), f"from 2 to {len(SAMURAI)}")):  # fmt: skip
        _refuse(df, col, ~_whole(df[col], low, high), f"must be a whole number {why}")
    games, wins = pd.to_numeric(df["games"]), pd.to_numeric(df["wins"])
    _refuse(df, "wins", wins > games, "exceeds the row's games")
    groups = {prefix: [c for c in df if c.startswith(prefix)] for prefix in ("out_", "score_", "lost_round_")}
    for col in [*(c for cols in groups.values() for c in cols), *(["stalled_games"] if "stalled_games" in df else [])]:
        _refuse(df, col, ~_whole(df[col], 0, np.inf) | (pd.to_numeric(df[col], errors="coerce") > games),
                "must be a whole number from 0 to the row's games")  # fmt: skip
    for prefix, total, what in (("out_", games, "games"), ("score_", wins, "wins"), ("lost_round_", games - wins,
                                                                                      "games lost")):  # fmt: skip
        if groups[prefix]:
            _refuse(df, groups[prefix][0], df[groups[prefix]].astype(float).sum(axis=1) != total,
                    f"and the other {prefix}* columns do not add up to the row's {what}")


def _whole(values: pd.Series, low: float, high: float) -> pd.Series:
    """Where `values` are whole numbers from low to high."""
    x = pd.to_numeric(values, errors="coerce").astype(float)
    return np.isfinite(x) & x.between(low, high) & (x == x.round())


def _check_names(df: pd.DataFrame) -> None:
    """A level, a strategy, known samurai (distinct, n_samurai of them) in the line-up and the
    seating, true or false in the flags, rule readings kiai has, and, where the row says it was
    played with kiai's own component data, one of its levels."""
    from kiai.simcore.readings import ReadingError, parse_rule_items

    for col in ("difficulty", "lineup", "strategy"):
        _refuse(df, col, ~df[col].map(lambda v: isinstance(v, str) and bool(v.strip())), "must be a name")
    names = df["lineup"].map(lambda v: sorted(x.strip() for x in v.split(",")))
    _refuse(df, "lineup", ~names.map(lambda n: len(set(n)) == len(n) and set(n) <= set(SAMURAI)),
            f"must name distinct samurai among {', '.join(SAMURAI)}")
    _refuse(df, "n_samurai", names.map(len) != pd.to_numeric(df["n_samurai"]),
            "differs from the samurai its lineup names")
    if "seating" in df:
        seated = df["seating"].map(lambda v: sorted(x.strip() for x in v.split(",")) if isinstance(v, str) else None)
        _refuse(df, "seating", seated.notna() & (seated != names), "seats other samurai than its lineup names")
    for col in ("honest", "absent_tokens"):
        if col in df:
            _refuse(df, col, ~df[col].map(lambda v: isinstance(v, (bool, np.bool_))), "must be true or false")

    def reading(text: str) -> bool:
        try:
            return text == "default" or bool(parse_rule_items(text.split(",")))
        except ReadingError:
            return False

    _refuse(df.assign(rules=rules_of(df)), "rules", ~rules_of(df).map(reading),
            "must be 'default' or rule readings NAME=VALUE,... (`kiai rules` lists them)")
    comp = load_components()
    ours = df["components_sha256"] == comp.sha256 if "components_sha256" in df else pd.Series(True, index=df.index)
    _refuse(df, "difficulty", ours & ~df["difficulty"].isin(list(comp.levels)),
            f"is no level of kiai's component data ({', '.join(comp.levels)})")


def _refuse(df: pd.DataFrame, col: str, bad: pd.Series, why: str) -> None:
    """ValueError naming the first row where `bad` holds, its column and value, and why."""
    if bad.any():
        i = int(bad.to_numpy().argmax())
        value = df[col].iloc[i]
        value = value.item() if isinstance(value, np.generic) else value  # 100.5, not np.float64(100.5)
        raise ValueError(f"row {i + 1}: column '{col}' is {value!r}; it {why}")
