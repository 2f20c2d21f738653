"""Sweeps: many configurations played on one seed, one row per configuration.

A sweep is a plan (a list of GameConfig) and a request (a fixed number of games, or a target
precision reached by doubling batches). Every configuration plays game indices 0..N-1 of the
same seed, so configurations with the same samurai count and level share their deals (common
random numbers): their differences are paired, game by game.

The results table has exactly the columns of COLUMNS (the schema reports.report reads), one row
per configuration, built from reports.summary.summarize so its figures agree with
`kiai simulate`. The Parquet file also carries, in its schema metadata, the key of every row
(what defines the configuration and how it was played), so that a killed sweep can resume
without replaying or losing finished configurations. Every write is atomic: a temporary file
in the same folder, then os.replace.

The same driver (run_plan) runs locally or on a Dask cluster (reports.cluster): work is cut
into blocks of game indices, each block comes back summarised (a reports.summary.Tally: counts
and integer sums), and a configuration's row is built from the sum of its blocks' tallies, so
the table does not depend on where or in which order the blocks were played, and memory does
not grow with the number of games.
"""

from __future__ import annotations

import functools
import hashlib
import heapq
import json
import os
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from kiai.simcore.seatings import all_lineups, lineup_key, sample_lineups, seatings_from
from kiai.reports.stats import proportion_ci
from kiai.reports.summary import MAX_SCORE, Tally, kiai_version, summarize
from kiai.simcore.codes import OUTCOMES

if TYPE_CHECKING:
    import pandas as pd

BLOCK = 50_000  # game indices per kernel call / Dask task
# play_range's kernel calls: the first plays FIRST_CHUNK games, and each next one is sized to take
# about CHUNK_SECONDS at the rate just measured (at most BLOCK), so a progress bar moves every
# second or so whether the strategy plays 100 or 200,000 games/s
FIRST_CHUNK = 16
CHUNK_SECONDS = 0.5
PRECISION_START = 1_000  # first batch of a --precision run; each later batch doubles the total
PRECISION_MAX_GAMES = 10_000_000  # a --precision run stops here even if the target is not met
METADATA_KEY = b"kiai.sweep"
FORMAT = 1

# The results table: column -> dtype. This is the schema reports.report and reports.charts read.
COLUMNS: dict[str, str] = {
    "difficulty": "str",
    "n_samurai": "int64",
    "lineup": "str",  # the samurai in codes.SAMURAI order, comma-joined (seatings.lineup_key)
    "seating": "str",  # the seats as played, seat 0 first, comma-joined
    "strategy": "str",
    "honest": "bool",
    "params": "str",  # JSON object, every parameter with defaults applied, sorted keys
    "absent_tokens": "bool",
    "rules": "str",  # the rule readings that differ from the rules' own, 'heal=wounded,...', or 'default'
    "games": "int64",
    "wins": "int64",
    "win_rate": "float64",
    "ci_low": "float64",
    "ci_high": "float64",
    "ci_method": "str",
    **{f"out_{name}": "int64" for name in OUTCOMES},
    **{f"lost_round_{r}": "int64" for r in (1, 2, 3)},
    **{f"score_{s}": "int64" for s in range(MAX_SCORE + 1)},
    "mean_barricades_left": "float64",
    "mean_farmsteads_left": "float64",
    "mean_families_left": "float64",
    "mean_wound_steps": "float64",
    "kiai_activations_per_game": "float64",
    "cards_confronted_per_game": "float64",
    "cards_defended_per_game": "float64",
    "stalled_games": "int64",
    "seed": "int64",
    "components_sha256": "str",
    "kiai_version": "str",
    "engine": "str",  # the engine's source hash (engine_hash: simcore._cache.source_hash) that played the row
}
# the columns that say which configuration a row is (with seed and request, its key)
DEFINING = ("difficulty", "n_samurai", "lineup", "seating", "strategy", "honest", "params",
            "absent_tokens", "rules", "components_sha256", "kiai_version")  # fmt: skip
