"""`selfplay` and the afterstates it values: each answer's afterstate reads the public table as
the rules move it, the incremental features equal the full ones, the network in numba is the
plain arrays' forward pass, and the value file's round trip and refusals."""

from __future__ import annotations

import json

import numpy as np
import pytest
from numba import njit

from kiai.simcore.codes import MAX_SEATS
from kiai.simcore.results import O_ILLEGAL
from kiai.simcore.questions import (
    ACT_FIGHT,
    ACT_PASS,
    CARD_CONFRONT,
    CARD_DEFEND,
    CARD_GIVE_LEFT,
    CARD_GIVE_RIGHT,
    CARD_KYUZO,
    CARD_REDRAW,
    Q_ACTION,
    Q_CARD,
    Q_FIGHT_AGAIN,
)
from kiai.simcore.fight import card_options
from kiai.simcore.zones import draw
from kiai.strategies.nets import afterstate as A
from kiai.strategies import selfplay
from kiai.strategies.run.config import GameConfig
from kiai.strategies.run.games import run_one

pytestmark = pytest.mark.usefixtures("engine")

FOUR = ("kyuzo", "kikuchiyo", "heihachi", "daisuke")


def table_at(lineup, level, seed, game, turns):
    """The public table of a keeper game at the start of turn `turns` (a plain record)."""
    run = run_one(GameConfig(lineup, level, "keeper"), seed=seed, game_index=game, stop_after_turns=turns, trace=False)
    return np.array(run.pub, dtype=run.pub.dtype).reshape(1).view(np.recarray)[0]


@njit(cache=True)
def _features(pub, q, seat, a, answer, delta, ref=-1):
    """The afterstate features of one answer: by after_features, or (delta) by after_delta over
    a reference table's (the unedited table, or answer `ref`'s afterstate)."""
    u = np.zeros(A.N_U, dtype=np.int64)
    A.unseen_counts(pub, u)
    ed = np.zeros(A.N_ED, dtype=np.int64)
    base = np.zeros(A.N_AFTER, dtype=np.float32)
    pb = np.zeros((MAX_SEATS, A.N_F), dtype=np.int64)
    if ref >= 0:
        A.edit_for(pub, q, seat, a, ref, ed)
    else:
        A.new_edit(ed)
    rm = A.touched(pub, ed)
    rcard = ed[A.ED_PHASE] == A.PH_CARD
    A.after_features(pub, u, ed, base, pb)
    x = base.copy()
    px = pb.copy()
    A.edit_for(pub, q, seat, a, answer, ed)
    if not delta:
        A.after_features(pub, u, ed, x, px)
        return x
    m = A.union(A.touched(pub, ed), rm)
    card = rcard or ed[A.ED_PHASE] == A.PH_CARD
    A.after_delta(pub, u, ed, m, card, x, px)
    return x


def answers(pub):
    """Every answer afterstate.edit_for knows, on this table: the action's (each Support
    receiver), each card answer on a card out of the stacks' way (a line's last card, played
    again as if drawn), and Kikuchiyo's second fight."""
    n = int(pub.n)
    seat = int(pub.acting)
    out = [(Q_ACTION, seat, -1, ACT_PASS), (Q_ACTION, seat, -1, ACT_FIGHT), (Q_FIGHT_AGAIN, seat, -1, 0),
           (Q_FIGHT_AGAIN, seat, -1, 1)]
    out += [(Q_ACTION, seat, -1, 2 + r) for r in range(n) if r != seat]
    cards = [c for c in range(int(pub.n_cards)) if pub.unseen[c]][:3]
    for c in cards:
        for s in range(n):
            for ans in (CARD_CONFRONT, CARD_DEFEND, CARD_REDRAW, CARD_KYUZO, CARD_GIVE_LEFT, CARD_GIVE_RIGHT):
                out.append((Q_CARD, s, c, ans))
    return out


@njit(cache=True)
def _counts(pub, from_bins):
    """The unseen counts afterstate reads: from the engine's bins, or card by card (section 12)."""
    u = np.zeros(A.N_U, dtype=np.int64)
    if from_bins:
        A.unseen_counts(pub, u)
    else:
        for c in range(pub.n_cards):
            if pub.unseen[c]:
                A.count_card(pub, u, c, 1)
    return u


@pytest.mark.parametrize("turns", [1, 9, 23, 41])
def test_unseen_counts_from_the_bins_are_the_card_by_card_counts(turns):
    """Section 12: the multiset selfplay reads (how many unseen cards, by value, by symbol, with
    flames, by penalty code) is read off the engine's bins; it equals counting every unseen card."""
    checked = 0
    for lineup, level in ((FOUR, "normal"), (("gorobei", "kanbei", "katsushiro"), "hard")):
        for game in range(3):
            pub = table_at(lineup, level, 8, game, turns)
            want = _counts(pub, False)
            np.testing.assert_array_equal(_counts(pub, True), want)
            checked += want[A.U_N] > 0 and want[A.U_FLAMES] > 0 and want[A.U_PEN:].sum() > 0
    assert checked >= 2


@pytest.mark.parametrize("lineup,level,turns", [(FOUR, "normal", 5), (("gorobei", "kanbei", "katsushiro"), "easy", 11),
                                                 (("heihachi", "daisuke"), "hard", 8),
                                                 (("heihachi", "daisuke", "gorobei", "kanbei", "kyuzo", "katsushiro",
                                                   "kikuchiyo"), "easy", 17)])
def test_incremental_features_equal_the_full_ones(lineup, level, turns):
    """after_delta writes only what an answer may change over the unedited table's features; the
    result is after_features' exactly (that selfplay puts the reference's features back after
    each answer, test_each_answer_is_valued_by_the_plain_arrays_forward_pass checks)."""
    checked = 0
    for game in range(4):
        pub = table_at(lineup, level, 5, game, turns)
        if pub.game_over:
            continue
        for q, seat, a, ans in answers(pub):
            full = _features(pub, q, seat, a, ans, False)
            delta = _features(pub, q, seat, a, ans, True)
            np.testing.assert_array_equal(delta, full, err_msg=f"question {q} answer {ans} seat {seat} card {a}")
            checked += 1
            # from another answer's afterstate (selfplay's reference is the base's answer)
            for qq, ss, aa, ref in answers(pub):
                if (qq, ss, aa) == (q, seat, a) and ref != ans:
                    delta = _features(pub, q, seat, a, ans, True, ref)
                    np.testing.assert_array_equal(delta, full, err_msg=f"question {q} answer {ans} from {ref}")
    assert checked > 50


