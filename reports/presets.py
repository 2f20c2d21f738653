"""Ready-made sweeps. `default` is the main job behind `make report`; `advice` plays every seating
of the line-up the default sweep recommends per team size, and `agreement` replays a subsample of
that sweep with the strong tier beside the default strategy (both plans read that sweep's table);
`ladder` and `ladder-planners` give the report its skill ladder; `house` plays the rule readings'
line-ups under another component file, for the report's House rules section.

The default sweep plays kiai's default strategy (strategies.registry.DEFAULT, also the
default of every command): `selfplay`. The ladder plays a few line-ups per level and team size
with every rung of skill on the same deals: reference, keeper, learned and selfplay on many games, the
lookahead, the strong tier (judge) and the cheating foresight (its ceiling) on few, since they
play about a hundred times slower.
"""

from __future__ import annotations

from kiai.simcore.codes import LEVELS
from kiai.strategies.registry import DEFAULT as DEFAULT_STRATEGY

# The default sweep: every level x 2 to 7 samurai x every line-up (21 + 35 + 35 + 21 + 7 + 1 = 120 per
# level, each seated in its own order), plus every seating of every 4-samurai line-up at
# SEATINGS_LEVEL (the neighbour-effect chart and the seating table need several seatings of a
# line-up), plus the rule readings V-1..V-5 on RULE_LINEUPS line-ups per team size at RULE_LEVELS
# (their default-reading partners are in the grid: same seating, seed and games), plus two samurai
# with absent tokens off at every level (the rules' default, R-18, has them on). SEATINGS_LEVEL is
# easy because it is the one level where every team size wins often enough to tell seatings apart.
DEFAULT_LEVELS = LEVELS
DEFAULT_COUNTS = (2, 3, 4, 5, 6, 7)
SEATINGS_LEVEL = "easy"
SEATINGS_COUNT = 4
RULE_LEVELS = ("easy", "normal")
RULE_LINEUPS = 2  # per team size (7 samurai have one), drawn with RULE_SEED among those with Kikuchiyo
RULE_SEED = 0
# 849 configurations; 3,000 games each is 2.5 million games: about five minutes on 2 cores with
# `selfplay` (6,000 to 18,000 games/s, slower with more samurai)
DEFAULT_GAMES = 3_000
# the advice stage: every seating of the recommended line-up of each team size, at the level its
# line-ups are compared (reports.advice.recommended_lineups); seatings the main table holds are not
# played again. make report asks for --precision instead; these games apply without it
ADVICE_GAMES = 1_000
LADDER_COUNTS = (3, 4, 5)
LADDER_LINEUPS = 2  # line-ups per level and team size, drawn with seed 0 (reports.sweep.sample_lineups)
LADDER_STRATEGIES = tuple(dict.fromkeys(("reference", "keeper", "learned", DEFAULT_STRATEGY)))
LADDER_GAMES = 5_000
PLANNER_STRATEGIES = ("lookahead", "judge", "foresight")
PLANNER_GAMES = 150
# the agreement stage: the default strategy and the strong tier (judge, many times slower) on
# the same deals, on a subsample of the default sweep's grid, so that the report can say which of its
# findings hold for stronger play: AGREEMENT_LINEUPS line-ups per level and team size (drawn with
# AGREEMENT_SEED: the skill ladder's for 3 to 5 samurai), for the win rate by level and team size;
# and every line-up of AGREEMENT_COUNT samurai at AGREEMENT_LEVEL, for each samurai's effect (each
# samurai is in 20 of the 35 line-ups and out of 15) and the best and worst line-ups. Easy, because
# it is where four samurai win often enough (about a quarter of games) for a few hundred games a
# line-up to tell them apart. 77 configurations of 350 games: about 27,000 games of judge
AGREEMENT_STRATEGIES = (DEFAULT_STRATEGY, "judge")
AGREEMENT_LINEUPS = 2
AGREEMENT_SEED = 0
AGREEMENT_LEVEL = "easy"
AGREEMENT_COUNT = 4
AGREEMENT_GAMES = 350

