"""`learned`: `selfplay`'s base where a family value is played over it, and its answers where kiai
ships no value. Two small networks (strategies.model), trained
by `kiai train` on what the lookahead finds when it weighs a question by rollouts, answer the
questions that matter most: the turn's action (Fight, Pass, Support and to whom), where a card
in hand goes (confront, defend, Katsushiro's redraw, Kyuzo's discard, a give and to whom) and
Kikuchiyo's second fight. They read the public table only (strategies.features, R-19). The
rarer questions (absent tokens, ignoring a penalty, a boss's penalty order and defence card,
whether to activate Kiai and every Kiai effect's targets, Daisuke's receiver placing his card)
go to `keeper`, the slot keeper, whose own answer is also one of the networks' inputs.

A model may average the scores of two such pairs of networks (an ensemble, strategies.model;
the shipped model averages two training iterations'): the two are computed side by side, the
second in the first's wait for its sums.

The model's weights are data in the strategy's parameter record (the run layer fills it from
the model file, strategies.model), read inside numba: playing needs no machine-learning
library. The networks compute in float32 in a fixed order, so a game is the same on every
machine.
"""

from __future__ import annotations

import warnings

import numpy as np
from numba import njit, uint64
from numba.core.errors import NumbaExperimentalFeatureWarning

from kiai.simcore.questions import Q_ACTION, Q_CARD, Q_FIGHT_AGAIN
from kiai.simcore.state import MEM
from kiai.strategies import keeper, risk
from kiai.strategies.base import Param, Strategy
from kiai.strategies.features import N_ACTION, N_CARD, N_FEATURES, NO_RULE, NO_VALUES, action_slot, card_reasoning, fill_counted
from kiai.strategies.model import HEADS, MAX_FEATURES, MAX_HIDDEN, MAX_MEMBERS, flush_subnormals, load
from kiai.strategies.sense import fight_odds

# a layer's outputs are summed _BLOCK at a time, in registers: every layer's width is padded to a
# multiple of it (MAX_HIDDEN is one; the scores, at most 8, get one block)
_BLOCK = 16
assert MAX_HIDDEN % _BLOCK == 0 and max(HEADS.values()) <= _BLOCK

DATA = (
    ("inputs", np.int64),
    ("hidden", np.int64),
    ("members", np.int64),
    # the layers are stored transposed (inputs x outputs): the inner loop then runs over the
    # outputs, independent sums that vectorise without reordering any of them; one set per
    # member of an ensemble (strategies.model.ensemble)
    *((f"{h}{k}", np.float32, (MAX_MEMBERS, *shape)) for h in ("a", "c") for k, shape in (
        ("w1", (MAX_FEATURES, MAX_HIDDEN)), ("b1", (MAX_HIDDEN,)),
        ("w2", (MAX_HIDDEN, MAX_HIDDEN)), ("b2", (MAX_HIDDEN,)),
        ("w3", (MAX_HIDDEN, _BLOCK)), ("b3", (_BLOCK,)),
    )),
)

STRATEGY = Strategy(
    "learned",
    "Learned from the lookahead: two small networks answer the action, the card in hand and Kikuchiyo's second fight; keeper answers the rest.",
    (
        *keeper.STRATEGY.params,  # keeper's, for the questions it answers (and its answer is an input): first
        Param("edge", 0.001, 0.0, 0.1, False, "leave keeper's answer only for one worth this much more by the model (chance to win)"),
    ),
    counts=True,
    data=DATA,
)
params = STRATEGY.reader()

# keeper's functions take learned's parameter record, which starts with keeper's fields: numba
# types it as a subtype of keeper's record (its "experimental" record subtyping), on purpose
warnings.filterwarnings("ignore", message=r"Record\(.*has been considered a subtype", category=NumbaExperimentalFeatureWarning)

# mem.work, the strategy's scratch: the features, then for each layer two lanes of _LANE
# outputs, one per member of an ensemble (_scores)
_LANE = MAX_HIDDEN
_X, _H1, _H2, _OUT = 0, MAX_FEATURES, MAX_FEATURES + 2 * _LANE, MAX_FEATURES + 4 * _LANE
# numba checks no bounds: the scratch must hold every layer's two lanes, padding included
assert MEM.fields["work"][0].shape[0] >= _OUT + 2 * _LANE and MEM.fields["nz_at"][0].shape[0] >= MAX_FEATURES
assert MAX_MEMBERS == 2  # the two lanes


