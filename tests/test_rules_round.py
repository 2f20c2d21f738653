"""The end of a round, the next round, setup checks and public information.

docs/rules.md sections 2, 9, 10, 11, 12 and decisions R-16, R-16a, R-17, R-18, R-19a.
"""

import numpy as np
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
    BOSS,
    FAM_ADD_BARRICADE,
    FAM_HEAL_RANDOM,
    FAM_INTRUDER_TO_DISCARD,
    LIEUTENANT,
    SYM_DOLL,
)
from kiai.simcore.components import default_components_path, load_components
from kiai.simcore.events import (
    EV_BARR_ADDED,
    EV_BARR_LOST,
    EV_BONUS,
    EV_EOR_STEP,
    EV_FAMILY_LOST,
    EV_FARM_LOST,
    EV_FLAME,
    EV_HEAL,
    EV_ROUND_END,
    EV_ROUND_START,
    EV_WOUND,
)
from kiai.simcore.questions import ACT_FIGHT, ACT_PASS
from kiai.strategies.run.games import run_one

pytestmark = pytest.mark.usefixtures("engine", "one_thread")

PASS = ACT_PASS
FIGHT = ACT_FIGHT

_EOR_CODES = (
    EV_EOR_STEP,
    EV_WOUND,
    EV_FARM_LOST,
    EV_FAMILY_LOST,
    EV_BONUS,
    EV_FLAME,
    EV_BARR_LOST,
    EV_HEAL,
)



def eor(run):
    """The end-of-round events, (code, a, b) each."""
    return [(int(r[0]), int(r[2]), int(r[3])) for r in run.events if int(r[0]) in _EOR_CODES]


# --------------------------------------------------------------------------- section 9 steps
def test_end_of_round_steps_in_exact_order():
    """Section 9: steps 1-4, each for all seats before the next; family bonuses in file order
    after the losses; bonus C takes the top intruder card; then the intruder stack is revealed."""
    cards = Cards()
    cfg = make_config("kyuzo", "katsushiro", "kanbei")
    r = cards(value=1, symbol="none", flames=False)
    x = cards(value=2, symbol="none", flames=False)
    y = cards(value=2, symbol="hat", flames=True)
    pos = Position(cfg).defence(
        1, [cards(value=1, symbol="farm"), cards(value=1, symbol="doll")]
    )  # no hat
    pos.defence(2, cards.guard())  # seat 0 holds nothing
    pos.raider([r]).intruder([x, y]).passed(0, 1, 2).turn(0).village(barricades=3)
    run = pos.play(
        round_end=True, randoms=[4, 1, 2]
    )  # farmstead pick, family B lost, bonus A -> seat 2
    ok(run)
    assert eor(run) == [
        (EV_EOR_STEP, 1, 0),
        (EV_WOUND, 0, 1),
        (EV_WOUND, 1, 1),
        (EV_EOR_STEP, 2, 0),
        (EV_FARM_LOST, -1, 5),
        (EV_EOR_STEP, 3, 0),
        (EV_FAMILY_LOST, 1, 2),
        (EV_BONUS, 0, FAM_HEAL_RANDOM),
        (EV_BONUS, 2, FAM_INTRUDER_TO_DISCARD),
        (EV_EOR_STEP, 4, 0),
        (EV_FLAME, x, 0),
        (EV_FLAME, y, 1),
        (EV_BARR_LOST, 2, 0),
    ], story(run)
    assert village_view(run)["discard"] == [r, x, y]
    assert village_view(run)["intruder_n"] == 0


def test_family_bonuses_all_three_in_file_order():
    """Section 9 step 3: bonuses A, B, C in the component file's order."""
    cards = Cards()
    cfg = make_config("kyuzo", "katsushiro", "kanbei")
    pos = Position(cfg)
    for s in range(3):
        pos.defence(s, cards.guard())
    top, under = cards(value=1, symbol="none"), cards(value=2, symbol="none")
    pos.intruder([top, under]).raider([cards(value=3, symbol="none")]).turn(0).village(barricades=2)
    run = pos.play(round_end=True, decisions=[FIGHT], randoms=[0])
    ok(run)
    assert [e[:2] for e in events(run, EV_BONUS)] == [
        (0, FAM_HEAL_RANDOM),
        (1, FAM_ADD_BARRICADE),
        (2, FAM_INTRUDER_TO_DISCARD),
    ]
    assert events(run, EV_BARR_ADDED) == [(3, 0, 0, 0, 0, 0)]
    assert [e[0] for e in events(run, EV_FLAME)] == [under]  # C took the top card first
    assert village_view(run)["discard"][:2] == [top, under]


