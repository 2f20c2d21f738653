"""`kiai solve` and `kiai solve --bracket` on Dask (--workers, --scheduler): one task a deal, the same
answers and rows as a local run (but for their seconds), one Solver kept per process, and a cluster
that cannot be reached or fails mid-run said in one line, the bracket keeping its finished cells."""

import json

import pandas as pd
import pytest
from conftest import one_line_error, run

from kiai.reports.search import solve as search

THREE = "kanbei,kyuzo,heihachi"
BRACKET = ["--cells", "2-easy,3-easy", "-n", 6, "--budget", 300, "--check"]
TIMING = ["seconds", "cell_seconds"]  # the only columns that depend on where the deals were played


@pytest.fixture(scope="module")
def scheduler():
    """A running scheduler with two in-process workers, one thread each."""
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        yield cluster.scheduler_address


def _rows(path) -> pd.DataFrame:
    return pd.read_parquet(path).drop(columns=TIMING)


def test_the_bracket_on_workers_and_on_a_scheduler_matches_a_local_run(capsys, tmp_path, scheduler):
    code, local_text, _ = run(capsys, "solve", "--bracket", tmp_path / "local.parquet", *BRACKET)
    assert code == 0, local_text
    local = _rows(tmp_path / "local.parquet")
    assert len(local) == 12 and {"won_judge", "found_by"} <= set(local)
    for name, where in (("workers", ["--workers", 2]), ("sched", ["--scheduler", scheduler])):
        code, text, err = run(capsys, "solve", "--bracket", tmp_path / f"{name}.parquet", *BRACKET, *where)
        assert code == 0 and text == local_text, err
        pd.testing.assert_frame_equal(_rows(tmp_path / f"{name}.parquet"), local)


def test_kiai_solve_of_a_table_on_a_scheduler_gives_the_same_deals(capsys, tmp_path, scheduler):
    args = ["-s", THREE, "-d", "easy", "-n", 4, "--budget", 2000]
    assert run(capsys, "solve", *args, "-o", tmp_path / "local.json")[0] == 0
    code, _, err = run(capsys, "solve", *args, "-o", tmp_path / "dask.json", "--scheduler", scheduler)
    assert code == 0, err
    local, dask = (json.loads((tmp_path / f).read_text()) for f in ("local.json", "dask.json"))
    same = ("answer", "nodes", "states", "line", "certified")
    assert [{k: d.get(k) for k in same} for d in dask["deals"]] == [{k: d.get(k) for k in same} for d in local["deals"]]
    counts = ("won", "lost", "unknown", "failed")
    assert [dask[k] for k in counts] == [local[k] for k in counts]


@pytest.mark.parametrize("args, word", [(["--workers", 0], "--workers must be at least 1"),
                                        (["--workers", 2, "--scheduler", "tcp://127.0.0.1:1"], "exclude"),
                                        (["--scheduler", " "], "--scheduler is empty")])
def test_bad_cluster_options_are_one_line_before_any_deal(capsys, tmp_path, args, word):
    one_line_error(*run(capsys, "solve", "-s", THREE, "-n", 1, "-o", tmp_path / "s.json", *args), word)
    one_line_error(*run(capsys, "solve", "--bracket", tmp_path / "b.parquet", "-n", 1, *args), word)
    assert not list(tmp_path.glob("*.json")) and not list(tmp_path.glob("*.parquet"))


def test_a_cluster_failing_mid_bracket_keeps_the_cells_finished_and_the_same_command_solves_the_others(
        capsys, tmp_path, monkeypatch):
    from kiai.reports.playing.cluster import ClusterFailed

    out = tmp_path / "b.parquet"
    solve_cell = search.solve_cell

    def fails_on_the_second(n, level, *a, **k):
        if (n, level) == (3, "easy"):
            raise ClusterFailed("the Dask cluster at tcp://h:8786 failed mid-run (KilledWorker: gone)")
        return solve_cell(n, level, *a, **k)

    monkeypatch.setattr(search, "solve_cell", fails_on_the_second)
    args = ["solve", "--bracket", out, "--cells", "2-easy,3-easy", "-n", 2, "--budget", 300]
    code, text, err = run(capsys, *args)
    lines = [x for x in err.strip().splitlines() if not x.startswith("solve: ")]
    assert code == 2 and text == "" and len(lines) == 1, err
    assert lines[0].startswith("kiai: error: the Dask cluster at tcp://h:8786 failed mid-run")
    assert f"the cells finished (2-easy) are kept in {out}: running the same command again keeps them" in lines[0]
    first = pd.read_parquet(out)
    assert set(zip(first["n_samurai"], first["difficulty"])) == {(2, "easy")}
    solved = []

    def counted(n, level, *a, **k):
        solved.append((n, level))
        return solve_cell(n, level, *a, **k)

    monkeypatch.setattr(search, "solve_cell", counted)
    assert run(capsys, *args)[0] == 0
    assert solved == [(3, "easy")]  # the finished cell kept, not solved again
    again = pd.read_parquet(out)
    pd.testing.assert_frame_equal(again[again["n_samurai"] == 2].reset_index(drop=True), first)


def test_a_process_keeps_one_solver_reused_deal_after_deal(monkeypatch, tmp_path):
    made = []

    class Counted(search.Solver):
        def __init__(self, *a, **k):
            made.append(a[:2])
            super().__init__(*a, **k)

    monkeypatch.setattr(search, "Solver", Counted)
    search.solve_bracket(tmp_path / "b.parquet", [(3, "easy")], deals=4, budget=300)
    assert len(made) == 2  # one a line-up of the cell, as many deals as it has
    res = search.solve_table(THREE.split(","), "easy", 3, budget=300)
    assert len(made) == 3 and len(res["deals"]) == 3
    assert search.solver_for(THREE, "easy", 300) is search.solver_for(THREE.split(","), "easy", 300)
    assert search.solver_for(THREE, "normal", 300) is not None and len(search._SOLVER) == 1  # one at a time
    search._SOLVER.clear()


def test_kiai_solve_help_describes_workers_and_scheduler(capsys):
    code, text, _ = run(capsys, "solve", "--help")
    assert code == 0 and "--workers" in text and "--scheduler" in text and "one task a deal" in text


def test_the_late_game_check_on_a_scheduler_matches_a_local_run(capsys, tmp_path, scheduler):
    """`kiai solve --late-game` on Dask: the deals that give a position are found, and each position
    solved, as tasks; the rows and the printed checks are a local run's but for the seconds."""
    args = ["--cells", "2-hard,4-easy", "-n", 4, "--budget", 50_000]
    code, local_text, _ = run(capsys, "solve", "--late-game", tmp_path / "local.parquet", *args)
    assert code == 0, local_text
    code, text, err = run(capsys, "solve", "--late-game", tmp_path / "dask.parquet", *args, "--scheduler", scheduler)
    assert code == 0 and text == local_text, err
    timing = ["full_seconds", "rb_seconds"]
    local, dask = (pd.read_parquet(tmp_path / f).drop(columns=timing) for f in ("local.parquet", "dask.parquet"))
    assert len(local) == 8
    pd.testing.assert_frame_equal(dask, local)
