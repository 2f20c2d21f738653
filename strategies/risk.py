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

from simcore.codes import GOROBEI, KANBEI, PEN_WOUND
from simcore.layout import (
    BARR,
    BARR_MAX,
    FAMS,
    FARMS,
    INTRUDER_N,
    Q_ACTION,
    Q_FIGHT_AGAIN,
    RAIDER_N,
    S_DEF,
    S_WOUND,
    U_PEN,
)
from simcore.obs import sb, talent_mask
from simcore.unseen import pen_count
from strategies import playbook
from strategies.sense import LOST, active_count, defend_mask, fight_within, missing, symbol_cost

KIAI_BONUS = 2.5


@njit(cache=True)
def _deadly_odds(P, s):
    """Chance the next card, kept in s's line, wounds s at his next turn, when that kills.
    Counted by bin (value, symbol) from the engine's unseen counts (section 12); a card with
    two wound penalties counts twice, which only matters as more than zero."""
    if P[sb(s) + S_WOUND] < 3:
        return 0.0
    tm = talent_mask(P, s)
    ign_even = (tm >> GOROBEI) & 1 == 1
    ign_odd = (tm >> KANBEI) & 1 == 1
    need = defend_mask(P, s)
    k = 0
    for v in range(1, 7):
        if ign_odd if v % 2 else ign_even:
            continue
        for sym in range(4):
            b = v * 4 + sym
            if sym == 0 or (need >> (sym - 1)) & 1 == 0:
                k += pen_count(P[U_PEN + 2 * b], P[U_PEN + 2 * b + 1], PEN_WOUND)
    u = P[RAIDER_N] + P[INTRUDER_N]  # the unseen cards
    return k / u if u > 0 else 0.0


@njit(cache=True)
def wants_fight(prm, P, seat):
    if P[RAIDER_N] == 0:
        return False
    risk, caution, late, stay = prm[0], prm[1], prm[2], prm[3]
    for slot in range(3):
        if P[sb(seat) + S_DEF + slot] < 0 and symbol_cost(P, seat, slot) >= LOST:
            return True  # without that symbol the end of the round loses the game (section 9)
    if P[sb(seat) + S_WOUND] >= 3 and _deadly_odds(P, seat) > 0.0:
        return False
    lost = (P[BARR_MAX] - P[BARR]) / max(P[BARR_MAX], 1) + (6 - P[FARMS]) / 6.0 + (3 - P[FAMS]) / 3.0
    theta = risk / (1.0 + caution * lost)
    a = active_count(P)
    if P[RAIDER_N] <= 2 * a or a == 1:
        theta += late
    if missing(P, seat) > 0:
        theta += 0.15
    # no chance of an overcome at all when it would destroy the last farmstead
    return fight_within(P, seat, theta, 0.1 * stay, P[BARR] == 0 and P[FARMS] <= 1)


@njit(cache=True)
def decide(prm, P, S, q, seat, a, b, legal):
    if q == Q_ACTION or q == Q_FIGHT_AGAIN:
        return playbook.fight_answer(q, wants_fight(prm, P, seat))
    return playbook.answer(P, q, seat, a, legal, KIAI_BONUS, prm[3], 1.0)
