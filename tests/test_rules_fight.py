"""Rules of a fight: talents on a revealed card, give chains, Kikuchiyo's second fight,
overcome, the round ending mid-turn, stalled rounds.

docs/rules.md section 4 and decisions R-7, R-7a, R-7b, R-8, R-9, R-9b, R-9c.
"""

import pytest
from conftest import Cards, events, guarded, make_config, ok, story
from scenario import (
    Position,
    raider_top_first,
    seat_view,
    village_view,
)

from kiai.simcore.codes import DAISUKE, KATSUSHIRO
from kiai.simcore.events import (
    EV_FARM_LOST,
    EV_FIGHT,
    EV_FIGHT_AGAIN,
    EV_FLAME,
    EV_GIVE,
    EV_KIAI,
    EV_KIAI_SHED,
    EV_KYUZO_DISCARD,
    EV_OVERCOME,
    EV_PASS,
    EV_PENALTY,
    EV_PEN_DRAW,
    EV_PEN_UNABLE,
    EV_REDRAW,
    EV_REVEAL,
    EV_ROUND_END,
    EV_ROUND_START,
    EV_STALL,
    EV_SUPPORT,
    EV_TO_INTRUDER,
    EV_TURN,
)
from kiai.simcore.invariants import ERR_FORCED
from kiai.simcore.questions import (
    ACT_FIGHT,
    ACT_PASS,
    ACT_SUPPORT,
    CARD_CONFRONT,
    CARD_DEFEND,
    CARD_GIVE_LEFT,
    CARD_GIVE_RIGHT,
    CARD_KYUZO,
    CARD_REDRAW,
)

pytestmark = pytest.mark.usefixtures("engine", "one_thread")

FIGHT = ACT_FIGHT
PASS = ACT_PASS


# --------------------------------------------------------------------------- R-7 Katsushiro
def test_r7_katsushiro_redraws_and_must_play_the_second_card():
    cards = Cards()
    base = cards(value=4, symbol="none")
    first, second = (
        cards(value=5, symbol="none", penalties=["barricade"]),
        cards(value=5, symbol="none", penalties=["intruder"]),
    )
    extra = cards(value=1, symbol="none")
    cfg = make_config("katsushiro", "kyuzo", "kanbei")
    pos = guarded(cfg, cards).line(0, [base]).raider([first, second, extra]).turn(0)
    run = pos.play(turns=1)  # reference: 5 > margin 6? no: margin is 10 - 4 = 6
    ok(run)
    assert events(run, EV_REDRAW) == []  # a 5 fits the margin: no redraw
    pos = (
        guarded(cfg, Cards())
        .line(0, [base, cards(value=2, symbol="none")])
        .raider([first, second, extra])
        .turn(0)
    )
    run = pos.play(turns=1)  # margin 4: the 5 is put under, the next 5 must be played
    ok(run)
    assert events(run, EV_REDRAW) == [(0, first, 0, 0, 0, 0)]
    assert [e[1] for e in events(run, EV_REVEAL)] == [first, second]
    assert seat_view(run, 0)["line"][-1] == second
    assert raider_top_first(run) == [extra, first]
    assert events(run, EV_OVERCOME) == [(0, 11, 10, 0, 0, 0)]


def test_r7_katsushiro_no_second_redraw_in_same_fight():
    cards = Cards()
    first, second = cards(value=4, symbol="none"), cards(value=3, symbol="none")
    cfg = make_config("katsushiro", "kyuzo", "kanbei")
    pos = guarded(cfg, cards).raider([first, second, cards(value=1, symbol="none")]).turn(0)
    run = pos.play(turns=1, decisions=[FIGHT, CARD_REDRAW, CARD_REDRAW])
    ok(run)
    assert events(run, EV_REDRAW) == [(0, first, 0, 0, 0, 0)]
    assert seat_view(run, 0)["line"] == [second]
    assert run.book.fd_pos == 2  # the second card offered one option only: never asked