def test_family_bonuses_skipped_at_heroic():
    """Sections 9 and 10, Heroic: a samurai without a doll still loses a family, but no bonus
    is given."""
    cards = Cards()
    cfg = make_config("kyuzo", "katsushiro", "kanbei", difficulty="heroic")
    pos = Position(cfg).defence(0, [cards(value=1, symbol="hat"), cards(value=1, symbol="farm")])
    for s in (1, 2):
        pos.defence(s, cards.guard())
    top, under = cards(value=1, symbol="none"), cards(value=2, symbol="none")
    pos.intruder([top, under]).raider([cards(value=3, symbol="none")]).turn(0).village(
        barricades=2
    ).wound(1, 1)
    run = pos.play(round_end=True, decisions=[FIGHT], randoms=[0])
    ok(run)
    assert events(run, EV_FAMILY_LOST) == [(0, 2, 0, 0, 0, 0)]
    assert events(run, EV_BONUS) == []
    assert village_view(run)["barricades"] == 2
    assert seat_view(run, 1)["wound"] == 1
    assert [e[0] for e in events(run, EV_FLAME)] == [top, under]


def test_r11_family_bonus_b_never_above_setup_barricades():
    cards = Cards()
    cfg = make_config("kyuzo", "katsushiro", "kanbei")
    pos = Position(cfg)
    for s in range(3):
        pos.defence(s, cards.guard())
    pos.raider([cards(value=1, symbol="none")]).passed(0, 1, 2).turn(0)
    run = pos.play(round_end=True, randoms=[0])
    ok(run)
    assert (1, FAM_ADD_BARRICADE) in [e[:2] for e in events(run, EV_BONUS)]
    assert events(run, EV_BARR_ADDED) == []
    assert village_view(run)["barricades"] == 5 == run.pub.barricades_max


def test_all_passed_moves_raider_stack_onto_intruder_stack_top_on_top():
    """Section 9: when all have passed, the raider stack goes onto the intruder stack in its
    order, its top card on top (seen in the order step 4 reveals them)."""
    cards = Cards()
    cfg = make_config("kyuzo", "katsushiro", "kanbei")
    pos = Position(cfg)
    for s in range(3):
        pos.defence(s, cards.guard())
    a, b, c = (
        cards(value=1, symbol="none"),
        cards(value=2, symbol="none"),
        cards(value=3, symbol="none"),
    )
    d, e = cards(value=1, symbol="hat"), cards(value=2, symbol="hat")
    pos.raider([a, b, c]).intruder([d, e]).passed(0, 2).turn(1).village(families=2)  # no bonus C
    run = pos.play(round_end=True, decisions=[PASS], randoms=[0])
    ok(run)
    assert events(run, EV_ROUND_END)[0][:2] == (1, 1)  # all passed; the last to pass: seat 1
    assert [ev[0] for ev in events(run, EV_FLAME)] == [a, b, c, d, e]


# --------------------------------------------------------------------------- R-16 next round
def _round_two(round_=1, difficulty="normal"):
    """Seat 0 fights the last raider card; cards lie in every zone (plunderers only, so that all
    seven lieutenants and bosses are out of play)."""
    cards = Cards()
    cfg = make_config("kyuzo", "katsushiro", "kanbei", difficulty=difficulty)
    last = cards(value=1, symbol="none")
    pos = Position(cfg)
    for s in range(3):
        pos.defence(
            s, [cards(value=v, symbol=sym) for v, sym in ((3, "hat"), (3, "farm"), (4, "doll"))]
        )
    pos.line(1, [cards(value=4, symbol="none"), cards(value=2, symbol="none")]).line(
        2, [cards(value=3, symbol="none")]
    )
    pos.discard([cards(value=1, symbol="doll")]).intruder([cards(value=2, symbol="doll")])
    pos.raider([last]).turn(0, round_=round_)
    pos.wound(1, 2).passed(2).token(0, 1).village(barricades=3, farmsteads=5, families=3)
    nc = int(pos.p.n_cards)
    in_play = {c for c in range(nc) if pos.p.out_of_play[c] == 0}
    assert len(in_play) == 15
    return pos, in_play


