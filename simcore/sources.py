"""The sources compiled code is built from, and their hash: the engine's identity.

numba's cache directory is named by source_hash() (simcore/_cache.py), and a results table's
`engine` column records it (reports.playing.tables.engine_hash), so a row says which engine played it.

The plain Python modules of the two packages (PLAIN: configuration, records, statistics, the run
layer) are left out of the hash, so editing them recompiles nothing; no compiled module may import
them (tests/test_cache.py checks it).

This module imports nothing of kiai: simcore/_cache.py reads it before any jitted module exists.
"""

import hashlib
import pathlib

import numba

_ROOT = pathlib.Path(__file__).resolve().parent.parent
_SOURCE_DIRS = ("simcore", "strategies")
PLAIN = frozenset({
    "simcore/components.py", "simcore/config.py", "simcore/filekinds.py", "simcore/readings.py", "simcore/stats.py", "simcore/trace.py",
    "simcore/version.py",
    "strategies/registry.py", "strategies/run/__init__.py", "strategies/run/compiling.py", "strategies/run/config.py",
    "strategies/run/games.py", "strategies/run/solve.py", "strategies/run/warm.py",
})  # fmt: skip


def source_files() -> list[pathlib.Path]:
    """The sources compiled code is built from: every module of the two packages but PLAIN."""
    return [f for d in _SOURCE_DIRS for f in sorted((_ROOT / d).rglob("*.py"))
            if f.relative_to(_ROOT).as_posix() not in PLAIN]


def source_hash() -> str:
    """16 hex digits of a SHA-256 of numba's version and every source file (its path and bytes)."""
    h = hashlib.sha256(numba.__version__.encode())
    for f in source_files():
        h.update(f.relative_to(_ROOT).as_posix().encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:16]
