"""`judge` and the value of the table it plays by: the features read the public table as
documented, the value file's round trip and refusals, TD(lambda) returns, and a tiny
`kiai train value` run that goes end to end and resumes."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from kiai.simcore.components import load_components
from kiai.strategies import judge
from kiai.strategies.helpers.collect import TABLES
from kiai.strategies.nets import table_value
from kiai.training import value as valuefit
from kiai.strategies.nets import modelfile as M
from kiai.strategies.run.config import GameConfig
from kiai.strategies.run.games import run_games, run_one
from conftest import one_line_error, run

pytestmark = pytest.mark.usefixtures("engine")

FOUR = ("kyuzo", "kikuchiyo", "heihachi", "daisuke")


def random_value(h1=6, h2=4, seed=0):
    rng = np.random.default_rng(seed)
    shapes = {"w1": (h1, table_value.N_VALUE_FEATURES), "b1": (h1,), "w2": (h2, h1), "b2": (h2,), "w3": (1, h2), "b3": (1,)}
    return {k: (rng.standard_normal(s) * 0.1).astype(np.float32) for k, s in shapes.items()}


def test_features_read_the_table_from_the_acting_seat():
    """Barricades, the team size's one-hot, and the boards taken clockwise from the acting
    samurai: seat k of the features is seat (acting + k) mod n of the table."""
    game = run_one(GameConfig(FOUR, "normal", "keeper"), seed=3, game_index=0, stop_after_turns=6, trace=False)
    pub = np.array(game.pub, dtype=game.pub.dtype).reshape(1).view(np.recarray)[0]
    x = np.zeros(table_value.N_VALUE_FEATURES)
    table_value.table_features(pub, x)
    names = table_value.NAMES
    assert x[names.index("barricades")] == pub.barricades
    assert x[names.index("n4")] == 1 and x[names.index("n3")] == 0
    a = int(pub.acting)
    for k in range(4):
        s = (a + k) % 4
        assert x[names.index(f"seat{k}.total")] == pub.total[s]
        assert x[names.index(f"seat{k}.samurai{pub.samurai[s]}")] == 1
    assert x[names.index("seat4.present")] == 0  # no fifth samurai
    assert x[names.index("unseen_n")] == pub.unseen[: pub.n_cards].sum()


def test_the_value_in_numba_is_the_plain_arrays_forward_pass(tmp_path):
    arrays = random_value(seed=2)
    path = tmp_path / "v.npz"
    M.save(path, arrays, {"note": "test"}, M.TABLE)
    model = M.load(path, M.TABLE)
    rec = judge.STRATEGY.new_record()
    model.pack(rec[0])
    game = run_one(GameConfig(FOUR, "easy", "keeper"), seed=1, game_index=2, stop_after_turns=9, trace=False)
    pub = np.array(game.pub, dtype=game.pub.dtype).reshape(1).view(np.recarray)[0]
    x = np.zeros(table_value.N_VALUE_FEATURES)
    got = table_value.table_value(rec[0], pub, x)
    assert got == pytest.approx(valuefit.predict(model.arrays, x[None, :].astype(np.float64))[0], rel=1e-5)


def test_the_value_file_round_trips_and_bad_files_are_refused(tmp_path, capsys, monkeypatch):
    arrays = random_value()
    good = tmp_path / "good.npz"
    M.save(good, arrays, {"iteration": 0}, M.TABLE)
    back = M.load(good, M.TABLE)
    assert back.header["feature_schema"] == table_value.SCHEMA and back.header["iteration"] == 0
    for k, v in arrays.items():
        assert np.array_equal(back.arrays[k], v)
    damaged = tmp_path / "damaged.npz"
    damaged.write_bytes(good.read_bytes()[:200])
    other = tmp_path / "other.npz"
    M.save(other, arrays, {"feature_schema": "table-v0:old"}, M.TABLE)
    wide = tmp_path / "wide.npz"
    M.save(wide, random_value(h1=65), {}, M.TABLE)
    for path, words in ((tmp_path / "none.npz", "no such file"), (damaged, "not a kiai value file"),
                        (other, "another feature schema"), (wide, "at most 64")):
        with pytest.raises(M.ModelError, match=words):
            M.load(path, M.TABLE)
        one_line_error(*run(capsys, "simulate", "--strategy", "judge", "--model", str(path), "-s", "kyuzo,kikuchiyo",
                            "-n", 10), words)


def test_td_returns_mix_the_next_values_and_the_outcome():
    won = np.array([1, 1, 1, 0, 0], dtype=np.float32)
    game = np.array([0, 0, 0, 1, 1])
    v = np.array([0.5, 0.2, 0.6, 0.3, 0.9])
    got = valuefit.td_returns(won, game, v, 0.5)
    # game 0: G2 = 1, G1 = 0.5 * 0.6 + 0.5 * 1 = 0.8, G0 = 0.5 * 0.2 + 0.5 * 0.8 = 0.5; game 1: G4 = 0, G3 = 0.45
    assert got == pytest.approx([0.5, 0.8, 1.0, 0.45, 0.0])
    assert valuefit.td_returns(won, game, None, 0.5) == pytest.approx(won)


def test_a_tiny_value_training_goes_end_to_end_and_resumes(tmp_path, monkeypatch):
    pytest.importorskip("torch")
    comp = load_components(None)
    settings = valuefit.ValueSettings(iterations=2, tables=2, games=30, keep=1.0, h1=8, h2=4, epochs=1, seed=5,
                                      eval_games=4)
    folder = tmp_path / "run"
    last = valuefit.train_value(folder, settings, comp)
    assert last == folder / "value-1.npz"
    model = M.load(last, M.TABLE)
    assert model.header["iteration"] == 1 and model.header["positions"] > 0
    assert model.header["settings"]["seed"] == 5
    with np.load(folder / "positions-1.npz") as z:
        assert ((z["y"] >= 0) & (z["y"] <= 1)).all() and len(z["x"]) == len(z["y"])
    # each iteration evaluated: the strong tier over the new value against the previous player
    # (iteration 0: learned), learned and the lookahead, on the same deals
    ev = [json.loads((folder / f"evaluation-{k}.json").read_text()) for k in (0, 1)]
    assert ev[0]["players"] == {"new": "judge", "previous": "learned", "learned": "learned", "lookahead": "lookahead"}
    assert ev[1]["players"]["previous"] == "judge"
    assert ev[0]["previous"]["wins"] == ev[0]["learned"]["wins"]  # the same player on the same deals
    for doc in ev:
        assert doc["new"]["games"] == 4 * len(valuefit.EVAL_TABLES) and sum(t["new"] for t in doc["tables"]) == doc["new"]["wins"]
        assert {"new_vs_previous", "new_vs_learned", "new_vs_lookahead"} <= set(doc)
    from kiai.training import figures as R

    paths = R.write(folder, value=True)
    curve, rows = R.value_tables(folder)
    assert list(rows["iteration"]) == [0, 1] and set(curve["iteration"]) == {0, 1} and all(p.exists() for p in paths)
    # resumed: a finished run recomputes nothing, and a new evaluation size is not another run
    stamps = [f.stat().st_mtime_ns for f in (last, folder / "evaluation-1.json")]
    valuefit.train_value(folder, valuefit.ValueSettings(**{**settings.__dict__, "eval_games": 9}), comp)
    assert [f.stat().st_mtime_ns for f in (last, folder / "evaluation-1.json")] == stamps
    stamp = stamps[0]
    # extended by one more iteration: the first two are kept, the third is added
    more = valuefit.ValueSettings(iterations=3, tables=2, games=30, keep=1.0, h1=8, h2=4, epochs=1, seed=5,
                                  eval_games=0)
    assert valuefit.train_value(folder, more, comp) == folder / "value-2.npz"
    assert last.stat().st_mtime_ns == stamp and M.load(folder / "value-2.npz", M.TABLE).header["iteration"] == 2
    with pytest.raises(valuefit.TrainError, match="other settings"):
        valuefit.train_value(folder, valuefit.ValueSettings(iterations=2, tables=3, games=30, seed=5), comp)
    # and judge plays the value it made
    config = GameConfig(("gorobei", "kanbei", "katsushiro"), "easy", "judge", {"samples": 1}, model=str(last))
    assert config.describe()["model"]["path"] == str(last)  # and its results say so
    rows = run_games(config, 10, seed=1)
    assert (rows[:, 13] == 0).all()  # no illegal answer


@pytest.mark.parametrize("argv, words", [
    (["--iterations", "0"], "--iterations"),
    (["--keep", "0"], "--keep"),
    (["--lambda", "2"], "--lambda"),
    (["--h1", "65"], "--h1"),
    (["--seed", "-1"], "seed"),
    (["--edge", "1"], "--edge"),
    (["--start", "/no/such/value.npz"], "--start"),
    (["--eval-games", "-1"], "--eval-games"),
])
def test_bad_input_to_train_value_is_one_line_before_any_work(tmp_path, capsys, argv, words):
    folder = tmp_path / "run"
    one_line_error(*run(capsys, "train", "value", folder, *argv), words)
    assert not folder.exists()


def test_a_run_can_start_from_a_value_and_play_conservatively(tmp_path, monkeypatch):
    """--start: iteration 0 already plays judge over the given value (its positions are TD returns,
    not 0/1 outcomes); --edge reaches judge's games; a run's folder refuses another start."""
    pytest.importorskip("torch")
    comp = load_components(None)
    first = valuefit.train_value(tmp_path / "a", valuefit.ValueSettings(iterations=1, tables=2, games=30, keep=1.0,
                                                                        h1=8, h2=4, epochs=1, seed=5, eval_games=0),
                                 comp)
    seen = []
    collect = valuefit.collect
    monkeypatch.setattr(valuefit, "collect",
                        lambda cfg, *a, **k: (seen.append({**cfg.params, "what": k["what"]}), collect(cfg, *a, **k))[1])
    sha = M.load(first, M.TABLE).sha256
    settings = valuefit.ValueSettings(iterations=1, tables=2, games=30, keep=1.0, h1=8, h2=4, epochs=1, seed=5,
                                      edge=0.05, start=sha, eval_games=0)
    last = valuefit.train_value(tmp_path / "b", settings, comp, start=first)
    assert all(p["what"] == TABLES and p["edge"] == 0.05 for p in seen) and len(seen) == 2
    with np.load(tmp_path / "b" / "positions-0.npz") as z:
        assert ((z["y"] > 0) & (z["y"] < 1)).any()  # returns mix the start's values in
    header = M.load(last, M.TABLE).header
    assert "continued" in header["method"] and header["settings"]["start"] == sha
    assert header["started_from"]["iteration"] == 0 and header["started_from"]["settings"]["seed"] == 5
    with pytest.raises(valuefit.TrainError, match="other settings"):
        valuefit.train_value(tmp_path / "b", valuefit.ValueSettings(iterations=1, tables=2, games=30, keep=1.0,
                                                                    h1=8, h2=4, epochs=1, seed=5, edge=0.05), comp)


def test_train_value_refuses_a_file_for_its_folder(tmp_path, capsys):
    f = tmp_path / "file"
    f.write_text("x")
    one_line_error(*run(capsys, "train", "value", f), "is a file")


def test_the_shipped_value_file_is_a_value_file():
    model = M.load(M.shipped_path(M.TABLE), M.TABLE)
    assert model.header["feature_schema"] == table_value.SCHEMA
    assert json.dumps(model.header)  # provenance is plain JSON


def test_judge_as_a_teacher_labels_each_question_with_every_answers_value():
    """label_games with judge: a row per weighed question in the lookahead's layout, each legal
    answer's slot holding its value (a chance to win) and the chosen slot among them."""
    from kiai.strategies.nets.features import N_FEATURES
    from kiai.strategies.lookahead import LABEL_WIDTH
    from kiai.strategies.run.games import label_games

    out, rows = label_games(GameConfig(("kyuzo", "kikuchiyo", "heihachi"), "easy", "judge", {"samples": 1}), 10, seed=3)
    assert rows.shape[1] == LABEL_WIDTH and len(rows) > 50 and (out[:, 13] == 0).all()
    vals, chosen = rows[:, 1 + N_FEATURES:-1], rows[:, -1].astype(int)
    legal = ~np.isnan(vals)
    assert (legal.sum(axis=1) >= 2).all() and ((vals[legal] >= 0) & (vals[legal] <= 1)).all()
    assert legal[np.arange(len(rows)), chosen].all()
    with pytest.raises(Exception, match="labels come from"):
        label_games(GameConfig(("kyuzo", "kikuchiyo", "heihachi"), "easy", "keeper"), 2, seed=3)


