"""One turn: absent tokens, battle penalty, action, token return (section 3)."""

from numba import njit

from kiai.simcore.codes import KIKUCHIYO
from kiai.simcore.events import EV_ABSENT, EV_FIGHT, EV_FIGHT_AGAIN, EV_PASS, EV_SUPPORT, EV_TOKEN_RETURN, EV_TURN, log
from kiai.simcore.fight import fight
from kiai.simcore.gateway import ask
from kiai.simcore.obs import talent_mask
from kiai.simcore.penalties import battle_penalty
from kiai.simcore.questions import ACT_FIGHT, ACT_PASS, ACT_SUPPORT, Q_ABSENT, Q_ACTION, Q_FIGHT_AGAIN
from kiai.simcore.zones import round_over, top_to_intruder


@njit(cache=True, inline="always")
def _may_fight_again(pub, s):
    """R-7b: Kikuchiyo's talent available, and he could still choose Fight (V-5 `always`: his
    total may be above his Kiai)."""
    return (
        pub.extra_fight == 0
        and (talent_mask(pub, s) >> KIKUCHIYO) & 1 == 1
        and pub.raider_n > 0
        and (pub.total[s] <= pub.kiai[s] or pub.second_fight_always == 1)
        and pub.must_pass == 0
    )


@njit(cache=True)
def second_fight(g, s, choice):
    """R-7b: after a fight, Kikuchiyo may fight once more if he still could choose Fight;
    `choice` answers Q_FIGHT_AGAIN (-1: ask him)."""
    pub = g[0]
    if pub.game_over or not _may_fight_again(pub, s):
        return
    if choice < 0:
        choice = ask(g, Q_FIGHT_AGAIN, s, 0, 0, 3)
    if choice == 1:
        pub.extra_fight = 1
        log(g, EV_FIGHT_AGAIN, s, 0, 0, 0)
        fight(g, s)


@njit(cache=True)
def act(g, s, action):
    """Step 3 of a turn, the action chosen: Pass, Fight (and Kikuchiyo's second fight, if he
    wants it, R-7b), or Support."""
    pub = g[0]
    if action == ACT_PASS:
        pub.passed[s] = 1
    elif action == ACT_FIGHT:
        pub.fought = 1
        log(g, EV_FIGHT, s, 0, 0, 0)
        fight(g, s)
        second_fight(g, s, -1)
    else:
        k = action - ACT_SUPPORT
        pub.holder[s] = k
        c = top_to_intruder(g)
        log(g, EV_SUPPORT, s, k, c, 0)


@njit(cache=True, inline="always")
def _choose_action(g, s):
    """Step 3's choice: Pass when forced (above the Kiai, judged now, after the penalty: FAQ;
    or under "must pass"), else the samurai's own."""
    pub = g[0]
    if pub.total[s] > pub.kiai[s]:
        log(g, EV_PASS, s, 1, 0, 0)
        return ACT_PASS
    if pub.must_pass:
        log(g, EV_PASS, s, 2, 0, 0)
        return ACT_PASS
    if pub.raider_n == 0:  # V-3 `drawn`: the stack is empty, the round goes on
        log(g, EV_PASS, s, 3, 0, 0)
        return ACT_PASS
    legal = (1 << ACT_PASS) | (1 << ACT_FIGHT)
    if pub.holder[s] == s and pub.no_support == 0:
        for k in range(pub.n):
            if k != s and pub.passed[k] == 0:
                legal |= 1 << (ACT_SUPPORT + k)
    action = ask(g, Q_ACTION, s, 0, 0, legal)
    if action == ACT_PASS:
        log(g, EV_PASS, s, 0, 0, 0)
    return action


@njit(cache=True, inline="always")
def end_turn(g, s):
    """Tokens s received go back to their owners at the end of his turn (R-20)."""
    pub = g[0]
    for o in range(pub.n):
        if o != s and pub.holder[o] == s:
            pub.holder[o] = o
            log(g, EV_TOKEN_RETURN, o, s, 0, 0)


@njit(cache=True)
def play_turn(g, s):
    pub = g[0]
    pub.acting = s
    pub.no_defend = 0
    pub.no_support = 0
    pub.must_pass = 0
    pub.no_talent = 0
    pub.fought = 0
    pub.extra_fight = 0
    pub.turn_no += 1
    g[2].turns += 1
    log(g, EV_TURN, s, 0, 0, 0)
    # 1. absent support tokens (section 11): each lends its talent for the rest of the round
    if pub.absent_on and pub.absent_avail:
        m = ask(g, Q_ABSENT, s, 0, 0, pub.absent_avail)
        if m:
            pub.absent_avail &= ~m
            pub.lent[s] |= m
            log(g, EV_ABSENT, s, m, 0, 0)
    # 2. battle penalty
    battle_penalty(g, s)
    if pub.game_over == 0 and not round_over(pub):
        # 3. action
        act(g, s, _choose_action(g, s))
    end_turn(g, s)
