"""Considered answers, from the public table only (R-19), to the decision points of docs/rules.md
section 13 that the heuristic strategies share: penalties, absent tokens, where a card in hand
goes, and every Kiai effect's targets.

Each heuristic strategy decides Fight, Support or Pass (and Kikuchiyo's second fight) its own
way and hands the rest here, with weights that carry its character: `kiai_bonus` (what landing
exactly on the Kiai is worth), `stay` (how much a card's repeating penalty counts) and `team`
(how much a neighbour's need counts when giving or targeting).
"""

from numba import njit
from numba.cpython.unsafe.tuple import tuple_setitem

from kiai.simcore.codes import DAISUKE, GOROBEI, HEIHACHI, KANBEI, KATSUSHIRO, KIKUCHIYO, KYUZO
from kiai.simcore.kiai import PERMS
from kiai.simcore.obs import (
    active_count,
    can_defend,
    defend_mask,
    ignores,
    in_round,
    last_card,
    left_of,
    line_has_value,
    margin,
    popcount,
    right_of,
    talent_mask,
)
from kiai.simcore.questions import (
    ACT_FIGHT,
    ACT_PASS,
    CARD_CONFRONT,
    CARD_DEFEND,
    CARD_GIVE_LEFT,
    CARD_KYUZO,
    CARD_REDRAW,
    KIAI_EFFECT,
    Q_ABSENT,
    Q_ACTION,
    Q_BOSS_ORDER,
    Q_CARD,
    Q_DAISUKE,
    Q_FIGHT_AGAIN,
    Q_HEAL,
    Q_IGNORE,
    Q_KATSU,
    Q_KIAI,
    Q_KIKU,
    Q_KYUZO,
    Q_LOSE_DEF,
    Q_PLACE,
)
from kiai.simcore.unseen import card_bin
from kiai.strategies.helpers.inlining import cold, hot
from kiai.strategies.helpers.sense import (
    confront_value,
    next_known,
    packed_cost,
    penalty_cost,
    place_value,
    seat_danger,
    state_costs,
    symbol_cost,
    symbol_left,
)

# the absent tokens worth most first (section 11): discarding and redrawing save margin,
# ignoring penalties saves barricades and wounds, gives need a neighbour
ABSENT_ORDER = (KYUZO, KATSUSHIRO, GOROBEI, KANBEI, HEIHACHI, DAISUKE, KIKUCHIYO)


@njit(cache=True)  # not inlined: a give is a rare option, and the copies cost seconds of compiling
def _takes(pub, t, c, kiai_bonus, stay):
    """What card c is worth to t if he receives it (a give): his talents included."""
    if can_defend(pub, t, c):
        return 2.0 + symbol_cost(pub, t, pub.symbol[c] - 1)
    v = confront_value(pub, t, c, kiai_bonus, stay)
    if v < 1.5 and (talent_mask(pub, t) >> KYUZO) & 1 and line_has_value(pub, t, pub.value[c]):
        v = 1.5  # Kyuzo discards a card matching his line
    return v


@njit(cache=True)
@cold
def _kiai_or_discard(pub, s, b, kiai_bonus, stay):
    """The unseen cards of bin b (value v = b // 4, landing on Kyuzo's Kiai, v in his line)
    added up as _takes values them: the better of the Kiai, less the card's own penalty, and
    Kyuzo's discard. The better of two does not add up by bin, so the (rare) bin is counted
    card by card."""
    tot = 0.0
    for c in range(pub.n_cards):
        if pub.unseen[c] and card_bin(pub, c) == b:
            tot += max(kiai_bonus - stay * penalty_cost(pub, s, c), 1.5)
    return tot


