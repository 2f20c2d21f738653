"""`kiai balance` on a Dask cluster (issue 72): --workers and --scheduler give the figures of a local
run; a scheduler that cannot be reached is one line before any game; a cluster that fails mid-run
is one line saying --resume continues, and the resumed run plays only what the state lacks, to the
figures of an uninterrupted run."""

from __future__ import annotations

import json
import threading

import pytest

from kiai.reports.playing.cluster import ClusterFailed
from kiai.reports.search import balance as B
from conftest import run

# a tiny run: one team size, two line-ups, one generation of three settings, then the neighbours and the race
ARGS = ["--players", "3", "--target", "30%", "--lineups", "2", "-n", "40", "--generations", "1", "--candidates", "3",
        "--verify", "60", "--seed", "3"]  # fmt: skip

# the tasks played, and after how many the cluster 'fails' (None: never); in this process, where the
# in-process workers of LocalCluster(processes=False) play them
TASKS = {"played": 0, "fail_after": None}
_LOCK = threading.Lock()
_REAL_TALLY = B.tally


def failing_tally(config, seed, first, count):
    """balance's task; once `fail_after` tasks are played, each raises what a lost cluster raises."""
    with _LOCK:
        if TASKS["fail_after"] is not None and TASKS["played"] >= TASKS["fail_after"]:
            raise ClusterFailed("lost the Dask scheduler at tcp://test mid-run")
        TASKS["played"] += 1
    return _REAL_TALLY(config, seed, first, count)


def _cluster():
    from distributed import LocalCluster

    return LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None)


def _figures(folder) -> dict:
    return json.loads((folder / "balance.json").read_text())


@pytest.fixture(scope="module")
def local(engine, tmp_path_factory):
    """The tiny run played here: its folder."""
    from kiai.levels import balance

    out = tmp_path_factory.mktemp("local") / "bal"
    balance("normal", "3", "30%", lineups=2, games=40, generations=1, candidates=3, verify=60, seed=3, out=out)
    return out


def test_workers_and_scheduler_give_the_figures_of_a_local_run(local, tmp_path, capsys):
    code, page, err = run(capsys, "balance", *ARGS, "--workers", 2, "--out", tmp_path / "workers")
    assert code == 0, err
    assert _figures(tmp_path / "workers") == _figures(local)
    assert page == (local / "balance.md").read_text()
    assert (tmp_path / "workers" / "components.toml").read_text() == (local / "components.toml").read_text()
    from kiai.levels import balance

    with _cluster() as cluster:
        result = balance("normal", "3", "30%", lineups=2, games=40, generations=1, candidates=3, verify=60, seed=3,
                         out=tmp_path / "sched", scheduler=cluster.scheduler_address)  # fmt: skip
    assert json.loads(json.dumps(result.to_json())) == _figures(local) == _figures(tmp_path / "sched")


def test_a_cluster_lost_mid_run_resumes_to_the_figures_of_a_whole_run(local, tmp_path, capsys, monkeypatch):
    """The cluster fails after 8 tasks (the generation's 3 settings of 2 line-ups are the first 6):
    one line naming --resume; the state keeps the settings whose line-ups all finished, and the
    resumed run asks the cluster for the rest only, to the figures of the uninterrupted run."""
    from kiai.reports.playing import pool as P

    asked = []  # the tasks each map asks of the cluster, counted where they are sent
    real_map = P.DaskPool.map

    def counted_map(self, fn, calls, on_done=None):
        asked.append(len(calls))
        return real_map(self, fn, calls, on_done)

    monkeypatch.setattr(P.DaskPool, "map", counted_map)
    monkeypatch.setattr(B, "tally", failing_tally)
    monkeypatch.setitem(TASKS, "played", 0)
    monkeypatch.setitem(TASKS, "fail_after", 8)
    out = tmp_path / "bal"
    with _cluster() as cluster:
        argv = ["balance", *ARGS, "--scheduler", cluster.scheduler_address, "--out"]
        code, page, err = run(capsys, *argv, out)
        errors = [line for line in err.splitlines() if line.startswith("kiai: error:")]  # after the progress notes
        assert code == 2 and page == "" and len(errors) == 1 and err.strip().endswith(errors[0]), err
        assert "lost the Dask scheduler" in errors[0] and "--resume" in errors[0] and str(out) in errors[0]
        kept = json.loads((out / "balance-state.json").read_text())["played"]
        assert 3 <= len(kept) <= 4, kept  # the generation's three settings, and one more at most
        assert not (out / "balance.json").exists()

        monkeypatch.setitem(TASKS, "fail_after", None)
        asked.clear()
        code, page, err = run(capsys, *argv, out, "--resume")
        assert code == 0, err
        resumed = sum(asked)
        asked.clear()
        assert run(capsys, *argv, tmp_path / "whole")[0] == 0
    assert _figures(out) == _figures(local) == _figures(tmp_path / "whole")
    assert page == (local / "balance.md").read_text()
    assert resumed == sum(asked) - 2 * len(kept)  # what the state kept is not played again (two line-ups each)


def test_the_search_played_in_batches_plays_as_one_setting_at_a_time():
    """Search.run with play_many (a step's settings at once, as on a cluster) plays the same
    settings on the same deals, in the same order, to the same winner, as with play alone."""
    import numpy as np

    from kiai.simcore.components import load_components

    sp = B.space(load_components(), "normal", 4)

    def play(s, first, last):  # a constructed game: a rate by the setting, a draw per deal
        p = 0.05 + 0.02 * sum(abs(int(a) - int(b)) for a, b in zip(s, sp.printed)) % 0.6
        key = abs(hash(s)) % 2**32
        return int((np.random.default_rng([key, first, last]).random(last - first) < p).sum()), last - first

    alone, batches = [], []

    def one(s, first, last):
        alone.append((s, first, last))
        return play(s, first, last)

    def many(plays):
        batches.append(list(plays))
        return [play(*x) for x in plays]

    runs = [B.Search(sp, f, 0.2, deals=50, rng=np.random.default_rng(4), **extra)
            for f, extra in ((one, {}), (None, {"play_many": many}))]  # fmt: skip
    best = [search.run(3, 8) for search in runs]
    assert best[0] == best[1] and runs[0].played == runs[1].played
    assert alone == [x for batch in batches for x in batch]
    assert max(len(batch) for batch in batches) >= 8  # a generation's settings went out together
