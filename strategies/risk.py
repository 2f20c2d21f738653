"""`risk`: the risk manager. Its appetite for risk follows the state of the game: it takes
the counted chance of being overcome (section 12) against a threshold that shrinks as the
barricades, farmsteads and families run out and as the round's cost of leaving cards grows
(later rounds carry lieutenants and bosses), and it takes no risk at all when the penalty it
would pay next turn could kill (a samurai one wound from death) or when an overcome would
destroy the last farmstead.

Parameters: risk (threshold with the village intact), caution (how fast it shrinks with
losses), late (added for the last cards of a round), stay.
"""

from numba import njit

from kiai.simcore.questions import Q_ACTION, Q_FIGHT_AGAIN
from kiai.strategies.helpers import playbook
from kiai.strategies.base import Param, Strategy
from kiai.strategies.helpers.reasoning import fight_rule
from kiai.strategies.helpers.sense import STAY_CHANCE, fight_within, within


def fighting_params(risk: float) -> tuple[Param, ...]:
    """The parameters wants_fight reads, first in the declaration of every strategy that fights
    by it (`risk`, `keeper`); only the default threshold differs."""
    return (
        Param("risk", risk, 0.0, 1.0, False, "threshold on the chance of being overcome with the village intact"),
        Param("caution", 0.5, 0.0, 5.0, False, "how fast the threshold shrinks with the village's losses"),
        Param("late", 0.2, 0.0, 1.0, False, "added for the last cards of a round, or when it is the last one in"),
        Param("stay", 1.0, 0.0, 5.0, False, "weight of the penalty paid next turn for the card it keeps"),
    )


STRATEGY = Strategy(
    "risk",
    "Risk manager: its risk threshold shrinks as barricades, farmsteads and families fall; no risk when a wound or an overcome could end the game.",
    fighting_params(risk=0.45),
    counts=True,
)
params = STRATEGY.reader()
KIAI_BONUS = 2.5


@njit(cache=True)
def wants_fight(p, pub, seat):
    """Fight now? (p: a parameter record with the fields of fighting_params)"""
    if pub.raider_n == 0:
        return False
    forced, theta, strict = fight_rule(p, pub, seat)
    if forced != 0:
        return forced > 0
    return fight_within(pub, seat, theta, STAY_CHANCE * p.stay, strict)


@njit(cache=True)
def fights_counted(p, pub, rule, odds):
    """wants_fight's answer from its rule (fight_rule) and the count (sense.fight_odds) already
    made, for a caller that needs both anyway (learned's features): the same answer, since
    fight_within's shortcut is taken only where the count agrees with it."""
    if pub.raider_n == 0:
        return False
    forced, theta, strict = rule
    if forced != 0:
        return forced > 0
    return within(odds, theta, STAY_CHANCE * p.stay, strict)


@njit(cache=True)
def decide(prm, pub, mem, q, seat, a, b, legal):
    p = params(prm)
    asked = q == Q_ACTION or q == Q_FIGHT_AGAIN
    return playbook.fight_or_answer(pub, q, seat, a, legal, asked and wants_fight(p, pub, seat), KIAI_BONUS, p.stay)
