"""Where numba keeps compiled code, keyed by the engine's source.

numba's on-disk cache checks only the modification time of the file that defines each cached
function, not the files of the functions it calls. The kernel calls the rules modules and every
strategy, so an edit to a strategy would leave a stale kernel in the cache. We therefore point
numba at a directory named by a hash of every source file compiled code is built from (and the
numba version): any edit gives a fresh directory, and a warm start reuses the old one.

Which files those are, and their hash, is simcore/sources.py's.

Set KIAI_CACHE_DIR to choose the parent directory (the benchmark uses it to time a cold start).
configure() must run before any jitted module is imported: simcore/__init__ calls it first.
"""

import os
import pathlib

from numba.core import config


def cache_root() -> pathlib.Path:
    env = os.environ.get("KIAI_CACHE_DIR")
    if env:
        return pathlib.Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return pathlib.Path(xdg) / "kiai" / "numba"


def configure(key: str) -> pathlib.Path:
    """Point numba's cache at the folder of `key` (sources.source_hash()); that folder."""
    path = cache_root() / key
    config.CACHE_DIR = str(path)
    # numba leaves LLVM's SLP vectoriser off by default. On, it packs the learned networks'
    # sixteen sums (strategies.learned._layer) into vector instructions: a whole `kiai bench
    # --strategy learned -n 300000` takes about 0.6 of the CPU time it takes with it off;
    # the other strategies and the compile time are unchanged. It keeps each float operation
    # as written, so games stay the same bit for bit.
    config.SLP_VECTORIZE = 1
    return path

