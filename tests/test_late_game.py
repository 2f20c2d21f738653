"""Issue 73's late-game ground truth (`kiai solve --late-game`, reports.search.late_game) on a small
sample: positions a few turns before the end of round 3 of the default's keyed games, solved with
the whole-state key and R-B's canonical key. Every check holds (the keys agree, every win
replays, no position proved lost is won by a player), both answers occur, a position carries its
deal's keyed outcomes (the default plays on from it as its game did), and a planted fault, a key
that calls the wins it finds lost, breaks the checks."""

from __future__ import annotations

import dataclasses

import pandas as pd
import pytest

from kiai import solve as api
from kiai.reports.search import late_game as L
from kiai.simcore.results import O_OUTCOME
from kiai.strategies.run import solve as run_solve

CELLS = [(2, "hard"), (3, "normal"), (4, "easy")]
POSITIONS = 8
BUDGET = 200_000


@pytest.fixture(scope="module")
def truth(tmp_path_factory):
    out = tmp_path_factory.mktemp("late") / "late.parquet"
    summary = api.late_game(out, CELLS, positions=POSITIONS, budget=BUDGET)
    return pd.read_parquet(out), summary


def test_every_check_holds_and_both_answers_occur(truth):
    table, summary = truth
    assert len(table) == POSITIONS * len(CELLS)
    assert summary["broken"].sum() == 0, summary.to_string()
    assert list(summary["positions"]) == [POSITIONS] * len(CELLS)
    assert set(table["full"]) == {"won", "lost"} and set(table["rb"]) == {"won", "lost"}  # exhausted, both common
    assert (table["full"] == table["rb"]).all()
    assert table["turns_left"].between(1, L.LATE_TURNS).all()
    lost = table[table["full"] == "lost"]
    assert lost[[f"won_{p}" for p in L.CHECK_PLAYERS]].notna().all().all()  # each played where lost
    assert not lost["player_won"].any()


def test_rb_merges_states_the_whole_key_tells_apart(truth):
    table, summary = truth
    assert (table["rb_nodes"] <= table["full_nodes"]).all()
    assert summary["sum_ratio"].max() <= 1.0


def test_a_position_carries_its_deals_keyed_outcomes(truth):
    """The default, played on from a position with the deal's keyed outcomes, ends as its game did."""
    table, _ = truth
    for row in table.head(6).itertuples():
        lineup = tuple(row.lineup.split(","))
        turn, left, start, won = L.late_position(lineup, row.difficulty, row.seed, row.game)
        assert (turn, left, won) == (row.turn, row.turns_left, row.player_won)
        assert int(start[0][0]["round_no"]) == L.ROUND
        out = run_solve.keyed_outcomes(lineup, row.difficulty, 1, seed=row.seed, game0=row.game, start=start)
        assert bool(out[0, O_OUTCOME] == 0) == won


def test_a_key_that_calls_its_wins_lost_breaks_the_checks(monkeypatch, tmp_path):
    """A planted fault: R-B's search answers 'lost' wherever it found a win. The keys then disagree,
    and the default's own game wins positions called lost."""
    solve = run_solve.Solver.solve

    def losing(self, seed, game, budget=run_solve.DEFAULT_BUDGET, start=None, key="full"):
        s = solve(self, seed, game, budget, start, key=key)
        return dataclasses.replace(s, answer="lost", line=[]) if key == "rb" and s.answer == "won" else s

    monkeypatch.setattr(run_solve.Solver, "solve", losing)
    summary = api.late_game(tmp_path / "bad.parquet", [(4, "easy")], positions=6, budget=BUDGET)
    assert summary["disagree"].sum() > 0 and summary["lost_won"].sum() > 0 and summary["broken"].sum() > 0


def test_kiai_solve_late_game_prints_each_cell_and_refuses_bad_input_in_one_line(capsys, tmp_path):
    from conftest import one_line_error, run

    out = tmp_path / "late.parquet"
    code, text, _ = run(capsys, "solve", "--late-game", out, "--cells", "3-normal", "-n", 3, "--budget", 50_000)
    assert code == 0 and "3 samurai normal: 3 positions" in text and "Checks broken: 0 (must be 0)." in text
    assert len(pd.read_parquet(out)) == 3
    one_line_error(*run(capsys, "solve", "--late-game", out, "--cells", "3-normal", "-n", 3), "--force")
    for args, word in ((["--cells", "8-easy"], "--cells"), (["-n", "0"], "--games"), (["--budget", "0"], "--budget"),
                       (["--check"], "--check"), (["--bracket", tmp_path / "b.parquet"], "--bracket"),
                       (["-d", "hard"], "--difficulty"), (["--order", "default"], "--order")):
        one_line_error(*run(capsys, "solve", "--late-game", tmp_path / "new.parquet", *args), word)
    one_line_error(*run(capsys, "solve", "--late-game", tmp_path / "x.csv"), ".parquet")
    assert not (tmp_path / "new.parquet").exists()


def test_a_run_stopped_half_way_keeps_the_cells_it_finished(monkeypatch, tmp_path):
    """The table is written after each cell: a run that fails in its second cell leaves the first."""
    cell = L.late_cell

    def failing(n, level, *args, **kw):
        if n == 4:
            raise KeyboardInterrupt
        return cell(n, level, *args, **kw)

    monkeypatch.setattr(L, "late_cell", failing)
    out = tmp_path / "late.parquet"
    with pytest.raises(KeyboardInterrupt):
        api.late_game(out, [(3, "normal"), (4, "easy")], positions=3, budget=50_000)
    kept = pd.read_parquet(out)
    assert len(kept) == 3 and set(kept["n_samurai"]) == {3}
