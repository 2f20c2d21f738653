"""Rules of a turn: seats, first player, battle penalties, the action, support tokens.

docs/rules.md sections 2, 3, 7, 11 and decisions R-2, R-2a, R-3, R-4, R-5, R-6, R-18, R-20, R-20a;
docs/rules.md is the project's statement of the same rules.
"""

import pytest
from conftest import Cards, events, make_config, ok, story
from scenario import (
    Position,
    intruder_top_first,
    raider_top_first,
    seat_view,
    village_view,
)

from kiai.simcore.codes import (
    GOROBEI,
    KATSUSHIRO,
    PEN_DISCARD_TO_RAIDER,
    PEN_LEFT_DRAWS,
    PEN_LOSE_DEFENCE,
    PEN_NO_SUPPORT,
    PEN_NO_TALENT,
    PEN_WOUND,
    SAMURAI,
)
from kiai.simcore.config import ConfigError
from kiai.simcore.events import (
    EV_ABSENT,
    EV_DISCARD_TO_RAIDER,
    EV_FIGHT,
    EV_FIGHT_AGAIN,
    EV_GIVE,
    EV_KYUZO_DISCARD,
    EV_KYUZO_TOKEN,
    EV_LOSE_DEFENCE,
    EV_PASS,
    EV_PENALTY,
    EV_PEN_DRAW,
    EV_PEN_IGNORED,
    EV_PEN_UNABLE,
    EV_REDRAW,
    EV_REVEAL,
    EV_ROUND_END,
    EV_ROUND_START,
    EV_SUPPORT,
    EV_TOKEN_RETURN,
    EV_TURN,
)
from kiai.simcore.invariants import ERR_FORCED
from kiai.simcore.questions import (
    ACT_FIGHT,
    ACT_PASS,
    ACT_SUPPORT,
    CARD_CONFRONT,
    CARD_GIVE_LEFT,
    CARD_GIVE_RIGHT,
    CARD_REDRAW,
    KIAI_EFFECT,
)
from kiai.simcore.results import O_FIRST_SEAT
from kiai.strategies.run.games import run_games, run_one

pytestmark = pytest.mark.usefixtures("engine", "one_thread")

FIGHT = ACT_FIGHT
PASS = ACT_PASS


def support(seat):
    return ACT_SUPPORT + seat



# --------------------------------------------------------------------------- R-2 / R-2a seats
@pytest.mark.parametrize(
    "n, acting, kind, drawer",
    [
        (3, 1, "left_draws", 2),
        (3, 1, "right_draws", 0),
        (3, 2, "left_draws", 0),  # left of the last seat wraps to seat 0
        (3, 0, "right_draws", 2),  # right of seat 0 wraps to the last seat
        (4, 3, "left_draws", 0),
        (4, 1, "right_draws", 0),
        (2, 0, "left_draws", 1),  # with two samurai both neighbours are the other one
        (2, 0, "right_draws", 1),
        (2, 1, "left_draws", 0),
        (2, 1, "right_draws", 0),
    ],
)
def test_r2_left_neighbour_is_next_seat_right_is_previous(n, acting, kind, drawer):
    """R-2: left neighbour of seat i is (i+1) mod n, right is (i-1) mod n; with n=2 both are the
    other samurai. Seen through the left/right draw penalties."""
    names = ("kyuzo", "katsushiro", "kikuchiyo", "daisuke")[:n]  # nobody who ignores penalties
    cfg = make_config(*names, absent_tokens="off")
    cards = Cards(cfg.components)
    pen = (
        cards(value=3, penalties=["left_draws"])
        if kind == "left_draws"
        else cards(value=4, penalties=["right_draws"])
    )
    drawn = cards(value=1, symbol="hat", penalties=[])
    spare = cards(value=1, symbol="none")
    pos = Position(cfg).line(acting, [pen]).raider([drawn, spare]).turn(acting)
    run = pos.play(turns=1, decisions=[PASS])
    ok(run)
    assert [e[:2] for e in events(run, EV_PEN_DRAW)] == [(drawer, drawn)]
    assert seat_view(run, drawer)["line"] == [drawn]
    assert seat_view(run, drawer)["total"] == 1
    for s in range(n):
        if s != drawer:
            assert seat_view(run, s)["line"] == ([pen] if s == acting else [])


def test_r2a_two_samurai_give_is_one_option():
    """R-2a: with two samurai Heihachi's give to his single neighbour is offered once, as
    'give left'; 'give right' is not a legal option."""
    cfg = make_config("heihachi", "kyuzo", absent_tokens="off")
    cards = Cards(cfg.components)
    even = cards(value=4, symbol="none")
    pos = Position(cfg).raider([even, cards(value=1, symbol="none")]).turn(0)
    for s in range(2):
        pos.defence(s, cards.guard())
    run = pos.play(turns=1, decisions=[FIGHT, CARD_GIVE_LEFT])
    ok(run)
    assert events(run, EV_GIVE) == [(0, 1, even, 0, 0, 0)]
    assert seat_view(run, 1)["line"] == [even]
    bad = pos.play(turns=1, decisions=[FIGHT, CARD_GIVE_RIGHT])
    assert bad.book.err == ERR_FORCED
    assert events(bad, EV_GIVE) == []
    assert seat_view(bad, 0)["line"] == [even]  # the engine fell back to the lowest option


