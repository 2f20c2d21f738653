"""simcore: the Samurai Spirit rules engine (numba). It imports nothing from strategies: the run
layer (strategies.run.compiling) hands it a strategy by the address of its compiled decide().

Importing the package points numba's cache at a directory keyed by the engine's source
(see _cache and sources).
"""

from kiai.simcore import _cache, sources

# before any jitted module is imported: numba reads the folder when it compiles or loads
_cache.configure(sources.source_hash())


def cached() -> bool:
    """Whether compiled code is kept for later runs (False where no cache folder is writable)."""
    return _cache.CACHED
