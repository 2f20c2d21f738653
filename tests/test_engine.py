"""Engine-wide properties: determinism, fuzzing with invariant checks, the R-19 guarantee."""

from __future__ import annotations

import numba
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kiai.simcore.results import (
    O_BARR,
    O_DECISIONS,
    O_END_ROUND,
    O_ERR,
    O_FAMS,
    O_FARMS,
    O_FIRST_SEAT,
    O_ILLEGAL,
    O_OUTCOME,
    O_SCORE,
    O_STALLED,
    O_WOUND_SUM,
)
from kiai.strategies.run.config import GameConfig
from kiai.strategies.run.games import run_games, run_one, set_threads
from kiai.simcore.codes import LEVELS, SAMURAI
from kiai.strategies.registry import REGISTRY

pytestmark = pytest.mark.usefixtures("engine")

FOUR = ("kyuzo", "kikuchiyo", "heihachi", "daisuke")


def test_same_results_at_one_and_two_threads():
    """Game i of seed s is the same game whatever the thread count."""
    cfg = GameConfig(FOUR)
    before = numba.get_num_threads()
    try:
        set_threads(1)
        one = run_games(cfg, 3000, seed=11)
        set_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = run_games(cfg, 3000, seed=11)
    finally:
        numba.set_num_threads(before)
    np.testing.assert_array_equal(one, two)


def test_same_results_whatever_the_batch_split():
    cfg = GameConfig(FOUR, strategy="random")
    whole = run_games(cfg, 1000, seed=5)
    parts = np.concatenate([run_games(cfg, 300, seed=5, game_offset=0), run_games(cfg, 700, seed=5, game_offset=300)])
    np.testing.assert_array_equal(whole, parts)


def test_seeds_differ():
    cfg = GameConfig(FOUR, strategy="random")
    assert not np.array_equal(run_games(cfg, 200, seed=1), run_games(cfg, 200, seed=2))


def test_single_game_matches_its_batch_row():
    """`kiai trace --game-index i` replays game i of `kiai simulate`."""
    cfg = GameConfig(FOUR)
    batch = run_games(cfg, 20, seed=3)
    for i in (0, 7, 19):
        np.testing.assert_array_equal(run_one(cfg, 3, i, trace=False, check=False).row, batch[i])


# Every count 2..7, every level, absent tokens on and off: 100,000 random games in all, each
# checked at every decision point (cards accounted for, views in step, counts in bounds).
FUZZ = [
    (("heihachi", "daisuke"), "normal", "auto"),
    (("katsushiro", "kikuchiyo"), "heroic", "auto"),
    (("gorobei", "kanbei", "kyuzo"), "easy", "on"),
    (("kyuzo", "katsushiro", "heihachi"), "hard", "off"),
    (FOUR, "normal", "off"),
    (FOUR, "heroic", "on"),
    (("gorobei", "kanbei", "katsushiro", "kikuchiyo", "daisuke"), "hard", "auto"),
    (("heihachi", "daisuke", "gorobei", "kanbei", "kyuzo", "katsushiro"), "easy", "on"),
    (SAMURAI, "normal", "auto"),
    (tuple(reversed(SAMURAI)), "heroic", "auto"),
]


@pytest.mark.parametrize("samurai,level,absent", FUZZ)
def test_fuzz_random_play_keeps_every_invariant(samurai, level, absent):
    cfg = GameConfig(samurai, level, "random", absent_tokens=absent)
    out = run_games(cfg, 10_000, seed=2024, check=True)
    errors = out[:, O_ERR]
    assert (errors == 0).all(), f"invariant {np.bincount(errors)} violated"
    assert out[:, O_ILLEGAL].sum() == 0
    outcomes = out[:, O_OUTCOME]
    assert ((outcomes >= 0) & (outcomes <= 3)).all()  # every game ended with one outcome
    assert out[:, O_DECISIONS].sum() > 0


