"""How hard at best: the solve stage's table (kiai solve --bracket, reports.search.solve), its
check against the players, and its section of the report (reports.page.bracket)."""

import pandas as pd
import pytest
from statsmodels.stats.proportion import proportion_confint

from kiai.reports.findings.bracket import SOLVED, bracket, cell_brackets
from kiai.reports.page import bracket as B
from kiai.reports.search.solved_table import read_solved, write_solved_table


def _solved(cells):
    """A solved table: {(n, level): (won, lost, unknown)}, one row a deal."""
    rows = []
    for (n, level), counts in cells.items():
        answers = [a for a, k in zip(("won", "lost", "unknown"), counts) for _ in range(k)]
        rows += [{"n_samurai": n, "difficulty": level, "lineup": "a,b", "seed": 60, "game": g, "budget": 2000,
                  "deals": len(answers), "answer": a, "nodes": 100} for g, a in enumerate(answers)]
    return pd.DataFrame(rows)


def test_the_interval_counts_unknown_deals_lost_below_and_won_above():
    lo, hi = bracket(380, 15, 400)
    assert lo == pytest.approx(proportion_confint(380, 400, method="beta")[0])
    assert hi == pytest.approx(proportion_confint(395, 400, method="beta")[1])
    assert bracket(390, 10, 400)[1] == 1.0  # nothing proved lost: the upper limit is 100%
    assert bracket(390, 0, 400)[1] < 1.0


def test_a_cell_is_shown_only_with_enough_deals_and_an_interval_within_five_points():
    cells = cell_brackets(_solved({(2, "easy"): (392, 0, 8), (3, "normal"): (300, 0, 100),
                                     (4, "easy"): (99, 0, 1), (5, "normal"): (380, 12, 8)}))
    by = {(r.n_samurai, r.difficulty): r for r in cells.itertuples()}
    assert by[2, "easy"].shown and (by[2, "easy"].hi - by[2, "easy"].lo) / 2 <= 0.05
    assert not by[3, "normal"].shown and "25.0% of its deals unknown" in by[3, "normal"].why
    assert not by[4, "easy"].shown and "only 100 deals" in by[4, "easy"].why
    assert by[5, "normal"].shown and by[5, "normal"].lost == 12 and by[5, "normal"].hi < 1.0


def test_the_section_says_not_solved_without_a_table_and_names_the_cells_left_out():
    blocks = B.bracket_blocks(None)
    assert blocks[0] == ("h3", B.TITLE) and "Not solved" in blocks[1][1]
    blocks = B.bracket_blocks(_solved({(2, "easy"): (392, 0, 8), (3, "normal"): (300, 0, 100)}))
    table = [b[1] for b in blocks if b[0] == "table"][0]
    assert list(table["team size"]) == ["2 samurai"]
    assert table.iloc[0]["winnable, knowing every card"] == "96.1% to 100.0%"  # nothing proved lost: the upper limit is 100%
    assert "stopped after 2,000 turns played" in blocks[1][1]
    left = [b[1] for b in blocks if b[0] == "p" and b[1].startswith("Left out")][0]
    assert "3 samurai normal (25.0% of its deals unknown" in left and "Hard and Heroic, not solved" in left


def test_in_short_says_the_share_lost_whatever_is_played_beside_kiais_player():
    solved = _solved({(2, "easy"): (392, 0, 8), (3, "easy"): (300, 0, 100)})
    strong = pd.DataFrame([{"n_samurai": 2, "difficulty": "easy", "rate": 0.61}])
    default = pd.DataFrame([{"n_samurai": 2, "difficulty": "easy", "rate": 0.45}])
    line = B.in_short_line(solved, 2, B.in_short_players(strong, default))
    assert len(line) == 1 and "knowing every card" in line[0]
    assert "Easy 96.1% to 100.0% (at most 3.9% lost whatever is played" in line[0]
    assert "kiai's strongest player wins 61.0%" in line[0]
    assert "default" in B.in_short_line(solved, 2, B.in_short_players(pd.DataFrame(), default))[0]
    assert B.in_short_line(solved, 3) == [] and B.in_short_line(None, 2) == []


def test_a_bad_solved_table_is_refused_in_one_line(tmp_path):
    bad = tmp_path / "solved.parquet"
    pd.DataFrame({"game": [1]}).to_parquet(bad)
    with pytest.raises(ValueError, match="no column n_samurai"):
        read_solved(bad)
    bad.write_text("not parquet")
    with pytest.raises(ValueError, match="cannot read it"):
        read_solved(bad)
    _solved({(2, "easy"): (1, 0, 0)}).assign(answer="maybe").to_parquet(bad)
    with pytest.raises(ValueError, match="answer must be one of"):
        read_solved(bad)


