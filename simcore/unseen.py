"""The public count of unseen cards (section 12, R-19a), kept in step with every move.

A card is unseen while it lies in the raider or intruder stack (pub.unseen[c]). When the
strategy counts (cfg.counting), pub also holds the same multiset by bin (value * 4 + symbol) and,
per bin, how often each penalty code appears on those cards, packed 8 bits a code (pub.bin_pens), and
how many of them bear the flame mark (pub.bin_flames).
Strategies count from the bins in a few dozen steps instead of scanning every card at every
decision; a strategy that never counts does not pay for them. Every change to pub.unseen goes
through here; the invariant check (ERR_UNSEEN) recounts the bins.
"""

from numba import njit

from kiai.simcore.codes import PENALTIES
from kiai.simcore.state import U_BINS

assert len(PENALTIES) <= 16  # two 8-field words per bin


@njit(cache=True, inline="always")
def card_bin(pub, c):
    return pub.value[c] * 4 + pub.symbol[c]


@njit(cache=True, inline="always")
def pen_field(code):
    """(word, shift) of penalty code's count within a bin's two packed words."""
    return code >> 3, (code & 7) * 8


@njit(cache=True, inline="always")
def pen_count(w0, w1, code):
    """A penalty code's count in a bin's packed words (or in the sum of several bins' words)."""
    word, shift = pen_field(code)
    return ((w1 if word else w0) >> shift) & 255


@njit(cache=True, inline="always")
def _count(pub, c, d):
    """Add d copies of card c to the bins."""
    b = card_bin(pub, c)
    pub.bin_n[b] += d
    for pen in (pub.pen1[c], pub.pen2[c]):
        word, shift = pen_field(pen)
        pub.bin_pens[b, word] += d << shift
    pub.bin_flames += d * pub.flame[c]


@njit(cache=True, inline="always")
def mark_unseen(g, c):
    """Card c goes into the raider or intruder stack."""
    pub = g[0]
    if pub.unseen[c] == 0:
        pub.unseen[c] = 1
        if g[3].counting:
            _count(pub, c, 1)


@njit(cache=True, inline="always")
def mark_seen(g, c):
    """Card c leaves the stacks face up."""
    pub = g[0]
    if pub.unseen[c] != 0:
        pub.unseen[c] = 0
        if g[3].counting:
            _count(pub, c, -1)


@njit(cache=True, inline="always")
def _clear_bins(pub):
    for b in range(U_BINS):
        pub.bin_n[b] = 0
        pub.bin_pens[b, 0] = 0
        pub.bin_pens[b, 1] = 0
    pub.bin_flames = 0


@njit(cache=True)
def clear_unseen(pub):
    """No card is unseen (a round's stack is about to be built)."""
    for c in range(pub.n_cards):
        pub.unseen[c] = 0
    _clear_bins(pub)


@njit(cache=True)
def recount_unseen(pub):
    """The bins worked out again from the per-card flags: for a state built by hand."""
    _clear_bins(pub)
    for c in range(pub.n_cards):
        if pub.unseen[c]:
            _count(pub, c, 1)


@njit(cache=True)
def bins_agree(pub):
    """The bins hold exactly the cards flagged unseen (the invariant check): each bin counted
    afresh, card by card, must match its count and packed words. No packed field can carry
    into the next (a field never exceeds 2 x 66), so equal words mean equal counts. The flames
    are counted too."""
    flames = 0
    for c in range(pub.n_cards):
        if pub.unseen[c]:
            flames += pub.flame[c]
    if flames != pub.bin_flames:
        return False
    for b in range(U_BINS):
        n = 0
        w0 = 0
        w1 = 0
        for c in range(pub.n_cards):
            if pub.unseen[c] and card_bin(pub, c) == b:
                n += 1
                for pen in (pub.pen1[c], pub.pen2[c]):
                    word, shift = pen_field(pen)
                    if word:
                        w1 += 1 << shift
                    else:
                        w0 += 1 << shift
        if n != pub.bin_n[b] or w0 != pub.bin_pens[b, 0] or w1 != pub.bin_pens[b, 1]:
            return False
    return True
