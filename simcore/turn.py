"""One turn: absent tokens, battle penalty, action, token return (section 3)."""

from numba import njit

from simcore.codes import KIKUCHIYO
from simcore.ask import ask
from simcore.fight import fight
from simcore.layout import (
    K_TRACE,
    ABSENT_AVAIL,
    ABSENT_ON,
    ACT_FIGHT,
    ACT_PASS,
    ACT_SUPPORT,
    ACTING,
    EV_ABSENT,
    EV_FIGHT,
    EV_FIGHT_AGAIN,
    EV_PASS,
    EV_SUPPORT,
    EV_TOKEN_RETURN,
    EV_TURN,
    EXTRA_FIGHT,
    FOUGHT,
    GAME_OVER,
    K_TURNS,
    MUST_PASS,
    N,
    NO_DEFEND,
    NO_SUPPORT,
    NO_TALENT,
    Q_ABSENT,
    Q_ACTION,
    Q_FIGHT_AGAIN,
    RAIDER_N,
    S_ABSENT,
    S_HOLDER,
    S_KIAI,
    S_PASSED,
    S_TOTAL,
    TURN_NO,
)
from simcore.obs import passed, sb, talent_mask
from simcore.penalties import battle_penalty
from simcore.zones import log, top_to_intruder


@njit(cache=True)
def _return_tokens(g, s):
    """Tokens s received go back to their owners at the end of his turn (R-20)."""
    P = g[0]
    for o in range(P[N]):
        if o != s and P[sb(o) + S_HOLDER] == s:
            P[sb(o) + S_HOLDER] = o
            if g[2][K_TRACE]:
                log(g, EV_TOKEN_RETURN, o, s, 0, 0)


@njit(cache=True)
def _may_fight_again(P, s):
    """R-7b: Kikuchiyo's talent available, and he could still choose Fight."""
    b = sb(s)
    return (
        P[EXTRA_FIGHT] == 0
        and (talent_mask(P, s) >> KIKUCHIYO) & 1 == 1
        and P[RAIDER_N] > 0
        and P[b + S_TOTAL] <= P[b + S_KIAI]
        and P[MUST_PASS] == 0
    )


@njit(cache=True)
def play_turn(g, s):
    P = g[0]
    b = sb(s)
    P[ACTING] = s
    P[NO_DEFEND] = 0
    P[NO_SUPPORT] = 0
    P[MUST_PASS] = 0
    P[NO_TALENT] = 0
    P[FOUGHT] = 0
    P[EXTRA_FIGHT] = 0
    P[TURN_NO] += 1
    g[2][K_TURNS] += 1
    if g[2][K_TRACE]:
        log(g, EV_TURN, s, 0, 0, 0)
    # 1. absent support tokens (section 11): each lends its talent for the rest of the round
    if P[ABSENT_ON] and P[ABSENT_AVAIL]:
        m = ask(g, Q_ABSENT, s, 0, 0, P[ABSENT_AVAIL])
        if m:
            P[ABSENT_AVAIL] &= ~m
            P[b + S_ABSENT] |= m
            if g[2][K_TRACE]:
                log(g, EV_ABSENT, s, m, 0, 0)
    # 2. battle penalty
    battle_penalty(g, s)
    if P[GAME_OVER] or P[RAIDER_N] == 0:
        _return_tokens(g, s)
        return
    # 3. action: forced Pass above the Kiai (judged now, after the penalty: FAQ) or under
    # "must pass"
    if P[b + S_TOTAL] > P[b + S_KIAI]:
        action = ACT_PASS
        if g[2][K_TRACE]:
            log(g, EV_PASS, s, 1, 0, 0)
    elif P[MUST_PASS]:
        action = ACT_PASS
        if g[2][K_TRACE]:
            log(g, EV_PASS, s, 2, 0, 0)
    else:
        legal = (1 << ACT_PASS) | (1 << ACT_FIGHT)
        if P[b + S_HOLDER] == s and P[NO_SUPPORT] == 0:
            for k in range(P[N]):
                if k != s and not passed(P, k):
                    legal |= 1 << (ACT_SUPPORT + k)
        action = ask(g, Q_ACTION, s, 0, 0, legal)
        if action == ACT_PASS:
            if g[2][K_TRACE]:
                log(g, EV_PASS, s, 0, 0, 0)
    if action == ACT_PASS:
        P[b + S_PASSED] = 1
    elif action == ACT_FIGHT:
        P[FOUGHT] = 1
        if g[2][K_TRACE]:
            log(g, EV_FIGHT, s, 0, 0, 0)
        fight(g, s)
        if P[GAME_OVER] == 0 and _may_fight_again(P, s):
            if ask(g, Q_FIGHT_AGAIN, s, 0, 0, 3) == 1:
                P[EXTRA_FIGHT] = 1
                if g[2][K_TRACE]:
                    log(g, EV_FIGHT_AGAIN, s, 0, 0, 0)
                fight(g, s)
    else:
        k = action - ACT_SUPPORT
        P[b + S_HOLDER] = k
        c = top_to_intruder(g)
        if g[2][K_TRACE]:
            log(g, EV_SUPPORT, s, k, c, 0)
    _return_tokens(g, s)
