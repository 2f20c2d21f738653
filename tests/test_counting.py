"""Section 12 counting: the engine keeps the unseen cards by bin (value, symbol) with their
penalty counts (simcore/unseen.py), and the strategies count from those bins. Each binned count
is checked against the plain card-by-card count on positions from real games."""

import numpy as np
import pytest
from conftest import Cards, make_config

from simcore import layout as L
from simcore.api import GameConfig, run_one
from simcore.codes import KATSUSHIRO, KYUZO, PEN_WOUND
from simcore.obs import sb, talent_mask
from simcore.scenario import Position
from simcore.unseen import bins_agree, pen_count, recount_unseen
from strategies import playbook, risk, sense

pytestmark = pytest.mark.usefixtures("engine")

LINEUPS = [
    ("kyuzo", "kikuchiyo", "heihachi", "daisuke"),  # Kyuzo's discards, Heihachi's and Daisuke's gives
    ("gorobei", "kanbei", "katsushiro", "heihachi"),  # ignored penalties, Katsushiro's redraws
    ("kikuchiyo", "katsushiro", "gorobei", "daisuke"),
]
STOPS = (0, 9, 20, 35, 50, 70)  # turns: every round, boss shuffles included


def _positions():
    """Stopped games at several turns (or their end), under a heuristic and at random."""
    for lineup in LINEUPS:
        for strategy in ("risk", "random"):
            cfg = GameConfig(lineup, "normal", strategy)
            for game in range(3):
                for t in STOPS:
                    yield run_one(cfg, 11, game, trace=False, check=False, stop_after_turns=t).P


POSITIONS = list(_positions())


def _plain_bins(P):
    """The bins counted card by card from the per-card unseen flags."""
    counts = np.zeros(L.U_BINS, dtype=np.int64)
    pens = np.zeros((L.U_BINS, L.N_PEN_CODES), dtype=np.int64)
    for c in range(int(P[L.N_CARDS])):
        if P[L.UNSEEN + c]:
            b = int(P[L.C_VALUE + c]) * 4 + int(P[L.C_SYM + c])
            counts[b] += 1
            pens[b, P[L.C_PEN1 + c]] += 1
            pens[b, P[L.C_PEN2 + c]] += 1
    return counts, pens


def _engine_bins(P):
    counts = P[L.U_BIN : L.U_BIN + L.U_BINS].copy()
    pens = np.array([[pen_count(P[L.U_PEN + 2 * b], P[L.U_PEN + 2 * b + 1], code)
                      for code in range(L.N_PEN_CODES)] for b in range(L.U_BINS)])  # fmt: skip
    return counts, pens


def test_engine_keeps_the_bins_in_step_with_every_move():
    """Section 12 / R-19a: after draws, redraws, supports, penalties, Kiai effects, boss
    shuffles and new rounds, the bins equal the card-by-card count of the unseen cards."""
    rounds = set()
    for P in POSITIONS:
        rounds.add(int(P[L.ROUND]))
        assert int(P[L.RAIDER_N] + P[L.INTRUDER_N]) == int(P[L.UNSEEN : L.UNSEEN + int(P[L.N_CARDS])].sum())
        want = _plain_bins(P)
        got = _engine_bins(P)
        np.testing.assert_array_equal(got[0], want[0])
        np.testing.assert_array_equal(got[1], want[1])
        assert bins_agree(P)
    assert rounds == {1, 2, 3}


def test_invariant_check_catches_a_wrong_bin_and_recount_repairs_it():
    """The fuzz harness's ERR_UNSEEN check (bins_agree) notices a bin count or a packed penalty
    count that disagrees with the cards; recount_unseen (used for hand-built states) fixes it."""
    P = POSITIONS[3].copy()
    b = int(np.flatnonzero(P[L.U_BIN : L.U_BIN + L.U_BINS])[0])
    for where, delta in ((L.U_BIN + b, 1), (L.U_PEN + 2 * b, 1 << (8 * PEN_WOUND))):
        bad = P.copy()
        bad[where] += delta
        assert not bins_agree(bad)
        recount_unseen(bad)
        assert bins_agree(bad)
        np.testing.assert_array_equal(bad, P)


