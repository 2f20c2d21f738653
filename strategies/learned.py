"""`learned`: the strategy kiai plays by default. Two small networks (strategies.model), trained
by `kiai train` on what the lookahead finds when it weighs a question by rollouts, answer the
questions that matter most: the turn's action (Fight, Pass, Support and to whom), where a card
in hand goes (confront, defend, Katsushiro's redraw, Kyuzo's discard, a give and to whom) and
Kikuchiyo's second fight. They read the public table only (strategies.features, R-19). The
rarer questions (absent tokens, ignoring a penalty, a boss's penalty order and defence card,
whether to activate Kiai and every Kiai effect's targets, Daisuke's receiver placing his card)
go to `keeper`, the slot keeper, whose own answer is also one of the networks' inputs.

The model's weights are data in the strategy's parameter record (the run layer fills it from
the model file, strategies.model), read inside numba: playing needs no machine-learning
library. The networks compute in float32 in a fixed order, so a game is the same on every
machine.
"""

from __future__ import annotations

import warnings

import numpy as np
from numba import njit
from numba.core.errors import NumbaExperimentalFeatureWarning

from simcore.questions import Q_ACTION, Q_CARD, Q_FIGHT_AGAIN
from strategies import keeper
from strategies.base import Param, Strategy
from strategies.features import N_ACTION, N_CARD, N_FEATURES, action_slot, fill
from strategies.model import HEADS, MAX_FEATURES, MAX_HIDDEN, load

DATA = (
    ("inputs", np.int64),
    ("hidden", np.int64),
    # the layers are stored transposed (inputs x outputs): the inner loop then runs over the
    # outputs, independent sums that vectorise without reordering any of them
    *((f"{h}{k}", np.float32, shape) for h in ("a", "c") for k, shape in (
        ("w1", (MAX_FEATURES, MAX_HIDDEN)), ("b1", (MAX_HIDDEN,)),
        ("w2", (MAX_HIDDEN, MAX_HIDDEN)), ("b2", (MAX_HIDDEN,)),
        ("w3", (MAX_HIDDEN, 8)), ("b3", (8,)),
    )),
)

STRATEGY = Strategy(
    "learned",
    "Learned from the lookahead: two small networks answer the action, the card in hand and Kikuchiyo's second fight; keeper answers the rest.",
    (
        *keeper.STRATEGY.params,  # keeper's, for the questions it answers (and its answer is an input): first
        Param("edge", 0.0075, 0.0, 0.1, False, "leave keeper's answer only for one worth this much more by the model (chance to win)"),
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


@njit(cache=True)
def _layer(w, b, n_in, n_out, work, src, dst, relu, acc):
    """work[dst:dst + n_out] = b + w.T @ x, x = work[src:src + n_in] (with `relu`, its negative
    entries, a hidden layer's, count as 0). The sums run in acc, an array apart from work and
    w, so that the compiler can vectorise the inner loop; each output is summed in input order,
    so the result is exact on every machine. Zero inputs are skipped: most features are
    one-hot."""
    for j in range(n_out):
        acc[j] = b[j]
    for i in range(n_in):
        xi = work[src + i]
        if xi > 0.0 or (xi < 0.0 and not relu):
            for j in range(n_out):
                acc[j] += w[i, j] * xi
    for j in range(n_out):
        work[dst + j] = acc[j]


@njit(cache=True)
def _scores(w1, b1, w2, b2, w3, b3, nf, nh, no, work, acc):
    """The network's scores of the features in work[_X:], into work[_OUT:]."""
    _layer(w1, b1, nf, nh, work, _X, _H1, False, acc)
    _layer(w2, b2, nh, nh, work, _H1, _H2, True, acc)
    _layer(w3, b3, nh, no, work, _H2, _OUT, True, acc)


@njit(cache=True)
def _slot_of(pub, q, seat, answer):
    if q == Q_CARD:
        return answer
    if q == Q_FIGHT_AGAIN:
        return answer  # 0 no (the pass slot), 1 yes (the fight slot)
    return action_slot(pub, seat, answer)


@njit(cache=True)
def decide(prm, pub, mem, q, seat, a, b, legal):
    mine = keeper.decide(prm, pub, mem, q, seat, a, b, legal)
    if q != Q_ACTION and q != Q_CARD and q != Q_FIGHT_AGAIN:
        return mine
    m = params(prm)
    work = mem.work
    # keeper's view of the same record (its fields come first): fill and the keeper functions
    # it calls are then compiled once, for keeper's record, and shared with keeper and lookahead
    fill(keeper.params(prm), pub, q, seat, a, legal, _slot_of(pub, q, seat, mine), work)
    if q == Q_CARD:
        _scores(m.cw1, m.cb1, m.cw2, m.cb2, m.cw3, m.cb3, m.inputs, m.hidden, N_CARD, work, mem.acc)
    else:
        _scores(m.aw1, m.ab1, m.aw2, m.ab2, m.aw3, m.ab3, m.inputs, m.hidden, N_ACTION, work, mem.acc)
    # keeper's answer stands unless another is worth `edge` more: the model is fitted to noisy
    # rollout means, and the best of several noisy estimates is biased upwards
    best = mine
    bv = work[_OUT + _slot_of(pub, q, seat, mine)] + m.edge
    for answer in range(63):
        if (legal >> answer) & 1 and answer != mine:
            v = work[_OUT + _slot_of(pub, q, seat, answer)]
            if v > bv:
                bv = v
                best = answer
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
    w, nh = model.arrays, model.hidden
    for head, prefix in (("action", "a"), ("card", "c")):
        slots = HEADS[head]
        rec[0][f"{prefix}w1"][:N_FEATURES, :nh] = w[f"{head}_w1"].T
        rec[0][f"{prefix}b1"][:nh] = w[f"{head}_b1"]
        rec[0][f"{prefix}w2"][:nh, :nh] = w[f"{head}_w2"].T
        rec[0][f"{prefix}b2"][:nh] = w[f"{head}_b2"]
        rec[0][f"{prefix}w3"][:nh, :slots] = w[f"{head}_w3"].T
        rec[0][f"{prefix}b3"][:slots] = w[f"{head}_b3"]
    return rec
