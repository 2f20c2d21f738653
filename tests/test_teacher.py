"""Expert iteration for selfplay's value (training.teacher): judge, as a teacher, writes every
answer it weighs as the afterstate selfplay reads with judge's estimate of it, without changing a
game; the targets keep judge's differences between answers while the games set their level."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from numba import njit

from kiai.simcore import state
from kiai.simcore.results import O_ILLEGAL
from kiai.simcore.questions import ACT_FIGHT, ACT_PASS, Q_ACTION
from kiai.strategies.helpers.collect import COLLECTOR, TEACH
from kiai.strategies.nets import afterstate as A
from kiai.strategies import selfplay
from kiai.training import teacher as T
from kiai.training.families import Family
from kiai.strategies.run.config import GameConfig
from kiai.strategies.run.games import run_games

from conftest import one_line_error, run
from test_selfplay import _features, table_at

pytestmark = pytest.mark.usefixtures("engine")

FOUR = ("kyuzo", "kikuchiyo", "heihachi", "daisuke")
JUDGES = str(Path(A.__file__).parents[1] / "data" / "value.npz")  # judge's value of the table: not selfplay's kind


@njit(cache=True)
def _teach(pub, mems, question, cand, k, est, best, played):
    A.teach_rows(pub, mems[0], question, cand, k, est, best, played)


@pytest.mark.parametrize("lineup,level,turns", [(FOUR, "normal", 5), (("gorobei", "kanbei", "katsushiro"), "easy", 11)])
def test_a_teachers_rows_are_each_answers_afterstate_as_selfplay_reads_it(lineup, level, turns):
    """One row per answer: the game, the question, the answer's place, whether it was given, the
    estimate, then exactly the features selfplay's value reads for that answer."""
    pub = table_at(lineup, level, 5, 0, turns)
    seat = int(pub.acting)
    cand = np.array([ACT_FIGHT, ACT_PASS] + [2 + r for r in range(int(pub.n)) if r != seat], dtype=np.int64)
    k = len(cand)
    buf = np.zeros((k + 1, A.TEACH_WIDTH), dtype=np.float32)
    hook = np.zeros(1, dtype=COLLECTOR)
    hook[0] = (buf.ctypes.data, len(buf), 0, TEACH, 0.0)
    mems = np.zeros(1, dtype=state.MEM)
    mems[0]["collect"], mems[0]["game"] = hook.ctypes.data, 17
    mems[0]["q"], mems[0]["seat"], mems[0]["a"] = Q_ACTION, seat, -1
    est = np.linspace(0.2, 0.4, k)
    _teach(pub, mems, 42, cand, k, est, 1, cand[2])  # the teacher's best is answer 1; answer 2 is played
    assert hook[0]["n"] == k and not buf[k].any()
    np.testing.assert_array_equal(buf[:k, A.T_GAME], 17)
    np.testing.assert_array_equal(buf[:k, A.T_QUESTION], 42)
    np.testing.assert_array_equal(buf[:k, A.T_RANK], np.arange(k))
    np.testing.assert_array_equal(buf[:k, A.T_CHOSEN], (np.arange(k) == 1) * A.CHOSEN_BEST + (np.arange(k) == 2) * A.CHOSEN_PLAYED)
    np.testing.assert_allclose(buf[:k, A.T_ESTIMATE], est, rtol=1e-6)
    for i in range(k):
        np.testing.assert_array_equal(buf[i, A.T_ESTIMATE + 1:], _features(pub, Q_ACTION, seat, -1, cand[i], False))
    # a question whose rows do not all fit is left out whole
    hook[0]["n"] = 2
    _teach(pub, mems, 43, cand, k, est, 0, cand[0])
    assert hook[0]["n"] == 2


