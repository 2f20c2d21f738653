"""The rulebook's worked examples and FAQ answers (seeds/001: the publisher's rulebook), each
replayed on a hand-built position.
"""

import pytest
from conftest import Cards, events, guarded, make_config, ok
from scenario import Position, intruder_top_first, seat_view, village_view

from kiai.simcore.codes import PEN_BARRICADE
from kiai.simcore.events import (
    EV_BARR_LOST,
    EV_CONFRONT,
    EV_DEFEND,
    EV_FARM_LOST,
    EV_FIGHT,
    EV_FIGHT_AGAIN,
    EV_FLAME,
    EV_GIVE,
    EV_KIAI,
    EV_KIAI_SHED,
    EV_KYUZO_DISCARD,
    EV_PASS,
    EV_PENALTY,
    EV_SUPPORT,
    EV_TOKEN_RETURN,
)
from kiai.simcore.invariants import ERR_FORCED
from kiai.simcore.questions import (
    ACT_FIGHT,
    ACT_PASS,
    ACT_SUPPORT,
    CARD_CONFRONT,
    CARD_DEFEND,
    CARD_GIVE_LEFT,
    KIAI_PLAIN,
)

pytestmark = pytest.mark.usefixtures("engine", "one_thread")

FIGHT = ACT_FIGHT
PASS = ACT_PASS




def test_example_kyuzo_reaches_his_kiai_of_9_and_removes_his_first_card():
    """'Kyuzo ... one card with the value 4 and one card with the value 2 ... draws a Raider with
    a value of 3 ... 9 ... removes the first card (value 4) ... the meeple on 5 (2 + 3).'"""
    cards = Cards()
    cfg = make_config("kyuzo", "heihachi", "gorobei")
    four, two = (
        cards(value=4, symbol="hat", penalties=[]),
        cards(value=2, symbol="doll", penalties=[]),
    )
    three = cards(value=3, symbol="none")
    pos = (
        guarded(cfg, cards)
        .line(0, [four, two])
        .raider([three, cards(value=1, symbol="none")])
        .turn(0)
    )
    run = pos.play(turns=1)
    ok(run)
    assert seat_view(run, 0)["kiai"] == 9
    assert events(run, EV_CONFRONT)[0][:4] == (0, three, 9, 9)
    assert events(run, EV_KIAI_SHED) == [(0, four, 5, 0, 0, 0)]
    assert seat_view(run, 0)["line"] == [two, three]
    assert seat_view(run, 0)["total"] == 5
    assert village_view(run)["discard"] == [four]


def test_example_kikuchiyo_defends_a_3_farm_then_fights_again_and_confronts_a_2():
    cards = Cards()
    cfg = make_config("kikuchiyo", "heihachi", "gorobei")
    farm3 = cards(value=3, symbol="farm")
    two = cards(value=2, symbol="none")
    pos = Position(cfg).raider([farm3, two, cards(value=1, symbol="none")]).turn(0)
    pos.defence(0, [cards(value=1, symbol="hat"), cards(value=1, symbol="doll")])
    for s in (1, 2):
        pos.defence(s, cards.guard())
    run = pos.play(turns=1)
    ok(run)
    assert events(run, EV_DEFEND) == [(0, farm3, 0, 0, 0, 0)]
    assert events(run, EV_FIGHT_AGAIN) == [(0, 0, 0, 0, 0, 0)]
    assert seat_view(run, 0)["defence"][1] == farm3
    assert seat_view(run, 0)["line"] == [two]
    assert seat_view(run, 0)["total"] == 2