# --------------------------------------------------------------------------- R-3 first player
def test_r3_first_player_is_random_by_default():
    cfg = make_config("kyuzo", "heihachi", "gorobei")
    out = run_games(cfg, 600, seed=11)
    firsts = out[:, O_FIRST_SEAT]
    counts = [int((firsts == s).sum()) for s in range(3)]
    assert sum(counts) == 600
    assert all(140 <= c <= 260 for c in counts), counts


def test_r3_first_player_fixed_on_request():
    cfg = make_config("kyuzo", "heihachi", "gorobei", first_seat=2)
    out = run_games(cfg, 50, seed=11)
    assert set(out[:, O_FIRST_SEAT].tolist()) == {2}
    run = run_one(cfg, seed=5, stop_after_turns=1)
    assert events(run, EV_ROUND_START)[0][0] == 2
    assert events(run, EV_TURN)[0][0] == 2


# --------------------------------------------------------------------------- R-4 ignoring
def _penalty_position(names, seat, last_card, cards, **cfgkw):
    cfg = make_config(*names, **cfgkw)
    # fillers without symbol: if the samurai fights, they are confronted and no defence changes
    fill = [cards(rank="lieutenant", symbol="none"), cards(rank="lieutenant", symbol="none")]
    return Position(cfg).line(seat, [last_card]).raider(fill).turn(seat)


def test_r4_gorobei_ignores_even_card_penalty_by_choice():
    cards = Cards()
    even = cards(value=2, symbol="none", penalties=["barricade"])
    pos = _penalty_position(("gorobei", "kyuzo", "heihachi"), 0, even, cards)
    run = pos.play(turns=1, decisions=[1, PASS])  # ignore
    ok(run)
    assert events(run, EV_PEN_IGNORED) == [(0, even, 1, 0, 0, 0)]
    assert village_view(run)["barricades"] == 5
    run = pos.play(turns=1, decisions=[0, PASS])  # forced decision 0 applies it
    ok(run)
    assert events(run, EV_PEN_IGNORED) == []
    assert village_view(run)["barricades"] == 4
    ref = pos.play(turns=1)  # the reference always ignores
    assert village_view(ref)["barricades"] == 5


def test_r4_gorobei_cannot_ignore_odd_card_penalty():
    cards = Cards()
    odd = cards(value=1, symbol="none", penalties=["barricade"])
    run = _penalty_position(("gorobei", "kyuzo", "heihachi"), 0, odd, cards).play(turns=1)
    ok(run)
    assert events(run, EV_PEN_IGNORED) == []
    assert village_view(run)["barricades"] == 4


def test_r4_kanbei_ignores_odd_not_even():
    names = ("kyuzo", "kanbei", "heihachi")
    cards = Cards()
    odd = cards(value=1, symbol="none", penalties=["barricade"])
    pos = _penalty_position(names, 1, odd, cards)
    run = pos.play(turns=1)
    ok(run)
    assert events(run, EV_PEN_IGNORED) == [(1, odd, 1, 0, 0, 0)]
    assert village_view(run)["barricades"] == 5
    run = pos.play(turns=1, decisions=[0, PASS])
    ok(run)
    assert village_view(run)["barricades"] == 4
    cards = Cards()
    even = cards(value=2, symbol="none", penalties=["barricade"])
    run = _penalty_position(names, 1, even, cards).play(turns=1, decisions=[PASS])
    ok(run)
    assert events(run, EV_PEN_IGNORED) == []
    assert village_view(run)["barricades"] == 4


def test_r4_support_token_of_gorobei_lets_holder_ignore():
    """R-4 with a support token: the holder of Gorobei's token ignores an even card's penalty
    in his own turn; without the token he cannot."""
    cards = Cards()
    even = cards(value=4, symbol="none", penalties=["wound"])
    pos = _penalty_position(("gorobei", "kyuzo", "heihachi"), 1, even, cards).token(0, 1)
    run = pos.play(turns=1)
    ok(run)
    assert events(run, EV_PEN_IGNORED) == [(1, even, PEN_WOUND, 0, 0, 0)]
    assert seat_view(run, 1)["wound"] == 0
    run = _penalty_position(("gorobei", "kyuzo", "heihachi"), 1, even, Cards()).play(turns=1)
    ok(run)
    assert seat_view(run, 1)["wound"] == 1


# --------------------------------------------------------------------------- R-5 unable
def test_r5_left_draw_with_passed_neighbour_wounds_instead():
    cards = Cards()
    pen = cards(value=3, penalties=["left_draws"])
    pos = _penalty_position(("kyuzo", "katsushiro", "kanbei"), 0, pen, cards).passed(1)
    run = pos.play(turns=1, decisions=[PASS])
    ok(run)
    assert events(run, EV_PEN_UNABLE) == [(0, PEN_LEFT_DRAWS, 0, 0, 0, 0)]
    assert events(run, EV_PEN_DRAW) == []
    assert seat_view(run, 0)["wound"] == 1
    assert seat_view(run, 1)["line"] == [] and seat_view(run, 2)["line"] == []
    assert village_view(run)["raider_n"] == 2


