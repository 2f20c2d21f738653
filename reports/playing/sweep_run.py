"""`kiai sweep` played: a sweep's plan (kiai.inputs.sweep_plan checks the API's arguments and makes
it) on a backend, the engine's threads here or a Dask cluster, compiled before any clock or cluster
starts and told to the caller's progress; the table as a DataFrame, written as configurations finish
where the plan is bound to a file (reports.playing.sweep.Sweep)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kiai.errors import KiaiError
from kiai.reports.playing.grid import expected_games
from kiai.reports.playing.play import BLOCK, LocalBackend
from kiai.reports.playing.sweep import run_plan
from kiai.reports.playing.tables import ClusterFailed, SweepError, to_frame
from kiai.strategies.run.games import threads_for
from kiai.strategies.run.warm import warm_engine
from kiai.words import plural

if TYPE_CHECKING:
    import pandas as pd


def run(plan: list, request, job, groups, seed: int, threads: int | None, workers: int | None,
        scheduler: str | None, block: int | None, p) -> pd.DataFrame:
    """Play the plan (its configurations, or what `job`, the sweep bound to its table file, has left
    to play) on `seed`, with the request's games, the race's `groups`, in blocks of `block` games,
    here on `threads` or on Dask (`workers` started here, or the cluster at `scheduler`), told to `p`
    (a kiai.Progress): the sweep's table, one row per configuration."""
    todo = job.todo if job is not None else list(enumerate(plan))
    local = workers is None and scheduler is None
    backend = None
    try:
        with threads_for(threads if local else None) as used:
            if todo:  # compile (or load) before any clock or cluster starts
                warm_engine(*(config for _, config in todo), note=p.note)
            if local:
                backend = LocalBackend(on_games=p.advance)  # parts of blocks, as they are played
            elif todo:
                from kiai.reports.playing.cluster import Cluster, DaskBackend

                # every worker, and any that joins later, warmed with every strategy the plan plays
                backend = DaskBackend(Cluster.open(workers, scheduler, threads, [c for _, c in todo]))
            else:
                backend = LocalBackend()
            p.start("games", expected_games(len(todo), request), configurations=len(todo),
                    threads=used if local else None,
                    workers=None if local else len(getattr(backend, "threads", {})))  # fmt: skip
            options = dict(block=block or BLOCK, on_finished=p.finished, on_block=None if local else p.advance,
                           on_estimate=p.estimate)
            if job is not None:
                return job.run(backend, **options)
            rows = run_plan(todo, seed, request, backend, groups=groups, **options)
            return to_frame([rows[i] for i in sorted(rows)])
    except KeyboardInterrupt:
        if job is not None:
            saved = len(job.rows)
            p.note(f"interrupted: {saved} of {plural(len(job.plan), 'configuration')} "
                   f"{'is' if saved == 1 else 'are'} saved in {job.out}; "
                   "run the same command with --resume to finish")  # fmt: skip
        raise
    except ClusterFailed as e:  # what was played is written (Sweep.run's last write): --resume goes on from it
        saved = f"; {plural(len(job.rows), 'configuration')} of {len(job.plan):,} saved in {job.out}, " \
                "run the same command with --resume to go on" if job is not None else ""
        raise KiaiError(f"{e}{saved}") from None
    except SweepError as e:
        raise KiaiError(str(e))
    finally:
        if backend is not None:
            backend.close()