DEFAULT_RULES = "default"  # the `rules` column of the rules' own readings (and of tables older than the column)
# the defining columns that say how a configuration was played rather than which one it is: a row
# of the same configuration, seed and games whose provenance (these, the model's SHA-256 and the
# engine) differs from this run's is played again by --resume
PROVENANCE = ("components_sha256", "kiai_version")
UNKNOWN_ENGINE = ""  # the `engine` column of tables older than it: stale for --resume


class SweepError(ValueError):
    """A sweep that cannot run as asked; the message is one line, fit for the command line."""


# ------------------------------------------------------------------------------ requests


@dataclass(frozen=True)
class Request:
    """How many games each configuration plays: `games`, or batches doubling from `start`
    until the 95% interval's half-width is at most `precision` (or `max_games` are played)."""

    games: int | None = None
    precision: float | None = None
    start: int = PRECISION_START
    max_games: int = PRECISION_MAX_GAMES

    def __post_init__(self):
        if (self.games is None) == (self.precision is None):
            raise SweepError("give either a number of games or a precision, not both")
        if self.games is not None and self.games < 1:
            raise SweepError(f"--games must be at least 1, got {self.games}")
        if self.precision is not None:
            if not (isinstance(self.precision, (int, float)) and 0 < self.precision <= 0.5):
                raise SweepError(f"--precision must be a half-width in (0, 0.5], got {self.precision}")
            if self.start < 1:
                raise SweepError(f"the first batch must be at least 1 game, got {self.start}")
            if self.max_games < self.start:
                raise SweepError(f"--max-games must be at least {self.start:,}, got {self.max_games:,}")

    def describe(self) -> dict:
        if self.games is not None:
            return {"games": self.games}
        return {"precision": self.precision, "start": self.start, "max_games": self.max_games}


def half_width(wins: int, games: int) -> float:
    """Half the width of the 95% interval kiai reports (reports.stats.proportion_ci)."""
    lo, hi, _ = proportion_ci(wins, games)
    return (hi - lo) / 2


# ---------------------------------------------------------------------------- plans


def expand_lineups(counts: Sequence[int], mode: str, k: int | None, seed: int) -> list[tuple[str, ...]]:
    """Line-ups for `--lineups all` or `--lineups sample:K`, per count, canonical order."""
    out: list[tuple[str, ...]] = []
    for n in counts:
        out += all_lineups(n) if mode == "all" else sample_lineups(n, int(k), seed)
    return out


def expand_seatings(lineups: Iterable[Sequence[str]], mode: str) -> list[tuple[str, ...]]:
    """`given`: each line-up in its own seat order; `all`: every distinct seating of it
    ((n-1)! of them: rotations are the same seating, mirror images are not, R-2), each
    starting with the line-up's first samurai (seatings_from)."""
    out: list[tuple[str, ...]] = []
    for lineup in lineups:
        out += [tuple(lineup)] if mode == "given" else seatings_from(lineup)
    return out


def strategy_variants(strategies: Sequence[str], params: dict[str, list[float]]) -> list[tuple[str, dict]]:
    """(strategy, params) pairs: each strategy with every combination of the values given for
    the parameters it has. A parameter no chosen strategy has is an error."""
    from kiai.strategies import registry

    infos = []
    for name in strategies:
        try:
            infos.append(registry.get(name))
        except KeyError as e:
            raise SweepError(e.args[0]) from None
    for pname in params:
        if not any(pname in {p.name for p in info.params} for info in infos):
            raise SweepError(f"no chosen strategy has a parameter '{pname}' "
                             f"(strategies: {', '.join(strategies)})")  # fmt: skip
    variants = []
    for info in infos:
        own = [(p.name, params[p.name]) for p in info.params if p.name in params]
        combos = [{}]
        for pname, values in own:
            combos = [{**c, pname: v} for c in combos for v in values]
        variants += [(info.name, c) for c in combos]
    return variants