@njit(cache=True)
def _fight_draw(pub, hid, book, cfg, mem, extra):
    """What the engine does between Fight (or, with extra, Kikuchiyo's yes to a second fight)
    and the question about the card drawn (simcore.turn.act, second_fight; simcore.fight.fight)."""
    pub.fought = 1
    if extra:
        pub.extra_fight = 1
    pub.redrawn = 0
    return draw((pub, hid, book, cfg, mem))


@njit(cache=True)
def _drawn_features(pub, c, answer, extra, seat):
    """The afterstate _draw_value values for card c drawn and placed by `answer`, worked out on
    the table before the draw (the card taken out of the unseen counts, as _draw_value does)."""
    u = np.zeros(A.N_U, dtype=np.int64)
    A.unseen_counts(pub, u)
    A.count_card(pub, u, c, -1)
    ed = np.zeros(A.N_ED, dtype=np.int64)
    A.edit_for(pub, Q_CARD, seat, c, answer, ed)
    ed[A.ED_DRAWN] = c
    ed[A.ED_EXTRA] = extra
    x = np.zeros(A.N_AFTER, dtype=np.float32)
    A.after_features(pub, u, ed, x, np.zeros((MAX_SEATS, A.N_F), dtype=np.int64))
    return x


@pytest.mark.parametrize("lineup,level,turns", [(FOUR, "normal", 5), (FOUR, "easy", 30),
                                                 (("gorobei", "kanbei", "katsushiro"), "easy", 11),
                                                 (("kikuchiyo", "heihachi"), "hard", 8)])
@pytest.mark.parametrize("extra", [0, 1])
def test_the_exact_expectation_values_the_tables_the_card_question_will_see(lineup, level, turns, extra):
    """chance 1 values Fight (and Kikuchiyo's second fight, R-7b) by the afterstates of the card it
    may draw, worked out before the draw: each must be the afterstate the card's own question
    leads to once the engine has drawn it (the samurai has fought; a second fight is under way)."""
    from kiai.strategies.run.games import kernel_config

    checked = 0
    for game in range(3):
        run = run_one(GameConfig(lineup, level, "keeper"), seed=4, game_index=game, stop_after_turns=turns, trace=False)
        recs = [np.array(r, dtype=r.dtype).reshape(1).view(np.recarray) for r in (run.pub, run.hid, run.book, run.mem)]
        pub, hid, book, mem = (r[0] for r in recs)
        if pub.game_over or pub.raider_n == 0:
            continue
        pub.fought = 1 if extra else 0
        seat = int(pub.acting)
        before = np.array(pub, dtype=pub.dtype).reshape(1).view(np.recarray)[0]
        cfg = kernel_config(GameConfig(lineup, level, "keeper"))[0]
        c = _fight_draw(pub, hid, book, cfg, mem, extra)
        legal = card_options(pub, seat, c)
        for answer in range(CARD_GIVE_RIGHT + 1):
            if (legal >> answer) & 1:
                want = _features(pub, Q_CARD, seat, c, answer, False)
                np.testing.assert_array_equal(_drawn_features(before, c, answer, extra, seat), want,
                                              err_msg=f"game {game} card {c} answer {answer}")
                checked += 1
    assert checked >= 3


def random_after_value(h1=32, h2=16, seed=0, scale=0.05):
    rng = np.random.default_rng(seed)
    shapes = {"w1": (h1, A.N_AFTER), "b1": (h1,), "w2": (h2, h1), "b2": (h2,), "w3": (1, h2), "b3": (1,)}
    return {k: (rng.standard_normal(s) * scale).astype(np.float32) for k, s in shapes.items()}


def _record(arrays, **params):
    from kiai.strategies.nets import modelfile as M

    rec = selfplay.STRATEGY.new_record()
    vec = selfplay.STRATEGY.param_vector(params)
    for i, p in enumerate(selfplay.STRATEGY.params):
        rec[0][p.name] = vec[i]
    M.ModelFile("", "", {}, arrays, M.AFTER).pack(rec[0], prefix="")
    return rec


@njit(cache=True)
def _weigh(m, pub, mem, q, seat, a, legal, mine):
    return selfplay.weigh(m, pub, mem, q, seat, a, legal, mine)


@pytest.mark.parametrize("h1,h2", [(selfplay.H1, selfplay.H2), (32, 16), (40, 16), (7, 5)])
def test_each_answer_is_valued_by_the_plain_arrays_forward_pass(h1, h2):
    """weigh() works out the answers' values incrementally (first-layer rows added, a Support's
    sums shared with the others, a narrower first layer to its own width only); each equals the
    numpy forward pass of the answer's afterstate features, and the answer it gives is the best
    one by them, the base's answer `mine` counted `edge` higher."""
    from kiai.simcore.state import MEM
    from kiai.training.value import predict

    arrays = random_after_value(h1, h2, seed=h1)
    edge = 0.002
    rec = _record(arrays, edge=edge)
    mem = np.zeros(1, dtype=MEM)
    for turns in (0, 3, 7):
        pub = table_at(FOUR, "easy", 2, 1, turns)
        seat = int(pub.acting)
        legal = 0b11 | sum(1 << (2 + r) for r in range(4) if r != seat)
        for q, a, lg in ((Q_ACTION, -1, legal), (Q_CARD, int(np.flatnonzero(pub.unseen[:pub.n_cards])[0]), 0b11),
                         (Q_FIGHT_AGAIN, -1, 0b11)):
            for mine in range(6):
                if not (lg >> mine) & 1:
                    continue
                best = _weigh(rec[0], pub, mem[0], q, seat, a, lg, mine)
                work, z = mem[0]["work"], mem[0]["nz_at"]  # every answer put the reference back
                np.testing.assert_array_equal(work[selfplay._X:selfplay._A1B], work[selfplay._BASE:selfplay._X])
                np.testing.assert_array_equal(z[selfplay._PX:selfplay._CPB], z[selfplay._PB:selfplay._PX])
                got = work[selfplay._VALS:selfplay._VALS + 8]
                want = {ans: predict(arrays, _features(pub, q, seat, a, ans, False)[None].astype(np.float64))[0]
                        for ans in range(8) if (lg >> ans) & 1}
                for ans, v in want.items():
                    assert got[ans] == pytest.approx(v, abs=2e-5), (q, mine, ans)
                shifted = {ans: v + (edge if ans == mine else 0.0) for ans, v in want.items()}
                assert shifted[best] == pytest.approx(max(shifted.values()), abs=2e-5)


