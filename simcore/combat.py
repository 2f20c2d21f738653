"""Placing a card: confront (combat line) or defend (defence side), section 4."""

from numba import njit

from simcore.layout import (
    K_TRACE,
    C_SYM,
    EV_CONFRONT,
    EV_DEFEND,
    EV_OVERCOME,
    K_CONFRONTED,
    K_DEFENDED,
    S_DEF,
    S_KIAI,
    S_TOTAL,
)
from simcore.obs import sb
from simcore.village import destroy_barricade, trigger_check
from simcore.zones import line_append, log


@njit(cache=True)
def confront(g, s, c):
    """Every card entering a combat line counts as confronted; above the Kiai it destroys a
    barricade, in or out of turn (R-8); exactly on it, Kiai triggers (section 5)."""
    P = g[0]
    line_append(P, s, c)
    g[2][K_CONFRONTED] += 1
    b = sb(s)
    if g[2][K_TRACE]:
        log(g, EV_CONFRONT, s, c, P[b + S_TOTAL], P[b + S_KIAI])
    if P[b + S_TOTAL] > P[b + S_KIAI]:
        if g[2][K_TRACE]:
            log(g, EV_OVERCOME, s, P[b + S_TOTAL], P[b + S_KIAI], 0)
        destroy_barricade(g)
    else:
        trigger_check(P, s)


@njit(cache=True)
def defend(g, s, c):
    P = g[0]
    P[sb(s) + S_DEF + P[C_SYM + c] - 1] = c
    g[2][K_DEFENDED] += 1
    if g[2][K_TRACE]:
        log(g, EV_DEFEND, s, c, 0, 0)
