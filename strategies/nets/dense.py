"""The dense layers every learned player's forward pass sums with, kept in registers: what the
networks spend most of their time on. block32 and block64 sum thirty-two or sixty-four outputs of
a layer over a list of inputs (the values: selfplay's, strategies.selfplay, and judge's,
strategies.nets.table_value); first_sums and hidden16_logit are selfplay's value's two layers;
pair_layer sums the two members of learned's networks side by side (strategies.learned).

Each output's sum is added in the order of the inputs listed, one product at a time, exactly as a
plain loop over the inputs adds it, so that a network gives the same bits either way and on every
machine.
"""

import numpy as np
from numba import njit, uint64

# learned's networks: the widest input and hidden layers its record holds; a layer's outputs are
# summed BLOCK at a time, in registers, every layer's width padded to a multiple of it; each
# member's layer lies in a lane of LANE floats of the scratch
MAX_FEATURES = 160
MAX_HIDDEN = 64
BLOCK = 16
LANE = MAX_HIDDEN
assert MAX_HIDDEN % BLOCK == 0


@njit(cache=True, inline="always")
def block32(w, b, j, x, at, n_at, out):
    """out[j:j + 32] = b[j:j + 32] + the sum over k of x[at[k]] * w[at[k], j:j + 32]: thirty-two
    sums in registers, each added in the order of at, so that the SLP vectoriser (simcore._cache)
    makes vector instructions of each step; two vectors, whose chains of additions (each waits on
    the last) run side by side."""
    r = b[j:j + 32]
    a0, a1, a2, a3, a4, a5, a6, a7 = r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7]
    a8, a9, a10, a11, a12, a13, a14, a15 = r[8], r[9], r[10], r[11], r[12], r[13], r[14], r[15]
    c0, c1, c2, c3, c4, c5, c6, c7 = r[16], r[17], r[18], r[19], r[20], r[21], r[22], r[23]
    c8, c9, c10, c11, c12, c13, c14, c15 = r[24], r[25], r[26], r[27], r[28], r[29], r[30], r[31]
    for k in range(n_at):
        i = at[k]
        xi = x[i]
        r = w[i, j:j + 32]
        a0 += r[0] * xi; a1 += r[1] * xi; a2 += r[2] * xi; a3 += r[3] * xi  # noqa: E702
        a4 += r[4] * xi; a5 += r[5] * xi; a6 += r[6] * xi; a7 += r[7] * xi  # noqa: E702
        a8 += r[8] * xi; a9 += r[9] * xi; a10 += r[10] * xi; a11 += r[11] * xi  # noqa: E702
        a12 += r[12] * xi; a13 += r[13] * xi; a14 += r[14] * xi; a15 += r[15] * xi  # noqa: E702
        c0 += r[16] * xi; c1 += r[17] * xi; c2 += r[18] * xi; c3 += r[19] * xi  # noqa: E702
        c4 += r[20] * xi; c5 += r[21] * xi; c6 += r[22] * xi; c7 += r[23] * xi  # noqa: E702
        c8 += r[24] * xi; c9 += r[25] * xi; c10 += r[26] * xi; c11 += r[27] * xi  # noqa: E702
        c12 += r[28] * xi; c13 += r[29] * xi; c14 += r[30] * xi; c15 += r[31] * xi  # noqa: E702
    o = out[j:j + 32]
    o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7] = a0, a1, a2, a3, a4, a5, a6, a7
    o[8], o[9], o[10], o[11], o[12], o[13], o[14], o[15] = a8, a9, a10, a11, a12, a13, a14, a15
    o[16], o[17], o[18], o[19], o[20], o[21], o[22], o[23] = c0, c1, c2, c3, c4, c5, c6, c7
    o[24], o[25], o[26], o[27], o[28], o[29], o[30], o[31] = c8, c9, c10, c11, c12, c13, c14, c15