def test_a_tiny_selfplay_training_goes_end_to_end_and_resumes(tmp_path):
    """kiai train value --player selfplay, tiny: iteration 0 plays over a value of zeros (keeper's
    answers, some at random), each later one over the previous value; the values play, their
    headers say how they were made, and a finished run resumes without recomputing."""
    pytest.importorskip("torch")
    from kiai.simcore.components import load_components
    from kiai.training import value as valuefit
    from kiai.strategies.nets import modelfile as M
    from kiai.strategies.run.games import run_games

    comp = load_components(None)
    settings = valuefit.ValueSettings(iterations=1, tables=2, games=40, keep=1.0, h1=8, h2=4, epochs=1, seed=3,
                                      eval_games=4, player="selfplay", explore=0.1, edge=0.01)
    folder = tmp_path / "run"
    first = valuefit.train_value(folder, settings, comp)
    with np.load(folder / "positions-0.npz") as z:
        assert set(np.unique(z["y"])) <= {0.0, 1.0}  # iteration 0: outcomes
        assert z["x"].shape[1] == A.N_AFTER
    ev = json.loads((folder / "evaluation-0.json").read_text())
    assert ev["players"] == {"new": "selfplay", "previous": "keeper", "learned": "learned", "lookahead": "lookahead"}
    stamp = first.stat().st_mtime_ns
    # resumed with one more iteration: the first is kept, the second plays over it
    settings = valuefit.ValueSettings(**{**settings.__dict__, "iterations": 2})
    last = valuefit.train_value(folder, settings, comp)
    assert last == folder / "value-1.npz" and first.stat().st_mtime_ns == stamp
    model = M.load(last, M.AFTER)
    header = model.header
    assert header["feature_schema"] == A.SCHEMA and header["iteration"] == 1 and header["positions"] > 0
    assert header["settings"]["player"] == "selfplay" and "selfplay's games" in header["method"]
    assert header["architecture"]["h1"] == 8 and header["components_sha256"] == comp.sha256
    assert header["components_data_sha256"] == comp.data_sha256  # what its inputs read (docs/house-levels.md)
    with np.load(folder / "positions-1.npz") as z:
        assert ((z["y"] > 0) & (z["y"] < 1)).any()  # later: TD(lambda) returns
    assert not (folder / "positions-0.npz").exists()  # no later iteration fits on it
    stamp = last.stat().st_mtime_ns
    valuefit.train_value(folder, settings, comp)
    assert last.stat().st_mtime_ns == stamp
    rows = run_games(GameConfig(FOUR, "easy", "selfplay", model=str(last)), 20, seed=1)
    assert (rows[:, O_ILLEGAL] == 0).all()


def test_the_value_file_round_trips_and_bad_files_are_refused(tmp_path, capsys):
    """selfplay's value file: saved and read back the same; a missing, damaged, judge's, too wide
    or other components' file, or one whose header's play selfplay cannot play, is refused in one
    line, exit 2, by `--model` before any game."""
    from kiai.strategies.nets import modelfile as M
    from kiai.strategies.nets import table_value
    from conftest import one_line_error, run

    comp = GameConfig(FOUR, "easy", "keeper").components
    comp_sha = comp.sha256
    arrays = random_after_value(h1=6, h2=4)
    good = tmp_path / "good.npz"
    M.save(good, arrays, {"iteration": 2, "components_sha256": comp_sha}, M.AFTER)
    back = M.load(good, M.AFTER, comp)
    assert back.header["feature_schema"] == A.SCHEMA and back.header["iteration"] == 2
    for k, v in arrays.items():
        assert np.array_equal(back.arrays[k], v)
    assert run(capsys, "simulate", "--strategy", "selfplay", "--model", good, "-s", "kyuzo,kikuchiyo", "-n", 10)[0] == 0
    damaged = tmp_path / "damaged.npz"
    damaged.write_bytes(good.read_bytes()[:300])
    judges = tmp_path / "judge.npz"
    rng = np.random.default_rng(0)
    M.save(judges, {"w1": rng.standard_normal((4, table_value.N_VALUE_FEATURES)).astype(np.float32),
                    "b1": np.zeros(4, np.float32), "w2": np.zeros((3, 4), np.float32), "b2": np.zeros(3, np.float32),
                    "w3": np.zeros((1, 3), np.float32), "b3": np.zeros(1, np.float32)}, {"components_sha256": comp_sha},
           M.TABLE)
    wide = tmp_path / "wide.npz"
    M.save(wide, random_after_value(h1=selfplay.H1 + 1, h2=4), {"components_sha256": comp_sha}, M.AFTER)
    other = tmp_path / "other.npz"
    M.save(other, arrays, {"components_sha256": "0" * 64}, M.AFTER)
    for path, words in ((tmp_path / "none.npz", "no such file"), (damaged, "not a kiai value file"),
                        (judges, "this is judge's value, not selfplay's"), (wide, f"at most {selfplay.H1}")):
        with pytest.raises(M.ModelError, match=words):
            M.load(path, M.AFTER, comp)
        one_line_error(*run(capsys, "simulate", "--strategy", "selfplay", "--model", path, "-s", "kyuzo,kikuchiyo",
                            "-n", 10), words)
    # made for other component data: it plays, marked; --strict refuses it
    assert M.other_components(M.load(other, M.AFTER, comp), comp)
    one_line_error(*run(capsys, "simulate", "--strategy", "selfplay", "--model", other, "-s", "kyuzo,kikuchiyo",
                        "-n", 10, "--strict"), "other component data")
    bad_play = tmp_path / "bad-play.npz"  # a header's play selfplay cannot play
    M.save(bad_play, arrays, {"components_sha256": comp_sha, "play": {"doubt": 3}}, M.AFTER)
    one_line_error(*run(capsys, "simulate", "--strategy", "selfplay", "--model", bad_play, "-s", "kyuzo,kikuchiyo",
                        "-n", 10), "header's play")


