"""Where numba keeps compiled code, keyed by the engine's source.

numba's on-disk cache checks only the modification time of the file that defines each cached
function, not the files of the functions it calls. The kernel calls the rules modules and every
strategy, so an edit to a strategy would leave a stale kernel in the cache. We therefore point
numba at a directory named by a hash of every source file compiled code is built from (and the
numba version): any edit gives a fresh directory, and a warm start reuses the old one.
Which files those are, and their hash, is simcore/sources.py's.

Set KIAI_CACHE_DIR to choose the parent directory (the benchmark uses it to time a cold start).
configure() must run before any jitted module is imported: simcore/__init__ calls it first.

Where that directory cannot be written (a read-only HOME, no XDG_CACHE_HOME), numba would fall
back to the source tree's __pycache__, where it checks modification times only: the stale-kernel
case this module exists to prevent. So numba is given no other place than ours: an unwritable
cache moves, with one warning, to a folder of the same key under the temporary folder, and where
none is writable either the code runs uncached (CACHED is False).
"""

import os
import pathlib
import sys
import tempfile

from numba.core import caching, config, dispatcher


def cache_root() -> pathlib.Path:
    env = os.environ.get("KIAI_CACHE_DIR")
    if env:
        return pathlib.Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return pathlib.Path(xdg) / "kiai" / "numba"


def _writable(path: pathlib.Path) -> str | None:
    """Why numba cannot cache in `path` (made if missing), or None where it can."""
    try:
        path.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=path).close()
    except OSError as e:
        return e.strerror or str(e)
    return None


def temporary_root() -> pathlib.Path:
    """The cache's parent under the temporary folder, one per user."""
    uid = os.getuid() if hasattr(os, "getuid") else "user"
    return pathlib.Path(tempfile.gettempdir()) / f"kiai-{uid}" / "numba"


CACHED = True  # False where no cache folder is writable: the code runs uncached


def _warn(line: str) -> None:
    """One line on standard error, once for a command and the helper processes it starts."""
    if not os.environ.get("KIAI_CACHE_WARNED"):
        print(f"kiai: warning: {line}", file=sys.stderr)
        os.environ["KIAI_CACHE_WARNED"] = "1"


def configure(key: str) -> pathlib.Path | None:
    """Point numba's cache at the folder of `key` (sources.source_hash()), or where that cannot be
    written at the temporary folder's, or nowhere (CACHED False); that folder, or None."""
    global CACHED, CACHE_DIR
    path = cache_root() / key
    # our folder or none: never the source tree's __pycache__ (InTreeCacheLocator), never a folder
    # keyed by modification times alone
    caching.CacheImpl._locator_classes = [caching.UserProvidedCacheLocator]
    why = _writable(path)
    if why is not None:
        fallback = temporary_root() / key
        if _writable(fallback) is None:
            _warn(f"cannot write numba's cache in {path.parent} ({why}); caching in {fallback.parent}")
            os.environ["KIAI_CACHE_DIR"] = str(fallback.parent)  # helper processes: the same folder
            path = fallback
        else:
            _warn(f"cannot write numba's cache in {path.parent} ({why}) nor under {tempfile.gettempdir()}; "
                  f"running uncached (every run compiles)")
            dispatcher.Dispatcher.enable_caching = lambda self: None  # cache=True is ignored
            CACHED, path = False, None
    config.CACHE_DIR = str(path) if path is not None else config.CACHE_DIR
    # numba leaves LLVM's SLP vectoriser off by default. On, it packs the learned networks'
    # sixteen sums (strategies.learned._layer) into vector instructions: a whole `kiai bench
    # --strategy learned -n 300000` takes about 0.6 of the CPU time it takes with it off;
    # the other strategies and the compile time are unchanged. It keeps each float operation
    # as written, so games stay the same bit for bit.
    config.SLP_VECTORIZE = 1
    CACHE_DIR = path
    return path


CACHE_DIR: pathlib.Path | None = None  # where configure() pointed numba
