"""The public count of unseen cards (section 12, R-19a), kept in step with every move.

A card is unseen while it lies in the raider or intruder stack. Besides the per-card flag
(UNSEEN), P holds the same multiset by bin (value * 4 + symbol) and, per bin, how often each
penalty code appears on those cards, packed 8 bits a code (layout.U_PEN). Strategies count
from the bins in a few dozen steps instead of scanning every card at every decision. Every
change to UNSEEN goes through here; the invariant check (ERR_UNSEEN) recounts the bins.
"""

import numpy as np
from numba import njit

from simcore.layout import (
    C_PEN1,
    C_PEN2,
    C_SYM,
    C_VALUE,
    N_CARDS,
    N_PEN_CODES,
    U_BIN,
    U_BINS,
    U_PEN,
    UNSEEN,
)

assert N_PEN_CODES <= 16  # two 8-field words per bin


@njit(cache=True)
def card_bin(P, c):
    return P[C_VALUE + c] * 4 + P[C_SYM + c]


@njit(cache=True)
def pen_field(code):
    """(word, shift) of penalty code's count within a bin's two packed words."""
    return code >> 3, (code & 7) * 8


@njit(cache=True)
def pen_count(w0, w1, code):
    """A penalty code's count in a bin's packed words (or in the sum of several bins' words)."""
    word, shift = pen_field(code)
    return ((w1 if word else w0) >> shift) & 255


@njit(cache=True)
def _count(P, c, d):
    b = card_bin(P, c)
    P[U_BIN + b] += d
    for pen in (P[C_PEN1 + c], P[C_PEN2 + c]):
        word, shift = pen_field(pen)
        P[U_PEN + 2 * b + word] += d << shift


@njit(cache=True)
def mark_unseen(P, c):
    """Card c goes into the raider or intruder stack."""
    if P[UNSEEN + c] == 0:
        P[UNSEEN + c] = 1
        _count(P, c, 1)


@njit(cache=True)
def mark_seen(P, c):
    """Card c leaves the stacks face up."""
    if P[UNSEEN + c] != 0:
        P[UNSEEN + c] = 0
        _count(P, c, -1)


@njit(cache=True)
def clear_unseen(P):
    """No card is unseen (a round's stack is about to be built)."""
    for c in range(P[N_CARDS]):
        P[UNSEEN + c] = 0
    P[U_BIN : U_PEN + 2 * U_BINS] = 0


@njit(cache=True)
def recount_unseen(P):
    """The bins worked out again from the per-card flags: for a state built by hand."""
    P[U_BIN : U_PEN + 2 * U_BINS] = 0
    for c in range(P[N_CARDS]):
        if P[UNSEEN + c]:
            _count(P, c, 1)


@njit(cache=True)
def bins_agree(P):
    """The bins hold exactly the cards flagged unseen (the invariant check)."""
    want = np.zeros(U_BINS * (1 + N_PEN_CODES), dtype=np.int64)
    for c in range(P[N_CARDS]):
        if P[UNSEEN + c]:
            b = card_bin(P, c)
            want[b] += 1
            want[U_BINS + b * N_PEN_CODES + P[C_PEN1 + c]] += 1
            want[U_BINS + b * N_PEN_CODES + P[C_PEN2 + c]] += 1
    for b in range(U_BINS):
        if want[b] != P[U_BIN + b]:
            return False
        w0 = P[U_PEN + 2 * b]
        w1 = P[U_PEN + 2 * b + 1]
        for code in range(N_PEN_CODES):
            if want[U_BINS + b * N_PEN_CODES + code] != pen_count(w0, w1, code):
                return False
    return True