def test_r5_discard_to_raider_with_empty_discard_wounds_instead():
    cards = Cards()
    boss = cards(rank="boss", penalties=["no_defend", "discard_to_raider"])
    run = _penalty_position(("kyuzo", "katsushiro", "kanbei"), 0, boss, cards).play(
        turns=1, decisions=[0, PASS]
    )
    ok(run)
    assert events(run, EV_PEN_UNABLE) == [(0, PEN_DISCARD_TO_RAIDER, 0, 0, 0, 0)]
    assert seat_view(run, 0)["wound"] == 1
    assert village_view(run)["raider_n"] == 2


def test_discard_to_raider_hides_cards_katsushiro_had_shown():
    """Section 7: the boss's shuffle makes the cards Katsushiro had shown hidden again."""
    cards = Cards()
    boss = cards(rank="boss", penalties=["no_defend", "discard_to_raider"])
    back = cards(value=3, symbol="hat", penalties=[])
    pos = (
        _penalty_position(("kyuzo", "katsushiro", "kanbei"), 0, boss, cards)
        .discard([back])
        .known(2)
    )
    assert pos.p.known_n == 2
    run = pos.play(turns=1, decisions=[0, PASS])
    ok(run)
    assert run.pub.known_n == 0
    # control: a penalty that does not shuffle keeps them known
    cards = Cards()
    nodef = cards(value=1, symbol="hat", penalties=["no_defend"])
    run = (
        _penalty_position(("kyuzo", "katsushiro", "kanbei"), 0, nodef, cards)
        .known(2)
        .play(turns=1, decisions=[PASS])
    )
    ok(run)
    assert run.pub.known_n == 2


def test_r5_discard_to_raider_with_a_discard_shuffles_it_in_without_wound():
    cards = Cards()
    boss = cards(rank="boss", penalties=["no_defend", "discard_to_raider"])
    back = cards(value=3, symbol="hat", penalties=[])
    pos = _penalty_position(("kyuzo", "katsushiro", "kanbei"), 0, boss, cards).discard([back])
    run = pos.play(turns=1, decisions=[0, PASS])
    ok(run)
    assert events(run, EV_PEN_UNABLE) == []
    assert events(run, EV_DISCARD_TO_RAIDER) == [(back, 0, 0, 0, 0, 0)]
    assert seat_view(run, 0)["wound"] == 0
    assert village_view(run)["discard"] == []
    assert back in raider_top_first(run) and village_view(run)["raider_n"] == 3


def test_r5_lose_defence_with_empty_defence_wounds_instead():
    cards = Cards()
    boss = cards(rank="boss", penalties=["lose_defence"])
    run = _penalty_position(("kyuzo", "katsushiro", "kanbei"), 0, boss, cards).play(
        turns=1, decisions=[PASS]
    )
    ok(run)
    assert events(run, EV_PEN_UNABLE) == [(0, PEN_LOSE_DEFENCE, 0, 0, 0, 0)]
    assert seat_view(run, 0)["wound"] == 1


@pytest.mark.parametrize("kind", ["no_defend", "no_support"])
def test_r5_flag_penalties_are_always_applicable(kind):
    cards = Cards()
    pen = cards(value=1, penalties=[kind])
    run = _penalty_position(("kyuzo", "katsushiro", "kanbei"), 0, pen, cards).play(
        turns=1, decisions=[PASS]
    )
    ok(run)
    assert events(run, EV_PEN_UNABLE) == []
    assert seat_view(run, 0)["wound"] == 0


def test_r5_must_pass_and_no_talent_never_wound():
    cards = Cards()
    must = cards(rank="boss", penalties=["must_pass"])
    run = _penalty_position(("kyuzo", "katsushiro", "kanbei"), 0, must, cards).play(turns=1)
    ok(run)
    assert events(run, EV_PEN_UNABLE) == [] and seat_view(run, 0)["wound"] == 0
    cards = Cards()
    nt = cards(rank="boss", penalties=["wound", "no_talent"])
    run = _penalty_position(("kyuzo", "katsushiro", "kanbei"), 0, nt, cards).play(
        turns=1, decisions=[0, PASS]
    )
    ok(run)
    assert events(run, EV_PEN_UNABLE) == []
    assert seat_view(run, 0)["wound"] == 1  # the printed wound only, nothing for no_talent


def test_r5_intruder_on_empty_stack_cannot_arise_at_a_turn_start():
    """R-5 lists 'intruder' on an empty raider stack; a turn never starts on an empty stack
    (the round is over, R-9), so the penalty is never met: no turn is played, no wound."""
    cards = Cards()
    pen = cards(value=1, symbol="none", penalties=["barricade"])
    intr = cards(value=1, symbol="hat", penalties=["intruder"])
    cfg = make_config("kyuzo", "katsushiro", "kanbei")
    pos = Position(cfg).line(0, [pen, intr]).turn(0)
    for s in range(3):
        pos.defence(s, cards.guard())
    run = pos.play(round_end=True)
    ok(run)
    assert events(run, EV_TURN) == []
    assert events(run, EV_PEN_UNABLE) == []
    assert seat_view(run, 0)["wound"] == 0
    assert events(run, EV_ROUND_END)[0][0] == 0


