"""`judge`, kiai's strong tier: weighs each answer to the questions that matter by the learned value
of the table it leads to.

At the turn's action, a card in hand and Kikuchiyo's second fight, judge plays each legal answer
on copies of the state, finishes the turn and plays `turns` more (three by default) with the
base (`keeper` by default: its rollouts cost a third of learned's, and three turns of them judge
better than two of learned's), and takes the answer whose tables are worth most there by the
value of the table (strategies.nets.table_value, learned by self-play: training.value).
What is hidden is resampled from public information first (R-19), the same samples for every
answer; with `chance` 1 a Fight's next card is not sampled but each unseen card is played in turn,
so its value is the exact expectation over that card. The answers race (`race`,
strategies.helpers.race): after `first` samples each, an answer stops sampling once a paired t
bound shows it behind the best, so the samples (`samples` at most) go where answers are close;
`race` 0 plays every answer on all of them, as judge did before the race. The rest of the turn,
and every other question, is answered by the base heuristic.

The value file is the one `--model` names (GameConfig.model), else the family's shipped one
(strategies/data/judge-K-LEVEL.npz, where kiai ships one: a value trained on that team size and
level, `kiai train value --player judge --size K`), else the general shipped one (value.npz).
Where a training run collects from its games (strategies.helpers.collect), judge writes what the
run asks for: the features of the table at every turn's start (the positions its value learns
from; TABLES_BASE with its base playing, TABLES with judge playing), every question it weighs
with each answer's value (LABELS, learned's teacher), or every answer's afterstate as selfplay
reads it with the value judge found for it (TEACH: strategies.nets.afterstate.teach_rows, labels
for selfplay's value, training.teacher). With `follow` 1 judge weighs as ever but plays the
default's answers (the value strategies.run.games.following names, else the family's): the games are the default's,
bit for bit, labelled by judge (DAgger's positions: `kiai train value --loss regret`).
"""

from pathlib import Path

import numpy as np
from numba import njit

from kiai.simcore.questions import ACT_FIGHT, Q_ACTION, Q_CARD, Q_FIGHT_AGAIN
from kiai.simcore.rng import mix64, stream_below
from kiai.simcore.rounds import play_game
from kiai.simcore.state import int_to_voidptr, keep_alive
from kiai.strategies.base import VALUE_BASES, WEIGHED, Param, Strategy
from kiai.strategies.helpers.race import MAX_DF, drop, leader, t_quantiles
from kiai.strategies.helpers.collect import LABELS, TABLES, TABLES_BASE, TEACH, collecting, next_row, room
from kiai.strategies.helpers.follow import FOLLOW_DATA, FOLLOWED_QUESTIONS, follow_params, followed, salted
from kiai.strategies.nets.afterstate import teach_rows
from kiai.strategies.lookahead import (
    MAX_CANDIDATES,
    write_label,
    answer_question,
    carry_error,
    copy_state,
    put_on_top,
    question_candidates,
    question_seed,
    rollout_config,
    rollout_records,
    sample_hidden,
)
from kiai.strategies.nets.table_value import DATA, N_VALUE_FEATURES, table_features, table_value
from kiai.strategies.nets.modelfile import DATA as DATA_DIR, TABLE, load

