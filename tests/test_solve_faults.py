"""`kiai solve`'s faults: the bracket keeps the cells it was not asked for, the solver's memory is
bounded at the top budget, levels and cells in any case, options --bracket does not take refused,
a damaged bracket table refused in one line, the claim on its outputs, and Ctrl-C said in one line."""

import os
import subprocess
import sys
import time

import numpy as np
import pandas as pd
import pytest

from kiai.reports.search import solve as search
from kiai.solve import MAX_BUDGET
from kiai.strategies.run import solve as S

THREE = "kanbei,kyuzo,heihachi"


def _cells(path) -> dict:
    """{(n, level): (seed, budget, rows)} of a bracket table."""
    df = pd.read_parquet(path)
    return {(int(n), str(lv)): (int(p["seed"].iloc[0]), int(p["budget"].iloc[0]), len(p))
            for (n, lv), p in df.groupby(["n_samurai", "difficulty"])}


def test_the_bracket_keeps_every_cell_it_was_not_asked_for_and_replaces_one_asked_with_other_settings(tmp_path):
    solve_bracket = search.solve_bracket
    seed = search.BRACKET_SEED  # the default, which the calls without seed= solve
    out = tmp_path / "b.parquet"
    solve_bracket(out, [(2, "easy"), (3, "easy")], deals=2, budget=20)
    met = []
    solve_bracket(out, [(2, "easy")], deals=2, budget=20, on_deal=met.append)  # the same settings: kept, not solved
    assert met == [] and _cells(out) == {(2, "easy"): (seed, 20, 2), (3, "easy"): (seed, 20, 2)}
    solve_bracket(out, [(2, "normal")], deals=2, budget=20)  # another cell: the others stay
    assert _cells(out) == {(2, "easy"): (seed, 20, 2), (3, "easy"): (seed, 20, 2), (2, "normal"): (seed, 20, 2)}
    table = solve_bracket(out, [(3, "easy")], deals=3, budget=30, seed=seed + 1)  # other settings: that cell replaced whole
    assert _cells(out) == {(2, "easy"): (seed, 20, 2), (3, "easy"): (seed + 1, 30, 3), (2, "normal"): (seed, 20, 2)}
    assert set(zip(table["n_samurai"], table["difficulty"])) == {(3, "easy")}  # the cells asked


def test_the_cap_leaves_the_tables_of_budgets_to_200000_as_they_were_and_bounds_the_top():
    def before(budget):  # the sizing before the cap
        return max(16, int(np.ceil(np.log2(max(budget, 1) * 2 + 1))) + 1)

    for budget in (1, 2_000, 20_000, 200_000, 1_000_000):
        assert S.table_bits(budget) == before(budget)
    assert S.table_bits(MAX_BUDGET) == S.TT_MAX_BITS >= 20
    assert S.table_bits(200_000) <= S.TT_MAX_BITS  # uncapped up to here: the table never fills


def test_budgets_2000_and_200000_answer_the_same_with_and_without_the_cap():
    """The table stops storing at 75% full: one of 2^20 entries or more never fills at these budgets."""
    for budget in (2_000, 200_000):
        capped = S.Solver(THREE.split(","), "easy", budget=budget)
        wide = S.Solver(THREE.split(","), "easy", budget=budget, tt_bits=S.TT_MAX_BITS + 1)
        for game in range(3):
            a, b = capped.solve(0, game, budget), wide.solve(0, game, budget)
            assert (a.answer, a.nodes, a.states, a.line) == (b.answer, b.nodes, b.states, b.line), (budget, game)


def test_the_top_budget_solves_a_deal_that_ends_early_within_bounded_memory():
    import resource

    from test_solve import HAND, lost_whatever

    start = lost_whatever()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    solver = S.Solver(HAND, "heroic", budget=MAX_BUDGET)
    assert solver.tt1.nbytes + solver.tt2.nbytes <= 2 * 8 << S.TT_MAX_BITS <= 256 << 20
    s = solver.solve(0, 0, MAX_BUDGET, start=start)
    assert s.answer == "lost" and s.nodes < 50
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert grown * 1024 < (2 * 8 << S.TT_MAX_BITS) + (64 << 20), grown


