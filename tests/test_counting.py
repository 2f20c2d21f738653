"""Section 12 counting: the engine keeps the unseen cards by bin (value, symbol) with their
penalty counts (simcore/unseen.py), and the strategies count from those bins. Each binned count
is checked against the plain card-by-card count on positions from real games."""

import numpy as np
import pytest
from conftest import Cards, make_config
from scenario import Position

from kiai.simcore.codes import KATSUSHIRO, KYUZO, PEN_WOUND, PENALTIES
from kiai.simcore.obs import defend_mask, in_round, last_card, margin, talent_mask
from kiai.simcore.results import N_OUT
from kiai.simcore.state import U_BINS
from kiai.simcore.unseen import bins_agree, pen_count, pen_field, recount_unseen
from kiai.strategies.helpers import playbook, reasoning, sense
from kiai.strategies.run.config import GameConfig
from kiai.strategies.run.games import play_batch, kernel_config, run_one

pytestmark = pytest.mark.usefixtures("engine")

LINEUPS = [
    ("kyuzo", "kikuchiyo", "heihachi", "daisuke"),  # Kyuzo's discards, Heihachi's and Daisuke's gives
    ("gorobei", "kanbei", "katsushiro", "heihachi"),  # ignored penalties, Katsushiro's redraws
    ("kikuchiyo", "katsushiro", "gorobei", "daisuke"),
]
STOPS = (0, 9, 20, 35, 50, 70)  # turns: every round, boss shuffles included


def _stopped(cfg, game, turns):
    """The table of game `game` stopped after `turns` turns, with the bins kept whatever the
    strategy: `random` does not count (the engine then leaves its bins at zero), but its play
    reaches moves a heuristic rarely makes, and it never reads the bins, so keeping them
    changes nothing in its game. (run_one plays with the strategy's own counting flag.)"""
    cfgs = kernel_config(cfg, stop_turns=turns)
    cfgs[0].counting = 1
    pub = play_batch(cfgs, 11, game, np.zeros((1, N_OUT), dtype=np.int32))[0][0]
    return pub.view(np.recarray)[0]


def _positions():
    """Stopped games at several turns (or their end), under a heuristic and at random."""
    for lineup in LINEUPS:
        for strategy in ("risk", "random"):
            cfg = GameConfig(lineup, "normal", strategy)
            for game in range(3):
                for t in STOPS:
                    yield _stopped(cfg, game, t)


POSITIONS = list(_positions())


def _plain_bins(pub):
    """The bins counted card by card from the per-card unseen flags."""
    counts = np.zeros(U_BINS, dtype=np.int64)
    pens = np.zeros((U_BINS, len(PENALTIES)), dtype=np.int64)
    for c in range(int(pub.n_cards)):
        if pub.unseen[c]:
            b = int(pub.value[c]) * 4 + int(pub.symbol[c])
            counts[b] += 1
            pens[b, pub.pen1[c]] += 1
            pens[b, pub.pen2[c]] += 1
    return counts, pens


def _engine_bins(pub):
    counts = pub.bin_n.copy()
    pens = np.array([[pen_count(pub.bin_pens[b, 0], pub.bin_pens[b, 1], code)
                      for code in range(len(PENALTIES))] for b in range(U_BINS)])  # fmt: skip
    return counts, pens


def test_engine_keeps_the_bins_in_step_with_every_move():
    """Section 12 / R-19a: after draws, redraws, supports, penalties, Kiai effects, boss
    shuffles and new rounds, the bins equal the card-by-card count of the unseen cards."""
    rounds = set()
    for pub in POSITIONS:
        rounds.add(int(pub.round_no))
        assert int(pub.raider_n + pub.intruder_n) == int(pub.unseen[: int(pub.n_cards)].sum())
        want = _plain_bins(pub)
        got = _engine_bins(pub)
        np.testing.assert_array_equal(got[0], want[0])
        np.testing.assert_array_equal(got[1], want[1])
        assert int(pub.bin_flames) == int((pub.flame * pub.unseen)[: int(pub.n_cards)].sum())
        assert bins_agree(pub)
    assert rounds == {1, 2, 3}


