"""One local Dask cluster for a whole `make report WORKERS=N` run: every stage connects to it with
--scheduler, so the workers start (and load the compiled engine) once, not once a stage.

    python -m kiai.reports.playing.local_cluster --workers N --address-file FILE

starts N worker processes, each with cores // N engine threads (at least 1) and as many Dask
threads (reports.playing.cluster.task shares them out), writes
the scheduler's address to FILE once the workers are up, and runs until it is stopped (SIGTERM or
Ctrl-C), when it closes the cluster and removes FILE.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
from pathlib import Path


def start(workers: int):
    """A LocalCluster of `workers` processes, each with cores // workers engine and Dask threads."""
    from distributed import LocalCluster

    from kiai.reports.playing.cluster import dask_settings, usable_cores

    per = max(1, usable_cores() // workers)
    env = {"NUMBA_NUM_THREADS": str(per), "OMP_NUM_THREADS": str(per)}
    with dask_settings():
        return LocalCluster(n_workers=workers, threads_per_worker=per, processes=True, dashboard_address=":0",
                            silence_logs=logging.ERROR, env=env)  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m kiai.reports.playing.local_cluster", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    parser.add_argument("--workers", type=int, required=True, help="worker processes (at least 1)")
    parser.add_argument("--address-file", type=Path, required=True, help="where the scheduler's address is written")
    args = parser.parse_args(argv)
    if args.workers < 1:
        print(f"local_cluster: --workers must be at least 1, got {args.workers}", file=sys.stderr)
        return 2
    if not args.address_file.parent.is_dir():
        print(f"local_cluster: --address-file: no folder {args.address_file.parent}", file=sys.stderr)
        return 2
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    cluster = start(args.workers)
    try:
        cluster.wait_for_workers(args.workers)
        tmp = args.address_file.with_name(args.address_file.name + f".{os.getpid()}.tmp")
        tmp.write_text(cluster.scheduler_address + "\n", encoding="utf-8")
        tmp.replace(args.address_file)  # whole or not at all: the Makefile waits for the file
        print(f"local Dask cluster of {args.workers} workers at {cluster.scheduler_address}", file=sys.stderr)
        stop.wait()
    finally:
        args.address_file.unlink(missing_ok=True)
        cluster.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
