"""`team`: the team player. It fights like the card counter but thinks for the group: when
it would pass and its support token is at home, it lends its talent (Support) to the samurai
still in who needs it most (thin margin, missing symbols, wounds); it gives cards to the
neighbour they help most, and aims Kyuzo's tokens and Daisuke's and Kikuchiyo's Kiai at the
samurai in most danger.

Parameters: risk (threshold on the counted chance of being overcome), need (added while a
defence symbol is missing), help (how useful a loan must be before it Supports instead of
passing), team (weight of a teammate's gain against its own), stay.
"""

from numba import njit

from simcore.layout import ACT_FIGHT, ACT_PASS, ACT_SUPPORT, N, Q_ACTION, Q_FIGHT_AGAIN, RAIDER_N
from strategies import playbook
from strategies.sense import active_count, fight_within, missing, seat_danger

KIAI_BONUS = 2.5


@njit(cache=True)
def wants_fight(prm, P, seat):
    if P[RAIDER_N] == 0:
        return False
    a = active_count(P)
    theta = prm[0] + (prm[1] if missing(P, seat) > 0 else 0.0)
    if a == 1:
        theta += 0.5
    return fight_within(P, seat, theta, 0.1 * prm[4], False)


@njit(cache=True)
def support_target(prm, P, seat, legal):
    """The samurai to lend the talent to, or -1: only with cards enough left for the loan to
    matter (a Support sends one to the intruder stack)."""
    if P[RAIDER_N] <= 2 * active_count(P):
        return -1
    best = -1
    bv = prm[2]
    for t in range(P[N]):
        if (legal >> (ACT_SUPPORT + t)) & 1:
            v = prm[3] * playbook._token_value(P, seat, t) * (1.0 + 0.2 * seat_danger(P, t))
            if v > bv:
                bv = v
                best = t
    return best


@njit(cache=True)
def decide(prm, P, S, q, seat, a, b, legal):
    if q == Q_ACTION:
        if (legal >> ACT_FIGHT) & 1 and wants_fight(prm, P, seat):
            return ACT_FIGHT
        t = support_target(prm, P, seat, legal)
        return ACT_SUPPORT + t if t >= 0 else ACT_PASS
    if q == Q_FIGHT_AGAIN:
        return 1 if wants_fight(prm, P, seat) else 0
    return playbook.answer(P, q, seat, a, legal, KIAI_BONUS, prm[4], prm[3])
