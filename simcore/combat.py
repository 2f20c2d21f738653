"""Placing a card: confront (combat line) or defend (defence side), section 4."""

from numba import njit

from kiai.simcore.events import EV_CONFRONT, EV_DEFEND, EV_OVERCOME, log
from kiai.simcore.village import destroy_barricade, trigger_check
from kiai.simcore.zones import line_append


@njit(cache=True, inline="always")
def confront(g, s, c):
    """Every card entering a combat line counts as confronted; above the Kiai it destroys a
    barricade, in or out of turn (R-8); exactly on it, Kiai triggers (section 5)."""
    pub = g[0]
    line_append(pub, s, c)
    g[2].confronted += 1
    log(g, EV_CONFRONT, s, c, pub.total[s], pub.kiai[s])
    if pub.total[s] > pub.kiai[s]:
        log(g, EV_OVERCOME, s, pub.total[s], pub.kiai[s], 0)
        destroy_barricade(g)
    else:
        trigger_check(pub, s)


@njit(cache=True, inline="always")
def defend(g, s, c):
    pub = g[0]
    pub.defence[s, pub.symbol[c] - 1] = c
    g[2].defended += 1
    log(g, EV_DEFEND, s, c, 0, 0)
