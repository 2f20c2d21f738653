"""The registered strategies: one line per strategy module. Adding a strategy means writing its
module (a STRATEGY declaration and a decide or plan function, strategies.base) and adding it
here; every test that runs "every strategy" takes the list from REGISTRY."""

from __future__ import annotations

from types import ModuleType

from kiai.strategies import counter, foresight, judge, keeper, kiai_seeker, learned, lookahead, peek, random_play, reference, risk, selfplay, team
from kiai.strategies.base import Param, Strategy, hook

MODULES: tuple[ModuleType, ...] = (
    reference,
    random_play,
    counter,
    kiai_seeker,
    team,
    risk,
    keeper,
    learned,
    selfplay,
    lookahead,
    foresight,
    peek,
    judge,
)

REGISTRY: tuple[Strategy, ...] = tuple(m.STRATEGY for m in MODULES)
DEFAULT = "selfplay"  # what every command plays when no strategy is named


def names() -> list[str]:
    return [s.name for s in REGISTRY]


def get(name: str) -> Strategy:
    for s in REGISTRY:
        if s.name == name:
            return s
    raise KeyError(f"unknown strategy '{name}' (known: {', '.join(names())})")


def module(name: str) -> ModuleType:
    """The module that declares strategy `name` (its decide or plan)."""
    get(name)
    return MODULES[names().index(name)]


def hook_of(name: str, hook_name: str, default=None):
    """Hook `hook_name` of strategy `name` (strategies.base.StrategyModule), or default."""
    return hook(module(name), hook_name, default)


__all__ = ["DEFAULT", "MODULES", "Param", "REGISTRY", "Strategy", "get", "hook_of", "module", "names"]