@njit(cache=True, inline="always")
def block64(w, b, j, x, at, n_at, out):
    """block32 over sixty-four units: four vectors, four chains side by side (each sum still added
    in the order of at, so the sums are block32's, bit for bit). It halves the passes over at for a
    128-unit value (1.03-1.08 times the games a second); a 32-unit value stays with block32, whose
    padding to 64 units cost more than it saved."""
    r = b[j:j + 64]
    a0, a1, a2, a3, a4, a5, a6, a7 = r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7]
    a8, a9, a10, a11, a12, a13, a14, a15 = r[8], r[9], r[10], r[11], r[12], r[13], r[14], r[15]
    c0, c1, c2, c3, c4, c5, c6, c7 = r[16], r[17], r[18], r[19], r[20], r[21], r[22], r[23]
    c8, c9, c10, c11, c12, c13, c14, c15 = r[24], r[25], r[26], r[27], r[28], r[29], r[30], r[31]
    d0, d1, d2, d3, d4, d5, d6, d7 = r[32], r[33], r[34], r[35], r[36], r[37], r[38], r[39]
    d8, d9, d10, d11, d12, d13, d14, d15 = r[40], r[41], r[42], r[43], r[44], r[45], r[46], r[47]
    e0, e1, e2, e3, e4, e5, e6, e7 = r[48], r[49], r[50], r[51], r[52], r[53], r[54], r[55]
    e8, e9, e10, e11, e12, e13, e14, e15 = r[56], r[57], r[58], r[59], r[60], r[61], r[62], r[63]
    for k in range(n_at):
        i = at[k]
        xi = x[i]
        r = w[i, j:j + 64]
        a0 += r[0] * xi; a1 += r[1] * xi; a2 += r[2] * xi; a3 += r[3] * xi  # noqa: E702
        a4 += r[4] * xi; a5 += r[5] * xi; a6 += r[6] * xi; a7 += r[7] * xi  # noqa: E702
        a8 += r[8] * xi; a9 += r[9] * xi; a10 += r[10] * xi; a11 += r[11] * xi  # noqa: E702
        a12 += r[12] * xi; a13 += r[13] * xi; a14 += r[14] * xi; a15 += r[15] * xi  # noqa: E702
        c0 += r[16] * xi; c1 += r[17] * xi; c2 += r[18] * xi; c3 += r[19] * xi  # noqa: E702
        c4 += r[20] * xi; c5 += r[21] * xi; c6 += r[22] * xi; c7 += r[23] * xi  # noqa: E702
        c8 += r[24] * xi; c9 += r[25] * xi; c10 += r[26] * xi; c11 += r[27] * xi  # noqa: E702
        c12 += r[28] * xi; c13 += r[29] * xi; c14 += r[30] * xi; c15 += r[31] * xi  # noqa: E702
        d0 += r[32] * xi; d1 += r[33] * xi; d2 += r[34] * xi; d3 += r[35] * xi  # noqa: E702
        d4 += r[36] * xi; d5 += r[37] * xi; d6 += r[38] * xi; d7 += r[39] * xi  # noqa: E702
        d8 += r[40] * xi; d9 += r[41] * xi; d10 += r[42] * xi; d11 += r[43] * xi  # noqa: E702
        d12 += r[44] * xi; d13 += r[45] * xi; d14 += r[46] * xi; d15 += r[47] * xi  # noqa: E702
        e0 += r[48] * xi; e1 += r[49] * xi; e2 += r[50] * xi; e3 += r[51] * xi  # noqa: E702
        e4 += r[52] * xi; e5 += r[53] * xi; e6 += r[54] * xi; e7 += r[55] * xi  # noqa: E702
        e8 += r[56] * xi; e9 += r[57] * xi; e10 += r[58] * xi; e11 += r[59] * xi  # noqa: E702
        e12 += r[60] * xi; e13 += r[61] * xi; e14 += r[62] * xi; e15 += r[63] * xi  # noqa: E702
    o = out[j:j + 64]
    o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7] = a0, a1, a2, a3, a4, a5, a6, a7
    o[8], o[9], o[10], o[11], o[12], o[13], o[14], o[15] = a8, a9, a10, a11, a12, a13, a14, a15
    o[16], o[17], o[18], o[19], o[20], o[21], o[22], o[23] = c0, c1, c2, c3, c4, c5, c6, c7
    o[24], o[25], o[26], o[27], o[28], o[29], o[30], o[31] = c8, c9, c10, c11, c12, c13, c14, c15
    o[32], o[33], o[34], o[35], o[36], o[37], o[38], o[39] = d0, d1, d2, d3, d4, d5, d6, d7
    o[40], o[41], o[42], o[43], o[44], o[45], o[46], o[47] = d8, d9, d10, d11, d12, d13, d14, d15
    o[48], o[49], o[50], o[51], o[52], o[53], o[54], o[55] = e0, e1, e2, e3, e4, e5, e6, e7
    o[56], o[57], o[58], o[59], o[60], o[61], o[62], o[63] = e8, e9, e10, e11, e12, e13, e14, e15


