"""Kiai: triggers, activation, the seven effects on both sides, and their limits.

docs/rules.md section 5 and decisions R-10, R-10e, R-10f, R-11; docs/rules.md R-10a to R-10d.
"""

import pytest
from conftest import Cards, events, guarded, make_config, ok, story
from scenario import (
    Position,
    intruder_top_first,
    raider_top_first,
    seat_view,
    village_view,
)

from kiai.simcore.codes import FB_RANDOM_WOUND
from kiai.simcore.events import (
    EV_BARR_ADDED,
    EV_BARR_LOST,
    EV_DAISUKE,
    EV_HEAL,
    EV_INTRUDER_TO_DISCARD,
    EV_KATSU,
    EV_KIAI,
    EV_KIAI_SHED,
    EV_KIKU,
    EV_KYUZO_TOKEN,
    EV_OVERCOME,
    EV_PASS,
    EV_PEN_DRAW,
    EV_PEN_UNABLE,
    EV_ROUND_END,
    EV_TOKEN_RETURN,
    EV_TOP_TO_DISCARD,
    EV_TRIGGER_SKIPPED,
    EV_WOUND,
)
from kiai.simcore.invariants import ERR_FORCED
from kiai.simcore.questions import (
    ACT_FIGHT,
    ACT_PASS,
    CARD_CONFRONT,
    CARD_DEFEND,
    CARD_GIVE_LEFT,
    KIAI_DECLINE,
    KIAI_EFFECT,
    KIAI_PLAIN,
)

pytestmark = pytest.mark.usefixtures("engine", "one_thread")

FIGHT = ACT_FIGHT
PASS = ACT_PASS
EFFECT = KIAI_EFFECT
PLAIN = KIAI_PLAIN



def free(cards, value, symbol=None):
    """A penalty-free card (safe as the last card of the acting samurai's line)."""
    return cards(value=value, symbol=symbol, penalties=[])


# --------------------------------------------------------------------------- R-10 activation
def test_r10_activation_is_optional():
    cards = Cards()
    cfg = make_config("kyuzo", "katsushiro", "kanbei")
    line = [free(cards, 3, "doll"), free(cards, 2, "hat")]
    four = cards(value=4, symbol="none")
    pos = guarded(cfg, cards).line(0, line).raider([four, cards(value=1, symbol="none")]).turn(0)
    declined = pos.play(turns=1, decisions=[FIGHT, KIAI_DECLINE])
    ok(declined)
    assert events(declined, EV_TRIGGER_SKIPPED) == [(0, 0, 0, 0, 0, 0)]
    assert events(declined, EV_KIAI) == []
    assert seat_view(declined, 0)["line"] == line + [four]
    assert village_view(declined)["discard"] == []
    taken = pos.play(turns=1)  # the reference always activates
    ok(taken)
    assert events(taken, EV_KIAI) == [(0, PLAIN, 0, 0, 0, 0)]
    assert seat_view(taken, 0)["line"] == line[1:] + [four]
    assert seat_view(taken, 0)["total"] == 6
    assert village_view(taken)["discard"] == [line[0]]
    assert run_kiai_count(taken) == 1


def run_kiai_count(run):
    return run.result("kiai")


def test_r10a_activate_without_effect_still_sheds_first_card():
    """R-10a: activating and using the effect are two choices: Heihachi activates plainly, so no
    barricade is added, but his first card still goes."""
    cards = Cards()
    cfg = make_config("heihachi", "kyuzo", "kanbei")
    line = [free(cards, 4, "hat"), free(cards, 1, "hat")]
    three = cards(value=3, symbol="none")
    pos = (
        guarded(cfg, cards)
        .line(0, line)
        .raider([three, cards(value=1, symbol="none")])
        .turn(0)
        .village(barricades=3)
    )
    plain = pos.play(turns=1, decisions=[FIGHT, PLAIN])
    ok(plain)
    assert village_view(plain)["barricades"] == 3
    assert seat_view(plain, 0)["line"] == [line[1], three]
    effect = pos.play(turns=1, decisions=[FIGHT, EFFECT])
    ok(effect)
    assert village_view(effect)["barricades"] == 4
    assert seat_view(effect, 0)["line"] == [line[1], three]


def test_r10_triggers_outside_turn_after_a_give():
    cards = Cards()
    cfg = make_config("heihachi", "katsushiro", "kanbei")
    line1 = [free(cards, 3, "doll"), free(cards, 3, "hat")]
    four = cards(value=4, symbol="none")
    pos = guarded(cfg, cards).line(1, line1).raider([four, cards(value=1, symbol="none")]).turn(0)
    # Katsushiro may redraw the given card: his card question is asked (confront)
    run = pos.play(turns=1, decisions=[FIGHT, CARD_GIVE_LEFT, CARD_CONFRONT])
    ok(run)
    assert events(run, EV_KIAI) == [(1, PLAIN, 0, 0, 0, 0)]
    assert seat_view(run, 1)["line"] == [line1[1], four]


def test_r10_triggers_outside_turn_after_a_penalty_draw():
    cards = Cards()
    cfg = make_config("kyuzo", "katsushiro", "kanbei")
    pen = cards(value=3, symbol="doll", penalties=["left_draws"])
    line1 = [free(cards, 4, "hat"), free(cards, 3, "hat")]
    drawn = cards(value=3, symbol="none")
    pos = (
        guarded(cfg, cards)
        .line(0, [pen])
        .line(1, line1)
        .raider([drawn, cards(value=1, symbol="none")])
        .turn(0)
    )
    run = pos.play(turns=1, decisions=[PLAIN, PASS])
    ok(run)
    assert [e[:2] for e in events(run, EV_PEN_DRAW)] == [(1, drawn)]
    assert events(run, EV_KIAI) == [(1, PLAIN, 0, 0, 0, 0)]
    assert seat_view(run, 1)["line"] == [line1[1], drawn]
    assert events(run, EV_PASS) == [(0, 0, 0, 0, 0, 0)]