def test_r7a_no_redraw_on_the_last_card():
    """R-7a: the redraw is offered only while the raider stack still holds cards."""
    cards = Cards()
    last = cards(value=5, symbol="none")
    cfg = make_config("katsushiro", "kyuzo", "kanbei")
    pos = (
        guarded(cfg, cards)
        .line(0, [cards(value=4, symbol="none"), cards(value=2, symbol="none")])
        .raider([last])
        .turn(0)
    )
    run = pos.play(round_end=True)
    ok(run)
    assert events(run, EV_REDRAW) == []
    assert seat_view(run, 0)["line"][-1] == last
    assert events(run, EV_ROUND_END)[0][:2] == (0, 0)


def test_r7_katsushiro_redraws_a_card_given_to_him_outside_his_turn():
    cards = Cards()
    given, nxt = cards(value=4, symbol="none"), cards(value=1, symbol="none")
    cfg = make_config("heihachi", "katsushiro", "kanbei")
    pos = guarded(cfg, cards).raider([given, nxt, cards(value=3, symbol="none")]).turn(0)
    run = pos.play(turns=1, decisions=[FIGHT, CARD_GIVE_LEFT, CARD_REDRAW])
    ok(run)
    assert events(run, EV_GIVE) == [(0, 1, given, 0, 0, 0)]
    assert events(run, EV_REDRAW) == [(1, given, 0, 0, 0, 0)]
    assert seat_view(run, 1)["line"] == [nxt]
    assert seat_view(run, 0)["line"] == []
    assert raider_top_first(run)[-1] == given


def test_r7c_the_redrawn_card_is_kept_even_with_a_give_token():
    """R-7c: Heihachi gives an even card to Katsushiro, who redraws. Katsushiro holds Daisuke's
    absent token, so under R-7a's new chain alone he could give the new odd card back to
    Heihachi; R-7c keeps it with him. His defence side is full, so confront is his only option
    and he is not even asked: the scripted give is never consumed."""
    cards = Cards()
    a, b, c, d = (cards(value=1, symbol="none"), cards(value=2, symbol="none"),
                  cards(value=3, symbol="none"), cards(value=4, symbol="none"))  # fmt: skip
    cfg = make_config("heihachi", "katsushiro", "kyuzo", absent_tokens="on")
    pos = guarded(cfg, cards).raider([a, b, c, d]).turn(1)
    dec = [
        1 << DAISUKE, FIGHT, CARD_CONFRONT,  # Katsushiro takes Daisuke's absent token, fights a
        0, PASS,  # Kyuzo passes
        0, FIGHT, CARD_GIVE_LEFT,  # Heihachi gives b to Katsushiro
        CARD_REDRAW, CARD_GIVE_RIGHT,  # Katsushiro redraws, gets c; the give is not offered
    ]  # fmt: skip
    run = pos.play(turns=3, decisions=dec)
    ok(run)
    assert events(run, EV_GIVE) == [(0, 1, b, 0, 0, 0)], story(run)
    assert run.book.fd_pos == len(dec) - 1
    assert seat_view(run, 1)["line"] == [a, c]
    assert seat_view(run, 0)["line"] == []
    assert raider_top_first(run) == [d, b]


def test_r7c_no_kyuzo_discard_of_the_redrawn_card():
    """R-7c: Kyuzo, holding Katsushiro's absent token, redraws; the new card matches a value
    in his line, which would let him discard it (R-7), but it is kept: confronted, with no
    question asked (his defence side is full)."""
    cards = Cards()
    two, first, kept = cards(value=2, symbol="none"), cards(value=5, symbol="none"), cards(value=2)
    cfg = make_config("kyuzo", "heihachi", "kanbei", absent_tokens="on")
    pos = guarded(cfg, cards).line(0, [two]).raider([first, kept, cards(value=1, symbol="none")]).turn(0)
    dec = [1 << KATSUSHIRO, FIGHT, CARD_REDRAW, CARD_KYUZO]
    run = pos.play(turns=1, decisions=dec)
    ok(run)
    assert events(run, EV_REDRAW) == [(0, first, 0, 0, 0, 0)], story(run)
    assert events(run, EV_KYUZO_DISCARD) == []
    assert run.book.fd_pos == len(dec) - 1
    assert seat_view(run, 0)["line"] == [two, kept]


