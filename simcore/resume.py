"""Continuing a turn from a question asked in it: where a planner's rollout starts when it weighs
the answers to that question (strategies.lookahead).

A planner called at a question (simcore.gateway) copies the state, resamples what is hidden,
and plays each answer on: one of these functions finishes the turn in progress from the
question with that answer, through the same steps the engine plays (simcore.turn,
simcore.fight), and leaves the state ready for rounds.play_game to go on with the next seat.
"""

from numba import njit

from kiai.simcore.fight import place_card
from kiai.simcore.kiai import resolve
from kiai.simcore.obs import left_of
from kiai.simcore.turn import act, end_turn, second_fight


@njit(cache=True)
def _finish(g, s):
    """The turn of s is over: tokens home (R-20), he was the last active (R-16), and the next
    seat clockwise plays next."""
    end_turn(g, s)
    pub = g[0]
    pub.last_active = s
    pub.acting = left_of(pub, s)


@njit(cache=True)
def from_action(g, s, action):
    """s, acting, answers Q_ACTION with `action`."""
    act(g, s, action)
    _finish(g, s)


@njit(cache=True)
def from_card(g, holder, c, choice):
    """holder answers Q_CARD about card c with `choice` (-1: asks, as the engine would), in the
    fight of the acting samurai: the card is placed (R-7), the fight ends, and a first fight
    may be followed by Kikuchiyo's second (R-7b)."""
    pub = g[0]
    s = pub.acting
    place_card(g, holder, c, choice)
    resolve(g)
    if pub.extra_fight == 0:
        second_fight(g, s, -1)
    _finish(g, s)


@njit(cache=True)
def from_fight_again(g, s, choice):
    """s answers Q_FIGHT_AGAIN with `choice` (-1: asks)."""
    second_fight(g, s, choice)
    _finish(g, s)
