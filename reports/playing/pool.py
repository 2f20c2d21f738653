"""Where a search plays its tasks: here, or on the Dask cluster every command shares
(reports.playing.cluster). solve, balance, tune and compare hand a Pool a list of calls of one
module-level function and get the results back in the order asked, so a table does not depend on
where or in which order they ran.

    with open_pool(workers, scheduler, threads, configs, solver=False) as pool:
        results = pool.map(fn, [(a, b), (c, d)], on_done=lambda i, result: ...)

Here, map calls fn in turn, in this process, on the engine's threads: exactly what the search did
before it had a Pool. On Dask, each call is a task, earlier calls first; on_done(i, result) follows
each as it finishes (in any order); a cluster that fails mid-run raises
reports.playing.cluster.ClusterFailed (one line), a task's own error is raised as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence


class Pool:
    """Calls played here, one after the other."""

    workers = 0  # Dask workers; 0 here

    def map(self, fn, calls: Sequence[tuple], on_done: Callable[[int, object], None] | None = None) -> list:
        out = []
        for i, args in enumerate(calls):
            out.append(fn(*args))
            if on_done is not None:
                on_done(i, out[-1])
        return out

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class DaskPool(Pool):
    """Calls played as tasks on a Cluster."""

    def __init__(self, cluster):
        self.cluster = cluster
        self.workers = cluster.workers()

    def map(self, fn, calls: Sequence[tuple], on_done: Callable[[int, object], None] | None = None) -> list:
        from kiai.reports.playing.cluster import task

        client = self.cluster.client
        done = self.cluster.finished()
        index = {}
        for i, args in enumerate(calls):
            fut = client.submit(task, fn, *args, pure=False, priority=-i)
            index[fut.key] = i
            done.add(fut)
        out: list = [None] * len(calls)
        try:
            for _ in range(len(calls)):
                fut, result = done.next()
                i = index.pop(fut.key)
                out[i] = result
                fut.release()
                if on_done is not None:
                    on_done(i, result)
        finally:
            done.clear()
        return out

    def close(self) -> None:
        self.cluster.close()


def without_resume(e: Exception, command: str) -> str:
    """The one line of a cluster's failure for a command that has no --resume: mid-run
    (ClusterFailed), that the run is lost and must be run again; any other failure as it is."""
    from kiai.reports.playing.tables import ClusterFailed

    if isinstance(e, ClusterFailed):
        return f"{e}; the run is lost: kiai {command} has no --resume, so run it again"
    return str(e)


def open_pool(workers: int | None, scheduler: str | None, threads: int | None, configs, *,
              solver: bool = False) -> Pool:
    """A Pool here (no workers and no scheduler), or on the local cluster of `workers` or the
    running one at `scheduler`, every worker warmed with `configs` (and the solver, with solver)."""
    if workers is None and scheduler is None:
        return Pool()
    from kiai.reports.playing.cluster import Cluster

    return DaskPool(Cluster.open(workers, scheduler, threads, list(configs), solver=solver))
