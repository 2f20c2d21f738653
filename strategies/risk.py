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

from simcore.codes import PEN_WOUND
from simcore.layout import (
    BARR,
    BARR_MAX,
    C_PEN1,
    C_PEN2,
    FAMS,
    FARMS,
    N_CARDS,
    Q_ACTION,
    Q_FIGHT_AGAIN,
    RAIDER_N,
    S_WOUND,
    UNSEEN,
)
from simcore.obs import can_defend, may_ignore, sb
from strategies import playbook
from strategies.sense import F_OVER, active_count, fight_odds, missing

KIAI_BONUS = 2.5


@njit(cache=True)
def _deadly_odds(P, s):
    """Chance the next card, kept in s's line, wounds s at his next turn, when that kills."""
    if P[sb(s) + S_WOUND] < 3:
        return 0.0
    k = 0
    u = 0
    for c in range(P[N_CARDS]):
        if P[UNSEEN + c]:
            u += 1
            if not can_defend(P, s, c) and not may_ignore(P, s, c) and (P[C_PEN1 + c] == PEN_WOUND or P[C_PEN2 + c] == PEN_WOUND):
                k += 1
    return k / u if u > 0 else 0.0


@njit(cache=True)
def wants_fight(prm, P, seat):
    if P[RAIDER_N] == 0:
        return False
    risk, caution, late, stay = prm[0], prm[1], prm[2], prm[3]
    if _deadly_odds(P, seat) > 0.0:
        return False
    odds = fight_odds(P, seat)
    po = odds[F_OVER]
    if P[BARR] == 0 and P[FARMS] <= 1 and po > 0.0:
        return False
    lost = (P[BARR_MAX] - P[BARR]) / max(P[BARR_MAX], 1) + (6 - P[FARMS]) / 6.0 + (3 - P[FAMS]) / 3.0
    theta = risk / (1.0 + caution * lost)
    a = active_count(P)
    if P[RAIDER_N] <= 2 * a or a == 1:
        theta += late
    if missing(P, seat) > 0:
        theta += 0.15
    theta -= 0.1 * stay * odds[6]
    return po <= theta


@njit(cache=True)
def decide(prm, P, S, q, seat, a, b, legal):
    if q == Q_ACTION or q == Q_FIGHT_AGAIN:
        return playbook.fight_answer(q, wants_fight(prm, P, seat))
    return playbook.answer(P, q, seat, a, legal, KIAI_BONUS, prm[3], 1.0)
