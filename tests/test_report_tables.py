"""docs/report_tables.py: docs/strategies.md's table of the strongest player per family, filled
from a report's level_rates.csv (issue 70: "the strongest player per family, on a measurement")."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("report_tables", ROOT / "docs" / "report_tables.py")
RT = importlib.util.module_from_spec(spec)
spec.loader.exec_module(RT)


def _rates(told: bool) -> pd.DataFrame:
    base = {"level": "heroic", "n_samurai": 3, "lineups": 35, "wins": 2.0, "games": 234.0, "ci_low": 0.0}
    return pd.DataFrame([{**base, "win_rate": 0.0085, "ci_high": 0.03, "player": "default"},
                         {**base, "wins": 0.0 if not told else 40.0, "win_rate": 0.0 if not told else 0.17,
                          "ci_high": 0.016, "player": "strongest", "diff": -0.0085 if not told else 0.16,
                          "diff_lo": -0.02 if not told else 0.1, "diff_hi": 0.003 if not told else 0.2,
                          "told_apart": told}])


def test_a_cell_not_told_apart_says_so_and_one_told_apart_names_it_stronger():
    assert "| 3 | heroic | 0.9% | `judge` | 0.0% (234 games) | -0.9 (-2.0 to +0.3) | not told apart |" in RT.table(_rates(False))
    assert "| stronger |" in RT.table(_rates(True))


def test_the_page_block_is_filled_in_place_and_a_report_without_it_is_refused(tmp_path):
    text = f"before\n{RT.OPEN}\nold\n{RT.CLOSE}\nafter"
    assert RT.fill(text, "new") == f"before\n{RT.OPEN}\nnew\n{RT.CLOSE}\nafter"
    assert RT.OPEN in (ROOT / "docs" / "strategies.md").read_text()
    with pytest.raises(SystemExit, match="agreement stage"):
        RT.table(_rates(False).iloc[:1])
    assert RT.main([str(tmp_path)]) == 2