def test_the_shipped_value_file_plays_and_says_how_it_was_made():
    from kiai.strategies.nets import modelfile as M

    model = M.load(None, M.AFTER)
    assert model.header["feature_schema"] == A.SCHEMA
    assert {"method", "settings", "components_sha256", "kiai_version", "date", "positions", "games"} <= set(model.header)
    assert json.dumps(model.header)


VARIANTS = [{}, {"chance": 1}, {"base": 1, "edge": 0.02}, {"base": 1, "doubt": 0.05, "chance": 1},
            {"settled": 0.05}]
FUZZ = [
    (("heihachi", "daisuke"), "hard", "auto"),  # two samurai: absent tokens, doll check
    (("gorobei", "kanbei", "kyuzo", "katsushiro", "kikuchiyo"), "heroic", "on"),
    (("heihachi", "daisuke", "gorobei", "kanbei", "kyuzo", "katsushiro", "kikuchiyo"), "easy", "auto"),
    (("kyuzo", "kikuchiyo", "heihachi", "daisuke"), "normal", "auto"),  # its family's shipped value
]


@pytest.mark.parametrize("params", VARIANTS)
@pytest.mark.parametrize("samurai,level,absent", FUZZ)
def test_selfplay_plays_legally_under_the_invariant_checker(params, samurai, level, absent):
    """Section 13: every answer legal and every invariant kept, over the shipped value, with each
    of its ways to play (exact chance, learned as the base, doubt, exploration); the general value
    where its family's is not fuzzed, so that every table weighs its answers."""
    from kiai.simcore.results import O_DECISIONS, O_ERR
    from kiai.strategies.nets import modelfile as M
    from kiai.strategies.run.games import run_games

    model = None if level == "normal" else str(M.shipped_path(M.AFTER))
    out = run_games(GameConfig(samurai, level, "selfplay", params, absent_tokens=absent, model=model), 300, seed=41,
                    check=True)
    assert (out[:, O_ERR] == 0).all() and out[:, O_ILLEGAL].sum() == 0 and out[:, O_DECISIONS].sum() > 0


@pytest.mark.parametrize("params", VARIANTS[1:])
def test_r19_selfplay_decides_from_the_public_table_only(params):
    """R-19, for the ways of playing the registry-wide scramble test leaves at their defaults: the
    hidden parts reordered before every decision change no game."""
    from kiai.strategies.run.games import run_games

    cfg = GameConfig(("kyuzo", "katsushiro", "heihachi", "daisuke"), "easy", "selfplay", params)
    np.testing.assert_array_equal(run_games(cfg, 120, seed=77), run_games(cfg, 120, seed=77, scramble=True))


def test_doubt_weighs_fewer_questions_and_changes_only_close_calls():
    """doubt 0 weighs nothing (learned's games exactly); doubt 1 weighs every question."""
    from kiai.strategies.run.games import run_games

    lineup = ("gorobei", "kanbei", "katsushiro")
    learned_games = run_games(GameConfig(lineup, "easy", "learned"), 200, seed=5)
    none = run_games(GameConfig(lineup, "easy", "selfplay", {"base": 1, "doubt": 0.0}), 200, seed=5)
    np.testing.assert_array_equal(none, learned_games)
    every = run_games(GameConfig(lineup, "easy", "selfplay", {"base": 1, "doubt": 1.0}), 200, seed=5)
    assert (every != learned_games).any()


def test_questions_left_out_get_the_base_answers():
    """`weigh` second-fight (4) weighs Kikuchiyo's second fight only: without Kikuchiyo at the table, keeper's
    games exactly; the turn's action alone (1) already changes them."""
    from kiai.strategies.run.games import run_games

    lineup = ("gorobei", "kanbei", "katsushiro")
    keeper_games = run_games(GameConfig(lineup, "easy", "keeper"), 200, seed=5)
    np.testing.assert_array_equal(run_games(GameConfig(lineup, "easy", "selfplay", {"weigh": "second-fight"}), 200, seed=5),
                                  keeper_games)
    assert (run_games(GameConfig(lineup, "easy", "selfplay", {"weigh": 1}), 200, seed=5) != keeper_games).any()


def test_a_settled_game_is_played_out_by_the_base_and_games_stay_independent():
    """`settled`: once a weighed table is worth less than it, the base answers for the rest of the
    game, which changes games (4 samurai at Hard, where the value soon gives up) but not their
    independence: each game starts unsettled, so a batch split elsewhere and one or two threads
    play the same games."""
    import numba

    from kiai.strategies.run.games import run_games, set_threads

    cfg = GameConfig(FOUR, "hard", "selfplay", {"settled": 0.1})
    whole = run_games(cfg, 400, seed=9)
    np.testing.assert_array_equal(np.concatenate([run_games(cfg, 150, seed=9),
                                                  run_games(cfg, 250, seed=9, game_offset=150)]), whole)
    before = numba.get_num_threads()
    try:
        set_threads(1)
        np.testing.assert_array_equal(run_games(cfg, 400, seed=9), whole)
    finally:
        numba.set_num_threads(before)
    unsettled = run_games(GameConfig(FOUR, "hard", "selfplay"), 400, seed=9)
    keeper_games = run_games(GameConfig(FOUR, "hard", "keeper"), 400, seed=9)
    assert (whole != unsettled).any() and (whole != keeper_games).any()


