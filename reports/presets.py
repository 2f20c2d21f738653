"""Ready-made sweeps. `default` is the main job behind `make report`; `ladder` and
`ladder-planners` give the report its skill ladder.

The default sweep plays kiai's default strategy (strategies.registry.DEFAULT, also the
default of every command): `learned`. The ladder plays a few line-ups per level and team size
with every rung of skill on the same deals: reference, keeper and learned on many games, the
lookahead and the cheating foresight (its ceiling) on few, since they play about a hundred
times slower.
"""

from __future__ import annotations

from kiai.simcore.codes import LEVELS
from kiai.strategies.registry import DEFAULT as DEFAULT_STRATEGY

# The default sweep: every level x 3, 4 and 5 samurai x every line-up (91 per level), plus every
# seating of every 4-samurai line-up at SEATINGS_LEVEL (the neighbour-effect chart and the seating
# table need several seatings of a line-up). SEATINGS_LEVEL is easy because `reference` almost never
# wins at Normal (about 0.07% with four samurai), so seatings could not be told apart there.
DEFAULT_LEVELS = LEVELS
DEFAULT_COUNTS = (3, 4, 5)
SEATINGS_LEVEL = "easy"
SEATINGS_COUNT = 4
# 539 configurations; 5,000 games each is 2.7 million games: one to two minutes on 2 cores with
# `learned` (25,000 to 40,000 games/s, by team size), where `reference` would take 10 seconds
DEFAULT_GAMES = 5_000
LADDER_COUNTS = (3, 4, 5)
LADDER_LINEUPS = 2  # line-ups per level and team size, drawn with seed 0 (reports.sweep.sample_lineups)
LADDER_STRATEGIES = ("reference", "keeper", DEFAULT_STRATEGY)
LADDER_GAMES = 5_000
PLANNER_STRATEGIES = ("lookahead", "foresight")
PLANNER_GAMES = 150

PRESETS = {
    "default": (
        "every level x 3-5 samurai x every line-up (seat order as listed), plus every seating of every "
        f"4-samurai line-up at {SEATINGS_LEVEL}; {DEFAULT_GAMES:,} games each"
    ),
    "ladder": (
        f"every level x 3-5 samurai x {LADDER_LINEUPS} line-ups each, played by {', '.join(LADDER_STRATEGIES)}; "
        f"{LADDER_GAMES:,} games each"
    ),
    "ladder-planners": (
        f"the ladder's tables played by {', '.join(PLANNER_STRATEGIES)} (the cheating ceiling); "
        f"{PLANNER_GAMES:,} games each"
    ),
}
PRESET_GAMES = {"default": DEFAULT_GAMES, "ladder": LADDER_GAMES, "ladder-planners": PLANNER_GAMES}
PRESET_STRATEGIES = {"default": (DEFAULT_STRATEGY,), "ladder": LADDER_STRATEGIES, "ladder-planners": PLANNER_STRATEGIES}


def merge_plans(*plans) -> list:
    """Concatenate plans, keeping the first of configurations listed twice."""
    from kiai.reports.sweep import identity_key

    out, seen = [], set()
    for plan in plans:
        for config in plan:
            key = identity_key(config)
            if key not in seen:
                seen.add(key)
                out.append(config)
    return out


def default_plan(strategies=(DEFAULT_STRATEGY,), absent_tokens: str = "auto", components=None, model=None) -> list:
    from kiai.reports.sweep import (
        build_plan,
        expand_lineups,
        expand_seatings,
        strategy_variants,
    )

    variants = strategy_variants(list(strategies), {})
    levels = [lv for lv in DEFAULT_LEVELS]
    grid = build_plan(levels, expand_lineups(DEFAULT_COUNTS, "all", None, 0), variants, absent_tokens, components, model)
    seatings = expand_seatings(expand_lineups([SEATINGS_COUNT], "all", None, 0), "all")
    extra = build_plan([SEATINGS_LEVEL], seatings, variants, absent_tokens, components, model)
    return merge_plans(grid, extra)


def ladder_plan(strategies=LADDER_STRATEGIES, absent_tokens: str = "auto", components=None, model=None) -> list:
    from kiai.reports.sweep import build_plan, expand_lineups, strategy_variants

    lineups = expand_lineups(LADDER_COUNTS, "sample", LADDER_LINEUPS, 0)
    return build_plan(list(DEFAULT_LEVELS), lineups, strategy_variants(list(strategies), {}), absent_tokens,
                      components, model)


def preset_plan(name: str, **kw) -> list:
    if name == "default":
        return default_plan(**kw)
    if name in ("ladder", "ladder-planners"):
        return ladder_plan(**kw)
    raise KeyError(f"unknown preset '{name}' (known: {', '.join(PRESETS)})")
