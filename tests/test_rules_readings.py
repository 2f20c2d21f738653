"""The rule readings (docs/rules.md section 14, V-1 to V-5) on scripted positions, each beside the
default reading it departs from, and the readings as options (simcore.readings)."""

import pytest
from conftest import Cards, events, guarded, make_config, ok, story
from scenario import Position, seat_view

from kiai.simcore.codes import HEIHACHI, PENALTIES
from kiai.simcore.config import ConfigError
from kiai.simcore.events import (
    EV_BONUS,
    EV_FIGHT_AGAIN,
    EV_KIAI,
    EV_KIAI_SHED,
    EV_PASS,
    EV_PENALTY,
    EV_REVEAL,
    EV_ROUND_END,
    EV_TURN,
    EV_WOUND,
)
from kiai.simcore.questions import ACT_FIGHT, ACT_PASS, ACT_SUPPORT, KIAI_EFFECT
from kiai.simcore.readings import READINGS, check_rules, label, parse_rule_items

pytestmark = pytest.mark.usefixtures("engine", "one_thread")


def _round_end(cards, rules, *, wounds=(), no_hat=(), samurai=("kyuzo", "katsushiro", "kanbei")):
    """Everyone has passed: the round ends at once and the end-of-round steps run."""
    pos = Position(make_config(*samurai, rules=rules))
    for s in range(3):
        if s in no_hat:
            pos.defence(s, [cards(value=1, symbol="farm"), cards(value=1, symbol="doll")])
        else:
            pos.defence(s, cards.guard())
    for s, w in wounds:
        pos.wound(s, w)
    return pos.raider([cards(value=1, symbol="none")]).passed(0, 1, 2).turn(0)


# --------------------------------------------------------------------------- V-1 heal
@pytest.mark.parametrize("heal, healed", [("any", False), ("wounded", True)])
def test_v1_bonus_a_draws_among_the_wounded(heal, healed):
    """R-14 draws among all three (index 0: seat 0, who holds no token: nothing happens); V-1
    `wounded` draws among the token holders only (index 0: seat 2)."""
    run = _round_end(Cards(), {"heal": heal}, wounds=((2, 1),)).play(round_end=True, randoms=[0])
    ok(run)
    assert events(run, EV_BONUS)[0][2] == (2 if healed else 0)
    assert seat_view(run, 2)["wound"] == (0 if healed else 1)


def test_v1_wounded_with_no_token_draws_nothing():
    run = _round_end(Cards(), {"heal": "wounded"}).play(round_end=True, randoms=[2])
    ok(run)
    assert events(run, EV_BONUS)[0][2] == -1
    assert run.book.fr_pos == 0  # no random outcome was used


# --------------------------------------------------------------------------- V-2 penalty
@pytest.mark.parametrize("penalty, given", [("every-turn", 2), ("once", 1)])
def test_v2_a_card_gives_its_penalty_once_per_stay_in_the_line(penalty, given):
    """Katsushiro's last card wounds; he supports (his line unchanged), Kyuzo passes, and his
    next turn meets the same last card: every turn by default, not again under V-2 `once`."""
    cards = Cards()
    cfg = make_config("katsushiro", "kyuzo", "kanbei", rules={"penalty": penalty})
    pen = cards(penalties=["wound"], rank="plunderer")
    pos = guarded(cfg, cards).line(0, [pen]).raider([cards(value=2, symbol="none"), cards(value=3, symbol="none")])
    run = pos.passed(2).turn(0).play(turns=3, decisions=[ACT_SUPPORT + 1, ACT_PASS, ACT_PASS])
    ok(run)
    assert [e[0] for e in events(run, EV_TURN)] == [0, 1, 0], story(run)
    assert len(events(run, EV_PENALTY)) == given
    assert seat_view(run, 0)["wound"] == given


def test_v2_a_card_entering_a_line_again_starts_afresh():
    """The mark belongs to the card's stay in a line: a new game's card (placed anew) gives it."""
    cards = Cards()
    cfg = make_config("katsushiro", "kyuzo", "kanbei", rules={"penalty": "once"})
    pen = cards(penalties=["wound"], rank="plunderer")
    pos = guarded(cfg, cards).line(0, [pen]).raider([cards(value=2, symbol="none")]).passed(1, 2).turn(0)
    first = pos.play(turns=1, decisions=[ACT_PASS])
    second = pos.play(turns=1, decisions=[ACT_PASS])
    assert len(events(first, EV_PENALTY)) == len(events(second, EV_PENALTY)) == 1


