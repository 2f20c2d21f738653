"""Fight: reveal, talents on the revealed card, give chains, confront or defend (section 4, R-7)."""

from numba import njit

from kiai.simcore.codes import KATSUSHIRO, KYUZO
from kiai.simcore.combat import confront, defend
from kiai.simcore.events import EV_GIVE, EV_KYUZO_DISCARD, EV_REDRAW, EV_REVEAL, log
from kiai.simcore.gateway import ask
from kiai.simcore.kiai import resolve
from kiai.simcore.obs import can_defend, gives, left_of, line_has_value, right_of, talent_mask
from kiai.simcore.questions import (
    CARD_CONFRONT,
    CARD_DEFEND,
    CARD_GIVE_LEFT,
    CARD_GIVE_RIGHT,
    CARD_KYUZO,
    CARD_REDRAW,
    Q_CARD,
)
from kiai.simcore.zones import discard_push, draw, put_under


@njit(cache=True)
def card_options(pub, holder, c):
    """Legal handling of card c by holder (section 13, points 4-5)."""
    legal = 1 << CARD_CONFRONT
    if can_defend(pub, holder, c):
        legal |= 1 << CARD_DEFEND
    if (pub.redrawn >> holder) & 1:
        # R-7c: the card that replaced the one put under the stack is kept and played by the
        # samurai who redrew it: no give, no second redraw, no Kyuzo discard (token or not).
        # Whoever holds a card after redrawing in this fight holds that card: once redrawn, a
        # card goes nowhere else (a Kikuchiyo second fight clears redrawn, simcore.fight.fight)
        return legal
    tm = talent_mask(pub, holder)
    # R-7a: one redraw per samurai per fight, and only onto a non-empty stack
    if (tm >> KATSUSHIRO) & 1 and (pub.redrawn >> holder) & 1 == 0 and pub.raider_n > 0:
        legal |= 1 << CARD_REDRAW
    if (tm >> KYUZO) & 1 and line_has_value(pub, holder, pub.value[c]):
        legal |= 1 << CARD_KYUZO
    if gives(pub, holder, c):
        # never to a passed samurai, never back to one who already handled the card;
        # R-2a: with two samurai the single neighbour is offered once.
        lt = left_of(pub, holder)
        rt = right_of(pub, holder)
        if pub.passed[lt] == 0 and (pub.chain >> lt) & 1 == 0:
            legal |= 1 << CARD_GIVE_LEFT
        if rt != lt and pub.passed[rt] == 0 and (pub.chain >> rt) & 1 == 0:
            legal |= 1 << CARD_GIVE_RIGHT
    return legal


@njit(cache=True)
def place_card(g, holder, c, first):
    """The holder (drawer or receiver of a give) deals with card c until it is placed or gone.
    `first`, if not -1, answers the first question in place of asking: a planner's rollout
    resumes a fight here (simcore.resume)."""
    pub = g[0]
    while True:
        pub.hand = c
        if first >= 0:
            ch = first
            first = -1
        else:
            ch = ask(g, Q_CARD, holder, c, 0, card_options(pub, holder, c))
        pub.hand = -1
        if ch == CARD_CONFRONT:
            confront(g, holder, c)
            return
        if ch == CARD_DEFEND:
            defend(g, holder, c)
            return
        if ch == CARD_KYUZO:
            discard_push(pub, c)
            log(g, EV_KYUZO_DISCARD, holder, c, 0, 0)
            return
        if ch == CARD_REDRAW:
            put_under(g, c)
            pub.redrawn |= 1 << holder
            log(g, EV_REDRAW, holder, c, 0, 0)
            c = draw(g)
            log(g, EV_REVEAL, holder, c, 0, 0)
            pub.chain = 1 << holder  # R-7a: a new card starts a new chain
            continue
        to = left_of(pub, holder) if ch == CARD_GIVE_LEFT else right_of(pub, holder)
        log(g, EV_GIVE, holder, to, c, 0)
        holder = to
        pub.chain |= 1 << to


@njit(cache=True)
def fight(g, s):
    pub = g[0]
    pub.redrawn = 0
    c = draw(g)
    log(g, EV_REVEAL, s, c, 0, 0)
    pub.chain = 1 << s
    place_card(g, s, c, -1)
    resolve(g)
