"""The training hook: what a player writes while training collects from its games.

The engine's memory record (simcore.state.MEM) holds one address for it, `mem.collect`: 0 while
a game is only played, else a COLLECTOR record the run layer made (strategies.run.games.Collect). The
record says what to write (`what`), where (`rows`: a buffer of `cap` rows, `n` written so far)
and, for selfplay's own games, the share of its weighed answers it gives at random (`explore`).
A player writes its rows only where the hook asks for them; nothing it does otherwise depends on
the hook, so the games are the same whether or not a run collects from them.
"""

import numba
import numpy as np
from numba import carray, njit

from kiai.simcore.state import int_to_float32_pointer, int_to_voidptr, record_view

# what a run collects
LABELS = 1  # every question a planner weighs, each answer with its rollouts' value (learned's teacher)
TABLES_BASE = 2  # judge: the table at every turn's start, its base playing (the value of the table's first games)
TABLES = 3  # judge: the table at every turn's start, judge playing
TEACH = 4  # every answer an expert weighs: its afterstate and the expert's value of it (selfplay's teacher)
AFTERSTATES = 5  # selfplay: the afterstate of every answer it gives to a question it weighs

COLLECTOR = np.dtype([("rows", np.int64), ("cap", np.int64), ("n", np.int64), ("what", np.int64),
                      ("explore", np.float64)])
_view = record_view(numba.from_dtype(COLLECTOR))


@njit(cache=True, inline="always")
def collector(mem):
    """The run's COLLECTOR record (only where mem.collect is not 0)."""
    return _view(int_to_voidptr(mem.collect))


@njit(cache=True, inline="always")
def collecting(mem, what):
    """Whether the run collects `what` from this game."""
    return mem.collect != 0 and collector(mem).what == what


@njit(cache=True, inline="always")
def room(mem, k):
    """Whether the buffer holds k more rows."""
    c = collector(mem)
    return c.n + k <= c.cap


@njit(cache=True, inline="always")
def next_row(mem, width):
    """The next row of the buffer (`width` floats), counted as written; call room() first."""
    c = collector(mem)
    rows = carray(int_to_float32_pointer(c.rows), (c.cap, width))
    row = rows[c.n]
    c.n += 1
    return row


@njit(cache=True, inline="always")
def explore(mem):
    """selfplay's share of its weighed answers to give at random while a run collects its games."""
    return collector(mem).explore if mem.collect != 0 else 0.0