@pytest.mark.parametrize(
    "round_, difficulty, rank, added",
    [
        (1, "normal", LIEUTENANT, 3),
        (2, "normal", BOSS, 3),
        (1, "easy", LIEUTENANT, 2),
        (2, "easy", BOSS, 2),
    ],
)
def test_r16_next_round_gathers_every_card_and_adds_by_level(round_, difficulty, rank, added):
    pos, in_play = _round_two(round_, difficulty)
    run = pos.play(turns=1)
    ok(run)
    assert run.pub.round_no == round_ + 1
    stack = raider_top_first(run)
    comp = run.config.components
    assert len(stack) == len(in_play) + added
    assert in_play <= set(stack)
    new = [c for c in stack if c not in in_play]
    assert len(new) == added and all(comp.card_rank[c] == rank for c in new)
    for s in range(3):
        v = seat_view(run, s)
        assert (v["line"], v["total"], v["defence"], v["passed"], v["holder"]) == (
            [],
            0,
            [-1, -1, -1],
            False,
            s,
        )
    assert village_view(run)["discard"] == [] and village_view(run)["intruder_n"] == 0
    # wounds, sides, barricades, farmsteads and families carry over (+1 barricade: bonus B)
    assert seat_view(run, 1)["wound"] == 2 and seat_view(run, 1)["kiai"] == 13  # Katsushiro animal
    assert (
        village_view(run)["barricades"],
        village_view(run)["farmsteads"],
        village_view(run)["families"],
    ) == (4, 5, 3)
    assert run.pub.acting == 1  # left of the last active samurai (seat 0)


def test_r16_lieutenants_are_drawn_at_random():
    seen = set()
    for seed in range(12):
        pos, in_play = _round_two()
        run = pos.play(turns=1, seed=seed)
        seen |= {c for c in raider_top_first(run) if c not in in_play}
    assert len(seen) == 7


def test_r16_next_round_opens_left_of_the_last_to_pass():
    cards = Cards()
    cfg = make_config("kyuzo", "katsushiro", "kanbei")
    pos = Position(cfg)
    for s in range(3):
        pos.defence(s, cards.guard())
    pos.raider([cards(value=1, symbol="none"), cards(value=2, symbol="none")]).passed(0, 1).turn(2)
    run = pos.play(turns=1, decisions=[PASS])
    ok(run)
    assert events(run, EV_ROUND_END)[0][:2] == (1, 2)
    assert run.pub.round_no == 2 and run.pub.acting == 0


def test_r16a_scripted_raider_stack():
    cfg = make_config("kyuzo", "katsushiro", "kanbei", first_seat=0)
    deck1 = [12, 25, 38, 51, 0]
    deck2 = [55, 13, 26]
    run = run_one(cfg, seed=1, deck={1: deck1}, stop_after_turns=0)
    assert raider_top_first(run) == deck1
    assert int(run.pub.out_of_play[:66].sum()) == 66 - len(deck1)
    # both rounds scripted: each samurai defends a hat, a farm and a doll in round 1 (nothing is
    # lost), then round 2 holds exactly its script
    comp = cfg.components
    by_sym = {sym: [c for c in range(52) if comp.card_symbol[c] == sym][:3] for sym in (1, 2, 3)}
    deck1 = by_sym[1] + by_sym[2] + by_sym[3]
    run = run_one(cfg, seed=1, deck={1: deck1, 2: deck2}, stop_after_turns=9)
    ok(run)
    assert run.pub.round_no == 2
    assert raider_top_first(run) == deck2
    assert [e[1] for e in events(run, EV_ROUND_START)] == [9, 3]


# --------------------------------------------------------------------------- R-17 doll check
def _dolls(run):
    comp = run.config.components
    return sum(1 for c in raider_top_first(run) if comp.card_symbol[c] == SYM_DOLL)


@pytest.mark.parametrize("difficulty, kept", [("normal", 14), ("easy", 12)])
def test_r17_two_samurai_stack_shows_the_doll_at_least_twice(difficulty, kept):
    cfg = make_config("kyuzo", "heihachi", difficulty=difficulty)
    for seed in range(2000):
        run = run_one(cfg, seed, trace=False, check=False, stop_after_turns=0)
        assert village_view(run)["raider_n"] == kept
        assert _dolls(run) >= 2, seed


