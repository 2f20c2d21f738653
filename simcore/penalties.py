"""The battle penalty step: the last card of the acting samurai's combat line (section 7,
R-4, R-5, R-6)."""

from numba import njit

from kiai.simcore.codes import (
    PEN_BARRICADE,
    PEN_DISCARD_TO_RAIDER,
    PEN_INTRUDER,
    PEN_LEFT_DRAWS,
    PEN_LOSE_DEFENCE,
    PEN_MUST_PASS,
    PEN_NO_DEFEND,
    PEN_NO_SUPPORT,
    PEN_NO_TALENT,
    PEN_RIGHT_DRAWS,
    PEN_WOUND,
)
from kiai.simcore.combat import confront
from kiai.simcore.events import (
    EV_DISCARD_TO_RAIDER,
    EV_LOSE_DEFENCE,
    EV_PEN_DRAW,
    EV_PEN_IGNORED,
    EV_PEN_UNABLE,
    EV_PENALTY,
    EV_RANDOM,
    EV_TO_INTRUDER,
    RND_DISCARD,
    STK_BOSS,
    log,
    record_row,
    record_stack,
)
from kiai.simcore.gateway import ask
from kiai.simcore.kiai import resolve
from kiai.simcore.obs import left_of, may_ignore, right_of
from kiai.simcore.questions import Q_BOSS_ORDER, Q_IGNORE, Q_LOSE_DEF
from kiai.simcore.rng import EVK_BOSS, event, pick_index, shuffle_range
from kiai.simcore.unseen import mark_unseen
from kiai.simcore.village import destroy_barricade, wound
from kiai.simcore.zones import defence_take, discard_push, discard_take, draw, round_over, top_to_intruder


@njit(cache=True, inline="always")
def _unable(g, s, pen):
    """R-5: a penalty that cannot be applied wounds the acting samurai instead."""
    log(g, EV_PEN_UNABLE, s, pen, 0, 0)
    wound(g, s)


@njit(cache=True)
def apply_penalty(g, s, c, pen):
    pub = g[0]
    hid = g[1]
    log(g, EV_PENALTY, s, c, pen, 0)
    # ignoring is the strategy's choice, asked per penalty (an earlier "no talent" of the
    # same boss already counts)
    if may_ignore(pub, s, c) and ask(g, Q_IGNORE, s, c, pen, 3) == 1:
        log(g, EV_PEN_IGNORED, s, c, pen, 0)
        return
    if pen == PEN_BARRICADE:
        destroy_barricade(g)
    elif pen == PEN_WOUND:
        wound(g, s)
    elif pen == PEN_INTRUDER:
        if pub.raider_n == 0:
            _unable(g, s, pen)
        else:
            c2 = top_to_intruder(g)
            log(g, EV_TO_INTRUDER, c2, 0, 0, 0)
    elif pen == PEN_NO_DEFEND:
        pub.no_defend = 1
    elif pen == PEN_NO_SUPPORT:
        pub.no_support = 1
    elif pen == PEN_MUST_PASS:
        pub.must_pass = 1
    elif pen == PEN_NO_TALENT:
        pub.no_talent = 1
    elif pen == PEN_LEFT_DRAWS or pen == PEN_RIGHT_DRAWS:
        t = left_of(pub, s) if pen == PEN_LEFT_DRAWS else right_of(pub, s)
        if pub.passed[t] or pub.raider_n == 0:
            _unable(g, s, pen)
        else:
            # no talent applies to a penalty draw; Kiai and overcome do (section 7)
            c2 = draw(g)
            log(g, EV_PEN_DRAW, t, c2, 0, 0)
            confront(g, t, c2)
    elif pen == PEN_DISCARD_TO_RAIDER:
        if pub.discard_n == 0:
            _unable(g, s, pen)
        else:
            event(g, EVK_BOSS)
            c2 = discard_take(pub, pick_index(g, pub.discard, 0, pub.discard_n))
            record_row(g, EV_RANDOM, RND_DISCARD, c2, 0, 0, 0, 0)
            hid.raider[pub.raider_n] = c2
            pub.raider_n += 1
            pub.drawn_out = 0
            mark_unseen(g, c2)
            shuffle_range(g, hid.raider, 0, pub.raider_n)
            pub.known_n = 0  # the shuffle hides what Katsushiro had shown
            record_stack(g, STK_BOSS)
            log(g, EV_DISCARD_TO_RAIDER, c2, 0, 0, 0)
    elif pen == PEN_LOSE_DEFENCE:
        legal = 0
        for slot in range(3):
            if pub.defence[s, slot] >= 0:
                legal |= 1 << slot
        if legal == 0:
            _unable(g, s, pen)
        else:
            slot = ask(g, Q_LOSE_DEF, s, c, 0, legal)
            c2 = defence_take(pub, s, slot)
            discard_push(pub, c2)
            log(g, EV_LOSE_DEFENCE, s, c2, 0, 0)
    resolve(g)


@njit(cache=True)
def battle_penalty(g, s):
    """Apply the penalty (or both, R-6) of the last card of s's combat line. R-9: once the
    round is over a second penalty is not applied. V-2 `once`: a card gives its penalty at most
    once while it stays in the line (given: applied, ignored or turned into a wound)."""
    pub = g[0]
    n = pub.line_n[s]
    if n == 0:
        return
    c = pub.line[s, n - 1]
    p1 = pub.pen1[c]
    p2 = pub.pen2[c]
    if p1 == 0:
        return
    if pub.penalty_once:
        bit = 1 << (c & 63)
        if pub.pen_given[c >> 6] & bit:
            return
        pub.pen_given[c >> 6] |= bit
    if p2 != 0 and ask(g, Q_BOSS_ORDER, s, c, 0, 3) == 1:
        p1, p2 = p2, p1
    apply_penalty(g, s, c, p1)
    if p2 == 0 or pub.game_over or round_over(pub):
        return
    apply_penalty(g, s, c, p2)
