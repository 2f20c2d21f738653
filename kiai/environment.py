"""NUMBA_NUM_THREADS, read by numba when it is imported: checked before, at `import kiai`.

numba refuses a value below 1 with a traceback at its import (every command imports it), and
takes 999 on a machine of 2 cores. Here a value that is not a whole number of at least 1 is
kept as `problem` (the command prints it, exit code 2; the API raises it as a KiaiError on first
use), and one above the cores is capped to them, as --threads is, with a `note` saying so. The
variable itself is set right so that numba imports whatever is done with the problem."""

from __future__ import annotations

import os

NAME = "NUMBA_NUM_THREADS"


def cores() -> int:
    """The cores this process may run on (numba's own default for NUMBA_NUM_THREADS)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - no sched_getaffinity (macOS, Windows)
        return max(1, os.cpu_count() or 1)


def check(environ=os.environ) -> tuple[str | None, str | None]:
    """(problem, note) of NUMBA_NUM_THREADS in `environ`, which is set right for numba."""
    raw = environ.get(NAME)
    if raw is None or "numba" in __import__("sys").modules:  # numba has read it already
        return None, None
    try:
        value = int(raw.strip())
    except ValueError:
        value = None
    most = cores()
    if value is None or value < 1:
        environ[NAME] = str(most)
        return f"{NAME}={raw!r} must be a whole number of threads, at least 1 (unset, it is the cores: {most})", None
    if value > most:
        environ[NAME] = str(most)
        return None, f"note: {NAME}={value}: this machine has {most} cores; using {most} threads"
    return None, None


PROBLEM, NOTE = check()