def rule_variants(rules: dict[str, list[str]] | None) -> list[dict[str, str]]:
    """The rule readings of a grid: every combination of the values given per reading
    ({name: [values]}, as kiai.checks.parse_rules(axis=True) returns), in the order given;
    [{}] (the rules' own readings) when none is given."""
    combos: list[dict[str, str]] = [{}]
    for name, values in (rules or {}).items():
        combos = [{**c, name: v} for c in combos for v in values]
    return combos


def build_plan(levels: Sequence[str], seatings: Sequence[Sequence[str]], variants: Sequence[tuple[str, dict]],
               absent_tokens: str = "auto", components=None, model: str | None = None,
               rules: Sequence[dict] | None = None) -> list:
    """The configurations of a grid, level by level, seating by seating, strategy by strategy,
    rule readings by rule readings (`rules`: a list of {name: value}, rule_variants; default
    docs/rules.md's); a configuration listed twice is played once."""
    from kiai.simcore.config import ConfigError
    from kiai.strategies.run import GameConfig

    plan, seen = [], set()
    for level in levels:
        for seating in seatings:
            for strategy, params in variants:
                for readings in rules or [{}]:
                    try:
                        config = GameConfig(samurai=tuple(seating), difficulty=level, strategy=strategy,
                                            params=dict(params), absent_tokens=absent_tokens,
                                            components=components, model=model, rules=dict(readings))  # fmt: skip
                    except ConfigError as e:
                        raise SweepError(str(e)) from None
                    ident = identity_key(config)
                    if ident not in seen:
                        seen.add(ident)
                        plan.append(config)
    return plan


def with_base_params(plan: Sequence, strategy: str, base: dict) -> list:
    """The plan with `base` (e.g. a --params-file's parameters) under the parameters of every
    configuration of `strategy`: values the configuration sets itself win. Other strategies'
    configurations are unchanged."""
    import dataclasses

    from kiai.simcore.config import ConfigError

    out = []
    for config in plan:
        if config.strategy == strategy:
            try:
                config = dataclasses.replace(config, params={**base, **config.params})
            except ConfigError as e:
                raise SweepError(str(e)) from None
        out.append(config)
    return out


def config_columns(config) -> dict:
    """The defining columns of a configuration's row."""
    d = config.describe()
    return {
        "difficulty": d["difficulty"],
        "n_samurai": config.n,
        "lineup": lineup_key(config.samurai),
        "seating": ",".join(config.samurai),
        "strategy": d["strategy"],
        "honest": bool(d["honest"]),
        # as set (the defaults and those given): a family value's own play follows from the model
        "params": json.dumps(config.param_dict(), sort_keys=True),
        "absent_tokens": bool(d["absent_tokens"]),
        "rules": rules_label(config),
        "components_sha256": d["components_sha256"],
        "model_sha256": d["model"]["sha256"] if "model" in d else "",  # learned's model (or a planner's base's)
        "kiai_version": _version(),
    }


def rules_label(config) -> str:
    """A configuration's `rules` column: 'default', or its changed readings ('heal=wounded,...')."""
    from kiai.simcore.readings import label

    return label(getattr(config, "rules", None) or {})


def with_rules_column(df: pd.DataFrame) -> pd.DataFrame:
    """A results table with the `rules` column: tables written before it existed played docs/rules.md's
    readings, so it is filled with 'default' (after absent_tokens, where COLUMNS has it)."""
    return _with_column(df, "rules", DEFAULT_RULES, after="absent_tokens")


def with_engine_column(df: pd.DataFrame) -> pd.DataFrame:
    """A results table with the `engine` column: tables written before it existed say nothing of
    the engine that played them, so it is filled with UNKNOWN_ENGINE (which --resume plays again)."""
    return _with_column(df, "engine", UNKNOWN_ENGINE, after="kiai_version")