@njit(cache=True, inline="always")
def _layer(w, b, second, n_out, work, src, dst, at, n_at, relu):
    """Members 0 and `second` side by side: lane m of work[dst:] (work[dst + m * _LANE:]) =
    b[m] + w[m].T @ x_m, up to the next multiple of _BLOCK outputs (from the zero padding). The
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
    cost). A block of _BLOCK outputs is summed in registers, a weight row's block taken as one
    slice and read at constant offsets: the form the SLP vectoriser (simcore._cache) turns into
    one vector instruction per member and input. The arrays are sliced once and indexed by
    counters and unsigned positions, which numba knows are not negative: it then adds no
    wrap-around code to the loops. It is inlined into _scores, whose arrays numba then counts
    references to once per call, not once per layer."""
    lane_in = uint64(_LANE if relu else 0)
    x = work[src:src + (lane_in + _LANE if relu else MAX_FEATURES)]  # both lanes, or every feature
    out = work[dst:dst + 2 * _LANE]
    wa, wb, ba, bb = w[0], w[second], b[0], b[second]
    zero = np.float32(0.0)
    for j in range(0, n_out, _BLOCK):
        r = ba[j:j + _BLOCK]
        a0, a1, a2, a3, a4, a5, a6, a7 = r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7]
        a8, a9, a10, a11, a12, a13, a14, a15 = r[8], r[9], r[10], r[11], r[12], r[13], r[14], r[15]
        r = bb[j:j + _BLOCK]
        c0, c1, c2, c3, c4, c5, c6, c7 = r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7]
        c8, c9, c10, c11, c12, c13, c14, c15 = r[8], r[9], r[10], r[11], r[12], r[13], r[14], r[15]
        for k in range(n_at):
            i = uint64(k if relu else at[k])
            xi, yi = x[i], x[i + lane_in]
            if relu:
                xi = xi if xi > zero else zero
                yi = yi if yi > zero else zero
            r = wa[i, j:j + _BLOCK]
            a0 += r[0] * xi; a1 += r[1] * xi; a2 += r[2] * xi; a3 += r[3] * xi  # noqa: E702
            a4 += r[4] * xi; a5 += r[5] * xi; a6 += r[6] * xi; a7 += r[7] * xi  # noqa: E702
            a8 += r[8] * xi; a9 += r[9] * xi; a10 += r[10] * xi; a11 += r[11] * xi  # noqa: E702
            a12 += r[12] * xi; a13 += r[13] * xi; a14 += r[14] * xi; a15 += r[15] * xi  # noqa: E702
            r = wb[i, j:j + _BLOCK]
            c0 += r[0] * yi; c1 += r[1] * yi; c2 += r[2] * yi; c3 += r[3] * yi  # noqa: E702
            c4 += r[4] * yi; c5 += r[5] * yi; c6 += r[6] * yi; c7 += r[7] * yi  # noqa: E702
            c8 += r[8] * yi; c9 += r[9] * yi; c10 += r[10] * yi; c11 += r[11] * yi  # noqa: E702
            c12 += r[12] * yi; c13 += r[13] * yi; c14 += r[14] * yi; c15 += r[15] * yi  # noqa: E702
        o = out[j:j + _BLOCK]
        o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7] = a0, a1, a2, a3, a4, a5, a6, a7
        o[8], o[9], o[10], o[11], o[12], o[13], o[14], o[15] = a8, a9, a10, a11, a12, a13, a14, a15
        o = out[_LANE + j:_LANE + j + _BLOCK]
        o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7] = c0, c1, c2, c3, c4, c5, c6, c7
        o[8], o[9], o[10], o[11], o[12], o[13], o[14], o[15] = c8, c9, c10, c11, c12, c13, c14, c15


@njit(cache=True)
def _scores(w1, b1, w2, b2, w3, b3, members, nf, nh, no, work, nz_at):
    """The network's scores of the features in work[_X:], into work[_OUT:]: with two members
    (an ensemble; member j's arrays are w1[j], ...) the mean of theirs, added in member order,
    then scaled, so that it is the same on every machine."""
    x = work[_X:_X + nf]
    nz = uint64(0)
    for i in range(nf):
        nz_at[nz] = i
        nz += uint64(x[i] != 0.0)
    second = members - 1
    _layer(w1, b1, second, nh, work, _X, _H1, nz_at, nz, False)
    _layer(w2, b2, second, nh, work, _H1, _H2, nz_at, nh, True)
    _layer(w3, b3, second, no, work, _H2, _OUT, nz_at, nh, True)
    if second:
        half = np.float32(0.5)
        for i in range(no):
            work[_OUT + i] = (work[_OUT + i] + work[_OUT + _LANE + i]) * half