def test_kiai_report_reads_the_solved_table_beside_the_results_or_says_not_solved(tmp_path, capsys):
    from conftest import one_line_error, run
    from test_reports_report import _table

    from kiai.reporting import report

    results = tmp_path / "results.parquet"
    _table(cheater=False).to_parquet(results)
    report([results], tmp_path / "plain")
    assert "Not solved" in (tmp_path / "plain" / "report.md").read_text()
    write_solved_table(_solved({(3, "easy"): (396, 0, 4)}), tmp_path / SOLVED)
    report([results], tmp_path / "solved")
    page = (tmp_path / "solved" / "report.md").read_text()
    assert B.TITLE in page and "How hard at best, knowing every card, the share of deals that can be won: Easy" in page
    pd.DataFrame({"x": [1]}).to_parquet(tmp_path / SOLVED)
    one_line_error(*run(capsys, "report", results, "--out", tmp_path / "bad"), "solved.parquet", "not a solved table")


def test_the_check_plays_every_player_on_the_solved_deals_and_resumes(tmp_path, capsys):
    """CI's small version of the check: no player wins a deal the solver proved lost (the hand-built
    ones: tests/test_solve.py); a second run with the same settings solves nothing again."""
    from conftest import run

    from kiai.reports.search.solve import CHECK_PLAYERS, check_rows, solve_bracket

    out = tmp_path / "s.parquet"
    met = []
    table = solve_bracket(out, [(3, "easy"), (2, "normal")], deals=4, budget=500, check=True, on_deal=met.append)
    assert len(met) == 8 and set(table["answer"]) <= {"won", "lost", "unknown"}
    assert all(f"won_{p}" in table for p in CHECK_PLAYERS)
    per = check_rows(table)
    assert (per[[f"lost_won_{p}" for p in CHECK_PLAYERS]] == 0).all().all()
    again = []
    solve_bracket(out, [(3, "easy"), (2, "normal")], deals=4, budget=500, check=True, on_deal=again.append)
    assert again == []
    code, text, _ = run(capsys, "solve", "--bracket", out, "--cells", "3-easy,2-normal", "-n", 4, "--budget", 500,
                        "--check")
    assert code == 0 and "won by a player all the same: 0 (must be 0)" in text


def test_kiai_solve_bracket_refuses_bad_input_in_one_line(capsys, tmp_path):
    from conftest import one_line_error, run

    out = tmp_path / "s.parquet"
    for args, word in ((["--cells", "9-easy"], "--cells"), (["--cells", "3-easy,3-easy"], "twice"),
                       (["--cells", "3-hardest"], "--cells"), (["-n", "0"], "--games"), (["--budget", "0"], "--budget")):
        one_line_error(*run(capsys, "solve", "--bracket", out, *args), word)
    one_line_error(*run(capsys, "solve", "--check"), "--bracket")
    (tmp_path / "x.json").write_text("{}")
    one_line_error(*run(capsys, "solve", "--bracket", tmp_path / "x.json"), ".parquet")


def test_a_deal_the_search_leaves_unknown_is_won_where_foresight_or_the_default_wins_it_on_the_same_outcomes(tmp_path):
    """Their games on the deal's fixed outcomes are winning lines played by the engine: foresight's
    first, then the default's (FINISHERS)."""
    from kiai.reports.search.solve import FINISHERS, solve_bracket
    from kiai.simcore.results import O_OUTCOME
    from kiai.strategies.registry import DEFAULT
    from kiai.strategies.run.solve import keyed_outcomes

    assert FINISHERS == ("foresight", "default")
    table = solve_bracket(tmp_path / "s.parquet", [(2, "normal")], deals=60, budget=1)
    for r in table.itertuples():
        won = {p: int(keyed_outcomes(r.lineup.split(","), "normal", 1, seed=r.seed, game0=r.game,
                                     strategy=DEFAULT if p == "default" else p)[0, O_OUTCOME]) == 0 for p in FINISHERS}
        first = next((p for p in FINISHERS if won[p]), "")
        assert (r.answer == "won") == any(won.values()) and r.found_by == first and r.nodes <= 1
    assert set(table["found_by"]) >= {"foresight", "default"}  # both happen on these deals (36 and 58: the default's)


def test_the_apis_bracket_solves_the_deals_kiai_solve_bracket_does():
    """kiai.solve.bracket's default seed is the CLI's, so that either fills make report's cells alike."""
    import inspect

    from kiai import solve as api
    from kiai.cli.common import SeedOpt

    assert inspect.signature(api.bracket).parameters["seed"].default == SeedOpt.default == 0
    assert inspect.signature(api.late_game).parameters["seed"].default == SeedOpt.default


def test_two_samurai_deals_proved_lost_without_absent_tokens_bound_nothing_above_r18():
    """R-18: two samurai play with absent support tokens, which the solver does not search; a deal
    it proves lost without them may be won with them, so the upper limit counts it as won there."""
    table = _solved({(2, "hard"): (380, 20, 0), (3, "hard"): (380, 20, 0)})
    per = cell_brackets(table).set_index("n_samurai")
    assert per.loc[2, "hi"] == 1.0 and per.loc[2, "lost"] == 20
    assert per.loc[3, "hi"] < 1.0
    assert per.loc[2, "lo"] == per.loc[3, "lo"]
