"""`learned`, its model file and `kiai train learned` (issue 13): the network inside numba computes what
the plain arrays say, the zero model plays exactly as keeper, bad model files are refused with
one line, and a tiny training run goes end to end, resumes, and reproduces from its seed."""

from __future__ import annotations

import json

import numpy as np
import pytest

from kiai.cli.main import main
from kiai.simcore.components import load_components
from kiai.simcore.state import MEM
from kiai.strategies import learned
from kiai.training import learned as training
from kiai.strategies.nets.features import N_FEATURES, SCHEMA
from kiai.strategies.nets.modelfile import HEADS, LEARNED, ModelError, other_components, other_data_error, shapes
from kiai.strategies.nets.modelfile import load as load_file
from kiai.strategies.nets.modelfile import save as save_file
from kiai.strategies.nets.modelfile import shipped_path
from kiai.strategies.run.config import GameConfig
from kiai.strategies.run.games import run_games
from conftest import one_line_error, run


def load(path=None, components=None):
    """learned's model file (the shipped one by default)."""
    return load_file(path, LEARNED, components)


def load_strict(path):
    """learned's model file, refused as --strict refuses it when made for other component data."""
    model = load(path, COMP)
    if other_components(model, COMP):
        raise other_data_error(model, COMP)
    return model


def save(path, arrays, header):
    save_file(path, arrays, header, LEARNED)


def default_path():
    return shipped_path(LEARNED)

pytestmark = pytest.mark.usefixtures("engine")

FOUR = ("kyuzo", "kikuchiyo", "heihachi", "daisuke")
COMP = load_components(None)
SHA = COMP.sha256


def random_model(hidden=6, seed=0, scale=0.3):
    rng = np.random.default_rng(seed)
    arrays = {}
    for name, shape in shapes(hidden).items():
        arrays[name] = (rng.standard_normal(shape) * scale).astype(np.float32)
    header = {"architecture": training.architecture(hidden), "positions": 0, "teacher": "none (test)", "seeds": [seed],
              "components_sha256": SHA}
    return arrays, header


def test_the_network_in_numba_is_the_plain_arrays_forward_pass():
    """learned's scores (float32, inside numba, transposed and padded storage, outputs summed a
    block at a time) against numpy's float64 forward pass of the same arrays, on feature vectors
    with zeros, negatives and one-hots; 7 hidden units, so that the padding is exercised. With
    two members (an ensemble) the scores are the mean of the two networks'."""
    members = [random_model(hidden=7, seed=3)[0], random_model(hidden=7, seed=11)[0]]
    rec = np.zeros(1, dtype=learned.STRATEGY.dtype)[0]
    for j, arrays in enumerate(members):
        learned.pack(arrays, 7, rec, j)
    rng = np.random.default_rng(1)

    def forward(arrays, head, x):
        w = {k: arrays[f"{head}_{k}"].astype(np.float64) for k in ("w1", "b1", "w2", "b2", "w3", "b3")}
        return w["w3"] @ np.maximum(w["w2"] @ np.maximum(w["w1"] @ x + w["b1"], 0) + w["b2"], 0) + w["b3"]

    for head, slots in HEADS.items():
        p = head[0]
        for _ in range(20):
            x = rng.standard_normal(N_FEATURES) * (rng.random(N_FEATURES) < 0.3)
            one, other = forward(members[0], head, x), forward(members[1], head, x)
            for n, want in ((1, one), (2, (one + other) / 2)):
                work = np.zeros(MEM.fields["work"][0].shape, dtype=np.float32)
                work[learned._X : learned._X + N_FEATURES] = x
                learned._scores(rec[f"{p}w1"], rec[f"{p}b1"], rec[f"{p}w2"], rec[f"{p}b2"], rec[f"{p}w3"],
                                rec[f"{p}b3"], n, N_FEATURES, 7, slots, work, np.zeros(160, dtype=np.int64))
                np.testing.assert_allclose(work[learned.OUT : learned.OUT + slots], want, rtol=1e-4, atol=1e-4)


