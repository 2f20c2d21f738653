"""Wounds, farmsteads, families, the end of the game and the score.

docs/rules.md sections 6, 8, 9 (score) and decisions R-12, R-13, R-14, R-15.
"""

import pytest
from conftest import Cards, events, guarded, make_config, ok
from scenario import Position, seat_view, village_view

from kiai.simcore.codes import (
    FAM_HEAL_RANDOM,
    FB_LOSE_BARRICADE,
    FB_LOSE_FAMILY,
    FB_LOSE_FARMSTEAD,
    FB_RANDOM_WOUND,
    OUT_DEATH,
    OUT_FAMILIES,
    OUT_FARMSTEADS,
    OUT_WIN,
)
from kiai.simcore.events import (
    EV_BARR_LOST,
    EV_BONUS,
    EV_FAMILY_LOST,
    EV_FARM_LOST,
    EV_FIGHT,
    EV_FLAME,
    EV_GAME_END,
    EV_KIAI,
    EV_PASS,
    EV_WOUND,
)
from kiai.simcore.questions import ACT_FIGHT, ACT_PASS, KIAI_PLAIN
from kiai.strategies.run.games import grade

pytestmark = pytest.mark.usefixtures("engine", "one_thread")

PASS = ACT_PASS
FIGHT = ACT_FIGHT




# --------------------------------------------------------------------------- section 6 wounds
@pytest.mark.parametrize("start", [0, 1, 2, 3])
def test_wound_steps_human_token_animal_token_death(start):
    """Section 6: human -> human+token -> animal -> animal+token -> death (R-15: game lost
    at once)."""
    cards = Cards()
    cfg = make_config("kyuzo", "katsushiro", "kanbei")
    wound_card = cards(value=4, symbol="none", penalties=["wound"])
    pos = (
        guarded(cfg, cards)
        .line(0, [wound_card])
        .raider([cards(value=1, symbol="none"), cards(value=2, symbol="none")])
    )
    run = pos.turn(0).wound(0, start).play(turns=1, decisions=[PASS])
    ok(run)
    assert events(run, EV_WOUND) == [(0, start + 1, 0, 0, 0, 0)]
    v = seat_view(run, 0)
    assert v["wound"] == start + 1
    if start + 1 < 4:
        assert v["kiai"] == (12 if start + 1 >= 2 else 9)
        assert not village_view(run)["game_over"]
        assert v["passed"]
    else:  # the fourth wound kills him: the game is lost at once
        assert village_view(run)["game_over"]
        assert run.result("outcome") == OUT_DEATH
        assert events(run, EV_PASS) == []
        assert events(run, EV_GAME_END)[0][0] == OUT_DEATH


def test_turning_animal_keeps_cards_and_sets_animal_kiai():
    """Section 6: turning animal keeps both sides of cards and sets the animal Kiai."""
    cards = Cards()
    cfg = make_config("kyuzo", "katsushiro", "kanbei")
    line = [cards(value=4, symbol="hat", penalties=[]), cards(value=2, symbol="none")]
    wound_card = cards(value=1, symbol="doll", penalties=["wound"])
    defence = [cards(value=2, symbol="farm")]
    pos = Position(cfg).line(0, line + [wound_card]).defence(0, defence).wound(0, 1)
    pos.raider([cards(value=1, symbol="none"), cards(value=2, symbol="doll")]).turn(0)
    run = pos.play(turns=1, decisions=[PASS])
    ok(run)
    v = seat_view(run, 0)
    assert (v["wound"], v["kiai"], v["total"]) == (2, 12, 7)
    assert v["line"] == line + [wound_card]
    assert v["defence"] == [-1, defence[0], -1]
    assert events(run, EV_KIAI) == []


def test_turning_animal_on_the_animal_kiai_triggers_it():
    """Section 6 / section 5: turning animal with a total equal to the animal Kiai triggers
    it."""
    cards = Cards()
    cfg = make_config("kyuzo", "katsushiro", "kanbei")
    line = [
        cards(value=4, symbol="hat", penalties=[]),
        cards(value=4, symbol="none"),
        cards(value=3, symbol="none"),
    ]
    wound_card = cards(value=1, symbol="doll", penalties=["wound"])
    pos = Position(cfg).line(0, line + [wound_card]).wound(0, 1)
    pos.raider([cards(value=1, symbol="none"), cards(value=2, symbol="doll")]).turn(0)
    run = pos.play(turns=1, decisions=[KIAI_PLAIN, PASS])
    ok(run)
    assert events(run, EV_KIAI) == [(0, KIAI_PLAIN, 0, 0, 0, 0)]
    assert seat_view(run, 0)["line"] == line[1:] + [wound_card]
    assert seat_view(run, 0)["total"] == 8