PRESETS = {
    "default": (
        "every level x 2-7 samurai x every line-up (seat order as listed), plus every seating of every "
        f"4-samurai line-up at {SEATINGS_LEVEL}, the rule readings V-1 to V-5 on {RULE_LINEUPS} line-ups per "
        f"team size at {' and '.join(RULE_LEVELS)}, and 2 samurai with absent tokens off; "
        f"{DEFAULT_GAMES:,} games each"
    ),
    "advice": (
        "every seating of the recommended line-up of each team size, read from the default sweep's "
        f"table (--from); {ADVICE_GAMES:,} games each"
    ),
    "agreement": (
        f"a subsample of the default sweep's grid read from its table (--from), played by "
        f"{' and '.join(AGREEMENT_STRATEGIES)} on the same deals: {AGREEMENT_LINEUPS} line-ups per level and team "
        f"size, and every line-up of {AGREEMENT_COUNT} samurai at {AGREEMENT_LEVEL}; {AGREEMENT_GAMES:,} games each"
    ),
    "ladder": (
        f"every level x 3-5 samurai x {LADDER_LINEUPS} line-ups each, played by {', '.join(LADDER_STRATEGIES)}; "
        f"{LADDER_GAMES:,} games each"
    ),
    "ladder-planners": (
        f"the ladder's tables played by {', '.join(PLANNER_STRATEGIES)} (the cheating ceiling); "
        f"{PLANNER_GAMES:,} games each"
    ),
    "house": (
        f"the rule readings' line-ups ({RULE_LINEUPS} per team size, seat order as listed) at "
        f"{' and '.join(RULE_LEVELS)} under the rules' own readings, on the default sweep's deals: give "
        f"--components FILE, and the report's House rules section compares FILE with its own; "
        f"{DEFAULT_GAMES:,} games each"
    ),
}
PRESET_GAMES = {"default": DEFAULT_GAMES, "advice": ADVICE_GAMES, "agreement": AGREEMENT_GAMES,
                "ladder": LADDER_GAMES, "ladder-planners": PLANNER_GAMES, "house": DEFAULT_GAMES}
PRESET_STRATEGIES = {"default": (DEFAULT_STRATEGY,), "advice": (DEFAULT_STRATEGY,), "agreement": AGREEMENT_STRATEGIES,
                     "ladder": LADDER_STRATEGIES, "ladder-planners": PLANNER_STRATEGIES, "house": (DEFAULT_STRATEGY,)}
# the presets whose plan is read from a results table (`kiai sweep --from FILE`)
NEEDS_RESULTS = ("advice", "agreement")


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


def rule_lineups(n: int, k: int = RULE_LINEUPS, seed: int = RULE_SEED) -> list[tuple[str, ...]]:
    """k line-ups of n samurai holding Kikuchiyo (so that V-5, his second fight, applies), drawn
    with numpy Generator(seed), in canonical order; all of them where there are no more than k."""
    import numpy as np

    from kiai.simcore.seatings import all_lineups

    pool = [lineup for lineup in all_lineups(n) if "kikuchiyo" in lineup]
    if k >= len(pool):
        return pool
    picked = np.random.default_rng(seed).choice(len(pool), size=k, replace=False)
    return [pool[i] for i in sorted(picked)]


def rule_changes() -> list[dict]:
    """Each reading of docs/rules.md section 14 changed alone: [{name: other value}, ...]."""
    from kiai.simcore.readings import READINGS

    return [{r.name: r.values[1]} for r in READINGS]


def default_plan(strategies=(DEFAULT_STRATEGY,), absent_tokens: str = "auto", components=None, model=None) -> list:
    from kiai.reports.sweep import (
        build_plan,
        expand_lineups,
        expand_seatings,
        strategy_variants,
    )

    variants = strategy_variants(list(strategies), {})
    levels = list(DEFAULT_LEVELS)
    grid = build_plan(levels, expand_lineups(DEFAULT_COUNTS, "all", None, 0), variants, absent_tokens, components, model)
    seatings = expand_seatings(expand_lineups([SEATINGS_COUNT], "all", None, 0), "all")
    extra = build_plan([SEATINGS_LEVEL], seatings, variants, absent_tokens, components, model)
    chosen = [lineup for n in DEFAULT_COUNTS for lineup in rule_lineups(n)]
    rules = build_plan(list(RULE_LEVELS), chosen, variants, absent_tokens, components, model, rules=rule_changes())
    # the note on absent tokens compares two samurai without them; only when the grid plays the default
    tokens = (build_plan(levels, expand_lineups([2], "all", None, 0), variants, "off", components, model)
              if absent_tokens == "auto" and 2 in DEFAULT_COUNTS else [])
    return merge_plans(grid, extra, rules, tokens)


