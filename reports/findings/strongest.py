"""kiai's strongest player in the report's words: which rows of a table it played, and how to
name it beside "kiai's default player". The mapping of each family of tables to its strongest
player is strategies.registry.STRONGEST (beside registry.DEFAULT); work that makes another player
the strongest for some families changes that, and nothing else.
"""

from __future__ import annotations

import json

import pandas as pd

from kiai.strategies.registry import STRONGEST

DEFAULT_PLAYER, STRONGEST_PLAYER = "kiai's default player", "kiai's strongest player"
# below this win rate no candidate can be told apart from the default on a report's budget
TOLD_APART_MIN = 0.01
# what the page says in a cell, instead of naming a strongest, where nothing measured one (told_apart)
NOT_TOLD_APART = "not told apart"
TOLD_APART_RULE = (f"where it wins under {TOLD_APART_MIN:.0%}, or does not beat the default beyond noise (the 95% "
                   "interval of its difference with the default, on the deals both played, holds zero or lies below)")


def told_apart(rate: float, diff_lo: float) -> bool:
    """Whether a cell measured kiai's strongest player stronger than the default: it wins at least
    TOLD_APART_MIN there, and its difference with the default (strongest minus default, views.with_difference)
    has a 95% interval wholly above zero. Elsewhere the page says NOT_TOLD_APART."""
    return bool(rate >= TOLD_APART_MIN and diff_lo > 0)


def default_strategy() -> str:
    from kiai.strategies.registry import DEFAULT

    return DEFAULT


def name(strategy: str, params: dict | None = None) -> str:
    """A player in words: '`judge`', 'the lookahead over `learned` (`lookahead` base=5, decisions=1)'."""
    params = params or {}
    if strategy == "lookahead" and params.get("base") == 5:
        return "the lookahead over `learned` (`lookahead` " + ", ".join(f"{k}={v}" for k, v in params.items()) + ")"
    return f"`{strategy}`" + (" (" + ", ".join(f"{k}={v}" for k, v in params.items()) + ")" if params else "")


def who(sizes) -> str:
    """Which player is kiai's strongest at these team sizes, in words: '`judge` with 2 to 4 samurai,
    the lookahead over `learned` (...) with 5 to 7'."""
    runs: list[list] = []
    for n in sorted(int(x) for x in sizes):
        player = STRONGEST[n]
        if runs and runs[-1][0] == player and runs[-1][2] == n - 1:
            runs[-1][2] = n
        else:
            runs.append([player, n, n])
    parts = [f"{name(*player)} with {lo} samurai" if lo == hi else f"{name(*player)} with {lo} to {hi} samurai"
             for player, lo, hi in runs]
    return ", ".join(parts)


def tiers(df: pd.DataFrame) -> pd.Series:
    """Each row's player: 'default' (kiai's default strategy), 'strongest' (the family's strongest,
    its parameters as STRONGEST sets them) or '' (another player)."""
    default = default_strategy()
    out = []
    for strategy, params, n in zip(df["strategy"].astype(str), df.get("params", pd.Series("{}", index=df.index)),
                                   df["n_samurai"].astype(int)):
        best, wanted = STRONGEST.get(n, (None, {}))
        given = json.loads(params) if isinstance(params, str) and params.startswith("{") else {}
        if strategy == best and all(given.get(k) == v for k, v in wanted.items()):
            out.append("strongest")
        elif strategy == default:
            out.append("default")
        else:
            out.append("")
    return pd.Series(out, index=df.index, dtype=object)


def variants(df: pd.DataFrame) -> pd.Series:
    """True where a row is a strongest player played with parameters of its own (the lookahead over
    `learned`): a player of the agreement stage, not a rung of the skill ladder."""
    wanted = {s for s, p in STRONGEST.values() if p}
    return (tiers(df) == "strongest") & df["strategy"].astype(str).isin(wanted)