def test_subnormal_weights_are_played_as_zeros():
    """Subnormal weights (dead units' leftovers) cost a hundredfold in float arithmetic on x86:
    the record the engine plays holds none, and every other weight is kept exactly."""
    arrays, _ = random_model(hidden=7, seed=4)
    arrays["action_w1"][0, :5] = np.float32(1e-40)
    arrays["card_b2"][2] = np.float32(-3e-39)
    rec = np.zeros(1, dtype=learned.STRATEGY.dtype)[0]
    learned.pack(arrays, 7, rec)
    tiny = np.finfo(np.float32).tiny
    for name in learned.STRATEGY.dtype.names:
        if rec[name].dtype == np.float32:
            a = np.abs(rec[name])
            assert not ((a > 0) & (a < tiny)).any(), name
    assert (rec["aw1"][0, :5, 0] == 0).all() and rec["cb2"][0, 2] == 0  # stored transposed
    assert rec["aw1"][0, 5, 0] == arrays["action_w1"][0, 5] and rec["aw1"][0, 0, 1] == arrays["action_w1"][1, 0]


def test_saved_models_hold_no_subnormal_weights(tmp_path):
    """kiai train learned's fits leave subnormal weights; model.save writes them as 0 and every other
    weight exactly."""
    arrays, header = random_model(hidden=6, seed=8)
    arrays["action_w2"][1, :3] = np.float32(2e-40)
    arrays["card_b1"][4] = np.float32(-1e-39)
    save(tmp_path / "m.npz", arrays, header)
    m = load(tmp_path / "m.npz", COMP)
    tiny = np.finfo(np.float32).tiny
    for k, v in m.arrays.items():
        assert not ((np.abs(v) > 0) & (np.abs(v) < tiny)).any(), k
        keep = np.abs(arrays[k]) >= tiny
        np.testing.assert_array_equal(v[keep], arrays[k][keep])
    assert (m.arrays["action_w2"][1, :3] == 0).all() and m.arrays["card_b1"][4] == 0


def test_the_zero_model_plays_exactly_as_keeper(tmp_path):
    """Iteration 0's start: scores 0 above keeper's answer everywhere, so learned never leaves
    it; a model that scores anything else plays other games."""
    arrays, header = training.keeper_model()
    save(tmp_path / "zero.npz", arrays, {**header, "components_sha256": SHA})
    arrays_r, header_r = random_model()
    save(tmp_path / "random.npz", arrays_r, header_r)
    for lineup, level in ((FOUR, "normal"), (("gorobei", "kanbei", "katsushiro"), "easy"), (("heihachi", "daisuke"), "hard")):
        keeper = run_games(GameConfig(lineup, level, "keeper"), 300, seed=5)
        zero = run_games(GameConfig(lineup, level, "learned", model=str(tmp_path / "zero.npz")), 300, seed=5)
        other = run_games(GameConfig(lineup, level, "learned", model=str(tmp_path / "random.npz")), 300, seed=5)
        np.testing.assert_array_equal(keeper, zero)
        assert (keeper != other).any(axis=1).sum() > 30


def test_a_model_round_trips_and_the_shipped_one_says_how_it_was_made(tmp_path):
    arrays, header = random_model(hidden=5)
    save(tmp_path / "m.npz", arrays, header)
    m = load(tmp_path / "m.npz", COMP)
    assert m.hidden == 5 and m.header["feature_schema"] == SCHEMA
    for k, v in arrays.items():
        np.testing.assert_array_equal(m.arrays[k], v)
    shipped = load(default_path(), COMP)
    for key in ("feature_schema", "architecture", "positions", "teacher", "seeds", "components_sha256",
                "kiai_version", "date"):
        assert key in shipped.header, key


