"""What a strategy module declares: one `STRATEGY = Strategy(...)` with its name, description
and parameters, and the hooks of StrategyModule it needs; the registry (strategies.registry)
collects the modules, and the run layer (strategies.run.compiling, strategies.run.games) reaches the hooks through hook() only.

A heuristic module defines `decide(prm, pub, mem, q, seat, a, b, legal)`, an njit function
that answers every decision point of docs/rules.md section 13 (see simcore.questions and
simcore.gateway); a planner module defines `plan(pub, hid, book, cfg, mem)` instead and names
the heuristic that plays the rest (its `base` parameter). The run layer compiles each on demand
and hands the engine its address.

Parameters are read by name: `params = STRATEGY.reader()` at module level gives an intrinsic
that turns the `prm` address into a record whose fields are the declared parameters, so the
code reads `p = params(prm); p.risk` rather than a position in a vector. A strategy whose
record also carries data (a model) declares its fields (`data`) and a function
`data_record(config)` that fills them; the run layer hands the engine that record's address.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Protocol

import numba
import numpy as np

from kiai.simcore.state import N_PARAMS, record_view

DATA_ALIGN = 64  # bytes: a cache line
# whose answers a value player (selfplay, judge) leaves only for a clearly better one, by its `base`
VALUE_BASES = ("keeper", "learned")
# the questions a value player weighs (its `weigh`), bit k for WEIGHED[k]: the turn's action, a card
# in hand, Kikuchiyo's second fight; the others get its base's answers
WEIGHED = ("action", "cards", "second-fight")


@dataclass(frozen=True)
class Param:
    name: str
    default: float
    low: float
    high: float
    integer: bool
    help: str
    # an expert's knob: `kiai strategies` lists it only with --all (the others are what a user tunes)
    expert: bool = False
    # a set of named bits (choices[k] is bit k): given as names joined by '+' ("action+cards") or as
    # their sum, and said as names
    choices: tuple[str, ...] = ()

    def names_of(self, value) -> str:
        """A set-of-names parameter's value in words: 'action+cards'."""
        return "+".join(c for k, c in enumerate(self.choices) if int(value) >> k & 1)

    def value_of(self, text: str, strategy: str) -> int:
        """The sum of the bits `text` names ('action+cards'); ValueError (one line) for another word."""
        words = [w.strip() for w in text.split("+")]
        unknown = [w for w in words if w not in self.choices]
        if unknown or not words:
            raise ValueError(f"parameter {self.name} of '{strategy}' takes {', '.join(self.choices)} joined by '+' "
                             f"(e.g. {'+'.join(self.choices[:2])}), got {text!r}")
        return sum(1 << self.choices.index(w) for w in dict.fromkeys(words))


def for_experts(params) -> tuple[Param, ...]:
    """params, each marked an expert's knob (a strategy that plays over another's parameters)."""
    return tuple(replace(p, expert=True) for p in params)


