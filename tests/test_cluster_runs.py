"""The report's stages on a Dask cluster (docs/clusters.md): one local cluster for a whole run, as
`make report WORKERS=N` starts it (reports/playing/local_cluster.py), gives the tables of a run
without one; a worker lost mid-stage ends the stage in one line and --resume finishes it; a worker
that joins later is warmed and checked by the plugin."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from conftest import one_line_error, run

pytest.importorskip("distributed")

BIN = Path(sys.executable).parent
TIMING = ["seconds", "cell_seconds"]  # columns that say how long a run took, not what it found


def _wait_for(path: Path, proc: subprocess.Popen, what: str, timeout: float = 120) -> str:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if path.is_file() and path.stat().st_size:
            return path.read_text().strip()
        if proc.poll() is not None:
            raise AssertionError(f"{what} ended with {proc.returncode}")
        time.sleep(0.2)
    raise AssertionError(f"{what} did not start in {timeout} s")


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _same(a: Path, b: Path) -> None:
    x, y = pd.read_parquet(a), pd.read_parquet(b)
    drop = [c for c in TIMING if c in x]
    pd.testing.assert_frame_equal(x.drop(columns=drop), y.drop(columns=drop))


def test_a_report_shaped_run_on_one_local_cluster_gives_the_local_tables(tmp_path, capsys):
    """Three stages (a sweep, the advice stage reading its table, the solve stage's bracket), as make report runs them:
    once here, once on the cluster local_cluster starts for the whole run, every stage passed it
    as --scheduler. The tables are the same."""
    sweep = ["sweep", "--players", "3", "--lineups", "sample:3", "-d", "easy,normal", "--games", "300", "--seed", "5"]

    def stages(folder: Path, *on):
        folder.mkdir()
        assert run(capsys, *sweep, "--out", folder / "results.parquet", *on)[0] == 0
        code, out, err = run(capsys, "sweep", "--preset", "advice", "--from", folder / "results.parquet", "--games",
                             "200", "--out", folder / "advice.parquet", *on)  # fmt: skip
        assert code == 0, err
        code, out, err = run(capsys, "solve", "--bracket", folder / "solved.parquet", "--cells", "2-easy,3-normal",
                             "--games", "4", "--budget", "2000", *on)  # fmt: skip
        assert code == 0, err

    stages(tmp_path / "here")
    address_file = tmp_path / ".cluster-address"
    cluster = subprocess.Popen([sys.executable, "-m", "kiai.reports.playing.local_cluster", "--workers", "2",
                                "--address-file", str(address_file)])  # fmt: skip
    try:
        address = _wait_for(address_file, cluster, "the local cluster")
        stages(tmp_path / "cluster", "--scheduler", address)
    finally:
        _stop(cluster)
    assert cluster.returncode == 0 and not address_file.exists()  # stopped cleanly, its address removed
    for table in ("results.parquet", "advice.parquet", "solved.parquet"):
        _same(tmp_path / "here" / table, tmp_path / "cluster" / table)


def test_local_cluster_refuses_bad_input_in_one_line(tmp_path):
    for args, words in ((["--workers", "0", "--address-file", str(tmp_path / "a")], "--workers must be at least 1"),
                        (["--workers", "1", "--address-file", str(tmp_path / "no" / "a")], "no folder")):
        p = subprocess.run([sys.executable, "-m", "kiai.reports.playing.local_cluster", *args], capture_output=True,
                           text=True, timeout=60)  # fmt: skip
        assert p.returncode == 2 and words in p.stderr and len(p.stderr.strip().splitlines()) == 1


def _scheduler(tmp_path: Path) -> tuple[subprocess.Popen, str]:
    file = tmp_path / "scheduler.json"
    proc = subprocess.Popen([str(BIN / "dask"), "scheduler", "--port", "0", "--no-dashboard", "--scheduler-file",
                             str(file)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    _wait_for(file, proc, "dask scheduler")
    return proc, json.loads(file.read_text())["address"]


def _worker(address: str) -> subprocess.Popen:
    env = {**os.environ, "NUMBA_NUM_THREADS": "1"}
    return subprocess.Popen([str(BIN / "dask"), "worker", address, "--nthreads", "1", "--no-nanny", "--no-dashboard"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)  # fmt: skip


def _transitions(address: str) -> int:
    from distributed import Client

    with Client(address, timeout=10) as client:
        return client.run_on_scheduler(lambda dask_scheduler: dask_scheduler.transition_counter)


def test_a_worker_killed_mid_stage_ends_in_one_line_and_resume_finishes_it(tmp_path):
    """The only worker dies while the sweep plays: after KIAI_CLUSTER_PATIENCE seconds with no
    worker the sweep ends in one line saying what is saved, and the same command with --resume, on
    a new worker, finishes the table as an uninterrupted run writes it."""
    args = ["--players", "3", "-d", "easy,normal", "--games", "600", "--block", "100", "--seed", "3"]
    kiai = [str(BIN / "kiai"), "sweep", *args]
    env = {**os.environ, "KIAI_CLUSTER_PATIENCE": "3"}
    subprocess.run([*kiai, "--out", str(tmp_path / "here.parquet")], check=True, capture_output=True, timeout=600)
    scheduler, address = _scheduler(tmp_path)
    worker = _worker(address)
    try:
        out = tmp_path / "cluster.parquet"
        sweep = subprocess.Popen([*kiai, "--out", str(out), "--scheduler", address], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True, env=env)  # fmt: skip
        # mid-stage: once some of its 420 blocks are done (a few transitions each), well before the last
        while _transitions(address) < 200:
            assert sweep.poll() is None, sweep.communicate()
            time.sleep(0.2)
        worker.kill()
        worker.wait()
        try:
            stdout, stderr = sweep.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            sweep.kill()
            raise AssertionError(f"the sweep did not end: {sweep.communicate()}") from None
        lines = stderr.strip().splitlines()
        assert sweep.returncode == 2 and lines[-1].startswith("kiai: error: "), stderr
        assert "no worker for 3 s" in lines[-1] and "--resume" in lines[-1] and "saved in" in lines[-1]
        worker = _worker(address)
        done = subprocess.run([*kiai, "--out", str(out), "--scheduler", address, "--resume"], capture_output=True,
                              text=True, timeout=600, env=env)  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert "resumed" in done.stdout
        _same(tmp_path / "here.parquet", out)
    finally:
        _stop(worker)
        _stop(scheduler)


def test_a_worker_that_joins_later_is_warmed_and_plays(tmp_path, capsys):
    """The plugin registered when the run starts sets up a worker that joins afterwards: its numba
    threads set and the run's strategies loaded before its first task."""
    from distributed import Client, LocalCluster

    from kiai.reports.playing import cluster as C
    from kiai.reports.playing.pool import DaskPool
    from kiai.strategies.run.config import GameConfig

    config = GameConfig(("heihachi", "kyuzo", "gorobei"), "easy", "reference", {})
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None,
                      env={"NUMBA_NUM_THREADS": "1"}) as lc:
        with Client(lc.scheduler_address) as client:
            me = C.Cluster(client, address=lc.scheduler_address)
            me.prepare(1, [config])
            lc.scale(2)
            client.wait_for_workers(2, timeout=30)
            # every worker process, the late one too, ran the plugin: its threads are set
            assert sorted(client.run(C._threads).values()) == [1, 1]
            assert len({info["pid"] for info in client.run(C._host_info).values()}) == 2
            pool = DaskPool(me)
            tallies = pool.map(C.play_tally, [(config, 1, 100 * i, 100) for i in range(6)])
            assert sum(t.games for t in tallies) == 600


