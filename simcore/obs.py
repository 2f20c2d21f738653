"""Questions about the public table (pub), shared by the engine and the strategies.

Everything here reads pub only (R-19), so strategies may call it freely.
"""

from numba import njit

from kiai.simcore.codes import DAISUKE, GOROBEI, HEIHACHI, KANBEI


@njit(cache=True, inline="always")
def margin(pub, s):
    """Kiai value minus combat total: how much seat s may still confront without overcome."""
    return pub.kiai[s] - pub.total[s]


@njit(cache=True, inline="always")
def turn_key(pub):
    """Names the turn in progress (round and turn number): a planner's action is for one turn
    only (simcore.gateway)."""
    return pub.round_no * 4096 + pub.turn_no


@njit(cache=True, inline="always")
def left_of(pub, s):
    """R-2: the left neighbour is the next seat clockwise."""
    return s + 1 if s + 1 < pub.n else 0  # a compare, not a division: asked at every decision


@njit(cache=True, inline="always")
def right_of(pub, s):
    return s - 1 if s > 0 else pub.n - 1


@njit(cache=True, inline="always")
def in_round(pub, s):
    return pub.passed[s] == 0


@njit(cache=True, inline="always")
def active_count(pub):
    """Samurai still in the round."""
    k = 0
    for s in range(pub.n):
        if pub.passed[s] == 0:
            k += 1
    return k


@njit(cache=True, inline="always")
def last_card(pub, s):
    """The last card of s's combat line (its penalty is paid at his turn), or -1."""
    n = pub.line_n[s]
    return pub.line[s, n - 1] if n > 0 else -1


@njit(cache=True, inline="always")
def defend_mask(pub, s):
    """Bit k set: s may defend a card of symbol k + 1 (slot empty, no "no defend" on him)."""
    if s == pub.acting and pub.no_defend != 0:
        return 0
    d = pub.defence
    return (d[s, 0] < 0) | ((d[s, 1] < 0) << 1) | ((d[s, 2] < 0) << 2)


@njit(cache=True, inline="always")
def can_defend(pub, s, c):
    """A card may go to s's defence side: it has a symbol s lacks, and no "no defend" binds s
    (that penalty binds only the samurai whose turn it is, R-7)."""
    sym = pub.symbol[c]
    if sym == 0:
        return False
    if pub.defence[s, sym - 1] >= 0:
        return False
    if s == pub.acting and pub.no_defend != 0:
        return False
    return True


@njit(cache=True, inline="always")
def talent_mask(pub, s):
    """Talents s may use now (bit = samurai id): his own, absent tokens used this round, and
    (only in his own turn) support tokens he holds; none under "no talent" (R-20, R-20a)."""
    acting = s == pub.acting
    if acting and pub.no_talent != 0:
        return 0
    m = (1 << pub.samurai[s]) | pub.lent[s]
    if acting:
        for o in range(pub.n):
            if o != s and pub.holder[o] == s:
                m |= 1 << pub.samurai[o]
    return m


@njit(cache=True, inline="always")
def ignores(tm, v):
    """R-4: with talents tm, the penalties of a card of value v may be ignored: Gorobei's
    talent for even cards, Kanbei's for odd ones."""
    return (tm >> (KANBEI if v % 2 else GOROBEI)) & 1 == 1


@njit(cache=True, inline="always")
def may_ignore(pub, s, c):
    """R-4 for samurai s and card c."""
    return ignores(talent_mask(pub, s), pub.value[c])


@njit(cache=True, inline="always")
def gives(pub, s, c):
    """Heihachi gives even cards, Daisuke odd ones (R-7)."""
    tm = talent_mask(pub, s)
    if pub.value[c] % 2 == 0:
        return (tm >> HEIHACHI) & 1 == 1
    return (tm >> DAISUKE) & 1 == 1


@njit(cache=True, inline="always")
def line_has_value(pub, s, v):
    for i in range(pub.line_n[s]):
        if pub.value[pub.line[s, i]] == v:
            return True
    return False


@njit(cache=True, inline="always")
def lowbit(m):
    """Index of the lowest set bit of m (m > 0)."""
    i = 0
    while (m >> i) & 1 == 0:
        i += 1
    return i


@njit(cache=True, inline="always")
def popcount(m):
    c = 0
    while m:
        m &= m - 1
        c += 1
    return c


@njit(cache=True, inline="always")
def nth_bit(m, k):
    """Index of the k-th (0-based) set bit of m."""
    i = 0
    while True:
        if (m >> i) & 1:
            if k == 0:
                return i
            k -= 1
        i += 1
