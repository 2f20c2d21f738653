"""`keeper`: keeps its defence slots for the cards that hurt. A confronted card's penalty is
paid at the start of each of its holder's turns while it is the last card of his line
(section 3), and a defended card costs nothing; so the slot of a symbol is best spent on a
card whose penalty is dear, and a harmless card of that symbol is better confronted when the
symbol is still likely to come again before the round ends (counted from the unseen cards,
section 12) and when confronting it covers a dear last card. Fight and pass as `risk` does.

Parameters: risk, caution, late, stay (as `risk`), keep (weight of a slot kept open for a
dearer card), capacity (what a point of margin is worth).
"""

import numpy as np
from numba import njit

from kiai.simcore.questions import CARD_CONFRONT, CARD_DEFEND, Q_ACTION, Q_CARD, Q_FIGHT_AGAIN, Q_PLACE
from kiai.strategies import risk
from kiai.strategies.helpers import playbook
from kiai.strategies.base import Param, Strategy
from kiai.strategies.helpers.reasoning import KIAI_BONUS, confront_score

STRATEGY = Strategy(
    "keeper",
    "Slot keeper: fights like the risk manager, but keeps its defence slots for cards with dear penalties and confronts harmless ones that cover its last card.",
    (
        *risk.fighting_params(risk=0.8),
        Param("keep", 1.0, 0.0, 5.0, False, "weight of a defence slot kept open for a card with a dearer penalty"),
        Param("capacity", 0.15, 0.0, 2.0, False, "what a point of margin under the Kiai is worth (in barricades)"),
    ),
    counts=True,
)
params = STRATEGY.reader()


@njit(cache=True)
def confront_instead(p, pub, s, c):
    """True when s should confront card c although he could defend it: the slot stays open
    for a dearer card of its symbol, and c covers his last card."""
    return confront_score(p, pub, s, c) > 0.0


@njit(cache=True)
def fight_counted(p, pub, q, rule, odds):
    """decide's answer to Q_ACTION or Q_FIGHT_AGAIN, from the fighting rule (reasoning.fight_rule)
    and the count (sense.fight_odds) that learned works out for its features anyway."""
    return playbook.fight_answer(q, risk.fights_counted(p, pub, rule, odds))


@njit(cache=True)
def card_answer(p, pub, s, c, legal, values, score):
    """decide's answer to Q_CARD from the option values (playbook.option_values, of at least the
    options playbook.card_options weighs) and confront_score (NaN: not worked out yet). learned
    works both out for its features anyway."""
    ch = playbook.best_option(playbook.card_options(pub, s, c, legal), values)
    if ch != CARD_DEFEND or (legal >> CARD_CONFRONT) & 1 == 0:
        return ch
    if score != score:
        score = confront_score(p, pub, s, c)
    return CARD_CONFRONT if score > 0.0 else ch


@njit(cache=True)
def decide(prm, pub, mem, q, seat, a, b, legal):
    p = params(prm)
    if q == Q_ACTION or q == Q_FIGHT_AGAIN:
        return playbook.fight_answer(q, risk.wants_fight(p, pub, seat))
    if q == Q_CARD:
        options = playbook.card_options(pub, seat, a, legal)
        return card_answer(p, pub, seat, a, legal, playbook.option_values(pub, seat, a, options, KIAI_BONUS, p.stay, 1.0),
                           np.nan)
    if q == Q_PLACE and (legal >> CARD_DEFEND) & 1 and confront_instead(p, pub, seat, a):
        return CARD_CONFRONT
    return playbook.answer(pub, q, seat, a, legal, KIAI_BONUS, p.stay, 1.0)
