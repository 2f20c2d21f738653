"""kiai's Python API: the functions the `kiai` command calls for its work (docs/api.md).

Each function checks all of its input before any game is played: a problem is a KiaiError whose
one-line message is the one `kiai` prints (it names the command's option). Where the command
takes text, a function takes that text or Python values: a line-up as 'kyuzo,heihachi' or
['kyuzo', 'heihachi'], parameters as ['T=3'] or {'T': 3}, rule readings as ['heal=wounded'] or
{'heal': 'wounded'}. `threads=` applies to the call alone. `progress=` is False (silent), True
(a bar and notes on standard error), a function f(n) called with the games just played, or a
kiai.Progress (kiai.progress says what it is told).
"""

from __future__ import annotations

import contextlib
import dataclasses
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from kiai.checks import check_flag, check_input, check_path, fail, items_of, listed, once, one_item, text_of
from kiai.configs import (
    component_files,
    load_components,
    make_config,
    parse_rule_axis,
    parse_rules,
    parse_samurai,
)
from kiai.counts import check_game_index, check_games, check_seed, check_threads
from kiai.outputs import atomic_write, claim, hold
from kiai.paths import check_output, record_sources
from kiai.players import check_model, parse_strategy_params, resolve_strategy
from kiai.progress import reporter, warm_engine
from kiai.words import plural
from kiai.results import Comparison, Replay, Simulation
from kiai.sweep_plan import sweep_plan

if TYPE_CHECKING:
    import pandas as pd

    from kiai.progress import Progress

MAX_RECORDED = 1_000_000  # games one call records (a record is some 20 to 100 KB)


def _threads(threads: int | None):
    """The call's own engine threads (strategies.playing.threads_for): the caller's are left as they are."""
    from kiai.strategies.playing import threads_for

    return threads_for(threads)


# -------------------------------------------------------------------------------------- simulate


def simulate(samurai, level: str = "normal", games: int = 100_000, *, seed: int = 0,
             strategy: str | None = None, params=None, params_file=None, absent_tokens: str = "auto",
             components=None, model: str | None = None, rules=None, threads: int | None = None,
             strict: bool = False, out=None, force: bool = False, progress: bool | Progress = False) -> Simulation:
    """Play games 0..games-1 of `seed` with one configuration and summarise them, as `kiai simulate`.

    samurai: the seats, seat 0 first: a list of 2 to 7 names or 'kyuzo,kikuchiyo,...'.
    level: easy, normal, hard or heroic (or a house level of the component file).
    strategy: a name of kiai.strategies() (default: the params_file's, else kiai's default);
    params: its parameters, {'T': 3}; params_file: a JSON file as `kiai tune` writes.
    absent_tokens: on, off or auto (on with two samurai). components: a component file (TOML);
    model: the model file the strategy plays (selfplay's value, learned's model);
    rules: rule readings, {'heal': 'wounded'}. strict: refuse a model made for other component data
    (else it plays, and the result says 'model trained on other components'). out: the one-row
    table file (.parquet or .csv; an existing one needs force) that the result's write_table()
    writes, checked and claimed before the first game, and held until it is written.
    Returns a Simulation: the fields of `kiai simulate --json`, to_frame(), and str() the text."""
    from kiai.reports.playing.summary import summarize
    from kiai.reports.playing.play import play_range

    with reporter(progress) as p:
        if check_path(out, "--out") is not None:
            out = check_output(out, force=check_flag(force, "--force"), suffixes=(".csv", ".parquet"))
        games = check_games(games)
        seed = check_seed(seed)
        check_threads(threads, p.note)
        config = make_config(samurai, level, strategy, items_of(params, "--param"), absent_tokens, components,
                             params_file=params_file, model=model, rules=items_of(rules, "--rule"),
                             note=p.note, strict=strict)  # fmt: skip
        held = hold(out, replace=force) if out is not None else None
        try:
            with _threads(threads) as used:
                warm_engine(config, note=p.note)  # compile (or load) before the clock starts
                start = time.perf_counter()
                p.start("games", games)
                tally = play_range(config, seed, 0, games, p.advance)
                seconds = time.perf_counter() - start
        except BaseException:
            if held is not None:
                held.close()
            raise
    return Simulation(summarize(tally, config, seed, seconds, used), config, out, held)


# ----------------------------------------------------------------------------------------- sweep