def test_kiai_solve_takes_levels_and_cells_in_any_case(capsys, tmp_path):
    from conftest import run

    code, text, err = run(capsys, "solve", "-s", THREE, "-d", "Easy", "-n", 1, "--budget", 50)
    assert code == 0 and "; easy; 1 deals" in text, err
    out = tmp_path / "b.parquet"
    code, text, err = run(capsys, "solve", "--bracket", out, "--cells", "3-EASY", "-n", 1, "--budget", 5)
    assert code == 0 and "3 samurai easy: 1 deals" in text, err
    assert _cells(out) == {(3, "easy"): (0, 5, 1)}  # the command's seed: --seed, default 0


@pytest.mark.parametrize("args, option", [(["-s", "kyuzo,heihachi"], "--samurai"), (["-d", "normal"], "--difficulty"),
                                          (["--order", "default"], "--order"), (["-o", "x.json"], "--out"),
                                          (["--force"], "--force")])
def test_kiai_solve_bracket_refuses_the_options_it_does_not_take(capsys, tmp_path, monkeypatch, args, option):
    from conftest import one_line_error, run

    monkeypatch.chdir(tmp_path)
    one_line_error(*run(capsys, "solve", "--bracket", "b.parquet", "-n", 1, *args), option, "--bracket")
    assert os.listdir(tmp_path) == []


def test_kiai_solve_bracket_names_itself_for_a_wrong_suffix(capsys, tmp_path):
    from conftest import one_line_error, run

    code, out, err = run(capsys, "solve", "--bracket", tmp_path / "x.csv")
    one_line_error(code, out, err, "--bracket", ".parquet")
    assert "--out" not in err


def test_a_bracket_table_of_string_team_sizes_is_refused_in_one_line_naming_the_file_and_column(capsys, tmp_path):
    from conftest import one_line_error, run

    from kiai.reports.search.solved_table import read_solved

    bad = tmp_path / "b.parquet"
    pd.DataFrame([{"n_samurai": "3", "difficulty": "easy", "lineup": "a,b", "seed": 60, "game": 0, "budget": 5,
                   "deals": 1, "answer": "won", "nodes": 1}]).to_parquet(bad)
    one_line_error(*run(capsys, "solve", "--bracket", bad, "--cells", "2-easy", "-n", 1, "--budget", 5),
                   str(bad), "n_samurai")
    with pytest.raises(ValueError, match="damaged solved table: n_samurai must be"):
        read_solved(bad)
    from test_reports_report import _table

    _table(cheater=False).to_parquet(tmp_path / "results.parquet")  # the page reads it beside the results
    (tmp_path / "solved.parquet").write_bytes(bad.read_bytes())
    code, out, err = run(capsys, "report", tmp_path / "results.parquet", "--out", tmp_path / "r")
    one_line_error(code, out, err, f"{tmp_path / 'solved.parquet'}: damaged solved table: n_samurai")
    assert pd.read_parquet(bad)["n_samurai"].tolist() == ["3"]  # left as it was


def test_a_cell_of_two_settings_is_never_pooled_on_the_page(tmp_path):
    from kiai.reports.findings.bracket import cell_brackets
    from kiai.reports.search.solved_table import read_solved

    rows = [{"n_samurai": 3, "difficulty": "easy", "lineup": "a,b", "seed": seed, "game": g, "budget": 2000,
             "deals": 2, "answer": "won", "nodes": 1} for seed in (60, 61) for g in range(2)]
    path = tmp_path / "b.parquet"
    pd.DataFrame(rows).to_parquet(path)
    with pytest.raises(ValueError, match="3 samurai easy"):
        read_solved(path)
    with pytest.raises(ValueError, match="3 samurai easy"):
        cell_brackets(pd.DataFrame(rows))


