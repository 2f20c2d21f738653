"""`selfplay`, the strategy kiai plays by default: answers by the value of the table each answer
leads to, a value learned by self-play.

At the turn's action, a card in hand and Kikuchiyo's second fight, selfplay writes the features
of each legal answer's afterstate (strategies.nets.afterstate: the public table just after the answer,
before anything hidden is read) and takes the answer whose afterstate a small network values
most: its chance to win from there. It leaves its base's answer (keeper's, or learned's with
`base` 1) only for one valued `edge` more; with learned as the base, `doubt` below 1 spends the
value only on the questions learned itself finds close. A value file's header may say how it
plays best (value_params: over learned's answers where it was trained over them, or where that
played better on deals of its own); the parameters a user gives win. With `chance` 1 an answer
that draws a card is valued by the exact expectation over that card of its best handling.
`weigh` narrows the questions it weighs, and `settled` hands the rest of a game to the base
once the value has all but given it up. The other questions go to the base. Where kiai ships no value for the table's family (team size and
level) and no --model names one, it gives learned's answers.

The network's first layer is a sum over the features; the afterstates of one question differ
from the reference table (the base's answer's afterstate) in a few features only, so each other
answer adds the rows of those features to the reference's sums (as NNUE does) instead of summing
all of them again; Supports to different samurai differ in two features, so one serves the rest.

Where a training run collects its own games (strategies.helpers.collect, AFTERSTATES), it writes
each weighed question's chosen afterstate as a row, the positions its value learns from, and
answers the run's `explore` share of those questions at random.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
from numba import njit
from numba.core.errors import NumbaExperimentalFeatureWarning

from kiai.simcore.codes import MAX_SEATS
from kiai.simcore.fight import card_options
from kiai.simcore.obs import nth_bit, popcount
from kiai.simcore.questions import (
    ACT_FIGHT,
    ACT_SUPPORT,
    CARD_CONFRONT,
    CARD_DEFEND,
    CARD_GIVE_RIGHT,
    CARD_REDRAW,
    Q_ACTION,
    Q_CARD,
    Q_FIGHT_AGAIN,
)
from kiai.simcore.rng import next_u64, stream_below
from kiai.simcore.state import MEM, int_to_voidptr
from kiai.strategies import keeper, learned
from kiai.strategies.nets.afterstate import (
    ED_DRAWN,
    ED_EXTRA,
    ED_PHASE,
    H1,
    H2,
    N_AFTER,
    N_ED,
    N_F,
    N_GLOBAL,
    N_SEAT,
    N_U,
    PH_CARD,
    S_TOKEN,
    after_delta,
    after_features,
    count_card,
    edit_for,
    new_edit,
    touched,
    union,
    unseen_counts,
    written,
)
from kiai.strategies.base import WEIGHED, Param, Strategy, for_experts
from kiai.words import said_params
from kiai.strategies.helpers.collect import AFTERSTATES, collecting, explore, next_row, room
from kiai.strategies.nets.dense import first_sums, hidden16_logit
from kiai.strategies.nets import modelfile
from kiai.strategies.nets.modelfile import AFTER, LEARNED, load

assert H1 % 32 == 0 and H2 == 16  # the layers are summed 64 or 32 and 16 at a time (strategies.nets.dense)
DATA = (
    ("base_at", np.int64),  # the address of learned's record, when learned is the base (base 1)
    ("h1", np.int64),
    ("h2", np.int64),
    ("w1", np.float32, (N_AFTER, H1)),  # transposed: inputs x outputs
    ("b1", np.float32, (H1,)),
    ("w2", np.float32, (H1, H2)),
    ("b2", np.float32, (H2,)),
    ("w3", np.float32, (H2,)),
    ("b3", np.float32, (1,)),
)
ROW_WIDTH = 1 + N_AFTER  # a collected row: the game's index, then the afterstate's features

STRATEGY = Strategy(
    "selfplay",
    "Values each answer to the action, a card in hand and Kikuchiyo's second fight by the table it leads to, with the value its table's family (team size and level) learned by self-play, and leaves keeper's (or learned's) answer only for a clearly better one; gives learned's answers where kiai ships no value for the family.",
    (
        *for_experts(keeper.STRATEGY.params),  # keeper's, for the questions it answers and its own answer: first
        # the threshold of SPARTA's search: the value's errors are largest on the tables its base
        # would not lead to, so only a clear gain is worth leaving the base's answer for
        Param("edge", 0.02, 0.0, 0.2, False, "leave the base's answer only for one whose table is worth this much more (chance to win)", expert=True),
        Param("chance", 0, 0, 1, True, "an answer that draws a card: 0 its afterstate's value, 1 the exact expectation over the card"),
        Param("base", 0, 0, 1, True, "whose answer stands unless another is worth `edge` more: 0 keeper, 1 learned "
                                     "(default: the value file's own, where its header says)", expert=True),
        Param("doubt", 1.0, 0.0, 1.0, False, "with learned as the base, weigh only the questions whose answer "
                                             "learned scores less than this above the next (1: all, 0: none)", expert=True),
        # where the value all but gives the game up, every answer is worth about as little: weighing
        # them costs time and hardly ever changes an answer
        Param("settled", 0.0, 0.0, 0.1, False, "once the base's answer to a weighed question leads to a table worth "
                                               "less than this (chance to win), give the base's answers for the rest "
                                               "of the game (0: never)", expert=True),
        Param("weigh", 7, 1, 7, True, "the questions it weighs, among action, cards and second-fight, joined by '+'; "
                                      "the others get the base's answer", choices=WEIGHED),
    ),
    counts=True,
    data=DATA,
)
params = STRATEGY.reader()

# keeper's functions take selfplay's record, which starts with keeper's fields (as learned's does)
warnings.filterwarnings("ignore", message=r"Record\(.*has been considered a subtype", category=NumbaExperimentalFeatureWarning)


@njit(cache=True)
def first_layer(m, x, at, a1, nf=N_AFTER):
    """a1 = b1 + w1.T @ x, over the features that are not 0 (listed in at) among the first nf (the
    seats past the team's are 0)."""
    n = 0
    for i in range(nf):
        at[n] = i
        n += x[i] != 0.0
    first_sums(m, m.b1, x, at, n, a1)


@njit(cache=True)
def _write_row(mem, pub, u, ed, x, px):
    """Self-play's row of the answer given (edit ed): the game's index, then its afterstate's
    features (written into x)."""
    if not collecting(mem, AFTERSTATES) or not room(mem, 1):
        return
    after_features(pub, u, ed, x, px)
    row = next_row(mem, ROW_WIDTH)
    row[0] = mem.game
    for i in range(N_AFTER):
        row[1 + i] = x[i]


# mem.work, the strategy's scratch: the table's features, an answer's, the network's sums, then
# the same for a drawn card's table (_draw_value); mem.nz_at: the unseen counts, the edit, what each
# seat adds to the forecast (the table's, an answer's, and a drawn card's two), then a list of
# positions (first_layer)
_BASE, _X, _A1B, _A1, _A2 = 0, N_AFTER, 2 * N_AFTER, 2 * N_AFTER + H1, 2 * N_AFTER + 2 * H1
_CB, _CX, _CA1B = _A2 + H2, _A2 + H2 + N_AFTER, _A2 + H2 + 2 * N_AFTER
_A1S = _CA1B + H1  # a Support's first-layer sums (the others differ from it in two features)
_VALS = _A1S + H1  # each answer's value (weigh)
_WORK = _VALS + 64
_PARTS = MAX_SEATS * N_F
_U, _ED, _PB = 0, N_U, N_U + N_ED
_PX, _CPB, _CPX, _AT = _PB + _PARTS, _PB + 2 * _PARTS, _PB + 3 * _PARTS, _PB + 4 * _PARTS
assert MEM.fields["work"][0].shape[0] >= _WORK and MEM.fields["nz_at"][0].shape[0] >= _AT + N_AFTER


@njit(cache=True, inline="always")
def _chance(z):
    return 1.0 / (1.0 + np.exp(-np.float64(z)))


@njit(cache=True)
def _reference(m, pub, u, ed, base, pb, x, px, at, a1b):
    """Make edit ed's afterstate the reference the other answers are valued from: its features
    (base, and pb for the forecast), copies of them that _value edits and restores (x, px), and
    its first layer's sums (a1b)."""
    after_features(pub, u, ed, base, pb)
    first_layer(m, base, at, a1b, N_GLOBAL + pub.n * N_SEAT)
    for i in range(N_AFTER):
        x[i] = base[i]
    for i in range(pub.n):
        for f in range(N_F):
            px[i, f] = pb[i, f]


@njit(cache=True)
def _value(m, pub, u, ed, rm, rcard, base, pb, x, px, a1b, a1, a2, at):
    """The chance to win from the afterstate of edit ed. The reference table's features (base,
    pb: another answer's afterstate, or the table as it stands; x and px hold copies and are left
    so) differ from it only where after_delta writes for the two edits (rm, rcard: the
    reference's touched() and whether it is a give); the first layer's sums are the reference's
    (a1b) plus the rows of the features that changed, times the change. The changed features are
    listed first (into at, without a branch) and then added, in the order of their positions."""
    mm = union(touched(pub, ed), rm)
    card = rcard or ed[ED_PHASE] == PH_CARD
    after_delta(pub, u, ed, mm, card, x, px)
    n = 0
    k = 0
    while True:
        lo, hi = written(pub, mm, card, k)
        if hi == 0:
            break
        for i in range(lo, hi):
            at[n] = i
            n += x[i] != base[i]
        k += 1
    for t in range(n):  # x holds the changes at the listed features ...
        i = at[t]
        x[i] -= base[i]
    first_sums(m, a1b, x, at, n, a1)
    for t in range(n):  # ... and then the reference's again (the features not listed are the reference's)
        i = at[t]
        x[i] = base[i]
    for s in range(pub.n):
        for f in range(N_F):
            px[s, f] = pb[s, f]
    return _chance(hidden16_logit(m, a1, a2))


@njit(cache=True)
def _draw_value(m, pub, mem, u, ed, seat, keep, extra, at):
    """The exact expectation, over the next raider card (each unseen card equally likely, or the
    card Katsushiro made known), of the best way for `seat` to handle it: confront, defend,
    Kyuzo's discard, a give (the neighbour then holds it), Katsushiro's redraw (valued as the
    table about to draw again); after a redraw (keep) only confront or defend (R-7c)."""
    w = mem.work
    z = mem.nz_at
    cb, cx, ca1b, a1, a2 = w[_CB:_CX], w[_CX:_CA1B], w[_CA1B:_WORK], w[_A1:_A2], w[_A2:_A2 + H2]
    cpb = z[_CPB:_CPX].reshape((MAX_SEATS, N_F))
    cpx = z[_CPX:_AT].reshape((MAX_SEATS, N_F))
    known = pub.known[0] if pub.known_n > 0 else -1
    total = 0.0
    count = 0
    for c in range(pub.n_cards):
        if known >= 0:
            if c != known:
                continue
        elif not pub.unseen[c] or _seen_like(pub, c):
            continue
        k = 1 if known >= 0 else _copies(pub, c)
        count_card(pub, u, c, -1)
        new_edit(ed)
        ed[ED_DRAWN] = c
        ed[ED_EXTRA] = extra
        _reference(m, pub, u, ed, cb, cpb, cx, cpx, at, ca1b)
        legal = card_options(pub, seat, c)
        if keep:
            legal &= (1 << CARD_CONFRONT) | (1 << CARD_DEFEND)
        best = -1.0
        for answer in range(CARD_GIVE_RIGHT + 1):
            if (legal >> answer) & 1:
                edit_for(pub, Q_CARD, seat, c, answer, ed)
                ed[ED_DRAWN] = c
                ed[ED_EXTRA] = extra
                v = _value(m, pub, u, ed, 0, False, cb, cpb, cx, cpx, ca1b, a1, a2, at)
                best = max(best, v)
        count_card(pub, u, c, 1)
        total += k * best
        count += k
        if known >= 0:
            break
    return total / count if count > 0 else 0.5


@njit(cache=True)
def _same(pub, c, d):
    return (pub.value[c] == pub.value[d] and pub.symbol[c] == pub.symbol[d] and pub.pen1[c] == pub.pen1[d]
            and pub.pen2[c] == pub.pen2[d] and pub.flame[c] == pub.flame[d])


@njit(cache=True)
def _seen_like(pub, c):
    """An unseen card below c's number that looks the same (c's class is counted there)."""
    for d in range(c):
        if pub.unseen[d] and _same(pub, c, d):
            return True
    return False


@njit(cache=True)
def _copies(pub, c):
    """Unseen cards that look like c, c included."""
    k = 0
    for d in range(c, pub.n_cards):
        if pub.unseen[d] and _same(pub, c, d):
            k += 1
    return k


@njit(cache=True)
def _move_token_row(m, pub, a1s, r0, r, a1):
    """a1 = the sums of a Support to r, from a1s, those of a Support to r0: one more token held by
    r, one fewer by r0 (afterstate: `tokens` of their boards)."""
    n = pub.n
    i0 = N_GLOBAL + ((r0 - pub.acting + n) % n) * N_SEAT + S_TOKEN + 1
    i1 = N_GLOBAL + ((r - pub.acting + n) % n) * N_SEAT + S_TOKEN + 1
    w0 = m.w1[i0]
    w1 = m.w1[i1]
    for j in range(m.h1):
        a1[j] = a1s[j] - w0[j] + w1[j]


@njit(cache=True, inline="always")
def _drawing(m, q, seat, answer):
    """Whether the answer's value is an exact expectation over a card it draws (`chance` 1)."""
    if m.chance == 0.0:
        return False
    return ((q == Q_ACTION and answer == ACT_FIGHT) or (q == Q_FIGHT_AGAIN and answer == 1)
            or (q == Q_CARD and answer == CARD_REDRAW))


@njit(cache=True)
def decide(prm, pub, mem, q, seat, a, b, legal):
    m = params(prm)
    if m.base_at != 0:
        mine = learned.decide(int_to_voidptr(m.base_at), pub, mem, q, seat, a, b, legal)
    else:
        mine = keeper.decide(prm, pub, mem, q, seat, a, b, legal)
    if (q != Q_ACTION and q != Q_CARD and q != Q_FIGHT_AGAIN) or legal & (legal - 1) == 0:
        return mine
    if not (int(m.weigh) >> (0 if q == Q_ACTION else 1 if q == Q_CARD else 2)) & 1:
        return mine
    if 0.0 <= mem.own < m.settled:
        return mine  # the game is as good as lost
    if m.base_at != 0 and m.doubt < 1.0 and (m.doubt <= 0.0 or _learned_margin(pub, mem, q, seat, legal, mine) >= m.doubt):
        return mine  # learned is sure enough: the value is spent on the close calls (as SPARTA's search)
    return weigh(m, pub, mem, q, seat, a, legal, mine)


@njit(cache=True)
def _learned_margin(pub, mem, q, seat, legal, mine):
    """How far learned's score of its answer `mine` lies above its best score of another legal
    answer (its scores are still in mem.work, where learned.decide left them)."""
    out = mem.work[learned.OUT:]
    top = out[learned.slot_of(pub, q, seat, mine)]
    other = -1e30
    rest = legal & ~(1 << mine)
    answer = 0
    while rest:
        if rest & 1:
            other = max(other, out[learned.slot_of(pub, q, seat, answer)])
        rest >>= 1
        answer += 1
    return top - other


@njit(cache=True)
def weigh(m, pub, mem, q, seat, a, legal, mine):
    """The answer to question q that selfplay gives, over the base's answer `mine`: each legal
    answer's value goes to mem.work[_VALS + answer] (the base's without its edge)."""
    w = mem.work
    base, x, a1b, a1, a2 = w[_BASE:_X], w[_X:_A1B], w[_A1B:_A1], w[_A1:_A2], w[_A2:_A2 + H2]
    vals = w[_VALS:_WORK]
    z = mem.nz_at
    u, ed, at = z[_U:_ED], z[_ED:_PB], z[_AT:_AT + N_AFTER]
    pb = z[_PB:_PX].reshape((MAX_SEATS, N_F))
    px = z[_PX:_CPB].reshape((MAX_SEATS, N_F))
    unseen_counts(pub, u)
    share = explore(mem)  # a run collecting selfplay's own games answers this share at random
    if share > 0.0 and (next_u64(mem.stream, 0) >> np.uint64(11)) * (1.0 / 9007199254740992.0) < share:
        best = nth_bit(legal, stream_below(mem.stream, 0, popcount(legal)))
        if collecting(mem, AFTERSTATES):
            edit_for(pub, q, seat, a, best, ed)
            _write_row(mem, pub, u, ed, x, px)
        return best
    # the reference table: the base's answer's afterstate, whose value is the network's own; the
    # other answers' are worked out from it. When that answer's value is an expectation over a
    # card (`chance` 1), the table as it stands is the reference instead
    drawing = _drawing(m, q, seat, mine)
    if drawing:
        new_edit(ed)
    else:
        edit_for(pub, q, seat, a, mine, ed)
    rm = touched(pub, ed)
    rcard = ed[ED_PHASE] == PH_CARD
    _reference(m, pub, u, ed, base, pb, x, px, at, a1b)
    best = mine
    if drawing:
        bv = _draw_value(m, pub, mem, u, ed, pub.acting if q != Q_CARD else seat, q == Q_CARD, q == Q_FIGHT_AGAIN, at)
    else:
        bv = _chance(hidden16_logit(m, a1b, a2))
    vals[mine] = bv
    mem.own = bv  # the game's value as it stands (`settled`)
    bv += m.edge  # the base's answer stands unless another is worth `edge` more
    # Supports to different samurai lead to tables that differ in who holds how many tokens only:
    # the first one's sums serve the others, two weight rows moved
    a1s = w[_A1S:_VALS]
    sup = -1
    if q == Q_ACTION and mine >= ACT_SUPPORT:
        sup = mine - ACT_SUPPORT
        for j in range(m.h1):
            a1s[j] = a1b[j]
    rest = legal & ~(1 << mine)
    answer = 0
    while rest:  # the other legal answers, lowest first
        if rest & 1:
            if _drawing(m, q, seat, answer):
                v = _draw_value(m, pub, mem, u, ed, pub.acting if q != Q_CARD else seat, q == Q_CARD, q == Q_FIGHT_AGAIN, at)
            elif q == Q_ACTION and answer >= ACT_SUPPORT and sup >= 0:
                _move_token_row(m, pub, a1s, sup, answer - ACT_SUPPORT, a1)
                v = _chance(hidden16_logit(m, a1, a2))
            else:
                edit_for(pub, q, seat, a, answer, ed)
                v = _value(m, pub, u, ed, rm, rcard, base, pb, x, px, a1b, a1, a2, at)
                if q == Q_ACTION and answer >= ACT_SUPPORT:
                    sup = answer - ACT_SUPPORT
                    for j in range(m.h1):
                        a1s[j] = a1[j]
            vals[answer] = v
            if v > bv:
                bv = v
                best = answer
        rest >>= 1
        answer += 1
    if collecting(mem, AFTERSTATES):
        edit_for(pub, q, seat, a, best, ed)
        _write_row(mem, pub, u, ed, x, px)
    return best


BY_FAMILY = True  # its shipped values come by family (GameConfig.load_model)


def load_model(path=None, components=None, table: tuple[int, str] | None = None):
    """The model selfplay plays, checked (GameConfig.load_model; `components`: the game's, whose
    data its inputs must hold): the value file at path, else the shipped value of the table's
    family (team size, official level); where kiai ships none, learned's model, whose answers
    selfplay then gives (data_record). With neither path nor table, the shipped general value."""
    if not path and table is not None and modelfile.family_path(*table) is None:
        return learned.load_model(None, components)
    model = load(path or (table and modelfile.family_path(*table)), AFTER, components)
    value_params(model)  # its header's play is one selfplay can play (else one line, before any game)
    return model


def value_params(model) -> dict:
    """The parameters a value file asks to be played with, unless the user gives them: its
    header's `play` (how it played best on deals of its own, e.g. over learned's answers), base 1
    for a value trained over learned's answers (kiai train value --base learned), and the questions it
    weighed in training where those were not all (kiai train value --weigh). A header of an earlier
    version names `weigh` `questions`."""
    play = dict(model.header.get("play", {}))
    if "questions" in play:  # the parameter's earlier name
        play.setdefault("weigh", play.pop("questions"))
    made = model.header.get("settings", {})
    if made.get("base") == "learned":
        play.setdefault("base", 1)
    if made.get("questions", 7) != 7:  # it learned the afterstates of those questions only
        play.setdefault("weigh", made["questions"])
    try:
        STRATEGY.param_vector(play)
    except (KeyError, ValueError) as e:
        raise ValueError(f"value file {model.path}: its header's play: {e}") from None
    if "weigh" in play:  # said by name
        play["weigh"] = STRATEGY.param_dict({"weigh": play["weigh"]})["weigh"]
    return play


def label(config, model) -> str:
    """What plays, for a result's first line (GameConfig.played_as): the family's value, another
    value file, or learned's answers where kiai ships none; its hash; whether its header sets the
    play (tuned play)."""
    if model.kind is LEARNED:
        level = config.components.family_level(config.difficulty)
        return f"learned's answers, model {model.sha256[:8]}: no value for {config.n} samurai at {level}"
    family = family_of(model)
    shipped = family is not None and model.path == str(modelfile.family_path(*_family_key(family)) or "")
    if shipped:
        size, _, level = family.partition("@")
        what = f"family value {size} samurai {level}"
    else:
        what = f"value {Path(model.path).name}" + (f" of {family}" if family else "")
    tuned = any(k not in config.params for k in value_params(model))
    return f"{what}, {model.sha256[:8]}" + (", tuned play" if tuned else "")


def _family_key(family: str) -> tuple[int, str]:
    size, _, level = family.partition("@")
    return int(size), level


def plays(model) -> str:
    """What selfplay plays with this model (GameConfig.describe): the parameters say the rest."""
    if model.kind is LEARNED:
        return "learned's answers: kiai ships no value for this table's family"
    play = value_params(model)
    return (f"the value, with {said_params(play)} from its header unless given" if play
            else "the value over its base's answers")


def family_of(model) -> str | None:
    """The family ("K@level", strategies.families) a value was learned for, by its header: its
    run's family, or that of the one table it trained on; None for a value of tables drawn from
    every family, and for learned's model (GameConfig.describe)."""
    made = {} if model.kind is LEARNED else model.header.get("settings", {})
    table = made.get("table")
    if isinstance(table, str) and "@" in table:
        seating, _, level = table.partition("@")
        return f"{len(seating.split(','))}@{level}"
    return str(made["family"]) if made.get("family") else None


def played(config, model=None) -> dict:
    """The parameters selfplay plays on config's table: those the user gave, else the value file's
    header's (value_params), else the defaults; where the model is learned's (no value for the
    family), base 1 and doubt 0 over them: learned's answers. `model`: config.load_model(), when
    the caller holds it."""
    prm = STRATEGY.param_dict(config.params)
    model = config.load_model() if model is None else model
    if model.kind is LEARNED:
        prm.update(base=1, doubt=0.0)  # learned's answers, weighing nothing
    else:
        prm.update({k: v for k, v in value_params(model).items() if k not in config.params})
    return prm


def data_record(config) -> np.ndarray:
    """The parameter record the run layer hands the engine: the parameters as played (played),
    then the value named by config.model (default: the family's shipped one)."""
    rec = STRATEGY.new_record()
    model = config.load_model()
    vec = STRATEGY.param_vector(played(config, model))
    for i, p in enumerate(STRATEGY.params):
        rec[0][p.name] = vec[i]
    if model.kind is not LEARNED:
        model.pack(rec[0], prefix="")
    if int(rec[0]["base"]) == 1:  # learned's record, with its defaults and shipped model, kept alive here
        under = base_model(config, model)
        key = (config.components.data_sha256, under.sha256)
        base = _BASES.get(key)
        if base is None:  # setdefault: made by two threads at once, both keep the first
            base = _BASES.setdefault(key, learned.record(under, {}))
        rec[0]["base_at"] = base.ctypes.data
    return rec


def base_model(config, model=None):
    """The model selfplay's record reads beside its own (data_record; GameConfig.base_model):
    learned's shipped one where it plays over learned's answers (`base` 1 as played), else None.
    `model`: config.load_model(), when the caller holds it."""
    model = config.load_model() if model is None else model
    if int(played(config, model)["base"]) != 1:
        return None
    return learned.load_model(None, config.components)


# learned's records that selfplay's records point to, by component data and learned's model (its
# bytes' SHA-256): a learned.npz changed while the process runs makes a record of its own
_BASES: dict = {}
