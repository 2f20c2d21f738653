"""The battle penalty step: the last card of the acting samurai's combat line (section 7,
R-4, R-5, R-6)."""

from numba import njit

from simcore.codes import (
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
    CARD_CAP,
)
from simcore.ask import ask
from simcore.combat import confront
from simcore.kiai import resolve
from simcore.layout import (
    K_TRACE,
    C_PEN1,
    C_PEN2,
    DISCARD_N,
    EV_DISCARD_TO_RAIDER,
    EV_LOSE_DEFENCE,
    EV_PEN_DRAW,
    EV_PEN_IGNORED,
    EV_PEN_UNABLE,
    EV_PENALTY,
    EV_TO_INTRUDER,
    GAME_OVER,
    KNOWN_N,
    LINES,
    MUST_PASS,
    NO_DEFEND,
    NO_SUPPORT,
    NO_TALENT,
    Q_BOSS_ORDER,
    Q_IGNORE,
    Q_LOSE_DEF,
    RAIDER,
    RAIDER_N,
    S_DEF,
    S_LINE_N,
)
from simcore.obs import left_of, may_ignore, passed, right_of, sb
from simcore.rng import rand_below, shuffle_range
from simcore.unseen import mark_unseen
from simcore.village import destroy_barricade, wound
from simcore.zones import (
    defence_take,
    discard_push,
    discard_take,
    draw_top,
    log,
    top_to_intruder,
)


@njit(cache=True)
def _unable(g, s, pen):
    """R-5: a penalty that cannot be applied wounds the acting samurai instead."""
    if g[2][K_TRACE]:
        log(g, EV_PEN_UNABLE, s, pen, 0, 0)
    wound(g, s)


@njit(cache=True)
def apply_penalty(g, s, c, pen):
    P = g[0]
    H = g[1]
    if g[2][K_TRACE]:
        log(g, EV_PENALTY, s, c, pen, 0)
    # ignoring is the strategy's choice, asked per penalty (an earlier "no talent" of the
    # same boss already counts)
    if may_ignore(P, s, c) and ask(g, Q_IGNORE, s, c, pen, 3) == 1:
        if g[2][K_TRACE]:
            log(g, EV_PEN_IGNORED, s, c, pen, 0)
        return
    if pen == PEN_BARRICADE:
        destroy_barricade(g)
    elif pen == PEN_WOUND:
        wound(g, s)
    elif pen == PEN_INTRUDER:
        if P[RAIDER_N] == 0:
            _unable(g, s, pen)
        else:
            c2 = top_to_intruder(g)
            if g[2][K_TRACE]:
                log(g, EV_TO_INTRUDER, c2, 0, 0, 0)
    elif pen == PEN_NO_DEFEND:
        P[NO_DEFEND] = 1
    elif pen == PEN_NO_SUPPORT:
        P[NO_SUPPORT] = 1
    elif pen == PEN_MUST_PASS:
        P[MUST_PASS] = 1
    elif pen == PEN_NO_TALENT:
        P[NO_TALENT] = 1
    elif pen == PEN_LEFT_DRAWS or pen == PEN_RIGHT_DRAWS:
        t = left_of(P, s) if pen == PEN_LEFT_DRAWS else right_of(P, s)
        if passed(P, t) or P[RAIDER_N] == 0:
            _unable(g, s, pen)
        else:
            # no talent applies to a penalty draw; Kiai and overcome do (section 7)
            c2 = draw_top(g)
            if g[2][K_TRACE]:
                log(g, EV_PEN_DRAW, t, c2, 0, 0)
            confront(g, t, c2)
    elif pen == PEN_DISCARD_TO_RAIDER:
        if P[DISCARD_N] == 0:
            _unable(g, s, pen)
        else:
            c2 = discard_take(P, rand_below(g, P[DISCARD_N]))
            H[RAIDER + P[RAIDER_N]] = c2
            P[RAIDER_N] += 1
            mark_unseen(P, c2)
            shuffle_range(g, H, RAIDER, RAIDER + P[RAIDER_N])
            P[KNOWN_N] = 0  # the shuffle hides what Katsushiro had shown
            if g[2][K_TRACE]:
                log(g, EV_DISCARD_TO_RAIDER, c2, 0, 0, 0)
    elif pen == PEN_LOSE_DEFENCE:
        b = sb(s)
        legal = 0
        for slot in range(3):
            if P[b + S_DEF + slot] >= 0:
                legal |= 1 << slot
        if legal == 0:
            _unable(g, s, pen)
        else:
            slot = ask(g, Q_LOSE_DEF, s, c, 0, legal)
            c2 = defence_take(P, s, slot)
            discard_push(P, c2)
            if g[2][K_TRACE]:
                log(g, EV_LOSE_DEFENCE, s, c2, 0, 0)
    resolve(g)


@njit(cache=True)
def battle_penalty(g, s):
    """Apply the penalty (or both, R-6) of the last card of s's combat line. R-9: once the
    raider stack is empty the round is over and a second penalty is not applied."""
    P = g[0]
    n = P[sb(s) + S_LINE_N]
    if n == 0:
        return
    c = P[LINES + s * CARD_CAP + n - 1]
    p1 = P[C_PEN1 + c]
    p2 = P[C_PEN2 + c]
    if p1 == 0:
        return
    if p2 != 0 and ask(g, Q_BOSS_ORDER, s, c, 0, 3) == 1:
        p1, p2 = p2, p1
    apply_penalty(g, s, c, p1)
    if p2 == 0 or P[GAME_OVER] or P[RAIDER_N] == 0:
        return
    apply_penalty(g, s, c, p2)
