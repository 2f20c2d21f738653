"""`kiai tune`: search a strategy's parameters on common random numbers, re-evaluate the winner
on fresh games, and write the result as a file --params-file loads."""

from __future__ import annotations

import json
import time
from datetime import datetime, timezone
from pathlib import Path

import typer

from kiai.cli.common import (
    DEFAULT_SAMURAI,
    AbsentOpt,
    ComponentsOpt,
    ParamsFileOpt,
    RuleOpt,
    SeedOpt,
    ForceOpt,
    ModelOpt,
    check_model,
    ThreadsOpt,
    check_games,
    check_output,
    check_seed,
    check_threads,
    command,
    command_line,
    fail,
    format_params,
    parse_params,
    parse_rules,
    parse_samurai,
    progress,
    resolve_strategy,
    stderr,
    warm_engine,
)
from kiai.reports.words import plural


@command(short_help="Search a strategy's parameters for the best win rate.",
         help="Search a strategy's parameters over their declared ranges (successive halving, or "
              "random search) on one or more configurations, every candidate playing the same games "
              "(common random numbers); then play the best candidate and the start point (defaults "
              "or --params-file) on fresh games, print the best parameters with their win rate, "
              "interval and a paired test against the start point, and write them to a JSON file "
              "that --params-file loads in every command.")
