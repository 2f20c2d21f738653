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

from kiai.simcore.codes import GOROBEI, KANBEI, PEN_WOUND
from kiai.simcore.obs import active_count, defend_mask, talent_mask
from kiai.simcore.questions import Q_ACTION, Q_FIGHT_AGAIN
from kiai.simcore.unseen import pen_count
from kiai.strategies.helpers import playbook
from kiai.strategies.base import Param, Strategy
from kiai.strategies.helpers.inlining import hot
from kiai.strategies.helpers.sense import LOST, STAY_CHANCE, fight_within, missing, symbol_cost, within


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


@njit(cache=True, inline=hot)
def _deadly_odds(pub, s):
    """Chance the next card, kept in s's line, wounds s at his next turn, when that kills.
    Counted by bin (value, symbol) from the engine's unseen counts (section 12); a card with
    two wound penalties counts twice, which only matters as more than zero."""
    if pub.wound[s] < 3:
        return 0.0
    tm = talent_mask(pub, s)
    ign_even = (tm >> GOROBEI) & 1 == 1
    ign_odd = (tm >> KANBEI) & 1 == 1
    need = defend_mask(pub, s)
    k = 0
    for v in range(1, 7):
        if ign_odd if v % 2 else ign_even:
            continue
        for sym in range(4):
            b = v * 4 + sym
            if sym == 0 or (need >> (sym - 1)) & 1 == 0:
                k += pen_count(pub.bin_pens[b, 0], pub.bin_pens[b, 1], PEN_WOUND)
    u = pub.raider_n + pub.intruder_n  # the unseen cards
    return k / u if u > 0 else 0.0


@njit(cache=True)
def fight_rule(p, pub, seat):
    """The rule wants_fight applies: (forced, theta, strict). forced 1: fight whatever the
    odds, -1: never, 0: fight while the counted chance of being overcome is at most theta
    less the penalty of the card kept (sense.fight_within; with strict, no chance at all)."""
    for slot in range(3):
        if pub.defence[seat, slot] < 0 and symbol_cost(pub, seat, slot) >= LOST:
            return 1, 0.0, False  # without that symbol the end of the round loses the game (section 9)
    if pub.wound[seat] >= 3 and _deadly_odds(pub, seat) > 0.0:
        return -1, 0.0, False
    lost = (pub.barricades_max - pub.barricades) / max(pub.barricades_max, 1) + (6 - pub.farmsteads) / 6.0 + (3 - pub.families) / 3.0
    theta = p.risk / (1.0 + p.caution * lost)
    a = active_count(pub)
    if pub.raider_n <= 2 * a or a == 1:
        theta += p.late
    if missing(pub, seat) > 0:
        theta += 0.15
    # no chance of an overcome at all when it would destroy the last farmstead
    return 0, theta, pub.barricades == 0 and pub.farmsteads <= 1


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
