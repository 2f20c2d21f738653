"""kiai: a Monte Carlo difficulty analyser for the cooperative card game Samurai Spirit.

The Python API (docs/api.md) is the one the `kiai` command calls:

    import kiai
    result = kiai.simulate(["kyuzo", "kikuchiyo", "heihachi", "daisuke"], level="normal", games=10_000)
    result.win_rate, result.ci_low, result.ci_high
    table = kiai.sweep(levels=["easy", "normal"], sizes=[3], games=2_000)   # a pandas DataFrame

The engine, the strategies, the reports and the command sit in kiai.simcore, kiai.strategies,
kiai.reports and kiai.cli. Each name below is imported on first use, so `import kiai` is cheap.
"""

import os as _os

# The four packages keep their folders at the repository's top (simcore/, strategies/, reports/,
# cli/) and are installed as kiai.simcore and so on (pyproject.toml maps them). Run from a checkout
# that is not installed, the same names resolve through the checkout's top folder.
_top = _os.path.dirname(_os.path.dirname(_os.path.abspath(__file__)))
if not _os.path.isdir(_os.path.join(_os.path.dirname(__file__), "simcore")) and _os.path.isfile(
    _os.path.join(_top, "simcore", "__init__.py")
):
    __path__.append(_top)  # noqa: F821  (a package's own __path__)

