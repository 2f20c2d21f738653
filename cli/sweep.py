"""`kiai sweep`: play a grid of configurations and write one tidy table, one row each."""

from __future__ import annotations

import math
import time
from pathlib import Path

import typer
from typer.core import TyperCommand

from kiai.cli.common import (
    AbsentOpt,
    ComponentsOpt,
    ModelOpt,
    check_model,
    MAX_GAMES,
    ParamsFileOpt,
    check_games,
    check_output,
    check_seed,
    check_threads,
    command,
    fail,
    games_rate,
    load_params_file,
    parse_rules,
    parse_samurai,
    progress,
    stderr,
    warm_engine,
)
from kiai.reports.words import plural

DEFAULT_GAMES = 10_000
LEVELS_HELP = "Levels, comma-separated, or 'all' (default: normal)."


def _split(text: str) -> list[str]:
    return [t.strip() for t in text.split(",") if t.strip()]


def parse_levels(text: str | None, comp) -> list[str]:
    from kiai.simcore.codes import LEVELS

    if text is None:
        return ["normal"]
    if text.strip().lower() == "all":
        return [lv for lv in LEVELS if lv in comp.levels] + [lv for lv in comp.levels if lv not in LEVELS]
    levels = [t.lower() for t in _split(text)]
    if not levels:
        fail("--difficulty expects levels, comma-separated, or 'all'")
    for lv in levels:
        if lv not in comp.levels:
            fail(f"unknown difficulty '{lv}' (known: {', '.join(comp.levels)})")
    return list(dict.fromkeys(levels))


def parse_counts(text: str | None) -> list[int]:
    if text is None:
        return [4]
    counts = []
    for t in _split(text):
        try:
            n = int(t)
        except ValueError:
            fail(f"--players expects numbers of samurai, comma-separated, got '{t}'")
        if not 2 <= n <= 7:
            fail(f"--players: a game needs 2 to 7 samurai, got {n}")
        counts.append(n)
    if not counts:
        fail("--players expects numbers of samurai, comma-separated")
    return list(dict.fromkeys(counts))


def parse_lineup_mode(text: str | None) -> tuple[str, int | None]:
    if text is None or text.strip().lower() == "all":
        return "all", None
    mode, sep, k = text.strip().lower().partition(":")
    if mode == "sample" and sep:
        try:
            k = int(k)
        except ValueError:
            k = 0
        if k >= 1:
            return "sample", k
    fail(f"--lineups expects 'all' or 'sample:K' with K at least 1, got '{text}'")


def parse_given_lineups(values: list[str]) -> list[tuple[str, ...]]:
    from kiai.reports.seatings import _names

    out = []
    for text in values:
        try:
            out.append(_names(parse_samurai(text, "--lineup")))
        except ValueError as e:
            fail(f"--lineup {text}: {e}")
    return out


def parse_param_grid(values: list[str] | None) -> dict[str, list[float]]:
    """--param NAME=VALUE[,VALUE...] (repeatable): each parameter's values."""
    grid: dict[str, list[float]] = {}
    for item in values or []:
        name, sep, raw = item.partition("=")
        name = name.strip()
        if not sep or not name or not raw.strip():
            fail(f"--param expects NAME=VALUE (or NAME=V1,V2,...), got '{item}'")
        vals = []
        for r in _split(raw):
            try:
                v = float(r)
            except ValueError:
                fail(f"--param {name}: '{r}' is not a number")
            vals.append(int(v) if v.is_integer() else v)
        if name in grid:
            fail(f"--param {name} is given twice; list its values as {name}=V1,V2")
        grid[name] = list(dict.fromkeys(vals))
    return grid


DEFAULT_PRESET = "<the default preset>"  # filled in from reports.presets when the help is shown


class SweepCommand(TyperCommand):
    """`kiai sweep`, whose help quotes the default preset as reports.presets defines it (its games
    each included), read when the help is shown: importing reports.presets loads every strategy,
    too slow for each start of kiai."""

    def format_help_text(self, ctx, formatter) -> None:
        from kiai.reports.presets import PRESETS

        self.help = self.help.replace(DEFAULT_PRESET, PRESETS["default"])
        super().format_help_text(ctx, formatter)