# --------------------------------------------------------------------------- R-7 Kyuzo
def test_r7_kyuzo_discards_a_value_match_and_the_fight_is_over():
    cards = Cards()
    two = cards(value=2, symbol="none")
    match = cards(value=2, symbol="doll", penalties=[])
    cfg = make_config("kyuzo", "katsushiro", "kanbei")
    pos = guarded(cfg, cards).line(0, [two]).raider([match, cards(value=1, symbol="none")]).turn(0)
    run = pos.play(turns=1)
    ok(run)
    assert events(run, EV_KYUZO_DISCARD) == [(0, match, 0, 0, 0, 0)]
    assert village_view(run)["discard"] == [match]
    assert seat_view(run, 0)["line"] == [two]
    assert len(events(run, EV_REVEAL)) == 1
    # declining the discard (forced confront) keeps the card
    run = pos.play(turns=1, decisions=[FIGHT, CARD_CONFRONT])
    ok(run)
    assert seat_view(run, 0)["line"] == [two, match]


def test_r7_kyuzo_cannot_discard_without_a_match():
    cards = Cards()
    two = cards(value=2, symbol="none")
    three = cards(value=3, symbol="none")
    cfg = make_config("kyuzo", "katsushiro", "kanbei")
    pos = guarded(cfg, cards).line(0, [two]).raider([three, cards(value=1, symbol="none")]).turn(0)
    run = pos.play(turns=1, decisions=[FIGHT, CARD_KYUZO])
    assert run.book.fd_pos == 1  # one option only (confront): the card question was not asked
    assert events(run, EV_KYUZO_DISCARD) == []
    assert seat_view(run, 0)["line"] == [two, three]


# --------------------------------------------------------------------------- R-7 gives
def test_r7_heihachi_gives_even_card_to_left_neighbour():
    cards = Cards()
    cfg = make_config("heihachi", "kyuzo", "kanbei")
    six = [cards(value=4, symbol="none"), cards(value=2, symbol="none")]
    even = cards(value=4, symbol="doll", penalties=[])
    pos = guarded(cfg, cards).line(0, six).raider([even, cards(value=1, symbol="none")]).turn(0)
    run = pos.play(turns=1, decisions=[FIGHT])  # margin 2 < 4: the reference gives it away
    ok(run)
    assert events(run, EV_GIVE) == [(0, 1, even, 0, 0, 0)]
    assert seat_view(run, 1)["line"] == [even]
    assert seat_view(run, 0)["line"] == six


def test_r7_heihachi_cannot_give_odd_card():
    cards = Cards()
    cfg = make_config("heihachi", "kyuzo", "kanbei")
    odd = cards(value=3, symbol="none")
    pos = guarded(cfg, cards).raider([odd, cards(value=1, symbol="none")]).turn(0)
    run = pos.play(turns=1, decisions=[FIGHT, CARD_GIVE_LEFT])
    assert run.book.fd_pos == 1  # no give option: the card question was not asked
    assert events(run, EV_GIVE) == []
    assert seat_view(run, 0)["line"] == [odd]


def test_r7_daisuke_gives_odd_not_even():
    cards = Cards()
    cfg = make_config("daisuke", "kyuzo", "kanbei")
    odd, even = cards(value=3, symbol="none"), cards(value=2, symbol="none")
    pos = guarded(cfg, cards).raider([odd, even, cards(value=1, symbol="none")]).turn(0)
    run = pos.play(turns=1, decisions=[FIGHT, CARD_GIVE_RIGHT])
    ok(run)
    assert events(run, EV_GIVE) == [(0, 2, odd, 0, 0, 0)]
    assert seat_view(run, 2)["line"] == [odd]
    cards = Cards()
    cards.take(odd), cards.take(even)
    pos = guarded(cfg, cards).raider([even, odd, cards(value=1, symbol="none")]).turn(0)
    run = pos.play(turns=1, decisions=[FIGHT, CARD_GIVE_LEFT])
    assert run.book.fd_pos == 1
    assert seat_view(run, 0)["line"] == [even]


