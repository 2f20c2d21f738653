"""The plan of a comparison from the API's arguments (kiai.api.compare): every argument checked with
the command's checks, and the arms of the kind they ask (seatings, strategies, the values of a rule
reading or component files: reports.search.compare's), before any game is played."""

from __future__ import annotations

import dataclasses

from kiai.inputs.checks import (check_cluster, check_flag, check_input, check_path, fail, items_of, listed,
                                 one_item, text_of)
from kiai.inputs.configs import component_files, load_components, parse_rule_axis, parse_rules, parse_samurai
from kiai.inputs.counts import check_games, check_seed, check_threads
from kiai.inputs.players import check_model, parse_strategy_params, resolve_strategy
from kiai.reports.search import compare as C
from kiai.simcore.components import ComponentsError
from kiai.simcore.config import ConfigError
from kiai.simcore.seatings import as_names


def compare_plan(p, lineup, level, games, seed, strategy, strategies, readings, params, params_file, rules,
                 absent_tokens, components, model, threads, strict, workers=None, scheduler=None) -> C.Plan:
    """compare's checks, in the order `kiai compare` makes them (its notes to `p`), and what it plays:
    a reports.search.compare.Plan, here or on Dask (`workers` started here, or the cluster at
    `scheduler`)."""
    games = check_games(games)
    seed = check_seed(seed)
    check_threads(threads, p.note)
    check_cluster(workers, scheduler)
    fixed = parse_rules(items_of(rules, "--rule"))
    axis_text = readings if readings is None or isinstance(readings, str) else one_item(readings, "--rules")
    if axis_text is not None and strategies is not None:
        fail("--rules and --strategies exclude each other")
    axis = parse_rule_axis(axis_text, fixed) if axis_text is not None else None
    listed_files = component_files(components)
    if listed_files is not None and (strategies is not None or axis is not None):
        fail(f"--components with {len(listed_files)} files compares them; it excludes --strategies and --rules")
    strict = check_flag(strict, "--strict")
    mode = ("strategies" if strategies is not None else "readings" if axis is not None
            else "components" if listed_files is not None else "seatings")
    param = items_of(params, "--param")
    files = [check_path(f, "--params-file") for f in listed(params_file)]
    model = check_input(model, "--model")
    lineup_text = text_of(lineup, "--lineup")
    level = level.lower() if isinstance(level, str) else fail(f"--difficulty expects a name, got {level!r}")
    absent = absent_tokens.lower() if isinstance(absent_tokens, str) else absent_tokens
    comp = load_components(components) if listed_files is None else None
    arms, typed = _compare_arms(lineup_text, level, strategy, strategies, param, files, axis, listed_files,
                                absent, comp, model, fixed, strict)
    check_model(model, [arm.config for arm in arms], p.note)
    return C.Plan(mode, arms, games, seed, threads, typed, axis[0] if axis is not None else None, workers,
                  scheduler)  # fmt: skip


def _compare_arms(lineup_text, level, strategy, strategies, param, files, axis, listed_files, absent, comp, model,
                  fixed, strict) -> tuple[list, str | None]:
    """compare's arms, of the kind its arguments ask (strategies, rule readings, component files or
    seatings), and the seating as typed (seatings only); fails in one line where the team cannot
    play them."""
    typed = None

    def one_strategy():
        if len(files) > 1:
            fail("--params-file is given more than once; that takes --strategies")
        return resolve_strategy(strategy, param, files[0] if files else None)

    try:
        if strategies is not None:
            if strategy is not None:
                fail("--strategy and --strategies exclude each other")
            arms = C.strategy_arms(parse_samurai(lineup_text, "--lineup"), level,
                                   parse_strategy_params(text_of(strategies, "--strategies"), param, files),
                                   absent, comp, model, rules=fixed)  # fmt: skip
        elif axis is not None:
            name, overrides = one_strategy()
            arms = C.rule_arms(parse_samurai(lineup_text, "--lineup"), level, name, overrides, axis[0], axis[1],
                               absent, comp, model, rules=fixed)  # fmt: skip
        elif listed_files is not None:
            name, overrides = one_strategy()
            arms = C.component_arms(parse_samurai(lineup_text, "--lineup"), level, name, overrides, listed_files,
                                    absent, model, rules=fixed)  # fmt: skip
        else:
            names = parse_samurai(lineup_text, "--lineup")
            try:
                names = as_names(names)
            except ValueError as e:
                fail(f"--lineup {lineup_text}: {e}")
            if len(names) < 3:
                fail(f"--lineup needs at least 3 samurai to have two seatings, got {len(names)}")
            name, overrides = one_strategy()
            arms = C.seating_arms(names, level, name, overrides, absent, comp, model, rules=fixed)
            typed = ",".join(names)
        if strict:  # a model made for other component data is refused (GameConfig.strict)
            arms = [C.Arm(arm.label, dataclasses.replace(arm.config, strict=True)) for arm in arms]
    except (ConfigError, ComponentsError) as e:  # a level the team cannot set up, too
        fail(str(e))
    return arms, typed