def test_r10_triggers_when_another_kiai_takes_a_card_from_his_line():
    """Kikuchiyo's Kiai discards the last card of Kanbei's line (above his Kiai): Kanbei's total
    lands exactly on his Kiai, which triggers."""
    cards = Cards()
    cfg = make_config("kikuchiyo", "kanbei", "kyuzo")
    line0 = [free(cards, 4, "doll"), free(cards, 2, "doll")]
    four = cards(value=4, symbol="none")
    line1 = [
        cards(value=4, symbol="farm"),
        cards(value=4, symbol="doll"),
        cards(value=1, symbol="farm"),
        cards(value=1, symbol="none"),
    ]
    pos = (
        guarded(cfg, cards)
        .line(0, line0)
        .line(1, line1)
        .raider([four, cards(value=2, symbol="none")])
        .turn(0)
    )
    run = pos.play(turns=1, decisions=[FIGHT, EFFECT, 1 + 1, PLAIN, 0])
    ok(run)
    assert events(run, EV_KIKU) == [(1, line1[-1], 0, 0, 0, 0)]
    assert [e[0] for e in events(run, EV_KIAI)] == [0, 1]
    assert seat_view(run, 1)["line"] == line1[1:3]
    assert seat_view(run, 1)["total"] == 5


def test_r10_simultaneous_triggers_resolve_in_seat_order_from_the_acting_samurai():
    """Daisuke (seat 1, acting) takes Kyuzo's last card (Kyuzo 10 -> 9, his Kiai) and gives it
    to Katsushiro (9 -> 10, his Kiai): after Daisuke, seat 2 resolves before seat 0."""
    cards = Cards()
    cfg = make_config("kyuzo", "daisuke", "katsushiro")
    kyuzo_line = [
        free(cards, 4, "hat"),
        free(cards, 4, "doll"),
        free(cards, 1, "doll"),
        free(cards, 1, "hat"),
    ]
    dai_line = [cards(value=3, symbol="none"), free(cards, 2, "hat")]
    katsu_line = [
        free(cards, 3, "doll"),
        free(cards, 3, "hat"),
        free(cards, 2, "doll"),
        cards(value=1, symbol="none"),
    ]
    three = cards(value=3, symbol="doll", penalties=["no_defend"])
    pos = guarded(cfg, cards).line(0, kyuzo_line).line(1, dai_line).line(2, katsu_line)
    pos.raider([three, cards(value=2, symbol="none")]).turn(1)
    run = pos.play(turns=1, decisions=[FIGHT, CARD_CONFRONT, EFFECT, 0 * 8 + 2])
    ok(run)
    assert events(run, EV_DAISUKE) == [(0, 2, kyuzo_line[-1], 0, 0, 0)]
    assert [e[0] for e in events(run, EV_KIAI)] == [1, 2, 0]
    assert seat_view(run, 0)["line"] == kyuzo_line[1:3]
    assert seat_view(run, 2)["line"] == katsu_line[1:] + [kyuzo_line[-1]]


def test_r10_passed_samurai_never_triggers():
    """At Hard, a farmstead's back wounds a passed Kyuzo, who turns animal with a total equal to
    his animal Kiai: no Kiai, because he has passed. The same Kyuzo still in the round does
    trigger."""

    def build(passed):
        cards = Cards()
        cfg = make_config("kanbei", "katsushiro", "kyuzo", difficulty="hard")
        pen = cards(value=2, symbol="none", penalties=["barricade"])
        twelve = [
            cards(value=4, symbol="none"),
            cards(value=4, symbol="hat"),
            cards(value=4, symbol="farm"),
        ]
        pos = Position(cfg).line(0, [pen]).line(2, twelve).wound(2, 1)
        pos.raider([cards(value=1, symbol="none"), cards(value=2, symbol="doll")]).turn(0)
        pos.village(barricades=0, farmsteads=6).farm_backs([FB_RANDOM_WOUND] * 6)
        if passed:
            pos.passed(2)
        return pos, twelve

    pos, twelve = build(passed=True)
    run = pos.play(turns=1, decisions=[PASS], randoms=[0, 2])
    ok(run)
    assert seat_view(run, 2)["wound"] == 2 and seat_view(run, 2)["kiai"] == 12
    assert events(run, EV_KIAI) == [] and events(run, EV_TRIGGER_SKIPPED) == []
    assert seat_view(run, 2)["line"] == twelve
    pos, twelve = build(passed=False)
    run = pos.play(turns=1, decisions=[PLAIN, PASS], randoms=[0, 2])
    ok(run)
    assert events(run, EV_KIAI) == [(2, PLAIN, 0, 0, 0, 0)]
    assert seat_view(run, 2)["line"] == twelve[1:]


def test_r10_nothing_triggers_during_end_of_round():
    """End-of-round step 1 turns Kyuzo animal (no hat) with a total equal to his animal Kiai:
    no Kiai during the end-of-round steps."""
    cards = Cards()
    cfg = make_config("kyuzo", "katsushiro", "kanbei")
    twelve = [
        cards(value=4, symbol="none"),
        cards(value=4, symbol="hat"),
        cards(value=4, symbol="farm"),
    ]
    pos = Position(cfg).line(0, twelve).wound(0, 1)
    pos.defence(0, [cards(value=1, symbol="farm"), cards(value=1, symbol="doll")])
    for s in (1, 2):
        pos.defence(s, cards.guard())
    pos.raider([cards(value=1, symbol="none")]).passed(0, 1, 2).turn(0)
    run = pos.play(round_end=True)
    ok(run)
    assert events(run, EV_WOUND) == [(0, 2, 0, 0, 0, 0)]
    assert seat_view(run, 0)["kiai"] == 12 == seat_view(run, 0)["total"]
    assert events(run, EV_KIAI) == [] and events(run, EV_TRIGGER_SKIPPED) == []
    assert seat_view(run, 0)["line"] == twelve