def _quick(strategy):
    """A config for the registry-wide tests; planners are slow, so they play fewer games."""
    s = next(x for x in REGISTRY if x.name == strategy)
    params = {"samples": 2} if s.planner and s.honest else {}
    return GameConfig(FOUR, "hard", strategy, params=params), (60 if s.planner else 2000)


@pytest.mark.parametrize("strategy", [s.name for s in REGISTRY])
def test_every_strategy_plays_legally(strategy):
    cfg, games = _quick(strategy)
    out = run_games(cfg, games, seed=9, check=True)
    assert (out[:, O_ERR] == 0).all()
    assert out[:, O_ILLEGAL].sum() == 0


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    lineup=st.lists(st.sampled_from(SAMURAI), min_size=2, max_size=7, unique=True),
    level=st.sampled_from(LEVELS),
    strategy=st.sampled_from(["random", "reference"]),
    seed=st.integers(0, 2**63 - 1),
    absent=st.sampled_from(["auto", "off"]),
)
def test_property_counts_in_bounds(lineup, level, strategy, seed, absent):
    """Any line-up, level and seed: all cards accounted for at every step, counts in bounds."""
    cfg = GameConfig(tuple(lineup), level, strategy, absent_tokens=absent)
    out = run_games(cfg, 200, seed=seed, check=True)
    assert (out[:, O_ERR] == 0).all()
    n = len(lineup)
    level_info = cfg.components.levels[level]
    assert (out[:, O_BARR] >= 0).all() and (out[:, O_BARR] <= level_info.barricades(n)).all()
    assert (out[:, O_FARMS] >= 0).all() and (out[:, O_FARMS] <= 6).all()
    assert (out[:, O_FAMS] >= 0).all() and (out[:, O_FAMS] <= 3).all()
    assert (out[:, O_WOUND_SUM] <= 4 * n).all()
    wins = out[:, O_OUTCOME] == 0
    assert (out[wins, O_FARMS] >= 1).all() and (out[wins, O_FAMS] >= 1).all()
    assert (out[wins, O_END_ROUND] == 3).all()
    assert (out[~wins, O_SCORE] == -1).all()


# ---------------------------------------------------------------- public information only
@pytest.mark.parametrize("strategy", [s.name for s in REGISTRY if s.honest])
def test_r19_honest_strategies_cannot_see_hidden_order(strategy):
    """R-19: at every decision the strategy is handed a copy of the hidden state with the unknown
    part of the raider stack, the intruder stack and the farmstead backs reordered. An honest
    strategy decides from public information only, so every game is identical."""
    cfg, games = _quick(strategy)
    plain = run_games(cfg, games, seed=77)
    scrambled = run_games(cfg, games, seed=77, scramble=True)
    np.testing.assert_array_equal(plain, scrambled)


@pytest.mark.parametrize("strategy", [s.name for s in REGISTRY if not s.honest])
def test_r19_the_scramble_test_catches_a_cheater(strategy):
    """The same test, applied to each cheating strategy (`foresight` sees every stack, `peek`
    only the next card), sees its games change: the test above could fail."""
    cfg, games = _quick(strategy)
    plain = run_games(cfg, games, seed=77)
    scrambled = run_games(cfg, games, seed=77, scramble=True)
    assert (plain != scrambled).any(axis=1).sum() > games // 4


