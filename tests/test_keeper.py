"""The slot keeper (strategies/keeper.py) and the shared rules of thumb it brought to light: a
defence slot is spent on a card whose penalty is dear (section 3: the last card's penalty is
paid at every turn), a Kiai does not hide the penalty of the card that lands on it, and a
samurai one wound from death still fights for the hat he lacks (section 9, step 1)."""

import pytest
from conftest import Cards, events, make_config, ok, story
from scenario import Position

from kiai.simcore.events import EV_CONFRONT, EV_DEFEND, EV_FIGHT
from kiai.simcore.questions import ACT_FIGHT

pytestmark = pytest.mark.usefixtures("engine", "one_thread")

SEATS = ("heihachi", "kyuzo", "kikuchiyo")  # seat 0 gives even cards only: the tests draw odd ones


def _placement(run, card):
    """'confront' or 'defend': what seat 0 did with `card`."""
    if any(e[:2] == (0, card) for e in events(run, EV_CONFRONT)):
        return "confront"
    if any(e[:2] == (0, card) for e in events(run, EV_DEFEND)):
        return "defend"
    raise AssertionError(story(run))


def _farm_position(strategy, top, more_farms=True, last_penalty="barricade"):
    """Seat 0 (Heihachi, Kiai 8) holds a hat and a doll but no farm, and a line of one 2 whose
    penalty is `last_penalty`; the raider stack holds `top`, then (if more_farms) four farm
    cards with dear penalties, then harmless cards without a symbol."""
    cards = Cards()
    cards.take(top)
    cfg = make_config(*SEATS, strategy=strategy)
    pos = Position(cfg)
    pens = [last_penalty] if last_penalty else []
    pos.line(0, [cards(value=2, symbol="none" if last_penalty == "barricade" else None, penalties=pens)])
    pos.defence(0, [cards(value=4, symbol="hat", penalties=["barricade"]), cards(value=4, symbol="doll", penalties=["wound"])])
    for s in (1, 2):
        pos.defence(s, cards.guard())
    stack = [top]
    if more_farms:
        stack += [cards(value=v, symbol="farm", penalties=[p]) for v, p in ((1, "barricade"), (2, "wound"), (3, "wound"), (4, "barricade"))]
    stack += [cards(value=1, symbol="none", penalties=["barricade"]), cards(value=3, symbol="none", penalties=["wound"])]
    return pos.raider(stack).turn(0)


def test_keeper_confronts_a_harmless_card_that_covers_a_dear_last_card():
    """Section 3: the barricade card last in his line costs a barricade at each of his turns;
    a penalty-free farm card confronted on top of it stops that, and the farm slot stays open
    for the dear farm cards still unseen. `risk` spends the slot at once."""
    top = Cards()(value=1, symbol="farm", penalties=["no_support"])
    run = _farm_position("keeper", top).play(turns=1)
    ok(run)
    assert _placement(run, top) == "confront"
    run = _farm_position("risk", top).play(turns=1)
    assert _placement(run, top) == "defend"


def test_keeper_defends_a_card_with_a_dear_penalty():
    """Behind a harmless last card, a wound card confronted would cost a wound next turn;
    defended it costs nothing."""
    top = Cards()(value=1, symbol="farm", penalties=["wound"])
    run = _farm_position("keeper", top, last_penalty=None).play(turns=1)
    ok(run)
    assert _placement(run, top) == "defend"


def test_keeper_takes_the_symbol_when_no_other_card_shows_it():
    """Counting (section 12): with no other farm card unseen the slot cannot wait, and a farm
    missing at the end of the round costs a farmstead."""
    top = Cards()(value=1, symbol="farm", penalties=["no_support"])
    run = _farm_position("keeper", top, more_farms=False).play(turns=1)
    ok(run)
    assert _placement(run, top) == "defend"


@pytest.mark.parametrize("strategy", ["risk", "keeper"])
def test_one_wound_from_death_he_still_fights_for_a_missing_hat(strategy):
    """Section 9 step 1: at animal+token a samurai without a hat dies at the end of the round,
    so passing is no refuge; with a hat he passes (test_strategies covers that side)."""
    cards = Cards()
    cfg = make_config("gorobei", "kanbei", "kyuzo", strategy=strategy)
    pos = Position(cfg).wound(0, 3)
    pos.defence(0, [cards(value=4, symbol="farm", penalties=["barricade"]), cards(value=4, symbol="doll", penalties=["wound"])])
    for s in (1, 2):
        pos.defence(s, cards.guard())
    stack = [cards(value=3, symbol="none", penalties=["wound"]), cards(value=1, symbol="hat", penalties=["intruder"])]
    run = pos.raider(stack + [cards(value=2, symbol="none", penalties=["barricade"])]).turn(0).play(turns=1)
    ok(run)
    assert events(run, EV_FIGHT) and events(run, EV_FIGHT)[0][0] == 0, story(run)


def test_a_kiai_does_not_hide_a_deadly_penalty():
    """The card that lands on the Kiai stays last in the line (the oldest card is shed), so its
    penalty is paid at the next turn: one wound from death, a Kiai seeker that prizes a Kiai
    above a defence still defends a wound card rather than land on the Kiai with it."""
    cards = Cards()
    cfg = make_config(*SEATS, strategy="kiai", params={"bonus": 6.0})
    pos = Position(cfg).wound(0, 3)  # Heihachi animal: Kiai 11
    card = cards(value=3, symbol="farm", penalties=["wound"])
    pos.line(0, [cards(value=4, symbol="none", penalties=["wound"]), cards(value=4, penalties=[])])  # total 8
    pos.defence(0, [cards(value=4, symbol="hat", penalties=["barricade"]), cards(value=4, symbol="doll", penalties=["barricade"])])
    for s in (1, 2):
        pos.defence(s, cards.guard())
    pos.raider([card, cards(value=1, symbol="none", penalties=["barricade"])]).turn(0)
    run = pos.play(turns=1, decisions=[ACT_FIGHT])
    ok(run)
    assert _placement(run, card) == "defend"
