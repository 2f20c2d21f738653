"""The plan of a tuning from the API's arguments (kiai.tune.tune): every argument checked with the
command's checks, before any game, and what it searches (reports.search.tune_run.Search)."""

from __future__ import annotations

from pathlib import Path

from kiai.inputs.checks import check_cluster, fail, items_of, once
from kiai.inputs.configs import DEFAULT_SAMURAI, parse_levels, parse_rules, parse_samurai
from kiai.inputs.counts import check_games, check_seed, check_threads
from kiai.inputs.paths import check_output
from kiai.inputs.players import check_model, parse_params, resolve_strategy
from kiai.reports.search import tune as T
from kiai.reports.search.tune_run import Search
from kiai.simcore.components import ComponentsError, load_components
from kiai.simcore.config import ConfigError
from kiai.strategies.run.config import GameConfig
from kiai.strategies.run.games import set_threads


def tune_plan(strategy, samurai, difficulty, games, candidates, method, eta, seed, param, params_file, out, force,
              absent_tokens, rule, components, model, threads, generations, strict, note, workers=None,
              scheduler=None):
    """tune's checks, before any game, and what it searches: a reports.search.tune_run.Search, here
    or on Dask (`workers` started here, or the cluster at `scheduler`).
    `samurai` and `difficulty` are a text or a list of texts (the repeatable --samurai and --difficulty)."""
    samurai, difficulty = ([x] if isinstance(x, str) else x for x in (samurai, difficulty))
    check_games(games)
    check_threads(threads, note)
    check_cluster(workers, scheduler)
    if candidates < 2:
        fail(f"--candidates must be at least 2, got {candidates}")
    if eta < 2:
        fail(f"--eta must be at least 2, got {eta}")
    if not 1 <= generations <= 1000:
        fail(f"--generations must be 1 to 1,000, got {generations}")
    method = method.lower()
    if method not in T.METHODS:
        fail(f"--method must be one of {', '.join(T.METHODS)}, got '{method}'")
    check_seed(seed)
    if strategy is None and params_file is None:
        fail("give the STRATEGY to tune (or a --params-file naming it)")
    # the start point is the file's parameters; --param values are fixed, not searched
    strategy, start = resolve_strategy(strategy, None, params_file, option="STRATEGY")
    fixed = parse_params(items_of(param, "--param"))
    readings = parse_rules(items_of(rule, "--rule"))  # fixed rule readings: every candidate plays them on every configuration
    out = check_output(out if out is not None else Path(f"tuned-{strategy}.json"), force=force)
    try:
        comp = load_components(components)
        levels = parse_levels(difficulty or ["normal"], comp)
        seatings = [tuple(s.split(",")) for s in once([",".join(parse_samurai(text)) for text in
                                                       samurai or [DEFAULT_SAMURAI]], "--samurai")]
        if len(seatings) < len(samurai or [DEFAULT_SAMURAI]):
            fail("--samurai lists the same seating twice")
        base = GameConfig(seatings[0], levels[0], strategy, absent_tokens=absent_tokens.lower(), components=comp,
                          model=model, rules=readings, strict=strict)
        check_model(model, [base])
        info = base.strategy_info
        grid = [(seating, level) for seating in seatings for level in levels]

        def make_configs(c):
            return [GameConfig(seating, level, strategy, params=c, absent_tokens=absent_tokens.lower(),
                               components=comp, model=model, rules=readings, strict=strict)
                    for seating, level in grid]  # fmt: skip

        # the cross-entropy method draws its candidates as it goes (Search.add); the start first
        cands = T.sample_candidates(info, 1 if method == "cem" else candidates, seed, start=start, fixed=fixed)
        configs = [make_configs(c) for c in cands]
        check_model(model, configs[0], note)
        rungs = T.schedule(method, len(cands), games, eta)
        used = set_threads(threads)
    except (ConfigError, ComponentsError, T.TuneError) as e:
        fail(str(e))
    return Search(strategy, info, start, "start" if params_file is not None else "defaults", fixed, method, eta,
                  seed, games, cands, grid, configs, rungs, base, absent_tokens.lower(), comp.sha256, out, used,
                  generations, candidates, make_configs, workers, scheduler, threads)  # fmt: skip
