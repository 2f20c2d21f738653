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

`default`, `advice` and `agreement` are races (reports.playing.racing): preset_groups says which
configurations race together and under which rule, so that each plays as many games as the
report's sentences need of it, up to a cap (docs/report.md says how many and why).
"""

from __future__ import annotations

import math

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
# 849 configurations of at most 3,000 games (2.5 million games; `selfplay` plays 6,000 to 18,000
# games/s on 2 cores, slower with more samurai), raced (preset_groups): rounds of DEFAULT_ROUND games;
# a line-up (or a seating) leaves the race once it can be neither the best nor the worst of its team
# size and level (its line-up's seatings), or once its 95% interval is within +-SWEEP_PRECISION; a
# rule reading (or absent tokens off) plays until its difference with the rules' own is told apart
# from zero or shown within +-RULE_MARGIN. --games plays every configuration DEFAULT_GAMES instead
DEFAULT_GAMES = 3_000
DEFAULT_ROUND = 500
SWEEP_PRECISION = 0.015
SEATING_PRECISION = 0.03  # the seatings of every 4-samurai line-up, and the advice stage's (ADVICE_MARGIN)
RULE_MARGIN = 0.02
# the advice stage: every seating of the recommended line-up of each team size, at the level its
# line-ups are compared (reports.findings.advice.recommended_lineups); seatings the main table holds are not
# played again. Raced in rounds of ADVICE_ROUND: a seating stops once it can be neither the best nor
# the worst, or once its 95% interval is within +-ADVICE_MARGIN (seatings closer than that are as good
# as each other at the table), at ADVICE_CAP games at most; --games ADVICE_GAMES each instead. The
# margin is the main sweep's for seatings; a round is the games a seating needs to reach it where
# the default wins 3 to 4.5%, as at 7 samurai Easy: its 720 seatings, most of the stage, stop after one
ADVICE_GAMES = 1_000
ADVICE_ROUND = 200
ADVICE_MARGIN = SEATING_PRECISION
ADVICE_CAP = 4_000
LADDER_COUNTS = (3, 4, 5)
LADDER_LINEUPS = 2  # line-ups per level and team size, drawn with seed 0 (simcore.seatings.sample_lineups)
LADDER_STRATEGIES = tuple(dict.fromkeys(("reference", "keeper", "learned", DEFAULT_STRATEGY)))
LADDER_GAMES = 5_000
PLANNER_STRATEGIES = ("lookahead", "judge", "foresight")
PLANNER_GAMES = 100
# the agreement stage: kiai's default player and its strongest (registry.strongest: judge, or the
# raced lookahead over learned; several times slower) on the same tables and deals: every line-up the default
# sweep played at each level and team size, seated in its own order, so that the report can give the
# strongest player's win rate beside the default's, all line-ups pooled as the default's is ("How hard"),
# and say which findings hold for stronger play. Each level and team size plays rounds of about
# AGREEMENT_ROUND games pooled (each line-up on deals of its own, its two players on the same ones:
# racing.Group.deals) until the headline's 95% interval
# for the strongest player is within +-HEADLINE_PRECISION, at AGREEMENT_CAP games a line-up at most; and every
# line-up of AGREEMENT_COUNT samurai at AGREEMENT_LEVEL plays AGREEMENT_GAMES, for each samurai's
# effect (each samurai is in 20 of the 35 line-ups and out of 15) and the best and worst line-ups. Easy,
# because it is where four samurai win often enough for a few hundred games a line-up to tell them apart
AGREEMENT_STRATEGIES = (DEFAULT_STRATEGY, "judge", "lookahead")  # the default, then the strongest (by family)
AGREEMENT_LEVEL = "easy"
AGREEMENT_COUNT = 4
AGREEMENT_GAMES = 200
AGREEMENT_ROUND = 40
AGREEMENT_PRECISION = 0.05
# the headline's precision: the interval the report prints for the strongest player's rate, read on
# its own games (the two players' games barely correlate on a deal, so the default's deals would
# not narrow it), within +-2 points (near 0% that takes a few hundred games: the interval narrows
# with the rate)
HEADLINE_PRECISION = 0.02
AGREEMENT_CAP = 2_000
# the stages whose games a race decides (preset_groups); the others play PRESET_GAMES each
RACES = ("default", "advice", "agreement")

PRESETS = {
    "default": (
        "every level x 2-7 samurai x every line-up (seat order as listed), plus every seating of every "
        f"4-samurai line-up at {SEATINGS_LEVEL}, the rule readings V-1 to V-5 on {RULE_LINEUPS} line-ups per "
        f"team size at {' and '.join(RULE_LEVELS)}, and 2 samurai with absent tokens off; raced in rounds of "
        f"{DEFAULT_ROUND:,} games, up to {DEFAULT_GAMES:,} each"
    ),
    "advice": (
        "every seating of the recommended line-up of each team size, read from the default sweep's "
        f"table (--from); raced in rounds of {ADVICE_ROUND:,} games until each is clearly neither the best nor "
        f"the worst, or known to within {100 * ADVICE_MARGIN:g} points"
    ),
    "agreement": (
        "every line-up of the default sweep's grid read from its table (--from), played by kiai's default "
        "player and its strongest (judge with 2 to 4 samurai, the raced lookahead over learned with 5 to 7) on "
        f"the same deals, in rounds until the headline's interval for the strongest player's rate is within "
        f"{100 * HEADLINE_PRECISION:g} points; every line-up of {AGREEMENT_COUNT} samurai at {AGREEMENT_LEVEL} plays {AGREEMENT_GAMES:,} games"
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
    from kiai.reports.playing.tables import identity_key

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
    from kiai.reports.playing.grid import (
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
    """Every seating of the recommended line-up of each team size of three or more
    (reports.findings.advice.recommended_lineups of `results`, the default sweep's table, for the first
    strategy), at the level its line-ups are compared: all of them race on one rule
    (advice_groups), those the main table holds too (the report counts the longer run of the same
    deals: ladder.distinct_games). ValueError, saying why, when that leaves nothing to play."""
    from kiai.reports.findings import advice
    from kiai.simcore.seatings import seatings_from
    from kiai.reports.playing.grid import build_plan, strategy_variants

    strategies = list(strategies)
    variants = strategy_variants(strategies, {})
    plans = []
    recommended = advice.recommended_lineups(results, strategies[0])
    for n, (level, lineup) in sorted(recommended.items()):
        seatings = seatings_from(lineup)
        if len(seatings) > 1:
            plans.append(build_plan([level], seatings, variants, absent_tokens, components, model))
    plan = merge_plans(*plans)
    if not plan:
        why = (f"it holds no line-up played by {strategies[0]} to recommend" if not recommended else
               "two samurai have a single seating")
        raise ValueError(f"preset advice: nothing to play from the results table (--from): {why}")
    return plan


def agreement_plan(results, strategies=AGREEMENT_STRATEGIES, absent_tokens: str = "auto", components=None,
                   model=None) -> list:
    """Every line-up `results` (the default sweep's table) holds for the first strategy, seated in
    its own order (advice.grid_rows), at every level: played by that strategy and by the family's
    strongest player (reports.findings.strongest), level by level and team size by team size. ValueError
    when `results` holds none of them."""
    from kiai.reports.findings import advice
    from kiai.strategies.registry import strongest
    from kiai.reports.playing.grid import build_plan, strategy_variants

    main = list(strategies)[0]
    grid = advice.grid_rows(results, main)
    plans = []
    for level in advice.levels_present(grid["difficulty"]):
        for n in sorted(set(grid.loc[grid["difficulty"] == level, "n_samurai"].astype(int))):
            part = grid[(grid["difficulty"] == level) & (grid["n_samurai"] == n)]
            seatings = sorted({tuple(str(x).split(",")) for x in part["seating"]})
            best, params = strongest(n, level)
            variants = strategy_variants([main], {}) + [(best, params)]
            plans.append(build_plan([level], seatings, variants, absent_tokens, components, model))
    plan = merge_plans(*plans)
    if not plan:
        raise ValueError(f"preset agreement: the results table (--from) holds none of the default sweep's "
                         f"configurations played by {main}")
    return plan


def ladder_plan(strategies=LADDER_STRATEGIES, absent_tokens: str = "auto", components=None, model=None) -> list:
    from kiai.reports.playing.grid import build_plan, expand_lineups, strategy_variants

    lineups = expand_lineups(LADDER_COUNTS, "sample", LADDER_LINEUPS, 0)
    return build_plan(list(DEFAULT_LEVELS), lineups, strategy_variants(list(strategies), {}), absent_tokens,
                      components, model)


def house_plan(strategies=(DEFAULT_STRATEGY,), absent_tokens: str = "auto", components=None, model=None) -> list:
    """The default sweep's rule line-ups at its rule levels, under the rules' own readings: under
    another component file (--components), the partners of the default sweep's rows of the same
    seatings, which the report's House rules section compares them with (reports.page.house)."""
    from kiai.reports.playing.grid import build_plan, strategy_variants

    chosen = [lineup for n in DEFAULT_COUNTS for lineup in rule_lineups(n)]
    return build_plan(list(RULE_LEVELS), chosen, strategy_variants(list(strategies), {}), absent_tokens, components,
                      model)


# the presets whose race a headline precision (`kiai sweep --headline`, `make report PRECISION=`) tightens
HEADLINE_PRESETS = ("default", "agreement")


def headline_cap(cap: int, headline: float | None) -> int:
    """A race's cap of games for a headline asked to +-headline: games grow as 1 / width^2."""
    if headline is None or headline >= HEADLINE_PRECISION:
        return cap
    return math.ceil(cap * (HEADLINE_PRECISION / headline) ** 2)


def preset_groups(name: str, plan: list, headline: float | None = None) -> list | None:
    """The race of preset `name` over its plan (reports.playing.racing.Group), or None for the presets that
    play a fixed number of games (PRESET_GAMES). `headline`: each headline cell's interval within
    +-headline (HEADLINE_PRESETS; None: the report's own precision)."""
    if name == "default":
        return default_groups(plan, headline)
    if name == "advice":
        return advice_groups(plan)
    if name == "agreement":
        return agreement_groups(plan, headline)
    return None


def _grouped(plan: list, key) -> dict:
    """{key(config): [plan indices]} over the configurations for which key is not None, in plan order."""
    out: dict = {}
    for i, config in enumerate(plan):
        k = key(config)
        if k is not None:
            out.setdefault(k, []).append(i)
    return out


def _own_tokens(config) -> bool:
    """True where a configuration plays the rules' default for absent tokens (R-18: on with two samurai)."""
    return bool(config.absent_on) == (config.n == 2)


def default_groups(plan: list, headline: float | None = None) -> list:
    """The main sweep's race: the line-ups of each team size and level (rules' own readings, seated in
    their own order); each 4-samurai line-up's seatings at SEATINGS_LEVEL; each rule reading against
    the rules' own on the same line-ups, level by level and team size by team size; two samurai with
    absent tokens off against on, level by level (presets module: DEFAULT_ROUND, SWEEP_PRECISION,
    SEATING_PRECISION, RULE_MARGIN). With `headline`, each team size and level's line-ups also play on
    until their pooled rate (the headline's cell) is within +-headline, the cap grown to match."""
    from kiai.reports.playing.racing import Group
    from kiai.reports.playing.stopping import Difference, Extremes
    from kiai.simcore.seatings import lineup_key
    from kiai.reports.playing.tables import rules_label

    def plain(c):
        return rules_label(c) == "default" and _own_tokens(c)

    race = Extremes(DEFAULT_ROUND, DEFAULT_ROUND, DEFAULT_GAMES, precision=SWEEP_PRECISION)
    cells = race if headline is None else Extremes(DEFAULT_ROUND, DEFAULT_ROUND, headline_cap(DEFAULT_GAMES, headline),
                                                   precision=SWEEP_PRECISION, pooled=headline)  # fmt: skip
    seats = Extremes(DEFAULT_ROUND, DEFAULT_ROUND, DEFAULT_GAMES, precision=SEATING_PRECISION)
    cell = Difference(DEFAULT_ROUND, DEFAULT_ROUND, DEFAULT_GAMES, margin=RULE_MARGIN)
    own = _grouped(plan, lambda c: (c.difficulty, c.n, lineup_key(c.samurai))
                   if plain(c) and ",".join(c.samurai) == lineup_key(c.samurai) else None)
    groups = [Group(cells, tuple(ix)) for ix in _grouped(
        plan, lambda c: (c.difficulty, c.n) if plain(c) and ",".join(c.samurai) == lineup_key(c.samurai) else None
    ).values()]
    groups += [Group(seats, tuple(ix)) for ix in _grouped(plan, lambda c: (c.difficulty, lineup_key(c.samurai))
                                                         if plain(c) and c.difficulty == SEATINGS_LEVEL
                                                         and c.n == SEATINGS_COUNT else None).values() if len(ix) > 1]
    changed = _grouped(plan, lambda c: (rules_label(c), c.difficulty, c.n) if rules_label(c) != "default" else None)
    changed.update(_grouped(plan, lambda c: ("tokens", c.difficulty, 2) if rules_label(c) == "default" and c.n == 2
                            and not _own_tokens(c) else None))
    for (_, level, n), ix in changed.items():
        base = [own.get((level, n, lineup_key(plan[i].samurai)), [None])[0] for i in ix]
        if None in base:  # the rules' own not in the plan (a grid without that level): race them alone
            groups.append(Group(race, tuple(ix)))
        else:
            groups.append(Group(cell, (*ix, *base), (1,) * len(ix) + (0,) * len(base)))
    return groups


def advice_groups(plan: list) -> list:
    """The advice stage's race: each team size's seatings (ADVICE_ROUND, ADVICE_MARGIN, ADVICE_CAP)."""
    from kiai.reports.playing.racing import Group
    from kiai.reports.playing.stopping import Extremes

    race = Extremes(ADVICE_ROUND, ADVICE_ROUND, ADVICE_CAP, precision=ADVICE_MARGIN)
    return [Group(race, tuple(ix)) for ix in _grouped(plan, lambda c: c.n).values()]


def agreement_groups(plan: list, headline: float | None = None) -> list:
    """The agreement stage's cells: each level and team size, every line-up played by the default
    and the strongest player on deals of its own (both players on the same ones), until the
    strongest's rate, all line-ups pooled (the headline's figure), has a 95% interval within
    HEADLINE_PRECISION (rounds of AGREEMENT_ROUND games pooled, AGREEMENT_CAP a line-up at most); AGREEMENT_GAMES each at
    AGREEMENT_LEVEL with AGREEMENT_COUNT samurai. The default plays beside it for the page's
    comparisons, each game's win kept (Cell's shared). `headline`: that interval within +-headline
    instead, the cap grown to match."""
    from kiai.reports.playing.racing import Group
    from kiai.reports.playing.stopping import Cell
    from kiai.simcore.seatings import lineup_key
    from kiai.strategies.registry import strongest

    groups = []
    for (level, n), ix in _grouped(plan, lambda c: (c.difficulty, c.n)).items():
        best = strongest(n, level)[0]
        labels = tuple(int(plan[i].strategy == best) for i in ix)
        step = max(1, math.ceil(AGREEMENT_ROUND / max(1, sum(labels))))
        if (level, n) == (AGREEMENT_LEVEL, AGREEMENT_COUNT):
            rule = Cell(AGREEMENT_GAMES, 0, AGREEMENT_GAMES, h=AGREEMENT_PRECISION, shared=True)
        else:  # the interval the headline prints, within +-HEADLINE_PRECISION
            rule = Cell(step, step, max(step, headline_cap(AGREEMENT_CAP, headline)),
                        h=HEADLINE_PRECISION if headline is None else headline, shared=True)
        # each line-up meets deals of its own, both players the same ones: the pooled rate's games
        # are then independent across line-ups
        groups.append(Group(rule, tuple(ix), labels, tuple(lineup_key(plan[i].samurai) for i in ix)))
    return groups




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