# --------------------------------------------------------------------------- Heihachi
def test_kiai_heihachi_human_adds_a_barricade():
    """Section 5, Heihachi human: add 1 barricade."""
    cards = Cards()
    cfg = make_config("heihachi", "kyuzo", "kanbei")
    line = [free(cards, 4, "hat"), free(cards, 1, "hat")]
    pos = (
        guarded(cfg, cards)
        .line(0, line)
        .raider([cards(value=3, symbol="none"), cards(value=1, symbol="none")])
        .turn(0)
    )
    run = pos.village(barricades=2).play(turns=1)
    ok(run)
    assert events(run, EV_KIAI) == [(0, EFFECT, 0, 0, 0, 0)]
    assert village_view(run)["barricades"] == 3
    assert events(run, EV_BARR_ADDED) == [(3, 0, 0, 0, 0, 0)]


def test_r11_heihachi_never_above_setup_barricades():
    cards = Cards()
    cfg = make_config("heihachi", "kyuzo", "kanbei")
    line = [free(cards, 4, "hat"), free(cards, 1, "hat")]
    pos = (
        guarded(cfg, cards)
        .line(0, line)
        .raider([cards(value=3, symbol="none"), cards(value=1, symbol="none")])
        .turn(0)
    )
    run = pos.play(turns=1)
    ok(run)
    assert events(run, EV_KIAI) == [(0, EFFECT, 0, 0, 0, 0)]
    assert village_view(run)["barricades"] == 5 == run.pub.barricades_max
    assert events(run, EV_BARR_ADDED) == []
    assert seat_view(run, 0)["wound"] == 0  # doing less is no penalty


def _heihachi_animal(wounds, barricades=3):
    cards = Cards()
    cfg = make_config("heihachi", "kyuzo", "kanbei")
    line = [free(cards, 4, "hat"), free(cards, 4, "doll")]
    pos = (
        guarded(cfg, cards)
        .line(0, line)
        .raider([cards(value=3, symbol="none"), cards(value=1, symbol="none")])
        .turn(0)
    )
    for s, w in enumerate(wounds):
        pos.wound(s, w)
    return pos.village(barricades=barricades)


def test_kiai_heihachi_animal_adds_barricade_and_heals_first_token_from_himself():
    """Section 5, Heihachi animal: a barricade and one wound token removed (the reference
    heals the first token holder in seat order from Heihachi himself)."""
    run = _heihachi_animal((2, 1, 3)).play(turns=1)
    ok(run)
    assert village_view(run)["barricades"] == 4
    assert events(run, EV_HEAL) == [(1, 0, 0, 0, 0, 0)]
    assert [seat_view(run, s)["wound"] for s in range(3)] == [2, 0, 3]
    run = _heihachi_animal((3, 1, 3)).play(turns=1)  # his own token comes first
    ok(run)
    assert [seat_view(run, s)["wound"] for s in range(3)] == [2, 1, 3]


def test_kiai_heihachi_animal_heal_target_is_chosen():
    """Section 5, Heihachi animal: the healed samurai is chosen (forced); an animal stays
    animal."""
    run = _heihachi_animal((2, 1, 3)).play(turns=1, decisions=[FIGHT, EFFECT, 1 + 2])
    ok(run)
    assert [seat_view(run, s)["wound"] for s in range(3)] == [2, 1, 2]  # animal stays animal
    assert seat_view(run, 2)["kiai"] == 12


def test_r11_heihachi_animal_heal_without_any_token_does_nothing():
    run = _heihachi_animal((2, 0, 2)).play(turns=1)
    ok(run)
    assert events(run, EV_HEAL) == []
    assert [seat_view(run, s)["wound"] for s in range(3)] == [2, 0, 2]
    assert village_view(run)["barricades"] == 4


# --------------------------------------------------------------------------- Daisuke
def _daisuke(animal=False):
    cards = Cards()
    cfg = make_config("daisuke", "kyuzo", "kanbei")
    line = (
        [free(cards, 4, "hat"), free(cards, 4, "doll")]
        if animal
        else [free(cards, 4, "hat"), free(cards, 1, "hat")]
    )
    three = cards(value=3, symbol="none")
    line1 = [cards(value=2, symbol="none"), cards(value=1, symbol="none")]
    line2 = [cards(value=2, symbol="doll")]
    pos = (
        Position(cfg)
        .line(0, line)
        .line(1, line1)
        .line(2, line2)
        .raider([three, cards(value=2, symbol="farm")])
        .turn(0)
    )
    pos.defence(0, cards.guard()).defence(1, cards.guard())
    pos.defence(2, [cards(value=4, symbol="farm"), cards(value=3, symbol="doll")])  # no hat yet
    if animal:
        pos.wound(0, 2)
    return pos, line, three, line1, line2


def test_kiai_daisuke_takes_last_card_and_gives_it():
    """Section 5, Daisuke human: the last card of a line goes to another samurai, who places
    it."""
    pos, line, three, line1, line2 = _daisuke()
    run = pos.play(turns=1, decisions=[FIGHT, CARD_CONFRONT, EFFECT, 1 * 8 + 2])
    ok(run)
    assert events(run, EV_DAISUKE) == [(1, 2, line1[-1], 0, 0, 0)]
    assert seat_view(run, 1)["line"] == line1[:1]
    assert seat_view(run, 2)["line"] == line2 + [line1[-1]]  # no symbol: confronted
    assert seat_view(run, 0)["line"] == [line[1], three]


def test_kiai_daisuke_give_to_himself_and_receiver_may_defend():
    """Section 5, Daisuke human: himself allowed as receiver; the receiver places the card
    left or right under the usual rules (R-10b)."""
    pos, line, three, _line1, line2 = _daisuke()
    # take Kanbei's last card (a 2 doll) and give it to Daisuke himself (he is overcome by it)
    run = pos.play(turns=1, decisions=[FIGHT, CARD_CONFRONT, EFFECT, 2 * 8 + 0])
    ok(run)
    assert seat_view(run, 0)["line"] == [line[1], three, line2[0]]
    assert events(run, EV_OVERCOME) == [(0, 10, 8, 0, 0, 0)]
    assert seat_view(run, 2)["line"] == []
    # the receiver may defend it if he can: a hat for Kanbei (who lacks one), defended
    pos2, line, three, _line1, line2 = _daisuke()
    pos2.line(1, [8])  # card 8, a 1 hat, now ends Kyuzo's line (not used by _daisuke)
    run = pos2.play(turns=1, decisions=[FIGHT, CARD_CONFRONT, EFFECT, 1 * 8 + 2, CARD_DEFEND])
    ok(run)
    assert seat_view(run, 2)["defence"][0] == 8
    assert seat_view(run, 2)["line"] == line2


