"""Counter-based random numbers keyed by (seed, game index).

Each game owns two SplitMix64 streams: hid.rng drives the game's random events (shuffles, the
first player R-3, farmstead and family picks R-12/R-13, bonus A R-14, the boss's discard pick),
and mem.stream is the strategy's own. Both are derived from (seed, game index) alone, so game i
of seed s is the same game whatever the thread count, batch size or machine.

The two are derived independently: the strategy's stream is public to the strategy, and were it
a function of the game's stream (SplitMix64's mixer can be inverted), it would give away every
future shuffle. Many (seed, game) pairs share a strategy stream and each has its own game stream,
so the strategy's stream says nothing about the game's (tests/test_engine.py builds such pairs).

Forced outcomes (R-16a): while the script (cfg.fr_addr) has values left, a random event takes
the next one instead of drawing, so tests can script every random event. With cfg.fr_values a
value is the element drawn (a card, a token, a seat) rather than its index: kiai replay feeds a
record's outcomes so, and an outcome that is not among the candidates is an error.

Event-keyed outcomes (cfg.event_keyed, off by default): each random event of a game
restarts the game's stream from a key of its own, a function of (seed, game index), the kind of
event (EV_*) and how many events of that kind came before it in the game: round r's deck, the
k-th farmstead pick, the k-th family lost, ... (event()). With one shared stream, how many draws
a line of play used would move every later outcome, and a searcher could steer the next round's
shuffle by its choices; keyed so, a deal's outcomes are fixed whatever is played. The counts
travel with the hidden state (hid.ev_n), so a copy of the state meets the same outcomes.
Off, event() does nothing and every stream is as it was.
"""

import numpy as np
from numba import njit

from kiai.simcore.invariants import ERR_FORCED
from kiai.simcore.state import int_to_pointer

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_STREAM1 = np.uint64(0xD1B54A32D192ED03)  # the game's stream
_STRATEGY_SEED = np.uint64(0x8BB84B93962EACC9)  # the strategy's stream, keyed apart
_STRATEGY_GAME = np.uint64(0x4B33A62ED433D4A3)
_EVENT_BASE = np.uint64(0x6A09E667F3BCC909)  # the deal's key for event-keyed outcomes
_EVENT_KIND = np.uint64(0x3C6EF372FE94F82B)

# the kinds of random event (hid.ev_n's index), each counted from 0 in a game
EVK_DECK = 0  # a round's raider stack: round 1's plunderers (with R-17's redraws), round 2's and 3's gathering
EVK_FIRST = 1  # the first player
EVK_FARM = 2  # a farmstead destroyed
EVK_FAMILY = 3  # a family lost
EVK_WOUND = 4  # the samurai a farmstead's back D wounds
EVK_HEAL = 5  # the samurai family bonus A heals (R-14, V-1)
EVK_BOSS = 6  # a boss's discard pick and the raider stack's reshuffle (PEN_DISCARD_TO_RAIDER)
EVK_KINDS = 8
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)


@njit(cache=True, inline="always")
def mix64(z):
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit(cache=True, inline="always")
def next_u64(R, i):
    """Advance the stream whose state is R[i] (int64 bits of a uint64)."""
    s = np.uint64(R[i]) + GOLDEN
    R[i] = np.int64(s)
    return mix64(s)


@njit(cache=True, inline="always")
def game_stream(seed, game):
    return np.int64(mix64(np.uint64(seed) ^ mix64(np.uint64(game) * GOLDEN + _STREAM1)))


@njit(cache=True, inline="always")
def strategy_stream(seed, game):
    return np.int64(mix64(mix64(np.uint64(seed) ^ _STRATEGY_SEED) + mix64(np.uint64(game) * GOLDEN + _STRATEGY_GAME)))


@njit(cache=True, inline="always")
def event_base(seed, game):
    """The deal's key for event-keyed outcomes, apart from both streams."""
    return np.int64(mix64(np.uint64(game_stream(seed, game)) ^ _EVENT_BASE))


@njit(cache=True, inline="always")
def seed_streams(hid, mem, seed, game):
    hid.rng[0] = game_stream(seed, game)
    hid.ev_base = event_base(seed, game)
    mem.stream[0] = strategy_stream(seed, game)


@njit(cache=True, inline="always")
def event_stream(base, kind, k):
    """The stream state the k-th event of `kind` starts from, under the deal's key `base`."""
    return np.int64(mix64(np.uint64(base) ^ mix64((np.uint64(kind) << np.uint64(32)) + np.uint64(k) + _EVENT_KIND)))


@njit(cache=True, inline="always")
def event(g, kind):
    """A random event of `kind` begins: with event-keyed outcomes (cfg.event_keyed) the game's
    stream restarts from the event's own key (its kind, and how many of that kind came before);
    otherwise nothing changes."""
    if g[3].event_keyed:
        hid = g[1]
        k = hid.ev_n[kind]
        hid.ev_n[kind] = k + 1
        hid.rng[0] = event_stream(hid.ev_base, kind, k)


@njit(cache=True, inline="always")
def stream_below(R, i, n):
    """Uniform integer in [0, n) from stream R[i] (multiply-shift; bias below 2**-32)."""
    x = next_u64(R, i) >> _S32
    return np.int64((x * np.uint64(n)) >> _S32)


@njit(cache=True, inline="always")
def _forced(g):
    """A forced outcome that is not among the candidates: the game's first error; 0 is played."""
    book = g[2]
    if book.err == 0:
        book.err = ERR_FORCED
    return 0


@njit(cache=True, inline="always")
def rand_below(g, n):
    """The game's random event among n candidates numbered 0..n-1 that are their own values (a
    seat): uniform in [0, n), or the next forced outcome."""
    book = g[2]
    cfg = g[3]
    pos = book.fr_pos
    if pos < cfg.fr_n:
        book.fr_pos = pos + 1
        v = int_to_pointer(cfg.fr_addr)[pos]
        return v if 0 <= v < n else _forced(g)
    return stream_below(g[1].rng, 0, n)


@njit(cache=True, inline="always")
def pick_index(g, A, lo, n):
    """The game's random pick of one element of A[lo:lo + n] (a card, a token): its index
    0..n-1, drawn uniformly, or forced (by index, or with cfg.fr_values by the element)."""
    cfg = g[3]
    book = g[2]
    if cfg.fr_values and book.fr_pos < cfg.fr_n:
        v = int_to_pointer(cfg.fr_addr)[book.fr_pos]
        book.fr_pos += 1
        for k in range(n):
            if A[lo + k] == v:
                return k
        return _forced(g)
    return rand_below(g, n)


@njit(cache=True, inline="always")
def shuffle_range(g, A, lo, hi):
    """Fisher-Yates shuffle of A[lo:hi] with the game's stream (forced by element, position
    hi - 1 first, the shuffle takes any order asked for)."""
    for i in range(hi - 1, lo, -1):
        j = lo + pick_index(g, A, lo, i - lo + 1)
        t = A[i]
        A[i] = A[j]
        A[j] = t