def test_train_value_in_a_log_says_each_stage_and_how_far_it_has_gone(tmp_path, capsys):
    """Not on a terminal (a run's log file), progress bars draw nothing: each stage says it
    started and every tenth of it, as `kiai train learned` does."""
    pytest.importorskip("torch")
    code, out, err = run(capsys, "train", "value", tmp_path / "run", "--iterations", 1, "--tables", 2, "-n", 20,
                         "--keep", 1, "--h1", 8, "--h2", 4, "--epochs", 1, "--seed", 3, "--eval-games", 2)
    assert code == 0, err
    # the self-play stage counts games (2 tables x 20), with its rate from the second table on
    assert "iteration 0: self-play of learned: 40 to do" in err
    assert re.search(r"iteration 0: self-play of learned: 40 of 40 in [\d.]+ min \([\d,.]+ games/s\)", err), err
    assert "epoch 0: loss" in err and "value files in" in out
    # the training report: each iteration's evaluation, printed and drawn
    assert "iteration 0: evaluation: 24 to do" in err and "iteration 0: judge " in out and "lookahead " in out
    assert (tmp_path / "run" / "training.png").exists() and (tmp_path / "run" / "training.csv").exists()


# the games judge played (`turns` 0, two samples) when it played every sample of every answer:
# the digests tests/data/digests.json held before an answer whose play reads nothing hidden was
# played on one sample only. Katsushiro's redraw puts a card back as it draws one, so a count of
# the stack alone misses that read: the trio with Katsushiro caught it.
EVERY_SAMPLE = {
    ("gorobei,kanbei,katsushiro", "easy", "on"): "09de931a01092070b917bda8ec8cd01958ff880e8934cd5efe96f2e31753284e",
    ("heihachi,daisuke", "hard", "auto"): "d418bd1ffc8f0b65546604d644a25b4926b63f394fc8c08bb1690559adca2e54",
    ("kyuzo,kikuchiyo,heihachi,daisuke", "normal", "auto"): "b7a0451a1edc06752c2464567d040bf3530be6ded686f5e9485af4d6ca866bda",
}


