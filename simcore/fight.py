"""Fight: reveal, talents on the revealed card, give chains, confront or defend (section 4, R-7)."""

from numba import njit

from simcore.codes import KATSUSHIRO, KYUZO
from simcore.ask import ask
from simcore.combat import confront, defend
from simcore.kiai import resolve
from simcore.layout import (
    K_TRACE,
    C_VALUE,
    CARD_CONFRONT,
    CARD_DEFEND,
    CARD_GIVE_LEFT,
    CARD_GIVE_RIGHT,
    CARD_KYUZO,
    CARD_REDRAW,
    CHAIN,
    EV_GIVE,
    EV_KYUZO_DISCARD,
    EV_REDRAW,
    EV_REVEAL,
    HAND,
    Q_CARD,
    RAIDER_N,
    REDRAWN,
)
from simcore.obs import can_defend, gives, left_of, line_has_value, passed, right_of, talent_mask
from simcore.zones import discard_push, draw_top, log, put_under


@njit(cache=True)
def card_options(P, holder, c):
    """Legal handling of card c by holder (section 13, point 4-5)."""
    tm = talent_mask(P, holder)
    legal = 1 << CARD_CONFRONT
    if can_defend(P, holder, c):
        legal |= 1 << CARD_DEFEND
    # R-7a: one redraw per samurai per fight, and only onto a non-empty stack
    if (tm >> KATSUSHIRO) & 1 and (P[REDRAWN] >> holder) & 1 == 0 and P[RAIDER_N] > 0:
        legal |= 1 << CARD_REDRAW
    if (tm >> KYUZO) & 1 and line_has_value(P, holder, P[C_VALUE + c]):
        legal |= 1 << CARD_KYUZO
    if gives(P, holder, c):
        # never to a passed samurai, never back to one who already handled the card;
        # R-2a: with two samurai the single neighbour is offered once.
        lt = left_of(P, holder)
        rt = right_of(P, holder)
        if not passed(P, lt) and (P[CHAIN] >> lt) & 1 == 0:
            legal |= 1 << CARD_GIVE_LEFT
        if rt != lt and not passed(P, rt) and (P[CHAIN] >> rt) & 1 == 0:
            legal |= 1 << CARD_GIVE_RIGHT
    return legal


@njit(cache=True)
def handle_card(g, holder, c):
    """The holder (drawer or receiver of a give) deals with card c until it is placed or gone."""
    P = g[0]
    P[CHAIN] = 1 << holder
    while True:
        P[HAND] = c
        ch = ask(g, Q_CARD, holder, c, 0, card_options(P, holder, c))
        P[HAND] = -1
        if ch == CARD_CONFRONT:
            confront(g, holder, c)
            return
        if ch == CARD_DEFEND:
            defend(g, holder, c)
            return
        if ch == CARD_KYUZO:
            discard_push(P, c)
            if g[2][K_TRACE]:
                log(g, EV_KYUZO_DISCARD, holder, c, 0, 0)
            return
        if ch == CARD_REDRAW:
            put_under(g, c)
            P[REDRAWN] |= 1 << holder
            if g[2][K_TRACE]:
                log(g, EV_REDRAW, holder, c, 0, 0)
            c = draw_top(g)
            if g[2][K_TRACE]:
                log(g, EV_REVEAL, holder, c, 0, 0)
            P[CHAIN] = 1 << holder  # R-7a: a new card starts a new chain
            continue
        to = left_of(P, holder) if ch == CARD_GIVE_LEFT else right_of(P, holder)
        if g[2][K_TRACE]:
            log(g, EV_GIVE, holder, to, c, 0)
        holder = to
        P[CHAIN] |= 1 << to


@njit(cache=True)
def fight(g, s):
    P = g[0]
    P[REDRAWN] = 0
    c = draw_top(g)
    if g[2][K_TRACE]:
        log(g, EV_REVEAL, s, c, 0, 0)
    handle_card(g, s, c)
    resolve(g)
