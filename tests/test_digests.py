"""Same games, bit for bit: stored digests of every strategy's games and of a few event logs.

tests/data/digests.json holds a SHA-256 of the per-game result rows of each registered strategy on
four configurations (2, 3, 4 and 7 samurai; every level; absent tokens on and off), and of the
event logs of a few single games. A refactor must leave them unchanged; a deliberate change to a
rule, a strategy or a random stream regenerates them (tests/data/make_digests.py) and says so in
its commit message.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from kiai.strategies.registry import REGISTRY, names
from kiai.strategies.run.config import GameConfig
from kiai.strategies.run.games import run_games, run_one

pytestmark = pytest.mark.usefixtures("engine")

STORED = json.loads((Path(__file__).parent / "data" / "digests.json").read_text())
SEED = 20261123


def _digest(a: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()


def _games_case(key: str):
    strategy, lineup, level, absent, games = key.split("|")
    s = next(x for x in REGISTRY if x.name == strategy)
    params = {"samples": 2} if s.planner and "samples" in [p.name for p in s.params] and s.name != "foresight" else {}
    return GameConfig(tuple(lineup.split(",")), level, strategy, params=params, absent_tokens=absent), int(games)


def test_every_registered_strategy_has_stored_games():
    """A new strategy stores its digests (tests/data/make_digests.py NAME); a removed one drops them."""
    assert {k.split("|")[0] for k in STORED["games"]} == set(names())


@pytest.mark.parametrize("key", sorted(STORED["games"]))
def test_games_are_the_stored_games(key):
    config, games = _games_case(key)
    assert _digest(run_games(config, games, seed=SEED)) == STORED["games"][key]


def _shipped_families() -> list[tuple[int, str]]:
    from kiai.simcore.codes import LEVELS
    from kiai.strategies.nets.modelfile import family_path

    return [(k, level) for k in range(2, 8) for level in LEVELS if family_path(k, level) is not None]


def test_every_family_that_ships_a_value_has_the_defaults_stored_games():
    """The default on one table of every family kiai ships a value for (make_digests.py --families):
    a family whose value changes shows it in its own entry, and only there."""
    tables = {(len(k.split("|")[1].split(",")), k.split("|")[2]) for k in STORED["families"]}
    assert tables == set(_shipped_families())


@pytest.mark.parametrize("key", sorted(STORED["families"]))
def test_the_default_plays_each_familys_stored_games(key):
    strategy, lineup, level, absent, games = key.split("|")
    config = GameConfig(tuple(lineup.split(",")), level, strategy, absent_tokens=absent)
    assert _digest(run_games(config, int(games), seed=SEED)) == STORED["families"][key]


@pytest.mark.parametrize("key", sorted(STORED["traces"]))
def test_event_logs_are_the_stored_logs(key):
    strategy, lineup, level, absent, index = key.split("|")
    run = run_one(GameConfig(tuple(lineup.split(",")), level, strategy, absent_tokens=absent), 5, int(index))
    assert _digest(run.events[:, :6].astype(np.int64)) == STORED["traces"][key]