@njit(cache=True)
@cold
def _redraw_value(pub, s, kiai_bonus, stay):
    """Expected value of a fresh card for s (the card in hand goes under the stack): _takes
    averaged over the unseen cards, counted by bin (value, symbol) from the engine's counts
    (section 12) rather than card by card."""
    k = next_known(pub)
    if k >= 0:
        return _takes(pub, s, k, kiai_bonus, stay)
    need = defend_mask(pub, s)
    m = margin(pub, s)
    tm = talent_mask(pub, s)
    cb, cw, cnd = state_costs(pub, s)
    tot = 0.0
    for v in range(1, 7):
        # Kyuzo discards a card matching his line, worth 1.5, more than any confront but a Kiai
        kyu = (tm >> KYUZO) & 1 == 1 and line_has_value(pub, s, v)
        ign = ignores(tm, v)
        for sym in range(4):
            b = v * 4 + sym
            cnt = pub.bin_n[b]
            if cnt == 0:
                continue
            if sym > 0 and (need >> (sym - 1)) & 1:
                tot += cnt * (2.0 + symbol_cost(pub, s, sym - 1))
            elif v == m and kyu:
                tot += _kiai_or_discard(pub, s, b, kiai_bonus, stay)
            elif v == m:
                tot += cnt * kiai_bonus
                if not ign:
                    tot -= stay * packed_cost(pub.bin_pens[b, 0], pub.bin_pens[b, 1], cb, cw, cnd)
            elif kyu:
                tot += cnt * 1.5
            elif v < m:
                tot += cnt * (1.0 - 0.15 * v)
                if not ign:
                    tot -= stay * packed_cost(pub.bin_pens[b, 0], pub.bin_pens[b, 1], cb, cw, cnd)
            else:
                tot += cnt * (-1.0 - cb - 0.5 * v)
    u = pub.raider_n + pub.intruder_n  # the unseen cards
    return tot / u if u > 0 else -10.0


@njit(cache=True)
def option_value(pub, s, c, opt, kiai_bonus, stay, team):
    """What handling card c in s's hand with option opt (CARD_*) is worth to him: a defence 2
    and what the symbol saves, Kyuzo's discard 1.5, a confront its confront_value, a redraw the
    fresh card's expected value, a give the receiver's value scaled by `team`."""
    if opt == CARD_DEFEND:
        return 2.0 + symbol_cost(pub, s, pub.symbol[c] - 1)
    if opt == CARD_KYUZO:
        return 1.5
    if opt == CARD_CONFRONT:
        return confront_value(pub, s, c, kiai_bonus, stay)
    if opt == CARD_REDRAW:
        return _redraw_value(pub, s, kiai_bonus, stay) - 0.2
    t = left_of(pub, s) if opt == CARD_GIVE_LEFT else right_of(pub, s)
    return team * _takes(pub, t, c, kiai_bonus, stay) - 0.1


@njit(cache=True, inline=hot)
def card_options(pub, s, c, legal):
    """The options card_choice weighs: the legal ones, less a confront when c can be defended and
    would not land on the Kiai (defending is worth 2 or more, confronting short of the Kiai
    less than 1)."""
    if (legal >> CARD_DEFEND) & 1 and pub.value[c] != margin(pub, s):
        return legal & ~(1 << CARD_CONFRONT)
    return legal


@njit(cache=True, inline=hot)
def option_values(pub, s, c, options, kiai_bonus, stay, team):
    """option_value of each option set in `options`, 0 for the others, by CARD_* number."""
    values = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    for opt in range(6):  # a loop, not six calls: numba would compile option_value once per constant
        if (options >> opt) & 1:
            values = tuple_setitem(values, opt, option_value(pub, s, c, opt, kiai_bonus, stay, team))
    return values


@njit(cache=True, inline=hot)
def best_option(options, values):
    """The first of `options` with the highest of `values` (option_values): card_choice's pick."""
    best = CARD_CONFRONT
    bv = -1e9
    for opt in range(6):
        if (options >> opt) & 1 and values[opt] > bv:
            bv = values[opt]
            best = opt
    return best


@njit(cache=True)
def card_choice(pub, s, c, legal, kiai_bonus, stay, team):
    """Where card c in s's hand goes (section 13 point 4-5): each option worth weighing
    (card_options) is valued (option_value) and the best taken."""
    options = card_options(pub, s, c, legal)
    return best_option(options, option_values(pub, s, c, options, kiai_bonus, stay, team))


