"""A study's result kept as package data (reports/findings/*.json: make coverage, make reach): the
commit its code was, read before the run so that a commit made meanwhile is not named, its outputs
claimed before any work, and the JSON written whole or not at all, as the solver's own outputs."""

from __future__ import annotations

import contextlib
import datetime
import json
import subprocess
import sys
from pathlib import Path

from kiai.errors import KiaiError
from kiai.outputs import atomic_write, claim


def code_commit() -> str:
    """The commit of the code about to run ('1ef56e8', '-dirty' with changes not committed), or
    'unknown' outside a git checkout (an installed kiai)."""
    head = subprocess.run(["git", "describe", "--always", "--dirty", "--abbrev=7"], capture_output=True, text=True,
                          cwd=Path(__file__).parent).stdout.strip()
    return head or "unknown"


@contextlib.contextmanager
def claimed(prog: str, *outputs: tuple[str, Path | None]):
    """Hold each output asked ((option, path); a None path: not asked) for the whole study, claimed
    before its first game (kiai.outputs.claim): a second run on one of them refuses at once, not an
    hour later. Such a refusal, or any other bad input found during the study, ends it with one
    line `prog: ...` and exit 2."""
    try:
        with contextlib.ExitStack() as stack:
            for option, path in outputs:
                if path is not None:
                    stack.enter_context(claim(path, option))
            yield
    except KiaiError as e:
        print(f"{prog}: {e}", file=sys.stderr)
        raise SystemExit(2) from None


def store(result: dict, commit: str, path: Path | None) -> dict:
    """The result stamped with `commit` (code_commit before the run) and today's date; written to
    `path` (None: not written)."""
    result.update(commit=commit, date=datetime.date.today().isoformat())
    if path is not None:
        text = json.dumps(result, indent=1, sort_keys=True) + "\n"
        atomic_write(Path(path), lambda tmp: tmp.write_text(text, encoding="utf-8"))
    return result
