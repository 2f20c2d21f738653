"""reports.search.tune without the engine: schedules, candidates, the search and the re-evaluation."""

from __future__ import annotations

import numpy as np
import pytest

from kiai.reports.search import tune as T
from kiai.simcore.stats import paired_test
from kiai.strategies import registry
from kiai.strategies.registry import Param, Strategy

REFERENCE = registry.get("reference")
# a made-up strategy with a continuous and an integer parameter (never played, only sampled)
MIXED = Strategy("mixed", "test only", (Param("x", 0.5, 0.0, 1.0, False, ""), Param("n", 2, 1, 4, True, "")))


# ------------------------------------------------------------------------------ schedules


def test_halving_schedule_divides_candidates_and_multiplies_games():
    assert T.halving_schedule(16, 900, 3) == [T.Rung(16, 100, 6), T.Rung(6, 300, 2), T.Rung(2, 900, 1)]
    assert T.halving_schedule(8, 20_000, 2) == [T.Rung(8, 5000, 4), T.Rung(4, 10_000, 2), T.Rung(2, 20_000, 1)]
    assert T.halving_schedule(3, 500, 3) == [T.Rung(3, 500, 1)]
    assert T.halving_schedule(1, 50, 3) == [T.Rung(1, 50, 1)]


def test_halving_schedule_never_plays_fewer_than_one_game():
    assert T.halving_schedule(27, 5, 3) == [T.Rung(27, 1, 9), T.Rung(9, 1, 3), T.Rung(3, 5, 1)]