# --------------------------------------------------------------------------- R-6 boss order
def test_r6_two_boss_penalties_in_chosen_order():
    cards = Cards()
    boss = cards(rank="boss", penalties=["no_support", "wound"])
    pos = _penalty_position(("kyuzo", "katsushiro", "kanbei"), 0, boss, cards)
    run = pos.play(turns=1, decisions=[0, PASS])
    ok(run)
    assert [e[2] for e in events(run, EV_PENALTY)] == [PEN_NO_SUPPORT, PEN_WOUND]
    assert seat_view(run, 0)["wound"] == 1
    run = pos.play(turns=1, decisions=[1, PASS])
    ok(run)
    assert [e[2] for e in events(run, EV_PENALTY)] == [PEN_WOUND, PEN_NO_SUPPORT]
    assert seat_view(run, 0)["wound"] == 1


def test_r6_order_matters_wound_then_no_talent_for_gorobei():
    """Boss (wound, no_talent) on Gorobei: in file order the wound comes first and Gorobei may
    ignore it (even card); applied second (forced decision 1) the no_talent already binds him."""
    cards = Cards()
    boss = cards(rank="boss", penalties=["wound", "no_talent"])
    pos = _penalty_position(("gorobei", "katsushiro", "kanbei"), 0, boss, cards)
    run = pos.play(turns=1, decisions=[0, 1, PASS])
    ok(run)
    assert [e[2] for e in events(run, EV_PENALTY)] == [PEN_WOUND, PEN_NO_TALENT]
    assert events(run, EV_PEN_IGNORED) == [(0, boss, PEN_WOUND, 0, 0, 0)]
    assert seat_view(run, 0)["wound"] == 0
    run = pos.play(turns=1, decisions=[1, PASS])
    ok(run)
    assert [e[2] for e in events(run, EV_PENALTY)] == [PEN_NO_TALENT, PEN_WOUND]
    assert events(run, EV_PEN_IGNORED) == []
    assert seat_view(run, 0)["wound"] == 1


# --------------------------------------------------------------------------- lose_defence
@pytest.mark.parametrize(
    "held, lost",
    [
        (("hat", "farm", "doll"), "doll"),
        (("hat", "farm"), "farm"),
        (("hat",), "hat"),
        (("farm", "doll"), "doll"),
    ],
)
def test_lose_defence_reference_discards_doll_else_farm_else_hat(held, lost):
    """Section 7 lose_defence with the reference (REFERENCE_STRATEGY step 2): doll, else
    farm, else hat."""
    cards = Cards()
    boss = cards(rank="boss", penalties=["lose_defence"])
    def_cards = {sym: cards(value=1, symbol=sym) for sym in held}
    pos = _penalty_position(("kyuzo", "katsushiro", "kanbei"), 0, boss, cards).defence(
        0, list(def_cards.values())
    )
    run = pos.play(turns=1)  # the reference answers the choice (and then fights a filler)
    ok(run)
    assert events(run, EV_LOSE_DEFENCE) == [(0, def_cards[lost], 0, 0, 0, 0)]
    assert village_view(run)["discard"] == [def_cards[lost]]
    slots = {"hat": 0, "farm": 1, "doll": 2}
    d = seat_view(run, 0)["defence"]
    for sym, c in def_cards.items():
        assert d[slots[sym]] == (-1 if sym == lost else c)


def test_lose_defence_choice_is_asked():
    """Section 7 / section 13 point 2: which defence card goes is a decision."""
    cards = Cards()
    boss = cards(rank="boss", penalties=["lose_defence"])
    hat, doll = cards(value=1, symbol="hat"), cards(value=1, symbol="doll")
    pos = _penalty_position(("kyuzo", "katsushiro", "kanbei"), 0, boss, cards).defence(
        0, [hat, doll]
    )
    run = pos.play(turns=1, decisions=[0, PASS])  # 0 = the hat
    ok(run)
    assert village_view(run)["discard"] == [hat]
    assert seat_view(run, 0)["defence"] == [-1, -1, doll]


# --------------------------------------------------------------------------- section 3 action
def test_forced_pass_above_kiai_asks_nothing():
    """Section 3: a total above the Kiai at the moment of the action forces Pass; the action is
    not asked (the forced decision is left unused)."""
    cards = Cards()
    line = [
        cards(value=4, symbol="none"),
        cards(value=4, symbol="hat", penalties=[]),
        cards(value=2, symbol="doll", penalties=[]),
    ]
    pos = (
        Position(make_config("kyuzo", "katsushiro", "kanbei"))
        .line(0, line)
        .raider([cards(value=1, symbol="none")])
        .turn(0)
    )
    run = pos.play(turns=1, decisions=[FIGHT])
    ok(run)
    assert seat_view(run, 0)["total"] == 10 > seat_view(run, 0)["kiai"] == 9
    assert events(run, EV_PASS) == [(0, 1, 0, 0, 0, 0)]
    assert seat_view(run, 0)["passed"]
    assert run.book.fd_pos == 0
    assert events(run, EV_FIGHT) == []


