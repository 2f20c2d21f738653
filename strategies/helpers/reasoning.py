"""keeper's reasoning, which learned's features show beside keeper's answers (strategies.nets.features):
the fighting rule that `risk` and `keeper` fight by (fight_rule: forced either way, or the threshold
on the counted chance of being overcome), and keeper's score for confronting a card rather than
defending it (confront_score, with what a defence slot left open is worth: slot_wait). The players
(strategies.risk, strategies.keeper) and the features import them from here, so that the features
import no player.
"""

from numba import njit

from kiai.simcore.codes import GOROBEI, KANBEI, PEN_WOUND
from kiai.simcore.obs import active_count, defend_mask, ignores, last_card, margin, talent_mask
from kiai.simcore.unseen import pen_count
from kiai.strategies.helpers.inlining import hot
from kiai.strategies.helpers.sense import LOST, kept_cost, missing, packed_cost, state_costs, symbol_cost

KIAI_BONUS = 2.5  # keeper's: what a Kiai is worth (in barricades) when confronting a card lands on it


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


@njit(cache=True, inline=hot)
def _symbol_outlook(pub, sym, tm, cb, cw, cnd):
    """Of the unseen cards with symbol sym: how many, and what their penalties would cost on
    average as a last card of a samurai with talents tm and state costs (cb, cw, cnd), counted
    by bin (section 12; the bins' packed penalty counts add up without carries, so the cost is
    worked out once)."""
    n = 0
    w0 = 0
    w1 = 0
    for v in range(1, 7):
        b = v * 4 + sym
        n += pub.bin_n[b]
        if not ignores(tm, v):
            w0 += pub.bin_pens[b, 0]
            w1 += pub.bin_pens[b, 1]
    if n == 0:
        return 0, 0.0
    return n, packed_cost(w0, w1, cb, cw, cnd) / n


@njit(cache=True)
def confront_score(p, pub, s, c):
    """How much confronting c beats defending it, for s (confront_instead: above 0); -1e9 when
    confronting it cannot be better (it overcomes him, or the round is over)."""
    v = pub.value[c]
    m = margin(pub, s)
    if v > m:
        return -1e9
    if pub.raider_n == 0:
        return -1e9
    a = max(active_count(pub), 1)
    tm = talent_mask(pub, s)
    cb, cw, cnd = state_costs(pub, s)
    # the penalty he pays at his next turn, if the round lasts that long
    p_next = 1.0 if pub.raider_n >= a else 0.0
    pay = p_next * (kept_cost(pub, last_card(pub, s), tm, cb, cw, cnd) - kept_cost(pub, c, tm, cb, cw, cnd))
    # a Kiai sheds the oldest card and fires its effect; short of it, margin is spent
    gain = KIAI_BONUS if v == m else -p.capacity * v
    return pay + gain + p.keep * slot_wait(pub, s, pub.symbol[c], a, tm, cb, cw, cnd)


@njit(cache=True, inline=hot)
def slot_wait(pub, s, sym, a, tm, cb, cw, cnd):
    """What leaving s's slot for symbol sym open is worth against filling it now, with a
    samurai still in the round (s has talents tm and state costs cb, cw, cnd): the dear
    penalty a later card of that symbol would not cost (it is defended instead of
    confronted), less the symbol's cost at the end of the round if none comes."""
    u = pub.raider_n + pub.intruder_n
    if u == 0 or pub.raider_n == 0:
        return -symbol_cost(pub, s, sym - 1)
    n, dear = _symbol_outlook(pub, sym, tm, cb, cw, cnd)
    draws = min(pub.raider_n / a, 8.0)
    q = 1.0 - (1.0 - n / u) ** draws  # he meets another card of the symbol
    return q * dear - (1.0 - q) * symbol_cost(pub, s, sym - 1)
