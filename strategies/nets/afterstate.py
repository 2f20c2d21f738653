"""The table an answer leads to: what `selfplay` (strategies.selfplay) values its answers by.

An afterstate is the public table just after an answer, before anything hidden is read: after
Pass, the samurai is out; after Support, his token is lent and the top card has gone to the
intruder stack; after Fight (or Kikuchiyo's second fight, or Katsushiro's redraw), the samurai is
about to draw; after a card is placed, it lies in its line or on the defence side; after a give,
the neighbour holds it. As for the 2048 players, one value per answer, and chance is left to the
value: the draw a Fight leads to is what the value of "about to draw" has learned to expect.

The features read the public table only (R-19), seats clockwise from the samurai whose turn it
is, and the multiset of unseen cards (section 12). An edit (ED_*) names what the answer changes;
after_features writes the features of the table with that edit applied, so that playing and
training (the rows self-play writes) fill the same vector by the same function.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from kiai.simcore.codes import MAX_SEATS, N_SAMURAI_KINDS, PENALTIES
from kiai.simcore.obs import ignores, popcount
from kiai.simcore.unseen import pen_count
from kiai.strategies.helpers.collect import next_row, room
from kiai.strategies.nets.forecast import N_F, board_part, forecast
from kiai.simcore.questions import (
    ACT_FIGHT,
    ACT_PASS,
    CARD_CONFRONT,
    CARD_DEFEND,
    CARD_GIVE_LEFT,
    CARD_KYUZO,
    CARD_REDRAW,
    Q_ACTION,
    Q_CARD,
)

N_PEN = len(PENALTIES) - 1  # penalty codes past "none"

# the edit: what an answer changes (-1: nothing of that kind)
ED_PHASE = 0  # PH_*: what comes next
ED_KEEP = 1  # 1: the card about to be drawn must be kept (R-7c, after a redraw)
ED_PSEAT = 2  # PH_CARD: the seat holding the card ...
ED_PCARD = 3  # ... and the card
ED_PASS = 4  # a seat that passes
ED_TOKEN = 5  # the seat the acting samurai lends his token to (Support)
ED_CONF_SEAT = 6  # a confront: the seat ...
ED_CONF_CARD = 7  # ... and the card
ED_DEF_SEAT = 8  # a card defended: the seat ...
ED_DEF_CARD = 9  # ... and the card
ED_BACK = 10  # a card put back under the raider stack (Katsushiro's redraw)
ED_DISCARD = 11  # a card discarded (Kyuzo)
ED_DRAWN = 12  # the card just drawn from the raider stack (taken out of the unseen counts by the caller)
ED_EXTRA = 13  # 1: that card is Kikuchiyo's second fight's (R-7b)
N_ED = 14

PH_TURN_OVER = 0  # the fight (or the turn) is over
PH_DRAW = 1  # the acting samurai is about to draw a card
PH_CARD = 2  # a samurai holds a card he must place (a give)

# the unseen multiset, counted once per question (unseen_counts)
U_N, U_V, U_SYM, U_FLAMES, U_PEN = 0, 1, 7, 10, 11
N_U = U_PEN + N_PEN

# the table's own features: first those no answer changes, then those an answer may change (DYN
# on: the ones after_delta writes again), then the card a give leaves in a neighbour's hand (CARD
# on: written only for such an answer)
_STATIC = (
    ["round1", "round2", "round3", "families", "farm_penalties", "family_bonuses"]
    + [f"team{k}" for k in range(2, MAX_SEATS + 1)]
    + ["absent_on", "absent_left", "unseen_n"]
    + [f"unseen_v{v}" for v in range(1, 7)]
    + ["unseen_hat", "unseen_farm", "unseen_doll", "unseen_flames"]
    + [f"unseen_pen{p}" for p in range(1, N_PEN + 1)]
    + [f"backs{k}" for k in range(4)]
    + [f"family{k}" for k in range(3)]
    + ["no_defend", "no_support", "must_pass", "no_talent", "extra_fight"]
)
_DYNAMIC = (
    ["barricades", "barricade_room", "farmsteads", "raider_n", "intruder_n", "discard_n", "known_n", "known_value",
     "intruder_flames_expected", "barricades_net", "fought", "turn_over", "draw", "card", "keep"]
    # what the end of the round will cost as the boards stand (section 9), and the room left
    + ["no_hat", "no_farm", "no_doll", "farm_margin", "family_margin", "still_in", "room", "cards_per_seat",
       "near_death", "worst_wound"]
)
_CARD = (
    ["card_value", "card_hat", "card_farm", "card_doll", "card_flame"]
    + [f"card_pen{p}" for p in range(1, N_PEN + 1)]
    + [f"card_seat{k}" for k in range(MAX_SEATS)]
    + ["card_over", "card_kiai", "card_defends"]
)
_GLOBAL = _STATIC + _DYNAMIC + _CARD
_SEAT = (
    ["present", *(f"samurai{k}" for k in range(N_SAMURAI_KINDS)), *(f"wound{k}" for k in range(4)), "kiai",
     "total", "gap", "at_kiai", "over_kiai", "passed", "line_n", "first_value", "hat", "farm", "doll",
     "own_token", "tokens", "last_value", "last_ignored", *(f"last_pen{p}" for p in range(1, N_PEN + 1)),
     "p_over", "p_kiai", "p_defend"]
)
NAMES = tuple(_GLOBAL + [f"seat{k}.{name}" for k in range(MAX_SEATS) for name in _SEAT])
N_GLOBAL = len(_GLOBAL)
N_SEAT = len(_SEAT)
N_AFTER = len(NAMES)
SCHEMA = "after-v1:" + ",".join(NAMES)
# the widest layers of selfplay's value (its record's fields, strategies.selfplay): a narrower first
# layer is worked out to its own width only, a narrower second one is zero-padded
H1 = 128
H2 = 16
_G = {name: i for i, name in enumerate(_GLOBAL)}
_S = {name: i for i, name in enumerate(_SEAT)}
# positions numba reads as constants
DYN, CARD = len(_STATIC), len(_STATIC) + len(_DYNAMIC)
G_ROUND, G_TEAM, G_UNSEEN, G_UV, G_USYM, G_UPEN = (_G["round1"], _G["team2"], _G["unseen_n"], _G["unseen_v1"],
                                                   _G["unseen_hat"], _G["unseen_pen1"])
G_FAMS, G_BACKS, G_TURN = _G["families"], _G["backs0"], _G["no_defend"]
G_FORECAST = _G["no_hat"]
G_FARMSTEADS, G_RAIDER_N = _G["farmsteads"], _G["raider_n"]  # the afterstate's, which the forecast reads
G_CSEAT, G_COVER = _G["card_seat0"], _G["card_over"]
S_WOUND, S_KIAI, S_HAT, S_TOKEN, S_LAST, S_PEN, S_P = (_S["wound0"], _S["kiai"], _S["hat"], _S["own_token"],
                                                      _S["last_value"], _S["last_pen1"], _S["p_over"])


@njit(cache=True)
def unseen_counts(pub, u):
    """The unseen multiset (section 12) into u[:N_U]: how many, by value, by symbol, flames and
    penalty codes, read off the engine's bins (simcore.unseen: selfplay counts) rather than card
    by card."""
    for i in range(N_U):
        u[i] = 0
    w0 = 0
    w1 = 0
    for v in range(7):
        for sym in range(4):
            b = v * 4 + sym
            k = pub.bin_n[b]
            u[U_N] += k
            if v >= 1:
                u[U_V + v - 1] += k
            if sym >= 1:
                u[U_SYM + sym - 1] += k
            w0 += pub.bin_pens[b, 0]
            w1 += pub.bin_pens[b, 1]
    u[U_FLAMES] = pub.bin_flames
    for p in range(N_PEN):
        u[U_PEN + p] = pen_count(w0, w1, p + 1)


@njit(cache=True, inline="always")
def count_card(pub, u, c, k):
    """Add card c to the unseen counts u k times (k -1 takes it out)."""
    u[U_N] += k
    v = pub.value[c]
    if 1 <= v <= 6:
        u[U_V + v - 1] += k
    sym = pub.symbol[c]
    if sym > 0:
        u[U_SYM + sym - 1] += k
    u[U_FLAMES] += k * pub.flame[c]
    if pub.pen1[c] > 0:
        u[U_PEN + pub.pen1[c] - 1] += k
    if pub.pen2[c] > 0:
        u[U_PEN + pub.pen2[c] - 1] += k


@njit(cache=True)
def new_edit(ed):
    """No edit: the table as it stands, the fight (or turn) over."""
    for i in range(N_ED):
        ed[i] = -1
    ed[ED_PHASE] = PH_TURN_OVER
    ed[ED_KEEP] = 0
    ed[ED_EXTRA] = 0


@njit(cache=True)
def edit_for(pub, q, seat, a, answer, ed):
    """The edit of answer `answer` to question q (Q_ACTION, Q_CARD or Q_FIGHT_AGAIN) asked of
    `seat` with argument a (the card in hand, for Q_CARD)."""
    new_edit(ed)
    if q == Q_ACTION:
        if answer == ACT_PASS:
            ed[ED_PASS] = seat
        elif answer == ACT_FIGHT:
            ed[ED_PHASE] = PH_DRAW
        else:
            ed[ED_TOKEN] = answer - 2
    elif q == Q_CARD:
        if answer == CARD_CONFRONT:
            ed[ED_CONF_SEAT] = seat
            ed[ED_CONF_CARD] = a
        elif answer == CARD_DEFEND:
            ed[ED_DEF_SEAT] = seat
            ed[ED_DEF_CARD] = a
        elif answer == CARD_REDRAW:
            ed[ED_BACK] = a
            ed[ED_PHASE] = PH_DRAW
            ed[ED_KEEP] = 1
        elif answer == CARD_KYUZO:
            ed[ED_DISCARD] = a
        else:
            n = pub.n
            ed[ED_PHASE] = PH_CARD
            ed[ED_PSEAT] = (seat + 1) % n if answer == CARD_GIVE_LEFT else (seat + n - 1) % n
            ed[ED_PCARD] = a
    elif answer == 1:  # Q_FIGHT_AGAIN: yes
        ed[ED_PHASE] = PH_DRAW


@njit(cache=True, inline="always")
def _ignored(pub, s, v):
    """R-4: s's own talent or an absent token lent to him ignores penalties of value v's parity
    (a support token counts only in its holder's own turn: not in the table an answer leaves)."""
    return ignores((1 << pub.samurai[s]) | pub.lent[s], v)


# what each seat adds to the end-of-round forecast (_seat's, kept per seat by a question): N_F numbers


@njit(cache=True)
def after_features(pub, u, ed, x, parts):
    """The features of the table with edit ed applied into x[:N_AFTER]; u is unseen_counts(pub).
    parts[s] gets what seat s adds to the forecast (for after_delta)."""
    for i in range(N_AFTER):
        x[i] = 0.0
    back = ed[ED_BACK]
    if back >= 0:  # the redrawn card is unseen again, under the raider stack
        count_card(pub, u, back, 1)
    _static(pub, u, x)
    if ed[ED_EXTRA] > 0:
        x[G_TURN + 4] = 1.0  # as pub.extra_fight will say once the second fight is under way
    nxt = _dynamic(pub, u, ed, x)
    n = pub.n
    for k in range(n):
        s = (pub.acting + k) % n
        _seat(pub, u, ed, k, s, nxt, x, parts[s])
    _forecast(pub, parts, x)
    _card(pub, ed, x)
    if back >= 0:  # u is the question's: leave it as it was
        count_card(pub, u, back, -1)


@njit(cache=True)
def touched(pub, ed):
    """The seats whose boards edit ed changes (a mask), or -1 when it changes what every seat
    counts on (the unseen cards, or the next card)."""
    if ed[ED_BACK] >= 0 or (ed[ED_TOKEN] >= 0 and pub.known_n > 0):
        return -1
    m = 0
    for f in (ED_PASS, ED_CONF_SEAT, ED_DEF_SEAT, ED_TOKEN):
        if ed[f] >= 0:
            m |= 1 << ed[f]
    if ed[ED_TOKEN] >= 0:
        m |= 1 << pub.acting
    return m


@njit(cache=True)
def union(m, n):
    """The seats two edits touch together (-1: everything)."""
    return -1 if m < 0 or n < 0 else m | n


@njit(cache=True)
def after_delta(pub, u, ed, m, card, x, parts):
    """after_features for edit ed, over the features of a reference table (x, and parts for the
    forecast, hold after_features of the reference edit), writing only what the two edits may
    change: x[DYN:CARD], the card in hand (x[CARD:N_GLOBAL]) when `card` (either edit is a give),
    and the boards of the seats in m (the union of both edits' touched(); -1: everything), the
    ranges written() lists."""
    if m < 0:
        after_features(pub, u, ed, x, parts)
        return
    for i in range(DYN, CARD):
        x[i] = 0.0
    nxt = _dynamic(pub, u, ed, x)
    n = pub.n
    for k in range(n):
        s = (pub.acting + k) % n
        if (m >> s) & 1:
            o = N_GLOBAL + k * N_SEAT
            for i in range(o, o + N_SEAT):
                x[i] = 0.0
            _seat(pub, u, ed, k, s, nxt, x, parts[s])
    _forecast(pub, parts, x)
    if card:
        for i in range(CARD, N_GLOBAL):
            x[i] = 0.0
        _card(pub, ed, x)


@njit(cache=True)
def written(pub, m, card, k):
    """The k-th range of x that after_delta(..., m, card, ...) wrote, as (lo, hi); (0, 0) past
    the last."""
    if m < 0:
        return (0, N_AFTER) if k == 0 else (0, 0)
    if k == 0:
        return DYN, CARD
    if card:
        if k == 1:
            return CARD, N_GLOBAL
        k -= 1
    n = pub.n
    for j in range(n):
        if (m >> ((pub.acting + j) % n)) & 1:
            if k == 1:
                return N_GLOBAL + j * N_SEAT, N_GLOBAL + (j + 1) * N_SEAT
            k -= 1
    return 0, 0


@njit(cache=True)
def _static(pub, u, x):
    """The features no answer changes (but a redraw's unseen card)."""
    n = pub.n
    r = pub.round_no
    if 1 <= r <= 3:
        x[G_ROUND + r - 1] = 1.0
    x[G_FAMS] = pub.families
    x[G_FAMS + 1] = pub.farm_penalties
    x[G_FAMS + 2] = pub.family_bonuses
    x[G_TEAM + n - 2] = 1.0
    i = G_TEAM + MAX_SEATS - 1
    x[i] = pub.absent_on
    x[i + 1] = popcount(pub.absent_avail)  # absent tokens left
    x[G_UNSEEN] = u[U_N]
    for v in range(6):
        x[G_UV + v] = u[U_V + v]
    for k in range(3):
        x[G_USYM + k] = u[U_SYM + k]
    x[G_USYM + 3] = u[U_FLAMES]
    for p in range(N_PEN):
        x[G_UPEN + p] = u[U_PEN + p]
    for k in range(4):
        x[G_BACKS + k] = pub.backs_left[k]
    for k in range(3):
        x[G_BACKS + 4 + k] = (pub.family_mask >> k) & 1
    o = G_TURN
    x[o] = pub.no_defend
    x[o + 1] = pub.no_support
    x[o + 2] = pub.must_pass
    x[o + 3] = pub.no_talent
    x[o + 4] = pub.extra_fight


@njit(cache=True)
def _dynamic(pub, u, ed, x):
    """The table's features an answer may change, but the forecast (x[DYN:G_FORECAST]); returns
    the next card if it is known (R-19), else -1."""
    support = ed[ED_TOKEN] >= 0
    drawn = ed[ED_DRAWN] >= 0
    raider_n = pub.raider_n + (ed[ED_BACK] >= 0) - support - drawn
    barricades = pub.barricades
    farmsteads = pub.farmsteads
    cs = ed[ED_CONF_SEAT]
    if cs >= 0 and pub.total[cs] + pub.value[ed[ED_CONF_CARD]] > pub.kiai[cs]:
        if barricades > 0:  # overcome
            barricades -= 1
        elif farmsteads > 0:
            farmsteads -= 1
    o = DYN
    x[o] = barricades
    x[o + 1] = pub.barricades_max - barricades
    x[o + 2] = farmsteads
    x[o + 3] = raider_n
    x[o + 4] = pub.intruder_n + support
    x[o + 5] = pub.discard_n + (ed[ED_DISCARD] >= 0)
    # Katsushiro's known cards stay on top (a redraw goes under them, a support or a draw takes
    # the top one)
    took = 1 if (support or drawn) and pub.known_n > 0 else 0
    known_n = pub.known_n - took
    nxt = -1
    if known_n > 0:
        nxt = pub.known[took]
    x[o + 6] = known_n
    x[o + 7] = pub.value[nxt] if nxt >= 0 else 0.0
    un = u[U_N]
    # the intruder stack's flames burn barricades at the end of the round (section 9, step 4)
    flames = (pub.intruder_n + support) * u[U_FLAMES] / un if un > 0 else 0.0
    x[o + 8] = flames
    x[o + 9] = barricades - flames
    phase = ed[ED_PHASE]
    x[o + 10] = 1.0 if pub.fought or phase == PH_DRAW or drawn else 0.0  # a card drawn was fought for
    x[o + 11 + phase] = 1.0
    x[o + 14] = ed[ED_KEEP]
    return nxt


@njit(cache=True)
def _card(pub, ed, x):
    """The card a give leaves in a neighbour's hand (x[CARD:N_GLOBAL], zero otherwise)."""
    if ed[ED_PHASE] != PH_CARD:
        return
    n = pub.n
    c = ed[ED_PCARD]
    s = ed[ED_PSEAT]
    v = pub.value[c]
    x[CARD] = v
    sym = pub.symbol[c]
    if sym > 0:
        x[CARD + sym] = 1.0
    x[CARD + 4] = pub.flame[c]
    if pub.pen1[c] > 0:
        x[CARD + 5 + pub.pen1[c] - 1] = 1.0
    if pub.pen2[c] > 0:
        x[CARD + 5 + pub.pen2[c] - 1] = 1.0
    x[G_CSEAT + (s - pub.acting + n) % n] = 1.0
    gap = pub.kiai[s] - pub.total[s]
    x[G_COVER] = 1.0 if v > gap else 0.0
    x[G_COVER + 1] = 1.0 if v == gap else 0.0
    x[G_COVER + 2] = 1.0 if sym > 0 and pub.defence[s, sym - 1] < 0 else 0.0


@njit(cache=True)
def _seat(pub, u, ed, k, s, nxt, x, part):
    """Seat s's board, k places clockwise from the acting samurai, with edit ed applied; what it
    adds to the forecast into part[:N_F]."""
    a = pub.acting
    n = pub.n
    o = N_GLOBAL + k * N_SEAT
    support = ed[ED_TOKEN] >= 0
    conf = ed[ED_CONF_CARD] if s == ed[ED_CONF_SEAT] else -1
    dc = ed[ED_DEF_CARD] if s == ed[ED_DEF_SEAT] else -1
    passed = 1 if pub.passed[s] or s == ed[ED_PASS] else 0
    kv = pub.kiai[s]
    t = pub.total[s] + (pub.value[conf] if conf >= 0 else 0)
    ln = pub.line_n[s] + (conf >= 0)
    x[o] = 1.0
    x[o + 1 + pub.samurai[s]] = 1.0
    w = pub.wound[s]
    if w < 4:
        x[o + S_WOUND + w] = 1.0
    x[o + S_KIAI] = kv
    x[o + S_KIAI + 1] = t
    gap = kv - t
    x[o + S_KIAI + 2] = gap
    x[o + S_KIAI + 3] = 1.0 if t == kv else 0.0
    x[o + S_KIAI + 4] = 1.0 if t > kv else 0.0
    x[o + S_KIAI + 5] = passed
    x[o + S_KIAI + 6] = ln
    if ln > 0:
        x[o + S_KIAI + 7] = pub.value[pub.line[s, 0]] if pub.line_n[s] > 0 else pub.value[conf]
    miss = 0
    for d in range(3):
        held = pub.defence[s, d] >= 0 or (dc >= 0 and pub.symbol[dc] == d + 1)
        x[o + S_HAT + d] = 1.0 if held else 0.0
        if not held:
            miss |= 1 << d
    home = pub.holder[s] == s and not (s == a and support)
    x[o + S_TOKEN] = 1.0 if home else 0.0
    held = 0
    for v in range(n):
        h = ed[ED_TOKEN] if v == a and support else pub.holder[v]
        held += h == s
    x[o + S_TOKEN + 1] = held
    last = conf if conf >= 0 else (pub.line[s, pub.line_n[s] - 1] if pub.line_n[s] > 0 else -1)
    if last >= 0:
        lv = pub.value[last]
        x[o + S_LAST] = lv
        x[o + S_LAST + 1] = 1.0 if _ignored(pub, s, lv) else 0.0
        if pub.pen1[last] > 0:
            x[o + S_PEN + pub.pen1[last] - 1] = 1.0
        if pub.pen2[last] > 0:
            x[o + S_PEN + pub.pen2[last] - 1] = 1.0
    # the next card's odds for him: overcome, land on the Kiai, fill a missing symbol
    un = u[U_N]
    if nxt >= 0:
        nv = pub.value[nxt]
        x[o + S_P] = 1.0 if nv > gap else 0.0
        x[o + S_P + 1] = 1.0 if nv == gap else 0.0
        sym = pub.symbol[nxt]
        x[o + S_P + 2] = 1.0 if sym > 0 and (miss >> (sym - 1)) & 1 else 0.0
    elif un > 0:
        over = 0
        for v in range(max(gap, 0), 6):
            over += u[U_V + v]
        x[o + S_P] = over / un
        x[o + S_P + 1] = u[U_V + gap - 1] / un if 1 <= gap <= 6 else 0.0
        fill = 0
        for d in range(3):
            if (miss >> d) & 1:
                fill += u[U_SYM + d]
        x[o + S_P + 2] = fill / un
    board_part(miss, passed, gap, w, part)


@njit(cache=True, inline="always")
def _forecast(pub, parts, x):
    """The end-of-round forecast (strategies.nets.forecast) of the afterstate written into x."""
    forecast(parts, pub.n, x[G_FARMSTEADS], pub.families, x[G_RAIDER_N], x, G_FORECAST)


# a teacher's row (strategies.teacher): the game's index, the question's count in the game, the
# answer's place among the teacher's candidates (0: its base's own), whether the teacher gave it,
# the teacher's estimate of it (a chance to win), then the answer's afterstate's features
T_GAME, T_QUESTION, T_RANK, T_CHOSEN, T_ESTIMATE = range(5)
CHOSEN_BEST, CHOSEN_PLAYED = 1.0, 2.0  # T_CHOSEN's bits: the teacher's best answer, the answer played
TEACH_WIDTH = 5 + N_AFTER


@njit(cache=True)
def teach_rows(pub, mem, question, cand, k, est, best, played):
    """Write a teacher's rows for the question in mem into its label buffer: one for each answer
    cand[i] (i < k), with the teacher's estimate est[i] and the features selfplay reads for it
    (edit_for, then after_features: what selfplay's self-play rows hold); best: the index of the
    answer the teacher found best, `played` the answer the game goes on with (the teacher's, or
    the default's where it follows it), as bits of T_CHOSEN (CHOSEN_BEST, CHOSEN_PLAYED). Answers
    that do not fit in the buffer are left out whole."""
    if not room(mem, k):
        return
    u = np.empty(N_U, dtype=np.int64)
    ed = np.empty(N_ED, dtype=np.int64)
    parts = np.empty((MAX_SEATS, N_F), dtype=np.int64)
    x = np.empty(N_AFTER, dtype=np.float32)  # as selfplay's scratch holds them
    unseen_counts(pub, u)
    for i in range(k):
        edit_for(pub, mem.q, mem.seat, mem.a, cand[i], ed)
        after_features(pub, u, ed, x, parts)
        row = next_row(mem, TEACH_WIDTH)
        row[T_GAME] = mem.game
        row[T_QUESTION] = question
        row[T_RANK] = i
        row[T_CHOSEN] = (CHOSEN_BEST if i == best else 0.0) + (CHOSEN_PLAYED if cand[i] == played else 0.0)
        row[T_ESTIMATE] = est[i]
        for j in range(N_AFTER):
            row[5 + j] = x[j]