@pytest.mark.parametrize("lineup,level,absent", sorted(EVERY_SAMPLE))
def test_one_sample_stands_for_all_exactly_when_play_reads_nothing_hidden(lineup, level, absent):
    import hashlib

    # judge's play before the race (race 0, over learned)
    config = GameConfig(tuple(lineup.split(",")), level, "judge", {"samples": 2, "turns": 0, "race": 0, "base": 1},
                        absent_tokens=absent)
    rows = run_games(config, 12, seed=20261123)
    assert hashlib.sha256(np.ascontiguousarray(rows).tobytes()).hexdigest() == EVERY_SAMPLE[(lineup, level, absent)]


def test_the_training_chart_says_why_its_win_rate_panel_is_empty():
    """A run with --eval-games 0 has no evaluation to draw: the right panel says so instead of
    showing bare axes; a run with evaluations draws them and says nothing of the kind."""
    import matplotlib.pyplot as plt
    import pandas as pd

    from kiai.training import figures as R

    curve = pd.DataFrame({"iteration": [0, 0], "head": ["value"] * 2, "epoch": [0, 1], "loss": [0.3, 0.2]})
    empty = R.plot(curve, pd.DataFrame(), value=True, player="selfplay")
    assert [t.get_text() for t in empty.axes[1].texts] == [R.NO_EVALUATION]
    rates = {f"{arm}_{k}": [0.5] for arm in R.VALUE_ARMS for k in ("win_rate", "ci_lo", "ci_hi")}
    drawn = R.plot(curve, pd.DataFrame({"iteration": [0], **rates}), value=True, player="selfplay")
    assert len(drawn.axes[1].texts) == 0 and len(drawn.axes[1].lines) > 0
    plt.close("all")


