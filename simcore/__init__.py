"""simcore: the Samurai Spirit rules engine (numba).

Importing the package points numba's cache at a directory keyed by the engine's source
(see _cache). The heavy modules load lazily through simcore.api.
"""

from simcore import _cache  # noqa: F401  (must precede every jitted module)

__all__ = ["_cache"]
