"""Every model a result played, the base's included: selfplay over learned's answers (`base` 1)
reads learned's model beside its own value. A result names both (its description and the table's
`models` column), `sweep --resume` plays a row again when either changed, and a changed learned
model plays at once, in the same process. `report --compare` names each difference of provenance
of two tables before their findings."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from kiai.reports.playing import tables as T
from kiai.simcore.codes import OUT_WIN
from kiai.simcore.results import O_OUTCOME
from kiai.strategies.nets import modelfile as M
from kiai.strategies.run.config import GameConfig
from kiai.strategies.run.games import run_games
from conftest import run

pytestmark = pytest.mark.usefixtures("engine")

LINEUP = ("gorobei", "kanbei", "katsushiro")
# selfplay over learned's answers, weighing none of them: learned's games exactly, whichever model learned plays
OVER = {"base": 1, "doubt": 0.0}
SMALL = ["--strategy", "selfplay", "--param", "base=1", "--param", "doubt=0", "-d", "easy", "--lineup",
         ",".join(LINEUP), "--games", 60, "--seed", 3]  # fmt: skip


@pytest.fixture
def other_learned(tmp_path, monkeypatch):
    """learned's shipped model replaced by another (its answers' scores turned round), as a
    retrained learned.npz would be; returns it (the file the shipped one now is)."""
    shipped = M.load(None, M.LEARNED)
    other = tmp_path / "learned.npz"
    arrays = {k: -v if k.endswith(("_w3", "_b3")) else v for k, v in shipped.arrays.items()}
    M.save(other, arrays, {**shipped.header, "date": "another day"}, M.LEARNED)
    real = M.shipped_path
    monkeypatch.setattr(M, "shipped_path", lambda kind: other if kind is M.LEARNED else real(kind))
    return M.load(other, M.LEARNED)


def test_a_description_names_the_base_model_beside_the_model():
    shipped = M.load(None, M.LEARNED)
    model = GameConfig(LINEUP, "easy", "selfplay", {"base": 1}).describe()["model"]
    assert model["base"] == {"path": shipped.path, "sha256": shipped.sha256} and shipped.sha256 != model["sha256"]
    assert "base" not in GameConfig(LINEUP, "easy", "selfplay", {"base": 0}).describe()["model"]  # keeper's: none
    assert "base" not in GameConfig(LINEUP, "easy", "learned").describe()["model"]
    judge = GameConfig(LINEUP, "easy", "judge", {"base": 1}).describe()["model"]  # judge over learned
    assert judge["base"]["sha256"] == shipped.sha256 != judge["sha256"]


def test_simulate_json_names_the_base_model_it_played(capsys, other_learned):
    code, out, _ = run(capsys, "simulate", "-s", ",".join(LINEUP), "-d", "easy", "-n", 10, "--strategy", "selfplay",
                       "--param", "base=1", "--json")  # fmt: skip
    assert code == 0
    assert json.loads(out)["model"]["base"] == {"path": other_learned.path, "sha256": other_learned.sha256}


def test_a_changed_base_model_plays_within_the_same_process(other_learned, monkeypatch):
    """A selfplay record made over one learned model is not reused once learned's model is another:
    the games are those of the model learned plays now."""
    monkeypatch.undo()  # the shipped model first, then the other
    before = run_games(GameConfig(LINEUP, "easy", "selfplay", OVER), 200, seed=5)
    np.testing.assert_array_equal(before, run_games(GameConfig(LINEUP, "easy", "learned"), 200, seed=5))
    real = M.shipped_path
    monkeypatch.setattr(M, "shipped_path", lambda kind: Path(other_learned.path) if kind is M.LEARNED else real(kind))
    after = run_games(GameConfig(LINEUP, "easy", "selfplay", OVER), 200, seed=5)
    assert (after != before).any()
    np.testing.assert_array_equal(after, run_games(GameConfig(LINEUP, "easy", "learned", model=other_learned.path),
                                                   200, seed=5))  # fmt: skip


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """A small sweep of selfplay over learned's answers, run once for the module."""
    from kiai.cli.main import main

    path = tmp_path_factory.mktemp("provenance") / "base.parquet"
    assert main(["sweep", "--out", str(path), *map(str, SMALL)]) == 0
    return path