# --------------------------------------------------------------------------- R-12 farmsteads
def _farm_position(difficulty, backs, barricades=0, farmsteads=6, families=3, cards=None):
    """Kanbei (seat 0) suffers a 'barricade' penalty of an even card (he cannot ignore it) with
    `barricades` left; seat 1 has passed (D may still pick him)."""
    cards = cards or Cards()
    cfg = make_config("kanbei", "kyuzo", "katsushiro", difficulty=difficulty)
    pen = cards(value=2, symbol="none", penalties=["barricade"])
    pos = (
        guarded(cfg, cards)
        .line(0, [pen])
        .raider([cards(value=1, symbol="none"), cards(value=2, symbol="doll")])
    )
    pos.turn(0).passed(1).village(barricades=barricades, farmsteads=farmsteads, families=families)
    return pos.farm_backs(backs)


@pytest.mark.parametrize("difficulty", ["easy", "normal"])
def test_r12_no_farmstead_penalty_below_hard(difficulty):
    pos = _farm_position(difficulty, [FB_LOSE_FARMSTEAD] * 6)
    run = pos.play(turns=1, decisions=[PASS], randoms=[0])
    ok(run)
    assert village_view(run)["farmsteads"] == 5
    assert events(run, EV_FARM_LOST) == [(-1, 5, 0, 0, 0, 0)]


def test_r12_a_loses_a_random_family():
    pos = _farm_position("hard", [FB_LOSE_FAMILY] * 6)
    run = pos.play(turns=1, decisions=[PASS], randoms=[0, 1])
    ok(run)
    assert village_view(run)["farmsteads"] == 5
    assert village_view(run)["families"] == 2
    assert events(run, EV_FAMILY_LOST) == [(1, 2, 0, 0, 0, 0)]
    assert run.pub.family_mask == 0b101


def test_r12_b_chain_of_farmsteads():
    backs = [
        FB_LOSE_FARMSTEAD,
        FB_LOSE_FARMSTEAD,
        FB_LOSE_FAMILY,
        FB_LOSE_FAMILY,
        FB_LOSE_FAMILY,
        FB_LOSE_FAMILY,
    ]
    pos = _farm_position("hard", backs)
    # picks: token 0 (B), then index 1 = token 1 (B), then index 2 = token 2 (A), family 0
    run = pos.play(turns=1, decisions=[PASS], randoms=[0, 1, 2, 0])
    ok(run)
    assert [e[0] for e in events(run, EV_FARM_LOST)] == [
        FB_LOSE_FARMSTEAD,
        FB_LOSE_FARMSTEAD,
        FB_LOSE_FAMILY,
    ]
    assert village_view(run)["farmsteads"] == 3
    assert village_view(run)["families"] == 2


def test_r12_c_without_barricade_destroys_another_farmstead():
    backs = [
        FB_LOSE_BARRICADE,
        FB_LOSE_FAMILY,
        FB_LOSE_FAMILY,
        FB_LOSE_FAMILY,
        FB_LOSE_FAMILY,
        FB_RANDOM_WOUND,
    ]
    pos = _farm_position("hard", backs)
    # token 0 (C, no barricade) -> another farmstead: index 0 is now token 5 (D) -> seat 2 wounded
    run = pos.play(turns=1, decisions=[PASS], randoms=[0, 0, 2])
    ok(run)
    assert [e[0] for e in events(run, EV_FARM_LOST)] == [FB_LOSE_BARRICADE, FB_RANDOM_WOUND]
    assert village_view(run)["farmsteads"] == 4
    assert seat_view(run, 2)["wound"] == 1


def test_r12_c_with_a_barricade_destroys_it():
    """End-of-round step 2 (no farm) destroys a farmstead whose back C takes a barricade."""
    cards = Cards()
    cfg = make_config("kanbei", "kyuzo", "katsushiro", difficulty="hard")
    pos = guarded(cfg, cards, seats=(1, 2)).defence(
        0, [cards(value=1, symbol="hat"), cards(value=1, symbol="doll")]
    )
    pos.raider([cards(value=1, symbol="none")]).passed(0, 1, 2).turn(0).village(barricades=2)
    pos.farm_backs([FB_LOSE_BARRICADE] * 6)
    run = pos.play(round_end=True, randoms=[3, 0])
    ok(run)
    assert events(run, EV_FARM_LOST) == [(FB_LOSE_BARRICADE, 5, 0, 0, 0, 0)]
    codes = [int(r[0]) for r in run.events]
    i = codes.index(EV_FARM_LOST)
    assert codes[i + 1] == EV_BARR_LOST
    assert events(run, EV_BARR_LOST)[0][0] == 1


