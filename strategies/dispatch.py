"""The one place the engine reaches strategies: an integer id picks the strategy.

A branch on a plain integer keeps one compiled kernel that numba can cache on disk; passing
jitted functions as arguments would not survive a new process. To add a strategy: write its
module, add a Strategy entry in registry.py, and add its branch here with the same id.
Honest strategies receive the public observation P only (R-19); H, the hidden state, is
forwarded only to strategies registered as cheating.
"""

from numba import njit

from strategies import foresight, random_play, reference


@njit(cache=True)
def decide(sid, prm, P, H, S, q, seat, a, b, legal):
    if sid == 0:
        return reference.decide(prm, P, S, q, seat, a, b, legal)
    if sid == 1:
        return random_play.decide(prm, P, S, q, seat, a, b, legal)
    if sid == 2:
        return foresight.decide(prm, P, H, S, q, seat, a, b, legal)  # cheating: sees H
    return -1
