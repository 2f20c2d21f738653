"""`learned`: `selfplay`'s base where a family value is played over it, and its answers where kiai
ships no value. Two small networks (strategies.nets.modelfile), trained
by `kiai train learned` on what the lookahead finds when it weighs a question by rollouts, answer the
questions that matter most: the turn's action (Fight, Pass, Support and to whom), where a card
in hand goes (confront, defend, Katsushiro's redraw, Kyuzo's discard, a give and to whom) and
Kikuchiyo's second fight. They read the public table only (strategies.nets.features, R-19). The
rarer questions (absent tokens, ignoring a penalty, a boss's penalty order and defence card,
whether to activate Kiai and every Kiai effect's targets, Daisuke's receiver placing his card)
go to `keeper`, the slot keeper, whose own answer is also one of the networks' inputs.

A model may average the scores of two such pairs of networks (an ensemble, strategies.nets.modelfile;
the shipped model averages two training iterations'): the two are computed side by side, the
second in the first's wait for its sums.

The model's weights are data in the strategy's parameter record (the run layer fills it from
the model file, strategies.nets.modelfile), read inside numba: playing needs no machine-learning
library. The networks compute in float32 in a fixed order, so a game is the same on every
machine.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
from numba import njit, uint64
from numba.core.errors import NumbaExperimentalFeatureWarning

from kiai.simcore.questions import Q_ACTION, Q_CARD, Q_FIGHT_AGAIN
from kiai.simcore.state import MEM
from kiai.strategies import keeper, risk
from kiai.strategies.base import Param, Strategy, for_experts
from kiai.strategies.nets.features import N_ACTION, N_CARD, N_FEATURES, NO_RULE, NO_VALUES, action_slot, card_reasoning, fill_counted
from kiai.strategies.nets.dense import BLOCK, LANE, MAX_FEATURES, MAX_HIDDEN, pair_layer
from kiai.strategies.nets.modelfile import HEADS, LEARNED, MAX_MEMBERS, flush_subnormals, load
from kiai.strategies.helpers.sense import fight_odds

assert max(HEADS.values()) <= BLOCK  # the scores get one block

DATA = (
    ("inputs", np.int64),
    ("hidden", np.int64),
    ("members", np.int64),
    # the layers are stored transposed (inputs x outputs): the inner loop then runs over the
    # outputs, independent sums that vectorise without reordering any of them; one set per
    # member of an ensemble (strategies.nets.modelfile.ensemble)
    *((f"{h}{k}", np.float32, (MAX_MEMBERS, *shape)) for h in ("a", "c") for k, shape in (
        ("w1", (MAX_FEATURES, MAX_HIDDEN)), ("b1", (MAX_HIDDEN,)),
        ("w2", (MAX_HIDDEN, MAX_HIDDEN)), ("b2", (MAX_HIDDEN,)),
        ("w3", (MAX_HIDDEN, BLOCK)), ("b3", (BLOCK,)),
    )),
)

STRATEGY = Strategy(
    "learned",
    "Learned from the lookahead: two small networks answer the action, the card in hand and Kikuchiyo's second fight; keeper answers the rest.",
    (
        *for_experts(keeper.STRATEGY.params),  # keeper's, for the questions it answers (and its answer is an input): first
        Param("edge", 0.001, 0.0, 0.1, False, "leave keeper's answer only for one worth this much more by the model (chance to win)", expert=True),
    ),
    counts=True,
    data=DATA,
)
params = STRATEGY.reader()

# keeper's functions take learned's parameter record, which starts with keeper's fields: numba
# types it as a subtype of keeper's record (its "experimental" record subtyping), on purpose
warnings.filterwarnings("ignore", message=r"Record\(.*has been considered a subtype", category=NumbaExperimentalFeatureWarning)

# mem.work, the strategy's scratch: the features, then for each layer two lanes of LANE
# outputs, one per member of an ensemble (_scores)
_X, _H1, _H2, OUT = 0, MAX_FEATURES, MAX_FEATURES + 2 * LANE, MAX_FEATURES + 4 * LANE
# numba checks no bounds: the scratch must hold every layer's two lanes, padding included
assert MEM.fields["work"][0].shape[0] >= OUT + 2 * LANE and MEM.fields["nz_at"][0].shape[0] >= MAX_FEATURES
assert MAX_MEMBERS == 2  # the two lanes


@njit(cache=True)
def _scores(w1, b1, w2, b2, w3, b3, members, nf, nh, no, work, nz_at):
    """The network's scores of the features in work[_X:], into work[OUT:]: with two members
    (an ensemble; member j's arrays are w1[j], ...) the mean of theirs, added in member order,
    then scaled, so that it is the same on every machine."""
    x = work[_X:_X + nf]
    nz = uint64(0)
    for i in range(nf):
        nz_at[nz] = i
        nz += uint64(x[i] != 0.0)
    second = members - 1
    pair_layer(w1, b1, second, nh, work, _X, _H1, nz_at, nz, False)
    pair_layer(w2, b2, second, nh, work, _H1, _H2, nz_at, nh, True)
    pair_layer(w3, b3, second, no, work, _H2, OUT, nz_at, nh, True)
    if second:
        half = np.float32(0.5)
        for i in range(no):
            work[OUT + i] = (work[OUT + i] + work[OUT + LANE + i]) * half


@njit(cache=True)
def slot_of(pub, q, seat, answer):
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
    fill_counted(kp, pub, q, seat, a, legal, slot_of(pub, q, seat, mine), work, rule, odds, values, score)
    if q == Q_CARD:
        _scores(m.cw1, m.cb1, m.cw2, m.cb2, m.cw3, m.cb3, m.members, m.inputs, m.hidden, N_CARD, work, mem.nz_at)
    else:
        _scores(m.aw1, m.ab1, m.aw2, m.ab2, m.aw3, m.ab3, m.members, m.inputs, m.hidden, N_ACTION, work, mem.nz_at)
    # keeper's answer stands unless another is worth `edge` more: the model is fitted to noisy
    # rollout means, and the best of several noisy estimates is biased upwards
    best = mine
    bv = work[OUT + slot_of(pub, q, seat, mine)] + m.edge
    rest = legal & ~(1 << mine)
    answer = 0
    while rest:  # the other legal answers, lowest first, up to the highest (not all 63 bits)
        if rest & 1:
            v = work[OUT + slot_of(pub, q, seat, answer)]
            if v > bv:
                bv = v
                best = answer
        rest >>= 1
        answer += 1
    return best


def load_model(path=None, components=None):
    """The model file this strategy plays (GameConfig.load_model): path's, else the shipped one;
    with `components`, checked that its inputs hold their data."""
    return load(path, LEARNED, components)


def label(config, model) -> str:
    """What plays, for a result's first line (GameConfig.played_as): the model file and its hash."""
    shipped = Path(model.path).resolve() == Path(load_model().path).resolve()
    return f"{'model' if shipped else 'model ' + Path(model.path).name}, {model.sha256[:8]}"


def data_record(config) -> np.ndarray:
    """The parameter record the run layer hands the engine: keeper's parameters, then the model
    named by config.model (default: the shipped one), checked against the game's components."""
    return record(load_model(config.model, config.components), config.params)


def record(model, params: dict) -> np.ndarray:
    """learned's record: its parameters (defaults with params applied), then model's networks."""
    rec = STRATEGY.new_record()
    vec = STRATEGY.param_vector(params)
    for i, p in enumerate(STRATEGY.params):
        rec[0][p.name] = vec[i]
    rec[0]["inputs"] = N_FEATURES
    rec[0]["hidden"] = model.hidden
    rec[0]["members"] = model.members
    for j in range(model.members):
        pack(model.member(j), model.hidden, rec[0], j)
    return rec


def pack(arrays: dict, hidden: int, rec, j: int = 0) -> None:
    """Write one network pair's arrays (strategies.nets.modelfile's names and shapes) into member j's
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
