"""`keeper`: keeps its defence slots for the cards that hurt. A confronted card's penalty is
paid at the start of each of its holder's turns while it is the last card of his line
(section 3), and a defended card costs nothing; so the slot of a symbol is best spent on a
card whose penalty is dear, and a harmless card of that symbol is better confronted when the
symbol is still likely to come again before the round ends (counted from the unseen cards,
section 12) and when confronting it covers a dear last card. Fight and pass as `risk` does.

Parameters: risk, caution, late, stay (as `risk`), keep (weight of a slot kept open for a
dearer card), capacity (what a point of margin is worth).
"""

from numba import njit

from simcore.layout import (
    C_SYM,
    C_VALUE,
    CARD_CONFRONT,
    CARD_DEFEND,
    INTRUDER_N,
    Q_ACTION,
    Q_CARD,
    Q_FIGHT_AGAIN,
    Q_PLACE,
    RAIDER_N,
    U_BIN,
    U_PEN,
)
from simcore.obs import ignores, margin, talent_mask
from strategies import playbook, risk
from strategies.sense import active_count, kept_cost, last_card, packed_cost, state_costs, symbol_cost

KIAI_BONUS = 2.5


@njit(cache=True)
def _symbol_outlook(P, sym, tm, cb, cw, cnd):
    """Of the unseen cards with symbol sym: how many, and what their penalties would cost on
    average as a last card of a samurai with talents tm and state costs (cb, cw, cnd), counted
    by bin (section 12; the bins' packed penalty counts add up without carries, so the cost is
    worked out once)."""
    n = 0
    w0 = 0
    w1 = 0
    for v in range(1, 7):
        b = v * 4 + sym
        n += P[U_BIN + b]
        if not ignores(tm, v):
            w0 += P[U_PEN + 2 * b]
            w1 += P[U_PEN + 2 * b + 1]
    if n == 0:
        return 0, 0.0
    return n, packed_cost(w0, w1, cb, cw, cnd) / n


@njit(cache=True)
def confront_instead(prm, P, s, c):
    """True when s should confront card c although he could defend it: the slot stays open
    for a dearer card of its symbol, and c covers his last card."""
    keep, capacity = prm[4], prm[5]
    v = P[C_VALUE + c]
    m = margin(P, s)
    if v > m:
        return False
    if P[RAIDER_N] == 0:
        return False
    a = max(active_count(P), 1)
    tm = talent_mask(P, s)
    cb, cw, cnd = state_costs(P, s)
    # the penalty he pays at his next turn, if the round lasts that long
    p_next = 1.0 if P[RAIDER_N] >= a else 0.0
    pay = p_next * (kept_cost(P, last_card(P, s), tm, cb, cw, cnd) - kept_cost(P, c, tm, cb, cw, cnd))
    # a Kiai sheds the oldest card and fires its effect; short of it, margin is spent
    gain = KIAI_BONUS if v == m else -capacity * v
    return pay + gain + keep * slot_wait(P, s, P[C_SYM + c], a, tm, cb, cw, cnd) > 0.0


@njit(cache=True)
def slot_wait(P, s, sym, a, tm, cb, cw, cnd):
    """What leaving s's slot for symbol sym open is worth against filling it now, with a
    samurai still in the round (s has talents tm and state costs cb, cw, cnd): the dear
    penalty a later card of that symbol would not cost (it is defended instead of
    confronted), less the symbol's cost at the end of the round if none comes."""
    u = P[RAIDER_N] + P[INTRUDER_N]
    if u == 0 or P[RAIDER_N] == 0:
        return -symbol_cost(P, s, sym - 1)
    n, dear = _symbol_outlook(P, sym, tm, cb, cw, cnd)
    draws = min(P[RAIDER_N] / a, 8.0)
    q = 1.0 - (1.0 - n / u) ** draws  # he meets another card of the symbol
    return q * dear - (1.0 - q) * symbol_cost(P, s, sym - 1)


@njit(cache=True)
def decide(prm, P, S, q, seat, a, b, legal):
    if q == Q_ACTION or q == Q_FIGHT_AGAIN:
        return playbook.fight_answer(q, risk.wants_fight(prm, P, seat))
    if q == Q_CARD:
        ch = playbook.card_choice(P, seat, a, legal, KIAI_BONUS, prm[3], 1.0)
        if ch != CARD_DEFEND:
            return ch
        if (legal >> CARD_CONFRONT) & 1 and confront_instead(prm, P, seat, a):
            return CARD_CONFRONT
        return ch
    if q == Q_PLACE and (legal >> CARD_DEFEND) & 1 and confront_instead(prm, P, seat, a):
        return CARD_CONFRONT
    return playbook.answer(P, q, seat, a, legal, KIAI_BONUS, prm[3], 1.0)
