"""A dense layer's sums, thirty-two or sixty-four outputs at a time, kept in registers: what the
value networks (strategies.selfplay, strategies.table_value) spend most of their time on.

Each output's sum is added in the order of the inputs listed, one product at a time, exactly as a
plain loop over the inputs adds it, so that a network gives the same bits either way and on every
machine.
"""

from numba import njit


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
