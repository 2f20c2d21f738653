"""kiai on Dask distributed: one connection (Cluster) that every command plays through, the
worker plugin that makes each worker ready, and the sweep's backend (DaskBackend, for
reports.playing.racing.Race). reports.playing.pool maps the searches' tasks on the same Cluster.

A Cluster is a local one started here (`--workers N`) or a running scheduler (`--scheduler
tcp://host:8786`). Before any game is played it checks that the workers run this engine, and
registers a worker plugin (Ready) that, on every worker, those there now and any that joins later
(adaptive scaling, a batch system), sets the worker's engine threads (cores // worker processes on
its host, at least 1, so workers sharing a machine do not oversubscribe it), checks its engine
and compiles, or loads from numba's on-disk cache, everything the run plays. A worker runs as many
tasks at once as it has Dask threads, sharing its engine threads among them as the local backend
does (task): one each while several run, all of them for one that runs alone. Blocks come back summarised (a
reports.playing.summary.Tally), added up in whatever order they finish, so a table is identical to
a single-process run of the same seed.

A cluster that fails mid-run (the scheduler gone, or no worker left for PATIENCE seconds) ends
the run with ClusterFailed, one line; what the command wrote before stays, for --resume.
"""

from __future__ import annotations

import contextlib
import os
import socket
import threading
import time

from distributed.diagnostics.plugin import WorkerPlugin

from kiai.reports.playing.play import play_range
from kiai.reports.playing.summary import Tally
from kiai.reports.playing.tables import ClusterFailed, SweepError

_LOCK = threading.Lock()  # a worker is set up once at a time
_THREADS: int | None = None  # engine threads of this process (strategies.run.games.set_threads)
_ACTIVE = [0]  # tasks running in this process
_ACTIVE_LOCK = threading.Lock()
_WRONG_ENGINE: str | None = None  # set on a worker whose engine is not the driver's: its tasks refuse
PATIENCE = float(os.environ.get("KIAI_CLUSTER_PATIENCE", 60))  # seconds a run waits with no worker
CONNECT_TIMEOUT = 10.0  # seconds to reach a scheduler, and for it to have a worker
TASK_GAMES = 1_000  # a sweep's task packs small blocks up to this many games (DaskBackend)
POLL = 2.0  # seconds between two looks at the cluster's health while tasks run


def usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def _host_info() -> dict:
    from kiai.reports.playing.tables import engine_hash

    return {"host": socket.gethostname(), "pid": os.getpid(), "cores": usable_cores(), "engine": engine_hash()}


def _warm_solver(config) -> None:
    """Compile, or load, the solver's search: one deal of a tiny budget."""
    from kiai.strategies.run.solve import Solver

    Solver(config.samurai, config.difficulty, budget=1000).solve(0, 0, 1)