def test_must_pass_boss_forces_pass():
    """Section 3 / section 7: the boss's 'must pass' forces Pass; the action is not asked."""
    cards = Cards()
    boss = cards(rank="boss", penalties=["must_pass"])
    pos = _penalty_position(("kyuzo", "katsushiro", "kanbei"), 0, boss, cards)
    run = pos.play(turns=1, decisions=[FIGHT])
    ok(run)
    assert events(run, EV_PASS) == [(0, 2, 0, 0, 0, 0)]
    assert seat_view(run, 0)["passed"]
    assert run.book.fd_pos == 0
    assert village_view(run)["raider_n"] == 2


def test_pass_leaves_the_round_and_skips_later_turns():
    """Section 3, Pass: out of the round, no more turns."""
    cards = Cards()
    cfg = make_config("kyuzo", "katsushiro", "kanbei")
    pos = Position(cfg).raider([cards(penalties=[]) for _ in range(5)]).turn(0)
    run = pos.play(turns=5, decisions=[PASS])
    ok(run)
    assert [e[0] for e in events(run, EV_TURN)] == [0, 1, 2, 1, 2]
    assert run.pub.round_no == 1
    assert seat_view(run, 0)["passed"] and seat_view(run, 0)["line"] == []


def test_support_hands_token_and_moves_top_card_to_intruder():
    """Section 3, Support: own token to a samurai still in, top raider card unseen to the
    intruder stack."""
    cards = Cards()
    top, second = cards(value=3, symbol="none"), cards(value=1, symbol="none")
    pos = Position(make_config("gorobei", "kyuzo", "heihachi")).raider([top, second]).turn(0)
    run = pos.play(turns=1, decisions=[support(2)])
    ok(run)
    assert events(run, EV_SUPPORT) == [(0, 2, top, 0, 0, 0)]
    assert seat_view(run, 0)["holder"] == 2
    assert intruder_top_first(run) == [top]
    assert raider_top_first(run) == [second]
    assert not seat_view(run, 0)["passed"]


def test_support_receiver_uses_talent_in_next_turn_penalty_step_then_returns_it():
    """Section 3 / R-20: Gorobei supports Kyuzo; in Kyuzo's next turn Gorobei's talent ignores
    the even card's penalty; the token goes home at the end of that turn."""
    cards = Cards()
    even = cards(value=2, symbol="none", penalties=["barricade"])
    pos = Position(make_config("gorobei", "kyuzo", "heihachi")).line(1, [even])
    pos.raider(
        [cards(value=1, symbol="hat"), cards(value=1, symbol="doll"), cards(value=1, symbol="farm")]
    ).turn(0)
    run = pos.play(turns=2, decisions=[support(1), 1, PASS])
    ok(run)
    assert events(run, EV_PEN_IGNORED) == [(1, even, 1, 0, 0, 0)]
    assert village_view(run)["barricades"] == 5
    assert events(run, EV_TOKEN_RETURN) == [(0, 1, 0, 0, 0, 0)]
    assert seat_view(run, 0)["holder"] == 0
    # after one turn only (Gorobei's own) the token is still with Kyuzo
    mid = pos.play(turns=1, decisions=[support(1)])
    assert seat_view(mid, 0)["holder"] == 1 and events(mid, EV_TOKEN_RETURN) == []


def test_support_illegal_under_no_support():
    """Section 3: Support is not legal under 'no support'."""
    cards = Cards()
    nosup = cards(value=1, symbol="farm", penalties=["no_support"])
    pos = _penalty_position(("gorobei", "kyuzo", "heihachi"), 0, nosup, cards)
    run = pos.play(turns=1, decisions=[support(1)])
    assert run.book.err == ERR_FORCED
    assert events(run, EV_SUPPORT) == []
    assert seat_view(run, 0)["holder"] == 0


def test_support_illegal_without_own_token():
    """Section 3: Support is legal only while holding one's own token."""
    cards = Cards()
    pos = (
        Position(make_config("gorobei", "kyuzo", "heihachi"))
        .raider([cards(value=1, symbol="none")])
        .turn(0)
    )
    pos.token(0, 2)  # Gorobei's token is with Heihachi
    run = pos.play(turns=1, decisions=[support(1)])
    assert run.book.err == ERR_FORCED
    assert events(run, EV_SUPPORT) == []


def test_support_only_to_samurai_still_in():
    """Section 3: the token goes to another samurai who has not passed."""
    cards = Cards()
    pos = Position(make_config("gorobei", "kyuzo", "heihachi")).raider(
        [cards(value=1, symbol="none"), cards(value=2, symbol="none")]
    )
    pos.turn(0).passed(1)
    bad = pos.play(turns=1, decisions=[support(1)])
    assert bad.book.err == ERR_FORCED and events(bad, EV_SUPPORT) == []
    good = pos.play(turns=1, decisions=[support(2)])
    ok(good)
    assert seat_view(good, 0)["holder"] == 2
    self_support = pos.play(turns=1, decisions=[support(0)])
    assert self_support.book.err == ERR_FORCED


