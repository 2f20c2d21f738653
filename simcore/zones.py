"""Moving cards between zones, keeping the public table (pub) in step with the hidden one (hid).

Zones: raider stack and intruder stack (hid, order hidden), discard pile, combat lines and defence
sides (pub), and out of play (pub flags). Every move goes through here, so the public unseen set
and the known top cards (R-19, R-19a) are kept in one place.
"""

from numba import njit

from kiai.simcore.unseen import mark_seen, mark_unseen


@njit(cache=True, inline="always")
def _forget_top(pub):
    """The top card left the raider stack: the next known card (if any) becomes the top."""
    k = pub.known_n
    if k > 0:
        for i in range(k - 1):
            pub.known[i] = pub.known[i + 1]
        pub.known[k - 1] = -1
        pub.known_n = k - 1


@njit(cache=True, inline="always")
def _pop_raider(g):
    """Take the top raider card (the caller checked the stack is not empty)."""
    pub = g[0]
    n = pub.raider_n - 1
    c = g[1].raider[n]
    pub.raider_n = n
    _forget_top(pub)
    return c


@njit(cache=True, inline="always")
def draw_top(g):
    """Reveal the top raider card: it is no longer unseen."""
    c = _pop_raider(g)
    mark_seen(g, c)
    return c


@njit(cache=True, inline="always")
def draw(g):
    """A draw (a fight's reveal, a redraw, a penalty draw: not a Kiai effect's discard), noting
    when it took the stack's last card (V-3)."""
    c = draw_top(g)
    if g[0].raider_n == 0:
        g[0].drawn_out = 1
    return c


@njit(cache=True, inline="always")
def round_over(pub):
    """R-9: the round ends at once when the raider stack is empty; under V-3 `drawn` only when it
    was emptied by drawing its last card (emptied otherwise, the samurai still in pass in turn)."""
    return pub.raider_n == 0 and (pub.round_end_drawn == 0 or pub.drawn_out == 1)


@njit(cache=True, inline="always")
def put_under(g, c):
    """Katsushiro's redraw: the card goes under the raider stack (R-7)."""
    pub = g[0]
    raider = g[1].raider
    pub.drawn_out = 0
    n = pub.raider_n
    for i in range(n, 0, -1):
        raider[i] = raider[i - 1]
    raider[0] = c
    pub.raider_n = n + 1
    mark_unseen(g, c)


@njit(cache=True, inline="always")
def top_to_intruder(g):
    """Move the top raider card, unseen, onto the intruder stack; returns it (for the trace)."""
    pub = g[0]
    c = _pop_raider(g)
    g[1].intruder[pub.intruder_n] = c
    pub.intruder_n += 1
    return c


@njit(cache=True, inline="always")
def intruder_pop(g):
    pub = g[0]
    n = pub.intruder_n - 1
    c = g[1].intruder[n]
    pub.intruder_n = n
    mark_seen(g, c)
    return c


@njit(cache=True, inline="always")
def discard_push(pub, c):
    pub.discard[pub.discard_n] = c
    pub.discard_n += 1


@njit(cache=True, inline="always")
def discard_take(pub, i):
    """Remove and return the i-th card of the discard pile (0 = bottom)."""
    n = pub.discard_n
    c = pub.discard[i]
    for j in range(i, n - 1):
        pub.discard[j] = pub.discard[j + 1]
    pub.discard_n = n - 1
    return c


@njit(cache=True, inline="always")
def line_append(pub, s, c):
    pub.pen_given[c >> 6] &= ~(1 << (c & 63))  # V-2: a card entering a line starts afresh
    n = pub.line_n[s]
    pub.line[s, n] = c
    pub.line_n[s] = n + 1
    pub.total[s] += pub.value[c]


@njit(cache=True, inline="always")
def line_pop_last(pub, s):
    n = pub.line_n[s] - 1
    c = pub.line[s, n]
    pub.line_n[s] = n
    pub.total[s] -= pub.value[c]
    return c


@njit(cache=True, inline="always")
def line_pop_first(pub, s):
    n = pub.line_n[s]
    c = pub.line[s, 0]
    for i in range(n - 1):
        pub.line[s, i] = pub.line[s, i + 1]
    pub.line_n[s] = n - 1
    pub.total[s] -= pub.value[c]
    return c


@njit(cache=True, inline="always")
def defence_take(pub, s, slot):
    c = pub.defence[s, slot]
    pub.defence[s, slot] = -1
    return c


@njit(cache=True, inline="always")
def refresh_known(g):
    """Copy the known top cards (public since Katsushiro showed them) into pub."""
    pub = g[0]
    top = pub.raider_n - 1
    for i in range(pub.known_n):
        pub.known[i] = g[1].raider[top - i]