@dataclass(frozen=True)
class Strategy:
    name: str
    description: str
    params: tuple[Param, ...] = ()
    honest: bool = True  # decides from the public table only
    counts: bool = False  # reads the unseen-card bins (R-19a): the engine keeps them only then
    absent_tokens: bool = True  # answers decision point 1 (section 13); False: never uses one
    planner: bool = False  # a planner: plan() before every turn, its `base` heuristic decides the rest
    bases: tuple[str, ...] = ()  # a planner's base heuristics, by the value of its `base` parameter
    data: tuple = ()  # fields of data the strategy reads after its parameters (a model's weights)

    def __post_init__(self):
        if len(self.params) > N_PARAMS:
            raise ValueError(f"strategy '{self.name}' declares more than {N_PARAMS} parameters")

    @cached_property
    def dtype(self) -> np.dtype:
        """The record the parameters are read as: one float64 field per parameter, in order, then
        the strategy's data fields (strategies.learned: its model), each at a multiple of
        DATA_ALIGN bytes (in a record that starts at one: new_record), so that a row of weights
        is loaded without crossing a cache line."""
        names = [p.name for p in self.params]
        formats: list = [np.float64] * len(names)
        offsets = [8 * i for i in range(len(names))]
        at = 8 * len(names)
        for name, *form in self.data:
            field = np.dtype(form[0] if len(form) == 1 else tuple(form))
            at = -(-at // DATA_ALIGN) * DATA_ALIGN
            names.append(name)
            formats.append(field)
            offsets.append(at)
            at += field.itemsize
        return np.dtype({"names": names, "formats": formats, "offsets": offsets, "itemsize": at})

    def new_record(self) -> np.ndarray:
        """One zeroed record of dtype, starting at a multiple of DATA_ALIGN bytes."""
        raw = np.zeros(self.dtype.itemsize + DATA_ALIGN, np.uint8)
        skip = -raw.ctypes.data % DATA_ALIGN
        return raw[skip:skip + self.dtype.itemsize].view(self.dtype)

    def reader(self):
        """An intrinsic reading the `prm` address as this strategy's parameter record."""
        return record_view(numba.from_dtype(self.dtype))

    def index(self, name: str) -> int:
        return [p.name for p in self.params].index(name)

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
            if isinstance(v, str) and p.choices:
                v = p.value_of(v, self.name)
            if not isinstance(v, (int, float)) or isinstance(v, bool) or not math.isfinite(v):
                raise ValueError(f"parameter {p.name} of '{self.name}' must be a number, got {v!r}")
            if p.integer and float(v) != int(v):
                raise ValueError(f"parameter {p.name} of '{self.name}' must be an integer, got {v}")
            if not p.low <= v <= p.high:
                raise ValueError(f"parameter {p.name} of '{self.name}' must be in [{p.low:g}, {p.high:g}], got {v:g}")
            vec[i] = v
        return vec

    def param_dict(self, overrides: dict[str, float] | None = None) -> dict[str, float]:
        """The parameters as set (defaults with overrides), each as a number, a set of names in words."""
        vec = self.param_vector(overrides)
        return {p.name: (p.names_of(vec[i]) if p.choices else int(vec[i]) if p.integer else float(vec[i]))
                for i, p in enumerate(self.params)}

    def base(self, overrides: dict[str, float] | None = None) -> str:
        """The heuristic a planner plays with between its planned actions (itself otherwise)."""
        if not self.planner:
            return self.name
        return self.bases[int(self.param_vector(overrides)[self.index("base")])]


class StrategyModule(Protocol):
    """Every hook a strategy module may define, with its meaning. STRATEGY is required, and one of
    decide (a heuristic) or plan (a planner); the rest are optional, and hook() says which a module
    has. Nothing outside the run layer and the report looks a hook up, and they do it by hook().
    """

    STRATEGY: Strategy

    def decide(self, prm, pub, mem, q, seat, a, b, legal) -> int:
        """njit: the answer to question q (a bit of `legal`), from the public table only (R-19)."""

    def plan(self, pub, hid, book, cfg, mem) -> int:
        """njit, a planner's: called before turns and questions (hooks()); writes mem.answer."""

    def hooks(self, prm: dict, collects: int = 0) -> tuple[int, int]:
        """A planner's (plan_turns, plan_questions): whether plan() runs at each turn's start, and
        the mask of the questions (simcore.questions.Q_*) it is asked; `collects`: what a training
        run collects from the games (strategies.helpers.collect), 0 when it only plays them."""

    VARIANT: int  # a planner's rollout variant: 0 honest, others cheat (simcore.gateway)

    def data_record(self, config):
        """A strategy with data (a model's weights): its parameter record with the data, whose
        address the engine reads as `prm`."""

    def plan_record(self, config):
        """A planner with data (judge's value): the record plan() reads as cfg.pdata."""

    def load_model(self, path=None, components=None, table=None):
        """The model file the strategy plays: path's, else the shipped one (of the table's
        family where BY_FAMILY: team size and official level), checked, with `components`, that
        its inputs hold their data (ValueError with one line)."""

    BY_FAMILY: bool  # its shipped models come one per family (team size, level): load_model takes `table`

    def played(self, config, model=None) -> dict:
        """The parameters as its games play them, where a model file sets some."""

    def plays(self, model) -> str:
        """What the model changes in the play, in words, for a result's description."""

    def base_model(self, config, model=None):
        """The model of the base it plays over that its record reads beside its own (selfplay
        over learned's answers: learned's shipped one), or None; `model`: config.load_model()."""

    def family_of(self, model) -> str | None:
        """The family ("K@level") a model file was made for, where it was made for one."""

    def label(self, config, model) -> str:
        """What plays, in a few words for a result's first line: the model and how it plays
        ("family value 4 samurai normal, bb868f32, tuned play")."""


HOOKS = ("decide", "plan", "hooks", "VARIANT", "data_record", "plan_record", "load_model", "BY_FAMILY",
         "played", "plays", "base_model", "family_of", "label")


def hook(module, name: str, default=None):
    """Hook `name` (one of StrategyModule's) of a strategy module, or default where it has none."""
    if name not in HOOKS:
        raise AttributeError(f"no strategy hook '{name}' (hooks: {', '.join(HOOKS)})")
    return getattr(module, name, default)
