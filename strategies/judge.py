"""`judge` (experimental): weighs each answer to the questions that matter by the learned value
of the table it leads to.

At the turn's action, a card in hand and Kikuchiyo's second fight, judge plays each legal answer
on copies of the state to the start of the next turn and takes the answer whose tables are worth
most by the value of the table (strategies.table_value, learned by self-play: strategies.valuefit).
What is hidden is resampled from public information first (R-19), the same samples for every
answer; with `chance` 1 a Fight's next card is not sampled but each unseen card is played in turn,
so its value is the exact expectation over that card. The rest of the turn, and every other
question, is answered by the base heuristic.

The value file is the shipped one (strategies/data/value.npz) or the one $KIAI_VALUE_MODEL names.
With `collect` 1 or 2, judge also writes the features of the table at every turn's start into
the run's label buffer: the positions the value learns from.
"""

import numpy as np
from numba import carray, njit

from simcore.gateway import call_decide
from simcore.questions import ACT_FIGHT, Q_ACTION, Q_CARD, Q_FIGHT_AGAIN
from simcore.resume import from_action, from_card, from_fight_again
from simcore.rng import mix64
from simcore.rounds import play_game
from simcore.state import (
    BOOK,
    BOOK_SIZE,
    CFG,
    CFG_SIZE,
    HIDDEN,
    HIDDEN_SIZE,
    MEM,
    MEM_HEAD,
    TABLE,
    TABLE_DYNAMIC,
    TABLE_SIZE,
    copy_record,
    data_pointer,
    int_to_float32_pointer,
    int_to_voidptr,
    keep_alive,
)
from strategies.base import Param, Strategy
from strategies.lookahead import MAX_CANDIDATES, resample
from strategies.table_value import DATA, N_VALUE_FEATURES, table_features, table_value
from strategies.value_model import load as load_value

BASES = ("keeper", "learned")
STRATEGY = Strategy(
    "judge",
    "Experimental: plays each answer to the action, a card in hand and Kikuchiyo's second fight to the next turn, and takes the one whose tables a value learned by self-play rates best; still far weaker than learned.",
    (
        Param("samples", 8, 1, 64, True, "hidden orders sampled per answer (the same for every answer)"),
        Param("base", 1, 0, len(BASES) - 1, True, "heuristic for the other questions: " + ", ".join(f"{i} {b}" for i, b in enumerate(BASES))),
        Param("collect", 0, 0, 2, True, "record the table at every turn's start (training): 1 playing the base, 2 playing judge"),
        Param("questions", 7, 1, 7, True, "which questions judge weighs (a sum): 1 the turn's action, 2 a card in hand, 4 Kikuchiyo's second fight"),
        Param("turns", 0, 0, 60, True, "further turns played by the base after the answer's own before the table is valued (0: the next turn's start)"),
        Param("chance", 1, 0, 1, True, "a Fight's next card: 0 sampled like the rest, 1 every unseen card in turn (exact expectation)"),
        Param("edge", 0.0, 0.0, 1.0, False, "leave the base's answer only for one whose tables are worth this much more (chance to win)"),
    ),
    planner=True,
    bases=BASES,
    data=DATA,
)
params = STRATEGY.reader()
VARIANT = 0
ROW_WIDTH = 1 + N_VALUE_FEATURES  # a collected row: the turn count, then the features


@njit(cache=True)
def _collect(pub, book, mem):
    if mem.labels == 0 or mem.labels_n >= mem.labels_cap:
        return
    rows = carray(int_to_float32_pointer(mem.labels), (mem.labels_cap, ROW_WIDTH))
    row = rows[mem.labels_n]
    mem.labels_n += 1
    row[0] = book.turns
    x = np.empty(N_VALUE_FEATURES, dtype=np.float64)
    table_features(pub, x)
    for i in range(N_VALUE_FEATURES):
        row[1 + i] = x[i]


@njit(cache=True)
def _force_top(pub, hid, c):
    """Put unseen card c on top of the raider stack, swapping it with the card there: the
    sample is then uniform among the orders with c next."""
    top = pub.raider_n - 1
    for i in range(pub.raider_n):
        if hid.raider[i] == c:
            hid.raider[i], hid.raider[top] = hid.raider[top], hid.raider[i]
            return
    for i in range(pub.intruder_n):
        if hid.intruder[i] == c:
            hid.intruder[i], hid.raider[top] = hid.raider[top], hid.intruder[i]
            return


@njit(cache=True)
def _draws(q, option):
    """Whether the answer draws the next raider card at once (Fight, Kikuchiyo's second fight)."""
    return (q == Q_ACTION and option == ACT_FIGHT) or (q == Q_FIGHT_AGAIN and option == 1)


