"""Kiai: triggers, activation and the seven effects (section 5, R-10, R-10a/b/c, R-11).

Triggers are flags (S_PENDING) set whenever a total lands exactly on the Kiai value; resolve()
then activates them in seat order starting from the acting samurai, including triggers raised
while resolving (R-10). No recursion: an effect only moves cards and sets flags.
"""

import numpy as np
from numba import njit

from simcore.codes import (
    DAISUKE,
    GOROBEI,
    HEIHACHI,
    KANBEI,
    KATSUSHIRO,
    KIKUCHIYO,
    KYUZO,
)
from simcore.ask import ask
from simcore.combat import confront, defend
from simcore.layout import (
    K_TRACE,
    ACTING,
    CARD_CONFRONT,
    CARD_DEFEND,
    EV_DAISUKE,
    EV_INTRUDER_TO_DISCARD,
    EV_KATSU,
    EV_KIAI,
    EV_KIAI_SHED,
    EV_KIKU,
    EV_KYUZO_TOKEN,
    EV_TOP_TO_DISCARD,
    EV_TRIGGER_SKIPPED,
    GAME_OVER,
    HAND,
    INTRUDER_N,
    K_KIAI,
    KIAI_DECLINE,
    KIAI_EFFECT,
    KNOWN,
    KNOWN_N,
    N,
    Q_DAISUKE,
    Q_HEAL,
    Q_KATSU,
    Q_KIAI,
    Q_KIKU,
    Q_KYUZO,
    Q_PLACE,
    RAIDER,
    RAIDER_N,
    S_HOLDER,
    S_KIAI,
    S_LINE_N,
    S_PASSED,
    S_PENDING,
    S_SAM,
    S_TOTAL,
    S_WOUND,
)
from simcore.obs import can_defend, sb
from simcore.village import add_barricade, heal, trigger_check
from simcore.zones import (
    discard_push,
    draw_top,
    intruder_pop,
    line_pop_first,
    line_pop_last,
    log,
    refresh_known,
)


@njit(cache=True)
def _in_round(P, s):
    return P[sb(s) + S_PASSED] == 0


@njit(cache=True)
def _daisuke(g, s):
    """Take the last card of a line and give it to another samurai, who places it (R-10b)."""
    P = g[0]
    n = P[N]
    legal = 1  # option 0: no use
    for src in range(n):
        if _in_round(P, src) and P[sb(src) + S_LINE_N] > 0:
            for dst in range(n):
                if dst != src and _in_round(P, dst):
                    legal |= 1 << (src * 8 + dst)
    ch = ask(g, Q_DAISUKE, s, 0, 0, legal)
    if ch == 0:
        return
    src = ch // 8
    dst = ch % 8
    c = line_pop_last(P, src)
    if g[2][K_TRACE]:
        log(g, EV_DAISUKE, src, dst, c, 0)
    trigger_check(P, src)
    place = 1 << CARD_CONFRONT
    if can_defend(P, dst, c):
        place |= 1 << CARD_DEFEND
    P[HAND] = c
    ch = ask(g, Q_PLACE, dst, c, 0, place)
    P[HAND] = -1
    if ch == CARD_DEFEND:
        defend(g, dst, c)
    else:
        confront(g, dst, c)


@njit(cache=True)
def _kikuchiyo(g, s):
    P = g[0]
    legal = 1
    for t in range(P[N]):
        if _in_round(P, t) and P[sb(t) + S_LINE_N] > 0:
            legal |= 1 << (1 + t)
    ch = ask(g, Q_KIKU, s, 0, 0, legal)
    if ch == 0:
        return
    t = ch - 1
    c = line_pop_last(P, t)
    discard_push(P, c)
    if g[2][K_TRACE]:
        log(g, EV_KIKU, t, c, 0, 0)
    trigger_check(P, t)  # "after a card is taken from his line by another's Kiai"


@njit(cache=True)
def _kyuzo(g, s):
    P = g[0]
    n = P[N]
    legal = 1
    for giver in range(n):
        if _in_round(P, giver) and P[sb(giver) + S_HOLDER] == giver:
            for rec in range(n):
                if rec != giver and _in_round(P, rec):
                    legal |= 1 << (giver * 8 + rec)
    ch = ask(g, Q_KYUZO, s, 0, 0, legal)
    if ch == 0:
        return
    giver = ch // 8
    rec = ch % 8
    P[sb(giver) + S_HOLDER] = rec
    if g[2][K_TRACE]:
        log(g, EV_KYUZO_TOKEN, giver, rec, 0, 0)


