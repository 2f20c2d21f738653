"""A game's configuration (GameConfig): who sits where, the level, the strategy and its
parameters, the model it plays and the rules; checked when made, and described for results.

The run layer's plain Python, as are strategies.run.compiling and strategies.run.games: no compiled code,
so editing it recompiles nothing (simcore/sources.py's PLAIN).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kiai.simcore.components import Components, load_components
from kiai.simcore.config import ConfigError, TableFacts, check_table
from kiai.strategies import registry
from kiai.words import said_params
from kiai.strategies.nets import modelfile

OTHER_COMPONENTS = "model trained on other components"  # the mark of a result whose model was made for other data


@dataclass(frozen=True)
class GameConfig(TableFacts):
    """One configuration: who sits where, the level, the strategy and its parameters."""

    samurai: tuple[str, ...]
    difficulty: str = "normal"
    strategy: str = registry.DEFAULT
    params: dict = field(default_factory=dict)
    absent_tokens: str = "auto"  # on | off | auto (R-18: on with two samurai)
    components: Components | None = None
    first_seat: int | None = None  # None: drawn at random
    model: str | None = None  # the model file of `learned` (played, or a planner's base); None: the shipped one
    rules: dict = field(default_factory=dict)  # rule readings (simcore.readings); the rules' own by default
    strict: bool = False  # refuse a model made for other component data (else it plays, and results say so)

    def __post_init__(self):
        check_table(self)
        try:
            self.strategy_info.param_vector(self.params)
        except KeyError as e:
            raise ConfigError(e.args[0]) from None
        except ValueError as e:
            raise ConfigError(str(e)) from None
        if self.uses_model:
            try:
                model = self.load_model(self.components)
                if self.strict and self.other_components(model):
                    raise modelfile.other_data_error(model, self.components, load_components())
            except ValueError as e:
                raise ConfigError(str(e)) from None
        else:  # a command's --model applies to the configurations that play one (kiai.inputs.players.check_model)
            object.__setattr__(self, "model", None)

    @property
    def base_name(self) -> str:
        """The heuristic that answers the questions (a planner's base, else the strategy)."""
        return self.strategy_info.base(self.params)

    @property
    def model_owner(self) -> str:
        """The strategy whose model file --model names: a planner that plays a model of its own
        (judge's value of the table), else the base (selfplay's value, learned's networks)."""
        if self.strategy_info.planner and registry.hook_of(self.strategy, "load_model") is not None:
            return self.strategy
        return self.base_name

    @property
    def uses_model(self) -> bool:
        return registry.hook_of(self.model_owner, "load_model") is not None

    def load_model(self, components: Components | None = None, shipped: bool = False):
        """The model file the model's owner plays (self.model, else its shipped one; `shipped`: the
        shipped one), checked (with `components`, that its inputs hold their data); ValueError (one
        line) when it cannot be played. An owner whose shipped values come by family (selfplay,
        judge) gets the one of this table's team size and level: a house level's official one
        (family_level)."""
        load = registry.hook_of(self.model_owner, "load_model")
        path = None if shipped else self.model
        if registry.hook_of(self.model_owner, "BY_FAMILY", False):
            return load(path, components, table=(len(self.samurai), self.family_level))
        return load(path, components)

    def base_model(self, model=None):
        """The model of the base it plays over that its games read beside load_model()'s, or None:
        the strategy's own say (its `base_model` hook: selfplay over learned's answers reads
        learned's shipped model), or a planner's base that plays a model beside the planner's own
        (judge over learned: learned's shipped one). `model`: self.load_model(), when held."""
        if not self.uses_model:
            return None
        own = registry.hook_of(self.model_owner, "base_model")
        if own is not None:
            return own(self, model if model is not None else self.load_model())
        base = self.base_name
        if self.model_owner != base and registry.hook_of(base, "data_record") is not None:
            return GameConfig(self.samurai, self.difficulty, base, components=self.components).load_model()
        return None

    @property
    def family_level(self) -> str:
        """The official level whose models play this table: the level, or a house level's
        (simcore.components: its `like`, else the nearest official level)."""
        return self.components.family_level(self.difficulty)

    def other_components(self, model) -> bool:
        """Whether `model` was made for other component data than this table's."""
        return modelfile.other_components(model, self.components, load_components())

    @property
    def strategy_info(self) -> registry.Strategy:
        try:
            return registry.get(self.strategy)
        except KeyError as e:
            raise ConfigError(e.args[0]) from None

    def param_dict(self) -> dict:
        return self.strategy_info.param_dict(self.params)

    def played_params(self, model=None) -> dict:
        """The parameters as the games play them: param_dict, but where the strategy's model file
        sets some (selfplay's family values: their header's play), those unless given. `model`:
        self.load_model(), when the caller holds it."""
        played = registry.hook_of(self.strategy_info.name, "played")
        return played(self, model) if played is not None else self.param_dict()

    def describe(self) -> dict:
        """What a result needs to say about how it was made."""
        info = self.strategy_info
        m = self.load_model() if self.uses_model else None  # read once: the parameters and the model say it
        out = {
            "samurai": list(self.samurai),
            "difficulty": self.difficulty,
            "strategy": info.name,
            "honest": info.honest,
            "params": self.played_params(m),
            "absent_tokens": self.absent_on,
            "components": self.components.path,
            "components_sha256": self.components.sha256,
            "components_data_sha256": self.components.data_sha256,
            "rules": dict(self.rules),
        }
        if self.uses_model:
            from pathlib import Path

            shipped = self.load_model(shipped=True).path
            out["model"] = {"path": m.path, "sha256": m.sha256, "positions": m.header.get("positions"),
                            "date": m.header.get("date"),
                            "shipped": Path(m.path).resolve() == Path(shipped).resolve()}
            out["model"]["components_data_sha256"] = modelfile.made_for(m.header, self.components, load_components())
            if self.other_components(m):  # it plays, marked (--strict refuses it before any game)
                out["model"]["mark"] = OTHER_COMPONENTS
            if self.family_level != self.difficulty:
                out["model"]["family_level"] = self.family_level
            under = self.base_model(m)
            if under is not None:  # read beside it: the base it plays over (selfplay over learned's answers)
                out["model"]["base"] = {"path": under.path, "sha256": under.sha256}
            plays = registry.hook_of(self.model_owner, "plays")
            if plays is not None:  # how the model changes the play (selfplay: over whose answers)
                out["model"]["plays"] = plays(m)
            family_of = registry.hook_of(self.model_owner, "family_of")
            family = family_of(m) if family_of is not None else None
            if family is not None:  # a value learned for one family, which --model may play on another's tables
                out["model"]["family"] = family
                table = f"{self.n}@{self.difficulty}"
                if family != table:
                    out["model"]["note"] = f"the value of the family {family}, played on a table of {table}"
        out["played_as"] = self.played_as(m)
        return out

    def played_as(self, model=None) -> str:
        """What played, in one line: the strategy, its model's label (the strategy's `label` hook)
        and the parameters the user gave ("selfplay (family value 4 samurai normal, bb868f32, tuned
        play)"); the parameters as played are describe()'s `params`."""
        label = registry.hook_of(self.model_owner, "label") if self.uses_model else None
        bits = [label(self, model if model is not None else self.load_model())] if label is not None else []
        bits += [said_params(self.params)] if self.params else []
        return f"{self.strategy} ({', '.join(bits)})" if bits else self.strategy
