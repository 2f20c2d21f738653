"""simcore: the Samurai Spirit rules engine (numba). It imports nothing from strategies: the run
layer (strategies.run) hands it a strategy by the address of its compiled decide().

Importing the package points numba's cache at a directory keyed by the engine's source
(see _cache).
"""

from kiai.simcore import _cache  # noqa: F401  (must precede every jitted module)

__all__ = ["_cache"]