# --------------------------------------------------------------------------- V-3 round-end
@pytest.mark.parametrize("round_end", ["empty", "drawn"])
def test_v3_support_that_empties_the_stack(round_end):
    """R-9: the support that empties the stack ends the round. V-3 `drawn`: the round goes on,
    each samurai still in takes his turn (battle penalty, then Pass: no card to fight or move)
    until all have passed, and it ends as when all pass."""
    cards = Cards()
    cfg = make_config("kyuzo", "katsushiro", "kanbei", rules={"round-end": round_end})
    pen = cards(penalties=["wound"], rank="plunderer")
    pos = guarded(cfg, cards).line(1, [pen]).raider([cards(value=2, symbol="none")]).turn(0)
    run = pos.play(round_end=True, decisions=[ACT_SUPPORT + 1])
    ok(run)
    if round_end == "empty":
        assert [e[0] for e in events(run, EV_TURN)] == [0]
        assert events(run, EV_ROUND_END)[0][0] == 0  # the stack is empty
        assert seat_view(run, 1)["wound"] == 0
    else:
        assert [e[0] for e in events(run, EV_TURN)] == [0, 1, 2, 0], story(run)
        assert [e[:2] for e in events(run, EV_PASS)] == [(1, 3), (2, 3), (0, 3)]
        assert events(run, EV_ROUND_END)[0][:2] == (1, 0)  # all passed; seat 0 passed last
        assert seat_view(run, 1)["wound"] == 1  # his battle penalty still applied


def test_v3_drawing_the_last_card_still_ends_the_round_at_once():
    cards = Cards()
    cfg = make_config("kyuzo", "katsushiro", "kanbei", rules={"round-end": "drawn"})
    pos = guarded(cfg, cards).raider([cards(value=2, symbol="none")]).turn(0)
    run = pos.play(round_end=True, decisions=[ACT_FIGHT])
    ok(run)
    assert [e[0] for e in events(run, EV_TURN)] == [0]
    assert events(run, EV_ROUND_END)[0][0] == 0


# --------------------------------------------------------------------------- V-4 end-kiai
def _heihachi_at_animal_kiai(cards, rules):
    """Heihachi (seat 0, passed, no hat) holds a token and a line summing to his animal Kiai:
    step 1's wound turns him animal on his Kiai value."""
    line, left = [], int(cards.comp.kiai[HEIHACHI][1])
    while left:  # no turn is played: the line's penalties never apply
        line.append(cards(value=min(6, left)))
        left -= min(6, left)
    pos = _round_end(cards, rules, wounds=((0, 1),), no_hat=(0,), samurai=("heihachi", "kyuzo", "kanbei"))
    return pos.line(0, line), line


@pytest.mark.parametrize("end_kiai", ["off", "on"])
def test_v4_turning_animal_in_the_end_steps(end_kiai):
    cards = Cards()
    pos, line = _heihachi_at_animal_kiai(cards, {"end-kiai": end_kiai})
    run = pos.play(round_end=True, decisions=[KIAI_EFFECT, 0])
    ok(run)
    assert events(run, EV_WOUND)[0][:2] == (0, 2)  # step 1: animal
    if end_kiai == "off":  # nothing triggers once the round has ended
        assert events(run, EV_KIAI) == []
        assert seat_view(run, 0)["line"] == line
    else:  # V-4: at once, passed or not; the first card of his line goes
        assert events(run, EV_KIAI) == [(0, KIAI_EFFECT, 0, 0, 0, 0)]
        assert events(run, EV_KIAI_SHED)[0][:2] == (0, line[0])
        assert seat_view(run, 0)["line"] == line[1:]


# --------------------------------------------------------------------------- V-5 second-fight
@pytest.mark.parametrize("second_fight, again", [("below-kiai", False), ("always", True)])
def test_v5_second_fight_above_the_kiai(second_fight, again):
    """Kikuchiyo's fight takes him above his Kiai (11 > 10): R-7b offers no second fight, V-5
    `always` does."""
    cards = Cards()
    cfg = make_config("kikuchiyo", "kyuzo", "kanbei", rules={"second-fight": second_fight})
    line = [cards(value=4, symbol="none"), cards(value=4, symbol="hat")]
    big, nxt = cards(value=3, symbol="none"), cards(value=1, symbol="none")
    pos = guarded(cfg, cards).line(0, line).raider([big, nxt, cards(value=1, symbol="hat")]).turn(0)
    run = pos.play(turns=1, decisions=[ACT_FIGHT, 1])
    ok(run)
    assert seat_view(run, 0)["total"] >= 11
    assert (events(run, EV_FIGHT_AGAIN) != []) == again
    assert [e[1] for e in events(run, EV_REVEAL)] == ([big, nxt] if again else [big])