def test_r7_give_never_to_a_passed_neighbour():
    cards = Cards()
    cfg = make_config("heihachi", "kyuzo", "kanbei")
    even = cards(value=4, symbol="none")
    fill = cards(value=1, symbol="none")
    pos = guarded(cfg, cards).line(
        0, [cards(value=4, symbol="hat"), cards(value=2, symbol="hat", penalties=[])]
    )
    pos.raider([even, fill]).turn(0).passed(1)
    run = pos.play(turns=1, decisions=[FIGHT])  # reference: left has passed, so to the right
    ok(run)
    assert events(run, EV_GIVE) == [(0, 2, even, 0, 0, 0)]
    bad = pos.play(turns=1, decisions=[FIGHT, CARD_GIVE_LEFT])
    assert bad.book.err == ERR_FORCED
    assert events(bad, EV_GIVE) == []
    both = pos.passed(2).play(turns=1, decisions=[FIGHT, CARD_GIVE_RIGHT])
    assert both.book.fd_pos == 1  # nobody to give to: confront was the only option
    assert events(both, EV_GIVE) == [] and seat_view(both, 0)["line"][-1] == even


def test_r7_give_chain_with_receivers_own_talent_never_back_to_a_giver():
    """Kyuzo holds Heihachi's token and gives a 4 to Heihachi, who gives it on with his own
    talent; giving it back to Kyuzo is not an option."""
    cards = Cards()
    cfg = make_config("kyuzo", "heihachi", "kanbei")
    four = cards(value=4, symbol="none")
    pos = guarded(cfg, cards).raider([four, cards(value=1, symbol="none")]).turn(0).token(1, 0)
    run = pos.play(turns=1, decisions=[FIGHT, CARD_GIVE_LEFT, CARD_GIVE_LEFT])
    ok(run)
    assert events(run, EV_GIVE) == [(0, 1, four, 0, 0, 0), (1, 2, four, 0, 0, 0)]
    assert seat_view(run, 2)["line"] == [four]
    back = pos.play(turns=1, decisions=[FIGHT, CARD_GIVE_LEFT, CARD_GIVE_RIGHT])
    assert back.book.err == ERR_FORCED
    assert events(back, EV_GIVE) == [(0, 1, four, 0, 0, 0)]
    assert seat_view(back, 1)["line"] == [four] and seat_view(back, 0)["line"] == []


def test_r7_no_defend_binds_only_the_acting_samurai():
    cards = Cards()
    cfg = make_config("heihachi", "kyuzo", "kanbei")
    nodef = cards(value=1, symbol="hat", penalties=["no_defend"])
    doll = cards(value=4, symbol="doll", penalties=[])
    pos = Position(cfg).line(0, [nodef]).raider([doll, cards(value=1, symbol="none")]).turn(0)
    bad = pos.play(turns=1, decisions=[FIGHT, CARD_DEFEND])
    assert bad.book.err == ERR_FORCED  # Heihachi may not defend this turn
    assert seat_view(bad, 0)["defence"] == [-1, -1, -1]
    run = pos.play(turns=1, decisions=[FIGHT, CARD_GIVE_LEFT])
    ok(run)
    assert seat_view(run, 1)["defence"] == [-1, -1, doll]  # the receiver defends it
    assert seat_view(run, 1)["line"] == []


# --------------------------------------------------------------------------- R-7b Kikuchiyo
def test_r7b_kikuchiyo_fights_again_once():
    cards = Cards()
    cfg = make_config("kikuchiyo", "kyuzo", "kanbei")
    a, b, c = (
        cards(value=1, symbol="none"),
        cards(value=2, symbol="none"),
        cards(value=3, symbol="none"),
    )
    pos = guarded(cfg, cards).raider([a, b, c]).turn(0)
    run = pos.play(turns=1)
    ok(run)
    assert events(run, EV_FIGHT_AGAIN) == [(0, 0, 0, 0, 0, 0)]
    assert seat_view(run, 0)["line"] == [a, b]  # margin still >= 3, but only one extra fight
    declined = pos.play(turns=1, decisions=[FIGHT, 0])
    ok(declined)
    assert events(declined, EV_FIGHT_AGAIN) == []
    assert seat_view(declined, 0)["line"] == [a]


