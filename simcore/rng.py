"""Counter-based random numbers keyed by (seed, game index).

Each game owns two SplitMix64 streams seeded from a hash of (seed, game index): K[K_RNG] drives
the game's random events (shuffles, first player R-3, farmstead and family picks R-12/R-13,
bonus A R-14, the boss's discard pick), P[SRNG] is the strategy's own stream. States are kept
as int64 bits in the state arrays. Game i with seed s is therefore
the same game whatever the thread count, batch size or machine.

Forced outcomes (R-16a): while the game's forced queue (in H) has values left, rand_below
returns them instead of drawing, so tests can script every random event.
"""

import numpy as np
from numba import njit

from simcore.layout import ERR_FORCED, H_FR, K_ERR, K_FR_N, K_FR_POS, K_RNG, SRNG

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_STREAM1 = np.uint64(0xD1B54A32D192ED03)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)


@njit(cache=True)
def mix64(z):
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit(cache=True)
def next_u64(R, i):
    """Advance the stream whose state is R[i] (int64 bits of a uint64)."""
    s = np.uint64(R[i]) + GOLDEN
    R[i] = np.int64(s)
    return mix64(s)


@njit(cache=True)
def seed_streams(P, K, seed, game):
    k = mix64(np.uint64(seed) ^ mix64(np.uint64(game) * GOLDEN + _STREAM1))
    K[K_RNG] = np.int64(k)
    P[SRNG] = np.int64(mix64(k ^ _STREAM1))


@njit(cache=True)
def stream_below(R, i, n):
    """Uniform integer in [0, n) from stream i (multiply-shift; bias below 2**-32)."""
    x = next_u64(R, i) >> _S32
    return np.int64((x * np.uint64(n)) >> _S32)


@njit(cache=True)
def rand_below(g, n):
    """The game's random event: uniform in [0, n), or the next forced outcome."""
    K = g[2]
    pos = K[K_FR_POS]
    if pos < K[K_FR_N]:
        K[K_FR_POS] = pos + 1
        v = g[1][H_FR + pos]
        if v < 0 or v >= n:
            if K[K_ERR] == 0:
                K[K_ERR] = ERR_FORCED
            return 0
        return v
    return stream_below(K, K_RNG, n)


@njit(cache=True)
def shuffle_range(g, A, lo, hi):
    """Fisher-Yates shuffle of A[lo:hi] with the game's stream."""
    for i in range(hi - 1, lo, -1):
        j = lo + rand_below(g, i - lo + 1)
        t = A[i]
        A[i] = A[j]
        A[j] = t
