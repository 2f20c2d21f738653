"""Compiling before the clock starts: the engine and what a call plays compiled, or loaded from
numba's cache (strategies.run.compiling), and one game played, before any game is timed, saying to
a `note` function what is being compiled when that takes longer than a warm start.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from kiai.simcore import cached
from kiai.strategies.run import compiling, games
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