def test_judge_as_selfplays_teacher_plays_the_same_games_and_labels_every_answer():
    """A run collecting TEACH from judge: the games are judge's own, bit for bit; each weighed question's answers come
    together, the base's own first, and the one judge gave is the one its rule picks from the
    estimates (the base's answer unless another is worth `edge` more)."""
    config = GameConfig(FOUR, "easy", "judge", {"samples": 2})
    lab = T.collect_labels(config, 6, seed=3, game_offset=10)
    np.testing.assert_array_equal(lab["out"], run_games(GameConfig(FOUR, "easy", "judge", {"samples": 2}), 6, seed=3,
                                                        game_offset=10))
    assert set(lab["game"]) == set(range(6)) and lab["x"].shape[1] == A.N_AFTER
    est = lab["estimate"]
    assert ((est >= 0) & (est <= 1)).all()
    q = T.question_ids(lab["rank"])
    k = np.bincount(q)
    assert (k >= 2).all() and np.bincount(q, lab["chosen"]).tolist() == [1] * len(k)
    np.testing.assert_array_equal(lab["rank"], np.arange(len(q)) - np.r_[0, np.cumsum(k)][q])
    edge = 0.03
    for j in range(len(k)):
        rows = q == j
        e, c = est[rows], int(np.flatnonzero(lab["chosen"][rows])[0])
        if c == 0:
            assert e[0] + edge >= e.max() - 1e-6
        else:
            assert e[c] > e[0] + edge - 1e-6 and e[c] >= e.max() - 1e-6
    # the rows of one question share their game and question number, and differ in their features
    first = np.flatnonzero(lab["rank"] == 0)
    assert (lab["question"][first + 1] == lab["question"][first]).all()
    assert (lab["x"][first + 1] != lab["x"][first]).any(axis=1).all()


def test_the_lookahead_as_selfplays_teacher_plays_the_same_games_and_labels_every_answer():
    """A run collecting TEACH from the lookahead weighing every question: its games are those it
    plays, and each weighed question's answers come together with one given; its estimates are
    its rollouts' chances to win."""
    params = {"samples": 2, "base": 5, "decisions": 1}
    lab = T.collect_labels(GameConfig(FOUR, "easy", "lookahead", params), 3, seed=4)
    np.testing.assert_array_equal(lab["out"], run_games(GameConfig(FOUR, "easy", "lookahead", params), 3, seed=4))
    q = T.question_ids(lab["rank"])
    assert (np.bincount(q) >= 2).all() and (np.bincount(q, lab["chosen"]) == 1).all()
    assert ((lab["estimate"] >= 0) & (lab["estimate"] <= 1)).all() and lab["x"].shape[1] == A.N_AFTER
    from kiai.simcore.config import ConfigError
    from kiai.strategies.run.games import label_games

    with pytest.raises(ConfigError, match="labels come from"):  # learned's labels: a planner that weighs
        label_games(GameConfig(FOUR, "easy", "lookahead", {**params, "decisions": 0}), 1, seed=4)


def test_targets_mix_the_values_view_with_the_experts_differences_on_its_level():
    """share 0 keeps the value's own view, share 1 puts the expert's differences (in logits, times
    the calibration's slope) on the value's level at the answer the expert gave."""
    est = np.array([0.2, 0.3, 0.25, 0.6, 0.5])
    rank = np.array([0, 1, 2, 0, 1])
    chosen = np.array([False, True, False, True, False])
    own = np.array([0.4, 0.35, 0.5, 0.1, 0.2])
    np.testing.assert_allclose(T.targets(est, rank, chosen, own, 0.0), own, rtol=1e-6)
    lg = T.logit
    one = T.targets(est, rank, chosen, own, 1.0, slope=2.0)
    np.testing.assert_allclose(one[chosen], own[chosen], rtol=1e-6)  # the level: the value's, where the expert played
    np.testing.assert_allclose(lg(one[:3]) - lg(one[1]), 2 * (lg(est[:3]) - lg(est[1])), rtol=1e-5)
    half = T.targets(est, rank, chosen, own, 0.5, slope=2.0)
    np.testing.assert_allclose(lg(half), (lg(own) + lg(one)) / 2, rtol=1e-5)
    # a game over within the rollouts (an estimate of 0) pushes its answer down, not off the scale
    far = T.targets(np.array([0.5, 0.0]), np.array([0, 1]), np.array([True, False]), np.array([0.5, 0.5]), 1.0)
    assert 0 < far[1] < 1e-3


