"""Does the report hold for stronger players?

The `agreement` preset replays the main sweep's line-ups with kiai's default strategy and its
strongest player (reports.findings.strongest: `judge`, or the lookahead over `learned`, by team size) on the
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

from kiai.reports.findings import advice
from kiai.reports.findings import wording
from kiai.reports.findings import effects as eff
from kiai.reports.findings.strongest import tiers

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
    configurations that `strategy` and kiai's strongest player of their family (reports.findings.strongest,
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


def shared_difference(pairs: pd.DataFrame, strong: str) -> tuple[float, float, float] | None:
    """(strongest - default, lo, hi) read over the deals both played (simcore.stats.paired_difference:
    the rows of one seed met the same deals), for one cell's paired rows (agreement.paired_rows)
    where every row kept its games' wins (tables' `outcomes`: the agreement stage's race reads
    them), one row per line-up and player, the rows of a seed on the same games; None otherwise (the
    caller falls back on Newcombe's interval)."""
    from kiai.reports.playing.tables import outcome_bits
    from kiai.simcore.stats import deal_parts, paired_difference

    if pairs.empty or "outcomes" not in pairs:
        return None
    counts = pairs.groupby(["lineup", "strategy"]).size()
    if counts.max() != 1 or pairs.groupby("lineup")["strategy"].nunique().min() != 2:
        return None
    bits = [outcome_bits(t) for t in pairs["outcomes"]]
    if any(b is None or b.size != int(n) for b, n in zip(bits, pairs["games"])):
        return None
    if (pairs.groupby("seed")["games"].nunique() != 1).any():
        return None
    return paired_difference(deal_parts(bits, pairs["strategy"].astype(str) == strong, pairs["seed"]))
