"""The report's skill ladder, its figures (reports.page.ladder draws and words them).

The ladder sets, for each level and team size, the win rates of the rungs of skill side by
side on the same tables (the `ladder` and `ladder-planners` presets): `reference`, `keeper`,
`learned`, the `lookahead`, the strong tier `judge` and, as the ceiling, the cheating
`foresight`, which sees every hidden card. What separates reference from foresight is what skill
and knowledge can win; what foresight still loses is the deal itself.

A level and team size that only the default and `judge` played (the `agreement` preset's tables of
2, 6 and 7 samurai) is no step of the ladder: reports.findings.agreement compares the two there.
"""

from __future__ import annotations

import pandas as pd

from kiai.reports.findings.rows import NoChartData, level_order, pooled_rates

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
    from kiai.reports.findings.agreement import without_controls
    from kiai.reports.findings.strongest import variants

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
    level = {lv: i for i, lv in enumerate(level_order(rates["level"]))}
    rung = {r: i for i, r in enumerate(RUNGS)}
    return rates.assign(_l=rates["level"].map(level), _r=rates["strategy"].map(rung)).sort_values(
        ["_l", "samurai", "_r"], ignore_index=True).drop(columns=["_l", "_r"])


def main_strategy(df: pd.DataFrame) -> str:
    """The strategy the main charts show: kiai's default where the table has it, else the one
    played on the most configurations."""
    from kiai.strategies.registry import DEFAULT

    names = df["strategy"].astype(str)
    if names.empty or (names == DEFAULT).any():
        return DEFAULT
    return names.value_counts().index[0]