def test_r12_d_wounds_any_samurai_even_a_passed_one():
    pos = _farm_position("hard", [FB_RANDOM_WOUND] * 6)
    run = pos.play(turns=1, decisions=[PASS], randoms=[0, 1])
    ok(run)
    assert seat_view(run, 1)["passed"] and seat_view(run, 1)["wound"] == 1
    assert seat_view(run, 0)["wound"] == 0


def test_r12_farmstead_penalties_apply_at_heroic():
    pos = _farm_position("heroic", [FB_LOSE_FAMILY] * 6)
    run = pos.play(turns=1, decisions=[PASS], randoms=[0, 2])
    ok(run)
    assert village_view(run)["families"] == 2 and run.pub.family_mask == 0b011


def test_r12_destroyed_farmstead_is_drawn_at_random():
    """Without forcing, the back of the destroyed farmstead varies with the seed."""
    backs = [
        FB_LOSE_FAMILY,
        FB_LOSE_FARMSTEAD,
        FB_LOSE_BARRICADE,
        FB_LOSE_BARRICADE,
        FB_RANDOM_WOUND,
        FB_RANDOM_WOUND,
    ]
    seen = set()
    for seed in range(40):
        run = _farm_position("hard", backs, barricades=0).play(turns=1, decisions=[PASS], seed=seed)
        ok(run)
        seen.add(events(run, EV_FARM_LOST)[0][0])
    assert seen == {FB_LOSE_FAMILY, FB_LOSE_FARMSTEAD, FB_LOSE_BARRICADE, FB_RANDOM_WOUND}


# --------------------------------------------------------------------------- families
def _round_end_position(cards, *, no_doll=(), wounds=(), difficulty="normal", families=3):
    cfg = make_config("kyuzo", "katsushiro", "kanbei", difficulty=difficulty)
    pos = Position(cfg)
    for s in range(3):
        if s in no_doll:
            pos.defence(s, [cards(value=1, symbol="hat"), cards(value=1, symbol="farm")])
        else:
            pos.defence(s, cards.guard())
    for s, w in wounds:
        pos.wound(s, w)
    return (
        pos.raider([cards(value=1, symbol="none")])
        .passed(0, 1, 2)
        .turn(0)
        .village(families=families)
    )


def test_r13_lost_families_drawn_among_those_left():
    cards = Cards()
    pos = _round_end_position(cards, no_doll=(0, 1))
    run = pos.play(round_end=True, randoms=[1, 1, 0])
    ok(run)
    # mask 111: index 1 -> family 1 (B); mask 101: index 1 -> family 2 (C)
    assert events(run, EV_FAMILY_LOST) == [(1, 2, 0, 0, 0, 0), (2, 1, 0, 0, 0, 0)]
    assert run.pub.family_mask == 0b001
    assert [e[:2] for e in events(run, EV_BONUS)] == [(0, FAM_HEAL_RANDOM)]


@pytest.mark.parametrize(
    "pick, wounds, after",
    [(2, ((2, 1),), [0, 0, 0]), (1, ((2, 1),), [0, 0, 1]), (0, ((0, 3),), [2, 0, 0])],
)
def test_r14_bonus_a_heals_a_random_samurai_if_he_has_a_token(pick, wounds, after):
    cards = Cards()
    pos = _round_end_position(cards, wounds=wounds)
    run = pos.play(round_end=True, randoms=[pick])
    ok(run)
    assert events(run, EV_BONUS)[0][:3] == (0, FAM_HEAL_RANDOM, pick)
    assert [seat_view(run, s)["wound"] for s in range(3)] == after


def test_r14_bonus_a_target_is_random_over_all_samurai():
    seen = set()
    for seed in range(30):
        run = _round_end_position(Cards()).play(round_end=True, seed=seed)
        ok(run)
        seen.add(events(run, EV_BONUS)[0][2])
    assert seen == {0, 1, 2}