BASES = VALUE_BASES
STRATEGY = Strategy(
    "judge",
    "The strong tier: plays each answer to the action, a card in hand and Kikuchiyo's second fight three turns on with keeper, exactly over a Fight's next card, racing the answers so that samples go where they are close, and leaves keeper's answer for one whose tables a value learned by self-play rates clearly better.",
    (
        Param("samples", 16, 1, 64, True, "hidden orders sampled per answer at most (the same for every answer); the race spends them where answers are close"),
        Param("base", 0, 0, len(BASES) - 1, True, "heuristic for the other questions: " + ", ".join(f"{i} {b}" for i, b in enumerate(BASES)), expert=True),
        Param("weigh", 7, 1, 7, True, "the questions judge weighs, among action, cards and second-fight, joined by '+'",
              choices=WEIGHED),
        # some turns on, the table shows what the answer led to (a card confronted pays its
        # penalty at its owner's next turn); keeper's rollouts are cheap enough for three
        Param("turns", 3, 0, 60, True, "further turns played by the base after the answer's own before the table is valued (0: the next turn's start)"),
        Param("chance", 1, 0, 1, True, "a Fight's next card: 0 sampled like the rest, 1 every unseen card in turn (exact expectation)"),
        # the threshold of SPARTA's search: the value's errors are largest on tables the base would
        # not lead to, so only a clear gain is worth leaving the base's answer for
        Param("edge", 0.03, 0.0, 1.0, False, "leave the base's answer only for one whose tables are worth this much more (chance to win)", expert=True),
        # a race inside each question (strategies.helpers.race): samples go where answers are close
        Param("race", 0.05, 0.0, 0.5, False, "inside a question, an answer stops sampling once a paired t bound at this one-sided error rate shows it behind the best (0: every answer plays all `samples`)"),
        Param("first", 4, 2, 64, True, "samples every answer plays before the race may drop one", expert=True),
        # a teacher on the default's own positions (training.teacher, DAgger): the labels are judge's,
        # the games the default's, bit for bit
        *follow_params("judge"),
    ),
    planner=True,
    bases=BASES,
    # the race's t quantiles, from `race` (plan_record); with `follow`, the followed default's decide()
    # and its record, by address
    data=DATA + (("race_t", np.float64, (MAX_DF,)), *FOLLOW_DATA),
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
    carry_error(g, r)
    # whether the sample mattered: every read of what is hidden draws or shows a stacked card
    # (a redraw puts one back: the set of unseen cards still changes) or takes the game's
    # random stream (a shuffle, a pick, a farmstead's back)
    touched = before != (pub.raider_n, pub.intruder_n, pub.known_n, hid.rng[0], _unseen_key(pub))
    return table_value(p, pub, x), touched


@njit(cache=True)
def _fixed(g, p, r, cand, k, nxt, m, seed0, x, vals):
    """Every answer on all `samples` (race 0): each answer's value into vals."""
    samples = int(p.samples)
    q = g[4].q
    for i in range(k):
        tot = 0.0
        if m > 0 and _draws(q, cand[i]):
            for j in range(m):
                seed = np.int64(mix64(seed0 + np.uint64(j % samples)))
                tot += _play_to_next_turn(g, r, q, cand[i], seed, x, p, nxt[j])[0]
            tot /= m
        else:
            used = samples
            for j in range(samples):
                seed = np.int64(mix64(seed0 + np.uint64(j)))
                v, touched = _play_to_next_turn(g, r, q, cand[i], seed, x, p)
                tot += v
                # play is the same on every sample until it first reads what is hidden: one
                # that read nothing stands for all of them, exactly
                if not touched:
                    used = 1
                    break
            tot /= used
        vals[i, 0] = tot


@njit(cache=True)
def _raced(g, p, r, cand, k, nxt, m, seed0, x, vals):
    """The answers raced (strategies.helpers.race): round n plays sample n of every answer still
    in, and after `first` rounds the race drops those shown behind. A Fight's next card (`chance`
    1) is spread over the rounds: its answer plays the unseen cards in an order drawn from the
    question's seed, a share of them each round, so that its mean so far is unbiased and, once
    every card is played, exact. Each answer's mean into vals; the alive mask is returned."""
    budget = int(p.samples)
    q = g[4].q
    xs = np.zeros((k, budget))
    mean = np.zeros(k)
    tot = np.zeros(k)
    cnt = np.zeros(k)
    exact = np.zeros(k, dtype=np.bool_)
    alive = np.ones(k, dtype=np.bool_)
    order = nxt[:m].copy()
    R = np.empty(1, dtype=np.int64)
    R[0] = np.int64(mix64(seed0 ^ np.uint64(0x2545F4914F6CDD1D)))
    for i in range(m - 1, 0, -1):
        j = stream_below(R, 0, i + 1)
        order[i], order[j] = order[j], order[i]
    rounds = min(budget, m)  # a drawing answer's rounds: every card once
    stay = k
    n = 0
    while n < budget and stay > 1:
        for i in range(k):
            if not alive[i] or exact[i]:
                xs[i, n] = mean[i]
                continue
            if m > 0 and _draws(q, cand[i]):
                lo, hi = m * n // rounds, m * (n + 1) // rounds
                s = 0.0
                for j in range(lo, hi):
                    seed = np.int64(mix64(seed0 + np.uint64(j % budget)))
                    s += _play_to_next_turn(g, r, q, cand[i], seed, x, p, order[j])[0]
                tot[i] += s
                cnt[i] += hi - lo
                xs[i, n] = s / (hi - lo)
                exact[i] = hi == m
            else:
                seed = np.int64(mix64(seed0 + np.uint64(n)))
                v, touched = _play_to_next_turn(g, r, q, cand[i], seed, x, p)
                tot[i] += v
                cnt[i] += 1
                xs[i, n] = v
                exact[i] = not touched  # play read nothing hidden: every sample would be this one
            mean[i] = tot[i] / cnt[i]
        n += 1
        if n >= int(p.first):
            stay = drop(xs, mean, exact, alive, n, p.edge, p.race_t)
        open_ = 0
        for i in range(k):
            if alive[i] and not exact[i]:
                open_ += 1
        if open_ == 0:  # every answer still in is known exactly: more rounds change nothing
            break
    for i in range(k):
        vals[i, 0] = mean[i]
    return alive


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
    seed0 = salted(question_seed(g), p.salt)
    # the next card's candidates, for an exact expectation over it (`chance` 1): every unseen
    # card, each equally likely (section 12); none when Katsushiro made the top card known
    nxt = np.empty(pub.n_cards, dtype=np.int64)
    m = 0
    if int(p.chance) == 1 and pub.known_n == 0:
        for c in range(pub.n_cards):
            if pub.unseen[c]:
                nxt[m] = c
                m += 1
    vals = np.empty((k + 1, 1))  # each answer's value, for a teacher's label row
    if p.race > 0.0:
        alive = _raced(g, p, r, cand, k, nxt, m, seed0, x, vals)
        best = leader(vals[:k, 0], alive, p.edge)
    else:
        _fixed(g, p, r, cand, k, nxt, m, seed0, x, vals)
        best = 0
        bv = -1.0
        for i in range(k):
            tot = vals[i, 0] + (p.edge if i == 0 else 0.0)  # the base's own answer keeps (near) ties
            if tot > bv:
                bv = tot
                best = i
    keep_alive(pubs, hids, books, mems)
    keep_alive(rcfgs, rcfgs, rcfgs, rcfgs)
    played = cand[best] if p.follow_fn == 0 else followed(p.follow_fn, p.follow_at, pub, mem)
    # as a teacher (`kiai train learned`), the question with every answer's value, as the lookahead writes it
    if collecting(mem, LABELS) and room(mem, 1):
        write_label(g, cand, k, vals)
    elif collecting(mem, TEACH):  # a teacher of selfplay's value (training.teacher): every answer's afterstate
        teach_rows(pub, mem, book.decisions, cand, k, vals[:, 0], best, played)
    mem.answer = played


@njit(cache=True)
def plan(pub, hid, book, cfg, mem):
    """The engine's hook (simcore.gateway.HOOK_ARGS)."""
    p = params(int_to_voidptr(cfg.pdata))
    if mem.q == 0:
        _collect(pub, book, mem)
    elif p.follow_fn != 0 and not (int(p.weigh) >> _weigh_bit(mem.q)) & 1:
        mem.answer = followed(p.follow_fn, p.follow_at, pub, mem)  # a question judge does not weigh: the default's
    else:
        _judge((pub, hid, book, cfg, mem), p)
        if p.follow_fn != 0 and mem.answer < 0:  # one legal answer, or none to weigh: the default's
            mem.answer = followed(p.follow_fn, p.follow_at, pub, mem)
    return 0


@njit(cache=True, inline="always")
def _weigh_bit(q):
    """The bit of `weigh` for question q (8: a question judge never weighs)."""
    return 0 if q == Q_ACTION else 1 if q == Q_CARD else 2 if q == Q_FIGHT_AGAIN else 8


def hooks(prm: dict, collects: int = 0) -> tuple[int, int]:
    """(plan_turns, plan_questions): where a run collects the tables at turns' starts (`collects`,
    strategies.helpers.collect), every turn's start; the questions judge weighs, unless its base
    plays (TABLES_BASE); following the default (`follow`), every question but the absent tokens'
    (whose answer is a set), so that the default answers them all."""
    which = int(STRATEGY.param_vector({"weigh": prm.get("weigh", 7)})[STRATEGY.index("weigh")])
    mask = sum(1 << q for bit, q in ((1, Q_ACTION), (2, Q_CARD), (4, Q_FIGHT_AGAIN)) if which & bit)
    if int(prm.get("follow", 0)):
        mask = FOLLOWED_QUESTIONS
    return int(collects in (TABLES_BASE, TABLES)), 0 if collects == TABLES_BASE else mask


def plan_record(config) -> np.ndarray:
    """The planner's record: its parameters, then the value's weights (load_model: --model's, else the family's
    where kiai ships one), then the race's t quantiles."""
    rec = STRATEGY.new_record()
    vec = STRATEGY.param_vector(config.params)
    for i, p in enumerate(STRATEGY.params):
        rec[0][p.name] = vec[i]
    load_model(config.model, table=_table(config)).pack(rec[0])
    rec[0]["race_t"] = t_quantiles(float(rec[0]["race"]))
    return rec  # with `follow`, the run layer points follow_fn and follow_at at the default (strategies.run.games.follow_default)


def _table(config) -> tuple[int, str]:
    return len(config.samurai), config.family_level


def family_file(size: int, level: str) -> Path:
    """Where judge's value of the family of `size` samurai at `level` lies among the shipped files."""
    return DATA_DIR / f"judge-{size}-{level}.npz"


def value_path(path=None, table: tuple[int, str] | None = None) -> str | None:
    """The value file judge plays on a table of the family `table` (team size, official level):
    `path` (a command's --model), else the family's shipped one, else None (the general shipped
    value, strategies/data/value.npz)."""
    if path:
        return str(path)
    if table is not None and family_file(*table).exists():
        return str(family_file(*table))
    return None


BY_FAMILY = True  # a family's own value where kiai ships one (GameConfig.load_model passes the table)


def load_model(path=None, components=None, table: tuple[int, str] | None = None):
    """The value judge plays (GameConfig.load_model): path's, else the family's shipped one, else
    the general one; checked (ModelError, one line)."""
    return load(value_path(path, table), TABLE, components)


def label(config, model) -> str:
    """What plays, for a result's first line (GameConfig.played_as): the value file and its hash."""
    shipped = Path(model.path).resolve() == Path(load_model(table=_table(config)).path).resolve()
    return f"{'value' if shipped else 'value ' + Path(model.path).name}, {model.sha256[:8]}"
