"""Running a sweep on Dask distributed: a backend for reports.playing.racing.Race.

One task per (configuration, block of game indices). The driver compiles the engine (or loads
it from numba's on-disk cache) before fanning out, then every worker plays one tiny game so it
loads the cached code once, up front. Each worker process gets cores // (worker processes on its
host) numba threads, at least 1, so workers sharing a machine do not oversubscribe it, and a
process plays one block at a time (a lock), whatever its Dask thread count. Blocks come back
summarised (a reports.playing.summary.Tally: counts and integer sums, a few hundred bytes) rather than
as per-game rows, and are added up in whatever order they finish, so the table is identical to
a single-process run of the same seed.

Workers must run the same kiai (same engine source); this is checked when connecting.
"""

from __future__ import annotations

import contextlib
import os
import socket
import threading

from kiai.reports.playing.summary import Tally
from kiai.reports.playing.play import play_block, warm
from kiai.reports.playing.tables import SweepError

_LOCK = threading.Lock()  # one engine call at a time per process
_THREADS: int | None = None  # numba threads per engine call in this process


def usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def _host_info() -> dict:
    from kiai.reports.playing.tables import engine_hash

    return {"host": socket.gethostname(), "pid": os.getpid(), "cores": usable_cores(), "engine": engine_hash()}


def _configure(procs_by_host: dict[str, int], threads: int | None, warm_config) -> int:
    """Run on each worker: choose its numba threads and load the compiled engine."""
    global _THREADS
    import numba

    if threads is None:
        threads = max(1, usable_cores() // max(1, procs_by_host.get(socket.gethostname(), 1)))
    with _LOCK:
        _THREADS = max(1, min(threads, numba.config.NUMBA_NUM_THREADS))
        numba.set_num_threads(_THREADS)
        warm(warm_config)  # compile or load from cache, once
    return _THREADS


def play_task(config, seed: int, offset: int, count: int) -> Tally:
    """The Dask task: one block of games, on this process's share of the cores, summarised."""
    import numba

    with _LOCK:
        if _THREADS is not None:
            numba.set_num_threads(_THREADS)  # thread-local in numba: set in the task's thread
        rows = play_block(config, seed, offset, count)
    return Tally.of(rows)


class DaskBackend:
    """Submits blocks as Dask tasks (earlier configurations first) and yields finished ones."""

    def __init__(self, client, *, owned=()):
        from distributed import as_completed

        self.client = client
        self._owned = list(owned)  # things to close with the backend (a LocalCluster)
        self._done = as_completed([], with_results=True)
        self._runs: dict[str, tuple[object, int]] = {}  # task key -> (racing.Member, offset)
        self.threads: dict[str, int] = {}

    # -- setting up
    @classmethod
    def local(cls, workers: int, threads: int | None, warm_config, *, processes: bool = True) -> DaskBackend:
        """A LocalCluster of `workers` single-threaded workers on this machine."""
        import logging

        from distributed import Client, LocalCluster

        if workers < 1:
            raise SweepError(f"--workers must be at least 1, got {workers}")
        per = threads if threads is not None else max(1, usable_cores() // workers)
        kwargs = {"n_workers": workers, "threads_per_worker": 1, "processes": processes,
                  "dashboard_address": None, "silence_logs": logging.ERROR}  # fmt: skip
        if processes:  # the pool size of each worker's numba, fixed before numba starts
            kwargs["env"] = {"NUMBA_NUM_THREADS": str(per), "OMP_NUM_THREADS": str(per)}
        cluster = LocalCluster(**kwargs)
        client = Client(cluster)
        backend = cls(client, owned=[client, cluster])
        try:
            backend.prepare(threads if threads is not None else per, warm_config)
        except BaseException:
            backend.close()
            raise
        return backend

    @classmethod
    def connect(cls, address: str, threads: int | None, warm_config, timeout: float = 10) -> DaskBackend:
        """A client of a running scheduler (`tcp://host:8786`)."""
        from distributed import Client

        try:
            client = Client(address, timeout=timeout)
        # broad on purpose, and around this one call: no answer is an OSError, a bad address a
        # ValueError, and a server of another kind whatever distributed's reading of its bytes
        # meets (an HTTP server: a MemoryError for a message of exabytes)
        except Exception as e:  # noqa: BLE001
            raise SweepError(f"cannot reach the Dask scheduler at {address}: {str(e).splitlines()[0] if str(e) else type(e).__name__}") from None
        backend = cls(client, owned=[client])
        try:
            try:
                client.wait_for_workers(1, timeout=timeout)
            except OSError:  # distributed's WorkerStartTimeoutError (a TimeoutError), or the scheduler gone
                raise SweepError(f"the Dask scheduler at {address} has no workers") from None
            backend.prepare(threads, warm_config)
        except BaseException:
            backend.close()
            raise
        return backend

    def prepare(self, threads: int | None, warm_config) -> None:
        """Check the workers run this engine, share out the cores, load the compiled engine."""
        from kiai.reports.playing.tables import engine_hash

        info = self.client.run(_host_info)
        wrong = [w for w, i in info.items() if i["engine"] != engine_hash()]
        if wrong:
            raise SweepError(f"Dask worker {wrong[0]} runs another kiai engine build; install the same kiai there")
        procs: dict[str, int] = {}
        for host, _pid in {(i["host"], i["pid"]) for i in info.values()}:
            procs[host] = procs.get(host, 0) + 1
        self.threads = self.client.run(_configure, procs, threads, warm_config)

    # -- the backend interface of reports.playing.racing.Race
    def submit(self, run, seed: int, offset: int, count: int) -> None:
        fut = self.client.submit(play_task, run.config, seed, offset, count, pure=False,
                                 priority=-run.index, key=f"kiai-{run.index}-{offset}-{count}-{seed}")  # fmt: skip
        self._runs[fut.key] = (run, offset)
        self._done.add(fut)

    def pending(self) -> int:
        return len(self._runs)

    def next_done(self):
        fut, tally = next(self._done)
        run, offset = self._runs.pop(fut.key)
        fut.release()
        return run, offset, tally

    def close(self) -> None:
        for fut in list(self._done.futures):
            fut.cancel()
        self._runs.clear()
        for thing in self._owned:
            with contextlib.suppress(Exception):  # closing is best effort
                thing.close()
        self._owned.clear()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
