"""The `random` strategy: uniform among the legal choices at every decision point (fuzzing)."""

from numba import njit

from kiai.simcore.obs import nth_bit, popcount
from kiai.simcore.questions import Q_ABSENT
from kiai.simcore.rng import stream_below
from kiai.strategies.base import Strategy

STRATEGY = Strategy("random", "Uniformly random among the legal choices at every decision point (for fuzzing).")


@njit(cache=True)
def decide(prm, pub, mem, q, seat, a, b, legal):
    if q == Q_ABSENT:
        # the answer is a subset of the available tokens: uniform over subsets
        m = 0
        for i in range(7):
            if (legal >> i) & 1 and stream_below(mem.stream, 0, 2) == 1:
                m |= 1 << i
        return m
    return nth_bit(legal, stream_below(mem.stream, 0, popcount(legal)))