@njit(cache=True)
def _slot_of(pub, q, seat, answer):
    if q == Q_CARD:
        return answer
    if q == Q_FIGHT_AGAIN:
        return answer  # 0 no (the pass slot), 1 yes (the fight slot)
    return action_slot(pub, seat, answer)


@njit(cache=True)
def decide(prm, pub, mem, q, seat, a, b, legal):
    # keeper's view of the same record (its fields come first): the features and the keeper
    # functions they call are then compiled once, for keeper's record, and shared with keeper
    # and lookahead
    kp = keeper.params(prm)
    one_answer = legal & (legal - 1) == 0  # nothing to weigh
    if q == Q_ACTION or q == Q_FIGHT_AGAIN:
        # the fighting rule and the count serve keeper's answer and the features alike
        rule = risk.fight_rule(kp, pub, seat)
        odds = fight_odds(pub, seat)
        mine = keeper.fight_counted(kp, pub, q, rule, odds)
        if one_answer:
            return mine
        values, score = NO_VALUES, 0.0
    elif q == Q_CARD and not one_answer:
        # and the options' values serve them alike for a card in hand
        values, score = card_reasoning(kp, pub, seat, a, legal)
        mine = keeper.card_answer(kp, pub, seat, a, legal, values, score)
        rule = NO_RULE
        odds = fight_odds(pub, seat)
    else:
        return keeper.decide(prm, pub, mem, q, seat, a, b, legal)
    m = params(prm)
    work = mem.work
    fill_counted(kp, pub, q, seat, a, legal, _slot_of(pub, q, seat, mine), work, rule, odds, values, score)
    if q == Q_CARD:
        _scores(m.cw1, m.cb1, m.cw2, m.cb2, m.cw3, m.cb3, m.members, m.inputs, m.hidden, N_CARD, work, mem.nz_at)
    else:
        _scores(m.aw1, m.ab1, m.aw2, m.ab2, m.aw3, m.ab3, m.members, m.inputs, m.hidden, N_ACTION, work, mem.nz_at)
    # keeper's answer stands unless another is worth `edge` more: the model is fitted to noisy
    # rollout means, and the best of several noisy estimates is biased upwards
    best = mine
    bv = work[_OUT + _slot_of(pub, q, seat, mine)] + m.edge
    rest = legal & ~(1 << mine)
    answer = 0
    while rest:  # the other legal answers, lowest first, up to the highest (not all 63 bits)
        if rest & 1:
            v = work[_OUT + _slot_of(pub, q, seat, answer)]
            if v > bv:
                bv = v
                best = answer
        rest >>= 1
        answer += 1
    return best


load_model = load  # the model file this strategy plays (GameConfig.load_model)


def data_record(config) -> np.ndarray:
    """The parameter record the run layer hands the engine: keeper's parameters, then the model
    named by config.model (default: the shipped one), checked against the game's components."""
    model = load(config.model, config.components.sha256)
    rec = STRATEGY.new_record()
    vec = STRATEGY.param_vector(config.params)
    for i, p in enumerate(STRATEGY.params):
        rec[0][p.name] = vec[i]
    rec[0]["inputs"] = N_FEATURES
    rec[0]["hidden"] = model.hidden
    rec[0]["members"] = model.members
    for j in range(model.members):
        pack(model.member(j), model.hidden, rec[0], j)
    return rec


def pack(arrays: dict, hidden: int, rec, j: int = 0) -> None:
    """Write one network pair's arrays (strategies.model's names and shapes) into member j's
    weight fields of a zeroed parameter record, transposed, padded with zeros to the fields'
    sizes and with no subnormal numbers (model.save writes none, but files from before it, the
    shipped model among them, hold some)."""
    arrays = {k: flush_subnormals(v) for k, v in arrays.items()}
    for head, prefix in (("action", "a"), ("card", "c")):
        slots = HEADS[head]
        rec[f"{prefix}w1"][j, :N_FEATURES, :hidden] = arrays[f"{head}_w1"].T
        rec[f"{prefix}b1"][j, :hidden] = arrays[f"{head}_b1"]
        rec[f"{prefix}w2"][j, :hidden, :hidden] = arrays[f"{head}_w2"].T
        rec[f"{prefix}b2"][j, :hidden] = arrays[f"{head}_b2"]
        rec[f"{prefix}w3"][j, :hidden, :slots] = arrays[f"{head}_w3"].T
        rec[f"{prefix}b3"][j, :slots] = arrays[f"{head}_b3"]