@njit(cache=True, inline="always")
def lanes_of(m):
    """A value's first layer's units worked out: its own (m.h1), rounded up to a block of thirty-two
    (a narrower value costs only its own width; the rest of its block adds zeros)."""
    return (m.h1 + 31) & ~31


@njit(cache=True, inline="always")
def first_sums(m, b, x, at, n, out):
    """out = b + the rows of w1 listed in at[:n], each times its x, over the value's lanes: 64 at
    a time while 64 remain, then a last block of 32."""
    lanes = lanes_of(m)
    j = 0
    while j + 64 <= lanes:
        block64(m.w1, b, j, x, at, n, out)
        j += 64
    if j < lanes:
        block32(m.w1, b, j, x, at, n, out)


@njit(cache=True)
def hidden16_logit(m, a1, a2):
    """A value's logit from its first layer's sums a1 (a record m with h1, w2, b2, w3, b3; sixteen
    units in the second layer): the second layer's sixteen sums in
    registers, over every unit of the first (one at or below 0 adds a zero: no branch), which the
    SLP vectoriser makes one vector instruction a unit; the even units and the odd ones in two
    chains of additions side by side (each waits on the last), added at the end."""
    zero = np.float32(0.0)
    r = m.b2
    c0, c1, c2, c3, c4, c5, c6, c7 = r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7]
    c8, c9, c10, c11, c12, c13, c14, c15 = r[8], r[9], r[10], r[11], r[12], r[13], r[14], r[15]
    d0 = d1 = d2 = d3 = d4 = d5 = d6 = d7 = zero
    d8 = d9 = d10 = d11 = d12 = d13 = d14 = d15 = zero
    for i in range(0, m.h1, 2):  # h1 is even (a multiple of 32)
        ai = max(a1[i], zero)
        r = m.w2[i]
        c0 += r[0] * ai; c1 += r[1] * ai; c2 += r[2] * ai; c3 += r[3] * ai  # noqa: E702
        c4 += r[4] * ai; c5 += r[5] * ai; c6 += r[6] * ai; c7 += r[7] * ai  # noqa: E702
        c8 += r[8] * ai; c9 += r[9] * ai; c10 += r[10] * ai; c11 += r[11] * ai  # noqa: E702
        c12 += r[12] * ai; c13 += r[13] * ai; c14 += r[14] * ai; c15 += r[15] * ai  # noqa: E702
        ai = max(a1[i + 1], zero)
        r = m.w2[i + 1]
        d0 += r[0] * ai; d1 += r[1] * ai; d2 += r[2] * ai; d3 += r[3] * ai  # noqa: E702
        d4 += r[4] * ai; d5 += r[5] * ai; d6 += r[6] * ai; d7 += r[7] * ai  # noqa: E702
        d8 += r[8] * ai; d9 += r[9] * ai; d10 += r[10] * ai; d11 += r[11] * ai  # noqa: E702
        d12 += r[12] * ai; d13 += r[13] * ai; d14 += r[14] * ai; d15 += r[15] * ai  # noqa: E702
    a2[0], a2[1], a2[2], a2[3], a2[4], a2[5], a2[6], a2[7] = c0 + d0, c1 + d1, c2 + d2, c3 + d3, c4 + d4, c5 + d5, c6 + d6, c7 + d7
    a2[8], a2[9], a2[10], a2[11], a2[12], a2[13], a2[14], a2[15] = c8 + d8, c9 + d9, c10 + d10, c11 + d11, c12 + d12, c13 + d13, c14 + d14, c15 + d15
    z = m.b3[0]
    w3 = m.w3
    for j in range(16):
        z += max(a2[j], zero) * w3[j]
    return z