def test_judge_plays_its_family_value_where_kiai_ships_one(tmp_path, monkeypatch):
    """A family's value (judge-K-LEVEL.npz) plays on that family's tables, a house level's as its
    official level's; the general value elsewhere; --model's over both."""
    arrays = random_value(seed=7)
    fam = tmp_path / "judge-3-easy.npz"
    M.save(fam, arrays, {"note": "family"}, M.TABLE)
    monkeypatch.setattr(judge, "DATA_DIR", tmp_path)
    three = GameConfig(("kyuzo", "kikuchiyo", "heihachi"), "easy", "judge")
    rec = judge.plan_record(three)
    assert np.array_equal(rec[0]["vw1"][:, :6], arrays["w1"].T)
    assert judge.value_path(table=(3, "easy")) == str(fam)
    assert judge.value_path(table=(3, "normal")) is None and judge.value_path(table=(4, "easy")) is None
    other = judge.plan_record(GameConfig(("kyuzo", "kikuchiyo", "heihachi"), "normal", "judge"))
    general = judge.load_model()
    assert other[0]["vh1"] == general.arrays["w1"].shape[0] != 6
    assert judge.value_path(str(fam), (4, "hard")) == str(fam)
    given = judge.plan_record(GameConfig(("kyuzo", "kikuchiyo", "heihachi", "daisuke"), "hard", "judge", model=str(fam)))
    assert np.array_equal(given[0]["vw1"][:, :6], arrays["w1"].T)  # --model over the general value