def test_bins_are_kept_only_for_a_strategy_that_counts():
    """A strategy that does not count (`random`) plays the same game with or without the bins
    (so POSITIONS are its real games), and run_one leaves its bins at zero."""
    cfg = GameConfig(LINEUPS[0], "normal", "random")
    for t in (9, 35):
        kept = _stopped(cfg, 1, t)
        plain = run_one(cfg, 11, 1, trace=False, check=False, stop_after_turns=t).pub
        assert plain.bin_n.sum() == 0 and plain.bin_pens.sum() == 0
        assert kept.bin_n.sum() == plain.raider_n + plain.intruder_n > 0
        for name in ("unseen", "line", "defence", "total", "wound", "discard"):
            np.testing.assert_array_equal(kept[name], plain[name], err_msg=name)


def _copy(pub):
    """A copy of a table record (writes to it leave the original alone)."""
    return np.array([pub]).view(np.recarray)[0]


def test_invariant_check_catches_a_wrong_bin_and_recount_repairs_it():
    """The fuzz harness's ERR_UNSEEN check (bins_agree) notices a bin count, a packed penalty
    count or the flame count that disagrees with the cards; recount_unseen (used for hand-built states) fixes it."""
    pub = POSITIONS[3]
    b = int(np.flatnonzero(pub.bin_n)[0])
    word, shift = pen_field(PEN_WOUND)
    for field, where, delta in (("bin_n", b, 1), ("bin_pens", (b, word), 1 << shift), ("bin_flames", (), 1)):
        bad = _copy(pub)
        if where == ():
            bad[field] += delta
        else:
            bad[field][where] += delta
        assert not bins_agree(bad)
        recount_unseen(bad)
        assert bins_agree(bad)
        assert bad.tobytes() == pub.tobytes()


def _plain_fight_odds(pub, s):
    """fight_odds as section 12 reads, card by card over the unseen cards."""
    m = int(pub.kiai[s] - pub.total[s])
    tm = int(talent_mask(pub, s))
    need = int(defend_mask(pub, s))
    kv = int(sense._line_values(pub, s)) if (tm >> KYUZO) & 1 else 0
    lt, rt = (s + 1) % int(pub.n), (s - 1) % int(pub.n)
    cb, cw, cnd = sense.state_costs(pub, s)
    cur = sense.penalty_cost(pub, s, last_card(pub, s))
    k = int(sense.next_known(pub))
    cards = [k] if k >= 0 else [c for c in range(int(pub.n_cards)) if pub.unseen[c]]
    n = dict(defend=0, discard=0, kiai=0, fit=0, give=0, over=0)
    cost = 0.0
    for c in cards:
        v = int(pub.value[c])
        bit = (1 << int(pub.symbol[c])) >> 1
        gives = (tm >> (1 if v % 2 else 0)) & 1  # Daisuke odd, Heihachi even
        to = [t for t in (lt, rt) if in_round(pub, t) and (defend_mask(pub, t) & bit or v <= margin(pub, t))]
        if need & bit:
            fate = "defend"
        elif (kv >> v) & 1:
            fate = "discard"
        elif v <= m:
            fate = "kiai" if v == m else "fit"
        elif gives and to:
            fate = "give"
        else:
            fate = "over"
        n[fate] += 1
        if fate in ("defend", "discard", "give"):
            cost += cur
        elif not (tm >> (3 if v % 2 else 2)) & 1:  # Kanbei odd, Gorobei even
            cost += sense._pen_cost(pub.pen1[c], cb, cw, cnd) + sense._pen_cost(pub.pen2[c], cb, cw, cnd)
    u = len(cards)
    if u == 0:
        return (0.0, 0.0, 0.0, 0.0, 0.0, 1.0, cur)
    f = [n[x] / u for x in ("defend", "discard", "kiai", "fit", "give", "over")]
    if k < 0 and (tm >> KATSUSHIRO) & 1 and not (pub.redrawn >> s) & 1 and pub.raider_n > 1:
        po = f[5]
        f = [x + po * x for x in f[:5]] + [po * po]
    return (*f, cost / u)