def tune(
    strategy: str = typer.Argument(None, metavar="STRATEGY", help="The strategy to tune (default: the "
                                                                  "--params-file's)."),
    samurai: list[str] = typer.Option(None, "--samurai", "-s", help="A seating, seat 0 first, comma-separated; "
                                                                    f"repeatable (default: {DEFAULT_SAMURAI})."),
    difficulty: list[str] = typer.Option(None, "--difficulty", "-d", help="Levels, comma-separated or 'all'; "
                                                                          "repeatable (default: normal)."),
    games: int = typer.Option(20_000, "--games", "-n", help="Games per configuration at the last rung, and in "
                                                            "the re-evaluation of the winner on fresh games."),
    candidates: int = typer.Option(16, "--candidates", "-k", help="Parameter sets tried, the start point "
                                                                  "included (fewer if the ranges hold fewer)."),
    method: str = typer.Option("halving", "--method", help="halving: successive halving (all candidates on few "
                                                           "games, the best 1/eta go on to eta times as many); "
                                                           "random: every candidate plays --games."),
    eta: int = typer.Option(3, "--eta", help="Successive halving: keep 1/eta of the candidates at each rung."),
    seed: int = SeedOpt,
    param: list[str] = typer.Option(None, "--param", help="Fix a parameter NAME=VALUE (not searched); repeatable."),
    params_file: str = typer.Option(None, "--params-file", help=ParamsFileOpt.help + " Its parameters are the "
                                                                "start point (candidate 0)."),
    out: Path = typer.Option(None, "--out", "-o", help="Where to write the result (default: tuned-STRATEGY.json); "
                                                       "checked before the search starts."),
    force: bool = ForceOpt,
    absent_tokens: str = AbsentOpt,
    rule: list[str] = RuleOpt,
    components: str = ComponentsOpt,
    model: str = ModelOpt,
    threads: int = ThreadsOpt,
):
    import numpy as np

    from kiai.cli.sweep import parse_levels
    from kiai.reports import tune as T
    from kiai.reports.sweep import atomic_write, play_chunks
    from kiai.reports.summary import kiai_version, rules_label
    from kiai.simcore import results as L
    from kiai.simcore.config import ConfigError
    from kiai.strategies.run import GameConfig, set_threads
    from kiai.simcore.components import ComponentsError, load_components

    # ---- what to search
    check_games(games)
    check_threads(threads)
    if candidates < 2:
        fail(f"--candidates must be at least 2, got {candidates}")
    if eta < 2:
        fail(f"--eta must be at least 2, got {eta}")
    method = method.lower()
    if method not in T.METHODS:
        fail(f"--method must be one of {', '.join(T.METHODS)}, got '{method}'")
    check_seed(seed)
    if strategy is None and params_file is None:
        fail("give the STRATEGY to tune (or a --params-file naming it)")
    # the start point is the file's parameters; --param values are fixed, not searched
    strategy, start = resolve_strategy(strategy, None, params_file, option="STRATEGY")
    fixed = parse_params(param)
    readings = parse_rules(rule)  # fixed rule readings: every candidate plays them on every configuration
    out = check_output(out if out is not None else Path(f"tuned-{strategy}.json"), force=force)
    try:
        comp = load_components(components)
        levels = list(dict.fromkeys(lv for text in difficulty or ["normal"] for lv in parse_levels(text, comp)))
        seatings = list(dict.fromkeys(parse_samurai(text) for text in samurai or [DEFAULT_SAMURAI]))
        if len(seatings) < len(samurai or [DEFAULT_SAMURAI]):
            fail("--samurai lists the same seating twice")
        base = GameConfig(seatings[0], levels[0], strategy, absent_tokens=absent_tokens.lower(), components=comp,
                          model=model, rules=readings)
        check_model(model, [base])
        info = base.strategy_info
        cands = T.sample_candidates(info, candidates, seed, start=start, fixed=fixed)
        grid = [(seating, level) for seating in seatings for level in levels]
        configs = [[GameConfig(seating, level, strategy, params=c, absent_tokens=absent_tokens.lower(),
                               components=comp, model=model, rules=readings)
                    for seating, level in grid] for c in cands]  # fmt: skip
        rungs = T.schedule(method, len(cands), games, eta)
        used = set_threads(threads)
    except (ConfigError, ComponentsError, T.TuneError) as e:
        fail(str(e))

    # ---- play
    n_cfg = len(grid)
    total = (T.search_games(rungs) + 2 * games) * n_cfg
    done = [0]
    warm_engine(configs[0][0])  # compile (or load) before the bar starts
    start_time = time.perf_counter()
    with progress() as bar:
        task = bar.add_task("search", total=total, rate="")

        def advance(k):
            done[0] += k
            bar.advance(task, k)

        def play(c, j, offset, count):  # reports.tune asks for at most T.BLOCK games at a time
            return np.concatenate([rows[:, L.O_OUTCOME] == 0
                                   for rows in play_chunks(configs[c][j], seed, offset, count, advance)])  # fmt: skip

        def on_rung(r, rung):
            bar.update(task, description=f"rung {r + 1}/{len(rungs)}: {plural(rung.candidates, 'candidate')}")

        found = T.search(len(cands), n_cfg, rungs, play, on_rung=on_rung)
        if found.best == 0:  # the start point won: it is played once
            bar.update(task, total=total - games * n_cfg)
        bar.update(task, description="fresh games")
        fresh = T.evaluate(found.best, 0, n_cfg, games, play)
    seconds = max(time.perf_counter() - start_time, 1e-9)

    # ---- report
    best, baseline = cands[found.best], cands[0]
    start_label = "start" if params_file is not None else "defaults"
    doc = {
        "strategy": strategy,
        "params": best,
        "win_rate": fresh["best"]["win_rate"],
        "ci95": fresh["best"]["ci95"],
        "ci_method": fresh["best"]["ci_method"],
        "wins": fresh["best"]["wins"],
        "games": fresh["best"]["games"],
        "games_per_configuration": games,
        "configurations": [{"samurai": list(seating), "difficulty": level, **r}
                           for (seating, level), r in zip(grid, fresh["best"]["configurations"])],  # fmt: skip
        "baseline": {"label": start_label, "params": baseline,
                     **{k: v for k, v in fresh["baseline"].items() if k != "configurations"}},  # fmt: skip
        "vs_baseline": fresh["test"],
        "evaluation": {"seed": seed, "first_game_index": fresh["offset"], "games_per_configuration": games},
        "search": {
            "method": method, "candidates": len(cands), "eta": eta if method == "halving" else None,
            "start": start, "fixed": fixed, "seed": seed,
            "rungs": [{"candidates": h["candidates"], "games_per_configuration": h["games"],
                       "wins": [h["wins"][c] for c in h["candidates"]], "kept": h["kept"]} for h in found.rungs],
            "tried": [{"params": c, "games_per_configuration": int(found.games[i]), "wins": int(found.wins[i].sum())}
                      for i, c in enumerate(cands)],
        },  # fmt: skip
        "seed": seed,
        "absent_tokens": absent_tokens.lower(),
        "rules": dict(base.rules),
        "components_sha256": comp.sha256,
        "command": command_line(),
        "kiai_version": kiai_version(),
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }
    searched = [p.name for p in info.params if p.name not in fixed]
    where = "; ".join(f"{','.join(s)} at {lv}" for s, lv in grid)
    print(f"tune {strategy}{'' if info.honest else ' (cheating)'} on {plural(n_cfg, 'configuration')}: {where}"
          + rules_label(base.rules))
    how = (f"successive halving (eta {eta})" if method == "halving" else "random search")
    print(f"{how}, {plural(len(cands), 'candidate')} searching {', '.join(searched)}"
          + (f" (fixed: {format_params(fixed)})" if fixed else "") + f", seed {seed}, common random numbers")  # fmt: skip
    for r, h in enumerate(found.rungs):
        print(f"  rung {r + 1}: {plural(len(h['candidates']), 'candidate')} x {plural(h['games'], 'game')} per "
              f"configuration, kept {len(h['kept'])}")  # fmt: skip
    print()
    print(f"best parameters   {format_params(best)}" + ("   (the start point)" if found.best == 0 else ""))
    print(f"re-evaluated on {games:,} fresh games per configuration (indices {T.EVAL_OFFSET:,} on, which the "
          f"search did not play), {fresh['best']['games']:,} in all:")  # fmt: skip
    width = max(len("best"), len(start_label))
    for label, r, params in (("best", fresh["best"], best), (start_label, fresh["baseline"], baseline)):
        print(f"  {label:<{width}}  {100 * r['win_rate']:7.3f}%   95% CI [{100 * r['ci95'][0]:.3f}%, "
              f"{100 * r['ci95'][1]:.3f}%] ({r['ci_method']})   {format_params(params)}")  # fmt: skip
    t = fresh["test"]
    if found.best == 0:
        print(f"  the search kept the {start_label}: no better candidate was found")
    else:
        ci = "n/a" if None in t["diff_ci"] else f"[{100 * t['diff_ci'][0]:+.3f}, {100 * t['diff_ci'][1]:+.3f}] pp"
        print(f"  best - {start_label}: {100 * t['diff']:+.3f} pp   95% CI {ci}   McNemar p = {t['p_value']:.3g} "
              f"(games only best won {t['discordant'][0]:,}, only {start_label} {t['discordant'][1]:,})")  # fmt: skip
    if n_cfg > 1:
        for (s, lv), r in zip(grid, fresh["best"]["configurations"]):
            print(f"    {','.join(s)} at {lv}: {100 * r['win_rate']:.3f}%   95% CI [{100 * r['ci95'][0]:.3f}%, "
                  f"{100 * r['ci95'][1]:.3f}%]")  # fmt: skip
    print(f"{plural(done[0], 'game')} in {seconds:.1f} s ({done[0] / seconds:,.0f} games/s on "
          f"{plural(used, 'thread')})")  # fmt: skip
    try:  # after the results are printed: a late failure (a full disk) must not lose them
        atomic_write(out, lambda tmp: tmp.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8"))
    except OSError as e:
        stderr(f"kiai: error: cannot write --out {out}: {e.strerror or e}")
        raise typer.Exit(1) from None
    print(f"written to {out} (load it with --params-file {out})")
