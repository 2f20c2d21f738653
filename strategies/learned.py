"""`learned`: the strategy kiai plays by default. Two small networks (strategies.model), trained
by `kiai train` on what the lookahead finds when it weighs a question by rollouts, answer the
questions that matter most: the turn's action (Fight, Pass, Support and to whom), where a card
in hand goes (confront, defend, Katsushiro's redraw, Kyuzo's discard, a give and to whom) and
Kikuchiyo's second fight. They read the public table only (strategies.features, R-19). The
rarer questions (absent tokens, ignoring a penalty, a boss's penalty order and defence card,
whether to activate Kiai and every Kiai effect's targets, Daisuke's receiver placing his card)
go to `keeper`, the slot keeper, whose own answer is also one of the networks' inputs.

A model may average the scores of two such pairs of networks (an ensemble, strategies.model;
the shipped model averages two training iterations'), at the cost of a second pass.

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

from simcore.questions import Q_ACTION, Q_CARD, Q_FIGHT_AGAIN
from simcore.state import MEM
from strategies import keeper, risk
from strategies.base import Param, Strategy
from strategies.features import N_ACTION, N_CARD, N_FEATURES, NO_RULE, action_slot, fill_counted
from strategies.model import HEADS, MAX_FEATURES, MAX_HIDDEN, MAX_MEMBERS, flush_subnormals, load
from strategies.sense import fight_odds

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

# mem.work, the strategy's scratch: the features, the two hidden layers, the scores
_X, _H1, _H2, _OUT = 0, MAX_FEATURES, MAX_FEATURES + MAX_HIDDEN, MAX_FEATURES + 2 * MAX_HIDDEN
_SUM = _OUT + _BLOCK  # an ensemble's scores added up
# numba checks no bounds: the scratch must hold every layer, padded scores and sums included
assert MEM.fields["work"][0].shape[0] >= _SUM + _BLOCK and MEM.fields["nz_at"][0].shape[0] >= MAX_FEATURES


@njit(cache=True)
def _layer(w, b, n_in, n_out, work, src, dst, relu, nz_at):
    """work[dst:dst + n_out] = b + w.T @ x, x = work[src:src + n_in] (with `relu`, its negative
    entries, a hidden layer's, count as 0), and up to the next multiple of _BLOCK outputs, from
    the zero padding. Most features are one-hot: the inputs that are not 0 are listed first in
    nz_at (every position is written; the count moves on past the non-zero ones). Then each
    block of _BLOCK outputs is summed in registers, each output in input order, so the result
    is exact on every machine. A weight row's block is taken as one slice and read at constant
    offsets: the form the SLP vectoriser (simcore._cache) turns into vector instructions.
    The arrays are sliced once and indexed by counters and unsigned positions, which numba
    knows are not negative: it then adds no wrap-around code to the loops (a third of them)."""
    x = work[src:src + n_in]
    nz = 0
    if relu:
        for i in range(n_in):
            nz_at[nz] = i
            nz += x[i] > 0.0
    else:
        for i in range(n_in):
            nz_at[nz] = i
            nz += x[i] != 0.0
    out = work[dst:dst + n_out + _BLOCK]
    for j in range(0, n_out, _BLOCK):
        bj = b[j:j + _BLOCK]
        a0, a1, a2, a3 = bj[0], bj[1], bj[2], bj[3]
        a4, a5, a6, a7 = bj[4], bj[5], bj[6], bj[7]
        a8, a9, a10, a11 = bj[8], bj[9], bj[10], bj[11]
        a12, a13, a14, a15 = bj[12], bj[13], bj[14], bj[15]
        for k in range(nz):
            i = uint64(nz_at[k])
            xi = x[i]
            r = w[i, j:j + _BLOCK]
            a0 += r[0] * xi
            a1 += r[1] * xi
            a2 += r[2] * xi
            a3 += r[3] * xi
            a4 += r[4] * xi
            a5 += r[5] * xi
            a6 += r[6] * xi
            a7 += r[7] * xi
            a8 += r[8] * xi
            a9 += r[9] * xi
            a10 += r[10] * xi
            a11 += r[11] * xi
            a12 += r[12] * xi
            a13 += r[13] * xi
            a14 += r[14] * xi
            a15 += r[15] * xi
        o = out[j:j + _BLOCK]
        o[0], o[1], o[2], o[3] = a0, a1, a2, a3
        o[4], o[5], o[6], o[7] = a4, a5, a6, a7
        o[8], o[9], o[10], o[11] = a8, a9, a10, a11
        o[12], o[13], o[14], o[15] = a12, a13, a14, a15


@njit(cache=True)
def _scores(w1, b1, w2, b2, w3, b3, nf, nh, no, work, nz_at):
    """The network's scores of the features in work[_X:], into work[_OUT:]."""
    _layer(w1, b1, nf, nh, work, _X, _H1, False, nz_at)
    _layer(w2, b2, nh, nh, work, _H1, _H2, True, nz_at)
    _layer(w3, b3, nh, no, work, _H2, _OUT, True, nz_at)


@njit(cache=True)
def _ensemble_scores(w1, b1, w2, b2, w3, b3, members, nf, nh, no, work, nz_at):
    """The mean of the members' scores (each member's arrays are w1[j], ...), into work[_OUT:]:
    summed member by member in order, then scaled, so that the sum is the same on every
    machine. One member is its scores as they are."""
    _scores(w1[0], b1[0], w2[0], b2[0], w3[0], b3[0], nf, nh, no, work, nz_at)
    if members == 1:
        return
    # element by element: numba's whole-array forms of these copy or allocate at every call
    for i in range(_BLOCK):
        work[_SUM + i] = work[_OUT + i]
    for j in range(1, members):
        _scores(w1[j], b1[j], w2[j], b2[j], w3[j], b3[j], nf, nh, no, work, nz_at)
        for i in range(_BLOCK):
            work[_SUM + i] += work[_OUT + i]
    scale = np.float32(1.0 / members)
    for i in range(_BLOCK):
        work[_OUT + i] = work[_SUM + i] * scale


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
    elif q == Q_CARD and not one_answer:
        mine = keeper.decide(prm, pub, mem, q, seat, a, b, legal)
        rule = NO_RULE
        odds = fight_odds(pub, seat)
    else:
        return keeper.decide(prm, pub, mem, q, seat, a, b, legal)
    m = params(prm)
    work = mem.work
    fill_counted(kp, pub, q, seat, a, legal, _slot_of(pub, q, seat, mine), work, rule, odds)
    if q == Q_CARD:
        _ensemble_scores(m.cw1, m.cb1, m.cw2, m.cb2, m.cw3, m.cb3, m.members, m.inputs, m.hidden, N_CARD, work, mem.nz_at)
    else:
        _ensemble_scores(m.aw1, m.ab1, m.aw2, m.ab2, m.aw3, m.ab3, m.members, m.inputs, m.hidden, N_ACTION, work,
                         mem.nz_at)
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


def data_record(config) -> np.ndarray:
    """The parameter record the run layer hands the engine: keeper's parameters, then the model
    named by config.model (default: the shipped one), checked against the game's components."""
    model = load(config.model, config.components.sha256)
    rec = np.zeros(1, dtype=STRATEGY.dtype)
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