def test_example_end_of_round_intruder_stack_one_barricade_three_cards():
    """'There is only one remaining Barricade ... The intruder stack consists of 3 cards. The
    first card revealed shows no flames. On the second card, flames ...: a Barricade is removed.
    The third card also shows flames: ... a Farmstead is removed.'"""
    cards = Cards()
    cfg = make_config("kyuzo", "katsushiro", "kanbei")
    pos = guarded(cfg, cards)
    c1 = cards(value=1, symbol="hat", flames=False)
    c2 = cards(value=2, symbol="farm", flames=True)
    c3 = cards(value=3, symbol="doll", flames=True)
    # one family (A) only, so that no bonus adds a barricade or takes an intruder card
    pos.intruder([c1, c2, c3]).raider([cards(value=1, symbol="none")]).turn(0).village(
        barricades=1, families=1
    )
    run = pos.play(
        round_end=True, decisions=[FIGHT], randoms=[0, 3]
    )  # bonus A: seat 0; farmstead pick
    ok(run)
    assert [(e[0], e[1]) for e in events(run, EV_FLAME)] == [(c1, 0), (c2, 1), (c3, 1)]
    assert village_view(run)["barricades"] == 0
    assert village_view(run)["farmsteads"] == 5
    seq = [
        int(r[0]) for r in run.events if int(r[0]) in (EV_FLAME, EV_BARR_LOST, EV_FARM_LOST)
    ]
    assert seq == [EV_FLAME, EV_FLAME, EV_BARR_LOST, EV_FLAME, EV_FARM_LOST]


def _heihachi_support(drawn_value, support=True):
    """Philippe (Heihachi, seat 0) supports Claude (Kyuzo, seat 1), whose last combat card has
    a penalty; Claude fights next turn and draws a card of `drawn_value`. Without support,
    Claude simply plays first."""
    cards = Cards()
    cfg = make_config("heihachi", "kyuzo", "kanbei")
    pen = cards(value=1, symbol="none", penalties=["barricade"])
    drawn = cards(value=drawn_value, symbol="none")
    moved = cards(value=2, symbol="doll")
    stack = [moved, drawn] if support else [drawn, moved]
    pos = (
        guarded(cfg, cards)
        .line(1, [pen])
        .raider(stack + [cards(value=1, symbol="hat")])
        .turn(0 if support else 1)
    )
    return pos, pen, drawn, moved


def test_example_heihachi_support_drawn_3_cannot_be_given_token_still_returned():
    """'...draws a Raider with a value of 3. Unfortunately, he cannot pass this on to either of
    his neighbours. Nevertheless, he must return the support token to Philippe.'"""
    pos, pen, drawn, moved = _heihachi_support(3)
    run = pos.play(turns=2, decisions=[ACT_SUPPORT + 1, FIGHT, CARD_GIVE_LEFT])
    ok(run)
    assert intruder_top_first(run) == [moved]
    assert events(run, EV_PENALTY) == [(1, pen, PEN_BARRICADE, 0, 0, 0)]
    assert village_view(run)["barricades"] == 4  # Claude applied his penalty first
    assert events(run, EV_GIVE) == []
    assert run.book.fd_pos == 2  # the card offered no give: the forced give was never asked
    assert seat_view(run, 1)["line"][-1] == drawn
    assert events(run, EV_TOKEN_RETURN) == [(0, 1, 0, 0, 0, 0)]
    assert seat_view(run, 0)["holder"] == 0


def test_example_heihachi_support_even_card_given_to_a_neighbour_with_the_token():
    pos, _pen, drawn, moved = _heihachi_support(4)
    run = pos.play(turns=2, decisions=[ACT_SUPPORT + 1, FIGHT, CARD_GIVE_LEFT])
    ok(run)
    assert intruder_top_first(run) == [moved]
    assert events(run, EV_GIVE) == [(1, 2, drawn, 0, 0, 0)]
    assert seat_view(run, 2)["line"] == [drawn]
    assert events(run, EV_TOKEN_RETURN) == [(0, 1, 0, 0, 0, 0)]
    # without the token Claude could not give it
    pos, pen, drawn, _moved = _heihachi_support(4, support=False)
    run = pos.play(turns=1, decisions=[FIGHT, CARD_GIVE_LEFT])
    ok(run)
    assert events(run, EV_GIVE) == [] and run.book.fd_pos == 1
    assert seat_view(run, 1)["line"] == [pen, drawn]