def advice_plan(results, strategies=(DEFAULT_STRATEGY,), absent_tokens: str = "auto", components=None,
                model=None) -> list:
    """Every seating of the recommended line-up of each team size (reports.advice.recommended_lineups
    of `results`, the default sweep's table, for the first strategy), at the level its line-ups are
    compared, less the seatings `results` already holds there. ValueError, saying why, when that
    leaves nothing to play."""
    from kiai.reports import advice
    from kiai.simcore.seatings import seatings_from
    from kiai.reports.sweep import build_plan, strategy_variants

    strategies = list(strategies)
    variants = strategy_variants(strategies, {})
    main = advice.main_rows(results, strategies[0])
    played = set(zip(main["difficulty"].astype(str), main["seating"].astype(str)))
    plans = []
    recommended = advice.recommended_lineups(results, strategies[0])
    for n, (level, lineup) in sorted(recommended.items()):
        seatings = [s for s in seatings_from(lineup) if (level, ",".join(s)) not in played]
        plans.append(build_plan([level], seatings, variants, absent_tokens, components, model))
    plan = merge_plans(*plans)
    if not plan:
        why = (f"it holds no line-up played by {strategies[0]} to recommend" if not recommended else
               "two samurai have a single seating, which it holds already" if set(recommended) == {2} else
               f"it holds every seating of the line-ups it recommends ({', '.join(map(str, sorted(recommended)))} "
               "samurai) already; two samurai have a single seating")  # fmt: skip
        raise ValueError(f"preset advice: nothing to play from the results table (--from): {why}")
    return plan


def agreement_plan(results, strategies=AGREEMENT_STRATEGIES, absent_tokens: str = "auto", components=None,
                   model=None) -> list:
    """A subsample of the configurations `results` (the default sweep's table) holds for the first
    strategy, each seated in its own order, played by every strategy given: level by level and
    team size by team size, the AGREEMENT_LINEUPS line-ups drawn with AGREEMENT_SEED
    (seatings.sample_lineups); then every line-up of AGREEMENT_COUNT samurai at AGREEMENT_LEVEL.
    ValueError when `results` holds none of them."""
    from kiai.reports import advice
    from kiai.simcore.seatings import all_lineups, sample_lineups
    from kiai.reports.sweep import build_plan, strategy_variants

    strategies = list(strategies)
    variants = strategy_variants(strategies, {})
    grid = advice.grid_rows(results, strategies[0])
    held = set(zip(grid["difficulty"], grid["seating"].astype(str)))
    counts = sorted(set(grid["n_samurai"].astype(int)))

    def played(level, lineups):
        return [s for s in lineups if (level, ",".join(s)) in held]

    plans = [build_plan([level], played(level, sample_lineups(n, AGREEMENT_LINEUPS, AGREEMENT_SEED)), variants,
                        absent_tokens, components, model)
             for level in advice.levels_present(grid["difficulty"]) for n in counts]
    if AGREEMENT_COUNT in counts:
        plans.append(build_plan([AGREEMENT_LEVEL], played(AGREEMENT_LEVEL, all_lineups(AGREEMENT_COUNT)), variants,
                                absent_tokens, components, model))
    plan = merge_plans(*plans)
    if not plan:
        raise ValueError(f"preset agreement: the results table (--from) holds none of the default sweep's "
                         f"configurations played by {strategies[0]}")
    return plan


def ladder_plan(strategies=LADDER_STRATEGIES, absent_tokens: str = "auto", components=None, model=None) -> list:
    from kiai.reports.sweep import build_plan, expand_lineups, strategy_variants

    lineups = expand_lineups(LADDER_COUNTS, "sample", LADDER_LINEUPS, 0)
    return build_plan(list(DEFAULT_LEVELS), lineups, strategy_variants(list(strategies), {}), absent_tokens,
                      components, model)


def house_plan(strategies=(DEFAULT_STRATEGY,), absent_tokens: str = "auto", components=None, model=None) -> list:
    """The default sweep's rule line-ups at its rule levels, under the rules' own readings: under
    another component file (--components), the partners of the default sweep's rows of the same
    seatings, which the report's House rules section compares them with (reports.house)."""
    from kiai.reports.sweep import build_plan, strategy_variants

    chosen = [lineup for n in DEFAULT_COUNTS for lineup in rule_lineups(n)]
    return build_plan(list(RULE_LEVELS), chosen, strategy_variants(list(strategies), {}), absent_tokens, components,
                      model)


def preset_plan(name: str, results=None, **kw) -> list:
    """The plan of preset `name`; `results` (a results table, `kiai sweep --from`) for the presets of
    NEEDS_RESULTS, which raise ValueError without it."""
    if name == "default":
        return default_plan(**kw)
    if name == "advice":
        if results is None:
            raise ValueError("preset advice needs the default sweep's results table (--from FILE)")
        return advice_plan(results, **kw)
    if name == "agreement":
        if results is None:
            raise ValueError("preset agreement needs the default sweep's results table (--from FILE)")
        return agreement_plan(results, **kw)
    if name in ("ladder", "ladder-planners"):
        return ladder_plan(**kw)
    if name == "house":
        return house_plan(**kw)
    raise KeyError(f"unknown preset '{name}' (known: {', '.join(PRESETS)})")
