"""Invariants checked at every decision when fuzzing (K_CHECK): all cards accounted for, public
and hidden views in step, every count within bounds. The first violation is recorded in K_ERR.
"""

import numpy as np
from numba import njit

from simcore.codes import CARD_CAP
from simcore.unseen import bins_agree
from simcore.layout import (
    BARR,
    BARR_MAX,
    C_SYM,
    C_VALUE,
    DISCARD,
    DISCARD_N,
    ERR_BOUNDS,
    ERR_CARD_COUNT,
    ERR_DEFENCE,
    ERR_KIAI,
    ERR_KNOWN,
    ERR_TOKEN,
    ERR_TOTAL,
    ERR_UNSEEN,
    FAM_MASK,
    FAMS,
    FAMS_TOTAL,
    FARMS,
    FARMS_TOTAL,
    HAND,
    INTRUDER,
    INTRUDER_N,
    K_DECISIONS,
    K_ERR,
    K_ERR_WHERE,
    KIAI_TAB,
    KNOWN,
    KNOWN_N,
    LINES,
    N,
    N_CARDS,
    OUTP,
    RAIDER,
    RAIDER_N,
    S_DEF,
    S_HOLDER,
    S_KIAI,
    S_LINE_N,
    S_SAM,
    S_TOTAL,
    S_WOUND,
    UNSEEN,
)
from simcore.obs import popcount, sb


@njit(cache=True)
def _fail(K, code):
    if K[K_ERR] == 0:
        K[K_ERR] = code
        K[K_ERR_WHERE] = K[K_DECISIONS]


@njit(cache=True)
def check(g):
    P = g[0]
    H = g[1]
    K = g[2]
    nc = P[N_CARDS]
    n = P[N]
    seen = np.zeros(CARD_CAP, dtype=np.int32)
    rn = P[RAIDER_N]
    inn = P[INTRUDER_N]
    dn = P[DISCARD_N]
    if rn < 0 or inn < 0 or dn < 0 or rn + inn + dn > nc:
        _fail(K, ERR_BOUNDS)
        return
    for i in range(rn):
        seen[H[RAIDER + i]] += 1
        if P[UNSEEN + H[RAIDER + i]] != 1:
            _fail(K, ERR_UNSEEN)
    for i in range(inn):
        seen[H[INTRUDER + i]] += 1
        if P[UNSEEN + H[INTRUDER + i]] != 1:
            _fail(K, ERR_UNSEEN)
    for i in range(dn):
        seen[P[DISCARD + i]] += 1
    if P[HAND] >= 0:
        seen[P[HAND]] += 1
    for s in range(n):
        b = sb(s)
        ln = P[b + S_LINE_N]
        if ln < 0 or ln > nc:
            _fail(K, ERR_BOUNDS)
            return
        tot = 0
        for i in range(ln):
            c = P[LINES + s * CARD_CAP + i]
            seen[c] += 1
            tot += P[C_VALUE + c]
        if tot != P[b + S_TOTAL]:
            _fail(K, ERR_TOTAL)
        for slot in range(3):
            c = P[b + S_DEF + slot]
            if c >= 0:
                seen[c] += 1
                if P[C_SYM + c] != slot + 1:
                    _fail(K, ERR_DEFENCE)
        w = P[b + S_WOUND]
        if w < 0 or w > 3:
            _fail(K, ERR_BOUNDS)
        elif P[b + S_KIAI] != P[KIAI_TAB + 2 * P[b + S_SAM] + (1 if w >= 2 else 0)]:
            _fail(K, ERR_KIAI)
        h = P[b + S_HOLDER]
        if h < 0 or h >= n:
            _fail(K, ERR_TOKEN)
    unseen_n = 0
    for c in range(nc):
        unseen_n += P[UNSEEN + c]
        if seen[c] + P[OUTP + c] != 1:
            _fail(K, ERR_CARD_COUNT)
    if unseen_n != rn + inn or not bins_agree(P):
        _fail(K, ERR_UNSEEN)
    kn = P[KNOWN_N]
    if kn < 0 or kn > 3 or kn > rn:
        _fail(K, ERR_KNOWN)
    else:
        for i in range(kn):
            if P[KNOWN + i] != H[RAIDER + rn - 1 - i]:
                _fail(K, ERR_KNOWN)
    if not (0 <= P[BARR] <= P[BARR_MAX]):
        _fail(K, ERR_BOUNDS)
    if not (0 <= P[FARMS] <= P[FARMS_TOTAL]) or not (0 <= P[FAMS] <= P[FAMS_TOTAL]):
        _fail(K, ERR_BOUNDS)
    if popcount(P[FAM_MASK]) != P[FAMS]:
        _fail(K, ERR_BOUNDS)