@pytest.mark.parametrize("argv, words", [
    (["--player", "teacher"], "--player"),
    (["--player", "selfplay", "--explore", "2"], "--explore"),
    (["--player", "selfplay", "--base", "judge"], "--base"),
    (["--player", "selfplay", "--h1", "129"], "--h1"),
    (["--player", "selfplay", "--weigh", "hats"], "--weigh: parameter weigh of 'selfplay' takes action, cards"),
    (["--weigh", "cards+second-fight"], "judge weighs every question"),
    (["--player", "selfplay", "--start", "/no/such/value.npz"], "--start"),
    (["--player", "selfplay", "-s", "gorobei,kanbei"], "give both"),
    (["--player", "selfplay", "--size", "3"], "give both"),
    (["--player", "selfplay", "--size", "3", "-s", "gorobei,kanbei,kyuzo", "-d", "easy"], "give one of them"),
    (["--player", "selfplay", "--size", "8", "-d", "easy"], "--size must be in [2, 7]"),
    (["--player", "selfplay", "--size", "3", "-d", "easy,hard"], "one level for --size's family"),
    (["--player", "selfplay", "--hold-out", "2"], "needs --size"),
    (["--player", "selfplay", "--size", "7", "-d", "easy", "--hold-out", "1"], "--hold-out must be in [0, 0]"),
    (["--player", "selfplay", "--size", "2", "-d", "easy", "--hold-out", "21"], "--hold-out must be in [0, 20]"),
    (["--player", "selfplay", "-s", "gorobei,kanbei", "-d", "easy,hard"], "one level"),
    (["--player", "selfplay", "-s", "gorobei,shichiroji", "-d", "easy"], "shichiroji"),
    (["--player", "selfplay", "-s", "gorobei", "-d", "easy"], "2 to 7"),
    (["--player", "selfplay", "--deal-seed", "-1"], "--deal-seed must be in"),
])
def test_bad_input_to_train_value_for_selfplay_is_one_line_before_any_work(tmp_path, capsys, argv, words):
    from conftest import one_line_error, run

    folder = tmp_path / "run"
    one_line_error(*run(capsys, "train", "value", folder, *argv), words)
    assert not folder.exists()


def test_a_run_on_one_table_trains_and_evaluates_on_it():
    """--samurai/--difficulty: every training table is that table (each playing its own games),
    and the evaluation plays it too."""
    from kiai.training import value as valuefit

    s = valuefit.ValueSettings(tables=3, player="selfplay", h1=32, h2=16, table="gorobei,kanbei,katsushiro@easy")
    one = (("gorobei", "kanbei", "katsushiro"), "easy")
    assert valuefit.tables(s) == [one] * 3 and valuefit.eval_tables(s) == (one,)
    drawn = valuefit.ValueSettings(tables=3, player="selfplay", h1=32, h2=16)
    assert valuefit.eval_tables(drawn) == valuefit.EVAL_TABLES and len(set(valuefit.tables(drawn))) > 1


def test_a_family_run_trains_on_its_seatings_and_evaluates_on_the_line_ups_it_left_out():
    """--size/--difficulty: the training tables are seatings of that many samurai at that level,
    every seating of the line-ups kept as often as the others, none of a held-out line-up; each
    iteration is evaluated on the held-out line-ups. Where the seatings outnumber the tables,
    each iteration draws afresh."""
    from collections import Counter

    from kiai.training import families as F
    from kiai.training import value as valuefit

    s = valuefit.ValueSettings(tables=130, player="selfplay", h1=32, h2=16, family="3@easy", hold_out=3, seed=7)
    s.check()
    held = F.Family(3, "easy", 3, 7).held()
    assert len(held) == 3 and len(set(held)) == 3
    assert valuefit.eval_tables(s) == tuple((lineup, "easy") for lineup in held)
    drawn = valuefit.tables(s, 0)
    assert {level for _, level in drawn} == {"easy"} and len(drawn) == 130
    seatings = Counter(seating for seating, _ in drawn)
    assert len(seatings) == 2 * (35 - 3) and set(seatings.values()) == {2, 3}  # 64 seatings, 130 tables
    assert not {tuple(sorted(t)) for t in seatings} & {tuple(sorted(t)) for t in held}
    assert valuefit.tables(s, 0) == drawn  # from the seed
    big = valuefit.ValueSettings(tables=40, player="selfplay", h1=32, h2=16, family="5@hard", seed=7)
    first, second = valuefit.tables(big, 0), valuefit.tables(big, 1)
    assert len(set(first)) == 40 and set(first) != set(second)
    assert all(len(seating) == 5 and level == "hard" for seating, level in first)
    assert len(valuefit.eval_tables(big)) == F.EVAL_SEATINGS  # no held-out line-up: trained seatings
    assert len(F.Family(7, "easy").trained()) == 720 and len(F.Family(4, "easy").trained()) == 35 * 6


def test_a_deal_seed_plays_other_deals_and_keeps_the_seeds_held_out_line_ups(tmp_path):
    """--deal-seed: the games self-play plays (and the positions kept, and the fit) come from it,
    the held-out line-ups from --seed; without it both come from --seed, as before."""
    pytest.importorskip("torch")
    from kiai.simcore.components import load_components
    from kiai.training import value as valuefit
    from kiai.strategies.nets import modelfile as M

    comp = load_components(None)
    one = dict(iterations=1, tables=2, games=20, keep=1.0, h1=8, h2=4, epochs=1, eval_games=0, player="selfplay",
               table="gorobei,kanbei,katsushiro@easy")

    def positions(name, **kw):
        last = valuefit.train_value(tmp_path / name, valuefit.ValueSettings(**one, **kw), comp)
        with np.load(tmp_path / name / "positions-0.npz") as z:
            return z["x"], M.load(last, M.AFTER).header["settings"]

    plain, _ = positions("plain", seed=3)
    same, _ = positions("same", seed=3, deal_seed=3)
    other, made = positions("other", seed=3, deal_seed=4)
    four, _ = positions("four", seed=4)
    np.testing.assert_array_equal(plain, same)
    np.testing.assert_array_equal(other, four)  # the deals of seed 4, the table the same
    assert other.shape != plain.shape or (other != plain).any()
    assert made["seed"] == 3 and made["deal_seed"] == 4
    family = dict(family="4@easy", hold_out=3, player="selfplay")
    assert (valuefit.eval_tables(valuefit.ValueSettings(**family, seed=7, deal_seed=9))
            == valuefit.eval_tables(valuefit.ValueSettings(**family, seed=7)))