def _with_column(df: pd.DataFrame, name: str, fill: str, after: str) -> pd.DataFrame:
    """df with column `name` (filled with `fill` where the table predates it) after column `after`
    (at the end if the table lacks that one too)."""
    if name in df.columns:
        return df
    df = df.copy()
    at = list(df.columns).index(after) + 1 if after in df.columns else len(df.columns)
    df.insert(at, name, fill)
    return df


@functools.lru_cache(maxsize=1)
def engine_hash() -> str:
    """The hash of the engine's source (simcore/ and strategies/) as first read by this process."""
    from kiai.simcore._cache import source_hash

    return source_hash()


@functools.lru_cache(maxsize=1)
def _version() -> str:
    return kiai_version()


def identity_key(config) -> str:
    return json.dumps(config_columns(config), sort_keys=True)


def config_key(config, seed: int, request: Request) -> str:
    """What identifies a finished configuration for --resume: the SHA-256 of its defining
    columns, the seed, how many games were asked for, and the engine's source hash."""
    text = json.dumps({**config_columns(config), "seed": int(seed), "request": request.describe(),
                       "engine": engine_hash()}, sort_keys=True)  # fmt: skip
    return hashlib.sha256(text.encode()).hexdigest()


# ----------------------------------------------------------------------------- rows


def row_from_summary(summary: dict, config) -> dict:
    """One table row (COLUMNS) from reports.summary.summarize's output."""
    lo, hi = summary["ci95"]
    row = {
        **config_columns(config),
        "games": summary["games"],
        "wins": summary["wins"],
        "win_rate": summary["win_rate"],
        "ci_low": lo,
        "ci_high": hi,
        "ci_method": summary["ci_method"],
        **{f"out_{k}": v for k, v in summary["outcomes"].items()},
        **{f"lost_round_{r}": summary["lost_in_round"][str(r)] for r in (1, 2, 3)},
        **{f"score_{s}": summary["scores"].get(str(s), 0) for s in range(MAX_SCORE + 1)},
        "stalled_games": summary["stalled_games"],
        "seed": summary["seed"],
        "engine": engine_hash(),
    }
    for name in ("mean_barricades_left", "mean_farmsteads_left", "mean_families_left", "mean_wound_steps",
                 "kiai_activations_per_game", "cards_confronted_per_game", "cards_defended_per_game"):  # fmt: skip
        row[name] = summary[name]
    if row["components_sha256"] != summary["components_sha256"]:  # pragma: no cover - defensive
        raise AssertionError("summary and configuration disagree on the component file")
    return {c: row[c] for c in COLUMNS}


def to_frame(rows: list[dict]) -> pd.DataFrame:
    """Rows in COLUMNS order with COLUMNS dtypes (also for an empty table)."""
    import pandas as pd

    df = pd.DataFrame(rows, columns=list(COLUMNS))
    return df.astype(COLUMNS)


# ------------------------------------------------------------------------------- files


def atomic_write(path, write: Callable[[Path], None]) -> None:
    """Call write(tmp) on a temporary file beside `path`, then move it onto `path` in one
    step (os.replace). If write raises, `path` is left as it was and the temporary removed."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(fd)
    tmp = Path(tmp)
    try:
        write(tmp)
        with open(tmp, "rb") as f:
            os.fsync(f.fileno())
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; give the usual permissions
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_table(df: pd.DataFrame, path, keys: list[str], info: dict | None = None, csv: bool = False) -> None:
    """Write the table atomically as Parquet (row keys in the metadata) and, with csv, as CSV
    beside it (same name, .csv)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    if len(keys) != len(df):
        raise ValueError(f"{len(keys)} keys for {len(df)} rows")
    table = pa.Table.from_pandas(df, preserve_index=False)
    meta = dict(table.schema.metadata or {})
    meta[METADATA_KEY] = json.dumps({"format": FORMAT, "keys": keys, **(info or {})}).encode()
    table = table.replace_schema_metadata(meta)
    atomic_write(path, lambda tmp: pq.write_table(table, tmp))
    if csv:
        atomic_write(Path(path).with_suffix(".csv"), lambda tmp: df.to_csv(tmp, index=False))


