"""The solved table of `kiai solve --bracket` (reports.search.solve writes it, the report's section
reads it: reports.page.bracket): one row a deal, its columns and their kinds, read back checked
(read_solved) and written whole or not at all (write_solved_table).
"""

from __future__ import annotations

import functools
from pathlib import Path

import pandas as pd

from kiai.errors import first_line
from kiai.reports.files import atomic_write

COLUMNS = ("n_samurai", "difficulty", "lineup", "seed", "game", "budget", "deals", "answer", "nodes")
SETTINGS = ("seed", "budget", "deals")  # what a cell was solved with: one of each a cell, never two pooled
# the kinds of the table's columns (kiai.states.columns_doc); the later ones are not in every table
KINDS = {"n_samurai": "integer", "difficulty": "string", "lineup": "string", "seed": "integer", "game": "integer",
         "budget": "integer", "deals": "integer", "answer": "string", "nodes": "integer"}
LATER = {"found_by": ("string", "null"), "seconds": ("number", "null"), "cell_seconds": ("number", "null"),
         "engine": ("string", "null"), **{f"won_{p}": ("boolean", "null") for p in ("default", "judge", "foresight")}}
ANSWERS = ("won", "lost", "unknown", "failed")


@functools.cache  # one schema object: kiai.states keeps its validator
def _schema() -> dict:
    from kiai.states import columns_schema

    schema = columns_schema(KINDS)
    schema["properties"].update(columns_schema(LATER)["properties"])
    return schema


def read_solved(path, mixed: bool = False) -> pd.DataFrame:
    """The solve stage's table; a ValueError in one line where it is not one (a column of the wrong
    kind of value named; the callers name the file). A cell whose rows were solved with two
    settings is refused unless `mixed` (reports.search.solve.solve_bracket solves it again)."""
    import pyarrow
    import pyarrow.parquet as pq

    from kiai.states import StateError, check, columns_doc

    try:
        columns = columns_doc(pq.read_schema(path))
        df = pd.read_parquet(path) if set(COLUMNS) <= set(columns) else None
    except (pyarrow.ArrowException, OSError, ValueError) as e:  # what pyarrow raises for a file that is no table
        first = first_line(e)
        raise ValueError(f"cannot read it: {first}") from None
    missing = [c for c in COLUMNS if c not in columns]
    if missing:
        raise ValueError(f"not a solved table (kiai solve --bracket writes one): no column {', '.join(missing)}")
    try:
        check(columns, _schema(), path, "solved table")
    except StateError as e:  # a ValueError whose callers name the file, as for the others here
        raise ValueError(str(e).removeprefix(f"{path}: ")) from None
    odd = sorted(set(df["answer"].astype(str)) - set(ANSWERS))
    if odd:
        raise ValueError(f"an answer must be one of {', '.join(ANSWERS)}, got {odd[0]!r}")
    if not mixed:
        one_setting_a_cell(df)
    return df


def one_setting_a_cell(df: pd.DataFrame) -> None:
    """Refuse (ValueError) a cell whose rows were solved with two settings: its deals are not one sample."""
    keys = [c for c in (*SETTINGS, "engine") if c in df]
    for (n, level), part in df.groupby(["n_samurai", "difficulty"], sort=True):
        two = [c for c in keys if part[c].nunique() > 1]
        if two:
            raise ValueError(f"{n} samurai {level} holds deals solved with two settings ({', '.join(two)} differ); "
                             f"solve the cell again: kiai solve --bracket FILE --cells {n}-{level}")


def write_solved_table(df: pd.DataFrame, path) -> None:
    """Write the table whole or not at all (reports.files.atomic_write)."""
    atomic_write(Path(path), lambda tmp: df.to_parquet(tmp, index=False))
