"""What a player can work out from the public table (docs/rules.md section 12, R-19).

Shared by the heuristic strategies: card counting over the unseen cards, what a samurai would
do with a given card, how bad a card's penalty is as the last card of a line. Everything here
reads pub only.

Counting (section 12): the unseen cards (raider stack and intruder stack together) are a public
multiset. Their split between the two stacks is hidden, so every unseen card is equally likely
to be the next raider card, unless Katsushiro made the top card known. The counts come from the
engine's bins (pub.bin_n, pub.bin_pens, simcore.unseen): a strategy that reads them declares
`counts=True`.
"""

import numpy as np
from numba import njit

from kiai.simcore.codes import (
    DAISUKE,
    GOROBEI,
    HEIHACHI,
    KANBEI,
    KATSUSHIRO,
    KYUZO,
    PEN_BARRICADE,
    PEN_DISCARD_TO_RAIDER,
    PEN_INTRUDER,
    PEN_LEFT_DRAWS,
    PEN_LOSE_DEFENCE,
    PEN_MUST_PASS,
    PEN_NO_DEFEND,
    PEN_NO_TALENT,
    PEN_RIGHT_DRAWS,
    PEN_WOUND,
)
from kiai.simcore.obs import can_defend, defend_mask, ignores, in_round, last_card, left_of, margin, right_of, talent_mask
from kiai.simcore.unseen import pen_count
from kiai.strategies.helpers.inlining import hot

# fight_odds gives the odds of what a samurai does with his next card, best first: defend,
# discard (Kyuzo's talent), kiai (confronted, lands exactly on the Kiai), fit (stays below it),
# give (to a neighbour who can take it), over; then the penalty cost. `over` is read by name:
F_OVER = 5  # confronted above the Kiai: a barricade falls

# the counting heuristics' fighting rules weigh what the card kept last will cost next turn
# against the chance of being overcome now: one barricade's worth of penalty counts as this much
# chance, times their parameter `stay` (1 by default)
STAY_CHANCE = 0.1

# what a penalty costs its holder as a last card (section 7), in barricades, by penalty code;
# barricade, wound and "no defend" depend on the state (state_costs)
# (in tenths, so that the counted odds add them up in integers)
T_INTRUDER = 3
T_DRAWS = 3  # a neighbour draws and confronts
T_MUST_PASS = 6
T_DISCARD_TO_RAIDER = 3
T_NO_TALENT = 2
T_LOSE_DEFENCE = 10
_PEN_TENTHS = (0, 0, 0, T_INTRUDER, 0, 0, T_DRAWS, T_DRAWS, T_MUST_PASS, T_DISCARD_TO_RAIDER, T_NO_TALENT, T_LOSE_DEFENCE)
# a module-level array is a constant to numba: indexed in place, where a tuple indexed by a
# variable is first copied onto the stack at every call
_PEN_FIXED = np.array([t / 10 for t in _PEN_TENTHS])
NO_DEFEND_COST = 0.25
LOST = 40.0  # what a loss that ends the game costs (the last farmstead, family or life)


@njit(cache=True, inline=hot)
def missing(pub, s):
    """Defence symbols s still lacks (0..3): each costs at the end of the round (section 9)."""
    d = pub.defence
    return (d[s, 0] < 0) + (d[s, 1] < 0) + (d[s, 2] < 0)


@njit(cache=True, inline=hot)
def next_known(pub):
    """The next raider card if Katsushiro made it public (R-19), else -1."""
    if pub.known_n > 0 and pub.raider_n > 0:
        return pub.known[0]
    return -1


@njit(cache=True, inline=hot)
def _line_values(pub, s):
    """Bit v set: a card of value v is in s's combat line (Kyuzo's talent)."""
    m = 0
    for i in range(pub.line_n[s]):
        m |= 1 << pub.value[pub.line[s, i]]
    return m


@njit(cache=True, inline=hot)
def _masked(c0, c1, c2, c3, mask):
    """Of c0..c3 cards with symbol 0 (none) .. 3 (doll), those whose symbol bit is set in mask."""
    return c0 * (mask & 1) + c1 * (mask >> 1 & 1) + c2 * (mask >> 2 & 1) + c3 * (mask >> 3 & 1)


@njit(cache=True, inline=hot)
def _fates(v, c0, c1, c2, c3, dmask, kv, m, give, lt_gm, lt_m, rt_gm, rt_m):
    """What becomes of c0..c3 cards of value v and symbol 0..3 (section 4, in this order):
    defended (their symbol bit in dmask), discarded by Kyuzo (v in his line, bit v of kv),
    given to a neighbour who can take them (lt_gm / rt_gm: symbol masks he takes above and up
    to his margin), or kept in the line. Answers (defended, discarded, given, kept, mask of the
    kept symbols)."""
    free = 15 & ~dmask
    n_def = _masked(c0, c1, c2, c3, dmask)
    if (kv >> v) & 1:
        return n_def, _masked(c0, c1, c2, c3, free), 0, 0, 0
    gmask = 0
    if v > m and give:
        gmask = ((lt_gm[0] if v <= lt_m else lt_gm[1]) | (rt_gm[0] if v <= rt_m else rt_gm[1])) & free
        free &= ~gmask
    return n_def, 0, _masked(c0, c1, c2, c3, gmask), _masked(c0, c1, c2, c3, free), free