def test_resume_plays_again_the_rows_whose_base_model_changed_and_says_so(table, tmp_path, capsys, other_learned):
    path = tmp_path / "base.parquet"
    path.write_bytes(table.read_bytes())
    old = pd.read_parquet(path).iloc[0]
    assert set(T.models_of(old["models"])) == {"model", "base"}
    code, _, err = run(capsys, "sweep", "--out", path, "--resume", *SMALL)
    assert code == 0 and "resume: 0 of 1 configuration reused; 1 played again (base model changed)" in err
    new = pd.read_parquet(path).iloc[0]
    models = T.models_of(new["models"])
    assert models["base"] == other_learned.sha256 and models["model"] == T.models_of(old["models"])["model"]
    # the row holds the games of the model learned plays now (learned's answers: doubt 0)
    seating = tuple(new["seating"].split(","))
    learned = run_games(GameConfig(seating, "easy", "learned", model=other_learned.path), 60, seed=3)
    assert new["wins"] == int((learned[:, O_OUTCOME] == OUT_WIN).sum())
    code, _, err = run(capsys, "sweep", "--out", path, "--resume", *SMALL)  # the same models now: nothing to play
    assert code == 0 and "resume: 1 of 1 configuration reused" in err and "played again" not in err


def test_resume_names_the_role_of_every_model_that_changed():
    now = {"models": "model=" + "a" * 64 + ";base=" + "b" * 64, "components_sha256": "c", "kiai_version": "v"}
    row = {**now, "engine": "e"}
    assert T.stale_reasons({**row, "models": "model=" + "d" * 64 + ";base=" + "b" * 64}, now, "e", False) == [
        "model changed"]
    assert T.stale_reasons({**row, "models": "model=" + "a" * 64 + ";base=" + "d" * 64}, now, "e", False) == [
        "base model changed"]
    assert T.stale_reasons({**row, "models": "model=" + "a" * 64}, now, "e", False) == ["base model changed"]
    assert T.stale_reasons({**row, "models": ""}, now, "e", False) == ["model changed", "base model changed"]


@pytest.mark.parametrize("column, value, words", [
    ("kiai_version", "0.0.1", "kiai version: old {kiai_version}; new 0.0.1"),
    ("engine", "f" * 16, "engine: old {engine:.12}; new ffffffffffff"),
    ("components_sha256", "cd" * 32, "component file: old {components_sha256:.12}; new cdcdcdcdcdcd"),
    ("strategy", "keeper", "strategies: old selfplay; new keeper"),
    ("params", '{"edge": 0.05}', "parameters: old selfplay {params}; new selfplay {{\"edge\": 0.05}}"),
    ("models", "base", "models: old selfplay model={model:.12};base={base:.12}; new selfplay "
                       "model={model:.12};base=bbbbbbbbbbbb"),
])  # fmt: skip
def test_report_compare_names_each_difference_of_provenance_of_a_real_table(table, tmp_path, capsys, column, value,
                                                                          words):
    """A real sweep's table and a copy that differs in one column of provenance (for models, the
    base's alone): --compare names that difference first, one line, with both sides' values."""
    df = pd.read_parquet(table)
    row = df.iloc[0]
    models = T.models_of(row["models"])
    if column == "models":
        value = T.models_text({**models, "base": "b" * 64})
    old, new = tmp_path / "old", tmp_path / "new"
    for folder, frame in ((old, df), (new, df.assign(**{column: value}))):
        folder.mkdir()
        frame.to_parquet(folder / "results.parquet")
    code, out, _ = run(capsys, "report", "--compare", old, new)
    named = [line for line in out.splitlines() if line.startswith("Provenance")]
    expected = "Provenance differs, " + words.format(**row.to_dict(), **models)
    assert code in (0, 1) and named[0] == expected, (named, expected)
    also = {"strategy": 2}.get(column, 0)  # another strategy's parameters and models are named too
    assert len(named) == 1 + also
