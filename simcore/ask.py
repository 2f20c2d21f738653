"""The decision gateway: every choice of section 13 passes through ask().

It checks invariants when fuzzing, answers questions that have a single legal option without
consulting anyone, replays forced decisions for scripted tests (R-16a), and otherwise asks the
strategy, which sees P (public) only unless registered as cheating (R-19). An answer outside the
legal set is counted and replaced by the lowest legal option, so a faulty strategy cannot break
the rules.
"""

import numpy as np
from numba import njit, types

from simcore.invariants import check
from simcore.layout import (
    ERR_FORCED,
    FARM_BACK,
    FARM_ALIVE,
    FARMS,
    G_TYPE,
    INTRUDER,
    INTRUDER_N,
    K_CHECK,
    K_DECISIONS,
    K_ERR,
    H_FD,
    K_FD_N,
    K_FD_POS,
    K_RNG,
    SRNG,
    S_LEN,
    K_ILLEGAL,
    K_SCRAMBLE,
    K_SID,
    KNOWN_N,
    Q_ABSENT,
    RAIDER,
    RAIDER_N,
)
from simcore.obs import lowbit
from simcore.rng import mix64, stream_below
from strategies.dispatch import decide


@njit(cache=True)
def scrambled(g):
    """A copy of H whose hidden parts are reordered: the unknown part of the raider stack, the
    intruder stack, and the backs of standing farmsteads. A strategy that reads H decides
    differently on it; an honest one cannot notice (the R-19 test)."""
    P = g[0]
    H = g[1].copy()
    K = g[2]
    R = np.empty(1, dtype=np.int64)
    R[0] = np.int64(mix64(np.uint64(K[K_RNG]) ^ np.uint64(K[K_DECISIONS])))
    unknown = P[RAIDER_N] - P[KNOWN_N]
    for i in range(unknown - 1, 0, -1):
        j = stream_below(R, 0, i + 1)
        H[RAIDER + i], H[RAIDER + j] = H[RAIDER + j], H[RAIDER + i]
    for i in range(P[INTRUDER_N] - 1, 0, -1):
        j = stream_below(R, 0, i + 1)
        H[INTRUDER + i], H[INTRUDER + j] = H[INTRUDER + j], H[INTRUDER + i]
    for i in range(P[FARMS] - 1, 0, -1):
        j = stream_below(R, 0, i + 1)
        ti = H[FARM_ALIVE + i]
        tj = H[FARM_ALIVE + j]
        H[FARM_BACK + ti], H[FARM_BACK + tj] = H[FARM_BACK + tj], H[FARM_BACK + ti]
    return H


@njit(types.int64(G_TYPE, types.int64, types.int64, types.int64, types.int64, types.int64), cache=True)
def ask(g, q, seat, a, b, legal):
    P = g[0]
    K = g[2]
    K[K_DECISIONS] += 1
    if K[K_CHECK]:
        check(g)
    if q != Q_ABSENT and legal & (legal - 1) == 0:
        return lowbit(legal)
    pos = K[K_FD_POS]
    if pos < K[K_FD_N]:
        K[K_FD_POS] = pos + 1
        c = g[1][H_FD + pos]
        ok = (c & ~legal) == 0 if q == Q_ABSENT else (0 <= c < 63 and (legal >> c) & 1 == 1)
        if not ok:
            if K[K_ERR] == 0:
                K[K_ERR] = ERR_FORCED
            return 0 if q == Q_ABSENT else lowbit(legal)
        return c
    H = scrambled(g) if K[K_SCRAMBLE] else g[1]
    c = decide(K[K_SID], g[3], P, H, P[SRNG : SRNG + S_LEN], q, seat, a, b, legal)
    if q == Q_ABSENT:
        if c & ~legal:
            K[K_ILLEGAL] += 1
            c &= legal
        return c
    if c < 0 or c > 62 or (legal >> c) & 1 == 0:
        K[K_ILLEGAL] += 1
        c = lowbit(legal)
    return c