# --------------------------------------------------------------------------- no_talent
def test_no_talent_stops_kikuchiyo_second_fight():
    """Boss 'no talent' (section 7, R-7b, R-20a) suspends Kikuchiyo's extra fight; with another
    boss (no_support, wound) in the same place he does fight twice."""
    for boss_pens, fights in ((["wound", "no_talent"], 1), (["no_support", "wound"], 2)):
        cards = Cards()
        boss = cards(rank="boss", penalties=boss_pens)
        cfg = make_config("kikuchiyo", "kyuzo", "kanbei")
        pos = (
            Position(cfg)
            .line(0, [boss])
            .raider(
                [
                    cards(value=1, symbol="none"),
                    cards(value=1, symbol="hat"),
                    cards(value=2, symbol="none"),
                ]
            )
            .turn(0)
        )
        for s in range(3):
            pos.defence(s, cards.guard())
        run = pos.play(turns=1)
        ok(run)
        assert len(events(run, EV_REVEAL)) == fights, story(run)
        assert len(events(run, EV_FIGHT_AGAIN)) == fights - 1
        assert seat_view(run, 0)["wound"] == 1


def test_no_talent_suspends_support_token_talent():
    """Section 7 / R-20a: the holder of Gorobei's token may ignore an even card's penalty, but
    not once a 'no talent' of the same boss is in force (order forced: no_talent first)."""
    cards = Cards()
    boss = cards(rank="boss", penalties=["wound", "no_talent"])
    pos = _penalty_position(("gorobei", "kyuzo", "heihachi"), 1, boss, cards).token(0, 1)
    first_wound = pos.play(turns=1, decisions=[0, 1, PASS])
    ok(first_wound)
    assert seat_view(first_wound, 1)["wound"] == 0
    assert events(first_wound, EV_PEN_IGNORED) == [(1, boss, PEN_WOUND, 0, 0, 0)]
    talent_off = pos.play(turns=1, decisions=[1, PASS])
    ok(talent_off)
    assert seat_view(talent_off, 1)["wound"] == 1
    assert events(talent_off, EV_PEN_IGNORED) == []


def test_no_talent_suspends_own_talent_on_revealed_card():
    """Section 7 / R-20a: Katsushiro under 'no talent' may not redraw: the revealed card must
    be played."""
    cards = Cards()
    boss = cards(rank="boss", penalties=["wound", "no_talent"])
    c1, c2 = cards(value=3, symbol="none"), cards(value=1, symbol="none")
    cfg = make_config("katsushiro", "kyuzo", "kanbei")
    pos = Position(cfg).line(0, [boss]).raider([c1, c2]).turn(0)
    for s in range(3):
        pos.defence(s, cards.guard())
    run = pos.play(turns=1, decisions=[0, FIGHT, CARD_REDRAW])
    ok(run)
    assert events(run, EV_REDRAW) == []
    assert run.book.fd_pos == 2  # the card question had one option: never asked
    assert seat_view(run, 0)["line"] == [boss, c1]
    # control: with a boss without 'no talent' the redraw is taken
    cards = Cards()
    boss = cards(rank="boss", penalties=["no_support", "wound"])
    c1, c2 = cards(value=3, symbol="none"), cards(value=1, symbol="none")
    pos = Position(cfg).line(0, [boss]).raider([c1, c2]).turn(0)
    for s in range(3):
        pos.defence(s, cards.guard())
    run = pos.play(turns=1, decisions=[0, FIGHT, CARD_REDRAW])
    ok(run)
    assert events(run, EV_REDRAW) == [(0, c1, 0, 0, 0, 0)]
    assert seat_view(run, 0)["line"] == [boss, c2]


# --------------------------------------------------------------------------- R-18 absent tokens
def test_r18_absent_tokens_default_and_option():
    two = make_config("kyuzo", "heihachi")
    three = make_config("kyuzo", "heihachi", "gorobei")
    assert two.absent_on and not three.absent_on
    assert make_config("kyuzo", "heihachi", "gorobei", absent_tokens="on").absent_on
    assert not make_config("kyuzo", "heihachi", absent_tokens="off").absent_on
    six = make_config(*SAMURAI[:6], absent_tokens="on")
    assert six.absent_on
    with pytest.raises(ConfigError):
        make_config(*SAMURAI, absent_tokens="on")
    present = (1 << SAMURAI.index("kyuzo")) | (1 << SAMURAI.index("heihachi"))
    run = run_one(two, seed=3, stop_after_turns=0)
    assert run.pub.absent_on == 1 and run.pub.absent_avail == 127 & ~present
    run = run_one(three, seed=3, stop_after_turns=0)
    assert run.pub.absent_on == 0 and run.pub.absent_avail == 0
    run = run_one(
        make_config("kyuzo", "heihachi", "gorobei", absent_tokens="on"), seed=3, stop_after_turns=0
    )
    assert run.pub.absent_avail == 127 & ~(present | 1 << GOROBEI)