def test_an_ensemble_file_round_trips_and_plays_the_mean_of_its_members(tmp_path):
    """model.ensemble: one file, each member's arrays kept. It plays the mean of its members'
    scores: with a member that scores 0 everywhere the mean is half the other's, so at `edge` e
    it plays exactly the games the other plays alone at 2e (halving and doubling are exact),
    and not those at e. The mean of a model with itself is that model, game for game."""
    from kiai.strategies.nets.modelfile import ensemble

    arrays, header = random_model(seed=1)
    save(tmp_path / "m.npz", arrays, header)
    save(tmp_path / "zero.npz", {k: np.zeros_like(v) for k, v in arrays.items()}, header)
    m, zero = load(tmp_path / "m.npz", COMP), load(tmp_path / "zero.npz", COMP)
    for name, members in (("mm", [m, m]), ("zm", [zero, m])):
        save(tmp_path / f"{name}.npz", *ensemble(members, m.header))
    zm = load(tmp_path / "zm.npz", COMP)
    assert zm.members == 2 and zm.header["member_sha256"] == [zero.sha256, m.sha256]
    for k, v in arrays.items():
        np.testing.assert_array_equal(zm.member(1)[k], v)

    def games(name, edge):
        return run_games(GameConfig(FOUR, "normal", "learned", {"edge": edge}, model=str(tmp_path / f"{name}.npz")),
                         300, seed=2)  # fmt: skip

    np.testing.assert_array_equal(games("zm", 0.04), games("m", 0.08))
    assert (games("zm", 0.04) != games("m", 0.04)).any(axis=1).sum() > 30
    np.testing.assert_array_equal(games("mm", 0.04), games("m", 0.04))
    with np.load(tmp_path / "zm.npz") as z:
        kept = {k: z[k] for k in z.files if k != "m1_card_w2"}
    np.savez(tmp_path / "lame.npz", **kept)
    with pytest.raises(ModelError, match="m1_card_w2 is missing"):
        load(tmp_path / "lame.npz", COMP)