def test_calibration_maps_the_estimates_onto_the_games():
    """A teacher whose estimates run low (logit shifted by -1) is mapped back: (a, b) near (1, 1)."""
    rng = np.random.default_rng(0)
    true = rng.uniform(0.05, 0.95, 40_000)
    est = 1 / (1 + np.exp(-(np.log(true / (1 - true)) - 1.0)))
    won = (rng.random(len(true)) < true).astype(np.float32)
    a, b = T.calibration(est, won, np.ones(len(est), dtype=bool))
    assert abs(a - 1.0) < 0.08 and abs(b - 1.0) < 0.05


TINY = ["--player", "selfplay", "--teacher", "judge", "--size", 2, "-d", "easy", "--hold-out", 3, "--seed", 7,
        "--tables", 2, "-n", 3, "--keep", 1, "--epochs", 1]


def test_a_tiny_expert_iteration_goes_end_to_end_resumes_and_repeats(tmp_path, capsys):
    """kiai train-value --teacher judge: each iteration's labels, value and evaluation on the
    family's held-out line-ups, from the family's shipped value; a second run gives the same
    weights, a finished run recomputes nothing, and other settings are another run."""
    pytest.importorskip("torch")
    from kiai.strategies.nets import modelfile as M

    folder = tmp_path / "run"
    code, out, err = run(capsys, "train", "value", folder, *TINY, "--iterations", 2, "--eval-games", 1)
    assert code == 0, err
    start = M.load(M.family_path(2, "easy"), M.AFTER)
    values = [M.load(folder / f"value-{k}.npz", M.AFTER) for k in (0, 1)]
    for k, v in enumerate(values):
        h = v.header
        assert h["iteration"] == k and h["settings"]["teacher"] == "judge" and h["settings"]["share"] == 0.5
        assert h["settings"]["start"] == start.sha256 and "expert iteration" in h["method"]
        assert h["play"] == selfplay.value_params(start) and h["positions"] > h["questions"] > 0
        assert h["started_from"]["settings"] == start.header["settings"] and len(h["calibration"]) == 2
        assert h["components_data_sha256"] == start.header["components_data_sha256"]
    assert not (folder / "positions-0.npz").exists()  # no later iteration fits on it
    with np.load(folder / "positions-1.npz") as z:
        assert z["x"].shape[1] == A.N_AFTER and set(z.files) == {"x", "estimate", "rank", "chosen", "won"}
    ev = json.loads((folder / "evaluation-1.json").read_text())
    held = [",".join(s) for s in Family(2, "easy", 3, 7).held()]
    assert [t["lineup"] for t in ev["tables"]] == held and ev["players"]["new"] == "selfplay"
    assert "iteration 1" in out
    rows = run_games(GameConfig(("gorobei", "kanbei"), "easy", "selfplay", model=str(folder / "value-1.npz")), 5, seed=1)
    assert (rows[:, O_ILLEGAL] == 0).all()
    steps = sorted([*folder.glob("value-*.npz"), *folder.glob("positions-*.npz"), *folder.glob("evaluation-*.json")])
    stamps = [f.stat().st_mtime_ns for f in steps]
    assert run(capsys, "train", "value", folder, *TINY, "--iterations", 2, "--eval-games", 1)[0] == 0
    assert [f.stat().st_mtime_ns for f in steps] == stamps and len(steps) == 5
    one_line_error(*run(capsys, "train", "value", folder, *TINY, "--iterations", 2, "--share", 0.3), "other settings")
    # from the same seed, the same labels and the same weights
    assert run(capsys, "train", "value", tmp_path / "again", *TINY, "--iterations", 1, "--eval-games", 0)[0] == 0
    again = M.load(tmp_path / "again" / "value-0.npz", M.AFTER)
    for name, a in values[0].arrays.items():
        np.testing.assert_array_equal(again.arrays[name], a)


