"""Rates pooled over configurations that played different numbers of games.

The report pools line-ups ("all its line-ups pooled"): the win rate of a team size at a level is
the mean over its line-ups, each counted once. When every line-up plays the same games, that is
the sum of their wins over the sum of their games. A race (reports.playing.racing) stops some line-ups
early, and plain sums would then weigh the line-ups that played on (the best and the worst) more
than the others. So before any sum, balanced() scales each row's counts to the harmonic mean of
its group's games: the sums become each row's rate counted once, on the group's effective games
(Kish's k^2 / sum(1/n), stopping.pooled), and with equal games nothing changes. The intervals of such
sums (whole_counts) round them to whole numbers first, as the interval functions need.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

_COUNTS = re.compile(r"^(games|wins|stalled_games|out_\w+|lost_round_\d+|score_\d+)$")


def count_columns(df: pd.DataFrame) -> list[str]:
    """The columns of a results table that count games (and sum over configurations)."""
    return [c for c in df.columns if _COUNTS.match(str(c))]


def balanced(df: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """df with the counts of each row scaled to the harmonic mean of the games of the rows that share
    `keys`, so that a sum over those rows weighs each row equally (module docstring); rows of equal
    games are returned as they are."""
    if df.empty:
        return df
    games = df["games"].astype(float)
    mean = games.groupby([df[k] for k in keys], sort=False).transform(lambda g: len(g) / (1.0 / g).sum())
    if np.allclose(mean.to_numpy(), games.to_numpy(), rtol=0, atol=1e-9):
        return df
    factor = mean / games
    return df.assign(**{c: df[c].astype(float) * factor for c in count_columns(df)})


def whole_counts(wins, games) -> tuple[np.ndarray, np.ndarray]:
    """Pooled (possibly effective, fractional) counts as whole numbers for an interval."""
    return np.rint(np.asarray(wins, dtype=float)), np.rint(np.asarray(games, dtype=float))
