"""Checking what kiai is asked to do, before any game is played: the API's values as the command's text.

The API (kiai.api) and the command line share the checks and their messages: every problem is a
KiaiError whose one-line message names the command's option, and `kiai` prints it as is (fail).
The API takes Python values (lists, dicts, numbers) where the command takes text; text_of and
items_of write them as the command's text, so both go through the same parsing. The other
subjects have their own modules: numbers (kiai.inputs.counts), files (kiai.inputs.paths), strategies
and their parameters (kiai.inputs.players), configurations (kiai.inputs.configs), a sweep's grid
(kiai.inputs.sweep_plan).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from numbers import Integral

from kiai.errors import KiaiError


def fail(message: str):
    raise KiaiError(message)


def _number_text(value) -> str:
    """A number as typed (a numpy scalar as the plain number it holds)."""
    if isinstance(value, float):
        return repr(float(value))
    return str(int(value)) if isinstance(value, Integral) and not isinstance(value, bool) else str(value)


def _plain(value):
    """A one-dimensional numpy array or pandas Series (or Index) as a list; anything else as is."""
    if getattr(value, "ndim", None) == 1 and hasattr(value, "tolist"):
        return value.tolist()
    if getattr(value, "ndim", None) == 0 and hasattr(value, "item"):  # a numpy scalar: the Python value
        return value.item()
    return value


def text_of(value, option: str, sep: str = ",") -> str | None:
    """A comma-separated option's text from a string (as is) or a list of names or numbers (not
    a set or a dict: their order is not the one written)."""
    value = _plain(value)
    if value is None or isinstance(value, str):
        return None if value is None else str(value)
    if isinstance(value, Integral) and not isinstance(value, bool):
        return str(int(value))
    items = [_plain(v) for v in value] if isinstance(value, (list, tuple)) else None
    if items is None or not all(isinstance(v, (str, Integral, float)) and not isinstance(v, bool) for v in items):
        fail(f"{option} expects a comma-separated text or a list of names or numbers, got {value!r}")
    return sep.join(_number_text(v) for v in items)


def items_of(value, option: str) -> list[str] | None:
    """The items of a repeatable NAME=VALUE option (--param, --rule) from a dict or a list.

    {name: value} gives 'name=value'; {name: [v1, v2]} 'name=v1,v2' (an axis of a sweep);
    {strategy: {name: value}} 'strategy.name=value' (compare's --strategies); a string is one
    item, a list of strings the items themselves."""
    if value is None:
        return None
    if isinstance(value, str):
        return [value]
    if isinstance(value, Mapping):
        out = []
        for name, v in value.items():
            v = _plain(v)
            if isinstance(v, Mapping):
                out += [f"{name}.{inner}={_number_text(_plain(x))}" for inner, x in v.items()]
            elif isinstance(v, (list, tuple)):
                out.append(f"{name}={','.join(_number_text(x) for x in v)}")
            else:
                out.append(f"{name}={_number_text(v)}")
        return out
    try:
        return [str(item) for item in _plain(value)]
    except TypeError:
        fail(f"{option} expects NAME=VALUE items or a dict, got {value!r}")


def listed(value) -> list:
    """An argument given once or as a list (a repeatable option's), as a list; None gives none."""
    return list(value) if isinstance(value, (list, tuple)) else [] if value is None else [value]


def one_item(value, option: str) -> str:
    """The one NAME=VALUES item of an option that takes one (compare's --rules), from a dict or a list."""
    items = items_of(value, option)
    if len(items) != 1:
        fail(f"{option} expects one NAME=V1,V2 item (e.g. heal=any,wounded), got {value!r}")
    return items[0]


def whole(value, option: str) -> int:
    if not isinstance(value, Integral) or isinstance(value, bool):
        fail(f"{option} must be a whole number, got {value!r}")
    return int(value)


def name_text(value, option: str) -> str:
    if not isinstance(value, str):
        fail(f"{option} expects a name, got {value!r}")
    if not value.strip():
        fail(f"{option} is empty")
    return value


def check_path(value, option: str):
    """A file or folder named by the caller (None: not given): text or a path, not empty (a path
    '' would be the current folder)."""
    if value is None:
        return None
    if not isinstance(value, (str, os.PathLike)):
        fail(f"{option} expects a file name, got {value!r}")
    if not str(value).strip():
        fail(f"{option} is empty")
    return value


def check_input(value, option: str, most: int | None = None):
    """A file read by kiai (check_path), which must not be a special file (a FIFO would hang the
    reader, /dev/zero feed it without end), nor larger than `most` bytes. A missing one is left to
    the reader."""
    from kiai.simcore.filekinds import problem

    odd = problem(check_path(value, option), most) if value is not None else None
    if odd is not None:
        fail(f"{option} {value} {odd}")
    return value


def check_flag(value, option: str) -> bool:
    if not isinstance(value, bool):
        fail(f"{option} must be True or False, got {value!r}")
    return value


def split(text: str, option: str, noun: str = "name") -> list[str]:
    """Comma-separated items, stripped; an empty one (`a,,b`, a trailing comma) is an error, not
    skipped, as in a line-up (parse_samurai). Text of nothing but commas gives no items: the
    caller says what it expects."""
    items = [t.strip() for t in text.split(",")]
    if any(items) and not all(items):
        fail(f"{option} '{text}' has an empty {noun}; give the {noun}s separated by single commas")
    return [t for t in items if t]


def once(items: list, option: str) -> list:
    """The items of a list option, each given once: a value given twice is refused (kiai plays
    nothing twice, nor merges what was typed twice), named in one line."""
    seen = set()
    for item in items:
        if item in seen:
            fail(f"{option} lists {_number_text(item)!s} twice; give each value once")
        seen.add(item)
    return list(items)


def check_cluster(workers, scheduler) -> None:
    """Where a command plays: --workers N (a local Dask cluster) or --scheduler ADDRESS (a running
    one), not both; each well formed. Reaching the scheduler is the run's first step
    (reports.playing.cluster), before any game."""
    if workers is not None:
        whole(workers, "--workers")
    if scheduler is not None and not isinstance(scheduler, str):
        fail(f"--scheduler expects an address (tcp://HOST:8786), got {scheduler!r}")
    if scheduler is not None and not scheduler.strip():
        fail("--scheduler is empty")
    if workers is not None and scheduler is not None:
        fail("--workers and --scheduler exclude each other")
    if workers is not None and workers < 1:
        fail(f"--workers must be at least 1, got {workers}")