def test_r11_daisuke_may_not_give_to_a_passed_samurai_nor_take_from_one():
    pos, *_ = _daisuke()
    pos.passed(2)
    bad = pos.play(turns=1, decisions=[FIGHT, CARD_CONFRONT, EFFECT, 1 * 8 + 2])
    assert bad.book.err == ERR_FORCED
    assert events(bad, EV_DAISUKE) == []
    bad = pos.play(turns=1, decisions=[FIGHT, CARD_CONFRONT, EFFECT, 2 * 8 + 1])
    assert bad.book.err == ERR_FORCED
    good = pos.play(turns=1, decisions=[FIGHT, CARD_CONFRONT, EFFECT, 1 * 8 + 0])
    ok(good)
    assert len(events(good, EV_DAISUKE)) == 1


def test_kiai_daisuke_animal_twice():
    """Section 5, Daisuke animal: two full uses, targets chosen anew (R-10a)."""
    pos, line, three, line1, line2 = _daisuke(animal=True)
    run = pos.play(turns=1, decisions=[FIGHT, CARD_CONFRONT, EFFECT, 1 * 8 + 2, 1 * 8 + 0])
    ok(run)
    assert events(run, EV_DAISUKE) == [(1, 2, line1[1], 0, 0, 0), (1, 0, line1[0], 0, 0, 0)]
    assert seat_view(run, 1)["line"] == []
    assert seat_view(run, 2)["line"] == line2 + [line1[1]]
    assert seat_view(run, 0)["line"] == [line[1], three, line1[0]]


# --------------------------------------------------------------------------- Gorobei / Kanbei
def _reach(name, animal, raider_after, cards, intruder=()):
    """`name` at seat 0 reaches his Kiai by confronting the top raider card (a 4)."""
    cfg = make_config(name, "kyuzo", "katsushiro")
    line = (
        [free(cards, 4, "hat"), free(cards, 4, "doll")]
        if animal
        else [free(cards, 4, "hat"), free(cards, 1, "hat")]
    )
    four = cards(value=4, symbol="none")
    pos = (
        guarded(cfg, cards)
        .line(0, line)
        .raider([four] + list(raider_after))
        .intruder(list(intruder))
        .turn(0)
    )
    if animal:
        pos.wound(0, 2)
    return pos, line, four


@pytest.mark.parametrize("animal, k", [(False, 2), (True, 3)])
def test_kiai_gorobei_top_raider_cards_to_discard(animal, k):
    """Section 5, Gorobei: top 2 (animal 3) raider cards to the discard pile."""
    cards = Cards()
    after = [
        cards(value=1, symbol="none"),
        cards(value=2, symbol="none"),
        cards(value=3, symbol="none"),
        cards(value=2, symbol="doll"),
    ]
    pos, line, _four = _reach("gorobei", animal, after, cards)
    run = pos.play(turns=1)
    ok(run)
    assert [e[0] for e in events(run, EV_TOP_TO_DISCARD)] == after[:k]
    assert village_view(run)["discard"] == after[:k] + [line[0]]
    assert raider_top_first(run) == after[k:]


def test_r11_gorobei_with_one_card_left_discards_it_and_the_round_ends():
    cards = Cards()
    only = cards(value=1, symbol="none")
    pos, _line, _four = _reach("gorobei", False, [only], cards)
    run = pos.play(round_end=True)
    ok(run)
    assert [e[0] for e in events(run, EV_TOP_TO_DISCARD)] == [only]
    assert events(run, EV_ROUND_END)[0][:2] == (0, 0)
    assert events(run, EV_PEN_UNABLE) == [] and seat_view(run, 0)["wound"] == 0


@pytest.mark.parametrize("animal, k", [(False, 2), (True, 3)])
def test_kiai_kanbei_top_intruder_cards_to_discard(animal, k):
    """Section 5, Kanbei: top 2 (animal 3) intruder cards to the discard pile."""
    cards = Cards()
    intr = [
        cards(value=1, symbol="none"),
        cards(value=2, symbol="none"),
        cards(value=3, symbol="none"),
        cards(value=2, symbol="doll"),
    ]
    pos, line, _four = _reach(
        "kanbei", animal, [cards(value=1, symbol="hat")], cards, intruder=intr
    )
    run = pos.play(turns=1)
    ok(run)
    assert [e[0] for e in events(run, EV_INTRUDER_TO_DISCARD)] == intr[:k]
    assert village_view(run)["discard"] == intr[:k] + [line[0]]
    assert intruder_top_first(run) == intr[k:]


def test_kiai_kanbei_discarded_intruder_flames_are_never_read():
    """Section 5 / section 9: intruder cards Kanbei discards are never revealed, so their
    flames cost nothing."""
    cards = Cards()
    intr = [cards(value=3, symbol="farm", flames=True), cards(value=4, symbol="farm", flames=True)]
    pos, _line, _four = _reach(
        "kanbei", False, [cards(value=1, symbol="none")], cards, intruder=intr
    )
    run = pos.play(turns=1)
    ok(run)
    assert [e[0] for e in events(run, EV_INTRUDER_TO_DISCARD)] == intr
    assert village_view(run)["barricades"] == 5 and events(run, EV_BARR_LOST) == []


def test_r11_kanbei_with_empty_intruder_stack_does_nothing():
    cards = Cards()
    pos, line, _four = _reach("kanbei", False, [cards(value=1, symbol="hat")], cards)
    run = pos.play(turns=1)
    ok(run)
    assert events(run, EV_KIAI) == [(0, EFFECT, 0, 0, 0, 0)]
    assert events(run, EV_INTRUDER_TO_DISCARD) == []
    assert village_view(run)["discard"] == [line[0]]
    assert seat_view(run, 0)["wound"] == 0


