"""Playing a sweep's games: blocks of game indices, in kernel calls sized by the measured rate,
summarised as they are played; and the local backend that plays them in this process
(reports.playing.cluster has the Dask one).

Work is cut into blocks of game indices; each block comes back summarised (a
reports.playing.summary.Tally: counts and integer sums), and a configuration's row is built from the sum
of its blocks' tallies, so the table does not depend on where or in which order the blocks were
played, and memory does not grow with the number of games.
"""

from __future__ import annotations

import heapq
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

import numpy as np

from kiai.reports.playing.summary import Tally

BLOCK = 50_000  # game indices per kernel call / Dask task
# play_range's kernel calls: the first plays FIRST_CHUNK games, and each next one is sized to take
# about CHUNK_SECONDS at the rate just measured (at most BLOCK), so a progress bar moves every
# second or so whether the strategy plays 100 or 200,000 games/s
FIRST_CHUNK = 16
CHUNK_SECONDS = 0.5

# set by LocalBackend in its workers: how many threads the next kernel call of this block plays on
_CHUNK_THREADS: ContextVar[Callable[[], int] | None] = ContextVar("kiai_chunk_threads", default=None)


class _Stopped(Exception):
    """A block of a closed LocalBackend stops between two kernel calls."""


def play_block(config, seed: int, offset: int, count: int) -> np.ndarray:
    """Games offset .. offset + count - 1 of `seed`: one row of simcore.results.OUT_NAMES each."""
    from kiai.strategies.run.games import run_games

    return run_games(config, count, seed, game_offset=offset)


def next_chunk(k: int, seconds: float) -> int:
    """The size of the next kernel call after one of k games took `seconds`: about CHUNK_SECONDS
    at that rate, at least FIRST_CHUNK, at most 4 k and BLOCK."""
    rate = k / max(seconds, 1e-6)
    return int(min(BLOCK, 4 * k, max(FIRST_CHUNK, rate * CHUNK_SECONDS)))


def play_chunks(config, seed: int, offset: int, count: int,
                on_games: Callable[[int], None] | None = None) -> Iterator[np.ndarray]:
    """Games offset .. offset + count - 1 of `seed`, in kernel calls sized by the measured rate
    (FIRST_CHUNK, then about CHUNK_SECONDS each, at most BLOCK): yields each call's rows, in
    index order, and calls on_games(k) after each. The rows do not depend on the chunks: game i
    is keyed by (seed, i) alone."""
    import time

    done, chunk = 0, FIRST_CHUNK
    while done < count:
        k = min(chunk, count - done)
        t0 = time.perf_counter()
        threads = _CHUNK_THREADS.get()
        if threads is None:
            rows = play_block(config, seed, offset + done, k)
        else:
            from kiai.strategies.run.games import threads_for

            with threads_for(threads()):
                rows = play_block(config, seed, offset + done, k)
        seconds = time.perf_counter() - t0
        done += k
        if on_games is not None:
            on_games(k)
        yield rows
        chunk = next_chunk(k, seconds)


def play_range(config, seed: int, offset: int, count: int,
               on_games: Callable[[int], None] | None = None) -> Tally:
    """Games offset .. offset + count - 1 of `seed` (play_chunks), summarised as they are played:
    a Tally, so memory stays at one kernel call's rows however many games are played."""
    tally = Tally()
    for rows in play_chunks(config, seed, offset, count, on_games):
        tally.add(rows)
    return tally


@contextmanager
def sharing_threads(threads: Callable[[], int]):
    """Inside the block, play_chunks asks threads() how many threads the next kernel call plays
    on: a block that shares the cores with others takes one, and all of them once it plays alone."""
    token = _CHUNK_THREADS.set(threads)
    try:
        yield
    finally:
        _CHUNK_THREADS.reset(token)


def warm(config) -> None:
    """Compile the engine, or load it from numba's on-disk cache: play one game."""
    from kiai.strategies.run.games import run_games

    run_games(config, 1, 0)



class LocalBackend:
    """Plays blocks in this process, earliest configuration first, several at once: up to one
    block per thread in use (strategies.run.games.set_threads), each on one thread of its own, so that
    one block's Python work (its set-up, its tally) and its last games overlap another's games
    instead of leaving a core idle. A block that plays alone (the last of a round, a one-block
    sweep) plays on every thread, decided again at each kernel call. Blocks may come back in
    any order; a race's decisions do not depend on it (reports.playing.racing). on_games(k) is called as
    each part of a block is played, for a progress bar that moves within a block."""

    def __init__(self, on_games: Callable[[int], None] | None = None, threads: int | None = None):
        from kiai.strategies.run.games import set_threads

        self._heap: list = []
        self._n = 0
        self.threads = max(1, threads if threads is not None else set_threads(None))
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._pool = None
        self._running: dict = {}  # future -> (run, offset)
        self.on_games = on_games

    def submit(self, run, seed: int, offset: int, count: int) -> None:
        heapq.heappush(self._heap, (run.index, offset, self._n, run, seed, count))
        self._n += 1

    def pending(self) -> int:
        return len(self._heap) + len(self._running)

    def _advance(self, k: int) -> None:
        with self._lock:
            self.on_games(k)

    def _play(self, run, seed: int, offset: int, count: int) -> Tally:
        """One block in a worker: play_range on one thread, or on all of them while it plays alone
        (play_chunks asks `threads` before each kernel call)."""

        def threads() -> int:
            if self._stop.is_set():
                raise _Stopped
            alone = not self._heap and sum(not f.done() for f in list(self._running)) <= 1
            return self.threads if alone else 1

        with sharing_threads(threads):
            return play_range(run.config, seed, offset, count, self._advance if self.on_games else None)

    def next_done(self) -> tuple[object, int, Tally]:
        from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait

        if self._pool is None:
            self._pool = ThreadPoolExecutor(self.threads, thread_name_prefix="kiai-block")
        while self._heap and len(self._running) < self.threads:
            _index, offset, _, run, seed, count = heapq.heappop(self._heap)
            self._running[self._pool.submit(self._play, run, seed, offset, count)] = (run, offset)
        done, _ = wait(list(self._running), return_when=FIRST_COMPLETED)
        # the earliest configuration first among those done together (the races do not depend on it)
        future = min(done, key=lambda f: (self._running[f][0].index, self._running[f][1]))
        run, offset = self._running.pop(future)
        try:
            return run, offset, future.result()
        except BaseException:
            self.close()  # the others stop too: the caller is unwinding (Ctrl-C, an error)
            raise

    def close(self) -> None:
        """Stop: blocks not started are dropped, those playing stop at their next kernel call."""
        self._heap.clear()
        self._stop.set()
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
        self._running.clear()