@njit(cache=True, inline=hot)
def _by_margin(v, m, kept):
    """The kept cards of value v as (on the Kiai, below it, above it) for margin m."""
    if v == m:
        return kept, 0, 0
    if v < m:
        return 0, kept, 0
    return 0, 0, kept


@njit(cache=True, inline=hot)
def card_pens(pub, c, cb, cw, cnd):
    """What card c's two penalties cost, given the state's costs (state_costs)."""
    return _pen_cost(pub.pen1[c], cb, cw, cnd) + _pen_cost(pub.pen2[c], cb, cw, cnd)


@njit(cache=True, inline=hot)
def _fixed_tenths(w0, w1):
    """The fixed penalty costs (_PEN_TENTHS) of packed penalty counts (simcore.unseen), written
    out so that they compile to a handful of integer operations."""
    return (
        T_INTRUDER * pen_count(w0, w1, PEN_INTRUDER)
        + T_DRAWS * (pen_count(w0, w1, PEN_LEFT_DRAWS) + pen_count(w0, w1, PEN_RIGHT_DRAWS))
        + T_MUST_PASS * pen_count(w0, w1, PEN_MUST_PASS)
        + T_DISCARD_TO_RAIDER * pen_count(w0, w1, PEN_DISCARD_TO_RAIDER)
        + T_NO_TALENT * pen_count(w0, w1, PEN_NO_TALENT)
        + T_LOSE_DEFENCE * pen_count(w0, w1, PEN_LOSE_DEFENCE)
    )


@njit(cache=True, inline=hot)
def packed_cost(w0, w1, cb, cw, cnd):
    """What the penalties counted in packed words (simcore.unseen) cost together, given the
    state's costs (state_costs)."""
    return (
        pen_count(w0, w1, PEN_BARRICADE) * cb
        + pen_count(w0, w1, PEN_WOUND) * cw
        + pen_count(w0, w1, PEN_NO_DEFEND) * cnd
        + _fixed_tenths(w0, w1) / 10
    )