# --------------------------------------------------------------------------- Kikuchiyo
def test_kiai_kikuchiyo_human_discards_last_card_of_a_line():
    """Section 5, Kikuchiyo human: the last card of any combat line to the discard pile."""
    cards = Cards()
    cfg = make_config("kikuchiyo", "kyuzo", "kanbei")
    line = [free(cards, 4, "hat"), free(cards, 2, "hat")]
    four = cards(value=4, symbol="none")
    other = [cards(value=3, symbol="none"), cards(value=2, symbol="none")]
    pos = (
        guarded(cfg, cards)
        .line(0, line)
        .line(1, other)
        .raider([four, cards(value=1, symbol="none")])
        .turn(0)
    )
    run = pos.play(turns=1, decisions=[FIGHT, EFFECT, 1 + 0, 0])  # his own line, no fight again
    ok(run)
    assert events(run, EV_KIKU) == [(0, four, 0, 0, 0, 0)]
    assert seat_view(run, 0)["line"] == [line[1]]
    assert village_view(run)["discard"] == [four, line[0]]
    run = pos.play(turns=1, decisions=[FIGHT, EFFECT, 1 + 1, 0])  # Kyuzo's last card instead
    ok(run)
    assert events(run, EV_KIKU) == [(1, other[1], 0, 0, 0, 0)]
    assert seat_view(run, 1)["line"] == other[:1]
    assert seat_view(run, 0)["line"] == [line[1], four]


def test_kiai_kikuchiyo_animal_twice():
    """Section 5, Kikuchiyo animal: twice (the reference takes his own last card each time)."""
    cards = Cards()
    cfg = make_config("kikuchiyo", "kyuzo", "kanbei")
    line = [free(cards, 4, "hat"), free(cards, 4, "doll"), free(cards, 1, "hat")]
    four, nxt = cards(value=4, symbol="none"), cards(value=1, symbol="none")
    pos = (
        guarded(cfg, cards)
        .line(0, line)
        .raider([four, nxt, cards(value=2, symbol="none")])
        .turn(0)
        .wound(0, 2)
    )
    run = pos.play(turns=1)  # reference: his own last card, twice (then he fights again)
    ok(run)
    assert [e[:2] for e in events(run, EV_KIKU)] == [(0, four), (0, line[2])]
    assert seat_view(run, 0)["line"] == [line[1], nxt]


def test_r10b_kikuchiyo_may_not_discard_from_a_passed_line():
    cards = Cards()
    cfg = make_config("kikuchiyo", "kyuzo", "kanbei")
    line = [free(cards, 4, "hat"), free(cards, 2, "hat")]
    pos = guarded(cfg, cards).line(0, line).line(1, [cards(value=3, symbol="none")])
    pos.raider(
        [
            cards(value=4, symbol="none"),
            cards(value=1, symbol="none"),
            cards(value=2, symbol="none"),
        ]
    ).turn(0).passed(1)
    run = pos.play(turns=1, decisions=[FIGHT, EFFECT, 1 + 1])
    assert run.book.err == ERR_FORCED
    assert events(run, EV_KIKU) == []
    assert len(seat_view(run, 1)["line"]) == 1


# --------------------------------------------------------------------------- Kyuzo
def _kyuzo(animal=False):
    cards = Cards()
    cfg = make_config("kyuzo", "kanbei", "gorobei")
    line = (
        [free(cards, 3, "doll"), free(cards, 3, "hat"), free(cards, 2, "hat")]
        if animal
        else [free(cards, 3, "doll"), free(cards, 2, "hat")]
    )
    four = cards(value=4, symbol="none")
    pos = (
        guarded(cfg, cards)
        .line(0, line)
        .raider([four, cards(value=1, symbol="none")])
        .turn(0)
        .village(barricades=2)
    )
    if animal:
        pos.wound(0, 2)
    return pos


def test_kiai_kyuzo_human_hands_a_token_over():
    """Section 5, Kyuzo human: one samurai hands his support token to another."""
    run = _kyuzo().play(turns=1, decisions=[FIGHT, EFFECT, 1 * 8 + 2])
    ok(run)
    assert events(run, EV_KYUZO_TOKEN) == [(1, 2, 0, 0, 0, 0)]
    assert seat_view(run, 1)["holder"] == 2
    assert village_view(run)["barricades"] == 2


def test_kiai_kyuzo_animal_also_adds_a_barricade():
    """Section 5, Kyuzo animal: the hand-over and one barricade."""
    run = _kyuzo(animal=True).play(turns=1, decisions=[FIGHT, EFFECT, 2 * 8 + 1])
    ok(run)
    assert events(run, EV_KYUZO_TOKEN) == [(2, 1, 0, 0, 0, 0)]
    assert seat_view(run, 2)["holder"] == 1
    assert village_view(run)["barricades"] == 3


def test_r10b_kyuzo_handover_needs_players_in_the_round_and_the_giver_own_token():
    pos = _kyuzo().passed(2)
    assert pos.play(turns=1, decisions=[FIGHT, EFFECT, 2 * 8 + 1]).book.err == ERR_FORCED
    assert pos.play(turns=1, decisions=[FIGHT, EFFECT, 1 * 8 + 2]).book.err == ERR_FORCED
    pos = _kyuzo().token(1, 2)  # Kanbei's token is with Gorobei: Kanbei cannot hand it over
    bad = pos.play(turns=1, decisions=[FIGHT, EFFECT, 1 * 8 + 0])
    assert bad.book.err == ERR_FORCED
    good = pos.play(turns=1, decisions=[FIGHT, EFFECT, 2 * 8 + 0])
    ok(good)
    assert events(good, EV_KYUZO_TOKEN) == [(2, 0, 0, 0, 0, 0)]
    assert events(good, EV_TOKEN_RETURN) == [
        (2, 0, 0, 0, 0, 0)
    ]  # received in his own turn
    assert seat_view(good, 1)["holder"] == 2


