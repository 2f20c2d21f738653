"""`kiai tune`: search a strategy's parameters on common random numbers, re-evaluate the winner
on fresh games, and write the result as a file --params-file loads."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import typer

from kiai.checks import (
    DEFAULT_SAMURAI,
    check_model,
    check_games,
    check_output,
    check_seed,
    fail,
    parse_levels,
    parse_params,
    parse_rules,
    parse_samurai,
    resolve_strategy,
)
from kiai.cli.common import (
    AbsentOpt,
    ComponentsOpt,
    ParamsFileOpt,
    RuleOpt,
    SeedOpt,
    ForceOpt,
    ModelOpt,
    StrictOpt,
    ThreadsOpt,
    check_threads,
    command,
    command_line,
    format_params,
    stderr,
    warm_engine,
)
from kiai.progress import bar as progress
from kiai.reports.words import plural


@command(short_help="Search a strategy's parameters for the best win rate.",
         help="Search a strategy's parameters over their declared ranges (successive halving, random "
              "search, or the cross-entropy method) on one or more configurations, every candidate playing the same games "
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
                                                           "random: every candidate plays --games; cem: the "
                                                           "cross-entropy method, --generations generations of "
                                                           "--candidates each drawn around the best fifth of the "
                                                           "last, every one playing the same --games."),
    generations: int = typer.Option(8, "--generations", help="The cross-entropy method: how many generations."),
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
    strict: bool = StrictOpt,
    threads: int = ThreadsOpt,
):
    from kiai.reports.files import atomic_write

    search = _plan(strategy, samurai, difficulty, games, candidates, method, eta, seed, param, params_file, out,
                   force, absent_tokens, rule, components, model, threads, generations, strict=strict)  # fmt: skip
    found, fresh, played, seconds = _search(search)
    doc = _document(search, found, fresh)
    _print_result(search, found, fresh, played, seconds)
    try:  # after the results are printed: a late failure (a full disk) must not lose them
        atomic_write(search.out, lambda tmp: tmp.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8"))
    except OSError as e:
        stderr(f"kiai: error: cannot write --out {search.out}: {e.strerror or e}")
        raise typer.Exit(1) from None
    print(f"written to {search.out} (load it with --params-file {search.out})")


@dataclass
class _Search:
    """A tuning run as planned: what is searched, on which configurations, where it is written."""

    strategy: str
    info: object  # the strategy's registry.Strategy
    start: dict  # the start point's parameters (candidate 0)
    start_label: str  # 'start' (a --params-file) or 'defaults'
    fixed: dict  # --param values: fixed, not searched
    method: str
    eta: int
    seed: int
    games: int
    cands: list[dict]
    grid: list[tuple]  # (seating, level) of each configuration
    configs: list[list]  # configs[candidate][configuration]
    rungs: list
    base: object  # the first configuration with the start point (its rules, its strategy)
    absent_tokens: str
    components_sha256: str
    out: Path
    threads: int
    generations: int
    population: int  # the cross-entropy method's candidates per generation
    make_configs: object  # a candidate's configurations, one per (seating, level)

    def add(self, cand: dict) -> int:
        """The number of candidate `cand`, given it when new (the cross-entropy method's draws)."""
        from kiai.reports import tune as T

        for i, c in enumerate(self.cands):
            if T.params_key(c) == T.params_key(cand):
                return i
        self.cands.append(cand)
        self.configs.append(self.make_configs(cand))
        return len(self.cands) - 1


def _plan(strategy, samurai, difficulty, games, candidates, method, eta, seed, param, params_file, out, force,
          absent_tokens, rule, components, model, threads, generations=8, strict=False) -> _Search:
    """tune's checks, before any game, and what it searches."""
    from kiai.checks import once
    from kiai.reports import tune as T
    from kiai.simcore.components import ComponentsError, load_components
    from kiai.simcore.config import ConfigError
    from kiai.strategies.game_config import GameConfig
    from kiai.strategies.playing import set_threads

    check_games(games)
    check_threads(threads)
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
    fixed = parse_params(param)
    readings = parse_rules(rule)  # fixed rule readings: every candidate plays them on every configuration
    out = check_output(out if out is not None else Path(f"tuned-{strategy}.json"), force=force)
    try:
        comp = load_components(components)
        levels = once([lv for text in difficulty or ["normal"] for lv in parse_levels(text, comp)], "--difficulty")
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

        # the cross-entropy method draws its candidates as it goes (_Search.add); the start first
        cands = T.sample_candidates(info, 1 if method == "cem" else candidates, seed, start=start, fixed=fixed)
        configs = [make_configs(c) for c in cands]
        check_model(model, configs[0], stderr)
        rungs = T.schedule(method, len(cands), games, eta)
        used = set_threads(threads)
    except (ConfigError, ComponentsError, T.TuneError) as e:
        fail(str(e))
    return _Search(strategy, info, start, "start" if params_file is not None else "defaults", fixed, method, eta,
                   seed, games, cands, grid, configs, rungs, base, absent_tokens.lower(), comp.sha256, out, used,
                   generations, candidates, make_configs)  # fmt: skip


def _search(search: _Search):
    """The search and the re-evaluation of its winner on fresh games, with a progress bar:
    (found, fresh, games played, seconds)."""
    import numpy as np

    from kiai.reports import tune as T
    from kiai.reports.play import play_chunks
    from kiai.simcore import results as L

    n_cfg, games, rungs = len(search.grid), search.games, search.rungs
    cem = search.method == "cem"
    searched = search.population * search.generations * games if cem else T.search_games(rungs)
    total = (searched + 2 * games) * n_cfg  # the cross-entropy method's, at most: a draw met again is not replayed
    done = [0]
    warm_engine(search.configs[0][0])  # compile (or load) before the bar starts
    start_time = time.perf_counter()
    with progress() as bar:
        task = bar.add_task("search", total=total, rate="")

        def advance(k):
            done[0] += k
            bar.advance(task, k)

        def play(c, j, offset, count):  # reports.tune asks for at most T.BLOCK games at a time
            return np.concatenate([rows[:, L.O_OUTCOME] == 0
                                   for rows in play_chunks(search.configs[c][j], search.seed, offset, count,
                                                           advance)])  # fmt: skip

        def on_rung(r, rung):
            bar.update(task, description=f"rung {r + 1}/{len(rungs)}: {plural(rung.candidates, 'candidate')}")

        if cem:
            found = _cem(search, play, lambda g: bar.update(task, description=f"generation {g + 1}/{search.generations}"))
            bar.update(task, total=done[0] + 2 * games * n_cfg)
        else:
            found = T.search(len(search.cands), n_cfg, rungs, play, on_rung=on_rung)
        if found.best == 0:  # the start point won: it is played once
            bar.update(task, total=done[0] + games * n_cfg)
        bar.update(task, description="fresh games")
        fresh = T.evaluate(found.best, 0, n_cfg, games, play)
    return found, fresh, done[0], max(time.perf_counter() - start_time, 1e-9)


def _cem(search: _Search, play, on_generation):
    """The cross-entropy method's search, as a SearchResult: its generations in place of rungs."""
    import numpy as np

    from kiai.reports import tune as T

    best, steps, totals = T.cem_search(search.info, search.population, search.generations, search.games,
                                       len(search.grid), search.seed, search.add, play, start=search.start,
                                       fixed=search.fixed, on_generation=on_generation)  # fmt: skip
    wins = np.array([[totals.get(i, 0)] for i in range(len(search.cands))], dtype=np.int64)
    games = np.array([search.games if i in totals else 0 for i in range(len(search.cands))], dtype=np.int64)
    rungs = [{"candidates": st.candidates, "games": search.games, "wins": st.wins, "kept": st.kept,
              "mean": st.mean, "sigma": st.sigma} for st in steps]  # fmt: skip
    return T.SearchResult(best, rungs, wins, games)


def _document(search: _Search, found, fresh) -> dict:
    """The JSON that --params-file loads: the best parameters, their evaluation, the search, provenance."""
    from kiai.reports import tune as T
    from kiai.reports.summary import kiai_version

    best, baseline, games, seed = search.cands[found.best], search.cands[0], search.games, search.seed
    return {
        "strategy": search.strategy,
        "params": best,
        "win_rate": fresh["best"]["win_rate"],
        "ci95": fresh["best"]["ci95"],
        "ci_method": fresh["best"]["ci_method"],
        "wins": fresh["best"]["wins"],
        "games": fresh["best"]["games"],
        "games_per_configuration": games,
        "configurations": [{"samurai": list(seating), "difficulty": level, **r}
                           for (seating, level), r in zip(search.grid, fresh["best"]["configurations"])],  # fmt: skip
        "baseline": {"label": search.start_label, "params": baseline,
                     **{k: v for k, v in fresh["baseline"].items() if k != "configurations"}},  # fmt: skip
        "vs_baseline": fresh["test"],
        "evaluation": {"seed": seed, "first_game_index": fresh["offset"], "games_per_configuration": games},
        "search": {
            "method": search.method, "candidates": len(search.cands),
            "eta": search.eta if search.method == "halving" else None,
            **({"generations": search.generations, "population": search.population, "elite": T.CEM_ELITE}
               if search.method == "cem" else {}),
            "start": search.start, "fixed": search.fixed, "seed": seed,
            ("generations" if search.method == "cem" else "rungs"): [
                {"candidates": h["candidates"], "games_per_configuration": h["games"],
                 "wins": [h["wins"][c] for c in h["candidates"]], "kept": h["kept"],
                 **{k: h[k] for k in ("mean", "sigma") if k in h}} for h in found.rungs],
            "tried": [{"params": c, "games_per_configuration": int(found.games[i]), "wins": int(found.wins[i].sum())}
                      for i, c in enumerate(search.cands)],
        },  # fmt: skip
        "seed": seed,
        "absent_tokens": search.absent_tokens,
        "rules": dict(search.base.rules),
        "components_sha256": search.components_sha256,
        "command": command_line(),
        "kiai_version": kiai_version(),
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }


def _print_result(search: _Search, found, fresh, played: int, seconds: float) -> None:
    from kiai.reports import tune as T
    from kiai.reports.summary import rules_label

    best, baseline, games, grid = search.cands[found.best], search.cands[0], search.games, search.grid
    start_label, n_cfg = search.start_label, len(grid)
    searched = [p.name for p in search.info.params if p.name not in search.fixed]
    where = "; ".join(f"{','.join(s)} at {lv}" for s, lv in grid)
    print(f"tune {search.strategy}{'' if search.info.honest else ' (cheating)'} on {plural(n_cfg, 'configuration')}: "
          f"{where}" + rules_label(search.base.rules))  # fmt: skip
    how = {"halving": f"successive halving (eta {search.eta})", "random": "random search",
           "cem": f"cross-entropy method ({plural(search.generations, 'generation')} of {search.population})"}[search.method]
    print(f"{how}, {plural(len(search.cands), 'candidate')} searching {', '.join(searched)}"
          + (f" (fixed: {format_params(search.fixed)})" if search.fixed else "")
          + f", seed {search.seed}, common random numbers")  # fmt: skip
    for r, h in enumerate(found.rungs):
        if search.method == "cem":
            share = [h["wins"][c] / (h["games"] * n_cfg) for c in h["candidates"]]
            print(f"  generation {r + 1}: {plural(len(h['candidates']), 'candidate')} x {plural(h['games'], 'game')} "
                  f"per configuration, mean's {100 * share[0]:.2f}%, best {100 * max(share):.2f}%, kept "
                  f"{len(h['kept'])}")  # fmt: skip
            continue
        print(f"  rung {r + 1}: {plural(len(h['candidates']), 'candidate')} x {plural(h['games'], 'game')} per "
              f"configuration, kept {len(h['kept'])}")  # fmt: skip
    print()
    print(f"{'last mean' if search.method == 'cem' else 'best parameters':<15}   {format_params(best)}"
          + ("   (the start point)" if found.best == 0 else ""))  # fmt: skip
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
    print(f"{plural(played, 'game')} in {seconds:.1f} s ({played / seconds:,.0f} games/s on "
          f"{plural(search.threads, 'thread')})")  # fmt: skip