# --------------------------------------------------------------------------- R-15 game over
def test_r15_last_farmstead_ends_the_game_at_once():
    cards = Cards()
    cfg = make_config("kyuzo", "katsushiro", "kanbei")
    pen = cards(value=1, symbol="none", penalties=["barricade"])
    pos = (
        guarded(cfg, cards)
        .line(0, [pen])
        .raider([cards(value=1, symbol="hat"), cards(value=2, symbol="doll")])
    )
    run = pos.turn(0).village(barricades=0, farmsteads=1).play(turns=3, randoms=[0])
    assert village_view(run)["game_over"]
    assert run.result("outcome") == OUT_FARMSTEADS
    assert run.result("farmsteads") == 0 and run.result("end_round") == 1
    assert events(run, EV_FIGHT) == [] and events(run, EV_PASS) == []
    assert run.result("score") == -1


def test_r15_first_cause_families_before_farmsteads():
    """At Hard a farmstead's back A takes the last family: the loss is 'families' even though
    farmsteads remain; a back on the last farmstead is never read ('farmsteads')."""
    pos = _farm_position("hard", [FB_LOSE_FAMILY] * 6, farmsteads=3, families=1)
    run = pos.play(turns=1, decisions=[PASS], randoms=[0, 0])
    assert run.result("outcome") == OUT_FAMILIES
    assert (run.result("farmsteads"), run.result("families")) == (2, 0)
    pos = _farm_position("hard", [FB_LOSE_FAMILY] * 6, farmsteads=1, families=1)
    run = pos.play(turns=1, decisions=[PASS], randoms=[0, 0])
    assert run.result("outcome") == OUT_FARMSTEADS
    assert (run.result("farmsteads"), run.result("families")) == (0, 1)
    assert events(run, EV_FAMILY_LOST) == []


def test_r15_death_in_step_one_ends_game_before_later_steps():
    """A samurai dies in end-of-round step 1: the outcome is death and the figures are those
    of that moment: step 2 (the last farmstead) and step 4 (flames) never happen."""
    cards = Cards()
    cfg = make_config("kyuzo", "katsushiro", "kanbei")
    pos = (
        Position(cfg)
        .defence(0, [cards(value=1, symbol="farm"), cards(value=1, symbol="doll")])
        .wound(0, 3)
    )
    pos.defence(1, [cards(value=1, symbol="hat"), cards(value=2, symbol="doll")])  # no farm
    pos.defence(2, cards.guard())
    flame = cards(value=2, symbol="hat", flames=True)
    pos.intruder([flame]).raider([cards(value=1, symbol="none")]).passed(0, 1, 2).turn(0)
    run = pos.village(barricades=3, farmsteads=1).play()
    assert run.result("outcome") == OUT_DEATH
    assert run.result("farmsteads") == 1
    assert run.result("barricades") == 3
    assert run.result("end_round") == 1
    assert run.result("wound_steps") == 4
    assert events(run, EV_FARM_LOST) == [] and events(run, EV_FLAME) == []


# --------------------------------------------------------------------------- score
@pytest.mark.parametrize(
    "difficulty, farms, fams, wounds, score, text",
    [
        ("normal", 6, 3, (0, 0, 0), 10, "10+"),
        ("normal", 4, 2, (0, 2, 0), 7, "7+"),  # animal without token: still the bonus point
        ("hard", 6, 3, (0, 1, 0), 9, "9++"),  # a wound token: no bonus point
        ("heroic", 3, 1, (3, 0, 0), 4, "4+++"),
        ("easy", 2, 2, (0, 0, 0), 5, "5"),
    ],
)
def test_score_and_grade_of_a_win(difficulty, farms, fams, wounds, score, text):
    """Scoring: farmsteads + families + 1 if no wound token; '+' per level (section 9)."""
    cards = Cards()
    cfg = make_config("kyuzo", "katsushiro", "kanbei", difficulty=difficulty)
    pos = (
        guarded(cfg, cards)
        .raider([cards(value=1, symbol="none")])
        .passed(0, 1, 2)
        .turn(0, round_=3)
    )
    for s, w in enumerate(wounds):
        pos.wound(s, w)
    pos.village(farmsteads=farms, families=fams)
    # bonus A (if any) draws seat 0, who never holds a token where bonuses are given
    run = pos.play(randoms=[0])
    ok(run)
    assert run.result("outcome") == OUT_WIN
    assert run.result("end_round") == 3
    assert run.result("score") == score
    assert grade(run.result("score"), cfg.level_pluses) == text