def test_r7b_no_second_fight_when_above_kiai():
    cards = Cards()
    cfg = make_config("kikuchiyo", "kyuzo", "kanbei")
    line = [cards(value=4, symbol="none"), cards(value=4, symbol="hat")]
    big = cards(value=3, symbol="none")
    pos = guarded(cfg, cards).line(0, line).raider([big, cards(value=1, symbol="none")]).turn(0)
    run = pos.play(turns=1, decisions=[FIGHT, 1])
    ok(run)
    assert seat_view(run, 0)["total"] == 11  # above his Kiai of 10
    assert events(run, EV_FIGHT_AGAIN) == []
    assert run.book.fd_pos == 1  # the fight-again question was never asked


def test_r7b_no_second_fight_on_empty_stack():
    cards = Cards()
    cfg = make_config("kikuchiyo", "kyuzo", "kanbei")
    last = cards(value=1, symbol="none")
    pos = guarded(cfg, cards).raider([last]).turn(0)
    run = pos.play(round_end=True)
    ok(run)
    assert events(run, EV_FIGHT_AGAIN) == []
    assert len(events(run, EV_REVEAL)) == 1
    assert events(run, EV_ROUND_END)[0][:2] == (0, 0)


def test_r7b_card_given_to_kikuchiyo_gives_no_extra_fight():
    cards = Cards()
    cfg = make_config("heihachi", "kikuchiyo", "kanbei")
    four = cards(value=4, symbol="none")
    pos = (
        guarded(cfg, cards)
        .raider([four, cards(value=1, symbol="none"), cards(value=2, symbol="none")])
        .turn(0)
    )
    run = pos.play(turns=1, decisions=[FIGHT, CARD_GIVE_LEFT])
    ok(run)
    assert seat_view(run, 1)["line"] == [four]
    assert events(run, EV_FIGHT_AGAIN) == []
    assert village_view(run)["raider_n"] == 2


# --------------------------------------------------------------------------- R-8 overcome
def test_r8_overcome_destroys_a_barricade():
    cards = Cards()
    cfg = make_config("kanbei", "katsushiro", "kyuzo")
    pos = guarded(cfg, cards).line(
        0, [cards(value=4, symbol="none"), cards(value=2, symbol="doll", penalties=[])]
    )
    big = cards(value=4, symbol="doll")
    pos.raider([big, cards(value=1, symbol="none")]).turn(0)
    run = pos.play(turns=1, decisions=[FIGHT])
    ok(run)
    assert events(run, EV_OVERCOME) == [(0, 10, 9, 0, 0, 0)]
    assert village_view(run)["barricades"] == 4
    assert events(run, EV_KIAI) == []


def test_r8_exactly_kiai_is_not_overcome():
    cards = Cards()
    cfg = make_config("kanbei", "katsushiro", "kyuzo")
    pos = guarded(cfg, cards).line(
        0, [cards(value=4, symbol="none"), cards(value=2, symbol="doll", penalties=[])]
    )
    pos.raider([cards(value=3, symbol="none"), cards(value=1, symbol="none")]).turn(0)
    run = pos.play(turns=1, decisions=[FIGHT])
    ok(run)
    assert events(run, EV_OVERCOME) == []
    assert village_view(run)["barricades"] == 5


def test_r8_overcome_outside_turn_by_penalty_draw():
    cards = Cards()
    cfg = make_config("kyuzo", "katsushiro", "kanbei")
    pen = cards(value=3, symbol="doll", penalties=["left_draws"])
    drawn = cards(value=3, symbol="none")
    pos = (
        guarded(cfg, cards)
        .line(0, [pen])
        .line(1, [cards(value=4, symbol="none"), cards(value=4, symbol="farm")])
    )
    pos.raider([drawn, cards(value=1, symbol="none")]).turn(0)
    run = pos.play(turns=1, decisions=[PASS])
    ok(run)
    assert [e[:2] for e in events(run, EV_PEN_DRAW)] == [(1, drawn)]
    assert events(run, EV_OVERCOME) == [(1, 11, 10, 0, 0, 0)]
    assert village_view(run)["barricades"] == 4


