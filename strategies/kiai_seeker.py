"""`kiai`: the Kiai seeker. Landing exactly on the Kiai sheds the oldest card and fires the
samurai's Kiai effect (section 5), so it values each fight by the counted odds of the next
card (section 12): a Kiai, a defence, a safe fit, a give, or an overcome, less the penalty it
would pay next turn, and fights while that value beats its threshold. With a card in hand it
steers toward the Kiai: gives a card to a neighbour it lands exactly on, redraws a card that
misses it, and aims Daisuke's and Kikuchiyo's Kiai at lines they drop onto a Kiai.

Parameters: bonus (what a Kiai is worth), over (what an overcome costs), edge (the threshold),
stay (weight of a card's repeating penalty).
"""

from numba import njit

from simcore.layout import Q_ACTION, Q_FIGHT_AGAIN, RAIDER_N
from strategies import playbook
from strategies.sense import fight_odds, missing


@njit(cache=True)
def fight_value(prm, P, seat):
    bonus, over, stay = prm[0], prm[1], prm[3]
    pd, px, pk, pf, pg, po, cost = fight_odds(P, seat)
    defend = 1.0 + 0.5 * missing(P, seat)
    return pk * bonus + pd * defend + px * 1.0 + pf * 0.5 + pg * 0.3 - po * over - stay * cost


@njit(cache=True)
def decide(prm, P, S, q, seat, a, b, legal):
    if q == Q_ACTION or q == Q_FIGHT_AGAIN:
        return playbook.fight_answer(q, P[RAIDER_N] > 0 and fight_value(prm, P, seat) >= prm[2])
    return playbook.answer(P, q, seat, a, legal, prm[0], prm[3], 1.0)
