"""kiai: a Monte Carlo difficulty analyser for the cooperative card game Samurai Spirit.

The Python API (docs/api.md) is the one the `kiai` command calls:

    import kiai
    result = kiai.simulate(["kyuzo", "kikuchiyo", "heihachi", "daisuke"], level="normal", games=10_000)
    result.win_rate, result.ci_low, result.ci_high
    table = kiai.sweep(levels=["easy", "normal"], players=[3], games=2_000)   # a pandas DataFrame
    kiai.compare("kyuzo,kikuchiyo,heihachi", games=5_000).to_frame()
    kiai.strategies()                                                         # the default is marked

Bad input raises kiai.KiaiError (a ValueError) with the command's one-line message.

The engine, the strategies, the reports and the command sit in kiai.simcore, kiai.strategies,
kiai.reports and kiai.cli. Each name below is imported on first use, so `import kiai` is cheap.
"""

import importlib as _importlib
import os as _os
import sys as _sys
import types as _types

# The four packages keep their folders at the repository's top (simcore/, strategies/, reports/,
# cli/) and are installed as kiai.simcore and so on (pyproject.toml maps them). Run from a checkout
# that is not installed, the same names resolve through the checkout's top folder.
_top = _os.path.dirname(_os.path.dirname(_os.path.abspath(__file__)))
if not _os.path.isdir(_os.path.join(_os.path.dirname(__file__), "simcore")) and _os.path.isfile(
    _os.path.join(_top, "simcore", "__init__.py")
):
    __path__.append(_top)  # noqa: F821  (a package's own __path__)

# name -> the module that defines it: the API's functions, and the results its calls return
_EXPORTS = {
    "simulate": "kiai.api",
    "sweep": "kiai.api",
    "compare": "kiai.api",
    "record": "kiai.api",
    "records": "kiai.api",
    "replay": "kiai.api",
    "balance": "kiai.levels",
    "KiaiError": "kiai.errors",
    "Simulation": "kiai.reports.playing.simulation",
    "Comparison": "kiai.reports.search.compare",
    "Replay": "kiai.reports.records.run",
    "Balance": "kiai.levels",
    "Progress": "kiai.progress",
}
__all__ = [*_EXPORTS, "strategies"]
_PLAYS = ("simulate", "sweep", "compare", "record", "records", "replay", "balance")  # the API's functions that play


class _StrategiesPackage(_types.ModuleType):
    """The package kiai.strategies (the players), also callable: kiai.strategies() lists them
    (kiai.about.strategies). One name serves both, since the package is an attribute of kiai as
    soon as anything imports it."""

    def __call__(self) -> list:
        from kiai.about import strategies

        return strategies()


class _Kiai(_types.ModuleType):
    """This package's module: it makes its subpackage `strategies` callable when the import system
    sets it as an attribute here (after its first import)."""

    def __setattr__(self, name, value):
        if name == "strategies" and type(value) is _types.ModuleType:
            value.__class__ = _StrategiesPackage
        super().__setattr__(name, value)


_sys.modules[__name__].__class__ = _Kiai


from kiai import environment as _environment  # noqa: E402  (NUMBA_NUM_THREADS, before numba is imported)


def __getattr__(name: str):
    if _environment.PROBLEM is not None and name in _PLAYS:
        from kiai.errors import KiaiError

        raise KiaiError(_environment.PROBLEM)
    if _environment.NOTE is not None:
        import warnings

        warnings.warn(_environment.NOTE.removeprefix("note: "), stacklevel=2)
        _environment.NOTE = None
    if name == "strategies":
        return _importlib.import_module("kiai.strategies")
    if name in _EXPORTS:
        value = getattr(_importlib.import_module(_EXPORTS[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'kiai' has no attribute {name!r}")


def __dir__() -> list:
    return sorted(set(globals()) | set(__all__))