def test_r8_every_card_entering_a_line_above_the_kiai_costs_a_barricade():
    """R-8 'each time': a samurai already above his Kiai (awaiting his forced pass) is made to
    draw by a penalty: one more barricade falls."""
    cards = Cards()
    cfg = make_config("kyuzo", "kanbei", "katsushiro")
    pen = cards(value=3, symbol="doll", penalties=["left_draws"])
    drawn = cards(value=1, symbol="none")
    above = [
        cards(value=4, symbol="none"),
        cards(value=4, symbol="farm"),
        cards(value=2, symbol="hat"),
    ]
    pos = (
        guarded(cfg, cards)
        .line(0, [pen])
        .line(1, above)
        .raider([drawn, cards(value=2, symbol="none")])
        .turn(0)
    )
    run = pos.play(turns=1, decisions=[PASS])
    ok(run)
    assert seat_view(run, 1)["total"] == 11
    assert events(run, EV_OVERCOME) == [(1, 11, 9, 0, 0, 0)]
    assert village_view(run)["barricades"] == 4


def test_r8_overcome_outside_turn_by_a_give():
    cards = Cards()
    cfg = make_config("heihachi", "kanbei", "kyuzo")
    four = cards(value=4, symbol="none")
    pos = guarded(cfg, cards).line(1, [cards(value=4, symbol="hat"), cards(value=2, symbol="none")])
    pos.raider([four, cards(value=1, symbol="none")]).turn(0)
    run = pos.play(turns=1, decisions=[FIGHT, CARD_GIVE_LEFT])
    ok(run)
    assert events(run, EV_OVERCOME) == [(1, 10, 9, 0, 0, 0)]
    assert village_view(run)["barricades"] == 4


def test_r8_no_barricade_means_a_farmstead():
    cards = Cards()
    cfg = make_config("kanbei", "katsushiro", "kyuzo")
    pos = guarded(cfg, cards).line(
        0, [cards(value=4, symbol="none"), cards(value=2, symbol="doll", penalties=[])]
    )
    pos.raider([cards(value=4, symbol="doll"), cards(value=1, symbol="none")]).turn(0).village(
        barricades=0
    )
    run = pos.play(turns=1, decisions=[FIGHT], randoms=[0])
    ok(run)
    assert village_view(run)["barricades"] == 0
    assert village_view(run)["farmsteads"] == 5
    assert events(run, EV_FARM_LOST) == [(-1, 5, 0, 0, 0, 0)]  # Normal: no back applies


# --------------------------------------------------------------------------- R-9 round end
def test_r9_round_ends_when_the_last_card_is_played():
    cards = Cards()
    cfg = make_config("kyuzo", "katsushiro", "kanbei")
    last = cards(value=1, symbol="none")
    pos = guarded(cfg, cards).raider([last]).turn(0)
    run = pos.play(turns=1)
    ok(run)
    assert [e[0] for e in events(run, EV_TURN)] == [0]
    assert events(run, EV_ROUND_END)[0][:2] == (0, 0)
    assert run.pub.round_no == 2
    assert run.pub.acting == 1  # left of the last active samurai opens round 2


def test_r9_kiai_of_the_last_card_resolves_before_the_round_ends():
    cards = Cards()
    cfg = make_config("kyuzo", "katsushiro", "kanbei")
    five = cards(value=5, symbol="none")
    last = cards(value=4, symbol="none")
    pos = guarded(cfg, cards).line(0, [five]).raider([last]).turn(0)
    run = pos.play(round_end=True)
    ok(run)
    codes = [int(r[0]) for r in run.events]
    assert codes.index(EV_KIAI_SHED) < codes.index(EV_ROUND_END)
    assert events(run, EV_KIAI_SHED) == [(0, five, 4, 0, 0, 0)]
    assert seat_view(run, 0)["line"] == [last]