# every command that plays, with what it writes (None: nothing)
COMMANDS = {
    "sweep": (["sweep", "--players", "3", "--games", "100"], "--out", "t.parquet"),
    "solve": (["solve", "-s", "kyuzo,heihachi,daisuke", "-n", "2"], "--out", "s.json"),
    "bracket": (["solve", "--cells", "2-easy", "-n", "2", "--budget", "300", "--bracket"], None, "b.parquet"),
    "balance": (["balance", "--players", "3", "--target", "30%", "--lineups", "2", "-n", "40"], "--out", "bal"),
    "tune": (["tune", "reference", "-s", "kyuzo,heihachi,daisuke", "-d", "easy", "-n", "100", "-k", "2"], "--out",
             "t.json"),
    "compare": (["compare", "--strategies", "reference,keeper", "-s", "kyuzo,heihachi,daisuke", "-n", "100"], None,
                None),
}


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("argv, words", [
    (["--scheduler", "tcp://127.0.0.1:1"], ["cannot reach the Dask scheduler", "tcp://127.0.0.1:1"]),
    (["--workers", "0"], ["--workers must be at least 1"]),
    (["--workers", "2", "--scheduler", "tcp://127.0.0.1:1"], ["exclude"]),
    (["--scheduler", " "], ["--scheduler is empty"]),
])
def test_a_cluster_that_cannot_be_had_is_one_line_before_any_game(tmp_path, capsys, monkeypatch, command, argv, words):
    """Every command that plays: bad cluster input, or a scheduler that does not answer, is one line,
    exit 2, before any game or deal, and nothing is written."""
    from kiai.reports.playing import cluster, play
    from kiai.strategies.run import solve

    def refuse(*a, **k):
        raise AssertionError("a game was played")

    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 1.0)
    for module, name in ((play, "play_block"), (play, "play_chunks"), (play, "play_range"), (solve.Solver, "solve")):
        monkeypatch.setattr(module, name, refuse)
    head, option, name = COMMANDS[command]
    out = [option, tmp_path / name] if option else [tmp_path / name] if name else []
    one_line_error(*run(capsys, *head, *out, *argv), *words)
    assert list(tmp_path.iterdir()) == [] or all(p.name.startswith(".") for p in tmp_path.iterdir())