def sweep(levels=None, players=None, *, lineups=None, sample=None, seatings: str = "given", strategies=None,
          params=None, params_file=None, rules=None, absent_tokens: str = "auto", components=None,
          model: str | None = None, games: int | None = None, precision: float | None = None,
          max_games: int | None = None, seed: int = 0, preset: str | None = None, results=None, out=None,
          csv: bool = False, resume: bool = False, force: bool = False, threads: int | None = None,
          workers: int | None = None, scheduler: str | None = None, block: int | None = None,
          strict: bool = False, progress: bool | Progress = False) -> pd.DataFrame:
    """Play a grid of configurations on one seed, as `kiai sweep`: a DataFrame, one row per
    configuration, in the columns of the sweep table (reports.playing.sweep.COLUMNS) that `kiai report` reads.

    levels: 'easy,normal', ['easy', 'normal'] or 'all' (default: normal). players: team sizes,
    3 or [3, 4] (default: 4), every line-up of each, or `sample` K of them drawn with the seed.
    lineups: instead, the line-ups to play, each as a list or 'a,b,c', seated as given.
    seatings: 'given' (each line-up in one seat order) or 'all' (every distinct seating).
    strategies: names (default: kiai's default); params: {'T': [3, 4]} (a value or an axis of
    values, for the strategies that have the parameter); rules: readings, {'heal': ['any',
    'wounded']}. games per configuration (default 10,000), or precision: batches doubling from
    1,000 games until the 95% interval's half-width is at most that (up to max_games).
    preset: a ready-made grid instead of the axes ('default', 'ladder', ...); 'default', 'advice' and
    'agreement' race unless games or precision is given (reports.playing.racing: each configuration plays the
    games the report needs of it); results: the table
    (a DataFrame, or a .parquet or .csv file) whose grid a preset reads ('advice', 'agreement'). out: also
    write the table there (.parquet, and .csv beside it with csv=True) as configurations finish;
    resume keeps its finished configurations, force replaces it. workers or scheduler: play on
    Dask."""
    from kiai.reports.playing import play as P
    from kiai.reports.playing import sweep as S
    from kiai.reports.playing import tables as T

    with reporter(progress) as p, contextlib.ExitStack() as held:  # held: the claim on `out`, to the last write
        plan, request, job, groups = sweep_plan(
            p, held=held, levels=levels, players=players, lineups=lineups, sample=sample, seatings=seatings,
            strategies=strategies, params=params, params_file=params_file, rules=rules, absent_tokens=absent_tokens,
            components=components, model=model, games=games, precision=precision, max_games=max_games, seed=seed,
            preset=preset, results=results, out=out, csv=csv, resume=resume, force=force, threads=threads,
            workers=workers, scheduler=scheduler, block=block, strict=strict)  # fmt: skip
        todo = job.todo if job is not None else list(enumerate(plan))
        local = workers is None and scheduler is None
        backend = None
        try:
            with _threads(threads if local else None) as used:
                if todo:  # compile (or load) before any clock or cluster starts
                    warm_engine(*(config for _, config in todo), note=p.note)
                if local:
                    backend = P.LocalBackend(on_games=p.advance)  # parts of blocks, as they are played
                elif todo:
                    from kiai.reports.playing.cluster import DaskBackend

                    backend = (DaskBackend.local(workers, threads, todo[0][1]) if workers is not None else
                               DaskBackend.connect(scheduler, threads, todo[0][1]))  # fmt: skip
                else:
                    backend = P.LocalBackend()
                p.start("games", S.expected_games(len(todo), request), configurations=len(todo),
                        threads=used if local else None,
                        workers=None if local else len(getattr(backend, "threads", {})))  # fmt: skip
                run = dict(block=block or P.BLOCK, on_finished=p.finished, on_block=None if local else p.advance,
                           on_estimate=p.estimate)
                if job is not None:
                    return job.run(backend, **run)
                rows = S.run_plan(todo, seed, request, backend, groups=groups, **run)
                return T.to_frame([rows[i] for i in sorted(rows)])
        except KeyboardInterrupt:
            if job is not None:
                saved = len(job.rows)
                p.note(f"interrupted: {saved} of {plural(len(job.plan), 'configuration')} "
                       f"{'is' if saved == 1 else 'are'} saved in {job.out}; "
                       "run the same command with --resume to finish")  # fmt: skip
            raise
        except T.SweepError as e:
            fail(str(e))
        finally:
            if backend is not None:
                backend.close()


# --------------------------------------------------------------------------------------- compare

_ARM = {"seatings": "seating", "strategies": "strategy", "readings": "reading", "components": "file"}


