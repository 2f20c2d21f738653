"""kiai's Python API: the functions the `kiai` command calls for its work (docs/api.md).

Each function checks all of its input before any game is played: a problem is a KiaiError whose
one-line message is the one `kiai` prints (it names the command's option). Where the command
takes text, a function takes that text or Python values: a line-up as 'kyuzo,heihachi' or
['kyuzo', 'heihachi'], parameters as ['T=3'] or {'T': 3}, rule readings as ['heal=wounded'] or
{'heal': 'wounded'}. `threads=` applies to the call alone. `progress=` is False (silent), True
(a bar and notes on standard error), a function f(n) called with the games just played, or a
kiai.Progress (kiai.progress says what it is told).

The checks are kiai.inputs's (one plan function a command: play_plan, sweep_plan, compare_plan),
and the games are played below the API: reports.playing.simulation and sweep_run,
reports.search.compare, reports.records.run. Each function here reads its arguments through its
plan, then makes that one call.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from kiai.inputs.play_plan import record_plan, replay_plan, simulate_plan
from kiai.inputs.sweep_plan import sweep_plan
from kiai.progress import reporter

if TYPE_CHECKING:  # the games' modules are imported on use: `import kiai; kiai.simulate` loads no engine
    import pandas as pd

    from kiai.progress import Progress
    from kiai.reports.playing.simulation import Simulation
    from kiai.reports.records.run import Replay
    from kiai.reports.search.compare import Comparison


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
    from kiai.reports.playing.simulation import simulate as play_simulation

    with reporter(progress) as p:
        config, games, seed, out = simulate_plan(p, samurai, level, games, seed, strategy, params, params_file,
                                                 absent_tokens, components, model, rules, threads, strict, out,
                                                 force)  # fmt: skip
        return play_simulation(config, seed, games, threads, p, out, force)


# ----------------------------------------------------------------------------------------- sweep


def sweep(levels=None, players=None, *, lineups=None, sample=None, seatings: str = "given", strategies=None,
          params=None, params_file=None, rules=None, absent_tokens: str = "auto", components=None,
          model: str | None = None, games: int | None = None, precision: float | None = None,
          max_games: int | None = None, seed: int = 0, preset: str | None = None, results=None, out=None,
          csv: bool = False, resume: bool = False, force: bool = False, threads: int | None = None,
          workers: int | None = None, scheduler: str | None = None, block: int | None = None,
          strict: bool = False, headline: float | None = None,
          progress: bool | Progress = False) -> pd.DataFrame:
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
    Dask. headline: with preset 'default' or 'agreement', the race plays until each headline cell's
    95% interval is within +-headline (a proportion; the report's own is 0.02)."""
    from kiai.reports.playing.sweep_run import run

    with reporter(progress) as p, contextlib.ExitStack() as held:  # held: the claim on `out`, to the last write
        plan, request, job, groups = sweep_plan(
            p, held=held, levels=levels, players=players, lineups=lineups, sample=sample, seatings=seatings,
            strategies=strategies, params=params, params_file=params_file, rules=rules, absent_tokens=absent_tokens,
            components=components, model=model, games=games, precision=precision, max_games=max_games, seed=seed,
            preset=preset, results=results, out=out, csv=csv, resume=resume, force=force, threads=threads,
            workers=workers, scheduler=scheduler, block=block, strict=strict, headline=headline)  # fmt: skip
        return run(plan, request, job, groups, seed, threads, workers, scheduler, block, p)


# --------------------------------------------------------------------------------------- compare


def compare(lineup, level: str = "normal", games: int = 100_000, *, seed: int = 0,
            strategy: str | None = None, strategies=None, readings=None, params=None, params_file=None, rules=None,
            absent_tokens: str = "auto", components=None, model: str | None = None, threads: int | None = None,
            strict: bool = False, workers: int | None = None, scheduler: str | None = None,
            progress: bool | Progress = False) -> Comparison:
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
    for other component data. workers or scheduler: play on Dask, a local cluster of that many
    workers or the running one at that address (the same figures; docs/clusters.md). Returns a
    Comparison.

    Every argument is checked, and the arms made, before any game is played
    (kiai.inputs.compare_plan); the arms are reports.search.compare's."""
    # on use: `kiai simulate` loads nothing of the searches (tests/test_startup.py)
    from kiai.inputs.compare_plan import compare_plan
    from kiai.reports.search.compare import compare as play_comparison

    with reporter(progress) as p:
        plan = compare_plan(p, lineup, level, games, seed, strategy, strategies, readings, params, params_file, rules,
                            absent_tokens, components, model, threads, strict, workers, scheduler)  # fmt: skip
        return play_comparison(plan, p)


# ---------------------------------------------------------------------------------- record, replay


def records(samurai, level: str = "normal", games: int | None = None, *,
            game_index: int | None = None, seed: int = 0, strategy: str | None = None, params=None,
            params_file=None, absent_tokens: str = "auto", components=None, model: str | None = None, rules=None,
            strict: bool = False, as_lines: bool = False, progress: bool | Progress = False) -> Iterator[dict]:
    """Game records (docs/records.md), one dict per game, made as they are iterated: games 0..games-1
    of `seed` (default 1), or the one game `game_index`; with as_lines, each as the JSON line `kiai
    record` writes. The input is checked, and the engine compiled, before this returns. The other
    arguments are simulate's."""
    from kiai.reports.records import run as R  # on use: `kiai simulate` loads nothing of the records

    p = reporter(progress)
    config, indices = record_plan(p, samurai, level, games, game_index, seed, strategy, params, params_file,
                                  absent_tokens, components, model, rules, strict=strict)  # fmt: skip
    return R.records(config, seed, indices, p, as_lines)


def record(samurai, level: str = "normal", games: int | None = None, *,
           game_index: int | None = None, seed: int = 0, strategy: str | None = None, params=None, params_file=None,
           absent_tokens: str = "auto", components=None, model: str | None = None, rules=None, out=None,
           force: bool = False, strict: bool = False, progress: bool | Progress = False) -> list[dict] | Path:
    """Play games and record each, as `kiai record`: the records as a list of dicts; with `out`
    (a .jsonl or .jsonl.gz file; an existing one needs force) they are written there instead,
    one JSON object per line as they are played, and the path is returned. kiai.replay checks
    either. The other arguments are records()'s."""
    from kiai.reports.records import run as R  # on use: `kiai simulate` loads nothing of the records

    p = reporter(progress)
    config, indices = record_plan(p, samurai, level, games, game_index, seed, strategy, params, params_file,
                                  absent_tokens, components, model, rules, out=out, force=force,
                                  strict=strict)  # fmt: skip
    return R.record(config, seed, indices, p, out, force)


def replay(records, components=None, *, progress: bool | Progress = False) -> Replay:
    """Check game records against the engine, as `kiai replay`: replay each, fed its random
    outcomes and decisions, and compare every event, state and the result.

    records: a records file (.jsonl or .jsonl.gz, as kiai.record writes), a list of them, or
    records as kiai.record returns them. components: the component file(s) the records were
    made with, when not the packaged one. Returns a Replay: the games verified, or the first
    divergence (the replay stops there)."""
    from kiai.reports.records import run as R  # on use: `kiai simulate` loads nothing of the records

    with reporter(progress) as p:
        sources, comps = replay_plan(records, components)
        return R.replay(sources, comps, p)
