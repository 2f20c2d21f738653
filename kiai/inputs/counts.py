"""The numbers a command is given, checked: seeds, game indices, games, team sizes, threads."""

from __future__ import annotations

from collections.abc import Callable

from kiai.inputs.checks import fail, whole
from kiai.words import plural


# The most games one call plays per configuration: 100 million is about 15 minutes at the
# engine's full speed. (It is not a memory bound: games are summarised block by block as they
# are played, so memory does not grow with their number.)
MAX_GAMES = 100_000_000


MAX_INDEX = 2**63 - 1  # game indices and seeds are 64-bit words in the engine (simcore.rng)


def check_seed(seed: int, option: str = "--seed") -> int:
    seed = whole(seed, option)
    if not 0 <= seed <= MAX_INDEX:
        fail(f"{option} must be in 0..2**63-1, got {seed}")
    return seed


def check_size(size: int) -> int:
    """--size: a team of 2 to 7 samurai (a family's)."""
    from kiai.simcore.codes import SAMURAI

    if not 2 <= size <= len(SAMURAI):
        fail(f"--size must be in [2, {len(SAMURAI)}], got {size}")
    return size


def check_games(games: int, option: str = "--games", most: int = MAX_GAMES) -> int:
    """A number of games per configuration: 1 to `most`."""
    games = whole(games, option)
    if not 1 <= games <= most:
        fail(f"{option} must be at least 1 and at most {most:,}, got {games:,}")
    return games


def check_game_index(index: int) -> int:
    """One game of a seed's sequence: 0 to 2**63-1, like the seed."""
    index = whole(index, "--game-index")
    if not 0 <= index <= MAX_INDEX:
        fail(f"--game-index must be in 0..2**63-1, got {index}")
    return index


def check_threads(threads: int | None, note: Callable[[str], None] | None = None) -> None:
    """Refuse fewer than one thread; say in one line (to `note`) when more are asked than the
    engine has."""
    if threads is None:
        return
    threads = whole(threads, "--threads")
    if threads < 1:
        fail(f"--threads must be at least 1, got {threads}")
    import numba

    most = numba.config.NUMBA_NUM_THREADS
    if threads > most and note is not None:
        note(f"note: --threads {threads}: this machine runs at most {plural(most, 'engine thread')}; using {most}")
