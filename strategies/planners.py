"""Planner strategies: the kernel calls plan() before every turn of a game played by one
(simcore.kernel.play_planned); the planner writes the turn's action into the strategy memory
(P[SRNG + S_PLAN], layout.S_PLAN_AT) and the base heuristic answers everything else.

Planner ids (registry.Strategy.planner): 1 lookahead (honest: samples the hidden state),
2 foresight (CHEATING: plays its rollouts on the true hidden state and random stream),
3 peek (CHEATING: the lookahead's samples, each with the true next raider card on top).
"""

from numba import njit

from simcore.ask import scrambled
from simcore.layout import K_SCRAMBLE
from strategies.lookahead import plan_turn

LOOKAHEAD = 1
FORESIGHT = 2
PEEK = 3


@njit(cache=True)
def plan(planner, pprm, g, Pr, Hr, Kr):
    if g[2][K_SCRAMBLE]:
        # the R-19 test: planners see a scrambled hidden state; an honest one cannot tell
        g = (g[0], scrambled(g), g[2], g[3])
    plan_turn(pprm, g, Pr, Hr, Kr, planner != FORESIGHT, planner == PEEK)
