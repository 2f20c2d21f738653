"""Playing a sweep's games: blocks of game indices, in kernel calls sized by the measured rate,
summarised as they are played; and the local backend that plays them in this process
(reports.cluster has the Dask one).

Work is cut into blocks of game indices; each block comes back summarised (a
reports.summary.Tally: counts and integer sums), and a configuration's row is built from the sum
of its blocks' tallies, so the table does not depend on where or in which order the blocks were
played, and memory does not grow with the number of games.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterator

import numpy as np

from kiai.reports.summary import Tally

BLOCK = 50_000  # game indices per kernel call / Dask task
# play_range's kernel calls: the first plays FIRST_CHUNK games, and each next one is sized to take
# about CHUNK_SECONDS at the rate just measured (at most BLOCK), so a progress bar moves every
# second or so whether the strategy plays 100 or 200,000 games/s
FIRST_CHUNK = 16
CHUNK_SECONDS = 0.5

def play_block(config, seed: int, offset: int, count: int) -> np.ndarray:
    """Games offset .. offset + count - 1 of `seed`: one row of simcore.results.OUT_NAMES each."""
    from kiai.strategies.run import run_games

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


def warm(config) -> None:
    """Compile the engine, or load it from numba's on-disk cache: play one game."""
    from kiai.strategies.run import run_games

    run_games(config, 1, 0)



class LocalBackend:
    """Plays blocks in this process, one at a time, earliest configuration first, each
    summarised as it is played (play_range). on_games(k) is called as each part of a block is
    played, for a progress bar that moves within a block."""

    def __init__(self, on_games: Callable[[int], None] | None = None):
        self._heap: list = []
        self._n = 0
        self.on_games = on_games

    def submit(self, run, seed: int, offset: int, count: int) -> None:
        heapq.heappush(self._heap, (run.index, offset, self._n, run, seed, count))
        self._n += 1

    def pending(self) -> int:
        return len(self._heap)

    def next_done(self) -> tuple[object, int, Tally]:
        _index, offset, _, run, seed, count = heapq.heappop(self._heap)
        return run, offset, play_range(run.config, seed, offset, count, self.on_games)

    def close(self) -> None:
        self._heap.clear()