def compare(lineup, level: str = "normal", games: int = 100_000, *, seed: int = 0,
            strategy: str | None = None, strategies=None, readings=None, params=None, params_file=None, rules=None,
            absent_tokens: str = "auto", components=None, model: str | None = None, threads: int | None = None,
            strict: bool = False, progress: bool | Progress = False) -> Comparison:
    """Play arms on the same games of one seed and test them in pairs, as `kiai compare`.

    By default the arms are every distinct seating of `lineup` (3 to 7 samurai), each tested
    against the best. With strategies ('reference,keeper' or a list of 2 or more) they are those
    strategies on the one seating `lineup` gives; with readings ('heal=any,wounded' or {'heal':
    ['any', 'wounded']}) the values of one rule reading on that seating and `strategy`; every
    pair of them is tested. params: the strategy's parameters ({'T': 3}), with strategies per
    strategy ({'reference': {'T': 4}} or ['reference.T=4']); params_file: a file (with strategies,
    a list, each for the strategy it names); rules: readings every arm plays. components: the
    component file of every arm, or 2 or more ('a.toml,b.toml' or a list; 'default' is kiai's own)
    to compare on the one seating and `strategy`, every pair tested; strict: refuse a model made
    for other component data. Returns a Comparison.

    Its lines are the checks of every argument, four kinds of arms, before any game is played (the
    arms themselves are reports.search.compare's)."""
    from kiai.reports.search import compare as C

    with reporter(progress) as p:
        games = check_games(games)
        seed = check_seed(seed)
        check_threads(threads, p.note)
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

        with _threads(threads) as used:
            warm_engine(*(arm.config for arm in arms), note=p.note)  # every strategy the arms need, before timing
            start = time.perf_counter()
            p.start(f"{len(arms)} {mode}", games * len(arms))
            place = {arm.label: i for i, arm in enumerate(arms, 1)}  # labels are distinct

            def on_arm(arm):
                p.now(f"{_ARM[mode]} {place[arm.label]}/{len(arms)}: {arm.label}")

            played = C.play_arms(arms, games, seed, on_block=p.advance, on_arm=on_arm)
            seconds = max(time.perf_counter() - start, 1e-9)
    return Comparison("rules" if mode == "readings" else mode, played, games, seed, seconds, used, typed=typed,
                      reading=axis[0] if axis is not None else None)  # fmt: skip


def _compare_arms(lineup_text, level, strategy, strategies, param, files, axis, listed_files, absent, comp, model,
                  fixed, strict) -> tuple[list, str | None]:
    """compare's arms, of the kind its arguments ask (strategies, rule readings, component files or
    seatings), and the seating as typed (seatings only); fails in one line where the team cannot
    play them."""
    from kiai.reports.search import compare as C
    from kiai.simcore.components import ComponentsError
    from kiai.simcore.config import ConfigError
    from kiai.simcore.seatings import as_names

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


# ---------------------------------------------------------------------------------- record, replay


def records(samurai, level: str = "normal", games: int | None = None, *,
            game_index: int | None = None, seed: int = 0, strategy: str | None = None, params=None,
            params_file=None, absent_tokens: str = "auto", components=None, model: str | None = None, rules=None,
            strict: bool = False, as_lines: bool = False, progress: bool | Progress = False) -> Iterator[dict]:
    """Game records (docs/records.md), one dict per game, made as they are iterated: games 0..games-1
    of `seed` (default 1), or the one game `game_index`; with as_lines, each as the JSON line `kiai
    record` writes. The input is checked, and the engine compiled, before this returns. The other
    arguments are simulate's."""
    from kiai.reports.records.replay import dumps

    p = reporter(progress)
    config, indices = _record_plan(p, samurai, level, games, game_index, seed, strategy, params, params_file,
                                   absent_tokens, components, model, rules, strict=strict)  # fmt: skip
    made = _recorded(config, seed, indices, p)
    return (dumps(rec) for rec in made) if as_lines else made


def record(samurai, level: str = "normal", games: int | None = None, *,
           game_index: int | None = None, seed: int = 0, strategy: str | None = None, params=None, params_file=None,
           absent_tokens: str = "auto", components=None, model: str | None = None, rules=None, out=None,
           force: bool = False, strict: bool = False, progress: bool | Progress = False) -> list[dict] | Path:
    """Play games and record each, as `kiai record`: the records as a list of dicts; with `out`
    (a .jsonl or .jsonl.gz file; an existing one needs force) they are written there instead,
    one JSON object per line as they are played, and the path is returned. kiai.replay checks
    either. The other arguments are records()'s."""
    from kiai.reports.records.replay import dumps, open_text

    p = reporter(progress)
    config, indices = _record_plan(p, samurai, level, games, game_index, seed, strategy, params, params_file,
                                   absent_tokens, components, model, rules, out=out, force=force,
                                   strict=strict)  # fmt: skip
    if out is None:
        return list(_recorded(config, seed, indices, p))
    out = Path(out)

    def write(tmp):  # this run's temporary file beside `out`, moved onto it once complete
        with open_text(tmp, "wt", gz=out.name.lower().endswith(".gz")) as sink:
            for rec in _recorded(config, seed, indices, p):
                sink.write(dumps(rec) + "\n")

    with claim(out, replace=force):  # from the first game to the last line: a second run refuses
        atomic_write(out, write)
    return out