def test_r18_absent_token_lends_talent_for_the_round_once_per_game():
    """Section 11: Kyuzo uses Gorobei's absent token before his penalty and ignores the even
    card's penalty; the token is spent for the game, its talent kept to the end of the round."""
    cards = Cards()
    even = cards(value=2, symbol="none", penalties=["barricade"])
    cfg = make_config("kyuzo", "heihachi")
    pos = Position(cfg).line(0, [even]).raider([cards(value=1, symbol="none")]).turn(0)
    for s in range(2):
        pos.defence(s, cards.guard())
    run = pos.play(turns=1, decisions=[1 << GOROBEI, 1, PASS])
    ok(run)
    assert events(run, EV_ABSENT) == [(0, 1 << GOROBEI, 0, 0, 0, 0)]
    assert events(run, EV_PEN_IGNORED) == [(0, even, 1, 0, 0, 0)]
    assert run.pub.lent[0] == 1 << GOROBEI
    assert not run.pub.absent_avail & (1 << GOROBEI)
    # without the token the penalty bites
    run = pos.play(turns=1, decisions=[0, PASS])
    ok(run)
    assert village_view(run)["barricades"] == 3
    # next round: the lent talent is gone and the token stays used
    # the one raider card is fought: the round ends, round 2 is set up
    later = pos.play(turns=1, decisions=[1 << GOROBEI, 1, FIGHT])
    ok(later)
    assert later.pub.round_no == 2, story(later)
    assert later.pub.lent[0] == 0
    assert not later.pub.absent_avail & (1 << GOROBEI)
    # once per game: Heihachi, opening round 2, may not use Gorobei's token again
    again = pos.play(turns=2, decisions=[1 << GOROBEI, 1, FIGHT, 1 << GOROBEI])
    assert again.pub.round_no == 2
    assert again.book.err == ERR_FORCED
    assert events(again, EV_ABSENT) == [(0, 1 << GOROBEI, 0, 0, 0, 0)]


def test_r20a_no_talent_also_suspends_a_used_absent_token():
    """Kyuzo uses Gorobei's absent token; the boss (wound, no_talent) in reversed order puts
    'no talent' first, so the wound may no longer be ignored."""
    cards = Cards()
    boss = cards(rank="boss", penalties=["wound", "no_talent"])
    cfg = make_config("kyuzo", "heihachi")
    pos = (
        Position(cfg)
        .line(0, [boss])
        .raider([cards(value=1, symbol="none"), cards(value=2, symbol="none")])
        .turn(0)
    )
    run = pos.play(turns=1, decisions=[1 << GOROBEI, 0, 1, PASS])  # file order: wound ignored
    ok(run)
    assert seat_view(run, 0)["wound"] == 0
    run = pos.play(turns=1, decisions=[1 << GOROBEI, 1, PASS])  # no_talent first
    ok(run)
    assert seat_view(run, 0)["wound"] == 1
    assert events(run, EV_PEN_IGNORED) == []


def test_r20a_absent_token_works_outside_own_turn():
    """R-20a: an absent token, once used, lends its talent outside the user's turns too: Kyuzo
    (with Katsushiro's absent token) redraws a card Heihachi gives him in Heihachi's turn."""
    cards = Cards()
    a = cards(value=1, symbol="none")
    b = cards(value=2, symbol="none")
    c = cards(value=3, symbol="none")
    d = cards(value=4, symbol="none")
    cfg = make_config("heihachi", "kyuzo")
    pos = Position(cfg).raider([a, b, c, d]).turn(1)
    for s in range(2):
        pos.defence(s, cards.guard())
    dec = [1 << KATSUSHIRO, FIGHT, CARD_CONFRONT, 0, FIGHT, CARD_GIVE_LEFT, CARD_REDRAW]
    run = pos.play(turns=2, decisions=dec)
    ok(run)
    assert events(run, EV_GIVE) == [(0, 1, b, 0, 0, 0)]
    assert events(run, EV_REDRAW) == [(1, b, 0, 0, 0, 0)]
    assert seat_view(run, 1)["line"] == [a, c]
    assert raider_top_first(run) == [d, b]
    # without the absent token, the redraw is not a legal option
    dec = [0, FIGHT, 0, FIGHT, CARD_GIVE_LEFT, CARD_REDRAW]
    run = pos.play(turns=2, decisions=dec)
    ok(run)
    assert events(run, EV_REDRAW) == []
    assert run.book.fd_pos == 5  # Kyuzo's card question had one option: never asked
    assert seat_view(run, 1)["line"] == [a, b]


# --------------------------------------------------------------------------- R-20 / R-20a tokens
def test_r20_several_tokens_lend_all_their_talents_and_all_return():
    """R-20: a samurai may hold several tokens and has all their talents: Kyuzo, holding
    Gorobei's and Kanbei's tokens, ignores an odd card's penalty (Kanbei's talent); both tokens
    go home at the end of his turn."""
    cards = Cards()
    odd = cards(value=3, symbol="none", penalties=["wound"])
    cfg = make_config("gorobei", "kyuzo", "kanbei")
    pos = (
        Position(cfg)
        .line(1, [odd])
        .raider([cards(value=1, symbol="none"), cards(value=2, symbol="none")])
    )
    pos.turn(1).token(0, 1).token(2, 1)
    run = pos.play(turns=1, decisions=[1, PASS])
    ok(run)
    assert events(run, EV_PEN_IGNORED) == [(1, odd, PEN_WOUND, 0, 0, 0)]
    assert seat_view(run, 1)["wound"] == 0
    assert sorted(events(run, EV_TOKEN_RETURN)) == [(0, 1, 0, 0, 0, 0), (2, 1, 0, 0, 0, 0)]
    assert seat_view(run, 0)["holder"] == 0 and seat_view(run, 2)["holder"] == 2
    # with Gorobei's token only, the odd card's wound cannot be ignored
    pos = (
        Position(cfg)
        .line(1, [odd])
        .raider([cards(value=1, symbol="hat"), cards(value=2, symbol="hat")])
    )
    run = pos.turn(1).token(0, 1).play(turns=1, decisions=[PASS])
    ok(run)
    assert seat_view(run, 1)["wound"] == 1


