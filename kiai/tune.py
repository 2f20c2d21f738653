"""Tuning a strategy's parameters (`kiai tune`): a search over their declared ranges on common
random numbers, then the winner and the start point played again on fresh games.

    from kiai.tune import tune
    result = tune("reference", samurai=["kyuzo,heihachi,daisuke"], levels=["easy"], games=2_000, candidates=4)
    result.best, result.document["win_rate"]
    print(result)                   # what `kiai tune` prints
    result.write("tuned.json")      # the file --params-file loads

The checks are kiai.inputs.tune_plan's; the search, played, is reports.search.tune_run's (a Tuning).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kiai.inputs.tune_plan import tune_plan
from kiai.progress import reporter
from kiai.reports.search.tune_run import Search, Tuning, run

if TYPE_CHECKING:
    from kiai.progress import Progress

__all__ = ["tune", "Tuning", "Search"]


def tune(strategy: str | None = None, *, samurai=None, levels=None, games: int = 20_000, candidates: int = 16,
         method: str = "halving", generations: int = 8, eta: int = 3, seed: int = 0, params=None,
         params_file=None, out=None, force: bool = False, absent_tokens: str = "auto", rules=None,
         components=None, model: str | None = None, strict: bool = False, threads: int | None = None,
         workers: int | None = None, scheduler: str | None = None, command: str = "kiai.tune.tune (Python)",
         progress: bool | Progress = False) -> Tuning:
    """Search `strategy`'s parameters for the best win rate, as `kiai tune`.

    Every candidate plays the same games (common random numbers) on every configuration: each
    seating of `samurai` (a list of 'a,b,c' texts; default kiai's four) at each of `levels` (texts
    as --difficulty takes them, 'easy,normal' or 'all'; default normal). method: 'halving'
    (successive halving: all candidates on few games, the best 1/eta go on to eta times as many),
    'random' (every candidate plays `games`) or 'cem' (the cross-entropy method, `generations`
    generations of `candidates` each). The start point, candidate 0, is params_file's parameters
    (else the defaults); params ({'T': 3} or ['T=3']) are fixed, not searched. Then the best and
    the start point play `games` fresh games per configuration and are tested against each other.

    out: where the result is to be written (default tuned-STRATEGY.json), checked (and refused if
    it exists, unless force) and claimed before the search starts, and held until Tuning.write()
    writes it there. command: the provenance the file keeps. workers or scheduler: play on Dask, a
    local cluster of that many workers or the running one at that address (the same result;
    docs/clusters.md); threads is then each worker's.
    The other arguments are kiai.simulate's. Bad input raises KiaiError before any game."""
    p = reporter(progress)
    search = tune_plan(strategy, samurai, levels, games, candidates, method, eta, seed, params, params_file, out,
                       force, absent_tokens, rules, components, model, threads, generations, strict,
                       p.note, workers, scheduler)  # fmt: skip
    return run(search, p, command, force)
