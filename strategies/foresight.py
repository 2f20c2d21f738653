"""`foresight`: a CHEATING strategy that reads the hidden raider stack (R-19 does not bind it).

It plays like `reference`, except that it fights only when it knows the next card will not
overcome it (it can defend the card, or the card fits its margin). It bounds how much knowing
the deal is worth, and it is the cheater the R-19 test must catch.
"""

from numba import njit

from simcore.layout import ACT_FIGHT, ACT_PASS, C_VALUE, Q_ACTION, Q_FIGHT_AGAIN, RAIDER, RAIDER_N
from simcore.obs import can_defend, margin
from strategies import reference


@njit(cache=True)
def _next_is_safe(P, H, seat):
    n = P[RAIDER_N]
    if n == 0:
        return False
    c = H[RAIDER + n - 1]
    return can_defend(P, seat, c) or P[C_VALUE + c] <= margin(P, seat)


@njit(cache=True)
def decide(prm, P, H, S, q, seat, a, b, legal):
    if q == Q_ACTION and (legal >> ACT_FIGHT) & 1:
        return ACT_FIGHT if _next_is_safe(P, H, seat) else ACT_PASS
    if q == Q_FIGHT_AGAIN:
        return 1 if _next_is_safe(P, H, seat) else 0
    return reference.decide(prm, P, S, q, seat, a, b, legal)
