"""The lookahead following the default (`follow` 1, strategies.helpers.follow): a teacher on the
default's own positions. It weighs every answer of the questions it weighs, all of them on the same
samples, and writes their scores for the labels, but plays the default's answer at every question:
its games are the default's, bit for bit. `kiai train value --teacher lookahead --loss regret`
learns from it."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from kiai.simcore.questions import ACT_FIGHT, ACT_PASS, ACT_SUPPORT, Q_ACTION
from kiai.simcore.results import O_ILLEGAL
from kiai.simcore.state import int_to_voidptr
from kiai.strategies import lookahead as L
from kiai.strategies.run.config import GameConfig
from kiai.strategies.helpers.follow import salted
from kiai.strategies.run.games import kernel_config, record_game, run_games, run_one
from kiai.training import teacher as T

from conftest import run

pytestmark = pytest.mark.usefixtures("engine")

FIVE = ("heihachi", "daisuke", "gorobei", "kanbei", "katsushiro")
FOLLOWS = {**T.FOLLOWS["lookahead"], "samples": 2}


@pytest.mark.parametrize("lineup,level,absent", [
    (FIVE, "easy", "auto"),  # the default over its family's value
    (("kanbei", "kyuzo", "heihachi", "daisuke", "gorobei"), "hard", "on"),  # a family without one; absent tokens
])
def test_the_lookahead_following_the_default_plays_the_defaults_games_bit_for_bit(lineup, level, absent):
    """Its games, labelled or not, are selfplay's own: the same result rows and the same record of
    every decision; each question's rows share one game and question, with one best and one played
    answer; another `salt` labels the same questions on other samples."""
    mine, default = (GameConfig(lineup, level, s, p, absent_tokens=absent)
                     for s, p in (("lookahead", FOLLOWS), ("selfplay", {})))
    lab = T.collect_labels(mine, 3, seed=9)
    np.testing.assert_array_equal(lab["out"], run_games(default, 3, seed=9))
    np.testing.assert_array_equal(run_games(mine, 3, seed=9), lab["out"])
    for a, b in zip(record_game(mine, 9, 1), record_game(default, 9, 1)):
        np.testing.assert_array_equal(a, b)
    q = T.question_ids(lab["rank"])
    assert (np.bincount(q) >= 2).all()
    assert (np.bincount(q, lab["chosen"]) == 1).all() and (np.bincount(q, lab["played"]) == 1).all()
    first = np.flatnonzero(lab["rank"] == 0)
    for col in ("game", "question"):  # the groups never mix two questions
        np.testing.assert_array_equal(lab[col], lab[col][first][q])
    assert ((lab["estimate"] >= 0) & (lab["estimate"] <= 1)).all()
    other = T.collect_labels(GameConfig(lineup, level, "lookahead", {**FOLLOWS, "salt": 1}, absent_tokens=absent), 3,
                             seed=9)
    np.testing.assert_array_equal(other["out"], lab["out"])
    np.testing.assert_array_equal(other["rank"], lab["rank"])
    assert (other["estimate"] != lab["estimate"]).any()


@njit(cache=True)
def _weigh_first_action(pubs, hids, books, cfgs, mems):
    """The first turn's action of a game stopped before it (no battle penalty yet: every combat
    line is empty), weighed as the lookahead weighs it, with its base's own answer given twice:
    each candidate's value on each sample, rows in the order weighed."""
    pub, hid, book, cfg, mem = pubs[0], hids[0], books[0], cfgs[0], mems[0]
    s = pub.acting
    pub.turn_no += 1  # the turn starts, as simcore.turn.play_turn starts it
    book.turns += 1
    legal = (1 << ACT_PASS) | (1 << ACT_FIGHT)
    for t in range(pub.n):
        if t != s:
            legal |= 1 << (ACT_SUPPORT + t)
    mem.q, mem.seat, mem.a, mem.b, mem.legal = Q_ACTION, s, 0, 0, legal
    g = (pub, hid, book, cfg, mem)
    p = L.params(int_to_voidptr(cfg.pdata))
    cand = np.empty(L.MAX_CANDIDATES + 1, dtype=np.int64)
    k = L.question_candidates(g, cand)
    for i in range(k, 0, -1):
        cand[i] = cand[i - 1]  # the base's own answer twice: rows 0 and 1
    vals = np.empty((k + 2, int(p.samples)))
    L.weigh(g, p, True, False, Q_ACTION, cand, k + 1, 0, salted(L.question_seed(g), p.salt), vals)
    return vals[: k + 1]


