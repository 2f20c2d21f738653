"""`kiai simulate` played: one configuration's games 0..games-1 of a seed, on the engine's threads,
compiled before the clock starts and told to the caller's progress, and summarised: a Simulation
(kiai.inputs.play_plan checks the API's arguments first)."""

from __future__ import annotations

import copy
import time
from pathlib import Path
from typing import TYPE_CHECKING

from kiai.outputs import hold, write_held
from kiai.reports.playing import play  # play.play_range looked up at each call (tests replace it)
from kiai.reports.playing.summary import format_summary, summarize
from kiai.strategies.run.games import threads_for
from kiai.strategies.run.warm import warm_engine

if TYPE_CHECKING:
    import pandas as pd


def simulate(config, seed: int, games: int, threads: int | None, p, out=None, force: bool = False) -> Simulation:
    """Play games 0..games-1 of `seed` with `config` on the call's own engine threads (None: the
    caller's), told to `p` (a kiai.Progress), and summarise them. `out`: the table file the result's
    write_table() writes, claimed (replaced with `force`) before the first game and held until then."""
    held = hold(out, replace=force) if out is not None else None
    try:
        with threads_for(threads) as used:
            warm_engine(config, note=p.note)  # compile (or load) before the clock starts
            start = time.perf_counter()
            p.start("games", games)
            tally = play.play_range(config, seed, 0, games, p.advance)
            seconds = time.perf_counter() - start
    except BaseException:
        if held is not None:
            held.close()
        raise
    return Simulation(summarize(tally, config, seed, seconds, used), config, out, held)


class Simulation:
    """The summary of a batch of games of one configuration (kiai.simulate).

    Its fields are those of `kiai simulate --json` (games, wins, win_rate, ci95, outcomes,
    lost_in_round, grades, mean_barricades_left, seed, samurai, strategy, params, seconds,
    threads...), read as attributes; ci_low and ci_high are the ends of ci95. to_dict() gives
    them all, to_frame() the one-row table of `kiai simulate --out` (the schema of a sweep's
    table), and str() the text `kiai simulate` prints. `config` is the configuration played; `out`
    the table file kiai.simulate claimed for write_table(), or None."""

    def __init__(self, summary: dict, config, out=None, held=None):
        self._summary = summary
        self.config = config
        self.out = out
        self._held = held  # the claim on `out` (kiai.outputs.hold), let go once the table is written

    def __getattr__(self, name: str):
        summary = self.__dict__.get("_summary", {})
        if name in summary:
            return summary[name]
        raise AttributeError(f"{type(self).__name__!r} has no field {name!r} (fields: {', '.join(summary)})")

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self._summary))

    @property
    def ci_low(self) -> float:
        return self._summary["ci95"][0]

    @property
    def ci_high(self) -> float:
        return self._summary["ci95"][1]

    def to_dict(self) -> dict:
        """Every field, as `kiai simulate --json` prints them."""
        return copy.deepcopy(self._summary)

    def to_frame(self) -> pd.DataFrame:
        """The result as a one-row table with the columns and types of a sweep's table."""
        from kiai.reports.playing.tables import row_from_summary, to_frame  # on use: `kiai simulate` writes no table

        return to_frame([row_from_summary(self._summary, self.config)])

    def write_table(self, path=None) -> None:
        """Write to_frame() to `path` (default: `out`; .parquet, else CSV), as `kiai simulate
        --out` does: whole or not at all (kiai.outputs.write_held), under the file's claim."""
        if path is None and self.out is None:
            raise TypeError("write_table() needs a path: kiai.simulate was given no out")
        path, df = Path(path if path is not None else self.out), self.to_frame()
        parquet = path.suffix.lower() == ".parquet"
        if write_held(path, lambda tmp: df.to_parquet(tmp, index=False) if parquet else df.to_csv(tmp, index=False),
                      self._held):
            self._held = None

    def __str__(self) -> str:
        return format_summary(self._summary)

    def __repr__(self) -> str:
        s = self._summary
        return (f"<Simulation {','.join(s['samurai'])} at {s['difficulty']}, strategy {s['strategy']}: "
                f"win rate {100 * s['win_rate']:.3f}% [{100 * s['ci95'][0]:.3f}%, {100 * s['ci95'][1]:.3f}%] "
                f"over {s['games']:,} games>")  # fmt: skip