def read_table(path) -> tuple[pd.DataFrame, list[str], dict]:
    """A sweep table written by write_table: (frame, row keys, metadata). Raises SweepError
    when the file is not one."""
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(path)
    except Exception as e:  # noqa: BLE001 - pyarrow raises several kinds for a bad file
        raise SweepError(f"cannot read {path}: {str(e).splitlines()[0] if str(e) else type(e).__name__}") from None
    raw = (table.schema.metadata or {}).get(METADATA_KEY)
    if raw is None:
        raise SweepError(f"{path} is not a kiai sweep table (no sweep metadata)")
    info = json.loads(raw)
    df = with_engine_column(with_rules_column(table.to_pandas()))
    keys = list(info.pop("keys", []))
    if len(keys) != len(df) or list(df.columns) != list(COLUMNS):
        raise SweepError(f"{path} is not a kiai sweep table of this version (columns or keys differ)")
    return df.astype(COLUMNS), keys, info


# ------------------------------------------------------------------------------- play


def play_block(config, seed: int, offset: int, count: int) -> np.ndarray:
    """Games offset .. offset + count - 1 of `seed`: one row of simcore.results.OUT_NAMES each."""
    from kiai.strategies.run import run_games

    return run_games(config, count, seed, game_offset=offset)


def next_chunk(k: int, seconds: float) -> int:
    """The size of the next kernel call after one of k games took `seconds`: about CHUNK_SECONDS
    at that rate, at least FIRST_CHUNK, at most 4 k and BLOCK."""
    rate = k / max(seconds, 1e-6)
    return int(min(BLOCK, 4 * k, max(FIRST_CHUNK, rate * CHUNK_SECONDS)))


def play_chunks(config, seed: int, offset: int, count: int,
                on_games: Callable[[int], None] | None = None) -> Iterator[np.ndarray]:
    """Games offset .. offset + count - 1 of `seed`, in kernel calls sized by the measured rate
    (FIRST_CHUNK, then about CHUNK_SECONDS each, at most BLOCK): yields each call's rows, in
    index order, and calls on_games(k) after each. The rows do not depend on the chunks: game i
    is keyed by (seed, i) alone."""
    import time

    done, chunk = 0, FIRST_CHUNK
    while done < count:
        k = min(chunk, count - done)
        t0 = time.perf_counter()
        rows = play_block(config, seed, offset + done, k)
        seconds = time.perf_counter() - t0
        done += k
        if on_games is not None:
            on_games(k)
        yield rows
        chunk = next_chunk(k, seconds)


def play_range(config, seed: int, offset: int, count: int,
               on_games: Callable[[int], None] | None = None) -> Tally:
    """Games offset .. offset + count - 1 of `seed` (play_chunks), summarised as they are played:
    a Tally, so memory stays at one kernel call's rows however many games are played."""
    tally = Tally()
    for rows in play_chunks(config, seed, offset, count, on_games):
        tally.add(rows)
    return tally


def warm(config) -> None:
    """Compile the engine, or load it from numba's on-disk cache: play one game."""
    from kiai.strategies.run import run_games

    run_games(config, 1, 0)