@pytest.mark.parametrize("argv, words", [
    (["--player", "selfplay", "--teacher", "oracle", "--size", 2, "-d", "easy"], ["--teacher", "judge, lookahead"]),
    (["--teacher", "judge"], ["--teacher", "--player selfplay"]),
    (["--player", "selfplay", "--teacher", "judge"], ["--teacher", "--start"]),
    (["--player", "selfplay", "--teacher", "judge", "--size", 6, "-d", "hard"], ["--teacher", "--start"]),
    (["--player", "selfplay", "--teacher", "judge", "--size", 2, "-d", "easy", "--share", 2], ["--share"]),
    (["--player", "selfplay", "--teacher", "judge", "--size", 2, "-d", "easy", "--h1", 64], ["--h1", "128"]),
    (["--player", "selfplay", "--teacher", "judge", "--start", "/no/such/value.npz"], ["--start"]),
    (["--player", "selfplay", "--teacher", "judge", "--start", JUDGES], ["--start", "judge's value, not selfplay's"]),
    # the family's shipped value played the line-ups another seed would hold out
    (["--player", "selfplay", "--teacher", "judge", "--size", 4, "-d", "easy", "--hold-out", 3, "--seed", 8],
     ["--start", "played"]),
    (["--player", "selfplay", "--teacher", "judge", "--size", 2, "-d", "easy", "--loss", "hinge"], ["--loss", "regret"]),
    (["--player", "selfplay", "--size", 2, "-d", "easy", "--loss", "regret"], ["--loss", "--teacher judge"]),
    (["--player", "selfplay", "--teacher", "lookahead", "--size", 2, "-d", "easy", "--loss", "regret",
      "--teacher-samples", 65], ["--teacher-samples", "[0, 64]"]),
    (["--player", "selfplay", "--size", 2, "-d", "easy", "--teacher-samples", 8], ["--teacher-samples", "--teacher"]),
    (["--player", "selfplay", "--teacher", "judge", "--size", 2, "-d", "easy", "--loss", "regret", "--temperature", 0],
     ["--temperature"]),
    (["--player", "selfplay", "--teacher", "judge", "--size", 2, "-d", "easy", "--loss", "regret", "--anchor", -1],
     ["--anchor"]),
])
def test_bad_input_to_the_teacher_mode_is_one_line_before_any_work(tmp_path, capsys, argv, words):
    folder = tmp_path / "run"
    one_line_error(*run(capsys, "train", "value", folder, *argv), *words)
    assert not folder.exists()


@pytest.mark.parametrize("lineup,level", [(FOUR, "easy"), (("gorobei", "kanbei", "kikuchiyo"), "normal")])
def test_judge_following_the_default_plays_the_defaults_games_bit_for_bit(lineup, level, tmp_path):
    """judge with `follow` 1 weighs every answer but plays the default's: its games are selfplay's own
    (over learned at 4 Easy, over keeper at 3 Normal), with the family's value or the one `following`
    names; each question's rows share one game and question, with one best and one played answer;
    another `salt` labels the same questions on other samples."""
    params = {**T.FOLLOW, "samples": 2}
    lab = T.collect_labels(GameConfig(lineup, level, "judge", params), 5, seed=9)
    np.testing.assert_array_equal(lab["out"], run_games(GameConfig(lineup, level, "selfplay"), 5, seed=9))
    q = T.question_ids(lab["rank"])
    assert (np.bincount(q) >= 2).all()
    assert (np.bincount(q, lab["chosen"]) == 1).all() and (np.bincount(q, lab["played"]) == 1).all()
    for col in ("game", "question"):  # the groups never mix two questions
        first = np.flatnonzero(lab["rank"] == 0)
        np.testing.assert_array_equal(lab[col], lab[col][first][q])
    assert 0.5 < lab["chosen"][lab["played"]].mean() < 1.0  # the default often, not always, plays judge's best
    other = T.collect_labels(GameConfig(lineup, level, "judge", {**params, "salt": 1}), 5, seed=9)
    np.testing.assert_array_equal(other["out"], lab["out"])
    np.testing.assert_array_equal(other["rank"], lab["rank"])
    assert (other["estimate"] != lab["estimate"]).any()
    # following another value: the games of selfplay playing it
    from kiai.strategies.nets import modelfile as M
    from kiai.strategies.run.games import following

    theirs = M.load(M.family_path(len(lineup), level), M.AFTER)
    arrays = {k: v * (0.5 if k == "w3" else 1.0) for k, v in theirs.arrays.items()}
    path = tmp_path / "other.npz"
    M.save(path, arrays, {k: v for k, v in theirs.header.items() if k not in ("format", "kind", "feature_schema")}, M.AFTER)
    with following(str(path)):
        moved = T.collect_labels(GameConfig(lineup, level, "judge", params), 5, seed=9)
    np.testing.assert_array_equal(moved["out"], run_games(GameConfig(lineup, level, "selfplay", model=str(path)), 5,
                                                          seed=9))


