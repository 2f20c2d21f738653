"""Strategies: one file each, deciding from the public observation only (R-19).

Importing simcore first configures numba's cache before any strategy is compiled.
"""

import simcore  # noqa: F401
