"""Names, descriptions and parameters of the strategies; the id is the dispatch branch."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

N_PARAMS = 12  # length of the parameter vector every strategy receives


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
    planner: int = 0  # strategies.planners id: picks each turn's action; a base heuristic does the rest
    absent_tokens: bool = True  # answers decision point 1 (section 13); False: never uses an absent token

    def base(self, overrides: dict[str, float] | None = None) -> "Strategy":
        """The heuristic a planner plays with between its planned actions (itself otherwise)."""
        if not self.planner:
            return self
        return get(PLANNER_BASES[int(self.param_vector(overrides)[1])])

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


def _risk_params(risk: float) -> tuple[Param, ...]:
    """The parameters of risk.wants_fight, first in the vector of every strategy that fights
    by it (`risk`, `keeper`); only the default threshold differs."""
    return (
        Param("risk", risk, 0.0, 1.0, False, "threshold on the chance of being overcome with the village intact"),
        Param("caution", 0.5, 0.0, 5.0, False, "how fast the threshold shrinks with the village's losses"),
        Param("late", 0.2, 0.0, 1.0, False, "added for the last cards of a round, or when it is the last one in"),
        Param("stay", 1.0, 0.0, 5.0, False, "weight of the penalty paid next turn for the card it keeps"),
    )


def _planning(base: int, value: int, margin: float) -> tuple[Param, ...]:
    """The planners' parameters after `samples`, in the order strategies/lookahead.py reads
    them; `base`, `value` and `margin` defaults differ: the honest lookahead plays best (of
    what was measured) over `keeper`, with the fitted chance to win, overriding `keeper` only
    when two standard errors sure; foresight over `counter` with the weights."""
    return (
        Param("base", base, 0, 4, True, "base heuristic: 0 counter, 1 kiai, 2 team, 3 risk, 4 keeper"),
        Param("horizon", 0, 0, 1, True, "rollouts run to 0: the end of the round (then value the village), 1: the end of the game"),
        Param("support", 1, 0, 1, True, "1: also try Support to each samurai still in"),
        Param("farm", 2.0, 0.0, 20.0, False, "end-of-round value of a farmstead (a barricade is 1)"),
        Param("family", 5.0, 0.0, 20.0, False, "end-of-round value of a family"),
        Param("wound", 1.0, 0.0, 10.0, False, "scale of the end-of-round cost of wounds (steeper near death)"),
        Param("scarce", 0.0, 0.0, 50.0, False, "barrier cost as the last farmstead, family or life comes near"),
        Param("value", value, 0, 1, True, "end-of-round value: 0 the weights above, 1 the fitted chance to win from there (strategies/village_fit.py)"),
        Param("margin", margin, 0.0, 5.0, False, "honest planner: override the base's own choice only when the best action beats it by this many standard errors (0: always take the best)"),
    )


# the lookahead's parameters and defaults, shared by `peek` so that the two differ only by the
# card peek sees
_LOOKAHEAD_PARAMS = (
    Param("samples", 16, 1, 64, True, "hidden orders sampled per candidate action"),
    *_planning(base=4, value=1, margin=2.0),
)

REGISTRY: tuple[Strategy, ...] = (
    Strategy(
        "reference",
        0,
        "The fully specified baseline of REFERENCE_STRATEGY.md: fight while the margin to the Kiai is at least T.",
        True,
        (Param("T", 3, 0, 20, True, "fight only while Kiai minus combat total is at least T"),),
        "strategies.reference",
        absent_tokens=False,  # REFERENCE_STRATEGY.md step 1: absent tokens are never used
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
        "counter",
        3,
        "Card counter: fights while the counted chance that the next card overcomes it stays below a threshold.",
        True,
        (
            Param("risk", 0.25, 0.0, 1.0, False, "base threshold: highest chance of being overcome by the next card it accepts"),
            Param("need", 0.15, 0.0, 1.0, False, "added to the threshold while it lacks a defence symbol"),
            Param("late", 0.15, 0.0, 1.0, False, "added when at most two cards per samurai in the round are left"),
            Param("last", 0.5, 0.0, 1.0, False, "added when it is the last samurai in the round"),
            Param("stay", 1.0, 0.0, 5.0, False, "weight of the last card's penalty, paid again every turn it stays in"),
        ),
        "strategies.counter",
    ),
    Strategy(
        "kiai",
        4,
        "Kiai seeker: values each fight by the odds of landing exactly on the Kiai, defending or fitting, against being overcome.",
        True,
        (
            Param("bonus", 3.0, 0.0, 10.0, False, "what landing exactly on the Kiai is worth (in barricades)"),
            Param("over", 3.0, 0.0, 10.0, False, "what being overcome costs (in barricades)"),
            Param("edge", 0.0, -3.0, 3.0, False, "fights while the fight's value is at least this"),
            Param("stay", 1.0, 0.0, 5.0, False, "weight of the penalty paid next turn for the card it keeps"),
        ),
        "strategies.kiai_seeker",
    ),
    Strategy(
        "team",
        5,
        "Team player: fights like the counter, but lends its talent (Support) and aims gives and Kiai effects at the samurai in most danger.",
        True,
        (
            Param("risk", 0.3, 0.0, 1.0, False, "highest counted chance of being overcome by the next card it accepts"),
            Param("need", 0.2, 0.0, 1.0, False, "added to that threshold while it lacks a defence symbol"),
            Param("help", 1.0, 0.0, 5.0, False, "how useful a loan of its talent must be to Support instead of passing"),
            Param("team", 1.2, 0.0, 3.0, False, "weight of a teammate's gain against its own"),
            Param("stay", 1.0, 0.0, 5.0, False, "weight of the penalty paid next turn for the card it keeps"),
        ),
        "strategies.team",
    ),
    Strategy(
        "risk",
        6,
        "Risk manager: its risk threshold shrinks as barricades, farmsteads and families fall; no risk when a wound or an overcome could end the game.",
        True,
        _risk_params(risk=0.45),
        "strategies.risk",
    ),
    Strategy(
        "keeper",
        7,
        "Slot keeper: fights like the risk manager, but keeps its defence slots for cards with dear penalties and confronts harmless ones that cover its last card.",
        True,
        (
            *_risk_params(risk=0.8),
            Param("keep", 1.0, 0.0, 5.0, False, "weight of a defence slot kept open for a card with a dearer penalty"),
            Param("capacity", 0.15, 0.0, 2.0, False, "what a point of margin under the Kiai is worth (in barricades)"),
        ),
        "strategies.keeper",
    ),
    Strategy(
        "lookahead",
        -1,
        "Before each turn, samples hidden card orders consistent with what is public and plays every action forward with a base heuristic; takes the best.",
        True,
        _LOOKAHEAD_PARAMS,
        "strategies.lookahead",
        planner=1,
    ),
    Strategy(
        "foresight",
        -1,
        "CHEATING upper bound: the lookahead without sampling; its rollouts see the true stacks and the game's future shuffles.",
        False,
        (Param("samples", 1, 1, 1, True, "always 1: the true hidden state is the only sample"), *_planning(base=0, value=0, margin=0.0)),
        "strategies.lookahead",
        planner=2,
    ),
    Strategy(
        "peek",
        -1,
        "CHEATING yardstick: the lookahead, but every sample keeps the true next raider card on top; what seeing one card ahead is worth.",
        False,
        _LOOKAHEAD_PARAMS,  # the same parameters: peek measures the one card it sees
        "strategies.lookahead",
        planner=3,
    ),
)

DEFAULT = "reference"  # what every command plays when no strategy is named

PLANNER_BASES = ("counter", "kiai", "team", "risk", "keeper")  # base index -> heuristic name


def names() -> list[str]:
    return [s.name for s in REGISTRY]


def get(name: str) -> Strategy:
    for s in REGISTRY:
        if s.name == name:
            return s
    raise KeyError(f"unknown strategy '{name}' (known: {', '.join(names())})")
