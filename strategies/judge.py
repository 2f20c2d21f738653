"""`judge`, kiai's strong tier: weighs each answer to the questions that matter by the learned value
of the table it leads to.

At the turn's action, a card in hand and Kikuchiyo's second fight, judge plays each legal answer
on copies of the state, finishes the turn and plays `turns` more (two by default) with the base,
and takes the answer whose tables are worth most there by the value of the table
(strategies.nets.table_value, learned by self-play: training.value).
What is hidden is resampled from public information first (R-19), the same samples for every
answer; with `chance` 1 a Fight's next card is not sampled but each unseen card is played in turn,
so its value is the exact expectation over that card. The rest of the turn, and every other
question, is answered by the base heuristic.

The value file is the shipped one (strategies/data/value.npz) or the one $KIAI_VALUE_MODEL names.
Where a training run collects from its games (strategies.helpers.collect), judge writes what the
run asks for: the features of the table at every turn's start (the positions its value learns
from; TABLES_BASE with its base playing, TABLES with judge playing), every question it weighs
with each answer's value (LABELS, learned's teacher), or every answer's afterstate as selfplay
reads it with the value judge found for it (TEACH: strategies.nets.afterstate.teach_rows, labels
for selfplay's value, training.teacher).
"""

import os

import numpy as np
from numba import njit

from kiai.simcore.questions import ACT_FIGHT, Q_ACTION, Q_CARD, Q_FIGHT_AGAIN
from kiai.simcore.rng import mix64
from kiai.simcore.rounds import play_game
from kiai.simcore.state import int_to_voidptr, keep_alive
from kiai.strategies.base import VALUE_BASES, WEIGHED, Param, Strategy
from kiai.strategies.helpers.collect import LABELS, TABLES, TABLES_BASE, TEACH, collecting, next_row, room
from kiai.strategies.nets.afterstate import teach_rows
from kiai.strategies.lookahead import (
    MAX_CANDIDATES,
    write_label,
    answer_question,
    copy_state,
    put_on_top,
    question_candidates,
    question_seed,
    rollout_config,
    rollout_records,
    sample_hidden,
)
from kiai.strategies.nets.table_value import DATA, N_VALUE_FEATURES, table_features, table_value
from kiai.strategies.nets.modelfile import TABLE, load

