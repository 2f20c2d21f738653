"""`kiai trace` reads as the game, for people: a legend, plain words for every code name, and a
village line after every turn that agrees with the engine's state (simcore/trace.py)."""

from __future__ import annotations

import re

import pytest

from conftest import run
from kiai.simcore.codes import FAMILY_BONUSES, FARMSTEAD_BACKS, LEVELS, PENALTIES, SAMURAI, WOUND_STATES
from kiai.simcore.trace import WORDS, describe
from kiai.strategies.run.config import GameConfig
from kiai.strategies.run.games import run_one

pytestmark = pytest.mark.usefixtures("engine")

LINEUPS = {2: "kyuzo,kikuchiyo", 4: "kyuzo,kikuchiyo,heihachi,daisuke", 7: ",".join(SAMURAI)}
# the engine's code names: none may reach the trace
CODE_NAMES = sorted({p for p in PENALTIES if "_" in p} | {"heal_random", "intruder_to_discard", "human+token"}
                    | set(FAMILY_BONUSES) | set(FARMSTEAD_BACKS) | {s for s in WOUND_STATES if "+" in s})
VILLAGE = re.compile(r"^  village: (\d+) barricades?, (\d+) farmsteads?, (\d+) famil(?:y|ies) \| (.*)$")


def _trace(capsys, samurai, level, index, seed=3):
    code, out, err = run(capsys, "trace", "-s", samurai, "-d", level, "--seed", seed, "-i", index)
    assert code == 0, err
    return out


def test_every_code_name_has_plain_words():
    names = set(PENALTIES) | set(FARMSTEAD_BACKS) | set(FAMILY_BONUSES) | set(WOUND_STATES)
    assert names <= set(WORDS)
    for name, (short, long) in WORDS.items():
        assert "_" not in short + long and "+" not in short + long, name


def test_the_legend_comes_once_at_the_top(capsys):
    out = _trace(capsys, LINEUPS[4], "hard", 0)
    lines = out.splitlines()
    assert sum(line.startswith("Legend.") for line in lines) == 1
    assert out.count("[value symbol, penalties, flame, #id]") == 1
    legend = lines.index(next(x for x in lines if x.startswith("Legend.")))
    assert legend == 1 and legend < lines.index("=== Round 1 ===")
    head = "\n".join(lines[:lines.index("=== Round 1 ===")])
    for word in ("flame", "#id", "right draws", "must pass", "no talent", "village"):
        assert word in head, word


@pytest.mark.parametrize("n", sorted(LINEUPS))
@pytest.mark.parametrize("level", LEVELS)
def test_no_code_name_reaches_the_trace(capsys, n, level):
    text = "\n".join(_trace(capsys, LINEUPS[n], level, i) for i in range(3))
    found = [name for name in CODE_NAMES if name in text]
    assert not found, found
    assert "Battle penalty of [" in text  # the games did meet penalties, so the check means something
    assert not re.search(r"#\d+\]", text.replace(", #", "")), "a card without the ', #id]' ending"


def test_cards_are_shown_in_short_words(capsys):
    out = _trace(capsys, LINEUPS[4], "hard", 0)
    # the seed-3 game meets #50 (a 4 with a hat, right draws and flame) and #25 (a plain 2, barricade)
    assert "[4 hat, right draws, flame, #50]" in out and "[2, barricade, #25]" in out
    assert "Battle penalty of [2, barricade, #25]: a barricade falls." in out


def _village(line, samurai):
    """(barricades, farmsteads, families, [each samurai's state]) of a village line."""
    m = VILLAGE.match(line)
    assert m, line
    shorts = sorted((WORDS[s][0] for s in WOUND_STATES), key=len, reverse=True)
    states = []
    for who, item in zip(samurai, m.group(4).split(", "), strict=True):
        state = next(s for s in shorts if item.endswith(" " + s))
        assert item == f"{who.capitalize()} {state}", line
        states.append(state)
    return int(m.group(1)), int(m.group(2)), int(m.group(3)), states


def _check_against(lines, run, samurai):
    """A village line closes every turn (before the round's end); the last one is the engine's
    state where the log stops."""
    turns = [i for i, x in enumerate(lines) if x.startswith("-- ")]
    assert turns
    for i, nxt in zip(turns, turns[1:] + [len(lines)]):
        block = lines[i + 1:nxt]
        villages = [k for k, x in enumerate(block) if x.startswith("  village:")]
        ends = [k for k, x in enumerate(block) if x.startswith(("Round ends", "End of round", "Game over"))]
        assert villages and villages[0] < min(ends, default=len(block)), "\n".join(lines[i:nxt])
        assert len(villages) == 1 + any(x.startswith("End of round") for x in block), "\n".join(lines[i:nxt])
    last = [x for x in lines if x.startswith("  village:")][-1]
    pub = run.pub
    assert _village(last, samurai) == (
        int(pub.barricades), int(pub.farmsteads), int(pub.families),
        [WORDS[WOUND_STATES[int(w)]][0] for w in pub.wound[:len(samurai)]],
    ), "\n".join(lines[-40:])


@pytest.mark.parametrize("n", sorted(LINEUPS))
@pytest.mark.parametrize("level", ["easy", "hard", "heroic"])
def test_a_village_line_follows_every_turn_and_ends_on_the_final_state(n, level):
    samurai = tuple(LINEUPS[n].split(","))
    cfg = GameConfig(samurai, difficulty=level, strategy="reference")
    for i in range(3):
        game = run_one(cfg, 3, i)
        lines = describe(game.events, samurai, cfg.components)
        _check_against(lines, game, samurai)


@pytest.mark.parametrize("turns", [1, 7, 20, 45])
def test_the_village_line_is_the_state_after_that_turn(turns):
    """Stopped after any number of turns, the game's state is the last village line's."""
    samurai = tuple(LINEUPS[4].split(","))
    cfg = GameConfig(samurai, difficulty="heroic", strategy="reference")
    game = run_one(cfg, 5, 1, stop_after_turns=turns)
    lines = describe(game.events, samurai, cfg.components)
    assert sum(x.startswith("-- ") for x in lines) == min(turns, int(game.book.turns))
    _check_against(lines, game, samurai)
