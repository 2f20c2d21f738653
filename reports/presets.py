"""Ready-made sweeps. `default` is the main job behind `make report`.

The default sweep plays kiai's default strategy (strategies.registry.DEFAULT, also the
default of every command). It is still `reference`, the exactly specified strategy
(REFERENCE_STRATEGY.md) that independent implementations compare on, although `keeper` plays
better (README, "How they compare") at about 0.42 of its speed.
"""

from __future__ import annotations

from simcore.codes import LEVELS
from strategies.registry import DEFAULT as DEFAULT_STRATEGY

# The default sweep: every level x 3, 4 and 5 samurai x every line-up (91 per level), plus every
# seating of every 4-samurai line-up at SEATINGS_LEVEL (the neighbour-effect chart and the seating
# table need several seatings of a line-up). SEATINGS_LEVEL is easy because `reference` almost never
# wins at Normal (about 0.07% with four samurai), so seatings could not be told apart there.
DEFAULT_LEVELS = LEVELS
DEFAULT_COUNTS = (3, 4, 5)
SEATINGS_LEVEL = "easy"
SEATINGS_COUNT = 4
# 539 configurations, 10.8 million games: about 1.5 minutes on 2 cores at 110,000 games/s (as
# measured with `reference`), 5 minutes at 35,000 games/s; a slower strategy as the
# default may call for fewer games
DEFAULT_GAMES = 20_000

PRESETS = {
    "default": (
        "every level x 3-5 samurai x every line-up (seat order as listed), plus every seating of every "
        f"4-samurai line-up at {SEATINGS_LEVEL}; {DEFAULT_GAMES:,} games each"
    ),
}


def merge_plans(*plans) -> list:
    """Concatenate plans, keeping the first of configurations listed twice."""
    from reports.sweep import identity_key

    out, seen = [], set()
    for plan in plans:
        for config in plan:
            key = identity_key(config)
            if key not in seen:
                seen.add(key)
                out.append(config)
    return out


def default_plan(strategies=(DEFAULT_STRATEGY,), absent_tokens: str = "auto", components=None) -> list:
    from reports.sweep import (
        build_plan,
        expand_lineups,
        expand_seatings,
        strategy_variants,
    )

    variants = strategy_variants(list(strategies), {})
    levels = [lv for lv in DEFAULT_LEVELS]
    grid = build_plan(levels, expand_lineups(DEFAULT_COUNTS, "all", None, 0), variants, absent_tokens, components)
    seatings = expand_seatings(expand_lineups([SEATINGS_COUNT], "all", None, 0), "all")
    extra = build_plan([SEATINGS_LEVEL], seatings, variants, absent_tokens, components)
    return merge_plans(grid, extra)


def preset_plan(name: str, **kw) -> list:
    if name == "default":
        return default_plan(**kw)
    raise KeyError(f"unknown preset '{name}' (known: {', '.join(PRESETS)})")