def test_v5_no_talent_still_forbids_the_second_fight():
    """V-5 `always` lifts only the Kiai limit: a boss's "no talent" still forbids the extra fight."""
    cards = Cards()
    cfg = make_config("kikuchiyo", "kyuzo", "kanbei", rules={"second-fight": "always"})
    comp = cards.comp
    no_talent, must_pass = PENALTIES.index("no_talent"), PENALTIES.index("must_pass")
    boss = cards.take(next(c for c in range(comp.n_cards())
                           if no_talent in comp.card_pen[c] and must_pass not in comp.card_pen[c]))
    pos = guarded(cfg, cards).line(0, [boss]).raider([cards(value=1, symbol="none"), cards(value=2, symbol="none")])
    run = pos.turn(0).play(turns=1, decisions=[0, ACT_FIGHT, 1])
    ok(run)
    assert len(events(run, EV_REVEAL)) == 1, story(run)
    assert events(run, EV_FIGHT_AGAIN) == []


# --------------------------------------------------------------------------- invariants
@pytest.mark.parametrize("strategy", ["random", "keeper"])
@pytest.mark.parametrize("reading", READINGS, ids=lambda r: r.name)
def test_every_reading_keeps_every_invariant(reading, strategy):
    """Random and sensible play under each non-default reading, 2 to 7 samurai, every level, the
    invariant checker at every decision (66 cards accounted for, counts in bounds)."""
    from kiai.simcore.codes import LEVELS, SAMURAI
    from kiai.simcore.results import O_ERR, O_ILLEGAL, O_OUTCOME
    from kiai.strategies.run.config import GameConfig
    from kiai.strategies.run.games import run_games

    for n in range(2, 8):
        cfg = GameConfig(SAMURAI[n - 1 :: -1] if n % 2 else SAMURAI[:n], LEVELS[n % 4], strategy,
                         rules={reading.name: reading.values[1]})
        out = run_games(cfg, 1500, seed=n, check=True)
        assert (out[:, O_ERR] == 0).all() and out[:, O_ILLEGAL].sum() == 0, (n, reading.name)
        assert ((out[:, O_OUTCOME] >= 0) & (out[:, O_OUTCOME] <= 3)).all()


# --------------------------------------------------------------------------- the options
def test_readings_are_section_14():
    assert [(r.v, r.name, r.values) for r in READINGS] == [
        ("V-1", "heal", ("any", "wounded")),
        ("V-2", "penalty", ("every-turn", "once")),
        ("V-3", "round-end", ("empty", "drawn")),
        ("V-4", "end-kiai", ("off", "on")),
        ("V-5", "second-fight", ("below-kiai", "always")),
    ]


@pytest.mark.parametrize("rules, message", [
    ({"heel": "any"}, "unknown rule 'heel'"),
    ({"heal": "some"}, "rule heal must be any or wounded, got 'some'"),
])
def test_bad_readings_are_one_line_errors(rules, message):
    with pytest.raises(ConfigError, match=message):
        make_config("kyuzo", "kanbei", rules=rules)


def test_a_config_holds_every_reading_and_says_which_changed():
    cfg = make_config("kyuzo", "kanbei", rules={"heal": "wounded"})
    assert cfg.rules == {**check_rules({}), "heal": "wounded"}
    assert cfg.describe()["rules"]["heal"] == "wounded"
    assert label(cfg.rules) == "heal=wounded" and label(check_rules({})) == "default"
    assert parse_rule_items(["heal=any,wounded"]) == {"heal": ["any", "wounded"]}


def test_docs_rules_state_every_reading():
    """docs/rules.md section 14 keeps in step with simcore.readings (R-0)."""
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / "rules.md").read_text()
    section = text[text.index("## 14."):]
    for r in READINGS:
        assert f"**{r.v}.** `{r.name}`, departing from {r.departs}" in section
        assert all(f"`{v}`" in section for v in r.values), r.name