def test_r19_public_view_has_no_hidden_order():
    """The observation pub holds the unordered unseen set (R-19a) but not the order: two games
    that differ only in the hidden order below the top card give identical pub before the next
    draw."""
    cfg = GameConfig(FOUR, first_seat=0)
    base = run_one(cfg, 4, 0, stop_after_turns=3)
    pub, hid = np.array([base.pub]), np.array([base.hid])
    n = int(base.pub.raider_n)
    hid2 = hid.copy()
    hid2["raider"][0, : n - 1] = hid2["raider"][0, : n - 1][::-1]  # keep the top card
    a = run_one(cfg, 4, 0, state_=(pub, hid), stop_after_turns=0)
    b = run_one(cfg, 4, 0, state_=(pub, hid2), stop_after_turns=0)
    assert a.pub.tobytes() == b.pub.tobytes()
    assert a.hid.tobytes() != b.hid.tobytes()
    unseen = {int(c) for c in np.nonzero(a.pub.unseen[:66])[0]}
    stacks = {int(c) for c in a.hid.raider[:n]} | {
        int(c) for c in a.hid.intruder[: int(a.pub.intruder_n)]
    }
    assert unseen == stacks


def test_r3_first_player_is_drawn_from_the_game_stream():
    cfg = GameConfig(FOUR)
    firsts = run_games(cfg, 4000, seed=1)[:, O_FIRST_SEAT]
    counts = np.bincount(firsts, minlength=4)
    assert counts.min() > 800  # uniform over 4 seats: ~1000 each
    fixed = run_games(GameConfig(FOUR, first_seat=2), 50, seed=1)[:, O_FIRST_SEAT]
    assert (fixed == 2).all()


def test_r9b_no_stalls_with_shipped_strategies():
    """R-9b: stalls are counted; with sensible strategies they are (about) absent."""
    for strategy in ("reference", "random"):
        out = run_games(GameConfig(FOUR, strategy=strategy), 20_000, seed=3)
        assert out[:, O_STALLED].sum() <= 1


# ---------------------------------------------------------------- the strategy's random stream
U64 = 2**64


def _unshift(y, k):
    """The z with z ^ (z >> k) == y: each pass fixes k more high bits."""
    z = y
    for _ in range(64 // k):
        z = y ^ (z >> k)
    return z


def _unmix64(y):
    """The inverse of rng.mix64 (SplitMix64's finalizer), on Python ints."""
    from kiai.simcore import rng

    y = _unshift(y, 31) * pow(int(rng._M2), -1, U64) % U64
    y = _unshift(y, 27) * pow(int(rng._M1), -1, U64) % U64
    return _unshift(y, 30)


def _u(x):
    return int(x) % U64


def test_strategy_stream_does_not_reveal_the_game_stream():
    """The strategy's stream is public to it, so the game's stream must not be a function of it:
    inverting the derivation finds a second (seed, game) with the same strategy stream and
    another game stream."""
    from kiai.simcore import rng

    def mix(x):
        return _u(rng.mix64(np.uint64(x % U64)))

    seed, game, game2 = 1234, 5, 6
    inner = _unmix64(_u(rng.strategy_stream(seed, game)))
    inner -= mix(game2 * int(rng.GOLDEN) + int(rng._STRATEGY_GAME))
    seed2 = _unmix64(inner % U64) ^ int(rng._STRATEGY_SEED)
    seed2 -= U64 * (seed2 >= 2**63)  # as the engine's int64
    assert _u(rng.strategy_stream(seed2, game2)) == _u(rng.strategy_stream(seed, game))
    assert _u(rng.game_stream(seed2, game2)) != _u(rng.game_stream(seed, game))
    cfg = GameConfig(FOUR, strategy="random")
    a = run_one(cfg, seed, game, stop_after_turns=0)
    b = run_one(cfg, seed2, game2, stop_after_turns=0)
    assert a.book.err == 0 and b.book.err == 0
    assert a.mem.stream[0] == b.mem.stream[0]
    assert a.hid.rng[0] != b.hid.rng[0]
    # the old derivation, mix64(game stream ^ C), inverts: the strategy could read the game's
    # stream off its own, so equal old-style streams always meant equal game streams
    old_c = 0xD1B54A32D192ED03
    for s, g in ((seed, game), (seed2, game2)):
        game_s = _u(rng.game_stream(s, g))
        assert _unmix64(mix(game_s ^ old_c)) ^ old_c == game_s