@njit(cache=True)
@cold
def lose_defence(pub, s, legal):
    """Boss: give up the defence card whose symbol costs least, counting how likely it is to
    come again this round."""
    best = 0
    bv = 1e9
    for slot in range(3):
        if (legal >> slot) & 1:
            v = symbol_cost(pub, s, slot) / (1.0 + 0.2 * symbol_left(pub, slot + 1))
            if v < bv:
                bv = v
                best = slot
    return best


@njit(cache=True)
@cold
def absent_tokens(pub, s, avail):
    """Spread the once-per-game tokens over the rounds: at his first turn of a round a samurai
    takes his share, most useful talents first (section 11)."""
    if pub.turn_no > pub.n:
        return 0
    left = popcount(avail)
    share = (left + 2 * (4 - pub.round_no) - 1) // (2 * (4 - pub.round_no))
    m = 0
    for k in range(7):
        t = ABSENT_ORDER[k]
        if share > 0 and (avail >> t) & 1:
            m |= 1 << t
            share -= 1
    return m


@njit(cache=True)
@cold
def heal_target(pub, legal):
    """Heihachi's animal Kiai: the token holder nearest death."""
    best = 0
    bw = -1
    for t in range(pub.n):
        if (legal >> (1 + t)) & 1 and pub.wound[t] > bw:
            bw = pub.wound[t]
            best = 1 + t
    return best


@njit(cache=True, inline=hot)
def _relief(pub, t, c, kiai_bonus, stay):
    """What taking card c (t's last card) out of t's line is worth to t."""
    after = pub.total[t] - pub.value[c]
    kiai = pub.kiai[t]
    v = 0.15 * pub.value[c] + stay * penalty_cost(pub, t, c)
    if pub.total[t] > kiai and after <= kiai:
        v += 2.0  # back under the Kiai: he may act again
    if after == kiai:
        v += kiai_bonus  # the line drops onto the Kiai: it triggers
    return v


@njit(cache=True)
@cold
def daisuke_target(pub, legal, kiai_bonus, stay, team):
    """Daisuke's Kiai: move the last card of a line to a samurai who places it; taken only
    if the move helps (R-10b)."""
    best = 0
    bv = 0.3
    for src in range(pub.n):
        if not in_round(pub, src) or pub.line_n[src] == 0:
            continue
        c = last_card(pub, src)
        gain = _relief(pub, src, c, kiai_bonus, stay)
        for dst in range(pub.n):
            ch = src * 8 + dst
            if (legal >> ch) & 1 == 0:
                continue
            v = gain + team * _takes(pub, dst, c, kiai_bonus, stay) - 1.0
            if v > bv:
                bv = v
                best = ch
    return best


@njit(cache=True)
@cold
def kikuchiyo_target(pub, legal, kiai_bonus, stay):
    """Kikuchiyo's Kiai: discard the last card whose removal helps most."""
    best = 0
    bv = 0.0
    for t in range(pub.n):
        if (legal >> (1 + t)) & 1:
            v = _relief(pub, t, last_card(pub, t), kiai_bonus, stay) + 0.1 * seat_danger(pub, t)
            if v > bv:
                bv = v
                best = 1 + t
    return best


@njit(cache=True, inline=hot)
def token_value(pub, giver, rec):
    """What the giver's talent is worth to the receiver in his next turn."""
    sam = pub.samurai[giver]
    if (talent_mask(pub, rec) >> sam) & 1:
        return 0.0
    m = margin(pub, rec)
    if sam == KATSUSHIRO or sam == KYUZO:
        return 1.0 + (0.5 if m < 4 else 0.0)
    if sam == GOROBEI or sam == KANBEI:
        c = last_card(pub, rec)
        if c >= 0 and (pub.value[c] % 2 == 0) == (sam == GOROBEI):
            return penalty_cost(pub, rec, c)
        return 0.1
    if sam == HEIHACHI or sam == DAISUKE:
        return 0.5 if m < 4 else 0.2
    if sam == KIKUCHIYO:
        return 0.3 if m >= 6 else 0.0
    return 0.0


