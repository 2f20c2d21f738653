"""`kiai tune` on a Dask cluster (issue 72): a rung's, a generation's and the re-evaluation's calls go
out together (reports.search.tune's play_many), and --workers and --scheduler give the document of a
local run; a scheduler that cannot be reached is one line before any game; a cluster that fails
mid-run is one line saying the run is lost (tune has no --resume)."""

from __future__ import annotations

import contextlib
import io
import json
import threading

import numpy as np
import pytest

from kiai.reports.playing.cluster import ClusterFailed
from kiai.reports.search import tune as T
from kiai.reports.search import tune_run as R
from kiai.strategies import registry
from conftest import run

TRIO = "kyuzo,heihachi,daisuke"
HALVING = ["tune", "reference", "-s", TRIO, "-d", "easy", "-n", 600, "-k", 4, "--eta", 2, "--seed", 3]
CEM = ["tune", "risk", "--method", "cem", "-k", 4, "--generations", 2, "-s", TRIO, "-d", "easy", "-n", 200]


def _cluster():
    from distributed import LocalCluster

    return LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None)


def _document(path) -> dict:
    """The document without what says when and how it was asked for."""
    return {k: v for k, v in json.loads(path.read_text()).items() if k not in ("date", "command")}


def _text(out: str) -> str:
    """tune's text without its last line (games in seconds, on what)."""
    return "\n".join(line for line in out.splitlines() if " games/s on " not in line and "written to" not in line)


# ------------------------------------------------------------------------- the batched form


def fake_play(c, j, offset, count):
    """Wins that depend on the candidate, the configuration and the game index alone."""
    i = np.arange(offset, offset + count)
    return (i * (c + 2) + 7 * j) % 5 < 1 + c % 3


def test_play_many_takes_a_rung_s_calls_together_to_the_same_figures(monkeypatch):
    batches = []

    def play_many(calls):
        batches.append(list(calls))
        return [fake_play(*call) for call in calls]

    rungs = T.halving_schedule(5, 900, 2)
    one = T.search(5, 2, rungs, fake_play, block=200)
    many = T.search(5, 2, rungs, fake_play, block=200, play_many=play_many)
    assert one.best == many.best and one.rungs == many.rungs and np.array_equal(one.wins, many.wins)
    assert len(batches) == len(rungs) and len(batches[0]) == 5 * 2 * 2  # candidates x configurations x blocks
    batches.clear()
    assert T.evaluate(3, 0, 2, 500, fake_play, block=200) == T.evaluate(3, 0, 2, 500, fake_play, block=200,
                                                                        play_many=play_many)  # fmt: skip
    assert len(batches) == 1 and len(batches[0]) == 2 * 3 * 2  # configurations x blocks x (best, baseline)
    batches.clear()
    monkeypatch.setattr(T, "BATCH_GAMES", 450)  # at most two blocks of 200 a batch
    assert T.evaluate(1, 1, 1, 1000, fake_play, block=200, play_many=play_many) == T.evaluate(
        1, 1, 1, 1000, fake_play, block=200)  # fmt: skip
    assert [len(b) for b in batches] == [2, 2, 1]


def test_play_many_takes_a_generation_s_calls_together_to_the_same_figures():
    info = registry.get("risk")
    batches = []

    def play_many(calls):
        batches.append(list(calls))
        return [fake_play(*call) for call in calls]

    def cem(**kw):
        cands = []

        def add(cand):
            key = T.params_key(cand)
            for i, c in enumerate(cands):
                if T.params_key(c) == key:
                    return i
            cands.append(cand)
            return len(cands) - 1

        return T.cem_search(info, 4, 3, 300, 2, 5, add, fake_play, block=100, **kw), cands

    assert cem() == cem(play_many=play_many)
    assert len(batches) == 3 and len(batches[0]) == 4 * 2 * 3  # a generation's new candidates x configurations x blocks


# ------------------------------------------------------------------------------- on Dask


@pytest.fixture(scope="module")
def local(engine, tmp_path_factory):
    """The tiny searches played here: (folder, halving's text)."""
    from kiai.cli.main import main

    folder = tmp_path_factory.mktemp("tune")
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main([str(a) for a in (*HALVING, "--out", folder / "halving.json")]) == 0
        text = buf.getvalue()
        assert main([str(a) for a in (*CEM, "--out", folder / "cem.json")]) == 0
    return folder, text


def test_workers_and_scheduler_give_the_document_of_a_local_run(local, tmp_path, capsys):
    folder, text = local
    code, out, err = run(capsys, *HALVING, "--workers", 2, "--out", tmp_path / "workers.json")
    assert code == 0, err
    assert _document(tmp_path / "workers.json") == _document(folder / "halving.json")
    assert "games/s on 2 Dask workers" in out and _text(out) == _text(text)
    with _cluster() as cluster:
        code, _, err = run(capsys, *CEM, "--scheduler", cluster.scheduler_address, "--out", tmp_path / "cem.json")
        assert code == 0, err
        from kiai.tune import tune

        result = tune("reference", samurai=TRIO, levels="easy", games=600, candidates=4, eta=2, seed=3,
                      out=tmp_path / "api.json", scheduler=cluster.scheduler_address)  # fmt: skip
    assert _document(tmp_path / "cem.json") == _document(folder / "cem.json")
    assert result.workers == 2 and result.document["params"] == _document(folder / "halving.json")["params"]
    assert {k: v for k, v in result.document.items() if k not in ("date", "command")} == _document(
        folder / "halving.json")  # fmt: skip


_REAL_BLOCK = R.wins_block
_PLAYED = {"tasks": 0}
_LOCK = threading.Lock()


def failing_block(config, seed, offset, count):
    """tune's task; after three, each raises what a lost cluster raises."""
    with _LOCK:
        if _PLAYED["tasks"] >= 3:
            raise ClusterFailed("lost the Dask scheduler at tcp://test mid-run")
        _PLAYED["tasks"] += 1
    return _REAL_BLOCK(config, seed, offset, count)


@pytest.mark.usefixtures("engine")
def test_a_cluster_lost_mid_run_is_one_line_saying_the_run_is_lost(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(R, "wins_block", failing_block)
    monkeypatch.setitem(_PLAYED, "tasks", 0)
    out = tmp_path / "t.json"
    with _cluster() as cluster:
        code, printed, err = run(capsys, *HALVING, "--scheduler", cluster.scheduler_address, "--out", out)
    errors = [line for line in err.splitlines() if line.startswith("kiai: error:")]
    assert code == 2 and printed == "" and len(errors) == 1 and err.strip().endswith(errors[0]), err
    assert "lost the Dask scheduler" in errors[0] and "no --resume" in errors[0] and "run it again" in errors[0]
    assert not out.exists()
    # the claim on --out is let go: the same command runs again
    assert run(capsys, *HALVING, "--out", out)[0] == 0