def _first_action(lineup, level, params):
    config = GameConfig(lineup, level, "lookahead", params, absent_tokens="off")
    start = run_one(config, 4, 2, trace=False, stop_after_turns=0)
    recs = [np.array(r, dtype=r.dtype).reshape(1) for r in (start.pub, start.hid, start.book, start.mem)]
    cfgs = kernel_config(config).view(np.ndarray)
    return _weigh_first_action(recs[0], recs[1], recs[2], cfgs, recs[3])


def test_every_answer_of_a_question_is_scored_on_the_same_samples():
    """On a constructed question (the first turn's action), the same answer weighed twice scores
    the same on every sample, though the samples differ: each answer plays the same hidden orders
    in the same order, so the scores' differences are paired. Another salt draws other samples."""
    params = {**FOLLOWS, "samples": 8}
    vals = _first_action(FIVE, "easy", params)
    assert len(vals) >= 4
    np.testing.assert_array_equal(vals[0], vals[1])
    assert np.ptp(vals[0]) > 0  # the samples differ: the equality is not a constant's
    np.testing.assert_array_equal(_first_action(FIVE, "easy", params), vals)  # deterministic
    salted_vals = _first_action(FIVE, "easy", {**params, "salt": 5})
    np.testing.assert_array_equal(salted_vals[0], salted_vals[1])
    assert (salted_vals != vals).any()


def test_following_is_off_by_default_and_asks_the_questions_the_default_answers():
    """follow 0 plays the lookahead as it was (its hooks unchanged); follow 1 is asked every question
    but the absent tokens', and plans no turn's start."""
    from kiai.simcore.questions import Q_ABSENT, Q_CARD, Q_FIGHT_AGAIN

    weighed = (1 << Q_ACTION) | (1 << Q_CARD) | (1 << Q_FIGHT_AGAIN)
    assert L.hooks({"decisions": 0}) == (1, 0) and L.hooks({"decisions": 1}) == (0, weighed)
    turns, asked = L.hooks({"decisions": 0, "follow": 1})
    assert turns == 0 and asked & weighed == weighed and not asked >> Q_ABSENT & 1
    assert L.STRATEGY.param_vector({})[L.STRATEGY.index("follow")] == 0


def test_a_tiny_run_of_the_regret_loss_with_the_lookahead_goes_end_to_end(tmp_path, capsys):
    """--teacher lookahead --loss regret: the lookahead following the default labels the default's
    games on --teacher-samples samples an answer, and the value is fitted to the within-question
    loss; its header says so, and the same command gives the same weights."""
    pytest.importorskip("torch")
    from kiai.strategies.nets import modelfile as M

    args = ["--player", "selfplay", "--teacher", "lookahead", "--loss", "regret", "--teacher-samples", 2, "--size", 2,
            "-d", "easy", "--hold-out", 3, "--seed", 7, "--tables", 2, "-n", 2, "--keep", 1, "--epochs", 1,
            "--iterations", 1, "--eval-games", 0]
    code, out, err = run(capsys, "train", "value", tmp_path / "run", *args)
    assert code == 0, err
    v = M.load(tmp_path / "run" / "value-0.npz", M.AFTER)
    h = v.header
    assert h["settings"]["teacher"] == "lookahead" and h["settings"]["teacher_samples"] == 2
    assert "DAgger" in h["method"] and "lookahead" in h["method"] and "(2 shared samples)" in h["method"]
    assert h["positions"] > h["questions"] > 0 and "calibration" not in h
    rows = run_games(GameConfig(("gorobei", "kanbei"), "easy", "selfplay", model=str(tmp_path / "run" / "value-0.npz")),
                     3, seed=1)
    assert (rows[:, O_ILLEGAL] == 0).all()
    assert run(capsys, "train", "value", tmp_path / "again", *args)[0] == 0
    again = M.load(tmp_path / "again" / "value-0.npz", M.AFTER)
    for name, a in v.arrays.items():
        np.testing.assert_array_equal(again.arrays[name], a)
