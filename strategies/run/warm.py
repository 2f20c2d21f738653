"""Compiling before the clock starts: the engine and what a call plays compiled, or loaded from
numba's cache (strategies.run.compiling), and one game played, before any game is timed, saying to
a `note` function what is being compiled when that takes longer than a warm start (warm_engine).
warm_all compiles everything a set of runs will play at once, on new processes taking pieces from
one queue (compile_all: make report's compile stage).
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections.abc import Callable

from kiai.simcore import cached
from kiai.simcore.config import configure
from kiai.strategies import registry
from kiai.strategies.run import compiling, games
from kiai.strategies.run.solve import Solver
from kiai.words import duration

COMPILE_NOTE_AFTER = 2.0  # seconds: a warm start loads the engine in about one
NOTE_EVERY = 30.0  # seconds between two notes that a compile still runs (as kiai.progress.LOG_EVERY's lines)


def _compile_notes(note: Callable[[str], None], doing: str, start: float, stop: threading.Event) -> None:
    """`doing` once the compile has taken COMPILE_NOTE_AFTER seconds, then every NOTE_EVERY seconds a
    line that it still runs, until `stop` is set."""
    if stop.wait(COMPILE_NOTE_AFTER):
        return
    note(doing)
    while not stop.wait(NOTE_EVERY):
        note(f"still compiling ({duration(time.perf_counter() - start)} so far)...")


def warm_engine(config, *more, note: Callable[[str], None] | None = None) -> float:
    """Compile the engine and what `config` (and the configurations `more`) play, or load them
    from numba's cache, before any game is timed.

    When that takes longer than a warm start, one line to `note` says what is being compiled
    (the engine and the strategies played, on a first run after an install or an update; or
    only the strategies played for the first time, the engine being cached), so a long silence
    is explained, one every NOTE_EVERY seconds that it still runs, and one more how long it took.
    Returns the seconds it took."""
    configs = [config, *more]
    engine, names = compiling.uncompiled(configs)
    strategies = ", ".join(names)
    if engine:
        what = "the engine" + (f" and the strategies it plays ({strategies})" if names else "")
        doing = f"compiling {what} (first run after an install or an update; about a minute)..."
        done = f"compiled {what}"
    elif names:
        what = f"strateg{'ies' if len(names) > 1 else 'y'} {strategies}"
        doing = f"compiling {what}, played for the first time (the engine is already compiled)..."
        done = f"compiled {what}"
    else:
        doing = "loading the compiled engine and strategies from the cache..."
        done = "loaded the compiled engine and strategies"
    start = time.perf_counter()
    stop = threading.Event()
    if note is not None:
        threading.Thread(target=_compile_notes, args=(note, doing, start, stop), daemon=True).start()
    try:
        compiling.prepare(configs)
        games.run_games(config, 1, 0)  # the engine compiled or loaded: one game played
    finally:
        stop.set()
    seconds = time.perf_counter() - start
    if seconds > COMPILE_NOTE_AFTER and note is not None:
        kept = " (cached for later runs)" if cached() else " (not cached: no cache folder is writable)"
        note(f"{done} in {seconds:.0f} s" + (kept if engine or names else ""))
    return seconds


ENGINE, SOLVER = "engine", "solver"  # compile_all's pieces besides FUNCTION=STRATEGY


def queue(configs, solver: bool = False) -> list[str]:
    """compile_all's pieces not yet in numba's cache, in the order they are handed out: the engine,
    the decides of the planners' bases (what the plans build on), the plans (the long ones), the
    other decides, then, with `solver`, the solver's search (strategies.run.solve). A look, no
    compiling."""
    from kiai.simcore.kernel import play_games

    bases = {config.base_name for config in configs if config.strategy_info.planner}
    found = sorted(compiling.pieces_of(configs), key=lambda p: 0 if p[1] in bases and p[0] == "decide" else 1 if p[0] == "plan" else 2)
    out = [] if compiling.in_cache(play_games) else [ENGINE]
    out += [f"{kind}={name}" for kind, name in found if not compiling.in_cache(registry.hook_of(name, kind))]
    if solver:
        from kiai.simcore.solve import solve_deal

        out += [] if compiling.in_cache(solve_deal) else [SOLVER]
    return out


def _compile_piece(piece: str, config) -> str:
    """Compile one piece of compile_all's queue in this process (a pool's worker); returns what
    failed, in one line, or ''."""
    try:
        if piece == ENGINE:
            compiling.compile_engine(configure(config))
        elif piece == SOLVER:
            Solver(config.samurai, config.difficulty, budget=1).solve(0, 0, 1)
        else:
            compiling.compile_pieces([piece])
    except Exception as e:  # noqa: BLE001 - the run that plays it compiles it again and says why
        return f"{piece}: {type(e).__name__}: {e}".splitlines()[0]
    return ""


def compile_all(configs, *, solver: bool = False, processes: int | None = None) -> list[str]:
    """Compile the engine and every piece configs play (with `solver`, the solver's search too)
    that numba's cache lacks, in `processes` new processes (default: the cores, at most two),
    side by side: each takes the next piece of queue() as soon as it is free, so the long ones
    (the plans) run beside the others instead of one after another, as a run's own compile
    would (one process, or two each with a fixed half: compiling.compile_side_by_side). Everything lands
    in the on-disk cache, which the runs then load. Returns the pieces that failed, each in one
    line (the run that plays one compiles it itself, and fails there if it must)."""
    configs = list(configs)
    todo = queue(configs, solver)
    if not todo:
        return []
    processes = max(1, min(processes or min(os.cpu_count() or 1, 2), len(todo)))
    with multiprocessing.get_context("spawn").Pool(processes) as pool:  # a fresh interpreter: nothing compiled
        said = pool.starmap(_compile_piece, [(piece, configs[0]) for piece in todo], chunksize=1)
    return [s for s in said if s]


def _in_words(todo: list[str]) -> str:
    """What a queue compiles, in words: 'the engine, strategies keeper, judge and the solver'."""
    names = list(dict.fromkeys(piece.split("=")[1] for piece in todo if "=" in piece))
    parts = ["the engine"] if ENGINE in todo else []
    if names:
        parts.append(f"strateg{'ies' if len(names) > 1 else 'y'} {', '.join(names)}")
    if SOLVER in todo:
        parts.append("the solver")
    return ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1]


def warm_all(configs, *, solver: bool = False, note: Callable[[str], None] | None = None) -> float:
    """Compile the engine and everything `configs` play (with `solver`, the solver's search too)
    that numba's cache lacks, side by side on new processes (compile_all), with warm_engine's
    notes: what is compiled, that it still runs every NOTE_EVERY seconds, how long it took, and each
    piece that failed (the run that plays it compiles it again). Returns the seconds it took."""
    todo = queue(configs, solver)
    start = time.perf_counter()
    if not todo:
        if note is not None:
            note("the engine and every strategy played are in the cache already")
        return time.perf_counter() - start
    what = _in_words(todo)
    stop = threading.Event()
    if note is not None:
        threading.Thread(target=_compile_notes, args=(note, f"compiling {what} side by side (first run after an "
                                                            "install or an update; a few minutes)...", start, stop),
                         daemon=True).start()
    try:
        failed = compile_all(configs, solver=solver)
    finally:
        stop.set()
    seconds = time.perf_counter() - start
    if note is not None:
        kept = " (cached for later runs)" if cached() else " (not cached: no cache folder is writable)"
        note(f"compiled {len(todo) - len(failed)} of {len(todo)} pieces in {seconds:.0f} s" + kept)
        for line in failed:
            note(f"not compiled here (the run that plays it compiles it): {line}")
    return seconds
