"""What a sweep plays: its configurations (the plan: line-ups, seatings, strategies and their
parameters, rule readings, level by level) and how many games each plays (Request: a fixed number of
games, a target precision, or a race). reports.playing.sweep plays them and keeps the table.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from kiai.reports.playing.stopping import PRECISION_MAX_GAMES, PRECISION_START, Fixed, Precision
from kiai.reports.playing.tables import SweepError, identity_key
from kiai.simcore.seatings import all_lineups, sample_lineups, seatings_from

# ------------------------------------------------------------------------------ requests


@dataclass(frozen=True)
class Request:
    """How many games each configuration plays: `games`; or batches doubling from `start`
    until the 95% interval's half-width is at most `precision` (or `max_games` are played); or
    `race`, a preset's name, whose groups and rules (reports.playing.presets.preset_groups) decide."""

    games: int | None = None
    precision: float | None = None
    start: int = PRECISION_START
    max_games: int = PRECISION_MAX_GAMES
    race: str | None = None

    def __post_init__(self):
        if sum(x is not None for x in (self.games, self.precision, self.race)) != 1:
            raise SweepError("give either a number of games or a precision, not both")
        if self.games is not None and self.games < 1:
            raise SweepError(f"--games must be at least 1, got {self.games}")
        if self.precision is not None:
            if not (isinstance(self.precision, (int, float)) and 0 < self.precision <= 0.5):
                raise SweepError(f"--precision must be a half-width in (0, 0.5], got {self.precision}")
            if self.start < 1:
                raise SweepError(f"the first batch must be at least 1 game, got {self.start}")
            if self.max_games < self.start:
                raise SweepError(f"--max-games must be at least {self.start:,}, got {self.max_games:,}")

    def describe(self) -> dict:
        if self.games is not None:
            return {"games": self.games}
        if self.race is not None:
            return {"race": self.race}
        return {"precision": self.precision, "start": self.start, "max_games": self.max_games}

    def rule(self):
        """The rule of each configuration alone (a fixed or precision request)."""
        if self.games is not None:
            return Fixed.of(self.games)
        if self.precision is not None:
            return Precision(min(self.start, self.max_games), 0, self.max_games, h=self.precision)
        raise SweepError(f"a race ({self.race}) takes its groups from its preset")


def expected_games(plan_size: int, request: Request) -> int | None:
    """Total games a fixed-games sweep plays (None for --precision: not known in advance)."""
    return plan_size * request.games if request.games is not None else None


# ---------------------------------------------------------------------------- plans


def expand_lineups(counts: Sequence[int], mode: str, k: int | None, seed: int) -> list[tuple[str, ...]]:
    """Line-ups for `--lineups all` or `--lineups sample:K`, per count, canonical order."""
    out: list[tuple[str, ...]] = []
    for n in counts:
        out += all_lineups(n) if mode == "all" else sample_lineups(n, int(k), seed)
    return out


def expand_seatings(lineups: Iterable[Sequence[str]], mode: str) -> list[tuple[str, ...]]:
    """`given`: each line-up in its own seat order; `all`: every distinct seating of it
    ((n-1)! of them: rotations are the same seating, mirror images are not, R-2), each
    starting with the line-up's first samurai (seatings_from)."""
    out: list[tuple[str, ...]] = []
    for lineup in lineups:
        out += [tuple(lineup)] if mode == "given" else seatings_from(lineup)
    return out


def strategy_variants(strategies: Sequence[str], params: dict[str, list[float]]) -> list[tuple[str, dict]]:
    """(strategy, params) pairs: each strategy with every combination of the values given for
    the parameters it has. A parameter no chosen strategy has is an error."""
    from kiai.strategies import registry

    infos = []
    for name in strategies:
        try:
            infos.append(registry.get(name))
        except KeyError as e:
            raise SweepError(e.args[0]) from None
    for pname in params:
        if not any(pname in {p.name for p in info.params} for info in infos):
            raise SweepError(f"no chosen strategy has a parameter '{pname}' "
                             f"(strategies: {', '.join(strategies)})")  # fmt: skip
    variants = []
    for info in infos:
        own = [(p.name, params[p.name]) for p in info.params if p.name in params]
        combos = [{}]
        for pname, values in own:
            combos = [{**c, pname: v} for c in combos for v in values]
        variants += [(info.name, c) for c in combos]
    return variants


def rule_variants(rules: dict[str, list[str]] | None) -> list[dict[str, str]]:
    """The rule readings of a grid: every combination of the values given per reading
    ({name: [values]}, as kiai.inputs.configs.parse_rules(axis=True) returns), in the order given;
    [{}] (the rules' own readings) when none is given."""
    combos: list[dict[str, str]] = [{}]
    for name, values in (rules or {}).items():
        combos = [{**c, name: v} for c in combos for v in values]
    return combos


def build_plan(levels: Sequence[str], seatings: Sequence[Sequence[str]], variants: Sequence[tuple[str, dict]],
               absent_tokens: str = "auto", components=None, model: str | None = None,
               rules: Sequence[dict] | None = None) -> list:
    """The configurations of a grid, level by level, seating by seating, strategy by strategy,
    rule readings by rule readings (`rules`: a list of {name: value}, rule_variants; default
    docs/rules.md's); a configuration listed twice is played once."""
    from kiai.simcore.config import ConfigError
    from kiai.strategies.run.config import GameConfig

    plan, seen = [], set()
    for level in levels:
        for seating in seatings:
            for strategy, params in variants:
                for readings in rules or [{}]:
                    try:
                        config = GameConfig(samurai=tuple(seating), difficulty=level, strategy=strategy,
                                            params=dict(params), absent_tokens=absent_tokens,
                                            components=components, model=model, rules=dict(readings))  # fmt: skip
                    except ConfigError as e:
                        raise SweepError(str(e)) from None
                    ident = identity_key(config)
                    if ident not in seen:
                        seen.add(ident)
                        plan.append(config)
    return plan


def with_base_params(plan: Sequence, strategy: str, base: dict) -> list:
    """The plan with `base` (e.g. a --params-file's parameters) under the parameters of every
    configuration of `strategy`: values the configuration sets itself win. Other strategies'
    configurations are unchanged."""
    import dataclasses

    from kiai.simcore.config import ConfigError

    out = []
    for config in plan:
        if config.strategy == strategy:
            try:
                config = dataclasses.replace(config, params={**base, **config.params})
            except ConfigError as e:
                raise SweepError(str(e)) from None
        out.append(config)
    return out