def test_line_ups_never_played_follow_a_values_whole_history(tmp_path, capsys):
    """A line-up is held out of a value only if no run in its history played it: a run continued
    with another seed holds out other line-ups, and only those both left out stay unplayed; a run of
    another team size plays none of them, a run on one table plays its line-up, and a run on tables
    of every size (or of unknown making) may have played any. train-value refuses, in one line and
    before any work, a start that played a line-up the new run holds out."""
    from conftest import one_line_error, run
    from kiai.simcore.components import load_components
    from kiai.simcore.seatings import all_lineups
    from kiai.training import families as F
    from kiai.training import value as valuefit
    from kiai.strategies.nets import modelfile as M

    def fam(seed, family="5@easy", start=None):
        return {"settings": {"family": family, "hold_out": 3, "seed": seed}, **({"started_from": start} if start else {})}

    held7, held8 = set(F.Family(5, "easy", 3, 7).held()), set(F.Family(5, "easy", 3, 8).held())
    assert held7 != held8 and held7 & held8
    assert F.never_played(fam(7), 5) == F.Family(5, "easy", 3, 7).held()
    assert set(F.never_played(fam(8, start=fam(7)), 5)) == held7 & held8
    assert F.never_played(fam(8, start=fam(7, "6@easy")), 5) == F.Family(5, "easy", 3, 8).held()
    one = next(iter(held8))
    table = {"settings": {"table": ",".join(reversed(one)) + "@easy"}}
    assert set(F.never_played(fam(8, start=table), 5)) == held8 - {one}
    assert F.never_played(fam(8, start={"settings": {"family": ""}}), 5) == []
    assert F.never_played({}, 5) == [] and len(F.never_played({"settings": {"family": "2@easy"}}, 5)) == len(all_lineups(5))

    sha = load_components(None).sha256
    start = tmp_path / "start.npz"
    M.save(start, valuefit.zero_value(valuefit.ValueSettings(player="selfplay", h1=32, h2=16)),
           {"components_sha256": sha, **fam(8)}, M.AFTER)
    folder = tmp_path / "run"
    one_line_error(*run(capsys, "train", "value", folder, "--player", "selfplay", "--size", "5", "-d", "easy",
                        "--hold-out", "3", "--seed", "7", "--start", start), "which this run holds out")
    assert not folder.exists()
    valuefit.check_start(valuefit.ValueSettings(player="selfplay", family="5@easy", hold_out=3, seed=8), fam(8))


def test_a_value_plays_as_its_header_says_unless_the_user_says_otherwise(tmp_path):
    """A value trained over learned's answers (kiai train value --base learned), or whose header's
    `play` says so, plays over learned unless the user gives `base`: a value of zeros so made gives
    learned's games, and keeper's with base 0 given (or without those headers); a header's play
    that selfplay cannot play is refused in one line."""
    from kiai.simcore.components import load_components
    from kiai.simcore.config import ConfigError
    from kiai.training import value as valuefit
    from kiai.strategies.nets import modelfile as M
    from kiai.strategies.run.games import run_games

    sha = load_components(None).sha256
    zeros = valuefit.zero_value(valuefit.ValueSettings(player="selfplay", h1=32, h2=16))
    files = {}
    for name, header in (("trained-over", {"settings": {"base": "learned"}}), ("play", {"play": {"base": 1, "doubt": 0.5}}),
                         ("plain", {"settings": {"base": "keeper"}}), ("bad", {"play": {"base": 7}})):
        files[name] = str(tmp_path / f"{name}.npz")
        M.save(files[name], zeros, {"components_sha256": sha, **header}, M.AFTER)
    trio = ("kanbei", "heihachi", "kikuchiyo")

    def games(strategy, model=None, params=None):
        return run_games(GameConfig(trio, "normal", strategy, params or {}, model=model), 150, seed=9)

    learned, keeper = games("learned"), games("keeper")
    for name in ("trained-over", "play"):
        np.testing.assert_array_equal(games("selfplay", files[name]), learned)
        np.testing.assert_array_equal(games("selfplay", files[name], {"base": 0}), keeper)
    np.testing.assert_array_equal(games("selfplay", files["plain"]), keeper)
    assert "base 1, doubt 0.5" in GameConfig(trio, "normal", "selfplay", model=files["play"]).describe()["model"]["plays"]
    with pytest.raises(ConfigError, match="header's play"):
        GameConfig(trio, "normal", "selfplay", model=files["bad"])


def test_a_result_names_the_parameters_its_games_were_played_with(tmp_path):
    """describe() (what simulate, bench and the tables print and store) gives selfplay's
    parameters as played: the family value's header's play unless the user gives them, learned's
    answers (base 1, doubt 0) where kiai ships no value; given back as parameters, they play the
    same games."""
    from kiai.simcore.components import load_components
    from kiai.training import value as valuefit
    from kiai.strategies.nets import modelfile as M
    from kiai.strategies.run.games import run_games

    sha = load_components(None).sha256
    rng = np.random.default_rng(8)
    shapes = valuefit.zero_value(valuefit.ValueSettings(player="selfplay", h1=32, h2=16))
    noisy = {k: rng.normal(0, 0.3, v.shape).astype(np.float32) for k, v in shapes.items()}
    file = str(tmp_path / "v.npz")
    M.save(file, noisy, {"components_sha256": sha, "play": {"edge": 0.05, "risk": 0.6, "settled": 0.01}}, M.AFTER)
    default = selfplay.STRATEGY.param_dict()
    for given, want in (({}, {"edge": 0.05, "risk": 0.6, "settled": 0.01}), ({"edge": 0.0}, {"edge": 0.0, "risk": 0.6})):
        config = GameConfig(FOUR, "easy", "selfplay", given, model=file)
        played = config.describe()["params"]
        assert played == {**default, "settled": 0.01, **want}
        again = GameConfig(FOUR, "easy", "selfplay", played, model=file)
        np.testing.assert_array_equal(run_games(config, 60, seed=3), run_games(again, 60, seed=3))
    assert (run_games(GameConfig(FOUR, "easy", "selfplay", {}, model=file), 60, seed=3)
            != run_games(GameConfig(FOUR, "easy", "selfplay", default, model=file), 60, seed=3)).any()
    level = next(lv for lv in ("heroic", "hard", "normal", "easy") if M.family_path(len(FOUR), lv) is None)
    assert GameConfig(FOUR, level, "selfplay").describe()["params"] == {**default, "base": 1, "doubt": 0.0}


