"""The registered strategies: one line per strategy module. Adding a strategy means writing its
module (a STRATEGY declaration and a decide or plan function, strategies.base) and adding it
here; every test that runs "every strategy" takes the list from REGISTRY.

A module is imported when its strategy is first asked for (get, module), not with the registry:
a command that plays one strategy loads that one (and what it plays over) only. REGISTRY and
MODULES, which name them all, import them all on first use.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from kiai.strategies.base import Param, Strategy, hook

# strategy name -> its module in kiai.strategies, in the order every list shows them
_MODULE_OF = {
    "reference": "reference",
    "random": "random_play",
    "counter": "counter",
    "kiai": "kiai_seeker",
    "team": "team",
    "risk": "risk",
    "keeper": "keeper",
    "learned": "learned",
    "selfplay": "selfplay",
    "lookahead": "lookahead",
    "foresight": "foresight",
    "peek": "peek",
    "judge": "judge",
}
DEFAULT = "selfplay"  # what every command plays when no strategy is named
# kiai's strongest player of each family of tables (team size; the same at every level today):
# (strategy, the parameters that differ from its defaults). `--strategy strongest` plays it, and
# the report names it beside DEFAULT. `judge` with 2 to 4 samurai; with 5 and more, where judge's
# value of the table knows less, the lookahead over `learned` that weighs every question, keeper
# playing its rollouts and its answers racing: as strong as with learned's own rollouts, at
# several times the speed (docs/strategies.md; CHANGELOG.md has the measurements)
STRONGEST_NAME = "strongest"
JUDGE = ("judge", {})
RACED_LOOKAHEAD = ("lookahead", {"base": 5, "decisions": 1, "rollouts": 1, "race": 0.2, "samples": 24})
STRONGEST = {2: JUDGE, 3: JUDGE, 4: JUDGE, 5: RACED_LOOKAHEAD, 6: RACED_LOOKAHEAD, 7: RACED_LOOKAHEAD}


def strongest(n: int, level: str) -> tuple[str, dict]:
    """The strongest player of the family (n samurai, `level`): (strategy, parameters)."""
    strategy, params = STRONGEST[int(n)]
    return strategy, dict(params)


def names() -> list[str]:
    return list(_MODULE_OF)


def module(name: str) -> ModuleType:
    """The module that declares strategy `name` (its decide or plan), imported on first use."""
    if name not in _MODULE_OF:
        raise KeyError(f"unknown strategy '{name}' (known: {', '.join(names())}; and {STRONGEST_NAME}, the strongest "
                       f"of the table's team size, where a command plays one table)")
    return importlib.import_module(f"kiai.strategies.{_MODULE_OF[name]}")


def get(name: str) -> Strategy:
    return module(name).STRATEGY


def hook_of(name: str, hook_name: str, default=None):
    """Hook `hook_name` of strategy `name` (strategies.base.StrategyModule), or default."""
    return hook(module(name), hook_name, default)


def __getattr__(attr: str):
    """MODULES and REGISTRY, every strategy's module and declaration: imported when first asked for."""
    if attr == "MODULES":
        return tuple(module(n) for n in names())
    if attr == "REGISTRY":
        return tuple(get(n) for n in names())
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")


__all__ = ["DEFAULT", "MODULES", "Param", "REGISTRY", "STRONGEST", "STRONGEST_NAME", "Strategy", "get", "hook_of",
           "module", "names", "strongest"]