@njit(cache=True)
def _play_to_next_turn(g, r, q, option, seed, x, p, top=-1):
    """One sample: copy g into r, resample what is hidden, answer the question with option,
    finish the turn and play on to the next turn's start; its value."""
    pub, hid, book, cfg, mem = g
    rpub, rhid, rbook, rcfg, rmem = r
    copy_record(rpub, pub, TABLE_DYNAMIC)
    copy_record(rhid, hid, HIDDEN_SIZE)
    copy_record(rbook, book, BOOK_SIZE)
    copy_record(rmem, mem, MEM_HEAD)
    R = np.empty(1, dtype=np.int64)
    R[0] = seed
    resample(rpub, rhid, R)
    if top >= 0:
        _force_top(rpub, rhid, top)
    rhid.rng[0] = np.int64(mix64(np.uint64(seed) ^ np.uint64(0x5851F42D4C957F2D)))
    if q == Q_ACTION:
        from_action(r, mem.seat, option)
    elif q == Q_CARD:
        from_card(r, mem.seat, mem.a, option)
    else:
        from_fight_again(r, mem.seat, option)
    if rpub.game_over == 0:
        rcfg.stop_turns = rbook.turns + int(p.turns)
        play_game(r)
    return table_value(p, rpub, x)


@njit(cache=True)
def _judge(g, p):
    pub, hid, book, cfg, mem = g
    prm = int_to_voidptr(cfg.prm_at) if cfg.prm_at else data_pointer(cfg.prm)
    own = call_decide(cfg.decide, prm, pub, mem, mem.q, mem.seat, mem.a, mem.b, mem.legal)
    cand = np.empty(MAX_CANDIDATES, dtype=np.int64)
    cand[0] = own
    k = 1
    for option in range(63):
        if (mem.legal >> option) & 1 and option != own and k < MAX_CANDIDATES:
            cand[k] = option
            k += 1
    if k < 2:
        return
    pubs = np.zeros(1, dtype=TABLE)
    hids = np.zeros(1, dtype=HIDDEN)
    books = np.zeros(1, dtype=BOOK)
    mems = np.zeros(1, dtype=MEM)
    rcfgs = np.zeros(1, dtype=CFG)
    copy_record(pubs[0], pub, TABLE_SIZE)
    rcfg = rcfgs[0]
    copy_record(rcfg, cfg, CFG_SIZE)
    rcfg.plan = 0
    rcfg.tracing = 0
    rcfg.recording = 0
    rcfg.check = 0
    rcfg.scramble = 0
    rcfg.fd_n = 0
    rcfg.fr_n = 0
    rcfg.from_state = 1
    rcfg.stop_round_end = 0
    r = (pubs[0], hids[0], books[0], rcfg, mems[0])
    x = np.empty(N_VALUE_FEATURES, dtype=np.float64)
    samples = int(p.samples)
    seed0 = np.uint64(mem.stream[0]) ^ np.uint64(mix64(np.uint64(book.decisions) ^ np.uint64(0xA0761D6478BD642F)))
    # the next card's candidates, for an exact expectation over it (`chance` 1): every unseen
    # card not made known, each equally likely (section 12); none when the top card is known
    nxt = np.empty(pub.n_cards, dtype=np.int64)
    m = 0
    if int(p.chance) == 1 and pub.known_n == 0:
        for c in range(pub.n_cards):
            if pub.unseen[c]:
                nxt[m] = c
                m += 1
    best = 0
    bv = -1.0
    for i in range(k):
        tot = 0.0
        if m > 0 and _draws(mem.q, cand[i]):
            for j in range(m):
                seed = np.int64(mix64(seed0 + np.uint64(j % samples)))
                tot += _play_to_next_turn(g, r, mem.q, cand[i], seed, x, p, nxt[j])
            tot /= m
        else:
            for j in range(samples):
                seed = np.int64(mix64(seed0 + np.uint64(j)))
                tot += _play_to_next_turn(g, r, mem.q, cand[i], seed, x, p)
            tot /= samples
        if i == 0:
            tot += p.edge  # the base's own answer (cand[0]) keeps ties and near ties
        if tot > bv:
            bv = tot
            best = i
    keep_alive(pubs, hids, books, mems)
    keep_alive(rcfgs, rcfgs, rcfgs, rcfgs)
    mem.answer = cand[best]


@njit(cache=True)
def plan(pub, hid, book, cfg, mem):
    """The engine's hook (simcore.gateway.HOOK_ARGS)."""
    p = params(int_to_voidptr(cfg.pdata))
    if mem.q == 0:
        _collect(pub, book, mem)
    else:
        _judge((pub, hid, book, cfg, mem), p)
    return 0


def hooks(prm: dict) -> tuple[int, int]:
    """(plan_turns, plan_questions): collecting, every turn's start; judging, the questions."""
    collect = int(prm.get("collect", 0))
    which = int(prm.get("questions", 7))
    mask = sum(1 << q for bit, q in ((1, Q_ACTION), (2, Q_CARD), (4, Q_FIGHT_AGAIN)) if which & bit)
    return int(collect > 0), 0 if collect == 1 else mask


def plan_record(config) -> np.ndarray:
    """The planner's record: its parameters, then the value's weights (strategies.value_model)."""
    rec = STRATEGY.new_record()
    vec = STRATEGY.param_vector(config.params)
    for i, p in enumerate(STRATEGY.params):
        rec[0][p.name] = vec[i]
    if int(rec[0]["collect"]) != 1:
        load_value().pack(rec[0])
    return rec


def check_data(config) -> None:
    """Refuse a value file judge cannot play (ValueModelError, one line), before any game."""
    if int(STRATEGY.param_dict(config.params)["collect"]) != 1:
        load_value()