def test_a_value_trained_on_some_questions_learns_and_plays_those_only(tmp_path):
    """kiai train value --weigh: self-play writes the afterstates of the questions it weighs only
    (over a value of zeros, without exploring, it gives keeper's answers whatever it weighs: the
    same games, and the card questions' rows are some of all the questions' rows), and a value so
    trained plays those questions unless the user says otherwise."""
    from kiai.simcore.components import load_components
    from kiai.training import value as valuefit
    from kiai.strategies.nets import modelfile as M
    from kiai.strategies.run.games import run_games

    sha = load_components(None).sha256
    shapes = valuefit.zero_value(valuefit.ValueSettings(player="selfplay", h1=32, h2=16))
    zeros = str(tmp_path / "zeros.npz")
    M.save(zeros, shapes, {"components_sha256": sha}, M.AFTER)
    rows, outs = {}, {}
    for q in (7, 2):
        cfg = GameConfig(FOUR, "easy", "selfplay", {"weigh": q}, model=zeros)
        rows[q], _, _, outs[q] = valuefit.collect_afterstates(cfg, 30, seed=4)
    np.testing.assert_array_equal(outs[2], outs[7])
    every = {r.tobytes() for r in rows[7]}
    assert 0 < len(rows[2]) < len(rows[7]) and all(r.tobytes() in every for r in rows[2])

    rng = np.random.default_rng(5)
    noisy = {k: rng.normal(0, 0.3, v.shape).astype(np.float32) for k, v in shapes.items()}
    files = {}
    for name, made in (("cards", {"base": "keeper", "questions": 2}), ("all", {"base": "keeper"})):
        files[name] = str(tmp_path / f"{name}.npz")
        M.save(files[name], noisy, {"components_sha256": sha, "settings": made}, M.AFTER)

    def games(file, params=None):
        return run_games(GameConfig(FOUR, "easy", "selfplay", params or {}, model=file), 150, seed=9)

    cards = games(files["cards"])
    np.testing.assert_array_equal(cards, games(files["all"], {"weigh": "cards"}))
    np.testing.assert_array_equal(games(files["cards"], {"weigh": 7}), games(files["all"]))
    assert (cards != games(files["all"])).any()
    assert "weigh cards" in GameConfig(FOUR, "easy", "selfplay", model=files["cards"]).describe()["model"]["plays"]
    with pytest.raises(valuefit.TrainError, match="judge weighs every question"):
        valuefit.ValueSettings(questions=2).check()


def test_selfplay_plays_its_familys_shipped_value_where_kiai_ships_one(tmp_path, monkeypatch):
    """The value of a table's family (team size and level) plays where one is shipped: a family
    value of zeros gives keeper's games on that family's tables; a family without a shipped value
    gets learned's games, and its model is learned's; --model plays the file it names on every table."""
    from kiai.simcore.components import load_components
    from kiai.training import value as valuefit
    from kiai.strategies.nets import modelfile as M
    from kiai.strategies.run.games import run_games

    comp = load_components(None)
    zeros = tmp_path / "selfplay-3-easy.npz"
    M.save(zeros, valuefit.zero_value(valuefit.ValueSettings(player="selfplay", h1=32, h2=16)),
           {"components_sha256": comp.sha256}, M.AFTER)
    real = M.family_path
    monkeypatch.setattr(M, "family_path", lambda size, level: zeros if (size, level) == (3, "easy") else real(size, level))
    trio = ("gorobei", "kanbei", "katsushiro")
    family = GameConfig(trio, "easy", "selfplay")
    assert family.describe()["model"]["path"] == str(zeros) and family.describe()["model"]["shipped"]
    np.testing.assert_array_equal(run_games(family, 150, seed=3), run_games(GameConfig(trio, "easy", "keeper"), 150, seed=3))
    monkeypatch.setattr(M, "family_path", lambda size, level: zeros if (size, level) == (3, "easy") else None)
    other = GameConfig(trio, "hard", "selfplay")
    assert other.describe()["model"]["path"] == str(M.shipped_path(M.AFTER).parent / "learned.npz")
    assert other.describe()["model"]["shipped"]
    assert other.describe()["model"]["plays"].startswith("learned's answers")
    for params in ({}, {"base": 0, "edge": 0.0}):  # whatever its parameters
        np.testing.assert_array_equal(run_games(GameConfig(trio, "hard", "selfplay", params), 150, seed=3),
                                      run_games(GameConfig(trio, "hard", "learned"), 150, seed=3))
    general = GameConfig(trio, "easy", "selfplay", model=str(M.shipped_path(M.AFTER)))
    assert general.describe()["model"]["path"] == str(M.shipped_path(M.AFTER))
    assert not general.describe()["model"]["shipped"]
    assert (run_games(general, 150, seed=3) != run_games(family, 150, seed=3)).any()


