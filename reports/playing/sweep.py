"""Sweeps: many configurations played on one seed, one row per configuration.

A sweep is a plan (a list of GameConfig) and a request (reports.playing.grid makes both): a fixed
number of games, a target precision reached by doubling batches, or a race (reports.playing.racing),
whose groups a preset gives (reports.playing.presets.preset_groups). Every seating plays game indices
0..N-1 of a seed of its own, drawn from the sweep's seed and the seating (racing.seating_key): rates
pooled over line-ups average independent games, so their intervals hold, and the strategies,
parameters, rule readings and levels of one seating meet the same deals (common random numbers):
their differences are paired, game by game, as far as both played.

The table (reports.playing.tables) is written after every finished configuration, so that a killed sweep
can resume (Sweep: --resume) without replaying or losing finished configurations. The same
driver (reports.playing.racing.Race) runs locally (reports.playing.play.LocalBackend) or on a Dask cluster
(reports.playing.cluster).
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from kiai.outputs import clean_stale
from kiai.reports.playing.grid import Request
from kiai.reports.playing.play import BLOCK
from kiai.reports.playing.racing import Group, Race, check_groups, deal_seeds, signatures, with_deals
from kiai.reports.playing.tables import (
    COLUMNS,
    DEFINING,
    PROVENANCE,
    UNKNOWN_MODELS,
    SweepError,
    config_columns,
    engine_hash,
    outcome_bits,
    read_table,
    stale_reasons,
    to_frame,
    write_table,
)
from kiai.reports.playing.summary import Tally

if TYPE_CHECKING:
    import pandas as pd

# a sweep writes its table when a configuration finishes, at most this often (Sweep.finished), and
# once more at the end or when it is interrupted
CHECKPOINT_SECONDS = 10.0


def config_key(config, seed: int, request: Request, race: str | None = None) -> str:
    """What identifies a finished configuration for --resume: the SHA-256 of its defining
    columns, the seed, how many games were asked for, the engine's source hash and, in a race, the
    signature of its groups (racing.signatures)."""
    text = json.dumps({**config_columns(config), "seed": int(seed), "request": request.describe(),
                       "engine": engine_hash(), **({"race": race} if race else {})}, sort_keys=True)  # fmt: skip
    return hashlib.sha256(text.encode()).hexdigest()


def run_plan(plan: Sequence, seed: int, request: Request, backend, *, block: int = BLOCK,
             on_finished: Callable[[int, dict, int], None] | None = None,
             on_block: Callable[[int], None] | None = None, groups: Sequence[Group] | None = None,
             on_estimate: Callable[[int], None] | None = None) -> dict[int, dict]:
    """Play every configuration of plan (a list of (plan index, GameConfig)) on `seed` (or deals of
    its own: racing.Group.deals), each alone as `request` says, or raced in `groups` (of plan indices).

    on_finished(index, row, games) is called as each configuration finishes; on_block(games)
    after each block; on_estimate(games) with the games the whole is now expected to take.
    Returns {index: row}."""
    plan = list(plan)
    if groups is None:
        groups = [Group(request.rule(), (i,)) for i, _ in plan]
    groups = with_deals(dict(plan), groups)
    results: dict[int, dict] = {}

    def finished(index, row, games, _history):
        results[index] = row
        if on_finished is not None:
            on_finished(index, row, games)

    Race(plan, groups, seed, backend, block=block).run(finished, on_block, on_estimate)
    return results


# ------------------------------------------------------------------------------ sweep


class Sweep:
    """A plan bound to its output file: what is finished, what is left, and atomic writes."""

    def __init__(self, plan: Sequence, seed: int, request: Request, out, *, csv: bool = False,
                 resume: bool = False, force: bool = False, info: dict | None = None,
                 groups: Sequence[Group] | None = None):
        self.plan = list(plan)
        self.seed = seed
        self.request = request
        self.out = Path(out)
        self.csv = csv
        self.info = dict(info or {})
        if groups is None:
            groups = [Group(request.rule(), (i,)) for i in range(len(self.plan))]
        check_groups(len(self.plan), groups)
        groups = with_deals(dict(enumerate(self.plan)), groups)
        self.groups = list(groups)
        self.seeds = deal_seeds(self.groups, seed)  # plan index -> the seed of its deals, where not `seed`
        race = signatures(self.plan, self.groups) if request.race is not None else {}
        self.keys = [config_key(c, self.seed_of(i), request, race.get(i)) for i, c in enumerate(self.plan)]
        if len(set(self.keys)) != len(self.keys):  # pragma: no cover - build_plan dedupes
            raise SweepError("the plan lists a configuration twice")
        self.rows: dict[int, dict] = {}
        self.rounds: dict[int, list[int]] = {}  # plan index -> its wins at the end of every round played
        self.partial: dict[int, tuple] = {}  # plan index -> (wins per round, Tally) where a run left it unfinished
        self.outcomes: dict[int, np.ndarray] = {}  # plan index -> its games' wins, where its race kept them
        self._race: Race | None = None
        self._written = -float("inf")  # when finished() last wrote the table (time.monotonic)
        self.reused: int | None = None  # with --resume and a table at --out: the rows kept (_load)
        self.stale: dict[int, list[str]] = {}  # plan index -> why its stored row is played again
        if resume and force:
            raise SweepError("--resume and --force exclude each other")
        if self.out.exists() and not (resume or force):
            raise SweepError(f"{self.out} exists; use --resume to continue that sweep or --force to replace it")
        if resume and self.out.exists():
            self._load()
        if force:  # replace: a table or CSV of the old sweep must not outlive a killed new one
            self.out.unlink(missing_ok=True)
            self.out.with_suffix(".csv").unlink(missing_ok=True)
        for path in (self.out, self.out.with_suffix(".csv")):  # temporaries of killed runs; never a live run's
            clean_stale(path)

    def _load(self) -> None:
        """Keep the rows of the table at --out that this run would play the same way: same key
        (the configuration, the SHA-256 of the component file and of every model it reads, the
        kiai version, the seed, the games or precision asked for, the engine's source hash) and the
        engine that played them recorded as this one. A row of a configuration of this plan whose
        provenance differs (another engine, model, component file or kiai version; or a table
        older than the `engine` or `models` column) is dropped, to be played again; a row of any
        other configuration, seed or request is refused (another sweep's results, not to be mixed
        in or lost)."""
        df, keys, info = read_table(self.out)
        rounds = info.get("rounds", {})
        where = {k: i for i, k in enumerate(self.keys)}
        for key, state in info.get("partial", {}).items():
            if key in where:
                tally = Tally()
                tally.__setstate__({k: np.asarray(v, dtype=np.int64) if isinstance(v, list) else v
                                    for k, v in state["tally"].items()})
                self.partial[where[key]] = (list(state["rounds"]), tally)
                if (won := outcome_bits(state.get("outcomes", ""))) is not None:
                    self.outcomes[where[key]] = won
        same = {self._identity(config_columns(c), self.seed_of(i), self.request.describe()): i
                for i, c in enumerate(self.plan)}  # fmt: skip
        engine = engine_hash()
        foreign = 0
        stale: dict[int, list[str]] = {}  # plan index -> why its stored row is played again
        for key, row in zip(keys, df.to_dict("records")):
            i = where.get(key)
            known = row["engine"] == engine and row["models"] != UNKNOWN_MODELS  # a row older than either: stale
            if i is not None and known and (key in rounds or self.request.race is None):
                self.rows[i] = row
                self.rounds[i] = list(rounds.get(key, [row["wins"]]))
                if (won := outcome_bits(row["outcomes"])) is not None:
                    self.outcomes[i] = won
                continue
            j = same.get(self._identity(row, row["seed"], info.get("request")))
            if j is None:
                foreign += 1
            else:
                stale[j] = self._why_stale(row, self.plan[j])
        if foreign:
            raise SweepError(f"{self.out} holds {foreign} result(s) that are not part of this sweep "
                             "(other configurations, seed or games); use --force to start over or choose "
                             "another --out")  # fmt: skip
        stale = {j: why for j, why in stale.items() if j not in self.rows}
        self._spread_stale(stale)
        self.reused, self.stale = len(self.rows), stale

    def _spread_stale(self, stale: dict[int, list[str]]) -> None:
        """A row played again makes its group's finished rows stale too: the race that ended them
        read the old row (racing.Race replays a group's decisions from every member's wins)."""
        if self.request.race is None:
            return
        changed = True
        while changed:
            changed = False
            for g in self.groups:
                if any(i in stale for i in g.members):
                    for i in g.members:
                        self.partial.pop(i, None)
                        self.outcomes.pop(i, None)
                        if i in self.rows:
                            del self.rows[i], self.rounds[i]
                            stale[i] = ["raced beside a configuration played again"]
                            changed = True

    def seed_of(self, i: int) -> int:
        return self.seeds.get(i, self.seed)

    @staticmethod
    def _identity(columns: dict, seed, request) -> str:
        """Which configuration a row is, with the seed and request, its provenance left out."""
        cast = {"int64": int, "bool": bool, "str": str}
        ident = {c: cast[COLUMNS[c]](columns[c]) for c in DEFINING if c not in PROVENANCE}
        return json.dumps({**ident, "seed": int(seed), "request": request}, sort_keys=True)

    def _why_stale(self, row: dict, config) -> list[str]:
        """Why a stored row of `config` (same configuration, seed and request) is played again."""
        return stale_reasons(row, config_columns(config), engine_hash(), self.request.race is not None)

    def resume_note(self) -> str | None:
        """One line for stderr after loading a table to resume: how many configurations are
        reused, how many are played again and why, how many were never played."""
        if self.reused is None:
            return None
        total = len(self.plan)
        counts: dict[str, int] = {}
        for why in self.stale.values():
            for reason in why:
                counts[reason] = counts.get(reason, 0) + 1
        note = f"resume: {self.reused:,} of {total:,} configuration{'s' if total != 1 else ''} reused"
        if self.stale:
            reasons = (next(iter(counts)) if len(counts) == 1 else
                       ", ".join(f"{reason}: {n:,}" for reason, n in counts.items()))  # fmt: skip
            note += f"; {len(self.stale):,} played again ({reasons})"
        new = total - self.reused - len(self.stale)
        if new:
            note += f"; {new:,} not played yet"
        if self.partial:
            note += f" ({len(self.partial):,} go on from where they stopped)"
        return note

    @property
    def todo(self) -> list[tuple[int, object]]:
        return [(i, c) for i, c in enumerate(self.plan) if i not in self.rows]

    def _open_groups(self) -> list[Group]:
        return [g for g in self.groups if any(i not in self.rows for i in g.members)]

    def frame(self) -> pd.DataFrame:
        order = sorted(self.rows)
        return to_frame([self.rows[i] for i in order])

    def write(self, csv: bool = False) -> None:
        order = sorted(self.rows)
        partial = self._race.partials() if self._race is not None else {}
        info = {"seed": self.seed, "request": self.request.describe(), "engine": engine_hash(),
                "configurations": len(self.plan), **self.info,
                "rounds": {self.keys[i]: self.rounds[i] for i in order},
                "partial": {self.keys[i]: p for i, p in partial.items()}}  # fmt: skip
        write_table(self.frame(), self.out, [self.keys[i] for i in order], info, csv=csv)

    def finished(self, index: int, row: dict, rounds: list[int]) -> None:
        """Keep a finished configuration; write the table at most every CHECKPOINT_SECONDS. A
        write stops the games (the engine waits while it runs) and grows with the table, so one per
        configuration cost a sweep of 900 configurations about 25 s; run() writes again at the end,
        and when it is interrupted, so only a killed run replays the last seconds' configurations."""
        self.rows[index], self.rounds[index] = row, rounds
        now = time.monotonic()
        if now - self._written >= CHECKPOINT_SECONDS:
            self.write()
            self._written = now

    def run(self, backend, *, block: int = BLOCK, on_finished=None, on_block=None, on_estimate=None) -> pd.DataFrame:
        """Play what is left, writing the Parquet table as configurations finish (finished); the CSV
        (with csv=True) is written once at the end, or when the run is interrupted. The groups
        with a configuration left to play race again from the start, their finished members
        replayed from the wins the table keeps (racing.Race: known), so the rest is decided as an
        uninterrupted run would decide it."""

        def finished(index, row, games, rounds):
            self.finished(index, row, rounds)
            if on_finished is not None:
                on_finished(index, row, games)

        groups = self._open_groups()
        indices = sorted({i for g in groups for i in g.members})
        known = {i: self.rounds[i] for i in indices if i in self.rows}
        partial = {i: self.partial[i] for i in indices if i in self.partial and i not in self.rows}
        self._race = Race([(i, self.plan[i]) for i in indices], groups, self.seed, backend, block=block,
                          known=known, partial=partial, outcomes=self.outcomes)  # fmt: skip
        try:
            self._race.run(finished, on_block, on_estimate)
        finally:
            if self.rows or self._race.partials():  # where each unfinished one stands, for --resume
                self.write(csv=self.csv)
        return self.frame()