@dataclass
class ConfigRun:
    """The games of one configuration: which blocks to play next, and when it is finished.
    The played blocks are summed into one Tally as they come back, in any order."""

    index: int
    config: object
    request: Request
    block: int
    tally: Tally = field(default_factory=Tally)
    scheduled: int = 0  # game indices 0..scheduled-1 have been handed out
    target: int = 0  # the total of the current batch
    done: bool = False

    def __post_init__(self):
        r = self.request
        self.target = r.games if r.games is not None else min(r.start, r.max_games)

    def next_blocks(self) -> list[tuple[int, int]]:
        """The blocks (offset, count) of the current batch not handed out yet."""
        out = []
        while self.scheduled < self.target:
            k = min(self.block, self.target - self.scheduled)
            out.append((self.scheduled, k))
            self.scheduled += k
        return out

    def add(self, offset: int, tally: Tally) -> bool:
        """Count a played block (the Tally of games offset ..); True when the configuration is
        finished."""
        self.tally.merge(tally)
        if self.tally.games < self.target:
            return False
        if self.request.precision is None or self.target >= self.request.max_games:
            self.done = True
            return True
        if half_width(self.tally.wins, self.target) <= self.request.precision:
            self.done = True
            return True
        self.target = min(2 * self.target, self.request.max_games)
        return False


class LocalBackend:
    """Plays blocks in this process, one at a time, earliest configuration first, each
    summarised as it is played (play_range). on_games(k) is called as each part of a block is
    played, for a progress bar that moves within a block."""

    def __init__(self, on_games: Callable[[int], None] | None = None):
        self._heap: list = []
        self._n = 0
        self.on_games = on_games

    def submit(self, run: ConfigRun, seed: int, offset: int, count: int) -> None:
        heapq.heappush(self._heap, (run.index, offset, self._n, run, seed, count))
        self._n += 1

    def pending(self) -> int:
        return len(self._heap)

    def next_done(self) -> tuple[ConfigRun, int, Tally]:
        _index, offset, _, run, seed, count = heapq.heappop(self._heap)
        return run, offset, play_range(run.config, seed, offset, count, self.on_games)

    def close(self) -> None:
        self._heap.clear()


def run_plan(plan: Sequence, seed: int, request: Request, backend, *, block: int = BLOCK,
             on_finished: Callable[[int, dict, int], None] | None = None,
             on_block: Callable[[int], None] | None = None) -> dict[int, dict]:
    """Play every configuration of plan (a list of (plan index, GameConfig)) on `seed`.

    on_finished(index, row, games) is called as each configuration finishes; on_block(games)
    after each block. Returns {index: row}."""
    if block < 1:
        raise SweepError(f"--block must be at least 1, got {block}")
    results: dict[int, dict] = {}
    for index, config in plan:
        run = ConfigRun(index, config, request, block)
        for offset, count in run.next_blocks():
            backend.submit(run, seed, offset, count)
    while backend.pending():
        run, offset, tally = backend.next_done()
        if on_block is not None:
            on_block(tally.games)
        if not run.add(offset, tally):
            for off, count in run.next_blocks():
                backend.submit(run, seed, off, count)
            continue
        row = row_from_summary(summarize(run.tally, run.config, seed), run.config)
        results[run.index] = row
        if on_finished is not None:
            on_finished(run.index, row, run.tally.games)
    return results


# ------------------------------------------------------------------------------ sweep


