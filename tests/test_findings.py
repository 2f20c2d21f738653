"""Two reports' findings of In short compared (reports.findings.findings, `kiai report --compare OLD NEW`): the
same, within noise, or different."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from test_reports_advice import _grid

from conftest import run
from kiai.reports.findings import findings as F


def _tables(seed: int, rates=(0.55, 0.3), games=1000, lift=0.0) -> pd.DataFrame:
    """Every line-up of 3 samurai at easy and normal; line-up 0 wins `lift` more than the rest."""
    rng = np.random.default_rng(seed)
    rows = []
    for level, rate in zip(("easy", "normal"), rates):
        rows += _grid(3, lambda i: int(rng.binomial(games, min(rate + (lift if i == 0 else 0), 1))), level, games)
    df = pd.DataFrame(rows)
    df["rules"] = "default"
    return df


def verdicts(old: pd.DataFrame, new: pd.DataFrame) -> dict:
    table = F.compare(F.findings(old), F.findings(new))
    return {(r.finding, r.where): r.verdict for r in table.itertuples()}


def test_a_report_compared_with_itself_is_the_same_throughout():
    df = _tables(1, lift=0.3)
    table = F.compare(F.findings(df), F.findings(df))
    assert set(table["verdict"]) == {F.SAME} and len(table) == 3  # how hard at each level, the line-up
    assert not F.differs(table) and F.summary(table).startswith("3 findings of In short compared: 3 the same")


def test_other_deals_of_the_same_game_are_within_noise():
    got = verdicts(_tables(1, lift=0.3), _tables(2, lift=0.3))
    assert got[("how hard", "easy")] in (F.SAME, F.WITHIN) and got[("how hard", "normal")] in (F.SAME, F.WITHIN)
    # the same pick, clearly ahead in both; the worst of 34 equal line-ups is luck, within noise of the other's
    assert got[("line-up", "normal")] == F.WITHIN


def test_another_game_is_different():
    got = verdicts(_tables(1, lift=0.3), _tables(1, rates=(0.35, 0.3), lift=0.3))
    assert got[("how hard", "easy")] == F.DIFFERENT and got[("how hard", "normal")] in (F.SAME, F.WITHIN)
    tied = verdicts(_tables(1, lift=0.3), _tables(3))  # the pick is clear in one, within noise in the other
    assert tied[("line-up", "normal")] == F.DIFFERENT


def test_kiai_report_compare_prints_each_finding_and_fails_where_one_differs(capsys, tmp_path):
    old, same, other = tmp_path / "old", tmp_path / "same", tmp_path / "other"
    for folder, df in ((old, _tables(1, lift=0.3)), (same, _tables(2, lift=0.3)), (other, _tables(1, (0.35, 0.3)))):
        folder.mkdir()
        df.to_parquet(folder / "results.parquet")
    code, out, err = run(capsys, "report", "--compare", old, same)
    assert code == 0 and "3 samurai, how hard, easy: " in out and "  old: " in out and "  new: " in out
    assert out.strip().splitlines()[-1].startswith("3 findings of In short compared")
    code, out, _ = run(capsys, "report", "--compare", old, other)
    assert code == 1 and ": different" in out
    assert not list(tmp_path.glob("*/report.md"))  # nothing written
    code, out, err = run(capsys, "report", "--compare", old, tmp_path / "nowhere")
    assert code == 2 and out == "" and err.startswith("kiai: error:") and "nowhere" in err


def test_a_report_folder_with_its_solve_stages_table_compares(capsys, tmp_path):
    """make report's folder holds the solve stage's solved.parquet beside the results tables: it is
    no results table, and --compare reads the folder without it."""
    from kiai.reports.findings.bracket import SOLVED
    from kiai.reports.search.solved_table import COLUMNS, write_solved_table

    old, new = tmp_path / "old", tmp_path / "new"
    solved = pd.DataFrame([{c: 0 for c in COLUMNS} | {"difficulty": "easy", "lineup": "a,b", "answer": "won"}])
    for folder, seed in ((old, 1), (new, 2)):
        folder.mkdir()
        _tables(seed, lift=0.3).to_parquet(folder / "results.parquet")
        write_solved_table(solved, folder / SOLVED)
    code, out, err = run(capsys, "report", "--compare", old, new)
    assert code == 0 and err == "" and out.strip().splitlines()[-1].startswith("3 findings of In short compared")


PROVENANCE = {"kiai_version": "0.1.0", "engine": "e" * 16, "components_sha256": "ab" * 32, "params": "{}", "models": ""}


@pytest.mark.parametrize("column, value, words", [
    ("kiai_version", "0.2.0", "kiai version: old 0.1.0; new 0.2.0"),
    ("engine", "f" * 16, "engine: old eeeeeeeeeeee; new ffffffffffff"),
    ("components_sha256", "cd" * 32, "component file: old abababababab; new cdcdcdcdcdcd"),
    ("strategy", "keeper", "strategies: old selfplay; new keeper"),
    ("params", '{"edge": 0.05}', 'parameters: old selfplay {}; new selfplay {"edge": 0.05}'),
    ("models", "model=" + "d" * 64 + ";base=" + "b" * 64, "models: old selfplay no model; "
                                                          "new selfplay model=dddddddddddd;base=bbbbbbbbbbbb"),
])
def test_report_compare_names_each_difference_of_provenance_before_the_findings(capsys, tmp_path, column, value, words):
    """Two reports whose tables differ in one field of provenance: --compare names it first, with
    both sides' values, however alike their figures."""
    old, new = tmp_path / "old", tmp_path / "new"
    df = _tables(1, lift=0.3).assign(**PROVENANCE)
    for folder, table in ((old, df), (new, df.assign(**{column: value}))):
        folder.mkdir()
        table.to_parquet(folder / "results.parquet")
    code, out, _ = run(capsys, "report", "--compare", old, new)
    lines = out.splitlines()
    assert lines[0] == f"Provenance differs, {words}", lines[0]
    named = [line.split(":")[0] for line in lines if line.startswith("Provenance")]
    # parameters and models are named beside their strategy: another strategy changes them too
    also = ["Provenance differs, parameters", "Provenance differs, models"] if column == "strategy" else []
    assert named == [lines[0].split(":")[0], *also] and lines[len(named)].startswith("3 samurai, ")
    code, out, _ = run(capsys, "report", "--compare", old, old)
    assert code == 0 and out.splitlines()[0] == ("Provenance: the same kiai version, engine, component file, "
                                                 "strategies, parameters and models.")
