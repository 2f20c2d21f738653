"""`counter`: the card counter. It fights while the chance that the next card overcomes it,
counted over the public multiset of unseen cards (section 12), stays below a threshold, and
raises that threshold while it still lacks a defence symbol, when few cards are left and when
it is the last samurai in the round (what nobody takes ends on the intruder stack).

Parameters: risk (base threshold), need, late, last (what each situation adds), stay (weight
of the last card's repeating penalty). Cards in hand and Kiai effects: strategies.helpers.playbook.
"""

from numba import njit

from kiai.simcore.obs import active_count
from kiai.simcore.questions import Q_ACTION, Q_FIGHT_AGAIN
from kiai.strategies.helpers import playbook
from kiai.strategies.base import Param, Strategy
from kiai.strategies.helpers.sense import STAY_CHANCE, fight_within, missing

STRATEGY = Strategy(
    "counter",
    "Card counter: fights while the counted chance that the next card overcomes it stays below a threshold.",
    (
        Param("risk", 0.25, 0.0, 1.0, False, "base threshold: highest chance of being overcome by the next card it accepts"),
        Param("need", 0.15, 0.0, 1.0, False, "added to the threshold while it lacks a defence symbol"),
        Param("late", 0.15, 0.0, 1.0, False, "added when at most two cards per samurai in the round are left"),
        Param("last", 0.5, 0.0, 1.0, False, "added when it is the last samurai in the round"),
        Param("stay", 1.0, 0.0, 5.0, False, "weight of the last card's penalty, paid again every turn it stays in"),
    ),
    counts=True,
)
params = STRATEGY.reader()
KIAI_BONUS = 2.5


@njit(cache=True)
def fights(pub, seat, risk, need, late, last, stay):
    """counter's rule, which `team` fights by too: fight while the counted chance of being
    overcome stays below `risk`, plus `need` while a defence symbol is missing, `late` for the
    last cards of a round and `last` when it is the last samurai in."""
    if pub.raider_n == 0:
        return False
    a = active_count(pub)
    theta = risk
    if missing(pub, seat) > 0:
        theta += need
    if pub.raider_n <= 2 * a:
        theta += late
    if a == 1:
        theta += last
    # fighting means paying a last card's penalty at the next turn; passing pays nothing more
    return fight_within(pub, seat, theta, STAY_CHANCE * stay, False)


@njit(cache=True)
def wants_fight(p, pub, seat):
    return fights(pub, seat, p.risk, p.need, p.late, p.last, p.stay)


@njit(cache=True)
def decide(prm, pub, mem, q, seat, a, b, legal):
    p = params(prm)
    asked = q == Q_ACTION or q == Q_FIGHT_AGAIN
    return playbook.fight_or_answer(pub, q, seat, a, legal, asked and wants_fight(p, pub, seat), KIAI_BONUS, p.stay)