class Sweep:
    """A plan bound to its output file: what is finished, what is left, and atomic writes."""

    def __init__(self, plan: Sequence, seed: int, request: Request, out, *, csv: bool = False,
                 resume: bool = False, force: bool = False, info: dict | None = None):
        self.plan = list(plan)
        self.seed = seed
        self.request = request
        self.out = Path(out)
        self.csv = csv
        self.info = dict(info or {})
        self.keys = [config_key(c, seed, request) for c in self.plan]
        if len(set(self.keys)) != len(self.keys):  # pragma: no cover - build_plan dedupes
            raise SweepError("the plan lists a configuration twice")
        self.rows: dict[int, dict] = {}
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
        for stale in self.out.parent.glob(f".{self.out.name}.*.tmp"):  # left by a killed write
            stale.unlink(missing_ok=True)
        for stale in self.out.parent.glob(f".{self.out.with_suffix('.csv').name}.*.tmp"):
            stale.unlink(missing_ok=True)

    def _load(self) -> None:
        """Keep the rows of the table at --out that this run would play the same way: same key
        (the configuration, the component file's and the model's SHA-256, the kiai version, the
        seed, the games or precision asked for, the engine's source hash) and the engine that
        played them recorded as this one. A row of a configuration of this plan whose provenance
        differs (another engine, model, component file or kiai version; or a table older than
        the `engine` column) is dropped, to be played again; a row of any other configuration,
        seed or request is refused (another sweep's results, not to be mixed in or lost)."""
        df, keys, info = read_table(self.out)
        where = {k: i for i, k in enumerate(self.keys)}
        same = {self._identity(config_columns(c), self.seed, self.request.describe()): i
                for i, c in enumerate(self.plan)}  # fmt: skip
        engine = engine_hash()
        foreign = 0
        stale: dict[int, list[str]] = {}  # plan index -> why its stored row is played again
        for key, row in zip(keys, df.to_dict("records")):
            i = where.get(key)
            if i is not None and row["engine"] == engine:
                self.rows[i] = row
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
        self.reused, self.stale = len(self.rows), stale

    @staticmethod
    def _identity(columns: dict, seed, request) -> str:
        """Which configuration a row is, with the seed and request, its provenance left out."""
        cast = {"int64": int, "bool": bool, "str": str}
        ident = {c: cast[COLUMNS[c]](columns[c]) for c in DEFINING if c not in PROVENANCE}
        return json.dumps({**ident, "seed": int(seed), "request": request}, sort_keys=True)

    def _why_stale(self, row: dict, config) -> list[str]:
        """Why a stored row of `config` (same configuration, seed and request) is played again."""
        now = config_columns(config)
        why = []
        if row["engine"] == UNKNOWN_ENGINE:
            why.append("engine not recorded")
        elif row["engine"] != engine_hash():
            why.append("engine changed")
        if row["components_sha256"] != now["components_sha256"]:
            why.append("component file changed")
        if row["kiai_version"] != now["kiai_version"]:
            why.append("kiai version changed")
        return why or ["model changed"]  # the key's one other ingredient: the model's SHA-256

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
        return note

    @property
    def todo(self) -> list[tuple[int, object]]:
        return [(i, c) for i, c in enumerate(self.plan) if i not in self.rows]

    def frame(self) -> pd.DataFrame:
        order = sorted(self.rows)
        return to_frame([self.rows[i] for i in order])

    def write(self, csv: bool = False) -> None:
        order = sorted(self.rows)
        info = {"seed": self.seed, "request": self.request.describe(), "engine": engine_hash(),
                "configurations": len(self.plan), **self.info}  # fmt: skip
        write_table(self.frame(), self.out, [self.keys[i] for i in order], info, csv=csv)

    def finished(self, index: int, row: dict) -> None:
        self.rows[index] = row
        self.write()

    def run(self, backend, *, block: int = BLOCK, on_finished=None, on_block=None) -> pd.DataFrame:
        """Play what is left, writing the Parquet table after every configuration; the CSV
        (with csv=True) is written once at the end, or when the run is interrupted."""

        def finished(index, row, games):
            self.finished(index, row)
            if on_finished is not None:
                on_finished(index, row, games)

        try:
            run_plan(self.todo, self.seed, self.request, backend, block=block, on_finished=finished,
                     on_block=on_block)  # fmt: skip
        finally:
            if self.rows:
                self.write(csv=self.csv)
        return self.frame()


def expected_games(plan_size: int, request: Request) -> int | None:
    """Total games a fixed-games sweep plays (None for --precision: not known in advance)."""
    return plan_size * request.games if request.games is not None else None


def fmt_duration(seconds: float) -> str:
    if seconds < 60:
        return f"{seconds:.1f} s"
    return f"{int(seconds // 60)} min {seconds % 60:.0f} s"

