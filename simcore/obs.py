"""Questions about the public observation P, shared by the engine and the strategies.

Everything here reads P only (R-19), so strategies may call it freely.
"""

from numba import njit

from simcore.codes import CARD_CAP, DAISUKE, GOROBEI, HEIHACHI, KANBEI
from simcore.layout import (
    ACTING,
    C_SYM,
    C_VALUE,
    LINES,
    N,
    NO_DEFEND,
    NO_TALENT,
    ROUND,
    S_ABSENT,
    S_DEF,
    S_HOLDER,
    S_KIAI,
    S_LINE_N,
    S_PASSED,
    S_SAM,
    S_TOTAL,
    SEAT0,
    SEAT_STRIDE,
    TURN_NO,
)


@njit(cache=True)
def sb(s):
    """Start of seat s's block in P."""
    return SEAT0 + s * SEAT_STRIDE


@njit(cache=True)
def margin(P, s):
    b = sb(s)
    return P[b + S_KIAI] - P[b + S_TOTAL]


@njit(cache=True)
def turn_key(P):
    """Names the turn in progress (round and turn number): a planner's action is for one turn
    only (strategies/planners.py)."""
    return P[ROUND] * 4096 + P[TURN_NO]


@njit(cache=True)
def left_of(P, s):
    """R-2: the left neighbour is the next seat clockwise."""
    return s + 1 if s + 1 < P[N] else 0  # a compare, not a division: asked at every decision


@njit(cache=True)
def right_of(P, s):
    return s - 1 if s > 0 else P[N] - 1


@njit(cache=True)
def passed(P, s):
    return P[sb(s) + S_PASSED] != 0


@njit(cache=True)
def can_defend(P, s, c):
    """A card may go to s's defence side: it has a symbol s lacks, and no "no defend" binds s
    (that penalty binds only the samurai whose turn it is, R-7)."""
    sym = P[C_SYM + c]
    if sym == 0:
        return False
    if P[sb(s) + S_DEF + sym - 1] >= 0:
        return False
    if s == P[ACTING] and P[NO_DEFEND] != 0:
        return False
    return True


@njit(cache=True)
def talent_mask(P, s):
    """Talents s may use now (bit = samurai id): his own, absent tokens used this round, and
    (only in his own turn) support tokens he holds; none under "no talent" (R-20, R-20a)."""
    acting = s == P[ACTING]
    if acting and P[NO_TALENT] != 0:
        return 0
    b = sb(s)
    m = (1 << P[b + S_SAM]) | P[b + S_ABSENT]
    if acting:
        for o in range(P[N]):
            if o != s and P[sb(o) + S_HOLDER] == s:
                m |= 1 << P[sb(o) + S_SAM]
    return m


@njit(cache=True)
def ignores(tm, v):
    """R-4: with talents tm, the penalties of a card of value v may be ignored: Gorobei's
    talent for even cards, Kanbei's for odd ones."""
    return (tm >> (KANBEI if v % 2 else GOROBEI)) & 1 == 1


@njit(cache=True)
def may_ignore(P, s, c):
    """R-4 for samurai s and card c."""
    return ignores(talent_mask(P, s), P[C_VALUE + c])


@njit(cache=True)
def gives(P, s, c):
    """Heihachi gives even cards, Daisuke odd ones (R-7)."""
    tm = talent_mask(P, s)
    if P[C_VALUE + c] % 2 == 0:
        return (tm >> HEIHACHI) & 1 == 1
    return (tm >> DAISUKE) & 1 == 1


@njit(cache=True)
def line_card(P, s, i):
    return P[LINES + s * CARD_CAP + i]


@njit(cache=True)
def line_has_value(P, s, v):
    for i in range(P[sb(s) + S_LINE_N]):
        if P[C_VALUE + line_card(P, s, i)] == v:
            return True
    return False


@njit(cache=True)
def lowbit(m):
    """Index of the lowest set bit of m (m > 0)."""
    i = 0
    while (m >> i) & 1 == 0:
        i += 1
    return i


@njit(cache=True)
def popcount(m):
    c = 0
    while m:
        m &= m - 1
        c += 1
    return c


@njit(cache=True)
def nth_bit(m, k):
    """Index of the k-th (0-based) set bit of m."""
    i = 0
    while True:
        if (m >> i) & 1:
            if k == 0:
                return i
            k -= 1
        i += 1
