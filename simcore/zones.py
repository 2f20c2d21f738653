"""Moving cards between zones, keeping the public view (P) in step with the hidden one (H).

Zones: raider stack and intruder stack (H, order hidden), discard pile, combat lines and defence
sides (P), and out of play (P flags). Every move goes through here, so the public unseen set and
known top cards (R-19, R-19a) are maintained in one place.
"""

from numba import njit, types

from simcore.codes import CARD_CAP
from simcore.layout import (
    C_VALUE,
    DISCARD,
    DISCARD_N,
    G_TYPE,
    INTRUDER,
    INTRUDER_N,
    H_TR,
    K_TR_CAP,
    K_TR_N,
    TR_COLS,
    K_TRACE,
    KNOWN,
    KNOWN_N,
    LINES,
    RAIDER,
    RAIDER_N,
    ROUND,
    S_DEF,
    S_LINE_N,
    S_TOTAL,
)
from simcore.obs import sb
from simcore.unseen import mark_seen, mark_unseen


@njit(types.void(G_TYPE, types.int64, types.int64, types.int64, types.int64, types.int64), cache=True)
def log(g, code, a, b, c, d):
    K = g[2]
    if K[K_TRACE] == 0:
        return
    i = K[K_TR_N]
    if i < K[K_TR_CAP]:
        H = g[1]
        row = H_TR + i * TR_COLS
        H[row] = code
        H[row + 1] = g[0][ROUND]
        H[row + 2] = a
        H[row + 3] = b
        H[row + 4] = c
        H[row + 5] = d
    K[K_TR_N] = i + 1


@njit(cache=True)
def _forget_top(P):
    """The top card left the raider stack: the next known card (if any) becomes the top."""
    k = P[KNOWN_N]
    if k > 0:
        for i in range(k - 1):
            P[KNOWN + i] = P[KNOWN + i + 1]
        P[KNOWN + k - 1] = -1
        P[KNOWN_N] = k - 1


@njit(cache=True)
def _pop_raider(g):
    """Take the top raider card (the caller checked the stack is not empty)."""
    P = g[0]
    n = P[RAIDER_N] - 1
    c = g[1][RAIDER + n]
    P[RAIDER_N] = n
    _forget_top(P)
    return c


@njit(cache=True)
def draw_top(g):
    """Reveal the top raider card: it is no longer unseen."""
    c = _pop_raider(g)
    mark_seen(g[0], c)
    return c


@njit(cache=True)
def put_under(g, c):
    """Katsushiro's redraw: the card goes under the raider stack (R-7)."""
    P = g[0]
    H = g[1]
    n = P[RAIDER_N]
    for i in range(n, 0, -1):
        H[RAIDER + i] = H[RAIDER + i - 1]
    H[RAIDER] = c
    P[RAIDER_N] = n + 1
    mark_unseen(P, c)


@njit(cache=True)
def top_to_intruder(g):
    """Move the top raider card, unseen, onto the intruder stack; returns it (for the trace)."""
    P = g[0]
    c = _pop_raider(g)
    g[1][INTRUDER + P[INTRUDER_N]] = c
    P[INTRUDER_N] += 1
    return c


@njit(cache=True)
def intruder_pop(g):
    P = g[0]
    H = g[1]
    n = P[INTRUDER_N] - 1
    c = H[INTRUDER + n]
    P[INTRUDER_N] = n
    mark_seen(P, c)
    return c


@njit(cache=True)
def discard_push(P, c):
    P[DISCARD + P[DISCARD_N]] = c
    P[DISCARD_N] += 1


@njit(cache=True)
def discard_take(P, i):
    """Remove and return the i-th card of the discard pile (0 = bottom)."""
    n = P[DISCARD_N]
    c = P[DISCARD + i]
    for j in range(i, n - 1):
        P[DISCARD + j] = P[DISCARD + j + 1]
    P[DISCARD_N] = n - 1
    return c


@njit(cache=True)
def line_append(P, s, c):
    b = sb(s)
    n = P[b + S_LINE_N]
    P[LINES + s * CARD_CAP + n] = c
    P[b + S_LINE_N] = n + 1
    P[b + S_TOTAL] += P[C_VALUE + c]


@njit(cache=True)
def line_pop_last(P, s):
    b = sb(s)
    n = P[b + S_LINE_N] - 1
    c = P[LINES + s * CARD_CAP + n]
    P[b + S_LINE_N] = n
    P[b + S_TOTAL] -= P[C_VALUE + c]
    return c


@njit(cache=True)
def line_pop_first(P, s):
    b = sb(s)
    n = P[b + S_LINE_N]
    base = LINES + s * CARD_CAP
    c = P[base]
    for i in range(n - 1):
        P[base + i] = P[base + i + 1]
    P[b + S_LINE_N] = n - 1
    P[b + S_TOTAL] -= P[C_VALUE + c]
    return c


@njit(cache=True)
def defence_take(P, s, slot):
    b = sb(s) + S_DEF + slot
    c = P[b]
    P[b] = -1
    return c


@njit(cache=True)
def refresh_known(g):
    """Copy the known top cards (public since Katsushiro showed them) into P."""
    P = g[0]
    H = g[1]
    top = P[RAIDER_N] - 1
    for i in range(P[KNOWN_N]):
        P[KNOWN + i] = H[RAIDER + top - i]