def test_fight_odds_from_the_bins_equal_the_card_by_card_count():
    """The counted odds and the expected penalty that every heuristic fights by are the same
    whether counted from the engine's bins or card by card, for every seat of every position
    (Kyuzo's discards, gives, ignored penalties and Katsushiro's redraw included)."""
    checked = 0
    for pub in POSITIONS:
        for s in range(int(pub.n)):
            got = sense.fight_odds(pub, s)
            want = _plain_fight_odds(pub, s)
            assert got == pytest.approx(want, rel=1e-12, abs=1e-12), (s, got, want)
            checked += got[5] < 1.0
    assert checked > 100


def test_redraw_value_from_the_bins_equals_the_card_by_card_average():
    """Katsushiro's redraw is valued as the average of what each unseen card would be worth to
    him; counted from the bins it is the same average."""
    checked = 0
    for pub in POSITIONS:
        for s in range(int(pub.n)):
            if sense.next_known(pub) >= 0:
                continue
            cards = [c for c in range(int(pub.n_cards)) if pub.unseen[c]]
            if not cards:
                continue
            for kb, stay in ((2.5, 1.0), (1.0, 3.0)):
                want = sum(playbook._takes(pub, s, c, kb, stay) for c in cards) / len(cards)
                assert playbook._redraw_value(pub, s, kb, stay) == pytest.approx(want, rel=1e-12, abs=1e-12)
                checked += 1
    assert checked > 100


def test_risk_sees_a_deadly_card_only_when_one_is_unseen():
    """`risk` takes no risk at animal+token when an unseen card that he would keep carries a
    wound penalty. Counted from the bins: a wound card he would defend is no threat, the same
    card once his hat slot is filled is one."""
    cards = Cards()
    cfg = make_config("kyuzo", "kikuchiyo", "heihachi", "daisuke")
    filler = [cards(value=1, symbol="none", penalties=["barricade"])]
    hat_wound = cards(value=1, symbol="hat", penalties=["wound"])
    own_hat = cards(value=4, symbol="hat")

    def odds(stack, defence=(), state=3):
        pos = Position(cfg).raider(stack).wound(0, state).turn(0)
        if defence:
            pos.defence(0, list(defence))
        recount_unseen(pos.p)  # a hand-built table: its bins are counted afresh
        return reasoning._deadly_odds(pos.p, 0)

    assert odds(filler) == 0.0
    assert odds(filler + [hat_wound]) == 0.0  # his hat slot is empty: he would defend it
    assert odds(filler + [hat_wound], defence=[own_hat]) == pytest.approx(0.5)
    assert odds(filler + [hat_wound], defence=[own_hat], state=2) == 0.0  # not one wound from death


def test_fight_within_gives_the_full_rules_answer():
    """The heuristics' fighting rule (chance of being overcome at most theta less `weight`
    times the expected penalty, section 12) skips the count when no card can overcome and
    even a card with two of the dearest penalties (section 7) leaves theta non-negative. The
    answer must be the full rule's, for thresholds on both sides of the boundary."""
    shortcut = 0
    for pub in POSITIONS:
        for s in range(int(pub.n)):
            po, cost = sense.fight_odds(pub, s)[5], sense.fight_odds(pub, s)[6]
            if sense.never_over(pub, s):
                assert po == 0.0
                shortcut += 1
            for weight in (0.0, 0.1, 0.5):
                near = [weight * cost + d for d in (-0.05, -1e-9, 0.0, 1e-9, 0.05)]
                for theta in near + [-0.1, 0.3, 1.0, 5.0]:
                    for strict in (False, True):
                        want = not (strict and po > 0.0) and po <= theta - weight * cost
                        assert sense.fight_within(pub, s, theta, weight, strict) == want, (s, theta, weight, strict)
    assert shortcut > 50
