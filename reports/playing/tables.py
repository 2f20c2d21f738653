"""The results table of a sweep: its columns, its rows, and its files.

The table has exactly the columns of COLUMNS (the schema reports.page.report reads), one row per
configuration, built from reports.playing.summary.summarize so its figures agree with `kiai simulate`.
The Parquet file also carries, in its schema metadata, the key of every row (what defines the
configuration and how it was played) and how many games each had won at each look of a race
(reports.playing.racing), so that a killed sweep can resume without replaying or losing finished
configurations. Every write is atomic: a temporary file in the same folder, then os.replace.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import TYPE_CHECKING

from kiai.reports.files import atomic_write
from kiai.reports.playing.summary import MAX_SCORE, ROUNDS, SUMMED, kiai_version
from kiai.simcore.codes import OUTCOMES
from kiai.simcore.seatings import lineup_key
from kiai.states import check, columns_doc, columns_schema, load_json

if TYPE_CHECKING:
    import pandas as pd

METADATA_KEY = b"kiai.sweep"
FORMAT = 1

# The results table: column -> dtype. This is the schema reports.page.report and reports.page.charts read.
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
    # every model file the strategy read, 'ROLE=SHA256' joined by ';' (models_text): '' where it read none
    "models": "str",
    "kiai_version": "str",
    "engine": "str",  # the engine's source hash (engine_hash: simcore.sources.source_hash) that played the row
    # each game's win, in game order, where a race read them (stopping.Cell's paired cells):
    # outcome_text; '' where not kept
    "outcomes": "str",
}
# the columns that say which configuration a row is (with seed and request, its key)
DEFINING = ("difficulty", "n_samurai", "lineup", "seating", "strategy", "honest", "params",
            "absent_tokens", "rules", "components_sha256", "models", "kiai_version")  # fmt: skip
DEFAULT_RULES = "default"  # the `rules` column of the rules' own readings (and of tables older than the column)
# the defining columns that say how a configuration was played rather than which one it is: a row
# of the same configuration, seed and games whose provenance (these and the engine) differs from
# this run's is played again by --resume
PROVENANCE = ("components_sha256", "models", "kiai_version")
UNKNOWN_ENGINE = ""  # the `engine` column of tables older than it: stale for --resume
UNKNOWN_MODELS = "not recorded"  # the `models` column of tables older than it: stale for --resume


class SweepError(ValueError):
    """A sweep that cannot run as asked; the message is one line, fit for the command line."""


class ClusterFailed(SweepError):
    """The Dask cluster stopped answering mid-run (reports.playing.cluster); one line."""


def config_columns(config) -> dict:
    """The defining columns of a configuration's row."""
    from kiai.strategies.run.games import models_read

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
        "models": models_text(models_read(config)),
        "kiai_version": _version(),
    }


def models_text(models: dict[str, str]) -> str:
    """The `models` column of {role: SHA-256} (strategies.run.games.models_read): 'model=...;base=...'."""
    return ";".join(f"{role}={sha}" for role, sha in models.items())


def models_of(text: str) -> dict[str, str]:
    """{role: SHA-256} of a `models` value; {} where it names none (or does not know them)."""
    if not isinstance(text, str) or text == UNKNOWN_MODELS:
        return {}
    return dict(item.partition("=")[::2] for item in text.split(";") if item)


def stale_reasons(row: dict, now: dict, engine: str, raced: bool) -> list[str]:
    """Why --resume plays a stored row again whose configuration, seed and request are this run's
    (`now`: its config_columns; `engine`: this engine's hash): its provenance differs."""
    why = []
    if row["engine"] == UNKNOWN_ENGINE:
        why.append("engine not recorded")
    elif row["engine"] != engine:
        why.append("engine changed")
    if row["components_sha256"] != now["components_sha256"]:
        why.append("component file changed")
    if row["models"] == UNKNOWN_MODELS:
        why.append("models not recorded")
    elif row["models"] != now["models"]:
        why += models_changed(models_of(row["models"]), models_of(now["models"]))
    if row["kiai_version"] != now["kiai_version"]:
        why.append("kiai version changed")
    # what else the key holds: in a race, its groups
    return why or ["race changed" if raced else "provenance changed"]


def models_changed(old: dict[str, str], new: dict[str, str]) -> list[str]:
    """A reason for each role (models_of) whose model differs, or is read on one side alone:
    'model changed' for the strategy's own, 'base model changed' for the base's, and so on."""
    roles = [r for r in {**new, **old} if old.get(r) != new.get(r)]
    return [("model" if r == "model" else f"{r} model") + " changed" for r in roles] or ["model changed"]


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


def with_outcomes_column(df: pd.DataFrame) -> pd.DataFrame:
    """A results table with the `outcomes` column: '' (not kept) where the table predates it."""
    return _with_column(df, "outcomes", "", after="engine")


def with_models_column(df: pd.DataFrame) -> pd.DataFrame:
    """A results table with the `models` column: tables written before it existed do not say which
    models played them, so it is filled with UNKNOWN_MODELS (which --resume plays again)."""
    return _with_column(df, "models", UNKNOWN_MODELS, after="components_sha256")


