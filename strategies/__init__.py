"""Strategies: one file each, deciding from the public observation only (R-19).

Importing simcore first configures numba's cache before any strategy is compiled.
"""

import kiai.simcore  # noqa: F401  (configures numba's cache first)