def test_example_kyuzo_discards_a_2_given_by_heihachi():
    """'Kyuzo has three cards ...: 2, 4 and 2. His neighbour, Heihachi, draws a card with the
    value 2 and ... passes it on to Kyuzo. Kyuzo must now either Confront it or place it
    directly onto the discard pile.'"""
    cards = Cards()
    cfg = make_config("heihachi", "kyuzo", "kanbei")
    line = [
        cards(value=2, symbol="hat"),
        cards(value=4, symbol="none"),
        cards(value=2, symbol="doll"),
    ]
    two = cards(value=2, symbol="none")
    pos = guarded(cfg, cards).line(1, line).raider([two, cards(value=1, symbol="none")]).turn(0)
    run = pos.play(turns=1, decisions=[FIGHT, CARD_GIVE_LEFT])  # Kyuzo: reference discards
    ok(run)
    assert events(run, EV_GIVE) == [(0, 1, two, 0, 0, 0)]
    assert events(run, EV_KYUZO_DISCARD) == [(1, two, 0, 0, 0, 0)]
    assert village_view(run)["discard"] == [two]
    assert seat_view(run, 1)["line"] == line
    run = pos.play(turns=1, decisions=[FIGHT, CARD_GIVE_LEFT, CARD_CONFRONT])  # or confront it
    ok(run)
    assert seat_view(run, 1)["line"] == line + [two]


def _faq_animal(extra_line):
    """Kyuzo, human with a wound token, above his human Kiai of 9; his last card wounds him."""
    cards = Cards()
    cfg = make_config("kyuzo", "heihachi", "gorobei")
    wound_card = cards(value=1, symbol="doll", penalties=["wound"])
    line = [cards(value=v) for v in extra_line] + [wound_card]
    pos = guarded(cfg, cards).line(0, line).wound(0, 1)
    pos.raider([cards(value=1, symbol="hat"), cards(value=2, symbol="hat")]).turn(0)
    return pos, line


def test_faq_turning_animal_over_the_kiai_does_not_force_pass():
    """FAQ: 'the Pass action is only compulsory if you are over your Kiai value at the exact
    moment when you are choosing your action, right after applying the Raider penalty.'"""
    pos, _line = _faq_animal([4, 3, 2])  # total 10 > 9
    run = pos.play(turns=1, decisions=[FIGHT])
    ok(run)
    v = seat_view(run, 0)
    assert (v["wound"], v["kiai"]) == (2, 12)
    assert events(run, EV_PASS) == []
    assert events(run, EV_FIGHT) == [(0, 0, 0, 0, 0, 0)]
    assert run.book.fd_pos == 1  # the action was asked: Fight was a legal choice
    assert not v["passed"]


def test_faq_turning_animal_at_the_animal_kiai_triggers_it():
    """FAQ: 'turning your board to the animal side will activate your Kiai if you happen to be
    at your Kiai value for the animal side!'"""
    pos, line = _faq_animal([4, 4, 3])  # total 12: the animal Kiai
    run = pos.play(turns=1, decisions=[KIAI_PLAIN, FIGHT])
    ok(run)
    assert events(run, EV_KIAI) == [(0, KIAI_PLAIN, 0, 0, 0, 0)]
    assert events(run, EV_KIAI_SHED)[0][:3] == (0, line[0], 8)
    assert events(run, EV_FIGHT) == [(0, 0, 0, 0, 0, 0)]


