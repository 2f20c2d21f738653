"""Invariants checked at every decision when fuzzing: all cards accounted for, public and hidden
views in step, every count within bounds. The first violation is recorded in book.err, with the
decision count in book.err_where. The engine calls check_hook by its address (cfg.check,
simcore.gateway), so a run that does not fuzz never compiles it.
"""

import numpy as np
from numba import njit

from kiai.simcore.obs import popcount
from kiai.simcore.unseen import bins_agree

ERR_CARD_COUNT = 1  # a card is missing or in two places
ERR_TOTAL = 2  # a combat total is not the sum of its line
ERR_BOUNDS = 3  # a counter out of its range
ERR_DEFENCE = 4  # a defence slot holds a card of another symbol
ERR_UNSEEN = 5  # the public unseen set disagrees with the stacks
ERR_KNOWN = 6  # known cards are not the top of the raider stack
ERR_FORCED = 7  # a forced random value or decision was out of range
ERR_KIAI = 8  # a Kiai value disagrees with the side
ERR_TOKEN = 9  # a support token is held by an impossible seat


@njit(cache=True, inline="always")
def _fail(book, code):
    if book.err == 0:
        book.err = code
        book.err_where = book.decisions


@njit(cache=True, inline="always")
def _see(seen, c):
    """Mark card c in the two-word bit set seen (cards 0..127, CARD_CAP); the third word
    collects the bits of cards seen twice."""
    lo, hi, dup = seen
    if c < 64:
        bit = np.int64(1) << c
        return lo | bit, hi, dup | (lo & bit)
    bit = np.int64(1) << (c - 64)
    return lo, hi | bit, dup | (hi & bit)


@njit(cache=True)
def check_hook(pub, hid, book, cfg, mem):
    """simcore.gateway.HOOK_ARGS; answers 0."""
    _check(pub, hid, book, cfg)
    return 0


@njit(cache=True)
def _check(pub, hid, book, cfg):
    nc = pub.n_cards
    n = pub.n
    seen = (np.int64(0), np.int64(0), np.int64(0))  # bit sets: every card in a zone, and repeats
    rn = pub.raider_n
    inn = pub.intruder_n
    dn = pub.discard_n
    if rn < 0 or inn < 0 or dn < 0 or rn + inn + dn > nc:
        _fail(book, ERR_BOUNDS)
        return
    for i in range(rn):
        seen = _see(seen, hid.raider[i])
        if pub.unseen[hid.raider[i]] != 1:
            _fail(book, ERR_UNSEEN)
    for i in range(inn):
        seen = _see(seen, hid.intruder[i])
        if pub.unseen[hid.intruder[i]] != 1:
            _fail(book, ERR_UNSEEN)
    for i in range(dn):
        seen = _see(seen, pub.discard[i])
    if pub.hand >= 0:
        seen = _see(seen, pub.hand)
    for s in range(n):
        ln = pub.line_n[s]
        if ln < 0 or ln > nc:
            _fail(book, ERR_BOUNDS)
            return
        tot = 0
        for i in range(ln):
            c = pub.line[s, i]
            seen = _see(seen, c)
            tot += pub.value[c]
        if tot != pub.total[s]:
            _fail(book, ERR_TOTAL)
        for slot in range(3):
            c = pub.defence[s, slot]
            if c >= 0:
                seen = _see(seen, c)
                if pub.symbol[c] != slot + 1:
                    _fail(book, ERR_DEFENCE)
        w = pub.wound[s]
        if w < 0 or w > 3:
            _fail(book, ERR_BOUNDS)
        elif pub.kiai[s] != pub.kiai_value[pub.samurai[s], 1 if w >= 2 else 0]:
            _fail(book, ERR_KIAI)
        h = pub.holder[s]
        if h < 0 or h >= n:
            _fail(book, ERR_TOKEN)
    unseen_n = 0
    if seen[2] != 0:
        _fail(book, ERR_CARD_COUNT)  # a card in two places
    for c in range(nc):
        unseen_n += pub.unseen[c]
        placed = (seen[0] >> c) & 1 if c < 64 else (seen[1] >> (c - 64)) & 1
        if placed + pub.out_of_play[c] != 1:
            _fail(book, ERR_CARD_COUNT)
    if unseen_n != rn + inn or (cfg.counting and not bins_agree(pub)):
        _fail(book, ERR_UNSEEN)
    kn = pub.known_n
    if kn < 0 or kn > 3 or kn > rn:
        _fail(book, ERR_KNOWN)
    else:
        for i in range(kn):
            if pub.known[i] != hid.raider[rn - 1 - i]:
                _fail(book, ERR_KNOWN)
    if not (0 <= pub.barricades <= pub.barricades_max):
        _fail(book, ERR_BOUNDS)
    if not (0 <= pub.farmsteads <= pub.farmsteads_total) or not (0 <= pub.families <= pub.families_total):
        _fail(book, ERR_BOUNDS)
    if popcount(pub.family_mask) != pub.families:
        _fail(book, ERR_BOUNDS)
    standing = 0
    for k in range(4):
        standing += pub.backs_left[k]
    if standing != pub.farmsteads:
        _fail(book, ERR_BOUNDS)
