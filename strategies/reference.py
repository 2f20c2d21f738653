"""The `reference` strategy, exactly as docs/reference-strategy.md specifies (parameter T).

It is deliberately simple and must not be improved: independent implementations compare win
rates on it. Step numbers below are the specification's.
"""

from numba import njit

from kiai.simcore.codes import GOROBEI, HEIHACHI, KANBEI, KIKUCHIYO
from kiai.simcore.obs import can_defend, left_of, margin, right_of
from kiai.simcore.questions import (
    ACT_FIGHT,
    ACT_PASS,
    CARD_CONFRONT,
    CARD_DEFEND,
    CARD_GIVE_LEFT,
    CARD_GIVE_RIGHT,
    CARD_KYUZO,
    CARD_REDRAW,
    KIAI_EFFECT,
    KIAI_PLAIN,
    Q_ACTION,
    Q_CARD,
    Q_FIGHT_AGAIN,
    Q_HEAL,
    Q_IGNORE,
    Q_KIAI,
    Q_KIKU,
    Q_LOSE_DEF,
    Q_PLACE,
)
from kiai.strategies.base import Param, Strategy

STRATEGY = Strategy(
    "reference",
    "The fully specified baseline of docs/reference-strategy.md: fight while the margin to the Kiai is at least T.",
    (Param("T", 3, 0, 20, True, "fight only while Kiai minus combat total is at least T"),),
    absent_tokens=False,  # docs/reference-strategy.md step 1: absent tokens are never used
)
params = STRATEGY.reader()


@njit(cache=True)
def _welcomes(pub, t, c):
    """Step 4.3: a neighbour receives a give only if he can defend it or it fits his margin."""
    return can_defend(pub, t, c) or pub.value[c] <= margin(pub, t)


@njit(cache=True)
def decide(prm, pub, mem, q, seat, a, b, legal):
    T = int(params(prm).T)
    if q == Q_IGNORE:
        return 1  # step 2: ignore every penalty it may
    if q == Q_LOSE_DEF:
        for slot in (2, 1, 0):  # step 2: doll, else farm, else hat
            if (legal >> slot) & 1:
                return slot
    if q == Q_ACTION:
        # step 3 (the engine has already forced Pass above the Kiai or under "must pass")
        if margin(pub, seat) >= T and pub.raider_n > 0 and (legal >> ACT_FIGHT) & 1:
            return ACT_FIGHT
        return ACT_PASS
    if q == Q_CARD:
        c = a
        if (legal >> CARD_DEFEND) & 1:  # 4.1 (the engine's can_defend is the spec's)
            return CARD_DEFEND
        if (legal >> CARD_KYUZO) & 1:  # 4.2: talent available and a value match
            return CARD_KYUZO
        if pub.value[c] > margin(pub, seat):  # 4.3
            if (legal >> CARD_REDRAW) & 1:
                return CARD_REDRAW
            # give-legal means: talent available, neighbour not passed, not yet in the chain
            if (legal >> CARD_GIVE_LEFT) & 1 and _welcomes(pub, left_of(pub, seat), c):
                return CARD_GIVE_LEFT
            if (legal >> CARD_GIVE_RIGHT) & 1 and _welcomes(pub, right_of(pub, seat), c):
                return CARD_GIVE_RIGHT
        return CARD_CONFRONT  # 4.4
    if q == Q_FIGHT_AGAIN:
        return 1 if margin(pub, seat) >= T else 0  # step 5
    if q == Q_KIAI:
        # step 6: always activate; Daisuke, Kyuzo and Katsushiro use no effect
        sam = pub.samurai[seat]
        if sam == HEIHACHI or sam == GOROBEI or sam == KANBEI or sam == KIKUCHIYO:
            return KIAI_EFFECT
        return KIAI_PLAIN
    if q == Q_HEAL:
        n = pub.n
        for k in range(n):  # first token holder in seat order from Heihachi himself
            t = (seat + k) % n
            if (legal >> (1 + t)) & 1:
                return 1 + t
        return 0
    if q == Q_KIKU:
        return 1 + seat if (legal >> (1 + seat)) & 1 else 0  # his own last card
    if q == Q_PLACE:
        return CARD_DEFEND if (legal >> CARD_DEFEND) & 1 else CARD_CONFRONT
    # Q_ABSENT (never used, step 1), Q_BOSS_ORDER (file order, step 2) and the effects the
    # reference never uses (Daisuke, Kyuzo, Katsushiro) all answer 0.
    return 0