def _configure(procs_by_host: dict[str, int], threads: int | None, configs, engine: str, solver: bool) -> int:
    """On a worker: its numba threads, its engine checked, and what the run plays loaded."""
    global _THREADS, _WRONG_ENGINE
    import numba

    from kiai.reports.playing.tables import engine_hash
    from kiai.strategies.run.games import set_threads

    if engine_hash() != engine:
        _WRONG_ENGINE = f"Dask worker {socket.gethostname()} (pid {os.getpid()}) runs another kiai engine build; " \
                        "install the same kiai there"  # fmt: skip
        return 0
    _WRONG_ENGINE = None
    if threads is None:
        threads = max(1, usable_cores() // max(1, procs_by_host.get(socket.gethostname(), 1)))
    with _LOCK:
        _THREADS = max(1, min(threads, numba.config.NUMBA_NUM_THREADS))
        set_threads(_THREADS)  # the engine's own pool of threads (strategies.run.games.play_batch)
        if configs:
            from kiai.strategies.run.compiling import prepare
            from kiai.strategies.run.games import run_games

            prepare(configs)  # compile or load from numba's cache, once per worker
            for config in configs:
                run_games(config, 1, 0)
            if solver:
                _warm_solver(configs[0])
    return _THREADS


def dask_settings():
    """The scheduler's settings for kiai's tasks, in force while a local cluster is made: every task
    sent to a worker as soon as it is submitted (worker-saturation inf), so that a task that ends
    is followed by the next one without a round trip to the scheduler; a race's tasks are many and
    short. A running scheduler takes them from its own configuration (docs/clusters.md)."""
    import dask

    return dask.config.set({"distributed.scheduler.worker-saturation": float("inf")})


class Ready(WorkerPlugin):
    """The worker plugin: each worker, when registered and
    when it joins later, gets its threads, its engine checked and the run's strategies loaded.
    Registered under one name, so a later stage's replaces an earlier one's on a shared cluster."""

    name = "kiai-ready"

    def __init__(self, procs_by_host: dict[str, int], threads: int | None, configs, engine: str, solver: bool):
        self.args = (procs_by_host, threads, list(configs), engine, solver)

    def setup(self, worker) -> None:
        _configure(*self.args)



def _threads() -> int | None:
    return _THREADS


def _task_threads() -> int:
    """The engine threads of a task's next kernel call: all of the process's while it plays alone,
    one each while several play (as reports.playing.play.LocalBackend shares a machine's cores)."""
    return (_THREADS or 1) if _ACTIVE[0] <= 1 else 1


def task(fn, *args):
    """A Dask task: fn(*args) on this process's share of the cores. A worker runs as many tasks at
    once as it has Dask threads (`--workers N` gives each its engine threads), each on one engine
    thread while others run and on all of them once it runs alone."""
    from kiai.reports.playing.play import sharing_threads
    from kiai.strategies.run.games import threads_for

    if _WRONG_ENGINE is not None:
        raise SweepError(_WRONG_ENGINE)
    with _ACTIVE_LOCK:
        _ACTIVE[0] += 1
    try:
        with sharing_threads(_task_threads), threads_for(_task_threads()):
            return fn(*args)
    finally:
        with _ACTIVE_LOCK:
            _ACTIVE[0] -= 1


def play_tally(config, seed: int, offset: int, count: int) -> Tally:
    """A block of games, summarised as they are played (play_range: its kernel calls sized by the
    measured rate, each asking how many threads it may take)."""
    return play_range(config, seed, offset, count)


def play_tallies(blocks) -> list[Tally]:
    """Several blocks of games, (config, seed, offset, count) each, summarised: a task of the sweep."""
    return [play_tally(*block) for block in blocks]


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    return f"{type(e).__name__}: {text.splitlines()[0]}" if text else type(e).__name__


def failed(e: BaseException) -> bool:
    """Whether an error raised by a task's result is the cluster's (a worker or the scheduler gone),
    not the task's own."""
    import asyncio
    import concurrent.futures

    from distributed import KilledWorker
    from distributed.comm.core import CommClosedError

    if isinstance(e, SweepError):
        return False
    return isinstance(e, (KilledWorker, CommClosedError, asyncio.CancelledError, concurrent.futures.CancelledError,
                          asyncio.TimeoutError, OSError))  # fmt: skip


class Cluster:
    """One Dask client for a run: started here (local) or connected (connect), then prepared."""

    def __init__(self, client, *, owned=(), address: str = "local"):
        import logging

        # a lost scheduler is told in one line (ClusterFailed), not in the client's tracebacks
        for name in ["distributed", *[n for n in logging.root.manager.loggerDict if n.startswith("distributed.")]]:
            logging.getLogger(name).setLevel(logging.CRITICAL)
        self.client = client
        self.address = address
        self._owned = list(owned)  # things to close with it (a LocalCluster)
        self.threads: dict[str, int] = {}
        self._alone_since: float | None = None

    @classmethod
    def local(cls, workers: int, threads: int | None, configs, *, solver: bool = False,
              processes: bool = True) -> Cluster:
        """A LocalCluster of `workers` worker processes on this machine, each with cores // workers
        engine threads (or `threads`) and as many Dask threads."""
        import logging

        from distributed import Client, LocalCluster

        if workers < 1:
            raise SweepError(f"--workers must be at least 1, got {workers}")
        per = threads if threads is not None else max(1, usable_cores() // workers)
        # as many Dask threads as engine threads: the worker plays that many blocks at once (task)
        kwargs = {"n_workers": workers, "threads_per_worker": per if processes else 1, "processes": processes,
                  "dashboard_address": ":0", "silence_logs": logging.ERROR}  # fmt: skip
        if processes:  # the pool size of each worker's numba, fixed before numba starts
            kwargs["env"] = {"NUMBA_NUM_THREADS": str(per), "OMP_NUM_THREADS": str(per)}
        with dask_settings():
            cluster = LocalCluster(**kwargs)
        client = Client(cluster)
        me = cls(client, owned=[client, cluster])
        try:
            me.prepare(threads if threads is not None else per, configs, solver=solver)
        except BaseException:
            me.close()
            raise
        return me

    @classmethod
    def connect(cls, address: str, threads: int | None, configs, *, solver: bool = False,
                timeout: float | None = None) -> Cluster:
        """A client of a running scheduler (`tcp://host:8786`)."""
        from distributed import Client

        timeout = CONNECT_TIMEOUT if timeout is None else timeout
        try:
            client = Client(address, timeout=timeout)
        # broad on purpose, and around this one call: no answer is an OSError, a bad address a
        # ValueError, and a server of another kind whatever distributed's reading of its bytes
        # meets (an HTTP server: a MemoryError for a message of exabytes)
        except Exception as e:  # noqa: BLE001
            raise SweepError(f"cannot reach the Dask scheduler at {address}: {str(e).splitlines()[0] if str(e) else type(e).__name__}") from None
        me = cls(client, owned=[client], address=address)
        try:
            try:
                client.wait_for_workers(1, timeout=timeout)
            except OSError:  # distributed's WorkerStartTimeoutError (a TimeoutError), or the scheduler gone
                raise SweepError(f"the Dask scheduler at {address} has no workers") from None
            me.prepare(threads, configs, solver=solver)
        except BaseException:
            me.close()
            raise
        return me

    @classmethod
    def open(cls, workers: int | None, scheduler: str | None, threads: int | None, configs, *,
             solver: bool = False) -> Cluster:
        """--workers N (a local cluster) or --scheduler ADDRESS (a running one)."""
        if workers is not None and scheduler is not None:
            raise SweepError("give --workers or --scheduler, not both")
        if workers is not None:
            return cls.local(workers, threads, configs, solver=solver)
        return cls.connect(scheduler, threads, configs, solver=solver)

    def prepare(self, threads: int | None, configs, *, solver: bool = False) -> None:
        """Check the workers run this engine, then register the plugin that shares out the cores
        and loads what the run plays, on every worker now and any that joins later."""
        try:
            self._prepare(threads, configs, solver)
        except Exception as e:
            if failed(e):  # a worker lost while it was set up
                raise ClusterFailed(f"the Dask cluster at {self.address} failed while its workers were set up "
                                    f"({_first_line(e)})") from None
            raise

    def _prepare(self, threads: int | None, configs, solver: bool) -> None:
        from kiai.reports.playing.tables import engine_hash

        info = self.client.run(_host_info)
        wrong = [w for w, i in info.items() if i["engine"] != engine_hash()]
        if wrong:
            raise SweepError(f"Dask worker {wrong[0]} runs another kiai engine build; install the same kiai there")
        procs: dict[str, int] = {}
        for host, _pid in {(i["host"], i["pid"]) for i in info.values()}:
            procs[host] = procs.get(host, 0) + 1
        self.client.register_plugin(Ready(procs, threads, _distinct(configs), engine_hash(), solver))
        self.threads = self.client.run(_threads)

    def workers(self) -> int:
        return len(self.threads)

    def check(self) -> None:
        """Raise ClusterFailed when the scheduler is gone, or no worker was left for PATIENCE seconds."""
        if self.client.status not in ("running", "newly-created"):
            raise ClusterFailed(f"lost the Dask scheduler at {self.address} mid-run")
        try:
            n = len(self.client.scheduler_info(n_workers=-1).get("workers", {}))
        except Exception as e:  # noqa: BLE001 - whatever the lost connection raises
            raise ClusterFailed(f"lost the Dask scheduler at {self.address} mid-run ({_first_line(e)})") from None
        if n:
            self._alone_since = None
        elif self._alone_since is None:
            self._alone_since = time.monotonic()
        elif time.monotonic() - self._alone_since > PATIENCE:
            raise ClusterFailed(f"the Dask cluster at {self.address} has had no worker for {PATIENCE:.0f} s")

    def finished(self) -> Finished:
        """An empty Finished: futures added to it come back as they finish."""
        return Finished(self)

    def _lost(self, e: BaseException) -> ClusterFailed:
        """The one line for a cluster's failure: the scheduler lost, or what failed."""
        if self.client.status not in ("running", "newly-created"):
            return ClusterFailed(f"lost the Dask scheduler at {self.address} mid-run")
        return ClusterFailed(f"the Dask cluster at {self.address} failed mid-run ({_first_line(e)})")

    def close(self) -> None:
        for thing in self._owned:
            with contextlib.suppress(Exception):  # closing is best effort
                thing.close()
        self._owned.clear()


class Finished:
    """Futures' results as they finish: distributed.as_completed gathers them in the background
    (no round trip a result), and while none is ready the cluster's health is checked every POLL
    seconds (Cluster.check). A result lost with its worker is computed again by Dask meanwhile."""

    def __init__(self, cluster: Cluster):
        from distributed import as_completed

        self.cluster = cluster
        self._ac = as_completed([], with_results=True)

    def add(self, future) -> None:
        self._ac.add(future)

    def next(self):
        """(future, result) of the next to finish; ClusterFailed where the cluster failed, a task's
        own error as it is."""
        looked = time.monotonic()
        while not self._ac.has_ready():
            with self._ac.thread_condition:
                self._ac.thread_condition.wait(timeout=0.1)
            if time.monotonic() - looked > POLL:
                self.cluster.check()
                looked = time.monotonic()
        try:
            return next(self._ac)
        except Exception as e:
            if failed(e):
                raise self.cluster._lost(e) from None
            raise

    def clear(self) -> None:
        self._ac.clear()


def _distinct(configs) -> list:
    """One configuration per distinct set of compiled pieces: what warming each worker needs."""
    seen, out = set(), []
    for config in configs:
        key = (config.base_name, config.strategy_info.name)
        if key not in seen:
            seen.add(key)
            out.append(config)
    return out


class DaskBackend:
    """The race's backend on a Cluster. The blocks a race hands out between two looks at what
    finished go out together, packed into tasks of several blocks (earlier configurations first)
    where they are small: a race's rounds are often a few games a configuration, and a task costs
    the scheduler and this process a few milliseconds whatever it plays. A task holds blocks up to
    TASK_GAMES games, fewer where that would leave the cluster's task slots without two each."""

    def __init__(self, cluster: Cluster):
        self.cluster = cluster
        self._queue: list[tuple] = []  # (run, seed, offset, count) handed out, not yet sent
        self._runs: dict[str, list] = {}  # task key -> its blocks, [(racing.Member, offset)]
        self._ready: list = []  # ((run, offset), tally) of a finished task, not yet returned
        self._done = cluster.finished()
        self._sent = 0

    @property
    def threads(self) -> dict[str, int]:
        return self.cluster.threads

    @classmethod
    def local(cls, workers: int, threads: int | None, configs, *, processes: bool = True) -> DaskBackend:
        return cls(Cluster.local(workers, threads, _as_list(configs), processes=processes))

    @classmethod
    def connect(cls, address: str, threads: int | None, configs, timeout: float | None = None) -> DaskBackend:
        return cls(Cluster.connect(address, threads, _as_list(configs), timeout=timeout))

    def submit(self, run, seed: int, offset: int, count: int) -> None:
        self._queue.append((run, seed, offset, count))

    def _send(self) -> None:
        """The blocks handed out since the last look, packed into tasks and submitted."""
        queue = sorted(self._queue, key=lambda b: (b[0].index, b[2]))
        self._queue = []
        slots = max(1, sum(self.cluster.threads.values()))
        size = max(1, min(TASK_GAMES, sum(b[3] for b in queue) // (2 * slots)))
        packs, games = [], size
        for block in queue:
            if games >= size:
                packs.append([])
                games = 0
            packs[-1].append(block)
            games += block[3]
        for pack in packs:
            self._sent += 1
            fut = self.cluster.client.submit(task, play_tallies, [(r.config, s, o, c) for r, s, o, c in pack],
                                             pure=False, priority=-pack[0][0].index, key=f"kiai-{self._sent}-{pack[0][1]}")  # fmt: skip
            self._runs[fut.key] = [(r, o) for r, _s, o, _c in pack]
            self._done.add(fut)

    def pending(self) -> int:
        return len(self._queue) + sum(len(v) for v in self._runs.values()) + len(self._ready)

    def next_done(self):
        if self._queue:
            self._send()
        if not self._ready:
            fut, tallies = self._done.next()
            self._ready = list(zip(self._runs.pop(fut.key), tallies))
            fut.release()
        (run, offset), tally = self._ready.pop(0)
        return run, offset, tally

    def close(self) -> None:
        self._done.clear()
        self._queue.clear()
        self._runs.clear()
        self._ready.clear()
        self.cluster.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _as_list(configs) -> list:
    if configs is None:
        return []
    return list(configs) if isinstance(configs, (list, tuple)) else [configs]