VALUE_ENV = "KIAI_VALUE_MODEL"  # another value file for judge to play (the shipped one otherwise)
BASES = VALUE_BASES
STRATEGY = Strategy(
    "judge",
    "The strong tier: plays each answer to the action, a card in hand and Kikuchiyo's second fight two turns on, exactly over a Fight's next card, and leaves learned's answer for one whose tables a value learned by self-play rates clearly better; level with the lookahead over learned at about eight times its speed, some two hundred times slower than learned.",
    (
        Param("samples", 8, 1, 64, True, "hidden orders sampled per answer (the same for every answer)"),
        Param("base", 1, 0, len(BASES) - 1, True, "heuristic for the other questions: " + ", ".join(f"{i} {b}" for i, b in enumerate(BASES)), expert=True),
        Param("weigh", 7, 1, 7, True, "the questions judge weighs, among action, cards and second-fight, joined by '+'",
              choices=WEIGHED),
        # two turns on, the table shows what the answer led to (a card confronted pays its
        # penalty at its owner's next turn); further still costs more than it finds
        Param("turns", 2, 0, 60, True, "further turns played by the base after the answer's own before the table is valued (0: the next turn's start)"),
        Param("chance", 1, 0, 1, True, "a Fight's next card: 0 sampled like the rest, 1 every unseen card in turn (exact expectation)"),
        # the threshold of SPARTA's search: the value's errors are largest on tables the base would
        # not lead to, so only a clear gain is worth leaving the base's answer for
        Param("edge", 0.03, 0.0, 1.0, False, "leave the base's answer only for one whose tables are worth this much more (chance to win)", expert=True),
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
    if mem.collect == 0 or not room(mem, 1):
        return
    row = next_row(mem, ROW_WIDTH)
    row[0] = book.turns
    x = np.empty(N_VALUE_FEATURES, dtype=np.float64)
    table_features(pub, x)
    for i in range(N_VALUE_FEATURES):
        row[1 + i] = x[i]


@njit(cache=True)
def _draws(q, option):
    """Whether the answer draws the next raider card at once (Fight, Kikuchiyo's second fight)."""
    return (q == Q_ACTION and option == ACT_FIGHT) or (q == Q_FIGHT_AGAIN and option == 1)


@njit(cache=True)
def _unseen_key(pub):
    """Which cards are unseen, as one number (a sum of the cards' hashes)."""
    key = np.uint64(0)
    for c in range(pub.n_cards):
        if pub.unseen[c]:
            key += mix64(np.uint64(c + 1))
    return key


@njit(cache=True)
def _play_to_next_turn(g, r, q, option, seed, x, p, top=-1):
    """One sample: copy g into r, resample what is hidden (with card `top` next, if given),
    answer the question with option, finish the turn and play on (the base answering) to the
    start of the next turn, or `turns` turns further; the value of the table there, and whether
    the play read anything the sample dealt."""
    copy_state(g, r)
    sample_hidden(g, r, seed, False)
    if top >= 0:
        put_on_top(r[0], r[1], top)
    pub, hid = r[0], r[1]
    before = (pub.raider_n, pub.intruder_n, pub.known_n, hid.rng[0], _unseen_key(pub))
    answer_question(r, g[4], q, option)
    if pub.game_over == 0:
        r[3].stop_turns = r[2].turns + int(p.turns)
        play_game(r)
    # whether the sample mattered: every read of what is hidden draws or shows a stacked card
    # (a redraw puts one back: the set of unseen cards still changes) or takes the game's
    # random stream (a shuffle, a pick, a farmstead's back)
    touched = before != (pub.raider_n, pub.intruder_n, pub.known_n, hid.rng[0], _unseen_key(pub))
    return table_value(p, pub, x), touched


@njit(cache=True)
def _judge(g, p):
    pub, hid, book, cfg, mem = g
    cand = np.empty(MAX_CANDIDATES, dtype=np.int64)
    k = question_candidates(g, cand)
    if k < 2:
        return
    pubs, hids, books, mems, rcfgs = rollout_records(pub)
    r = (pubs[0], hids[0], books[0], rollout_config(cfg, rcfgs, 0), mems[0])
    x = np.empty(N_VALUE_FEATURES, dtype=np.float64)
    samples = int(p.samples)
    seed0 = question_seed(g)
    # the next card's candidates, for an exact expectation over it (`chance` 1): every unseen
    # card, each equally likely (section 12); none when Katsushiro made the top card known
    nxt = np.empty(pub.n_cards, dtype=np.int64)
    m = 0
    if int(p.chance) == 1 and pub.known_n == 0:
        for c in range(pub.n_cards):
            if pub.unseen[c]:
                nxt[m] = c
                m += 1
    best = 0
    bv = -1.0
    vals = np.empty((k + 1, 1))  # each answer's value, for a teacher's label row
    for i in range(k):
        tot = 0.0
        if m > 0 and _draws(mem.q, cand[i]):
            for j in range(m):
                seed = np.int64(mix64(seed0 + np.uint64(j % samples)))
                tot += _play_to_next_turn(g, r, mem.q, cand[i], seed, x, p, nxt[j])[0]
            tot /= m
        else:
            used = samples
            for j in range(samples):
                seed = np.int64(mix64(seed0 + np.uint64(j)))
                v, touched = _play_to_next_turn(g, r, mem.q, cand[i], seed, x, p)
                tot += v
                # play is the same on every sample until it first reads what is hidden: one
                # that read nothing stands for all of them, exactly
                if not touched:
                    used = 1
                    break
            tot /= used
        vals[i, 0] = tot
        if i == 0:
            tot += p.edge  # the base's own answer (cand[0]) keeps ties and near ties
        if tot > bv:
            bv = tot
            best = i
    keep_alive(pubs, hids, books, mems)
    keep_alive(rcfgs, rcfgs, rcfgs, rcfgs)
    mem.answer = cand[best]
    # as a teacher (`kiai train learned`), the question with every answer's value, as the lookahead writes it
    if collecting(mem, LABELS) and room(mem, 1):
        write_label(g, cand, k, vals)
    elif collecting(mem, TEACH):  # a teacher of selfplay's value (training.teacher): every answer's afterstate
        teach_rows(pub, mem, book.decisions, cand, k, vals[:, 0], best)


@njit(cache=True)
def plan(pub, hid, book, cfg, mem):
    """The engine's hook (simcore.gateway.HOOK_ARGS)."""
    p = params(int_to_voidptr(cfg.pdata))
    if mem.q == 0:
        _collect(pub, book, mem)
    else:
        _judge((pub, hid, book, cfg, mem), p)
    return 0


def hooks(prm: dict, collects: int = 0) -> tuple[int, int]:
    """(plan_turns, plan_questions): where a run collects the tables at turns' starts (`collects`,
    strategies.helpers.collect), every turn's start; the questions judge weighs, unless its base
    plays (TABLES_BASE)."""
    which = int(STRATEGY.param_vector({"weigh": prm.get("weigh", 7)})[STRATEGY.index("weigh")])
    mask = sum(1 << q for bit, q in ((1, Q_ACTION), (2, Q_CARD), (4, Q_FIGHT_AGAIN)) if which & bit)
    return int(collects in (TABLES_BASE, TABLES)), 0 if collects == TABLES_BASE else mask


def plan_record(config) -> np.ndarray:
    """The planner's record: its parameters, then the value's weights (load_value)."""
    rec = STRATEGY.new_record()
    vec = STRATEGY.param_vector(config.params)
    for i, p in enumerate(STRATEGY.params):
        rec[0][p.name] = vec[i]
    load_value().pack(rec[0])
    return rec


def load_value():
    """The value judge plays: the file $KIAI_VALUE_MODEL names, else the shipped one."""
    return load(os.environ.get(VALUE_ENV) or None, TABLE)


def check_data(config) -> None:
    """Refuse a value file judge cannot play (ModelError, one line), before any game."""
    load_value()