def test_faq_still_above_the_kiai_after_the_penalty_must_pass():
    """Rulebook, Pass example: 'he ... must remove a Barricade from the Village. Because his
    Samurai meeple is past his Kiai, he is forced to PASS.'"""
    cards = Cards()
    cfg = make_config("kyuzo", "heihachi", "gorobei")
    line = [
        cards(value=4, symbol="none"),
        cards(value=4, symbol="hat"),
        cards(value=1, symbol="none", penalties=["barricade"]),
    ]
    pos = guarded(cfg, cards).line(
        0, line + [cards(value=1, symbol="doll", penalties=["barricade"])]
    )
    run = pos.raider([cards(value=2, symbol="hat")]).turn(0).play(turns=1, decisions=[FIGHT])
    ok(run)
    assert village_view(run)["barricades"] == 4
    assert events(run, EV_PASS) == [(0, 1, 0, 0, 0, 0)]
    assert run.book.fd_pos == 0


def test_faq_support_needs_another_samurai_still_in_the_round():
    """FAQ: 'Can I carry out the Support action if my Samurai is the only one who has not
    passed? No.'"""
    cards = Cards()
    cfg = make_config("heihachi", "kyuzo", "gorobei")
    pos = (
        guarded(cfg, cards)
        .raider([cards(value=1, symbol="none"), cards(value=2, symbol="none")])
        .turn(1)
        .passed(0, 2)
    )
    for target in (0, 2):
        run = pos.play(turns=1, decisions=[ACT_SUPPORT + target])
        assert run.book.err == ERR_FORCED
        assert events(run, EV_SUPPORT) == []
        assert seat_view(run, 1)["holder"] == 1
    # with Gorobei still in, Support is legal
    pos = (
        guarded(cfg, Cards())
        .raider([cards(value=1, symbol="hat"), cards(value=2, symbol="hat")])
        .turn(1)
        .passed(0)
    )
    run = pos.play(turns=1, decisions=[ACT_SUPPORT + 2])
    ok(run)
    assert seat_view(run, 1)["holder"] == 2


def test_example_defend_only_a_symbol_not_yet_held():
    """'Claude already has a Raider with the farm symbol ... draws a card with the hat symbol
    ... Defend. If the Raider had borne either the farm symbol or no symbol, he would have been
    forced to Confront it.'"""
    for sym, defended in (("hat", True), ("farm", False), ("none", False)):
        cards = Cards()
        cfg = make_config("kyuzo", "heihachi", "gorobei")
        farm = cards(value=1, symbol="farm")
        drawn = cards(value=3, symbol=sym)
        pos = (
            Position(cfg).defence(0, [farm]).raider([drawn, cards(value=1, symbol="none")]).turn(0)
        )
        run = pos.play(turns=1, decisions=[FIGHT, CARD_DEFEND])
        if defended:
            ok(run)
            assert seat_view(run, 0)["defence"][0] == drawn
            assert seat_view(run, 0)["total"] == 0
        else:
            assert run.book.fd_pos == 1  # confront was the only option: never asked
            assert seat_view(run, 0)["line"] == [drawn] and seat_view(run, 0)["total"] == 3


def test_example_second_wound_turns_animal_cards_stay_meeple_on_6():
    """'Claude's Samurai sustains a second wound ... two Raider cards to the right (values 4 and
    2) and one to the left (farm) ... turns over his Samurai board ... returned to space 6.'"""
    cards = Cards()
    cfg = make_config("kyuzo", "heihachi", "gorobei")
    four, two = (
        cards(value=4, symbol="hat", penalties=[]),
        cards(value=2, symbol="doll", penalties=["wound"]),
    )
    farm = cards(value=3, symbol="farm")
    pos = Position(cfg).line(0, [four, two]).defence(0, [farm]).wound(0, 1)
    pos.raider([cards(value=1, symbol="none"), cards(value=2, symbol="none")]).turn(0)
    run = pos.play(turns=1, decisions=[PASS])
    ok(run)
    v = seat_view(run, 0)
    assert (v["wound"], v["kiai"], v["total"]) == (2, 12, 6)
    assert v["line"] == [four, two] and v["defence"] == [-1, farm, -1]