@pytest.mark.parametrize("n,games,eta", [(16, 1000, 3), (10, 777, 2), (100, 10**6, 4), (5, 3, 2)])
def test_halving_schedule_shape(n, games, eta):
    rungs = T.halving_schedule(n, games, eta)
    assert rungs[0].candidates == n and rungs[-1].keep == 1 and rungs[-1].games == games
    for a, b in zip(rungs, rungs[1:]):
        assert b.candidates == a.keep == -(-a.candidates // eta)  # ceil
        assert a.games <= b.games
    assert all(r.games >= 1 for r in rungs)


def test_search_games_counts_only_new_games():
    # 16 x 100, then 6 more x 200, then 2 more x 600
    assert T.search_games(T.halving_schedule(16, 900, 3)) == 1600 + 1200 + 1200
    assert T.search_games(T.random_schedule(16, 900)) == 16 * 900


@pytest.mark.parametrize("call,words", [
    (lambda: T.halving_schedule(0, 10, 3), "at least 1 candidate"),
    (lambda: T.halving_schedule(4, 0, 3), "at least 1 game"),
    (lambda: T.halving_schedule(4, 10, 1), "eta must be at least 2"),
    (lambda: T.schedule("grid", 4, 10), "--method"),
])  # fmt: skip
def test_schedule_errors(call, words):
    with pytest.raises(T.TuneError, match=words):
        call()


# ----------------------------------------------------------------------------- candidates


def test_candidates_start_with_defaults_and_respect_ranges():
    cands = T.sample_candidates(REFERENCE, 8, seed=1)
    assert len(cands) == 8 and cands[0] == {"T": 3}
    assert all(set(c) == {"T"} and type(c["T"]) is int and 0 <= c["T"] <= 20 for c in cands)
    assert len({c["T"] for c in cands}) == 8  # distinct


def test_candidates_are_deterministic_by_seed():
    a = T.sample_candidates(REFERENCE, 6, seed=11)
    assert a == T.sample_candidates(REFERENCE, 6, seed=11)
    assert a[1:] != T.sample_candidates(REFERENCE, 6, seed=12)[1:]
    assert T.sample_candidates(MIXED, 5, seed=3) == T.sample_candidates(MIXED, 5, seed=3)


def test_candidates_stop_at_the_size_of_the_space():
    cands = T.sample_candidates(REFERENCE, 100, seed=0)
    assert sorted(c["T"] for c in cands) == list(range(21))
    assert T.space_size(REFERENCE) == 21 and T.space_size(MIXED) == float("inf")


def test_candidates_start_point_and_fixed_parameters():
    assert T.sample_candidates(REFERENCE, 4, seed=2, start={"T": 7})[0] == {"T": 7}
    cands = T.sample_candidates(MIXED, 50, seed=2, start={"x": 0.25}, fixed={"n": 3})
    assert cands[0] == {"x": 0.25, "n": 3}
    assert all(c["n"] == 3 for c in cands) and len({c["x"] for c in cands}) == 50
    assert all(0.0 <= c["x"] <= 1.0 and type(c["x"]) is float for c in cands)


def test_continuous_parameters_are_uniform_and_integers_cover_their_range():
    cands = T.sample_candidates(MIXED, 4000, seed=5)[1:]
    xs = np.array([c["x"] for c in cands])
    assert 0.47 < xs.mean() < 0.53 and xs.min() < 0.01 and xs.max() > 0.99
    counts = np.bincount([c["n"] for c in cands], minlength=5)[1:]
    assert counts.min() > 900  # 1..4 each about a quarter of 3,999
    assert all(type(c["n"]) is int for c in cands)


def test_candidates_errors():
    with pytest.raises(T.TuneError, match="no parameters"):
        T.sample_candidates(registry.get("random"), 4, seed=0)
    with pytest.raises(T.TuneError, match="fixed"):
        T.sample_candidates(REFERENCE, 4, seed=0, fixed={"T": 2})
    with pytest.raises(T.TuneError, match="must be in"):
        T.sample_candidates(REFERENCE, 4, seed=0, start={"T": 40})
    with pytest.raises(T.TuneError, match="no parameter 'Q'"):
        T.sample_candidates(REFERENCE, 4, seed=0, fixed={"Q": 1})


# --------------------------------------------------------------------------------- search


class FakePlay:
    """Candidate c wins game i of configuration j when (i * 7 + j) % 100 < strength[c]; records calls."""

    def __init__(self, strength):
        self.strength = strength
        self.calls = []

    def __call__(self, c, j, offset, count):
        self.calls.append((c, j, offset, count))
        i = np.arange(offset, offset + count)
        return (i * 7 + j) % 100 < self.strength[c]


def test_search_finds_the_strongest_and_plays_common_games():
    strength = [30, 10, 50, 45, 20, 5, 40, 35, 25]
    play = FakePlay(strength)
    rungs = T.halving_schedule(9, 900, 3)
    assert rungs == [T.Rung(9, 300, 3), T.Rung(3, 900, 1)]
    found = T.search(9, 2, rungs, play)
    assert found.best == 2
    assert found.rungs[0]["kept"] == [2, 3, 6]
    assert found.rungs[1]["candidates"] == [2, 3, 6] and found.rungs[1]["kept"] == [2]
    # rung 1: everyone plays 0..299 of both configurations; rung 2: the three add 300..899
    assert sorted(play.calls) == sorted([(c, j, 0, 300) for c in range(9) for j in (0, 1)]
                                        + [(c, j, 300, 600) for c in (2, 3, 6) for j in (0, 1)])  # fmt: skip
    assert list(found.games) == [300, 300, 900, 900, 300, 300, 900, 300, 300]
    # totals are exact counts of the fake wins over the games played
    for c in range(9):
        n = int(found.games[c])
        expect = sum(int(((np.arange(n) * 7 + j) % 100 < strength[c]).sum()) for j in (0, 1))
        assert int(found.wins[c].sum()) == expect


def test_search_breaks_ties_towards_the_start_point():
    found = T.search(4, 1, T.halving_schedule(4, 100, 2), FakePlay([20, 20, 20, 10]))
    assert found.rungs[0]["kept"] == [0, 1] and found.best == 0


def test_random_search_plays_everyone_the_full_budget():
    play = FakePlay([10, 60, 30])
    found = T.search(3, 1, T.random_schedule(3, 200), play)
    assert found.best == 1 and sorted(play.calls) == [(c, 0, 0, 200) for c in range(3)]


# ----------------------------------------------------------------------------- evaluation


def test_evaluate_plays_fresh_games_and_tests_the_pair():
    play = FakePlay([10, 60])
    fresh = T.evaluate(1, 0, 2, 500, play)
    assert sorted(play.calls) == sorted((c, j, T.EVAL_OFFSET, 500) for c in (0, 1) for j in (0, 1))
    i = np.arange(T.EVAL_OFFSET, T.EVAL_OFFSET + 500)
    a = np.concatenate([(i * 7 + j) % 100 < 60 for j in (0, 1)])
    b = np.concatenate([(i * 7 + j) % 100 < 10 for j in (0, 1)])
    assert fresh["best"]["wins"] == int(a.sum()) and fresh["best"]["games"] == 1000
    assert fresh["baseline"]["wins"] == int(b.sum())
    assert [c["wins"] for c in fresh["best"]["configurations"]] == [int(a[:500].sum()), int(a[500:].sum())]
    t = paired_test(a, b)
    assert fresh["test"]["p_value"] == t["pvalue"] and fresh["test"]["discordant"] == [t["a_only"], t["b_only"]]
    assert fresh["test"]["diff"] == pytest.approx(0.5)
    lo, hi = fresh["best"]["ci95"]
    assert lo < 0.6 < hi


def test_evaluate_plays_the_start_point_once_when_it_won():
    play = FakePlay([40])
    fresh = T.evaluate(0, 0, 1, 100, play)
    assert play.calls == [(0, 0, T.EVAL_OFFSET, 100)]
    assert fresh["test"]["diff"] == 0 and fresh["test"]["discordant"] == [0, 0]
    assert fresh["best"]["wins"] == fresh["baseline"]["wins"] == 40


def test_evaluate_on_one_game_has_no_interval_rather_than_nan():
    fresh = T.evaluate(1, 0, 1, 1, FakePlay([0, 100]))
    assert fresh["test"]["diff_ci"] == [None, None] and fresh["test"]["discordant"] == [1, 0]
    assert fresh["best"]["wins"] == 1 and fresh["baseline"]["wins"] == 0


def test_search_and_evaluate_in_small_blocks_give_the_same_figures():
    """Played BLOCK games at a time at most, keeping counts only: the block size changes nothing."""
    strength = [30, 10, 50, 45, 20]
    rungs = T.halving_schedule(5, 700, 2)
    whole = T.search(5, 2, rungs, FakePlay(strength))
    play = FakePlay(strength)
    cut = T.search(5, 2, rungs, play, block=64)
    assert max(k for *_, k in play.calls) == 64
    assert cut.best == whole.best and cut.rungs == whole.rungs
    assert np.array_equal(cut.wins, whole.wins) and np.array_equal(cut.games, whole.games)
    play = FakePlay(strength)
    fresh = T.evaluate(2, 0, 2, 700, play, block=64)
    assert max(k for *_, k in play.calls) == 64 and len(play.calls) == 2 * 2 * 11
    assert fresh == T.evaluate(2, 0, 2, 700, FakePlay(strength))
    i = np.arange(T.EVAL_OFFSET, T.EVAL_OFFSET + 700)
    a = np.concatenate([(i * 7 + j) % 100 < 50 for j in (0, 1)])
    b = np.concatenate([(i * 7 + j) % 100 < 30 for j in (0, 1)])
    t = paired_test(a, b)
    assert fresh["test"] == {"diff": t["diff"], "diff_ci": list(t["diff_ci"]), "discordant": [t["a_only"], t["b_only"]],
                             "p_value": t["pvalue"], "exact": t["exact"]}  # fmt: skip


# ------------------------------------------------------------------- cross-entropy method


class Pool:
    """add() for cem_search: numbers each new parameter set, gives a known one its old number."""

    def __init__(self):
        self.cands = []

    def __call__(self, cand):
        if cand in self.cands:
            return self.cands.index(cand)
        self.cands.append(cand)
        return len(self.cands) - 1


def peaked(pool, calls):
    """A fake play whose strength peaks at x = 0.8, n = 3: game i of configuration j is won when
    (i * 7 + j) % 100 is below it."""

    def play(c, j, offset, count):
        calls.append((c, j, offset, count))
        p = pool.cands[c]
        strength = 90 - 100 * abs(p["x"] - 0.8) - 15 * abs(p["n"] - 3)
        return (np.arange(offset, offset + count) * 7 + j) % 100 < strength

    return play


def test_cem_moves_its_mean_to_the_strongest_parameters_on_common_games():
    pool, calls = Pool(), []
    best, steps, totals = T.cem_search(MIXED, 12, 8, 200, 2, 5, pool, peaked(pool, calls))
    assert pool.cands[0] == {"x": 0.5, "n": 2} and steps[0].candidates[0] == 0
    last = pool.cands[best]
    assert abs(last["x"] - 0.8) < 0.08 and last["n"] == 3, last
    # every candidate played games 0..199 of both configurations, once
    assert sorted(calls) == sorted((c, j, 0, 200) for c in totals for j in (0, 1))
    # each generation keeps its best fifth (at least 2), ties to the lower number
    for st in steps:
        order = sorted(st.candidates, key=lambda c: (-st.wins[c], c))
        assert st.kept == order[:3] and st.wins == {c: totals[c] for c in st.candidates}
    # the spread narrows, never below the floor
    assert steps[-1].sigma["x"] < steps[0].sigma["x"] and steps[-1].sigma["x"] >= T.CEM_FLOOR * 1.0 - 1e-12


def test_cem_is_deterministic_by_seed_and_its_draws_stay_in_range():
    runs = []
    for seed in (5, 5, 6):
        pool = Pool()
        best, steps, _ = T.cem_search(MIXED, 6, 3, 50, 1, seed, pool, peaked(pool, []))
        runs.append(pool.cands)
        assert all(0.0 <= c["x"] <= 1.0 and c["n"] in (1, 2, 3, 4) for c in pool.cands)
    assert runs[0] == runs[1] and runs[0] != runs[2]


@pytest.mark.parametrize("kw,words", [
    ({"population": 1}, "at least 2 candidates"),
    ({"generations": 0}, "at least 1 generation"),
    ({"games": 0}, "at least 1 game"),
    ({"fixed": {"x": 0.1, "n": 2}}, "nothing to tune"),
])  # fmt: skip
def test_cem_errors(kw, words):
    args = {"population": 4, "generations": 2, "games": 10, **kw}
    fixed = args.pop("fixed", None)
    pool = Pool()
    with pytest.raises(T.TuneError, match=words):
        T.cem_search(MIXED, args["population"], args["generations"], args["games"], 1, 0, pool,
                     peaked(pool, []), fixed=fixed)  # fmt: skip
