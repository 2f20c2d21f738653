"""The value of the table: what `judge` (strategies.judge) weighs its answers by.

V(table) is the chance to win from the public table at the start of a turn (before the acting
samurai's battle penalty), learned from the outcomes of self-play games (training.value).
It reads the public observation only (R-19): the village, every board, every combat line's last
card (the penalty each samurai will meet) and the multiset of unseen cards (section 12), with the
seats taken clockwise from the acting one.

The value is a small network: features -> H1 (ReLU) -> H2 (ReLU) -> logit, float32, its weights
data in the planner's record (strategies.judge). Inputs are scaled inside the first layer.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from kiai.simcore.codes import MAX_SEATS, N_SAMURAI_KINDS, OUT_WIN, PENALTIES
from kiai.strategies.nets.dense import block32, block64
from kiai.strategies.nets.forecast import N_F, board_part, forecast

N_PEN = len(PENALTIES) - 1  # penalty codes past "none"

_GLOBAL = (
    ["round1", "round2", "round3", "barricades", "barricades_max", "farmsteads", "families",
     "farm_penalties", "family_bonuses", "raider_n", "intruder_n", "discard_n"]
    + [f"n{k}" for k in range(2, MAX_SEATS + 1)]
    + ["absent_on", "absent_left", "known_n", "known_value", "unseen_n", "unseen_value_sum", "unseen_flames",
       "intruder_flames_expected"]
    + [f"unseen_v{v}" for v in range(1, 7)]
    + [f"unseen_sym{s}" for s in range(1, 4)]
    + [f"unseen_pen{p}" for p in range(1, N_PEN + 1)]
    + [f"backs{k}" for k in range(4)]
    + [f"family{k}" for k in range(3)]
    # what the end of the round will cost as the boards stand (section 9), and the room left
    + ["no_hat", "no_farm", "no_doll", "farm_margin", "family_margin", "still_in", "room", "cards_per_seat",
       "near_death", "worst_wound"]
)
_SEAT = (
    ["present", *(f"samurai{k}" for k in range(N_SAMURAI_KINDS)), *(f"wound{k}" for k in range(4)), "kiai",
     "total", "gap", "at_kiai", "over_kiai", "passed", "line_n", "hat", "farm", "doll", "own_token", "tokens",
     "last_value", *(f"last_pen{p}" for p in range(1, N_PEN + 1))]
)
NAMES = tuple(_GLOBAL + [f"seat{k}.{name}" for k in range(MAX_SEATS) for name in _SEAT])
N_GLOBAL = len(_GLOBAL)
N_SEAT = len(_SEAT)
N_VALUE_FEATURES = len(NAMES)
SCHEMA = "table-v2:" + ",".join(NAMES)


@njit(cache=True)
def table_features(pub, x):
    """Write the features of pub, seats clockwise from pub.acting, into x[:N_VALUE_FEATURES]."""
    for i in range(N_VALUE_FEATURES):
        x[i] = 0.0
    o = _village(pub, x)
    parts = np.empty((MAX_SEATS, N_F), dtype=np.int64)
    for s in range(pub.n):
        miss = 0
        for d in range(3):
            if pub.defence[s, d] < 0:
                miss |= 1 << d
        board_part(miss, pub.passed[s], pub.kiai[s] - pub.total[s], pub.wound[s], parts[s])
    forecast(parts, pub.n, pub.farmsteads, pub.families, pub.raider_n, x, o)
    _boards(pub, x)


@njit(cache=True, inline="always")
def _village(pub, x):
    """The village, the stacks, the team's size, the absent tokens, the known card and the unseen
    multiset (section 12: by value, symbol, penalty and flame); returns where the forecast goes."""
    n = pub.n
    r = pub.round_no
    if 1 <= r <= 3:
        x[r - 1] = 1.0
    x[3] = pub.barricades
    x[4] = pub.barricades_max
    x[5] = pub.farmsteads
    x[6] = pub.families
    x[7] = pub.farm_penalties
    x[8] = pub.family_bonuses
    x[9] = pub.raider_n
    x[10] = pub.intruder_n
    x[11] = pub.discard_n
    x[12 + n - 2] = 1.0
    i = 12 + MAX_SEATS - 1
    x[i] = pub.absent_on
    left = 0
    m = pub.absent_avail
    while m:
        left += m & 1
        m >>= 1
    x[i + 1] = left
    x[i + 2] = pub.known_n
    x[i + 3] = pub.value[pub.known[0]] if pub.known_n > 0 else 0.0
    base_v = i + 8
    base_s = base_v + 6
    base_p = base_s + 3
    unseen = 0
    vsum = 0
    flames = 0
    for c in range(pub.n_cards):
        if pub.unseen[c]:
            unseen += 1
            v = pub.value[c]
            vsum += v
            flames += pub.flame[c]
            if 1 <= v <= 6:
                x[base_v + v - 1] += 1.0
            sym = pub.symbol[c]
            if sym > 0:
                x[base_s + sym - 1] += 1.0
            if pub.pen1[c] > 0:
                x[base_p + pub.pen1[c] - 1] += 1.0
            if pub.pen2[c] > 0:
                x[base_p + pub.pen2[c] - 1] += 1.0
    x[i + 4] = unseen
    x[i + 5] = vsum
    x[i + 6] = flames
    x[i + 7] = pub.intruder_n * flames / unseen if unseen > 0 else 0.0
    base_b = base_p + N_PEN
    for k in range(4):
        x[base_b + k] = pub.backs_left[k]
    for k in range(3):
        x[base_b + 4 + k] = (pub.family_mask >> k) & 1
    return base_b + 7


@njit(cache=True, inline="always")
def _boards(pub, x):
    """Every board, clockwise from the acting samurai."""
    n = pub.n
    a = pub.acting
    for k in range(n):
        s = (a + k) % n
        o = N_GLOBAL + k * N_SEAT
        x[o] = 1.0
        x[o + 1 + pub.samurai[s]] = 1.0
        w = pub.wound[s]
        if w < 4:
            x[o + 8 + w] = 1.0
        kv = pub.kiai[s]
        t = pub.total[s]
        x[o + 12] = kv
        x[o + 13] = t
        x[o + 14] = kv - t
        x[o + 15] = 1.0 if t == kv else 0.0
        x[o + 16] = 1.0 if t > kv else 0.0
        x[o + 17] = pub.passed[s]
        x[o + 18] = pub.line_n[s]
        for d in range(3):
            x[o + 19 + d] = 1.0 if pub.defence[s, d] >= 0 else 0.0
        x[o + 22] = 1.0 if pub.holder[s] == s else 0.0
        held = 0
        for u in range(n):
            if pub.holder[u] == s:
                held += 1
        x[o + 23] = held
        ln = pub.line_n[s]
        if ln > 0:
            c = pub.line[s, ln - 1]
            x[o + 24] = pub.value[c]
            if pub.pen1[c] > 0:
                x[o + 25 + pub.pen1[c] - 1] = 1.0
            if pub.pen2[c] > 0:
                x[o + 25 + pub.pen2[c] - 1] = 1.0


@njit(cache=True)
def table_value(p, pub, x):
    """The chance to win from pub (the start of a turn, or a finished game: exact). The layers are
    summed in registers (strategies.nets.dense) over the inputs that are not 0 (the units above 0),
    each in the order of its inputs, in float32."""
    if pub.game_over:
        return 1.0 if pub.outcome == OUT_WIN else 0.0
    table_features(pub, x)
    s = np.empty(N_VALUE_FEATURES + MAX_H1 + MAX_H2, dtype=np.float32)
    at = np.empty(N_VALUE_FEATURES, dtype=np.int64)
    x32, a1, a2 = s[:N_VALUE_FEATURES], s[N_VALUE_FEATURES:-MAX_H2], s[-MAX_H2:]
    n = 0
    for i in range(N_VALUE_FEATURES):
        x32[i] = np.float32(x[i])
        at[n] = i
        n += x32[i] != 0.0
    # the record's weights are zero past vh1 and vh2: the padding's sums are 0 and add nothing
    block64(p.vw1, p.vb1, 0, x32, at, n, a1)
    n = 0
    for i in range(p.vh1):
        at[n] = i
        n += a1[i] > 0.0
    block32(p.vw2, p.vb2, 0, a1, at, n, a2)
    z = p.vb3[0]
    for i in range(p.vh2):
        if a2[i] > 0.0:
            z += a2[i] * p.vw3[i]
    return 1.0 / (1.0 + np.exp(-np.float64(z)))


MAX_H1 = 64
MAX_H2 = 32  # the widths lanes.block64 and block32 sum
DATA = (
    ("vh1", np.int64),
    ("vh2", np.int64),
    ("vw1", np.float32, (N_VALUE_FEATURES, MAX_H1)),
    ("vb1", np.float32, (MAX_H1,)),
    ("vw2", np.float32, (MAX_H1, MAX_H2)),
    ("vb2", np.float32, (MAX_H2,)),
    ("vw3", np.float32, (MAX_H2,)),
    ("vb3", np.float32, (1,)),
)