def outcome_text(won) -> str:
    """Per-game wins as the `outcomes` column keeps them: 'GAMES:HEX', the wins' bits packed
    (numpy.packbits, game 0 first); the colon keeps a CSV reader from taking it for a number."""
    import numpy as np

    won = np.asarray(won, dtype=bool)
    return f"{won.size}:{np.packbits(won).tobytes().hex()}"


def outcome_bits(text: str):
    """The per-game wins (a bool array) of an `outcomes` value; None where none were kept."""
    import numpy as np

    if not isinstance(text, str) or not text:
        return None
    games, _, bits = text.partition(":")
    try:
        return np.unpackbits(np.frombuffer(bytes.fromhex(bits), np.uint8), count=int(games)).astype(bool)
    except ValueError:
        raise SweepError(f"an outcomes value is not GAMES:HEX: {text[:40]!r}") from None


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
    from kiai.simcore.sources import source_hash

    return source_hash()


@functools.lru_cache(maxsize=1)
def _version() -> str:
    return kiai_version()


def identity_key(config) -> str:
    return json.dumps(config_columns(config), sort_keys=True)



# ----------------------------------------------------------------------------- rows


def row_from_summary(summary: dict, config) -> dict:
    """One table row (COLUMNS) from reports.playing.summary.summarize's output."""
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
        "outcomes": "",
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
    """A sweep table written by write_table: (frame, row keys, metadata), its metadata and its
    columns' types checked first (kiai.states). Raises SweepError when the file is no sweep
    table, StateError (one line naming the file and the field) when it is a damaged one."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(path)
        df = table.to_pandas(ignore_metadata=True)  # pandas' own entry unused: a damaged one is no TypeError
    except (OSError, ValueError, pa.ArrowException) as e:  # a damaged file: ArrowInvalid, thrift's OSError...
        raise SweepError(f"cannot read {path}: {str(e).splitlines()[0] if str(e) else type(e).__name__}") from None
    info = sweep_info(table.schema.metadata, path)
    if info is None:
        raise SweepError(f"{path} is not a kiai sweep table (no sweep metadata)")
    check(columns_doc(table.schema), TABLE_SCHEMA, path, "sweep table")
    df = with_outcomes_column(with_engine_column(with_models_column(with_rules_column(df))))
    keys = info.pop("keys")
    if len(keys) != len(df) or list(df.columns) != list(COLUMNS):
        raise SweepError(f"{path} is not a kiai sweep table of this version (columns or keys differ)")
    return df.astype(COLUMNS), keys, info


def sweep_info(metadata: dict | None, path) -> dict | None:
    """The sweep metadata of a table's Parquet metadata, checked against METADATA_SCHEMA (a damaged
    one is a StateError naming `path` and the field); None where the table has none."""
    raw = (metadata or {}).get(METADATA_KEY)
    if raw is None:
        return None
    return check(load_json(raw, path, "sweep metadata"), METADATA_SCHEMA, path, "sweep metadata")


# The sweep metadata as write_table and Sweep.write write it: row keys, how the sweep was asked,
# and where a race stands (Sweep.rounds, racing.Member.partial). Every entry but the keys is
# optional (write_table writes the keys alone where it is given no more).
_COUNT = {"type": "integer", "minimum": 0}
_WINS = {"type": "array", "items": _COUNT}


def _counts(n: int) -> dict:
    return {**_WINS, "minItems": n, "maxItems": n}


_TALLY = {"type": "object", "required": ["games", "outcomes", "ended", "lost", "scores", "sums"], "properties": {
    "games": _COUNT, "outcomes": _counts(len(OUTCOMES)), "ended": _counts(len(ROUNDS)), "lost": _counts(len(ROUNDS)),
    "scores": _counts(MAX_SCORE + 1), "sums": _counts(len(SUMMED))}}  # summary.Tally's counts
METADATA_SCHEMA = {"type": "object", "required": ["keys"], "properties": {
    "format": {"const": FORMAT},
    "keys": {"type": "array", "items": {"type": "string"}},
    "seed": {"type": "integer"},
    "request": {"type": "object", "properties": {"games": _COUNT, "race": {"type": "string"}, "precision": {
        "type": "number"}, "start": _COUNT, "max_games": _COUNT}},
    "engine": {"type": "string"},
    "configurations": _COUNT,
    "command": {"type": "string"},
    "rounds": {"type": "object", "additionalProperties": _WINS},
    "partial": {"type": "object", "additionalProperties": {
        "type": "object", "required": ["rounds", "tally"],
        "properties": {"rounds": _WINS, "tally": _TALLY,
                       "outcomes": {"type": "string", "pattern": "^[0-9]+:[0-9a-f]*$"}}}},  # outcome_text
}}
# the columns' types; those older tables lack are filled in by read_table (with_rules_column...). An
# empty table's text columns are of Arrow's type null where pandas keeps text as objects
_KIND = {"str": ("string", "null"), "int64": "integer", "float64": "number", "bool": "boolean"}
TABLE_SCHEMA = {**columns_schema({c: _KIND[t] for c, t in COLUMNS.items()}),
                "required": [c for c in COLUMNS if c not in ("rules", "models", "engine", "outcomes")]}
