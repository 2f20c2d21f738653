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

from kiai.simcore.questions import Q_ACTION, Q_FIGHT_AGAIN
from kiai.strategies.helpers import playbook
from kiai.strategies.base import Param, Strategy
from kiai.strategies.helpers.sense import fight_odds, missing

STRATEGY = Strategy(
    "kiai",
    "Kiai seeker: values each fight by the odds of landing exactly on the Kiai, defending or fitting, against being overcome.",
    (
        Param("bonus", 3.0, 0.0, 10.0, False, "what landing exactly on the Kiai is worth (in barricades)"),
        Param("over", 3.0, 0.0, 10.0, False, "what being overcome costs (in barricades)"),
        Param("edge", 0.0, -3.0, 3.0, False, "fights while the fight's value is at least this"),
        Param("stay", 1.0, 0.0, 5.0, False, "weight of the penalty paid next turn for the card it keeps"),
    ),
    counts=True,
)
params = STRATEGY.reader()


@njit(cache=True)
def fight_value(p, pub, seat):
    pd, px, pk, pf, pg, po, cost = fight_odds(pub, seat)
    defend = 1.0 + 0.5 * missing(pub, seat)
    return pk * p.bonus + pd * defend + px * 1.0 + pf * 0.5 + pg * 0.3 - po * p.over - p.stay * cost


@njit(cache=True)
def decide(prm, pub, mem, q, seat, a, b, legal):
    p = params(prm)
    if q == Q_ACTION or q == Q_FIGHT_AGAIN:
        return playbook.fight_answer(q, pub.raider_n > 0 and fight_value(p, pub, seat) >= p.edge)
    return playbook.answer(pub, q, seat, a, legal, p.bonus, p.stay, 1.0)