# long: one exact count over the unseen cards, whose partial sums the later odds reuse
@njit(cache=True)
def fight_odds(pub, s):
    """The counted odds of s's next draw (section 12) and what it costs him next turn:
    (defend, discard, kiai, fit, give, over, penalty). Every unseen card is equally likely to
    come next, unless Katsushiro made the top card known. With Katsushiro's talent an
    overcoming card is redrawn once, and the fresh card has the same odds again. The penalty
    is the expected cost of the card left last in his line (the drawn one if he keeps it).
    The unseen cards are counted by bin (value, symbol), as the engine keeps them.

    One function of some hundred lines on purpose: it runs at every fight decision of every
    heuristic, and its thirteen running counts stay scalars (registers) through the loop over the
    bins; split into functions they would travel as tuples, and a list would be allocated."""
    m = pub.kiai[s] - pub.total[s]
    tm = talent_mask(pub, s)
    need = defend_mask(pub, s)
    kv = _line_values(pub, s) if (tm >> KYUZO) & 1 else 0
    give_even = (tm >> HEIHACHI) & 1 == 1
    give_odd = (tm >> DAISUKE) & 1 == 1
    ign_even = (tm >> GOROBEI) & 1 == 1
    ign_odd = (tm >> KANBEI) & 1 == 1
    # the neighbours' symbol masks (taken above and up to their margins) count only for a giver
    lt_gm = (0, 0)
    rt_gm = (0, 0)
    lt_m = 0
    rt_m = 0
    if give_even or give_odd:
        lt = left_of(pub, s)
        rt = right_of(pub, s)
        lt_m = margin(pub, lt)
        rt_m = margin(pub, rt)
        if in_round(pub, lt):
            lt_gm = (15, defend_mask(pub, lt) << 1)
        if in_round(pub, rt):
            rt_gm = (15, defend_mask(pub, rt) << 1)
    # worked out once, in scalars (a list would be allocated at every fight decision)
    cb, cw, cnd = state_costs(pub, s)
    last = last_card(pub, s)
    cur = 0.0
    if last >= 0 and not (ign_odd if pub.value[last] % 2 else ign_even):
        cur = card_pens(pub, last, cb, cw, cnd)
    n_def = 0
    n_dis = 0
    n_kiai = 0
    n_fit = 0
    n_give = 0
    n_over = 0
    # the kept cards' penalties: the known card's cost, or the bins' counts added up as packed
    # words (simcore.unseen); and the cards that leave the current last card in place
    known_cost = 0.0
    w0 = 0
    w1 = 0
    ncur = 0
    dmask = need << 1  # symbol masks: bit k for symbol k (0 none .. 3 doll)
    k = next_known(pub)
    if k >= 0:  # only the known card can come next
        u = 1
        v = pub.value[k]
        sym = pub.symbol[k]
        odd = v % 2 == 1
        d, x, g, kept, free = _fates(v, int(sym == 0), int(sym == 1), int(sym == 2), int(sym == 3), dmask, kv, m,
                                     give_odd if odd else give_even, lt_gm, lt_m, rt_gm, rt_m)  # fmt: skip
        n_def, n_dis, n_give, ncur = d, x, g, 1 - kept
        n_kiai, n_fit, n_over = _by_margin(v, m, kept)
        if kept and not (ign_odd if odd else ign_even):
            known_cost = card_pens(pub, k, cb, cw, cnd)
    else:  # the unseen cards by value, from the engine's bins
        u = pub.raider_n + pub.intruder_n
        bins = pub.bin_n
        pens = pub.bin_pens
        for v in range(1, 7):
            bb = v * 4
            c0, c1, c2, c3 = bins[bb], bins[bb + 1], bins[bb + 2], bins[bb + 3]
            tot = c0 + c1 + c2 + c3
            if tot == 0:
                continue
            odd = v % 2 == 1
            d, x, g, kept, free = _fates(v, c0, c1, c2, c3, dmask, kv, m, give_odd if odd else give_even,
                                         lt_gm, lt_m, rt_gm, rt_m)  # fmt: skip
            n_def += d
            n_dis += x
            n_give += g
            a, f, o = _by_margin(v, m, kept)
            n_kiai += a
            n_fit += f
            n_over += o
            ncur += tot - kept
            if kept and not (ign_odd if odd else ign_even):
                f0 = free & 1
                f1 = free >> 1 & 1
                f2 = free >> 2 & 1
                f3 = free >> 3 & 1
                w0 += pens[bb, 0] * f0 + pens[bb + 1, 0] * f1 + pens[bb + 2, 0] * f2 + pens[bb + 3, 0] * f3
                w1 += pens[bb, 1] * f0 + pens[bb + 1, 1] * f1 + pens[bb + 2, 1] * f2 + pens[bb + 3, 1] * f3
    cost = known_cost + packed_cost(w0, w1, cb, cw, cnd) + ncur * cur
    if u == 0:
        return 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, cur
    f_def = n_def / u
    f_dis = n_dis / u
    f_kiai = n_kiai / u
    f_fit = n_fit / u
    f_give = n_give / u
    f_over = n_over / u
    cost /= u
    if k < 0 and (tm >> KATSUSHIRO) & 1 and (pub.redrawn >> s) & 1 == 0 and pub.raider_n > 1:
        # an overcoming card is redrawn once; the fresh card has the same odds again
        po = f_over
        f_def += po * f_def
        f_dis += po * f_dis
        f_kiai += po * f_kiai
        f_fit += po * f_fit
        f_give += po * f_give
        f_over = po * po
    return f_def, f_dis, f_kiai, f_fit, f_give, f_over, cost


@njit(cache=True, inline=hot)
def never_over(pub, s):
    """No card that can come next overcomes s: the known top card, or else every unseen card
    (section 12), is within his margin. fight_odds' chance of being overcome is then 0."""
    m = margin(pub, s)
    k = next_known(pub)
    if k >= 0:
        return pub.value[k] <= m
    bins = pub.bin_n
    for v in range(max(m + 1, 1), 7):
        bb = v * 4
        if bins[bb] + bins[bb + 1] + bins[bb + 2] + bins[bb + 3] > 0:
            return False
    return True


@njit(cache=True)
def fight_within(pub, s, theta, weight, strict):
    """The fighting rule of the counting heuristics: s's counted chance of being overcome
    (fight_odds) is at most theta less `weight` times the penalty of the card he would keep
    last; with `strict`, any chance at all refuses. When no card can overcome him and even
    a card with two of the dearest penalties leaves the threshold non-negative, the answer is
    yes without the count: the same answer, in a fraction of the time (most fights early in
    a round)."""
    if weight >= 0.0 and never_over(pub, s):
        cb, cw, cnd = state_costs(pub, s)
        # no card costs more than two of the dearest penalty (section 7)
        dearest = 2.0 * max(max(cb, cw), max(cnd, _PEN_FIXED[PEN_LOSE_DEFENCE]))
        if theta - weight * dearest * 1.001 >= 0.0:  # 1.001: room for the count's rounding
            return True
    return within(fight_odds(pub, s), theta, weight, strict)


