"""A study's result kept as package data (reports/findings/*.json: make coverage, make reach): the
commit its code was, read before the run so that a commit made meanwhile is not named, and the
JSON written whole or not at all, as the solver's own outputs."""

from __future__ import annotations

import datetime
import json
import subprocess
from pathlib import Path

from kiai.outputs import atomic_write


def code_commit() -> str:
    """The commit of the code about to run ('1ef56e8', '-dirty' with changes not committed), or
    'unknown' outside a git checkout (an installed kiai)."""
    head = subprocess.run(["git", "describe", "--always", "--dirty", "--abbrev=7"], capture_output=True, text=True,
                          cwd=Path(__file__).parent).stdout.strip()
    return head or "unknown"


def dump(result: dict) -> str:
    return json.dumps(result, indent=1, sort_keys=True)


def store(result: dict, commit: str, path: Path | None) -> dict:
    """The result stamped with `commit` (code_commit before the run) and today's date; written to
    `path` (None: not written)."""
    result.update(commit=commit, date=datetime.date.today().isoformat())
    if path is not None:
        text = dump(result) + "\n"
        atomic_write(Path(path), lambda tmp: tmp.write_text(text, encoding="utf-8"))
    return result
