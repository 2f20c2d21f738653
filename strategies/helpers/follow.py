"""A planner that follows the default (its `follow` parameter): it weighs every answer of the
questions it weighs as ever, and writes what it finds for a teacher's labels, but plays the
default's answer at every question, so that its games are the default's bit for bit (a teacher on
the default's own positions, DAgger: training.teacher). `salt` draws other samples for the same
questions (a second labelling of them).

The followed default's decide() and its record are reached by address: the run layer
(strategies.run.games.follow_default) fills FOLLOW_DATA's fields of a planner record whose `follow`
is 1.
"""

import numpy as np
from numba import njit

from kiai.simcore.gateway import call_decide
from kiai.simcore.questions import Q_ABSENT, QUESTIONS
from kiai.simcore.rng import mix64
from kiai.simcore.state import int_to_voidptr
from kiai.strategies.base import Param

# the planner record's fields for the followed default: its decide() and its record, by address
FOLLOW_DATA = (("follow_fn", np.int64), ("follow_at", np.int64))
# the questions a follower is asked: every one but the absent tokens' (whose answer is a set, which
# a planner cannot give), so that the default answers them all
FOLLOWED_QUESTIONS = sum(1 << q for q in QUESTIONS if q != Q_ABSENT)


def follow_params(who: str) -> tuple[Param, Param]:
    """The `follow` and `salt` parameters of the planner `who`."""
    return (
        Param("follow", 0, 0, 1, True, f"1: weigh every answer as {who} does, but play the default's answers (a teacher on the default's own positions)", expert=True),
        Param("salt", 0, 0, 2**31 - 1, True, f"mixed into the samples' seeds: 0 as {who} plays, another number draws other samples for the same questions", expert=True),
    )


@njit(cache=True)
def followed(fn, at, pub, mem):
    """The followed default's answer to the question in mem (fn, at: its decide() and record)."""
    return call_decide(fn, int_to_voidptr(at), pub, mem, mem.q, mem.seat, mem.a, mem.b, mem.legal)


@njit(cache=True)
def salted(seed, salt):
    """A question's samples' seed with `salt` mixed in (0: the seed itself)."""
    if salt == 0.0:
        return seed
    return np.uint64(mix64(seed ^ np.uint64(int(salt))))