@njit(cache=True)
@cold
def kyuzo_target(pub, legal, team):
    """Kyuzo's Kiai: a support token to whoever can use that talent best (R-20)."""
    best = 0
    bv = 0.25
    for ch in range(1, 64):
        if (legal >> ch) & 1 == 0:
            continue
        giver = ch // 8
        rec = ch % 8
        v = team * token_value(pub, giver, rec) * (1.0 + 0.1 * seat_danger(pub, rec))
        if v > bv:
            bv = v
            best = ch
    return best


@njit(cache=True)
@cold
def _draw_order_value(pub, cards, k, kiai_bonus, stay):
    """Value of handing the known top cards, in this order, to the next samurai to draw: the
    acting one, then the others still in, clockwise."""
    n = pub.n
    v = 0.0
    s = pub.acting
    for i in range(k):
        while not in_round(pub, s):
            s = (s + 1) % n
            if s == pub.acting:
                return v
        v += place_value(pub, s, cards[i], kiai_bonus, stay) * (1.0 - 0.2 * i)
        s = (s + 1) % n
    return v


@njit(cache=True)
@cold
def katsushiro_order(pub, k, kiai_bonus, stay):
    """Katsushiro's Kiai: the order of the k known top cards (R-10c) that suits the samurai
    about to draw them. Answers a permutation index, as the engine numbers them."""
    if active_count(pub) == 0:
        return 0
    old = (pub.known[0], pub.known[1], pub.known[2] if k > 2 else -1)
    best = 0
    bv = -1e9
    nperm = 6 if k == 3 else 2
    for ch in range(nperm):
        perm = PERMS[ch] if k == 3 else PERMS[2 * ch]
        cards = (old[perm[0]], old[perm[1]], old[perm[2]] if k > 2 else -1)
        v = _draw_order_value(pub, cards, k, kiai_bonus, stay)
        if v > bv:
            bv = v
            best = ch
    return best


@njit(cache=True, inline=hot)
def fight_answer(q, fight):
    """Fight or Pass (Q_ACTION), or Kikuchiyo's second fight (Q_FIGHT_AGAIN), as a yes/no."""
    if q == Q_ACTION:
        return ACT_FIGHT if fight else ACT_PASS
    return 1 if fight else 0


@njit(cache=True, inline=hot)
def fight_or_answer(pub, q, seat, a, legal, fights, kiai_bonus, stay):
    """The whole decide() of a strategy that fights by a rule of its own and answers the rest by
    the playbook (counter, risk): `fights` is the rule's answer, asked by the caller only at the
    action and Kikuchiyo's second fight (the rule counts cards: no cost elsewhere)."""
    if q == Q_ACTION or q == Q_FIGHT_AGAIN:
        return fight_answer(q, fights)
    return answer(pub, q, seat, a, legal, kiai_bonus, stay, 1.0)


@njit(cache=True)
def answer(pub, q, seat, a, legal, kiai_bonus, stay, team):
    """The shared answer to every decision point but the action and Kikuchiyo's second
    fight (section 13)."""
    if q == Q_CARD:
        return card_choice(pub, seat, a, legal, kiai_bonus, stay, team)
    if q == Q_IGNORE:
        return 1  # no penalty helps
    if q == Q_PLACE:
        return CARD_DEFEND if (legal >> CARD_DEFEND) & 1 else CARD_CONFRONT
    if q == Q_KIAI:
        return KIAI_EFFECT  # every effect helps or has a "none" target
    if q == Q_LOSE_DEF:
        return lose_defence(pub, seat, legal)
    if q == Q_ABSENT:
        return absent_tokens(pub, seat, legal)
    if q == Q_HEAL:
        return heal_target(pub, legal)
    if q == Q_DAISUKE:
        return daisuke_target(pub, legal, kiai_bonus, stay, team)
    if q == Q_KIKU:
        return kikuchiyo_target(pub, legal, kiai_bonus, stay)
    if q == Q_KYUZO:
        return kyuzo_target(pub, legal, team)
    if q == Q_KATSU:
        return katsushiro_order(pub, a, kiai_bonus, stay)
    if q == Q_BOSS_ORDER:
        return 0  # both orders apply the same two penalties; only R-9 can cut the second
    return 0