@command(cls=SweepCommand, short_help="Play a grid of configurations into one results table.",
         help="Play a grid of configurations on one seed and write one tidy table (Parquet; "
              "CSV too with --csv), one row per configuration, in the schema `kiai report` "
              "reads. Every configuration plays game indices 0..N-1 of the seed, so all "
              "line-ups and seatings of a team size and level meet the same deals (paired "
              "comparisons). Results are written after each configuration; a killed sweep "
              "continues with --resume, which also plays again what an older engine played. "
              "`--preset default` is the main job of `make report`: "
              f"{DEFAULT_PRESET} (a few minutes on 2 cores).")
def sweep(
    out: Path = typer.Option(None, "--out", "-o", help="Results table to write (.parquet). Required."),
    difficulty: str = typer.Option(None, "--difficulty", "-d", help=LEVELS_HELP),
    players: str = typer.Option(None, "--players", help="Numbers of samurai, comma-separated (default: 4). "
                                                        "Not with --lineup."),
    lineup: list[str] = typer.Option(None, "--lineup", help="A line-up a,b,c played in the seat order given; "
                                                            "repeatable. Not with --lineups or --players."),
    lineups: str = typer.Option(None, "--lineups", help="'all': every line-up of each count; 'sample:K': K "
                                                        "of them per count, drawn with the seed (default: all)."),
    seatings: str = typer.Option("given", "--seatings", help="'given': each line-up in one seat order; 'all': "
                                                             "every distinct seating ((n-1)! per line-up; "
                                                             "rotations are the same seating, mirrors are not)."),
    strategy: str = typer.Option(None, "--strategy", help="Strategies, comma-separated (default: the default "
                                                          "strategy, see `kiai strategies`)."),
    param: list[str] = typer.Option(None, "--param", help="NAME=VALUE or NAME=V1,V2,... (an axis); applies to "
                                                          "the strategies that have the parameter; repeatable."),
    params_file: str = typer.Option(None, "--params-file", help=ParamsFileOpt.help + " Its parameters apply to its "
                                                                "strategy (default --strategy: that strategy); "
                                                                "--param values override them."),
    absent_tokens: str = AbsentOpt,
    rule: list[str] = typer.Option(None, "--rule", help="A rule reading NAME=VALUE or NAME=V1,V2 (an axis, e.g. "
                                                        "--rule heal=any,wounded); repeatable, one per reading "
                                                        "(`kiai rules` lists them). Default: the rules' own readings."),
    components: str = ComponentsOpt,
    model: str = ModelOpt,
    games: int = typer.Option(None, "--games", "-n", help=f"Games per configuration (default {DEFAULT_GAMES:,}; "
                                                          "the preset's own with --preset)."),
    precision: float = typer.Option(None, "--precision", help="Instead of --games: play batches of doubling size "
                                                             "(1,000, 2,000, 4,000, ...) until the 95% interval's "
                                                             "half-width is at most H (e.g. 0.005)."),
    max_games: int = typer.Option(None, "--max-games", help="With --precision: stop at this many games even if the "
                                                            "precision is not reached (default 10,000,000)."),
    seed: int = typer.Option(0, "--seed", help="Random seed shared by every configuration."),
    csv: bool = typer.Option(False, "--csv", help="Also write the table as CSV beside the Parquet file."),
    resume: bool = typer.Option(False, "--resume", help="Keep the configurations of this sweep that --out "
                                                        "holds, played by this engine (and model and component "
                                                        "file), and play the rest: those of an interrupted run, "
                                                        "and those an older engine played. A missing --out "
                                                        "plays everything."),
    force: bool = typer.Option(False, "--force", help="Replace an existing --out."),
    threads: int = typer.Option(None, "--threads", help="Numba threads (per Dask worker with --workers or "
                                                        "--scheduler; default: cores, or cores // workers). "
                                                        "Results do not depend on it."),
    workers: int = typer.Option(None, "--workers", help="Run on a local Dask cluster of N worker processes."),
    scheduler: str = typer.Option(None, "--scheduler", help="Run on a running Dask scheduler (tcp://host:8786); "
                                                            "its workers need the same kiai installed."),
    block: int = typer.Option(None, "--block", help="Game indices per engine call / Dask task (default 50,000)."),
    preset: str = typer.Option(None, "--preset", help="A ready-made grid instead of the axis options: "
                                                      "'default' (the main job), 'ladder' and 'ladder-planners' "
                                                      "(the report's skill ladder); each with its own strategies "
                                                      "and games unless --strategy / --games say otherwise."),
):
    from kiai.reports import presets
    from kiai.reports import sweep as S
    from kiai.strategies.run import set_threads
    from kiai.simcore.components import ComponentsError, load_components

    # ---- checks that need no engine
    if out is None:
        fail("--out is required (a .parquet file)")
    if resume and force:
        fail("--resume and --force exclude each other")
    check_output(out, force=force or resume, suffixes=(".parquet",),
                 exists_hint="use --resume to continue that sweep or --force to replace it")
    if csv and not (force or resume):
        check_output(out.with_suffix(".csv"), "--csv")
    check_seed(seed)
    if games is not None:
        check_games(games)
    if games is not None and precision is not None:
        fail("--games and --precision exclude each other")
    if max_games is not None and precision is None:
        fail("--max-games goes with --precision")
    if max_games is not None and not S.PRECISION_START <= max_games <= MAX_GAMES:
        fail(f"--max-games must be in {S.PRECISION_START:,}..{MAX_GAMES:,}, got {max_games:,}")
    if workers is not None and scheduler is not None:
        fail("--workers and --scheduler exclude each other")
    if workers is not None and workers < 1:
        fail(f"--workers must be at least 1, got {workers}")
    if workers is None and scheduler is None:
        check_threads(threads)  # a Dask worker's threads are checked on the worker's machine
    elif threads is not None and threads < 1:
        fail(f"--threads must be at least 1, got {threads}")
    if block is not None and block < 1:
        fail(f"--block must be at least 1, got {block}")
    if seatings.lower() not in ("given", "all"):
        fail(f"--seatings must be given or all, got '{seatings}'")
    seatings = seatings.lower()
    if absent_tokens.lower() not in ("on", "off", "auto"):
        fail(f"--absent-tokens must be on, off or auto, got '{absent_tokens}'")
    loaded = load_params_file(params_file) if params_file is not None else None
    if strategy is not None:
        strategies = _split(strategy)
    else:
        strategies = ([loaded.strategy] if loaded is not None
                      else list(presets.PRESET_STRATEGIES.get(preset, [presets.DEFAULT_STRATEGY])))  # fmt: skip
    if not strategies:
        fail("--strategy expects strategy names, comma-separated")
    if loaded is not None and loaded.strategy not in strategies:
        fail(f"--params-file {loaded.path} is for strategy {loaded.strategy}, "
             f"which --strategy {','.join(strategies)} does not list")
    param_grid = parse_param_grid(param)
    rule_grid = parse_rules(rule, axis=True)
    try:
        comp = load_components(components)
    except ComponentsError as e:
        fail(str(e))

    # ---- the plan
    try:
        if preset is not None:
            if preset not in presets.PRESETS:
                fail(f"unknown preset '{preset}' (known: {', '.join(presets.PRESETS)})")
            given = [name for name, v in (("--difficulty", difficulty), ("--players", players),
                                          ("--lineup", lineup), ("--lineups", lineups), ("--param", param),
                                          ("--rule", rule))
                     if v] + (["--seatings"] if seatings != "given" else [])  # fmt: skip
            if given:
                fail(f"--preset sets the grid; drop {given[0]}")
            plan = presets.preset_plan(preset, strategies=strategies, absent_tokens=absent_tokens.lower(),
                                       components=comp, model=model)  # fmt: skip
            if games is None and precision is None:
                games = presets.PRESET_GAMES[preset]
        else:
            levels = parse_levels(difficulty, comp)
            if lineup:
                if players is not None:
                    fail("--players and --lineup exclude each other (a line-up fixes its size)")
                if lineups is not None:
                    fail("--lineup and --lineups exclude each other")
                chosen = parse_given_lineups(lineup)
            else:
                mode, k = parse_lineup_mode(lineups)
                counts = parse_counts(players)
                chosen = S.expand_lineups(counts, mode, k, seed)
                for n in counts if mode == "sample" else ():
                    c = math.comb(7, n)
                    if k >= c:
                        stderr(f"note: --lineups sample:{k}: there {'is' if c == 1 else 'are'} only "
                               f"{plural(c, 'line-up')} of {n} samurai; playing {'it' if c == 1 else 'all of them'}")
            variants = S.strategy_variants(strategies, param_grid)
            plan = S.build_plan(levels, S.expand_seatings(chosen, seatings), variants, absent_tokens.lower(), comp,
                                model, rules=S.rule_variants(rule_grid))
        check_model(model, plan)
        if loaded is not None:
            plan = S.with_base_params(plan, loaded.strategy, loaded.params)
        if games is None and precision is None:
            games = DEFAULT_GAMES
        request = S.Request(games=games, precision=precision,
                            **({"max_games": max_games} if max_games is not None else {}))
        info = {"command": _describe(preset, difficulty, players, lineup, lineups, seatings, strategies, param,
                                     games, precision, max_games, seed, params_file, rule)}  # fmt: skip
        job = S.Sweep(plan, seed, request, out, csv=csv, resume=resume, force=force, info=info)
        if job.resume_note() is not None:
            stderr(job.resume_note())
    except S.SweepError as e:
        fail(str(e))
    except ValueError as e:  # seatings and samplers reject bad sizes
        fail(str(e))

    # ---- play
    todo = job.todo
    used = set_threads(threads) if workers is None and scheduler is None else None
    backend = None
    played = [0, 0]  # configurations, games
    total_games = S.expected_games(len(todo), request)  # None with --precision: not known ahead
    try:
        if todo:
            warm_engine(*(config for _, config in todo))  # compile (or load) before any bar, clock or cluster starts
        start = time.perf_counter()
        with progress() as bar:
            configs = bar.add_task("configurations", total=len(todo), rate=" ")
            games_task = bar.add_task("games", total=total_games, rate="")
            local = workers is None and scheduler is None

            def on_games(n):  # parts of a block played in this process
                bar.advance(games_task, n)

            if local:
                backend = S.LocalBackend(on_games=on_games)
            else:
                from kiai.reports.cluster import DaskBackend

                backend = (DaskBackend.local(workers, threads, todo[0][1]) if workers is not None else
                           DaskBackend.connect(scheduler, threads, todo[0][1])) if todo else S.LocalBackend()  # fmt: skip
                start = time.perf_counter()

            def on_block(n):
                played[1] += n
                if not local:
                    bar.advance(games_task, n)

            def on_finished(index, row, n):
                played[0] += 1
                bar.update(configs, completed=played[0], rate=games_rate(played[1], start))

            df = job.run(backend, block=block or S.BLOCK, on_finished=on_finished, on_block=on_block)
    except KeyboardInterrupt:
        stderr(f"interrupted: {len(job.rows)} of {plural(len(job.plan), 'configuration')} "
               f"{'is' if len(job.rows) == 1 else 'are'} saved in {out}; "
               "run the same command with --resume to finish")  # fmt: skip
        raise
    except S.SweepError as e:
        fail(str(e))
    finally:
        if backend is not None:
            backend.close()
    seconds = time.perf_counter() - start
    where = (f"on {plural(used, 'thread')}" if used is not None else
             f"on {plural(len(getattr(backend, 'threads', {})), 'Dask worker')}")  # fmt: skip
    speed = f"{played[1] / seconds:,.0f} games/s " if played[1] and seconds > 0 else ""
    print(f"sweep: {plural(len(df), 'configuration')} ({played[0]:,} played, {len(df) - played[0]:,} resumed), "
          f"{plural(int(df['games'].sum()), 'game')}; {played[1]:,} played in {S.fmt_duration(seconds)} "
          f"({speed}{where})")  # fmt: skip
    print(f"table written to {out}" + (f" and {out.with_suffix('.csv')}" if csv else ""))


def _describe(preset, difficulty, players, lineup, lineups, seatings, strategies, param, games, precision,
              max_games, seed, params_file=None, rule=None) -> str:
    """The sweep as a command line, for the report's notes."""
    parts = ["kiai sweep"]
    if preset:
        parts.append(f"--preset {preset}")
    for name, value in (("--difficulty", difficulty), ("--players", players), ("--lineups", lineups)):
        if value:
            parts.append(f"{name} {value}")
    parts += [f"--lineup {v}" for v in lineup or []]
    if seatings != "given":
        parts.append(f"--seatings {seatings}")
    parts.append(f"--strategy {','.join(strategies)}")
    if params_file is not None:
        parts.append(f"--params-file {params_file}")
    parts += [f"--param {v}" for v in param or []]
    parts += [f"--rule {v}" for v in rule or []]
    parts.append(f"--precision {precision}" if precision is not None else f"--games {games}")
    if max_games:
        parts.append(f"--max-games {max_games}")
    parts.append(f"--seed {seed}")
    return " ".join(parts)

