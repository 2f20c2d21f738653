"""The one place the engine reaches strategies: an integer id picks the strategy.

A branch on a plain integer keeps one compiled kernel that numba can cache on disk; passing
jitted functions as arguments would not survive a new process. To add a strategy: write its
module, add a Strategy entry in registry.py, and add its branch here with the same id.
Honest strategies receive the public observation P only (R-19); H, the hidden state, is
forwarded only to strategies registered as cheating.
"""

from numba import njit

from simcore.layout import Q_ACTION, S_PLAN, S_PLAN_AT
from simcore.obs import turn_key
from strategies import counter, keeper, kiai_seeker, random_play, reference, risk, team


@njit(cache=True)
def decide(sid, prm, P, H, S, q, seat, a, b, legal):
    # a planner's action for this very turn (strategies/planners.py), when still legal
    if q == Q_ACTION and S[S_PLAN_AT] == turn_key(P) and (legal >> S[S_PLAN]) & 1:
        return S[S_PLAN]
    if sid == 0:
        return reference.decide(prm, P, S, q, seat, a, b, legal)
    if sid == 1:
        return random_play.decide(prm, P, S, q, seat, a, b, legal)
    if sid == 3:
        return counter.decide(prm, P, S, q, seat, a, b, legal)
    if sid == 4:
        return kiai_seeker.decide(prm, P, S, q, seat, a, b, legal)
    if sid == 5:
        return team.decide(prm, P, S, q, seat, a, b, legal)
    if sid == 6:
        return risk.decide(prm, P, S, q, seat, a, b, legal)
    if sid == 7:
        return keeper.decide(prm, P, S, q, seat, a, b, legal)
    return -1