def test_r9_second_boss_penalty_not_applied_after_stack_empties():
    """Boss (intruder, intruder) with one raider card: the first penalty empties the stack, the
    round ends; the second is not applied, so no wound (R-5 would give one)."""
    cards = Cards()
    boss = cards(rank="boss", penalties=["intruder", "intruder"])
    only = cards(value=2, symbol="none")
    cfg = make_config("kyuzo", "katsushiro", "kanbei")
    pos = guarded(cfg, cards).line(0, [boss]).raider([only]).turn(0)
    run = pos.play(round_end=True)
    ok(run)
    assert len(events(run, EV_PENALTY)) == 1
    assert events(run, EV_PEN_UNABLE) == []
    assert seat_view(run, 0)["wound"] == 0
    assert events(run, EV_FIGHT) == [] and events(run, EV_PASS) == []
    assert events(run, EV_ROUND_END)[0][:2] == (0, 0)
    assert events(run, EV_TO_INTRUDER) == [(only, 0, 0, 0, 0, 0)]


def test_r9_penalty_draw_of_last_card_ends_the_round_before_the_action():
    cards = Cards()
    pen = cards(value=3, symbol="doll", penalties=["left_draws"])
    cfg = make_config("kyuzo", "katsushiro", "kanbei")
    only = cards(value=2, symbol="none")
    pos = guarded(cfg, cards).line(0, [pen]).raider([only]).turn(0)
    run = pos.play(round_end=True, decisions=[FIGHT])
    ok(run)
    assert seat_view(run, 1)["line"] == [only]
    assert events(run, EV_FIGHT) == [] and events(run, EV_PASS) == []
    assert run.book.fd_pos == 0
    assert events(run, EV_ROUND_END)[0][:2] == (0, 0)


def test_r9_support_of_last_card_ends_the_round():
    cards = Cards()
    cfg = make_config("kyuzo", "katsushiro", "kanbei")
    only = cards(value=2, symbol="none")
    pos = guarded(cfg, cards).raider([only]).turn(0)
    run = pos.play(turns=1, decisions=[ACT_SUPPORT + 1])
    ok(run)
    assert events(run, EV_SUPPORT) == [(0, 1, only, 0, 0, 0)]
    assert events(run, EV_ROUND_END)[0][:2] == (0, 0)
    assert run.pub.round_no == 2
    assert seat_view(run, 0)["holder"] == 0  # every token home for the new round


# --------------------------------------------------------------------------- R-9b / R-9c stall
def _stall_position():
    """Kyuzo alone in the round, his last card the boss (no_defend, discard_to_raider), every
    card in the stacks and discard pile a 6: each turn a 6 is shuffled back and the 6 he draws
    is discarded by his talent (value match). The reference loops forever."""
    cards = Cards()
    cfg = make_config("kanbei", "kyuzo", "gorobei")
    loop_boss = cards(rank="boss", penalties=["no_defend", "discard_to_raider"])
    bosses = [cards(rank="boss") for _ in range(6)]
    pos = Position(cfg).line(1, [loop_boss])
    for s in range(3):  # nobody loses anything at the end of the round
        pos.defence(s, cards.guard())
    pos.raider(bosses[:3]).discard(bosses[3:]).passed(0, 2).turn(1)
    return pos, bosses


def test_r9b_stalled_round_ends_after_1000_turns_as_if_all_passed():
    pos, bosses = _stall_position()
    run = pos.play(round_end=True)
    ok(run)
    assert len(events(run, EV_TURN)) == 1000
    assert len(events(run, EV_STALL)) == 1
    assert events(run, EV_ROUND_END)[0][:2] == (3, 1)
    assert run.book.stalled == 1
    assert seat_view(run, 1)["passed"]
    # as if all had passed: the raider stack went onto the intruder stack and was revealed
    revealed = {e[0] for e in events(run, EV_FLAME)}
    bonus_c = 1  # the 'top intruder card to discard' family bonus took one of them first
    assert len(revealed) == 3 - bonus_c and revealed <= set(bosses)
    assert village_view(run)["raider_n"] == 0 and village_view(run)["intruder_n"] == 0


def test_r9c_after_a_stall_the_next_round_opens_left_of_the_last_to_play():
    pos, _ = _stall_position()
    run = pos.play(turns=1000)
    ok(run)
    assert run.pub.round_no == 2
    assert run.pub.acting == 2
    assert events(run, EV_ROUND_START)[-1][0] == 2
    assert run.book.stalled == 1
