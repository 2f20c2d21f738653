"""How far the solver reaches at Hard and Heroic (make reach, reports.search.reach) and what the
report says of it (reports.findings.reach_note, under the bracket's part)."""

import json
from pathlib import Path

import pandas as pd
import pytest

from kiai.errors import WriteError
from kiai.reports.findings import reach_note
from kiai.reports.page import bracket as B
from kiai.reports.search import reach


def _table(budget=2_000_000):
    """Six deals of 4 samurai hard: won at 500 and 50,000 nodes, won by foresight and by the default
    after the search spent its budget, proved lost, unknown."""
    rows = [("won", "solver", 500), ("won", "solver", 50_000), ("won", "foresight", budget),
            ("won", "default", budget), ("lost", "", 9_000), ("unknown", "", budget)]
    return pd.DataFrame([{"n_samurai": 4, "difficulty": "hard", "lineup": "a,b,c,d", "seed": 0, "game": g,
                          "budget": budget, "deals": 6, "answer": a, "found_by": f, "nodes": k, "engine": "e"}
                         for g, (a, f, k) in enumerate(rows)])


def test_a_deal_counts_as_won_within_the_nodes_its_search_took_and_a_finishers_at_every_mark():
    [cell] = reach.summarize(_table())
    assert cell["won_within"] == {"2000": 3, "20000": 3, "200000": 4, "2000000": 4}
    assert (cell["won"], cell["lost"], cell["unknown"], cell["deals"]) == (4, 1, 1, 6)
    [small] = reach.summarize(_table(budget=20_000))
    assert list(small["won_within"]) == ["2000", "20000"]  # no mark past the cell's own budget


def _result():
    return {"seed": 0, "deals": 5, "budget": 2_000_000, "marks": list(reach.REACH_MARKS), "engine": "e",
            "commit": "abc1234", "cells": reach.summarize(_table())}


def test_the_report_names_the_won_share_at_each_budget_and_the_unknown_share_and_bounds_nothing():
    text = reach_note.sentence(["hard", "heroic"], _result())
    assert text.startswith("How far the search reaches at Hard (`make reach`, kiai abc1234")
    assert "4 samurai 50.0% / 50.0% / 66.7% / 66.7% won, 16.7% unknown, 16.7% proved lost" in text
    assert "2,000 / 20,000 / 200,000 / 2,000,000 turns played" in text and "not a bound" in text
    assert reach_note.sentence(["heroic"], _result()) is None  # the study holds no Heroic cell
    two = _table().assign(n_samurai=2)
    text = reach_note.sentence(["hard"], dict(_result(), cells=reach.summarize(two)))
    assert "2 samurai 50.0% / 50.0% / 66.7% / 66.7% won, 16.7% unknown, 16.7% proved lost without absent " \
           "tokens (R-18: no bound)" in text
    assert reach_note.sentence(["hard"], {}) is None


def test_the_bracket_part_quotes_the_study_for_the_levels_it_does_not_solve(monkeypatch):
    from test_bracket import _solved

    monkeypatch.setattr(reach_note, "stored", _result)
    blocks = B.bracket_blocks(_solved({(2, "easy"): (392, 0, 8)}))
    paras = [b[1] for b in blocks if b[0] == "p"]
    assert any(p.startswith("How far the search reaches at Hard") for p in paras)
    monkeypatch.setattr(reach_note, "stored", lambda: None)
    assert not any("how far the search reaches" in b[1] for b in B.bracket_blocks(_solved({(2, "easy"): (392, 0, 8)}))
                   if b[0] == "p")


def test_the_shipped_study_covers_every_team_size_at_hard_and_heroic():
    result = reach_note.stored()
    assert result is not None, "reports/findings/reach.json: run make reach"
    cells = {(c["n_samurai"], c["difficulty"]) for c in result["cells"]}
    assert cells == set(reach.REACH_CELLS)
    for c in result["cells"]:
        assert c["won"] + c["lost"] + c["unknown"] <= c["deals"]
        assert list(c["won_within"].values()) == sorted(c["won_within"].values())  # more nodes, never fewer won


def test_the_study_solves_its_cells_into_a_table_and_keeps_them(tmp_path, capsys):
    table = tmp_path / "reach.parquet"
    out = tmp_path / "reach.json"
    assert reach.main(["--table", str(table), "--out", str(out), "--deals", "2", "--budget", "300"]) == 0
    result = json.loads(out.read_text())
    assert result["marks"] == [300] and len(result["cells"]) == len(reach.REACH_CELLS)
    assert all(c["deals"] == 2 and c["won_within"]["300"] == c["won"] for c in result["cells"])
    assert "| 7 samurai | heroic | 2 |" in capsys.readouterr().out
    kept = pd.read_parquet(table)
    assert reach.run(table, deals=2, budget=300)["cells"] == result["cells"]  # kept, not solved again
    assert pd.read_parquet(table)["seconds"].equals(kept["seconds"])


def test_the_study_says_how_far_it_is_at_least_every_progress_seconds(tmp_path, capsys, monkeypatch):
    def run(table, *, progress, **_):
        for _ in range(3):
            progress({})
        return {"marks": [], "cells": []}

    monkeypatch.setattr(reach, "run", run)
    monkeypatch.setattr(reach, "PROGRESS_SECONDS", 0)  # each deal is past it: a line a deal
    assert reach.main(["--table", str(tmp_path / "r.parquet")]) == 0
    assert capsys.readouterr().err.splitlines() == [f"reach: {k} deals solved" for k in (1, 2, 3)]
    monkeypatch.setattr(reach, "PROGRESS_SECONDS", 3600)  # fewer than 50 deals, quickly: no line
    assert reach.main(["--table", str(tmp_path / "r.parquet")]) == 0
    assert capsys.readouterr().err == ""


def test_a_stored_result_names_its_commit_and_is_written_whole_or_not_at_all(tmp_path, monkeypatch):
    from kiai.reports.search import stored

    assert stored.code_commit() != ""  # this checkout's, or 'unknown' outside one
    out = tmp_path / "r.json"
    out.write_text("old\n")
    result = stored.store({"cells": [1]}, "abc1234", out)
    assert json.loads(out.read_text()) == result and result["commit"] == "abc1234" and result["date"]

    real = Path.write_text

    def half(self, text, **kw):  # a disk that fills half way through
        real(self, text[:5], **kw)
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Path, "write_text", half)
    with pytest.raises(WriteError):
        stored.store({"cells": [2]}, "def5678", out)
    monkeypatch.undo()
    assert json.loads(out.read_text())["commit"] == "abc1234" and list(tmp_path.iterdir()) == [out]
    assert stored.store({"cells": []}, "abc1234", None)["commit"] == "abc1234"  # stamped, not written


@pytest.mark.parametrize("args, said", [
    (["--deals", "0"], "--deals, --budget and --workers must be at least 1"),
    (["--out", "no/such/reach.json"], "no folder no/such"),
    (["--table", "no/such/reach.parquet"], "no folder no/such"),
])
def test_the_study_refuses_bad_input_in_one_line_before_any_deal(args, said, capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "kiai-report").mkdir()  # the default table's folder
    monkeypatch.setattr(reach, "run", lambda *a, **k: pytest.fail("solved before refusing"))
    with pytest.raises(SystemExit) as e:
        reach.main(args)
    assert e.value.code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and said in err