# --------------------------------------------------------------------------- Katsushiro
@pytest.mark.parametrize(
    "animal, perm, expect",
    [(False, 1, (1, 0)), (False, 0, (0, 1)), (True, 3, (1, 2, 0)), (True, 5, (2, 1, 0))],
)
def test_kiai_katsushiro_reorders_top_cards_which_become_known(animal, perm, expect):
    """R-10c: human looks at 2, animal at 3; the chosen order is public (R-19)."""
    cards = Cards()
    cfg = make_config("katsushiro", "kyuzo", "kanbei")
    line = (
        [free(cards, 4, "hat"), free(cards, 4, "doll"), free(cards, 1, "doll")]
        if animal
        else [free(cards, 4, "hat"), free(cards, 2, "hat")]
    )
    four = cards(value=4, symbol="none")
    after = [
        cards(value=1, symbol="none"),
        cards(value=2, symbol="none"),
        cards(value=3, symbol="none"),
        cards(value=2, symbol="doll"),
    ]
    pos = guarded(cfg, cards).line(0, line).raider([four] + after).turn(0)
    if animal:
        pos.wound(0, 2)
    run = pos.play(turns=1, decisions=[FIGHT, CARD_CONFRONT, EFFECT, perm])
    ok(run)
    k = len(expect)
    new = [after[i] for i in expect]
    assert raider_top_first(run) == new + after[k:]
    assert run.pub.known_n == k
    assert [int(x) for x in run.pub.known[:k]] == new
    ev = events(run, EV_KATSU)
    assert len(ev) == 1 and ev[0][0] == k and list(ev[0][1 : 1 + k]) == new


def test_r10c_katsushiro_looks_at_fewer_when_the_stack_is_short():
    cards = Cards()
    cfg = make_config("katsushiro", "kyuzo", "kanbei")
    line = [free(cards, 4, "hat"), free(cards, 2, "hat")]
    four, only = cards(value=4, symbol="none"), cards(value=1, symbol="none")
    pos = guarded(cfg, cards).line(0, line).raider([four, only]).turn(0)
    run = pos.play(turns=1, decisions=[FIGHT, CARD_CONFRONT, EFFECT])
    ok(run)
    assert run.pub.known_n == 1 and run.pub.known[0] == only
    assert events(run, EV_KATSU)[0][:2] == (1, only)


def test_r19_known_cards_stay_known_until_drawn():
    """After Katsushiro's Kiai the top 2 are known; the next samurai draws the first of them:
    one stays known, now at the top."""
    cards = Cards()
    cfg = make_config("katsushiro", "kanbei", "kyuzo")
    line = [free(cards, 4, "hat"), free(cards, 2, "hat")]
    four = cards(value=4, symbol="none")
    a, b, c = (
        cards(value=1, symbol="none"),
        cards(value=2, symbol="none"),
        cards(value=3, symbol="none"),
    )
    pos = guarded(cfg, cards).line(0, line).raider([four, a, b, c]).turn(0)
    run = pos.play(turns=2, decisions=[FIGHT, CARD_CONFRONT, EFFECT, 1, FIGHT])
    ok(run)
    assert seat_view(run, 1)["line"] == [b]
    assert run.pub.known_n == 1 and run.pub.known[0] == a
    assert raider_top_first(run) == [a, c]


# --------------------------------------------------------------------------- R-10e, R-10f
def _kiai_story(run, seats=None):
    """The run's Kiai activations, Kiai-effect moves and first-card sheds, in order, as
    (event, seat) pairs (for Daisuke's moves: the source seat)."""
    keep = {EV_KIAI: "kiai", EV_KIAI_SHED: "shed", EV_KIKU: "kiku", EV_DAISUKE: "daisuke",
            EV_WOUND: "wound"}  # fmt: skip
    return [(keep[int(r[0])], int(r[2])) for r in run.events if int(r[0]) in keep]


def _kikuchiyo_animal_and_kanbei(cards):
    """Animal Kikuchiyo (seat 0, acting) reaches his Kiai (13) by confronting a 4; Kanbei
    (seat 1) stands at 10, one above his Kiai (9), with a 1 as his last card."""
    cfg = make_config("kikuchiyo", "kanbei", "kyuzo")
    line0 = [free(cards, 4, "hat"), free(cards, 4, "doll"), free(cards, 1, "hat")]
    four = cards(value=4, symbol="none")
    line1 = [
        cards(value=4, symbol="farm"),
        cards(value=4, symbol="doll"),
        cards(value=1, symbol="farm"),
        cards(value=1, symbol="none"),
    ]
    pos = guarded(cfg, cards).line(0, line0).line(1, line1).wound(0, 2)
    pos.raider([four, cards(value=2, symbol="none"), cards(value=3, symbol="none")]).turn(0)
    return pos, line0, four, line1


def test_r10e_a_trigger_raised_during_a_kiai_waits_until_the_activation_is_complete():
    """R-10e: animal Kikuchiyo's first discard takes Kanbei's last card (10 -> 9, his Kiai); the
    trigger waits through the second discard (Kikuchiyo's own last card) and Kikuchiyo's
    first-card removal, then fires, since Kanbei is still at 9."""
    cards = Cards()
    pos, line0, four, line1 = _kikuchiyo_animal_and_kanbei(cards)
    run = pos.play(turns=1, decisions=[FIGHT, EFFECT, 1 + 1, 1 + 0, PLAIN, 0])
    ok(run)
    assert _kiai_story(run) == [
        ("kiai", 0), ("kiku", 1), ("kiku", 0), ("shed", 0), ("kiai", 1), ("shed", 1),
    ]  # fmt: skip
    assert [e[:2] for e in events(run, EV_KIKU)] == [(1, line1[-1]), (0, four)]
    assert seat_view(run, 0)["line"] == line0[1:]
    assert seat_view(run, 1)["line"] == line1[1:3]  # his first card went after Kikuchiyo's
    assert village_view(run)["discard"] == [line1[-1], four, line0[0], line1[0]]