def _plain_fight_odds(P, s):
    """fight_odds as section 12 reads, card by card over the unseen cards."""
    b = sb(s)
    m = int(P[b + L.S_KIAI] - P[b + L.S_TOTAL])
    tm = int(talent_mask(P, s))
    need = int(sense.defend_mask(P, s))
    kv = int(sense._line_values(P, s)) if (tm >> KYUZO) & 1 else 0
    lt, rt = (s + 1) % int(P[L.N]), (s - 1) % int(P[L.N])
    cb, cw, cnd = sense.state_costs(P, s)
    cur = sense.penalty_cost(P, s, sense.last_card(P, s))
    k = int(sense.next_known(P))
    cards = [k] if k >= 0 else [c for c in range(int(P[L.N_CARDS])) if P[L.UNSEEN + c]]
    n = dict(defend=0, discard=0, kiai=0, fit=0, give=0, over=0)
    cost = 0.0
    for c in cards:
        v = int(P[L.C_VALUE + c])
        bit = (1 << int(P[L.C_SYM + c])) >> 1
        gives = (tm >> (1 if v % 2 else 0)) & 1  # Daisuke odd, Heihachi even
        to = [t for t in (lt, rt) if sense.in_round(P, t) and (sense.defend_mask(P, t) & bit or v <= sense.margin(P, t))]
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
            cost += sense._pen_cost(P[L.C_PEN1 + c], cb, cw, cnd) + sense._pen_cost(P[L.C_PEN2 + c], cb, cw, cnd)
    u = len(cards)
    if u == 0:
        return (0.0, 0.0, 0.0, 0.0, 0.0, 1.0, cur)
    f = [n[x] / u for x in ("defend", "discard", "kiai", "fit", "give", "over")]
    if k < 0 and (tm >> KATSUSHIRO) & 1 and not (P[L.REDRAWN] >> s) & 1 and P[L.RAIDER_N] > 1:
        po = f[5]
        f = [x + po * x for x in f[:5]] + [po * po]
    return (*f, cost / u)


def test_fight_odds_from_the_bins_equal_the_card_by_card_count():
    """The counted odds and the expected penalty that every heuristic fights by are the same
    whether counted from the engine's bins or card by card, for every seat of every position
    (Kyuzo's discards, gives, ignored penalties and Katsushiro's redraw included)."""
    checked = 0
    for P in POSITIONS:
        for s in range(int(P[L.N])):
            got = sense.fight_odds(P, s)
            want = _plain_fight_odds(P, s)
            assert got == pytest.approx(want, rel=1e-12, abs=1e-12), (s, got, want)
            checked += got[5] < 1.0
    assert checked > 100


def test_redraw_value_from_the_bins_equals_the_card_by_card_average():
    """Katsushiro's redraw is valued as the average of what each unseen card would be worth to
    him; counted from the bins it is the same average."""
    checked = 0
    for P in POSITIONS:
        for s in range(int(P[L.N])):
            if sense.next_known(P) >= 0:
                continue
            cards = [c for c in range(int(P[L.N_CARDS])) if P[L.UNSEEN + c]]
            if not cards:
                continue
            for kb, stay in ((2.5, 1.0), (1.0, 3.0)):
                want = sum(playbook._takes(P, s, c, kb, stay) for c in cards) / len(cards)
                assert playbook._redraw_value(P, s, kb, stay) == pytest.approx(want, rel=1e-12, abs=1e-12)
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
        P = pos.P.copy()
        recount_unseen(P)
        return risk._deadly_odds(P, 0)

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
    for P in POSITIONS:
        for s in range(int(P[L.N])):
            po, cost = sense.fight_odds(P, s)[5], sense.fight_odds(P, s)[6]
            if sense.never_over(P, s):
                assert po == 0.0
                shortcut += 1
            for weight in (0.0, 0.1, 0.5):
                near = [weight * cost + d for d in (-0.05, -1e-9, 0.0, 1e-9, 0.05)]
                for theta in near + [-0.1, 0.3, 1.0, 5.0]:
                    for strict in (False, True):
                        want = not (strict and po > 0.0) and po <= theta - weight * cost
                        assert sense.fight_within(P, s, theta, weight, strict) == want, (s, theta, weight, strict)
    assert shortcut > 50
