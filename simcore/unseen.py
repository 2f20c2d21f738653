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


_SIZE = U_PEN + 2 * U_BINS - U_BIN  # the bins and their packed words, from U_BIN on


@njit(cache=True)
def _count(P, c, d, A, base):
    """Add d copies of card c to the bins held in A from base (P itself from U_BIN)."""
    b = card_bin(P, c)
    A[base + b] += d
    for pen in (P[C_PEN1 + c], P[C_PEN2 + c]):
        word, shift = pen_field(pen)
        A[base + U_PEN - U_BIN + 2 * b + word] += d << shift


@njit(cache=True)
def mark_unseen(P, c):
    """Card c goes into the raider or intruder stack."""
    if P[UNSEEN + c] == 0:
        P[UNSEEN + c] = 1
        _count(P, c, 1, P, U_BIN)


@njit(cache=True)
def mark_seen(P, c):
    """Card c leaves the stacks face up."""
    if P[UNSEEN + c] != 0:
        P[UNSEEN + c] = 0
        _count(P, c, -1, P, U_BIN)


@njit(cache=True)
def clear_unseen(P):
    """No card is unseen (a round's stack is about to be built)."""
    for c in range(P[N_CARDS]):
        P[UNSEEN + c] = 0
    P[U_BIN : U_BIN + _SIZE] = 0


@njit(cache=True)
def recount_unseen(P):
    """The bins worked out again from the per-card flags: for a state built by hand."""
    P[U_BIN : U_BIN + _SIZE] = 0
    for c in range(P[N_CARDS]):
        if P[UNSEEN + c]:
            _count(P, c, 1, P, U_BIN)


@njit(cache=True)
def bins_agree(P):
    """The bins hold exactly the cards flagged unseen (the invariant check): counted afresh
    into a scratch copy, every count and packed word must match. No packed field can carry
    into the next (a field never exceeds 2 x 66), so equal words mean equal counts."""
    want = np.zeros(_SIZE, dtype=np.int64)
    for c in range(P[N_CARDS]):
        if P[UNSEEN + c]:
            _count(P, c, 1, want, 0)
    for i in range(_SIZE):
        if want[i] != P[U_BIN + i]:
            return False
    return True