def test_ship_value_makes_a_file_the_familys_value_and_names_what_it_replaced(tmp_path, capsys):
    """`kiai train ship` copies a trained value into the shipped values as its family's: the file
    plays as before (same weights), its header keeps how it was trained, gains `play` with --play
    (and the sha training wrote), and names every file of the family it replaced, transitively;
    bad input is one line, exit 2, and writes nothing."""
    from kiai.simcore.components import load_components
    from kiai.training import value as valuefit
    from kiai.strategies.nets import modelfile as M
    from conftest import one_line_error, run

    sha = load_components(None).sha256
    shipped = tmp_path / "data"
    shipped.mkdir()
    files = []
    for i in range(3):
        arrays = random_after_value(h1=8, h2=4, seed=i)
        files.append(tmp_path / f"value-{i}.npz")
        M.save(files[-1], arrays, {"components_sha256": sha, "iteration": i,
                                   "settings": {"family": "3@normal", "base": "keeper"}}, M.AFTER)
    first = M.load(files[0], M.AFTER)
    code, out, _ = run(capsys, "train", "ship", files[0], "--to", shipped, "--play", "base=1", "--play", "doubt=0.05",
                       "--why", "won more on seed 4244")
    dest = shipped / "selfplay-3-normal.npz"
    assert code == 0 and str(dest) in out and "first value" in out and "base 1, doubt 0.05" in out
    one = M.load(dest, M.AFTER, load_components(None))
    assert one.header["play"] == {"base": 1, "doubt": 0.05} and one.header["play_chosen_by"] == "won more on seed 4244"
    assert one.header["play_added_to"] == first.sha256 and one.header["iteration"] == 0 and "replaces" not in one.header
    # a file from before components_data_sha256: the shipped copy says the data its component file holds
    assert "components_data_sha256" not in first.header
    assert one.header["components_data_sha256"] == load_components(None).data_sha256
    for k in M.VALUE_SHAPES:
        assert np.array_equal(one.arrays[k], first.arrays[k])
    assert run(capsys, "train", "ship", files[1], "--to", shipped)[0] == 0
    two = M.load(dest, M.AFTER)
    assert two.header["replaces"] == [one.sha256, first.sha256] and "play" not in two.header
    assert run(capsys, "train", "ship", files[2], "--size", "3", "-d", "normal", "--to", shipped)[0] == 0
    assert M.load(dest, M.AFTER).header["replaces"] == [two.sha256, one.sha256, first.sha256]
    before = dest.read_bytes()
    easy = tmp_path / "easy.npz"
    M.save(easy, random_after_value(h1=8, h2=4), {"components_sha256": sha, "settings": {"family": "3@easy"}}, M.AFTER)
    bare = tmp_path / "bare.npz"
    M.save(bare, random_after_value(h1=8, h2=4), {"components_sha256": sha}, M.AFTER)
    zeros = valuefit.zero_value(valuefit.ValueSettings(player="selfplay", h1=8, h2=4))
    other = tmp_path / "other.npz"
    M.save(other, zeros, {"components_sha256": "0" * 64, "settings": {"family": "3@normal"}}, M.AFTER)
    for argv, words in (((easy, "-d", "normal"), "trained on the family 3@easy, not 3@normal"),
                        ((bare,), "names no family"), ((bare, "--size", "3"), "names no family"),
                        ((bare, "--size", "9", "-d", "easy"), "--size must be in [2, 7]"),
                        ((other,), "other component data"), ((tmp_path / "none.npz",), "no such file"),
                        ((files[0], "--play", "doubt=3", "--why", "x"), "doubt"),
                        ((files[0], "--play", "nope=1", "--why", "x"), "no parameter 'nope'"),
                        ((files[0], "--play", "base=1"), "--play needs --why"),
                        ((files[0], "--to", tmp_path / "missing"), "no such folder")):
        to = () if "--to" in argv else ("--to", shipped)
        one_line_error(*run(capsys, "train", "ship", *argv, *to), words)
    # the lock file of the family's claim (kiai/outputs.py) stays beside it, by design
    assert dest.read_bytes() == before
    assert sorted(p.name for p in shipped.iterdir()) == [f".{dest.name}.lock", dest.name]


def test_a_result_says_in_one_line_what_played(capsys):
    """The first line of `kiai simulate` names what played in words (the family's value, its hash,
    whether its header tunes the play), not every parameter; --json keeps them all."""
    from conftest import run

    code, out, _ = run(capsys, "simulate", "-s", ",".join(FOUR), "-d", "normal", "-n", 20)
    first = out.splitlines()[0]
    assert code == 0 and "strategy selfplay (family value 4 samurai normal, " in first and "tuned play)" in first
    assert "{" not in first and "risk" not in first
    code, out, _ = run(capsys, "simulate", "-s", ",".join(FOUR), "-d", "normal", "-n", 20, "--param", "edge=0.05")
    assert "edge 0.05)" in out.splitlines()[0]
    code, out, _ = run(capsys, "simulate", "-s", ",".join(FOUR), "-d", "normal", "-n", 20, "--json")
    got = json.loads(out)
    assert got["played_as"].startswith("selfplay (family value 4 samurai normal") and got["params"]["risk"] == 0.835
    code, out, _ = run(capsys, "simulate", "-s", "kyuzo,kikuchiyo,heihachi,daisuke,gorobei,kanbei", "-d", "hard", "-n", 5)
    assert "strategy selfplay (learned's answers, model " in out.splitlines()[0] and "no value for 6 samurai" in out


def test_weigh_takes_the_questions_by_name(capsys):
    """`weigh` names the questions (action, cards, second-fight, joined by '+'), or their sum as
    before; a result says them by name; another word is refused in one line before any game."""
    from conftest import one_line_error, run
    from kiai.strategies.run.games import run_games

    by_name = GameConfig(FOUR, "easy", "selfplay", {"weigh": "cards+second-fight"})
    assert by_name.param_dict()["weigh"] == "cards+second-fight"
    np.testing.assert_array_equal(run_games(by_name, 50, seed=2),
                                  run_games(GameConfig(FOUR, "easy", "selfplay", {"weigh": 6}), 50, seed=2))
    one_line_error(*run(capsys, "simulate", "-s", ",".join(FOUR), "-n", 5, "--param", "weigh=hats+cards"),
                   "weigh", "action, cards, second-fight")
    one_line_error(*run(capsys, "simulate", "-s", ",".join(FOUR), "-n", 5, "--strategy", "keeper", "--param", "risk=high"),
                   "risk", "number")
    code, out, _ = run(capsys, "simulate", "-s", ",".join(FOUR), "-n", 5, "--param", "weigh=action+cards", "--json")
    assert code == 0 and json.loads(out)["params"]["weigh"] == "action+cards"