@njit(cache=True, inline=hot)
def within(odds, theta, weight, strict):
    """fight_within's rule on a count already made (odds: fight_odds)."""
    if strict and odds[F_OVER] > 0.0:
        return False
    return odds[F_OVER] <= theta - weight * odds[6]


@njit(cache=True, inline=hot)
def symbol_left(pub, sym):
    """Unseen cards showing symbol sym (1 hat, 2 farm, 3 doll)."""
    k = 0
    for v in range(7):
        k += pub.bin_n[v * 4 + sym]
    return k


@njit(cache=True, inline=hot)
def wound_cost(pub, s):
    """A wound in barricade units: at animal+token the next one kills and loses the game
    (section 6); the second turns the samurai animal, which raises his Kiai, so it is nearly
    free."""
    w = pub.wound[s]
    if w >= 3:
        return LOST
    if w == 2:
        return 2.0
    if w == 1:
        return 0.3
    return 0.6


@njit(cache=True, inline=hot)
def farm_cost(pub):
    """A barricade or farmstead lost: farmsteads are the game (R-15)."""
    if pub.barricades > 0:
        return 1.0
    return LOST if pub.farmsteads <= 1 else 1.5


@njit(cache=True, inline=hot)
def family_cost(pub):
    if pub.families <= 1:
        return LOST
    return 0.1 if pub.round_no == 3 else 3.0  # after the last round only the last one counts


@njit(cache=True, inline=hot)
def symbol_cost(pub, s, slot):
    """What lacking defence slot (0 hat, 1 farm, 2 doll) costs at the end of the round."""
    if slot == 0:
        return wound_cost(pub, s)
    if slot == 1:
        return LOST if pub.farmsteads <= 1 else 1.2
    return family_cost(pub)


@njit(cache=True, inline=hot)
def state_costs(pub, s):
    """The penalty costs that depend on the state: a barricade (or farmstead) lost, a wound to
    s, and "no defend" for s (worth something only while he lacks a symbol)."""
    return farm_cost(pub), wound_cost(pub, s), NO_DEFEND_COST if missing(pub, s) > 0 else 0.0


@njit(cache=True, inline=hot)
def _pen_cost(pen, cb, cw, cnd):
    """What penalty code pen costs its holder, given the state's costs (state_costs)."""
    if pen == PEN_BARRICADE:
        return cb
    if pen == PEN_WOUND:
        return cw
    if pen == PEN_NO_DEFEND:
        return cnd
    return _PEN_FIXED[pen]


@njit(cache=True, inline=hot)
def penalty_cost(pub, s, c):
    """What card c costs s at the start of each of his turns while it is his last card."""
    if c < 0:
        return 0.0
    cb, cw, cnd = state_costs(pub, s)
    return kept_cost(pub, c, talent_mask(pub, s), cb, cw, cnd)


@njit(cache=True, inline=hot)
def kept_cost(pub, c, tm, cb, cw, cnd):
    """penalty_cost for a samurai with talents tm and state costs (cb, cw, cnd), for callers
    that work them out once per decision: nothing for no card or a card whose penalties his
    talents ignore (R-4)."""
    if c < 0 or ignores(tm, pub.value[c]):
        return 0.0
    return card_pens(pub, c, cb, cw, cnd)


@njit(cache=True, inline=hot)
def seat_danger(pub, s):
    """How much s needs help: lacking symbols, a thin margin, wounds."""
    if not in_round(pub, s):
        return -1.0
    m = margin(pub, s)
    d = 0.0
    for slot in range(3):
        if pub.defence[s, slot] < 0:
            d += symbol_cost(pub, s, slot) * 0.5
    if m < 4:
        d += 4 - m
    return d + 0.2 * pub.wound[s]


@njit(cache=True, inline=hot)
def confront_value(pub, s, c, kiai_bonus, stay):
    """Value for s of confronting card c: a Kiai sheds a card, fitting uses margin (and `stay`
    weighs the card's penalty, which s pays every later turn while it is his last card),
    overcoming costs a barricade and ends his round."""
    v = pub.value[c]
    m = margin(pub, s)
    if v == m:
        # the Kiai sheds the oldest card; c stays last and its penalty is paid all the same
        return kiai_bonus - stay * penalty_cost(pub, s, c)
    if v < m:
        return 1.0 - 0.15 * v - stay * penalty_cost(pub, s, c)
    return -1.0 - farm_cost(pub) - 0.5 * v


@njit(cache=True, inline=hot)
def place_value(pub, s, c, kiai_bonus, stay):
    """Value for s of taking card c himself, best placement without talents."""
    if can_defend(pub, s, c):
        return 2.0 + symbol_cost(pub, s, pub.symbol[c] - 1)
    return confront_value(pub, s, c, kiai_bonus, stay)
