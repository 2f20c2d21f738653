"""Kiai: triggers, activation and the seven effects (section 5, R-10, R-10a/b/c, R-11).

Triggers are flags (pub.pending) set whenever a total lands exactly on the Kiai value; resolve()
then activates them in seat order starting from the acting samurai, including triggers raised
while resolving (R-10). No recursion: an effect only moves cards and sets flags.
"""

from numba import njit

from kiai.simcore.codes import DAISUKE, GOROBEI, HEIHACHI, KANBEI, KATSUSHIRO, KIKUCHIYO, KYUZO
from kiai.simcore.combat import confront, defend
from kiai.simcore.events import (
    EV_DAISUKE,
    EV_INTRUDER_TO_DISCARD,
    EV_KATSU,
    EV_KIAI,
    EV_KIAI_SHED,
    EV_KIKU,
    EV_KYUZO_TOKEN,
    EV_TOP_TO_DISCARD,
    EV_TRIGGER_SKIPPED,
    log,
)
from kiai.simcore.gateway import ask
from kiai.simcore.obs import can_defend
from kiai.simcore.questions import (
    CARD_CONFRONT,
    CARD_DEFEND,
    KIAI_DECLINE,
    KIAI_EFFECT,
    Q_DAISUKE,
    Q_HEAL,
    Q_KATSU,
    Q_KIAI,
    Q_KIKU,
    Q_KYUZO,
    Q_PLACE,
)
from kiai.simcore.village import add_barricade, heal, trigger_check
from kiai.simcore.zones import discard_push, draw_top, intruder_pop, line_pop_first, line_pop_last, refresh_known

# Katsushiro's orders (Q_KATSU answers): the new order, top first, is old[perm[i]]; with two
# cards the permutations are (0, 1) and (1, 0), i.e. PERMS[0] and PERMS[2].
PERMS = ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))


@njit(cache=True, inline="always")
def _daisuke(g, s):
    """Take the last card of a line and give it to another samurai, who places it (R-10b)."""
    pub = g[0]
    n = pub.n
    legal = 1  # option 0: no use
    for src in range(n):
        if pub.passed[src] == 0 and pub.line_n[src] > 0:
            for dst in range(n):
                if dst != src and pub.passed[dst] == 0:
                    legal |= 1 << (src * 8 + dst)
    ch = ask(g, Q_DAISUKE, s, 0, 0, legal)
    if ch == 0:
        return
    src = ch // 8
    dst = ch % 8
    c = line_pop_last(pub, src)
    log(g, EV_DAISUKE, src, dst, c, 0)
    trigger_check(pub, src)
    place = 1 << CARD_CONFRONT
    if can_defend(pub, dst, c):
        place |= 1 << CARD_DEFEND
    pub.hand = c
    ch = ask(g, Q_PLACE, dst, c, 0, place)
    pub.hand = -1
    if ch == CARD_DEFEND:
        defend(g, dst, c)
    else:
        confront(g, dst, c)


@njit(cache=True, inline="always")
def _kikuchiyo(g, s):
    pub = g[0]
    legal = 1
    for t in range(pub.n):
        if pub.passed[t] == 0 and pub.line_n[t] > 0:
            legal |= 1 << (1 + t)
    ch = ask(g, Q_KIKU, s, 0, 0, legal)
    if ch == 0:
        return
    t = ch - 1
    c = line_pop_last(pub, t)
    discard_push(pub, c)
    log(g, EV_KIKU, t, c, 0, 0)
    trigger_check(pub, t)  # "after a card is taken from his line by another's Kiai"


@njit(cache=True, inline="always")
def _kyuzo(g, s):
    pub = g[0]
    n = pub.n
    legal = 1
    for giver in range(n):
        if pub.passed[giver] == 0 and pub.holder[giver] == giver:
            for rec in range(n):
                if rec != giver and pub.passed[rec] == 0:
                    legal |= 1 << (giver * 8 + rec)
    ch = ask(g, Q_KYUZO, s, 0, 0, legal)
    if ch == 0:
        return
    giver = ch // 8
    rec = ch % 8
    pub.holder[giver] = rec
    log(g, EV_KYUZO_TOKEN, giver, rec, 0, 0)


@njit(cache=True, inline="always")
def _katsushiro(g, s, k):
    """R-10c: look at up to k top cards, choose their order; they become known (public)."""
    pub = g[0]
    raider = g[1].raider
    k = min(k, pub.raider_n)
    if k == 0:
        return
    pub.known_n = max(pub.known_n, k)
    refresh_known(g)
    nperm = 1
    for i in range(2, k + 1):
        nperm *= i
    ch = ask(g, Q_KATSU, s, k, 0, (1 << nperm) - 1)
    perm = PERMS[ch] if k == 3 else PERMS[2 * ch]
    top = pub.raider_n - 1
    old = (raider[top], raider[top - 1], raider[top - 2] if k == 3 else -1)
    for i in range(k):
        raider[top - i] = old[perm[i]]
    refresh_known(g)
    log(g, EV_KATSU, k, pub.known[0], pub.known[1] if k > 1 else -1, pub.known[2] if k > 2 else -1)


@njit(cache=True)
def _effect(g, s):
    pub = g[0]
    sam = pub.samurai[s]
    animal = pub.wound[s] >= 2
    if sam == HEIHACHI:
        add_barricade(g)
        if animal:
            legal = 1
            for t in range(pub.n):
                w = pub.wound[t]
                if w == 1 or w == 3:
                    legal |= 1 << (1 + t)
            ch = ask(g, Q_HEAL, s, 0, 0, legal)
            if ch > 0:
                heal(g, ch - 1)
    elif sam == DAISUKE:
        _daisuke(g, s)
        if animal and pub.game_over == 0:
            _daisuke(g, s)
    elif sam == GOROBEI:
        for _ in range(3 if animal else 2):
            if pub.raider_n == 0:
                break
            c = draw_top(g)
            discard_push(pub, c)
            log(g, EV_TOP_TO_DISCARD, c, 0, 0, 0)
    elif sam == KANBEI:
        for _ in range(3 if animal else 2):
            if pub.intruder_n == 0:
                break
            c = intruder_pop(g)
            discard_push(pub, c)
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
    """Resolve pending Kiai triggers in seat order from the acting samurai (R-10), from seat 0
    in the end-of-round steps, between turns (R-10e); triggers raised meanwhile wait their turn
    in that same order (R-10d, R-10e)."""
    pub = g[0]
    n = pub.n
    first = 0 if pub.round_end_steps else pub.acting
    while pub.game_over == 0:
        s = -1
        for k in range(n):
            t = (first + k) % n
            if pub.pending[t]:
                s = t
                break
        if s < 0:
            return
        pub.pending[s] = 0
        # the total may have moved since the trigger; a passed samurai never triggers,
        # but in the end-of-round steps under V-4 `on` he does
        if (pub.passed[s] and pub.round_end_steps == 0) or pub.total[s] != pub.kiai[s]:
            continue
        ch = ask(g, Q_KIAI, s, 0, 0, 7)
        if ch == KIAI_DECLINE:
            log(g, EV_TRIGGER_SKIPPED, s, 0, 0, 0)
            continue
        g[2].kiai += 1
        log(g, EV_KIAI, s, ch, 0, 0)
        if ch == KIAI_EFFECT:
            _effect(g, s)
            if pub.game_over:
                return
        if pub.line_n[s] > 0:
            c = line_pop_first(pub, s)  # the oldest card always goes (section 5)
            discard_push(pub, c)
            log(g, EV_KIAI_SHED, s, c, pub.total[s], 0)