def _record_plan(p, samurai, level, games, game_index, seed, strategy, params, params_file, absent_tokens,
                 components, model, rules, out=None, force=False, strict=False):
    """record's checks, in the order `kiai record` makes them: (configuration, game indices)."""
    check_seed(seed)
    if games is not None and game_index is not None:
        fail("give --games or --game-index, not both")
    if games is not None:
        check_games(games, most=MAX_RECORDED)
    if game_index is not None:
        check_game_index(game_index)
    check_flag(force, "--force")
    if check_path(out, "--out") is not None:
        name = str(out).lower()
        if not (name.endswith(".jsonl") or name.endswith(".jsonl.gz")):
            fail(f"--out must end in .jsonl or .jsonl.gz, got '{out}'")
        check_output(out, force=force)
    config = make_config(samurai, level, strategy, items_of(params, "--param"), absent_tokens, components,
                         params_file=params_file, model=model, rules=items_of(rules, "--rule"),
                         note=p.note, strict=strict)  # fmt: skip
    warm_engine(config, note=p.note)
    return config, ([game_index] if game_index is not None else range(games or 1))


def _recorded(config, seed: int, indices, p) -> Iterator[dict]:
    from kiai.reports.records.game import write
    from kiai.reports.playing.summary import kiai_version
    from kiai.strategies.playing import record_game

    version = kiai_version()
    with p:
        p.start("recording", len(indices))
        for i in indices:
            row, rows = record_game(config, seed, i)
            yield write(config, seed, i, row, rows, version)
            p.advance(1)


def replay(records, components=None, *, progress: bool | Progress = False) -> Replay:
    """Check game records against the engine, as `kiai replay`: replay each, fed its random
    outcomes and decisions, and compare every event, state and the result.

    records: a records file (.jsonl or .jsonl.gz, as kiai.record writes), a list of them, or
    records as kiai.record returns them. components: the component file(s) the records were
    made with, when not the packaged one. Returns a Replay: the games verified, or the first
    divergence (the replay stops there)."""
    from kiai.reports.records.game import RecordError
    from kiai.reports.records.replay import damaged, first_divergence, read, replayed
    from kiai.reports.playing.summary import kiai_version
    from kiai.strategies.game_config import GameConfig

    with reporter(progress) as p:
        sources = record_sources(records)
        comps = {}
        for c in [None, *once(listed(components), "--components")]:
            comp = load_components(c)
            comps[comp.sha256] = comp
        version = kiai_version()
        # every record replays with `reference` on the one engine: compiled once, before the clock starts
        warm_engine(GameConfig(("kyuzo", "kanbei"), strategy="reference"), note=p.note)
        checked = 0
        start = time.perf_counter()
        p.start("replaying", None)
        for k, source in enumerate(sources, 1):
            lines = [(f"record {k}", source)] if isinstance(source, dict) else (
                (f"{source}, line {line}", rec) for line, rec in read(Path(source)))
            try:
                for where, rec in lines:
                    sha = rec.get("components_sha256")
                    if not isinstance(sha, str):
                        fail(f"{where}: field 'components_sha256' is missing or not a str")
                    if sha not in comps:
                        fail(f"{where}: made with component data {str(sha)[:12]}..., which is not at hand; "
                             "pass its file with --components")
                    diff = first_divergence(rec, replayed(rec, comps[sha], where, version))
                    if diff is not None:
                        damaged(rec, where)  # a field of the wrong kind is refused, not a divergence
                        part, field, recorded, again = diff
                        return Replay(checked, time.perf_counter() - start, {
                            "where": where, "game": rec["game"], "seed": rec["seed"], "part": part, "field": field,
                            "recorded": recorded, "replayed": again})  # fmt: skip
                    checked += 1
                    p.advance(1)
            except RecordError as e:
                fail(str(e))
        if checked == 0:
            fail(f"no records in {', '.join(str(f) for f in sources)}")
        return Replay(checked, time.perf_counter() - start)