def test_r10e_r10d_a_waiting_trigger_lapses_when_the_total_moved_off_the_kiai():
    """R-10e, R-10d: animal Kikuchiyo discards Kanbei's last card twice: the first lands Kanbei
    on his Kiai (10 -> 9), the second takes him off it (9 -> 8) before the trigger's turn comes,
    so it lapses: no activation, and no declined one either."""
    cards = Cards()
    pos, line0, four, line1 = _kikuchiyo_animal_and_kanbei(cards)
    run = pos.play(turns=1, decisions=[FIGHT, EFFECT, 1 + 1, 1 + 1, 0])
    ok(run)
    assert [e[:2] for e in events(run, EV_KIKU)] == [(1, line1[3]), (1, line1[2])]
    assert events(run, EV_KIAI) == [(0, EFFECT, 0, 0, 0, 0)]
    assert events(run, EV_TRIGGER_SKIPPED) == []
    assert seat_view(run, 1)["line"] == line1[:2] and seat_view(run, 1)["total"] == 8
    assert seat_view(run, 0)["line"] == line0[1:] + [four]


def test_r10e_r10d_daisuke_moves_a_card_onto_a_line_and_off_again_the_trigger_lapses():
    """R-10e, R-10d: animal Daisuke (seat 0) takes Kyuzo's last card (a 1) and gives it to
    Kanbei (8 -> 9, his Kiai), then takes it from Kanbei again and gives it back to Kyuzo
    (Kanbei 9 -> 8): Kanbei's waiting trigger lapses. Used the other way round (the second
    move from Kyuzo's line instead), Kanbei is still at 9 and his Kiai fires after Daisuke's."""
    cards = Cards()
    cfg = make_config("daisuke", "kyuzo", "kanbei")
    line0 = [free(cards, 4, "hat"), free(cards, 4, "doll")]
    three = cards(value=3, symbol="none")
    one = cards(value=1, symbol="none")
    line1 = [cards(value=2, symbol="none"), cards(value=2, symbol="farm"), one]
    line2 = [cards(value=4, symbol="farm"), cards(value=4, symbol="doll")]
    pos = guarded(cfg, cards).line(0, line0).line(1, line1).line(2, line2).wound(0, 2)
    pos.raider([three, cards(value=2, symbol="hat")]).turn(0)
    back = pos.play(turns=1, decisions=[FIGHT, CARD_CONFRONT, EFFECT, 1 * 8 + 2, 2 * 8 + 1])
    ok(back)
    assert events(back, EV_DAISUKE) == [(1, 2, one, 0, 0, 0), (2, 1, one, 0, 0, 0)]
    assert events(back, EV_KIAI) == [(0, EFFECT, 0, 0, 0, 0)]
    assert events(back, EV_TRIGGER_SKIPPED) == []
    assert seat_view(back, 2)["line"] == line2 and seat_view(back, 2)["total"] == 8
    assert seat_view(back, 1)["line"] == line1
    stays = pos.play(turns=1, decisions=[FIGHT, CARD_CONFRONT, EFFECT, 1 * 8 + 2, 1 * 8 + 0,
                                         PLAIN])  # fmt: skip
    ok(stays)
    assert events(stays, EV_DAISUKE) == [(1, 2, one, 0, 0, 0), (1, 0, line1[1], 0, 0, 0)]
    assert _kiai_story(stays) == [
        ("kiai", 0), ("daisuke", 1), ("daisuke", 1), ("shed", 0), ("kiai", 2), ("shed", 2),
    ]  # fmt: skip
    assert seat_view(stays, 2)["line"] == line2[1:] + [one]


def test_r10e_a_trigger_from_a_wound_the_effect_causes_waits():
    """R-10e: at Hard, with no barricade left, Daisuke's Kiai (seat 0) gives Kyuzo's last card
    to Kanbei, who is overcome; the farmstead that falls wounds Katsushiro (seat 3), who turns
    animal on his animal Kiai (13). His trigger waits until Daisuke has shed his first card."""
    cards = Cards()
    cfg = make_config("daisuke", "kyuzo", "kanbei", "katsushiro", difficulty="hard")
    line0 = [free(cards, 4, "hat"), free(cards, 1, "hat")]
    three = cards(value=3, symbol="none")
    line1 = [cards(value=2, symbol="none"), cards(value=4, symbol="farm")]
    line2 = [cards(value=4, symbol="doll"), cards(value=4, symbol="hat")]
    line3 = [cards(value=4, symbol="farm"), cards(value=4, symbol="doll"),
             cards(value=4, symbol="hat"), cards(value=1, symbol="farm")]  # fmt: skip
    pos = guarded(cfg, cards).line(0, line0).line(1, line1).line(2, line2).line(3, line3)
    pos.wound(3, 1).village(barricades=0).farm_backs([FB_RANDOM_WOUND] * 6)
    pos.raider([three, cards(value=2, symbol="hat")]).turn(0)
    run = pos.play(turns=1, decisions=[FIGHT, CARD_CONFRONT, EFFECT, 1 * 8 + 2, PLAIN],
                   randoms=[0, 3])  # fmt: skip
    ok(run)
    assert events(run, EV_OVERCOME)[0][:2] == (2, 12)
    assert seat_view(run, 3)["wound"] == 2 and seat_view(run, 3)["kiai"] == 13
    assert _kiai_story(run) == [
        ("kiai", 0), ("daisuke", 1), ("wound", 3), ("shed", 0), ("kiai", 3), ("shed", 3),
    ]  # fmt: skip
    assert seat_view(run, 3)["line"] == line3[1:]


def test_r10e_waiting_triggers_go_in_seat_order_from_the_acting_samurai():
    """R-10e: Kyuzo (seat 0, acting) makes Daisuke (seat 1) draw (left_draws), landing him on
    his Kiai outside his turn. Daisuke's Kiai takes Katsushiro's last card (seat 2: 12 -> 10,
    his Kiai) and gives it to Kyuzo (7 -> 9, his Kiai). The two waiting triggers go in seat
    order from the acting samurai, Kyuzo first, not from Daisuke (who would put seat 2 first)."""
    cards = Cards()
    cfg = make_config("kyuzo", "daisuke", "katsushiro")
    pen = cards(value=3, symbol="doll", penalties=["left_draws"])
    line0 = [free(cards, 4, "hat"), pen]
    line1 = [cards(value=4, symbol="farm"), cards(value=2, symbol="doll")]
    drawn = cards(value=2, symbol="none")
    two = cards(value=2, symbol="farm")
    line2 = [cards(value=4, symbol="doll"), cards(value=4, symbol="hat"), cards(value=2, symbol="hat"), two]
    pos = guarded(cfg, cards).line(0, line0).line(1, line1).line(2, line2)
    pos.raider([drawn, cards(value=1, symbol="none")]).turn(0)
    run = pos.play(turns=1, decisions=[EFFECT, 2 * 8 + 0, PLAIN, PLAIN, PASS])
    ok(run)
    assert events(run, EV_DAISUKE) == [(2, 0, two, 0, 0, 0)]
    assert [e[0] for e in events(run, EV_KIAI)] == [1, 0, 2]
    assert seat_view(run, 0)["line"] == [pen, two]
    assert seat_view(run, 2)["line"] == line2[1:3]


