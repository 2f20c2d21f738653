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

from kiai.simcore.obs import active_count
from kiai.simcore.questions import ACT_FIGHT, ACT_PASS, ACT_SUPPORT, Q_ACTION, Q_FIGHT_AGAIN
from kiai.strategies.helpers import playbook
from kiai.strategies.base import Param, Strategy
from kiai.strategies.counter import fights
from kiai.strategies.helpers.sense import seat_danger

STRATEGY = Strategy(
    "team",
    "Team player: fights like the counter, but lends its talent (Support) and aims gives and Kiai effects at the samurai in most danger.",
    (
        Param("risk", 0.3, 0.0, 1.0, False, "highest counted chance of being overcome by the next card it accepts"),
        Param("need", 0.2, 0.0, 1.0, False, "added to that threshold while it lacks a defence symbol"),
        Param("help", 1.0, 0.0, 5.0, False, "how useful a loan of its talent must be to Support instead of passing"),
        Param("team", 1.2, 0.0, 3.0, False, "weight of a teammate's gain against its own"),
        Param("stay", 1.0, 0.0, 5.0, False, "weight of the penalty paid next turn for the card it keeps"),
    ),
    counts=True,
)
params = STRATEGY.reader()
KIAI_BONUS = 2.5


@njit(cache=True)
def wants_fight(p, pub, seat):
    # the counter's rule, nothing added for a round's last cards, 0.5 when it is the last one in
    return fights(pub, seat, p.risk, p.need, 0.0, 0.5, p.stay)


@njit(cache=True)
def support_target(p, pub, seat, legal):
    """The samurai to lend the talent to, or -1: only with cards enough left for the loan to
    matter (a Support sends one to the intruder stack)."""
    if pub.raider_n <= 2 * active_count(pub):
        return -1
    best = -1
    bv = p.help
    for t in range(pub.n):
        if (legal >> (ACT_SUPPORT + t)) & 1:
            v = p.team * playbook.token_value(pub, seat, t) * (1.0 + 0.2 * seat_danger(pub, t))
            if v > bv:
                bv = v
                best = t
    return best


@njit(cache=True)
def decide(prm, pub, mem, q, seat, a, b, legal):
    p = params(prm)
    if q == Q_ACTION:
        if (legal >> ACT_FIGHT) & 1 and wants_fight(p, pub, seat):
            return ACT_FIGHT
        t = support_target(p, pub, seat, legal)
        return ACT_SUPPORT + t if t >= 0 else ACT_PASS
    if q == Q_FIGHT_AGAIN:
        return 1 if wants_fight(p, pub, seat) else 0
    return playbook.answer(pub, q, seat, a, legal, KIAI_BONUS, p.stay, p.team)