def test_the_page_shows_each_cell_with_its_own_seed_and_budget():
    from kiai.reports.page import bracket as B

    rows = [{"n_samurai": n, "difficulty": "easy", "lineup": "a,b", "seed": seed, "game": g, "budget": budget,
             "deals": 400, "answer": "won", "nodes": 1}
            for n, seed, budget in ((2, 60, 2000), (3, 61, 5000)) for g in range(400)]
    blocks = B.bracket_blocks(pd.DataFrame(rows))
    table = [b[1] for b in blocks if b[0] == "table"][0]
    assert table[["seed", "budget"]].values.tolist() == [["60", "2,000"], ["61", "5,000"]]
    assert "each cell's budget" in blocks[1][1]


def _hold(path):
    """A process that holds the claim on `path` until killed; returned once the lock names it."""
    code = f"from kiai.outputs import claim\nimport time\nwith claim({str(path)!r}): time.sleep(60)"
    holder = subprocess.Popen([sys.executable, "-c", code])
    lock = path.with_name(f".{path.name}.lock")
    for _ in range(600):
        if lock.exists() and lock.stat().st_size:
            return holder
        time.sleep(0.05)
    holder.kill()
    raise AssertionError("the claim was never taken")


@pytest.mark.parametrize("option", ["-o", "--bracket"])
def test_a_second_solve_on_a_claimed_output_refuses_naming_the_holder(capsys, tmp_path, option):
    from conftest import one_line_error, run

    path = tmp_path / ("s.json" if option == "-o" else "b.parquet")
    holder = _hold(path)
    try:
        args = ["-s", THREE, "-n", 1, "--budget", 5] if option == "-o" else ["--cells", "2-easy", "-n", 1, "--budget", 5]
        one_line_error(*run(capsys, "solve", *args, option, path), str(path), f"pid {holder.pid}")
    finally:
        holder.kill()
        holder.wait()
    assert not path.exists()


def test_ctrl_c_on_kiai_solve_says_in_one_line_that_the_output_is_left_as_it_was(capsys, tmp_path, monkeypatch):
    from conftest import run

    out = tmp_path / "s.json"
    out.write_text("{}")

    def stop(*_a, **_k):
        raise KeyboardInterrupt

    monkeypatch.setattr(S.Solver, "solve", stop)
    code, text, err = run(capsys, "solve", "-s", THREE, "-n", 2, "--budget", 5, "-o", out, "--force")
    assert code == 130 and text == ""
    assert err.strip().splitlines() == [f"kiai: interrupted; {out} left as it was"], err
    assert out.read_text() == "{}"


def test_ctrl_c_on_kiai_solve_bracket_keeps_the_finished_cells(capsys, tmp_path, monkeypatch):
    from conftest import run

    out = tmp_path / "b.parquet"
    search.solve_bracket(out, [(2, "normal")], deals=1, budget=5, seed=0)
    solve_cell = search.solve_cell

    def second_stops(n, level, *a, **k):
        if (n, level) == (3, "easy"):
            raise KeyboardInterrupt
        return solve_cell(n, level, *a, **k)

    monkeypatch.setattr(search, "solve_cell", second_stops)
    code, text, err = run(capsys, "solve", "--bracket", out, "--cells", "2-easy,3-easy", "-n", 1, "--budget", 5)
    assert code == 130 and text == ""
    lines = [x for x in err.strip().splitlines() if not x.startswith("solve: ")]
    assert lines == [f"kiai: interrupted; {out} left as it was, but for the cells finished, kept in it (2-easy); "
                     "run the same command to solve the others"], err
    assert _cells(out) == {(2, "normal"): (0, 5, 1), (2, "easy"): (0, 5, 1)}