def _damaged(tmp_path):
    arrays, header = random_model()
    save(tmp_path / "good.npz", arrays, header)
    good = (tmp_path / "good.npz").read_bytes()
    (tmp_path / "broken.npz").write_bytes(good[: len(good) // 2])
    (tmp_path / "text.npz").write_text("not a model\n")
    with np.load(tmp_path / "good.npz") as z:
        doc = json.loads(str(z["header"]))
        kept = {k: z[k] for k in z.files if k != "header"}
    for name, change in (("schema", {"feature_schema": SCHEMA + 1}), ("other", {"components_sha256": "0" * 64}),
                         ("format", {"format": "something-else"})):
        np.savez(tmp_path / f"{name}.npz", header=np.array(json.dumps({**doc, **change})), **kept)
    np.savez(tmp_path / "shape.npz", header=np.array(json.dumps(doc)), **{**kept, "card_w3": kept["card_w3"][:2]})
    nan = dict(kept)
    nan["action_b1"] = np.full_like(kept["action_b1"], np.nan)
    np.savez(tmp_path / "nan.npz", header=np.array(json.dumps(doc)), **nan)


@pytest.mark.parametrize("name, words", [
    ("missing", "no such file"), ("broken", "not a kiai model file"), ("text", "not a kiai model file"),
    ("format", "not a kiai model file"), ("schema", "feature schema"), ("other", "other component data"),
    ("shape", "misshapen"), ("nan", "not finite"),
])  # fmt: skip
def test_a_bad_model_file_is_refused_with_one_line(tmp_path, capsys, name, words):
    """A model made for other component data plays (test_house_levels) but --strict refuses it."""
    _damaged(tmp_path)
    path = tmp_path / f"{name}.npz"
    with pytest.raises(ModelError, match=words):
        load_strict(path)
    one_line_error(*run(capsys, "simulate", "-n", 10, "--strategy", "learned", "--model", path, "--strict"), words)


@pytest.mark.parametrize("strategy, retrain", [("learned", "kiai train learned --components"),
                                               ("selfplay", "kiai train value --components")])
def test_a_changed_kiai_value_plays_marked_and_strict_refuses_it(capsys, tmp_path, strategy, retrain):
    """The models (learned's, and selfplay's values) were trained on the default components: with a
    file of another Kiai value they play, with one line on standard error and the result marked
    'model trained on other components'; --strict refuses them in one line that says how to go on."""
    from kiai.simcore.components import default_components_path

    text = default_components_path().read_text()
    assert "kyuzo      = { human = 9," in text
    (tmp_path / "house.toml").write_text(text.replace("kyuzo      = { human = 9,", "kyuzo      = { human = 10,"))
    house = tmp_path / "house.toml"
    code, out, err = run(capsys, "simulate", "-n", 10, "--components", house, "--strategy", strategy, "--json")
    assert code == 0 and json.loads(out)["model"]["mark"] == "model trained on other components"
    assert [line for line in err.splitlines() if line.startswith("warning:")] == [
        f"warning: {house.resolve()} holds other cards or Kiai values than the model was trained on; it plays, and the "
        "results say 'model trained on other components' (--strict refuses it)"]
    one_line_error(*run(capsys, "simulate", "-n", 10, "--components", house, "--strategy", strategy, "--strict"),
                   "other component data", retrain, "--strategy keeper")


def test_model_option_is_for_a_strategy_that_plays_one(capsys, tmp_path):
    one_line_error(*run(capsys, "simulate", "-n", 10, "--strategy", "reference", "--model", default_path()),
                   "no strategy here plays a model")
    arrays, header = random_model()
    save(tmp_path / "m.npz", arrays, header)
    code, out, err = run(capsys, "simulate", "-n", 200, "--strategy", "learned", "--model", tmp_path / "m.npz", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["model"]["path"] == str(tmp_path / "m.npz")
    want = run_games(GameConfig(FOUR, "normal", "learned", model=str(tmp_path / "m.npz")), 200, 0)
    assert doc["wins"] == int((want[:, 0] == 0).sum())


def test_selfplay_is_the_default_and_is_marked(capsys):
    from kiai.strategies.registry import DEFAULT

    assert DEFAULT == "selfplay"
    code, out, _ = run(capsys, "strategies", "--json")
    rows = {r["name"]: r for r in json.loads(out)}
    assert code == 0 and rows["selfplay"]["default"] is True
    assert rows["learned"].get("default") is not True and rows["reference"].get("default") is not True
    code, out, _ = run(capsys, "simulate", "-n", 10, "--json")
    assert code == 0 and json.loads(out)["strategy"] == "selfplay"


TINY = ["--iterations", 1, "--games", 24, "--tables", 4, "--samples", 2, "--hidden", 4, "--epochs", 2,
        "--eval-games", 40, "--teacher-games", 4, "--eval", "kanbei,heihachi,kikuchiyo:easy", "--seed", 9]


def test_kiai_train_end_to_end_resumes_and_reproduces(tmp_path, capsys):
    """A tiny run: teacher labels, a fit, an evaluation, the report; run again it does nothing
    new; a run killed after its labels (their later files removed) ends the same; another
    folder with the same seed makes the same model; other settings on the folder are refused."""
    pytest.importorskip("torch")
    folder = tmp_path / "run"
    code, out, err = run(capsys, "train", "learned", folder, *TINY)
    assert code == 0, err
    it = folder / "iteration-0"
    for name in ("settings.json", "start.npz", "model.npz", "training.csv", "curve.csv", "training.png"):
        assert (folder / name).exists(), name
    labels = np.load(it / "labels.npy")
    m = load(it / "model.npz", COMP)
    assert m.header["positions"] == len(labels) > 24 and m.header["seeds"] == [9]
    assert "lookahead" in m.header["teacher"] and m.header["training"]["settings"]["games"] == 24
    assert "kiai train learned" in m.header["training"]["command"] or "train" in m.header["training"]["command"]
    ev = json.loads((it / "eval.json").read_text())
    assert ev["new"]["games"] == ev["previous"]["games"] == 40 and ev["teacher"]["games"] == 4
    keeper = run_games(GameConfig(("kanbei", "heihachi", "kikuchiyo"), "easy", "keeper"), 40, training._seed(
        training.Settings(seed=9), 0, 3))
    assert ev["previous"]["wins"] == int((keeper[:, 0] == 0).sum())  # iteration 0 is compared with keeper
    import pandas as pd

    table = pd.read_csv(folder / "training.csv")
    assert list(table["iteration"]) == [0] and table["positions"][0] == len(labels)
    assert len(pd.read_csv(folder / "curve.csv")) == 2 * 2  # two heads, two epochs
    first = (it / "model.npz").read_bytes()

    # resume after a kill between steps: the fit and evaluation are redone, the same
    for name in ("model.npz", "curve.json", "eval.json"):
        (it / name).unlink()
    code, _, err = run(capsys, "train", "learned", folder, *TINY)
    assert code == 0, err
    assert np.array_equal(load(it / "model.npz").arrays["card_w1"], load_bytes(first, tmp_path)["card_w1"])
    assert json.loads((it / "eval.json").read_text()) == ev

    # reproducible from the seed, in another folder
    code, _, err = run(capsys, "train", "learned", tmp_path / "again", *TINY)
    assert code == 0, err
    np.testing.assert_array_equal(np.load(tmp_path / "again" / "iteration-0" / "labels.npy"), labels)
    for k, v in load(tmp_path / "again" / "model.npz").arrays.items():
        np.testing.assert_array_equal(v, load(folder / "model.npz").arrays[k])

    one_line_error(*run(capsys, "train", "learned", folder, *TINY[:-1], 10), "other settings (seed)")


def test_kiai_train_keeps_the_fit_that_plays_best(tmp_path, capsys):
    """--fits 3: three fits from different seeds play the same deals of the training tables; the
    header records each one's wins and the kept one is the winner, whose wins replay."""
    pytest.importorskip("torch")
    folder = tmp_path / "fits"
    code, _, err = run(capsys, "train", "learned", folder, *TINY, "--fits", 3, "--select-games", 30)
    assert code == 0, err
    assert "keeping fit" in err
    # not on a terminal (a log), each stage says it started and how far it has gone
    assert "iteration 0: teacher games: 24 to do" in err and "iteration 0: teacher games: 24 of 24 in" in err
    m = load(folder / "iteration-0" / "model.npz")
    chosen = m.header["training"]["selection"]
    assert chosen["games"] == 30 and len(chosen["wins"]) == 3 and chosen["kept"] == int(np.argmax(chosen["wins"]))
    settings = training.Settings(**json.loads((folder / "settings.json").read_text()))
    again = training.select(training.Folder(folder), settings, 0, [m.arrays], m.header, None, training.Stages())
    assert again == [chosen["wins"][chosen["kept"]]]


def test_kiai_train_members_makes_the_ensemble_the_model_when_it_wins_more(tmp_path):
    """--members 2, the run's last step: iterations 0 and 1 averaged against iteration 1 alone on
    the evaluation deals (ensemble.json). Two small random models whose mean wins more (47 of
    150 deals against none): model.npz becomes the ensemble, its header says of what it is
    made, the recorded wins replay, and a rerun reuses the evaluation and writes the same model.
    A model averaged with itself plays as it does: no gain, model.npz stays as it was."""
    from kiai.strategies.nets.modelfile import ensemble

    comp = load_components(None)
    folder = training.Folder(tmp_path / "run")
    for k, seed in ((0, 13), (1, 14)):
        folder.iteration(k).mkdir(parents=True)
        save(folder.iteration(k) / "model.npz", *random_model(seed=seed, scale=0.004))
    table = [["kanbei", "heihachi", "kikuchiyo"], "easy"]
    settings = training.Settings(members=2, eval_games=150, seed=3, components_sha256=SHA, eval_tables=[table])
    single = (folder.iteration(1) / "model.npz").read_bytes()
    (folder.path / "model.npz").write_bytes(single)  # what train() leaves: the best iteration's model
    doc = training.finish_ensemble(folder, settings, 1, comp, training.Stages(), "kiai train learned --members 2")
    assert doc["iterations"] == [0, 1] and doc["ensemble"]["games"] == doc["best"]["games"] == 150
    assert doc["kept"] and doc["ensemble"]["wins"] > doc["best"]["wins"]
    final = load(folder.path / "model.npz", COMP)
    assert final.members == 2 and final.header["ensemble_of_iterations"] == [0, 1]
    assert final.header["evaluation"]["iterations"] == [0, 1] and final.header["ensemble_command"] == "kiai train learned --members 2"
    members = [load(folder.iteration(k) / "model.npz") for k in (0, 1)]
    save(tmp_path / "ens.npz", *ensemble(members, members[1].header))
    seed = training._seed(settings, 0, 3)
    for name, path in (("ensemble", tmp_path / "ens.npz"), ("best", folder.iteration(1) / "model.npz")):
        out = run_games(GameConfig(tuple(table[0]), "easy", "learned", model=str(path)), 150, seed)
        assert int((out[:, 0] == 0).sum()) == doc[name]["wins"], name
    rerun = training.finish_ensemble(folder, settings, 1, comp, training.Stages(), "kiai train learned --members 2")
    assert rerun == json.loads(json.dumps(doc))
    again = load(folder.path / "model.npz", COMP)  # the same model (the zip's file times differ)
    assert again.header == final.header and all(np.array_equal(v, final.arrays[k]) for k, v in again.arrays.items())

    (folder.iteration(0) / "model.npz").write_bytes(single)
    (folder.path / "ensemble.json").unlink()
    (folder.path / "model.npz").write_bytes(single)
    doc = training.finish_ensemble(folder, settings, 1, comp, training.Stages())
    assert not doc["kept"] and doc["ensemble"]["wins"] == doc["best"]["wins"]
    assert (folder.path / "model.npz").read_bytes() == single


def load_bytes(raw: bytes, tmp_path):
    p = tmp_path / "copy.npz"
    p.write_bytes(raw)
    return load(p).arrays


@pytest.mark.parametrize("argv, words", [
    (["--hidden", 65], "--hidden must be at most 64"),
    (["--games", 0], "--games must be at least 1"),
    (["--fits", 0], "--fits must be at least 1"),
    (["--members", 3], "--members must be 1 to 2"),
    (["--tables", 50, "--games", 10], "must not exceed --games"),
    (["--eval", "kanbei,heihachi"], "--eval must be SEATING:LEVEL"),
    (["--eval", "kanbei,nobody:easy"], "nobody"),
    (["--eval", "kanbei,heihachi:impossible"], "impossible"),
    (["--teacher-games", 500, "--eval-games", 100], "must not exceed --eval-games"),
])  # fmt: skip
def test_kiai_train_refuses_bad_settings_before_any_work(tmp_path, capsys, argv, words):
    pytest.importorskip("torch")
    one_line_error(*run(capsys, "train", "learned", tmp_path / "run", *argv), words)
    assert not (tmp_path / "run").exists()


def test_kiai_train_checks_its_folder_before_any_work(tmp_path, capsys):
    pytest.importorskip("torch")
    one_line_error(*run(capsys, "train", "learned", "/proc/kiai-run", *TINY), "cannot write")
    one_line_error(*run(capsys, "train", "learned", tmp_path / "no" / "run", *TINY), "folder", "does not exist")
    assert not (tmp_path / "no").exists()
    (tmp_path / "file").write_text("x")
    one_line_error(*run(capsys, "train", "learned", tmp_path / "file", *TINY), "is a file")


def test_playing_learned_needs_no_training_library():
    """The [train] extra is for `kiai train learned` only: a process that plays learned (and its CLI)
    never imports PyTorch."""
    import subprocess
    import sys

    code = ("import sys; from cli.main import main; main(['simulate', '-n', '50', '--json']); "
            "print('torch' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "False"
