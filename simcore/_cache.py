"""Where numba keeps compiled code, keyed by the engine's source.

numba's on-disk cache checks only the modification time of the file that defines each cached
function, not the files of the functions it calls. The kernel calls the rules modules and every
strategy, so an edit to a strategy would leave a stale kernel in the cache. We therefore point
numba at a directory named by a hash of every source file compiled code is built from (and the
numba version): any edit gives a fresh directory, and a warm start reuses the old one.

The plain Python modules of the two packages (PLAIN: configuration, records, statistics, the run
layer, training) are left out of the hash, so editing them recompiles nothing; no compiled module
may import them (tests/test_cache.py checks it).

Set KIAI_CACHE_DIR to choose the parent directory (the benchmark uses it to time a cold start).
This module must run before any jitted module is imported: simcore/__init__ imports it first.
"""

import hashlib
import os
import pathlib

import numba
from numba.core import config

_ROOT = pathlib.Path(__file__).resolve().parent.parent
_SOURCE_DIRS = ("simcore", "strategies")
PLAIN = frozenset({
    "simcore/components.py", "simcore/config.py", "simcore/readings.py", "simcore/stats.py", "simcore/trace.py",
    "simcore/version.py",
    "strategies/registry.py", "strategies/run.py", "strategies/teacher.py", "strategies/training.py",
    "strategies/valuefit.py", "strategies/village_fit.py",
})  # fmt: skip


def source_files() -> list[pathlib.Path]:
    """The sources compiled code is built from: every module of the two packages but PLAIN."""
    return [f for d in _SOURCE_DIRS for f in sorted((_ROOT / d).glob("*.py")) if f"{d}/{f.name}" not in PLAIN]


def source_hash() -> str:
    h = hashlib.sha256(numba.__version__.encode())
    for f in source_files():
        h.update(f.name.encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:16]


def cache_root() -> pathlib.Path:
    env = os.environ.get("KIAI_CACHE_DIR")
    if env:
        return pathlib.Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return pathlib.Path(xdg) / "kiai" / "numba"


def configure() -> pathlib.Path:
    path = cache_root() / source_hash()
    config.CACHE_DIR = str(path)
    # numba leaves LLVM's SLP vectoriser off by default. On, it packs the learned networks'
    # sixteen sums (strategies.learned._layer) into vector instructions: a whole `kiai bench
    # --strategy learned -n 300000` takes about 0.6 of the CPU time it takes with it off;
    # the other strategies and the compile time are unchanged. It keeps each float operation
    # as written, so games stay the same bit for bit.
    config.SLP_VECTORIZE = 1
    return path


CACHE_DIR = configure()
