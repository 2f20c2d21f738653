"""Names, descriptions and parameters of the strategies; the id is the dispatch branch."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

N_PARAMS = 8  # length of the parameter vector every strategy receives


@dataclass(frozen=True)
class Param:
    name: str
    default: float
    low: float
    high: float
    integer: bool
    help: str


@dataclass(frozen=True)
class Strategy:
    name: str
    sid: int
    description: str
    honest: bool
    params: tuple[Param, ...] = ()
    module: str = ""

    def param_vector(self, overrides: dict[str, float] | None = None) -> np.ndarray:
        """Defaults with overrides applied, validated; raises ValueError with one line."""
        overrides = dict(overrides or {})
        vec = np.zeros(N_PARAMS, dtype=np.float64)
        known = {p.name: p for p in self.params}
        for key in overrides:
            if key not in known:
                names = ", ".join(known) or "none"
                raise ValueError(f"strategy '{self.name}' has no parameter '{key}' (parameters: {names})")
        for i, p in enumerate(self.params):
            v = overrides.get(p.name, p.default)
            if not isinstance(v, (int, float)) or isinstance(v, bool) or not math.isfinite(v):
                raise ValueError(f"parameter {p.name} of '{self.name}' must be a number, got {v!r}")
            if p.integer and float(v) != int(v):
                raise ValueError(f"parameter {p.name} of '{self.name}' must be an integer, got {v}")
            if not p.low <= v <= p.high:
                raise ValueError(f"parameter {p.name} of '{self.name}' must be in [{p.low:g}, {p.high:g}], got {v:g}")
            vec[i] = v
        return vec

    def param_dict(self, overrides: dict[str, float] | None = None) -> dict[str, float]:
        vec = self.param_vector(overrides)
        return {p.name: (int(vec[i]) if p.integer else float(vec[i])) for i, p in enumerate(self.params)}


REGISTRY: tuple[Strategy, ...] = (
    Strategy(
        "reference",
        0,
        "The fully specified baseline of REFERENCE_STRATEGY.md: fight while the margin to the Kiai is at least T.",
        True,
        (Param("T", 3, 0, 20, True, "fight only while Kiai minus combat total is at least T"),),
        "strategies.reference",
    ),
    Strategy(
        "random",
        1,
        "Uniformly random among the legal choices at every decision point (for fuzzing).",
        True,
        (),
        "strategies.random_play",
    ),
    Strategy(
        "foresight",
        2,
        "CHEATING upper bound: plays like reference but sees the hidden raider stack and fights only when the next card is safe.",
        False,
        (Param("T", 3, 0, 20, True, "as reference's T, for the decisions it does not cheat on"),),
        "strategies.foresight",
    ),
)


def names() -> list[str]:
    return [s.name for s in REGISTRY]


def get(name: str) -> Strategy:
    for s in REGISTRY:
        if s.name == name:
            return s
    raise KeyError(f"unknown strategy '{name}' (known: {', '.join(names())})")