@pytest.fixture(scope="module")
def few_dolls(tmp_path_factory):
    """The default component file with only two doll plunderers (the rest turned to hats)."""
    text = default_components_path().read_text(encoding="utf-8")
    out, dolls = [], 0
    for line in text.splitlines():
        if 'rank = "plunderer"' in line and 'symbol = "doll"' in line:
            dolls += 1
            if dolls > 2:
                line = line.replace('symbol = "doll"', 'symbol = "hat"')
        out.append(line)
    path = tmp_path_factory.mktemp("comp") / "few_dolls.toml"
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return load_components(path)


def test_r17_doll_check_redraws_even_with_two_dolls_in_52(few_dolls):
    cfg = make_config("kyuzo", "heihachi", components=few_dolls)
    for seed in range(60):
        run = run_one(cfg, seed, trace=False, check=False, stop_after_turns=0)
        assert _dolls(run) == 2, seed


def test_r18_no_doll_check_with_three_samurai(few_dolls):
    cfg = make_config("kyuzo", "heihachi", "gorobei", components=few_dolls)
    counts = [
        _dolls(run_one(cfg, seed, trace=False, check=False, stop_after_turns=0))
        for seed in range(60)
    ]
    assert min(counts) < 2  # with 21 of 52 cards and 2 dolls, most stacks have fewer than 2


# --------------------------------------------------------------------------- R-19a
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_r19a_public_unseen_set_is_the_raider_and_intruder_stacks(seed):
    cfg = make_config("kyuzo", "katsushiro", "kanbei", "heihachi", strategy="random")
    for stop in (0, 5, 17, 40, 80):
        run = run_one(cfg, seed, stop_after_turns=stop)
        ok(run)
        nc = int(run.pub.n_cards)
        unseen = {c for c in range(nc) if run.pub.unseen[c]}
        assert unseen == set(raider_top_first(run)) | set(intruder_top_first(run))
        assert len(unseen) == village_view(run)["raider_n"] + village_view(run)["intruder_n"]
        out = {c for c in range(nc) if run.pub.out_of_play[c]}
        assert not (out & unseen)


# --------------------------------------------------------------------------- setup (sections 2, 10)
@pytest.mark.parametrize(
    "difficulty, extra, per", [("easy", 3, 6), ("normal", 2, 7), ("hard", 1, 7), ("heroic", 0, 7)]
)
@pytest.mark.parametrize("n", [2, 3, 5, 7])
def test_setup_by_level_and_samurai_count(difficulty, extra, per, n):
    """Sections 2 and 10: barricades n + k, p x n plunderers, 6 farmsteads, 3 families,
    boards human and clean, own tokens."""
    names = ("kyuzo", "katsushiro", "kanbei", "heihachi", "daisuke", "gorobei", "kikuchiyo")[:n]
    run = run_one(
        make_config(*names, difficulty=difficulty), seed=n, trace=False, stop_after_turns=0
    )
    ok(run)
    v = village_view(run)
    assert (v["barricades"], run.pub.barricades_max) == (n + extra, n + extra)
    assert (v["farmsteads"], v["families"]) == (6, 3)
    assert (v["raider_n"], v["intruder_n"], v["discard"]) == (per * n, 0, [])
    comp = run.config.components
    assert all(comp.card_rank[c] == 0 for c in raider_top_first(run))
    for s in range(n):
        sv = seat_view(run, s)
        assert (sv["wound"], sv["total"], sv["line"], sv["holder"], sv["passed"]) == (
            0,
            0,
            [],
            s,
            False,
        )
        assert (
            sv["kiai"]
            == comp.kiai[
                [
                    "heihachi",
                    "daisuke",
                    "gorobei",
                    "kanbei",
                    "kyuzo",
                    "katsushiro",
                    "kikuchiyo",
                ].index(names[s])
            ][0]
        )


# ---------------------------------------------------------------------------
def test_r19_hidden_order_never_reaches_an_honest_strategy():
    """R-19: with the hidden parts of the state scrambled before every decision (run_one's
    `scramble`), an honest strategy decides exactly the same: the games are identical."""
    for strategy in ("reference", "random"):
        cfg = make_config("kyuzo", "katsushiro", "kanbei", "heihachi", strategy=strategy)
        for seed in (1, 2):
            plain = run_one(cfg, seed)
            scrambled = run_one(cfg, seed, scramble=True)
            ok(plain)
            ok(scrambled)
            assert np.array_equal(plain.events, scrambled.events)
            assert np.array_equal(plain.row, scrambled.row)