@njit(cache=True, inline="always")
def pair_layer(w, b, second, n_out, work, src, dst, at, n_at, relu):
    """Members 0 and `second` side by side: lane m of work[dst:] (work[dst + m * LANE:]) =
    b[m] + w[m].T @ x_m, up to the next multiple of BLOCK outputs (from the zero padding). The
    first layer's x is the features at work[src:], the same for both members, and only those
    listed in at[:n_at] are added, in that order: the features that are not 0 (most are one-hot).
    A hidden layer's (`relu`) is the member's own lane of work[src:], its negative entries
    counted as 0, and all n_at of its units are added: a unit at 0 adds a zero, which changes no
    sum but the sign of a zero one, and no answer depends on that sign. (Listing the live units
    instead, most being 0, made the loop's length vary from call to call; its mispredicted exits
    cost more than the zeros: 1.09 times the networks' time on 29,778 positions.)

    Each output is one chain of float adds in input order, so the result is exact on every
    machine, and a chain waits on each add's latency: the second member's chains run in those
    waits (with one member, `second` is 0 and the second lane repeats the first at next to no
    cost). A block of BLOCK outputs is summed in registers, a weight row's block taken as one
    slice and read at constant offsets: the form the SLP vectoriser (simcore._cache) turns into
    one vector instruction per member and input. The arrays are sliced once and indexed by
    counters and unsigned positions, which numba knows are not negative: it then adds no
    wrap-around code to the loops. It is inlined into its caller (strategies.learned), whose arrays numba
    then counts references to once per call, not once per layer."""
    lane_in = uint64(LANE if relu else 0)
    x = work[src:src + (lane_in + LANE if relu else MAX_FEATURES)]  # both lanes, or every feature
    out = work[dst:dst + 2 * LANE]
    wa, wb, ba, bb = w[0], w[second], b[0], b[second]
    zero = np.float32(0.0)
    for j in range(0, n_out, BLOCK):
        r = ba[j:j + BLOCK]
        a0, a1, a2, a3, a4, a5, a6, a7 = r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7]
        a8, a9, a10, a11, a12, a13, a14, a15 = r[8], r[9], r[10], r[11], r[12], r[13], r[14], r[15]
        r = bb[j:j + BLOCK]
        c0, c1, c2, c3, c4, c5, c6, c7 = r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7]
        c8, c9, c10, c11, c12, c13, c14, c15 = r[8], r[9], r[10], r[11], r[12], r[13], r[14], r[15]
        for k in range(n_at):
            i = uint64(k if relu else at[k])
            xi, yi = x[i], x[i + lane_in]
            if relu:
                xi = xi if xi > zero else zero
                yi = yi if yi > zero else zero
            r = wa[i, j:j + BLOCK]
            a0 += r[0] * xi; a1 += r[1] * xi; a2 += r[2] * xi; a3 += r[3] * xi  # noqa: E702
            a4 += r[4] * xi; a5 += r[5] * xi; a6 += r[6] * xi; a7 += r[7] * xi  # noqa: E702
            a8 += r[8] * xi; a9 += r[9] * xi; a10 += r[10] * xi; a11 += r[11] * xi  # noqa: E702
            a12 += r[12] * xi; a13 += r[13] * xi; a14 += r[14] * xi; a15 += r[15] * xi  # noqa: E702
            r = wb[i, j:j + BLOCK]
            c0 += r[0] * yi; c1 += r[1] * yi; c2 += r[2] * yi; c3 += r[3] * yi  # noqa: E702
            c4 += r[4] * yi; c5 += r[5] * yi; c6 += r[6] * yi; c7 += r[7] * yi  # noqa: E702
            c8 += r[8] * yi; c9 += r[9] * yi; c10 += r[10] * yi; c11 += r[11] * yi  # noqa: E702
            c12 += r[12] * yi; c13 += r[13] * yi; c14 += r[14] * yi; c15 += r[15] * yi  # noqa: E702
        o = out[j:j + BLOCK]
        o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7] = a0, a1, a2, a3, a4, a5, a6, a7
        o[8], o[9], o[10], o[11], o[12], o[13], o[14], o[15] = a8, a9, a10, a11, a12, a13, a14, a15
        o = out[LANE + j:LANE + j + BLOCK]
        o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7] = c0, c1, c2, c3, c4, c5, c6, c7
        o[8], o[9], o[10], o[11], o[12], o[13], o[14], o[15] = c8, c9, c10, c11, c12, c13, c14, c15
