"""`kiai compare` on a Dask cluster (issue 72): --workers and --scheduler give the figures of a local
run (the same summaries, pair counts and report); a scheduler that cannot be reached is one line
before any game; a cluster that fails mid-run is one line saying the run is lost (compare has no
--resume)."""

from __future__ import annotations

import contextlib
import io
import json
import threading

import numpy as np
import pytest

from kiai.reports.playing.cluster import ClusterFailed
from kiai.reports.search import compare as C
from conftest import run

pytestmark = pytest.mark.usefixtures("engine")

TRIO = "kyuzo,heihachi,daisuke"
# two strategies on one seating, 2,500 games: on Dask, blocks of 1,000 games (three of them)
STRATEGIES = ["compare", "--strategies", "reference,keeper", "-s", TRIO, "-d", "easy", "-n", 2500, "--seed", 3]
SEATINGS = ["compare", "--lineup", "kyuzo,heihachi,daisuke,gorobei", "-d", "easy", "-n", 400, "--seed", 5]


def _cluster():
    from distributed import LocalCluster

    return LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None)


def _text(out: str) -> str:
    """compare's text without its speed ('N games/s on ...'), the one figure that depends on where it ran."""
    return "\n".join(line.split(" (")[0] if "games/s on" in line else line for line in out.splitlines())


@pytest.fixture(scope="module")
def local():
    """The runs played here: (strategies' JSON, their text, seatings' JSON)."""
    from kiai.cli.main import main

    outs = []
    for argv in ([*STRATEGIES, "--json"], STRATEGIES, [*SEATINGS, "--json"]):
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            assert main([str(a) for a in argv]) == 0
        outs.append(buf.getvalue())
    return outs


class Tasks:
    """A pool of two 'workers' that plays its calls in turn here, and keeps them."""

    workers = 2

    def __init__(self):
        self.maps = []

    def map(self, fn, calls, on_done=None):
        self.maps.append(list(calls))
        out = []
        for i, args in enumerate(reversed(calls)):  # in any order: the results go back in the order asked
            out.append(fn(*args))
            if on_done is not None:
                on_done(len(calls) - 1 - i, out[-1])
        return out[::-1]


def test_play_arms_on_a_pool_plays_each_arm_s_block_as_a_task_to_the_same_figures(monkeypatch):
    arms = C.strategy_arms(TRIO.split(","), "easy", [("reference", {}), ("random", {}), ("keeper", {})])
    here = C.play_arms(arms, 2500, 4)
    monkeypatch.setattr(C, "WINDOW", 1)  # one block's three tasks a map: the blocks go out over several maps
    pool, counted = Tasks(), []
    there = C.play_arms(arms, 2500, 4, on_block=counted.append, pool=pool)
    calls = [call for m in pool.maps for call in m]
    assert [(o, n) for _, _, o, n in calls[::3]] == [(0, 1000), (1000, 1000), (2000, 500)]
    assert [c for c, _, _, _ in calls] == [arm.config for arm in arms] * 3 and len(pool.maps) == 3
    assert sorted(counted) == sorted([1000] * 6 + [500] * 3)
    for a, b in zip(here, there):
        assert a["summary"] == b["summary"] and np.array_equal(a["both"], b["both"])
    assert C.pairwise(here) == C.pairwise(there)


def test_workers_and_scheduler_give_the_figures_of_a_local_run(local, capsys):
    strategies, text, seatings = local
    code, out, err = run(capsys, *STRATEGIES, "--json", "--workers", 2)
    assert code == 0, err
    assert out == strategies
    with _cluster() as cluster:
        code, out, err = run(capsys, *STRATEGIES, "--scheduler", cluster.scheduler_address)
        assert code == 0, err
        assert "games/s on 2 Dask workers" in out and _text(out) == _text(text)
        assert run(capsys, *SEATINGS, "--json", "--scheduler", cluster.scheduler_address)[1] == seatings
        import kiai

        result = kiai.compare(TRIO, "easy", 2500, seed=3, strategies="reference,keeper",
                              scheduler=cluster.scheduler_address)  # fmt: skip
        assert json.dumps(result.to_json()) + "\n" == strategies and result.workers == 2


def test_the_api_checks_the_cluster_before_any_game():
    import kiai

    with pytest.raises(kiai.KiaiError, match="--workers must be at least 1"):
        kiai.compare(TRIO, "easy", 100, strategies="reference,keeper", workers=0)


_REAL_BLOCK = C.arm_block
_PLAYED = {"tasks": 0}
_LOCK = threading.Lock()


def failing_block(config, seed, offset, count):
    """compare's task; after two, each raises what a lost cluster raises."""
    with _LOCK:
        if _PLAYED["tasks"] >= 2:
            raise ClusterFailed("lost the Dask scheduler at tcp://test mid-run")
        _PLAYED["tasks"] += 1
    return _REAL_BLOCK(config, seed, offset, count)


def test_a_cluster_lost_mid_run_is_one_line_saying_the_run_is_lost(capsys, monkeypatch):
    monkeypatch.setattr(C, "arm_block", failing_block)
    monkeypatch.setitem(_PLAYED, "tasks", 0)
    with _cluster() as cluster:
        code, out, err = run(capsys, *STRATEGIES, "--scheduler", cluster.scheduler_address)
    errors = [line for line in err.splitlines() if line.startswith("kiai: error:")]
    assert code == 2 and out == "" and len(errors) == 1 and err.strip().endswith(errors[0]), err
    assert "lost the Dask scheduler" in errors[0] and "no --resume" in errors[0] and "run it again" in errors[0]