_PERMS = (
    (0, 1, 2),
    (0, 2, 1),
    (1, 0, 2),
    (1, 2, 0),
    (2, 0, 1),
    (2, 1, 0),
)


@njit(cache=True)
def _katsushiro(g, s, k):
    """R-10c: look at up to k top cards, choose their order; they become known (public)."""
    P = g[0]
    H = g[1]
    k = min(k, P[RAIDER_N])
    if k == 0:
        return
    P[KNOWN_N] = max(P[KNOWN_N], k)
    refresh_known(g)
    nperm = 1
    for i in range(2, k + 1):
        nperm *= i
    ch = ask(g, Q_KATSU, s, k, 0, (1 << nperm) - 1)
    # answer = permutation index; new order (top first) is old[perm[i]]. With two cards the
    # permutations are (0, 1) and (1, 0), i.e. _PERMS[0] and _PERMS[2].
    perm = _PERMS[ch] if k == 3 else _PERMS[2 * ch]
    top = P[RAIDER_N] - 1
    olds = np.empty(3, dtype=np.int64)
    for i in range(k):
        olds[i] = H[RAIDER + top - i]
    for i in range(k):
        H[RAIDER + top - i] = olds[perm[i]]
    refresh_known(g)
    if g[2][K_TRACE]:
        log(g, EV_KATSU, k, P[KNOWN], P[KNOWN + 1] if k > 1 else -1, P[KNOWN + 2] if k > 2 else -1)


@njit(cache=True)
def _effect(g, s):
    P = g[0]
    b = sb(s)
    sam = P[b + S_SAM]
    animal = P[b + S_WOUND] >= 2
    if sam == HEIHACHI:
        add_barricade(g)
        if animal:
            legal = 1
            for t in range(P[N]):
                w = P[sb(t) + S_WOUND]
                if w == 1 or w == 3:
                    legal |= 1 << (1 + t)
            ch = ask(g, Q_HEAL, s, 0, 0, legal)
            if ch > 0:
                heal(g, ch - 1)
    elif sam == DAISUKE:
        _daisuke(g, s)
        if animal and P[GAME_OVER] == 0:
            _daisuke(g, s)
    elif sam == GOROBEI:
        for _ in range(3 if animal else 2):
            if P[RAIDER_N] == 0:
                break
            c = draw_top(g)
            discard_push(P, c)
            if g[2][K_TRACE]:
                log(g, EV_TOP_TO_DISCARD, c, 0, 0, 0)
    elif sam == KANBEI:
        for _ in range(3 if animal else 2):
            if P[INTRUDER_N] == 0:
                break
            c = intruder_pop(g)
            discard_push(P, c)
            if g[2][K_TRACE]:
                log(g, EV_INTRUDER_TO_DISCARD, c, 0, 0, 0)
    elif sam == KIKUCHIYO:
        _kikuchiyo(g, s)
        if animal:
            _kikuchiyo(g, s)
    elif sam == KYUZO:
        _kyuzo(g, s)
        if animal:
            add_barricade(g)
    elif sam == KATSUSHIRO:
        _katsushiro(g, s, 3 if animal else 2)


@njit(cache=True)
def resolve(g):
    """Resolve pending Kiai triggers in seat order from the acting samurai (R-10); triggers
    raised meanwhile join the queue in that same order (R-10d)."""
    P = g[0]
    n = P[N]
    while P[GAME_OVER] == 0:
        s = -1
        for k in range(n):
            t = (P[ACTING] + k) % n
            if P[sb(t) + S_PENDING]:
                s = t
                break
        if s < 0:
            return
        b = sb(s)
        P[b + S_PENDING] = 0
        # the total may have moved since the trigger; a passed samurai never triggers
        if P[b + S_PASSED] or P[b + S_TOTAL] != P[b + S_KIAI]:
            continue
        ch = ask(g, Q_KIAI, s, 0, 0, 7)
        if ch == KIAI_DECLINE:
            if g[2][K_TRACE]:
                log(g, EV_TRIGGER_SKIPPED, s, 0, 0, 0)
            continue
        g[2][K_KIAI] += 1
        if g[2][K_TRACE]:
            log(g, EV_KIAI, s, ch, 0, 0)
        if ch == KIAI_EFFECT:
            _effect(g, s)
            if P[GAME_OVER]:
                return
        if P[b + S_LINE_N] > 0:
            c = line_pop_first(P, s)  # the oldest card always goes (section 5)
            discard_push(P, c)
            if g[2][K_TRACE]:
                log(g, EV_KIAI_SHED, s, c, P[b + S_TOTAL], 0)
