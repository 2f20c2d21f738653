"""The race inside one of judge's questions (strategies.helpers.race), on constructed values, and
judge's fixed-sample play kept as `race` 0: a clear best answer leaves the others after the first
samples, answers that tie use the whole budget, and the choice depends only on the samples'
results, whatever the order of the answers, the clock or the thread count."""

from __future__ import annotations

import json
import hashlib
import time
from pathlib import Path

import numpy as np
import pytest

from kiai.strategies.helpers.race import MAX_DF, race_values, t_quantiles

TQ = t_quantiles(0.05)
FIRST = 2


def _noise(k, budget, seed=0, scale=0.05):
    """One shared noise per sample (the hidden order), as common random numbers give it, and a
    little of each answer's own."""
    rng = np.random.default_rng(seed)
    common = rng.normal(0, scale, budget)
    return common[None, :] + rng.normal(0, scale / 50, (k, budget))


def test_a_clear_best_answer_ends_the_race_after_the_first_samples():
    values = np.array([[0.30], [0.60], [0.20]]) + _noise(3, 8)
    best, used = race_values(values, np.zeros(3, np.bool_), FIRST, 0.0, TQ)
    assert best == 1
    assert list(used) == [FIRST, FIRST, FIRST]


def test_answers_that_tie_use_the_whole_budget():
    values = np.array([[0.40], [0.40], [0.40]]) + _noise(3, 12, scale=0.08) * [[1], [1], [1]]
    values[1:] = values[0]  # the same value on every sample
    best, used = race_values(values, np.zeros(3, np.bool_), FIRST, 0.0, TQ)
    assert best == 0 and list(used) == [12, 12, 12]


def test_close_answers_play_on_and_the_distant_one_leaves():
    rng = np.random.default_rng(3)
    common = rng.normal(0, 0.1, 16)
    values = np.vstack([0.50 + common + rng.normal(0, 0.03, 16), 0.51 + common + rng.normal(0, 0.03, 16),
                        0.20 + common + rng.normal(0, 0.01, 16)])
    _, used = race_values(values, np.zeros(3, np.bool_), FIRST, 0.0, TQ)
    assert used[2] < used[0] and used[0] == used[1]


def test_the_base_answer_keeps_its_edge():
    """Answer 0 is the base's: another must beat it by more than the edge to be chosen, and the
    race reads the lead with the edge counted."""
    values = np.array([[0.50], [0.52]]) + _noise(2, 8, scale=0.0)
    assert race_values(values, np.zeros(2, np.bool_), FIRST, 0.03, TQ)[0] == 0
    assert race_values(values, np.zeros(2, np.bool_), FIRST, 0.01, TQ)[0] == 1


def test_an_exact_answer_plays_one_sample():
    values = np.array([[0.30] * 8, [0.50] * 8]) + np.vstack([np.zeros(8), _noise(1, 8, seed=4)[0]])
    exact = np.array([True, False])
    _, used = race_values(values, exact, FIRST, 0.0, TQ)
    assert used[0] == 1


@pytest.mark.parametrize("seed", range(6))
def test_the_choice_depends_only_on_the_results_not_the_order_of_the_answers(seed):
    """The answers after the base's, taken in another order, give the same choice and the same
    samples each (the rule reads the results, nothing else)."""
    rng = np.random.default_rng(seed)
    k, budget = 5, 10
    values = rng.uniform(0.3, 0.5, (k, 1)) + _noise(k, budget, seed=seed, scale=0.06)
    exact = np.zeros(k, np.bool_)
    best, used = race_values(values, exact, FIRST, 0.02, TQ)
    perm = np.concatenate([[0], 1 + rng.permutation(k - 1)])
    best2, used2 = race_values(values[perm], exact, FIRST, 0.02, TQ)
    assert perm[best2] == best and list(used2) == list(used[perm])


def test_the_t_quantiles_fall_with_the_samples_and_race_zero_drops_nothing():
    assert len(TQ) == MAX_DF and (np.diff(TQ) < 0).all() and TQ[0] > TQ[-1] > 1.6
    values = np.array([[0.1] * 8, [0.9] * 8])
    _, used = race_values(values, np.zeros(2, np.bool_), FIRST, 0.0, t_quantiles(0.0))
    assert list(used) == [8, 8]


@pytest.mark.usefixtures("engine")
@pytest.mark.parametrize("strategy,params", [
    ("judge", {"samples": 4}),
    ("lookahead", {"samples": 6, "race": 0.2, "first": 2, "decisions": 1, "base": 5, "rollouts": 1}),
])
def test_raced_planners_play_the_same_games_on_any_thread_count_clock_or_batch(monkeypatch, strategy, params):
    """The race reads only its samples' results: judge's and the lookahead's games are the same on
    one thread and two, with the clock replaced, and when a game is played alone rather than in its
    batch."""
    import numba

    from kiai.strategies.run.config import GameConfig
    from kiai.strategies.run.games import run_games

    config = GameConfig(("kyuzo", "kikuchiyo", "heihachi"), "normal", strategy, params=params)
    numba.set_num_threads(1)
    try:
        one = run_games(config, 4, seed=11)
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    for name in ("time", "perf_counter", "monotonic", "process_time"):
        monkeypatch.setattr(time, name, lambda: 12345.0)
    both = run_games(config, 4, seed=11)
    alone = run_games(config, 1, seed=11, game_offset=2)
    assert np.array_equal(one, both) and np.array_equal(alone[0], one[2])


@pytest.mark.usefixtures("engine")
def test_judge_without_the_race_plays_the_fixed_samples_it_always_played():
    """`race` 0 is judge's play before the race, bit for bit: the digests stored before it."""
    from kiai.strategies.run.config import GameConfig
    from kiai.strategies.run.games import run_games

    stored = json.loads((Path(__file__).parent / "data" / "judge_fixed_digests.json").read_text())
    for key, digest in stored.items():
        _, lineup, level, absent, games = key.split("|")
        params = {"samples": 2, "race": 0, "base": 1, "turns": 2}
        config = GameConfig(tuple(lineup.split(",")), level, "judge", params=params, absent_tokens=absent)
        rows = run_games(config, int(games), seed=20261123)
        assert hashlib.sha256(np.ascontiguousarray(rows).tobytes()).hexdigest() == digest, key