def test_r20a_support_token_talent_only_in_receivers_own_turn():
    """Kikuchiyo holds Kyuzo's token; a card Heihachi gives him outside his turn matching a value
    in his line may not be discarded with Kyuzo's talent; in his own turn it may."""
    cards = Cards()
    four = cards(value=4, symbol="none", penalties=["wound"])
    given = cards(value=4, symbol="doll", penalties=[])
    cfg = make_config("heihachi", "kikuchiyo", "kyuzo")
    pos = (
        Position(cfg)
        .line(1, [four])
        .raider([given, cards(value=1, symbol="none")])
        .turn(0)
        .token(2, 1)
    )
    for s in range(3):
        pos.defence(s, cards.guard())
    run = pos.play(turns=1, decisions=[FIGHT, CARD_GIVE_LEFT])
    ok(run)
    assert events(run, EV_KYUZO_DISCARD) == []
    assert seat_view(run, 1)["line"] == [four, given]
    # in Kikuchiyo's own turn the same token lets him discard the matching card
    cards = Cards()
    four = cards(value=4, symbol="none", penalties=["wound"])
    drawn = cards(value=4, symbol="doll", penalties=[])
    fill = [cards(value=1, symbol="none"), cards(value=2, symbol="none")]
    pos = Position(cfg).line(1, [four]).raider([drawn] + fill).turn(1).token(2, 1)
    for s in range(3):
        pos.defence(s, cards.guard())
    run = pos.play(turns=1)
    ok(run)
    assert events(run, EV_KYUZO_DISCARD) == [(1, drawn, 0, 0, 0, 0)], story(run)
    assert village_view(run)["discard"] == [drawn]
    assert seat_view(run, 2)["holder"] == 2  # returned at the end of his turn


def test_r20_token_taken_with_kyuzo_kiai_in_own_turn_works_then_returns():
    """R-20: Kyuzo reaches his Kiai in his own turn and (effect) has Kikuchiyo hand him his
    token; Kikuchiyo's talent then gives Kyuzo a second fight, and the token returns at the end
    of the turn."""
    cards = Cards()
    five = cards(value=5, symbol="none", penalties=["barricade"])
    four = cards(value=4, symbol="none", penalties=["wound"])
    again = cards(value=1, symbol="none", penalties=["barricade"])
    cfg = make_config("kyuzo", "kikuchiyo", "kanbei")
    pos = Position(cfg).line(0, [five]).raider([four, again, cards(value=2, symbol="none")]).turn(0)
    for s in range(3):
        pos.defence(s, cards.guard())
    run = pos.play(turns=1, decisions=[FIGHT, KIAI_EFFECT, 1 * 8 + 0])
    ok(run)
    assert events(run, EV_KYUZO_TOKEN) == [(1, 0, 0, 0, 0, 0)]
    assert events(run, EV_FIGHT_AGAIN) == [(0, 0, 0, 0, 0, 0)], story(run)
    assert seat_view(run, 0)["line"] == [four, again]
    assert events(run, EV_TOKEN_RETURN) == [(1, 0, 0, 0, 0, 0)]
    assert seat_view(run, 1)["holder"] == 1


def test_r20_kyuzo_kiai_out_of_turn_token_kept_until_his_own_turn():
    """Rulebook note on Kyuzo's Kiai: reaching it in another's turn (a card given to him), he
    takes Gorobei's token; it is not returned at the end of that turn, it serves in his own next
    turn (ignoring an even card's penalty) and goes home at the end of it."""
    cards = Cards()
    five = cards(value=5, symbol="none", penalties=["barricade"])
    given = cards(value=4, symbol="none", penalties=["wound"])
    cfg = make_config("heihachi", "kyuzo", "gorobei")
    pos = (
        Position(cfg)
        .line(1, [five])
        .raider([given, cards(value=1, symbol="none"), cards(value=2, symbol="none")])
        .turn(0)
    )
    for s in range(3):
        pos.defence(s, cards.guard())
    dec = [FIGHT, CARD_GIVE_LEFT, KIAI_EFFECT, 2 * 8 + 1]
    one = pos.play(turns=1, decisions=dec)
    ok(one)
    assert events(one, EV_KYUZO_TOKEN) == [(2, 1, 0, 0, 0, 0)]
    assert seat_view(one, 1)["line"] == [given]  # the 5 was shed
    assert seat_view(one, 2)["holder"] == 1
    assert events(one, EV_TOKEN_RETURN) == []
    two = pos.play(turns=2, decisions=dec + [1, PASS])
    ok(two)
    assert events(two, EV_PEN_IGNORED) == [(1, given, PEN_WOUND, 0, 0, 0)], story(two)
    assert seat_view(two, 1)["wound"] == 0
    assert events(two, EV_TOKEN_RETURN) == [(2, 1, 0, 0, 0, 0)]
    assert seat_view(two, 2)["holder"] == 2
