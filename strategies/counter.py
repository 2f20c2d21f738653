"""`counter`: the card counter. It fights while the chance that the next card overcomes it,
counted over the public multiset of unseen cards (section 12), stays below a threshold, and
raises that threshold while it still lacks a defence symbol, when few cards are left and when
it is the last samurai in the round (what nobody takes ends on the intruder stack).

Parameters: risk (base threshold), need, late, last (what each situation adds), stay (weight
of the last card's repeating penalty). Cards in hand and Kiai effects: strategies.playbook.
"""

from numba import njit

from simcore.layout import Q_ACTION, Q_FIGHT_AGAIN, RAIDER_N
from strategies import playbook
from strategies.sense import active_count, fight_within, missing

KIAI_BONUS = 2.5


@njit(cache=True)
def wants_fight(prm, P, seat):
    if P[RAIDER_N] == 0:
        return False
    risk, need, late, last, stay = prm[0], prm[1], prm[2], prm[3], prm[4]
    a = active_count(P)
    theta = risk
    if missing(P, seat) > 0:
        theta += need
    if P[RAIDER_N] <= 2 * a:
        theta += late
    if a == 1:
        theta += last
    # fighting means paying a last card's penalty at the next turn; passing pays nothing more
    return fight_within(P, seat, theta, 0.1 * stay, False)


@njit(cache=True)
def decide(prm, P, S, q, seat, a, b, legal):
    if q == Q_ACTION or q == Q_FIGHT_AGAIN:
        return playbook.fight_answer(q, wants_fight(prm, P, seat))
    return playbook.answer(P, q, seat, a, legal, KIAI_BONUS, prm[4], 1.0)
