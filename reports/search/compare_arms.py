"""The arms of `kiai compare` (reports.search.compare plays them): an arm is a label and a
GameConfig, and the arms of one comparison differ in one respect: the seatings of a line-up
(seating_arms), strategies on one seating (strategy_arms), the values of one rule reading
(rule_arms) or component files (component_arms)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kiai.simcore.seatings import seatings_from


@dataclass(frozen=True)
class Arm:
    label: str
    config: object  # strategies.run.config.GameConfig


def seating_arms(lineup: Sequence[str], difficulty: str, strategy: str, params: dict, absent_tokens: str = "auto",
                 components=None, model: str | None = None, rules: dict | None = None) -> list[Arm]:
    """One arm per distinct seating of the line-up ((n-1)! of them), each starting with the
    line-up's first samurai, so the seating as given is the first arm and plays exactly the
    games `kiai simulate` plays for it. `rules`: the rule readings every arm plays."""
    from kiai.strategies.run.config import GameConfig

    arms = []
    for seating in seatings_from(lineup):
        config = GameConfig(samurai=seating, difficulty=difficulty, strategy=strategy, params=dict(params),
                            absent_tokens=absent_tokens, components=components, model=model,
                            rules=dict(rules or {}))  # fmt: skip
        arms.append(Arm(",".join(seating), config))
    return arms


def strategy_arms(seating: Sequence[str], difficulty: str, strategies: Sequence[tuple], absent_tokens: str = "auto",
                  components=None, model: str | None = None, rules: dict | None = None) -> list[Arm]:
    """One arm per strategy, all on the one seating given (seat 0 first): (name, overrides), or
    (label, name, overrides) where one strategy is compared with itself under other parameters
    (kiai.inputs.players.parse_strategy_params: 'judge[samples=8]'). Labels are distinct. `rules`: the
    rule readings every arm plays."""
    from kiai.simcore.config import ConfigError
    from kiai.strategies.run.config import GameConfig

    given = [s if len(s) == 3 else (s[0], s[0], s[1]) for s in strategies]
    labels = [label for label, _, _ in given]
    twice = sorted({label for label in labels if labels.count(label) > 1})
    if twice:
        raise ConfigError(f"strategy '{twice[0]}' is listed twice")
    return [Arm(label, GameConfig(samurai=tuple(seating), difficulty=difficulty, strategy=name, params=dict(params),
                                  absent_tokens=absent_tokens, components=components, model=model,
                                  rules=dict(rules or {})))
            for label, name, params in given]  # fmt: skip


def rule_arms(seating: Sequence[str], difficulty: str, strategy: str, params: dict, reading: str,
              values: Sequence[str], absent_tokens: str = "auto", components=None, model: str | None = None,
              rules: dict | None = None) -> list[Arm]:
    """One arm per value of one rule reading (simcore.readings), all with the one seating given
    (seat 0 first) and strategy, so every arm plays the same deals and the arms differ in that
    reading only; `rules` are the other readings, the same in every arm. The label is
    'NAME=VALUE' (e.g. heal=wounded), so a value may appear once."""
    from kiai.simcore.config import ConfigError
    from kiai.strategies.run.config import GameConfig

    twice = sorted({v for v in values if list(values).count(v) > 1})
    if twice:
        raise ConfigError(f"rule {reading}: value '{twice[0]}' is listed twice")
    if reading in (rules or {}):
        raise ConfigError(f"rule {reading} is both fixed and compared")
    return [Arm(f"{reading}={value}", GameConfig(samurai=tuple(seating), difficulty=difficulty, strategy=strategy,
                                                 params=dict(params), absent_tokens=absent_tokens,
                                                 components=components, model=model,
                                                 rules={**(rules or {}), reading: value}))
            for value in values]  # fmt: skip


def component_arms(seating: Sequence[str], difficulty: str, strategy: str, params: dict, files: Sequence,
                   absent_tokens: str = "auto", model: str | None = None, rules: dict | None = None) -> list[Arm]:
    """One arm per component file (`files`: (label, Components, level) triples, each label once;
    a level of None: `difficulty`), all with the one seating given (seat 0 first), strategy and
    rule readings, so every arm plays the same game indices of a seed and the arms differ in the
    component data (and the level a file names: a house level against the printed one) only."""
    from kiai.simcore.config import ConfigError
    from kiai.strategies.run.config import GameConfig

    labels = [label for label, _, _ in files]
    twice = sorted({label for label in labels if labels.count(label) > 1})
    if twice:
        raise ConfigError(f"component file '{twice[0]}' is listed twice")
    return [Arm(label, GameConfig(samurai=tuple(seating), difficulty=level or difficulty, strategy=strategy,
                                  params=dict(params), absent_tokens=absent_tokens, components=comp, model=model,
                                  rules=dict(rules or {})))
            for label, comp, level in files]  # fmt: skip