def test_a_tiny_run_of_the_regret_loss_follows_the_default_end_to_end(tmp_path, capsys):
    """--loss regret: the labels come from the default's games (judge following it), and the value
    is fitted to the within-question loss; its header says how it was made."""
    pytest.importorskip("torch")
    from kiai.strategies.nets import modelfile as M

    folder = tmp_path / "run"
    code, out, err = run(capsys, "train", "value", folder, *TINY, "--iterations", 1, "--eval-games", 0,
                         "--loss", "regret")
    assert code == 0, err
    v = M.load(folder / "value-0.npz", M.AFTER)
    h = v.header
    assert h["settings"]["loss"] == "regret" and "DAgger" in h["method"] and "calibration" not in h
    assert h["positions"] > h["questions"] > 0
    start = M.load(M.family_path(2, "easy"), M.AFTER)
    assert any((v.arrays[k] != start.arrays[k]).any() for k in v.arrays)
    rows = run_games(GameConfig(("gorobei", "kanbei"), "easy", "selfplay", model=str(folder / "value-0.npz")), 5, seed=1)
    assert (rows[:, O_ILLEGAL] == 0).all()
    # from the same seed, the same labels and the same weights; a finished run recomputes nothing
    stamp = (folder / "value-0.npz").stat().st_mtime_ns
    args = [*TINY, "--iterations", 1, "--eval-games", 0, "--loss", "regret"]
    assert run(capsys, "train", "value", folder, *args)[0] == 0 and (folder / "value-0.npz").stat().st_mtime_ns == stamp
    assert run(capsys, "train", "value", tmp_path / "again", *args)[0] == 0
    again = M.load(tmp_path / "again" / "value-0.npz", M.AFTER)
    for name, a in v.arrays.items():
        np.testing.assert_array_equal(again.arrays[name], a)


def test_labels_that_cannot_be_written_leave_no_file_behind(tmp_path, monkeypatch):
    """A full disk while the labels are saved: the error goes up, and neither the labels nor a
    half-written file of them stays, so a resumed run labels that iteration again."""
    from kiai.training import value as V
    from kiai.training.common import Stages

    settings = V.ValueSettings(player="selfplay", teacher="judge", loss="regret", tables=1, games=1, keep=1.0,
                               table="gorobei,kanbei@easy")
    rows = {"x": np.zeros((2, A.N_AFTER), np.float32), "estimate": np.array([0.4, 0.5]), "rank": np.array([0, 1]),
            "chosen": np.array([False, True]), "played": np.array([True, False]), "won": np.array([True, True])}
    monkeypatch.setattr(T, "collect_labels", lambda *a, **k: dict(rows))

    def full(*a, **k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(T.np, "savez", full)
    path = tmp_path / "positions-0.npz"
    with pytest.raises(OSError, match="No space"):
        T.label(path, settings, None, Stages(), 0, follows=None)
    assert list(tmp_path.iterdir()) == []


def test_the_followed_defaults_record_is_built_once_a_table_and_value(monkeypatch):
    """follow_default builds the default's record for a table and value once, and points every
    later planner record of that table at the same one."""
    from kiai.strategies import selfplay
    from kiai.strategies.run import games
    from kiai.strategies.run.config import GameConfig

    monkeypatch.setattr(games, "_FOLLOWED", {})
    built = []
    real = selfplay.data_record
    monkeypatch.setattr(selfplay, "data_record", lambda config: built.append(config) or real(config))
    cfg = GameConfig(("gorobei", "kanbei"), "easy", "judge", {"follow": 1})
    recs = [np.zeros(1, dtype=[("follow_fn", "i8"), ("follow_at", "i8")]) for _ in range(2)]
    for rec in recs:
        games.follow_default(cfg, rec)
    assert len(built) == 1 and recs[0]["follow_at"] == recs[1]["follow_at"] != 0