def _daisuke_moves(src, dst):
    """Human Daisuke (seat 0) at his Kiai; Kyuzo (seat 1) and Kanbei (seat 2) hold lines."""
    pos, line, three, line1, line2 = _daisuke()
    run = pos.play(turns=1, decisions=[FIGHT, CARD_CONFRONT, EFFECT, src * 8 + dst])
    last = {0: three, 1: line1[-1], 2: line2[-1]}[src]
    return run, last


def _daisuke_at_seat_1(src, dst):
    """Human Daisuke at seat 1 (acting) reaches his Kiai; Kyuzo (seat 0) and Katsushiro
    (seat 2) hold lines well under their Kiai."""
    cards = Cards()
    cfg = make_config("kyuzo", "daisuke", "katsushiro")
    line0 = [free(cards, 4, "hat"), cards(value=1, symbol="none")]
    line1 = [cards(value=3, symbol="none"), free(cards, 2, "hat")]
    line2 = [free(cards, 3, "doll"), cards(value=2, symbol="none")]
    three = cards(value=3, symbol="doll", penalties=["no_defend"])
    pos = guarded(cfg, cards).line(0, line0).line(1, line1).line(2, line2)
    pos.raider([three, cards(value=2, symbol="farm")]).turn(1)
    run = pos.play(turns=1, decisions=[FIGHT, CARD_CONFRONT, EFFECT, src * 8 + dst])
    return run, {0: line0[-1], 1: three, 2: line2[-1]}[src]


@pytest.mark.parametrize("daisuke, seat", [(0, 1), (0, 2), (1, 1), (1, 2)])
def test_r10f_daisuke_never_gives_the_card_back_to_the_line_it_left(daisuke, seat):
    """R-10f: the card Daisuke's Kiai takes goes to a samurai other than the one whose line it
    left, whether that line is another's or Daisuke's own: "back to the same seat" is not a
    legal answer (forced, it is refused and the effect goes unused). (Seat 0 to seat 0 is the
    answer 0, which means "no use", so it is spelled by no move at all.)"""
    run, _last = (_daisuke_moves if daisuke == 0 else _daisuke_at_seat_1)(seat, seat)
    assert run.book.err == ERR_FORCED
    assert events(run, EV_DAISUKE) == []
    assert events(run, EV_KIAI)[0] == (daisuke, EFFECT, 0, 0, 0, 0)


@pytest.mark.parametrize(
    "daisuke, src, dst",
    [(0, 0, 1), (0, 0, 2), (0, 1, 0), (0, 1, 2), (0, 2, 0), (0, 2, 1),
     (1, 1, 0), (1, 1, 2), (1, 0, 1), (1, 2, 1), (1, 0, 2), (1, 2, 0)],
)  # fmt: skip
def test_r10f_daisuke_gives_to_any_other_samurai_himself_included(daisuke, src, dst):
    """R-10f: every receiver other than the card's former owner is legal: Daisuke may give away
    the last card of his own line, and may receive a card taken from another samurai's line."""
    run, last = (_daisuke_moves if daisuke == 0 else _daisuke_at_seat_1)(src, dst)
    ok(run)
    assert events(run, EV_DAISUKE) == [(src, dst, last, 0, 0, 0)]
    assert last not in seat_view(run, src)["line"]
    placed = seat_view(run, dst)
    assert last in placed["line"] or last in placed["defence"]


def test_r10e_v4_waiting_triggers_between_turns_go_from_seat_0():
    """Hard, end-kiai=on. Kanbei (seat 2) empties the raider stack with his fight (8 < 9): the
    round ends, Kanbei is the last active samurai. Step 1: Daisuke (seat 0, no hat) turns animal
    on 11 and activates (V-4). His first move takes Kyuzo's last card (16 -> 12) and gives it to
    himself (overcome; no barricade: a farmstead falls, its back D wounds Kyuzo, now animal on
    12); his second move takes that card from his own line and gives it to Kanbei (8 -> 12,
    overcome; farmstead D wounds Kanbei, now animal on 12). Two triggers wait, seats 1 and 2.
    R-10e: no turn is under way, so they go from seat 0: Kyuzo (1), then Kanbei (2)."""
    cards = Cards()
    cfg = make_config("daisuke", "kyuzo", "kanbei", difficulty="hard", rules={"end-kiai": "on"})
    pos = Position(cfg)
    pos.defence(1, cards.guard()).defence(2, cards.guard())
    pos.defence(0, [cards(value=1, symbol="farm"), cards(value=1, symbol="doll")])
    l2 = cards(value=4, symbol="doll", penalties=[])
    a = cards(value=4, symbol="doll")
    pos.line(0, [cards(value=4), cards(value=4), cards(value=3)])
    pos.line(1, [cards(value=4), cards(value=4), cards(value=4), a])
    pos.line(2, [l2])
    pos.raider([cards(value=4)])
    for s in range(3):
        pos.wound(s, 1)
    pos.turn(2).village(barricades=0, farmsteads=6).farm_backs([FB_RANDOM_WOUND] * 6)
    run = pos.play(round_end=True, randoms=[0, 1, 0, 2],
                   decisions=[ACT_FIGHT, KIAI_EFFECT, 1 * 8 + 0, 0 * 8 + 2, KIAI_PLAIN, KIAI_PLAIN])
    ok(run)
    assert [seat_view(run, s)["wound"] for s in range(3)] == [2, 2, 2]
    assert [e[0] for e in events(run, EV_KIAI)] == [0, 1, 2], story(run)
