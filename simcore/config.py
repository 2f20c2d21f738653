"""The table a game is played on, and the configuration record the kernel reads.

A Table says who sits where, the level, the absent-token variant, the components and the first
seat, validated with one-line errors. `configure` builds the kernel's CFG record from it, every
field by name, once; the run layer (strategies.run.games) then names the strategy and the run's flags
in the same record.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from kiai.simcore import state
from kiai.simcore.codes import CARD_CAP, LEVEL_PLUSES, SAMURAI
from kiai.simcore.components import Components, load_components
from kiai.simcore.readings import ReadingError, check_rules, flags


class ConfigError(ValueError):
    """A bad configuration; the message is one line, fit for the command line."""


class TableFacts:
    """What follows from a table's fields (shared by Table and the run layer's GameConfig)."""

    @property
    def n(self) -> int:
        return len(self.samurai)

    @property
    def absent_on(self) -> bool:
        return self.absent_tokens == "on" or (self.absent_tokens == "auto" and self.n == 2)

    @property
    def level_pluses(self) -> int:
        return LEVEL_PLUSES.get(self.difficulty, 0)


@dataclass(frozen=True)
class Table(TableFacts):
    """One game's table: who sits where (seat 0 first, clockwise), the level, the variants."""

    samurai: tuple[str, ...]
    difficulty: str = "normal"
    absent_tokens: str = "auto"  # on | off | auto (R-18: on with two samurai)
    components: Components | None = None
    first_seat: int | None = None  # None: drawn at random
    rules: dict = field(default_factory=dict)  # rule readings (simcore.readings); the rules' own by default

    def __post_init__(self):
        check_table(self)


def check_table(t) -> None:
    """Validate (and normalise) the table fields of t, a Table or anything with its fields."""
    comp = t.components if t.components is not None else load_components()
    object.__setattr__(t, "components", comp)
    names = tuple(s.strip().lower() for s in t.samurai)
    object.__setattr__(t, "samurai", names)
    unknown = [s for s in names if s not in SAMURAI]
    if unknown:
        raise ConfigError(f"unknown samurai '{unknown[0]}' (known: {', '.join(SAMURAI)})")
    dup = sorted({s for s in names if names.count(s) > 1})
    if dup:
        raise ConfigError(f"samurai '{dup[0]}' is seated twice")
    if not 2 <= len(names) <= 7:
        raise ConfigError(f"a game needs 2 to 7 samurai, got {len(names)}")
    if t.difficulty not in comp.levels:
        raise ConfigError(f"unknown difficulty '{t.difficulty}' (known: {', '.join(comp.levels)})")
    comp.check_setup(t.difficulty, len(names))
    if t.absent_tokens not in ("on", "off", "auto"):
        raise ConfigError(f"--absent-tokens must be on, off or auto, got '{t.absent_tokens}'")
    if t.absent_tokens == "on" and len(names) == 7:
        raise ConfigError("absent support tokens need an absent samurai (2 to 6 samurai, R-18)")
    if t.first_seat is not None and not 0 <= t.first_seat < len(names):
        raise ConfigError(f"first seat {t.first_seat} is not a seat of {len(names)} samurai")
    try:
        object.__setattr__(t, "rules", check_rules(t.rules))
    except ReadingError as e:
        raise ConfigError(str(e)) from None


def configure(t) -> np.recarray:
    """The kernel's configuration (a one-record array) for table t (a Table or a run-layer
    config): the seats, the level's numbers, the components' tables. Run flags start off (no
    check, no trace, no scripts, play to the end); the caller names the strategy."""
    comp = t.components
    level = comp.levels[t.difficulty]
    n = len(t.samurai)
    cfgs = state.new(state.CFG)
    cfg = cfgs[0]
    cfg.n = n
    cfg.seats[:n] = [SAMURAI.index(s) for s in t.samurai]
    cfg.plunderers = level.plunderers_per_samurai
    cfg.lieutenants = level.lieutenants(n)
    cfg.bosses = level.bosses(n)
    cfg.barricades = level.barricades(n)
    cfg.farm_penalties = int(level.farmstead_penalties)
    cfg.family_bonuses = int(level.family_bonuses)
    cfg.doll_check = int(n == 2)  # R-17; R-18: none with 3 or more samurai
    cfg.absent_on = int(t.absent_tokens == "on" or (t.absent_tokens == "auto" and n == 2))
    nc = comp.n_cards()
    cfg.n_cards = nc
    cfg.value[:nc] = comp.card_value
    cfg.symbol[:nc] = comp.card_symbol
    cfg.pen1[:nc] = comp.card_pen[:, 0]
    cfg.pen2[:nc] = comp.card_pen[:, 1]
    cfg.flame[:nc] = comp.card_flame
    cfg.rank[:nc] = comp.card_rank
    cfg.kiai_value[: comp.kiai.shape[0]] = comp.kiai
    cfg.n_farms = comp.farm_backs.shape[0]
    cfg.farm_backs[: cfg.n_farms] = comp.farm_backs
    cfg.n_families = comp.family_bonuses.shape[0]
    cfg.family_kinds[: cfg.n_families] = comp.family_bonuses
    cfg.first_seat = -1 if t.first_seat is None else t.first_seat
    v = flags(t.rules)
    cfg.readings[: len(v)] = v
    cfg.stop_turns = -1
    return cfgs


def script(cfg, deck: dict[int, list[int]] | None, forced_random=(), forced_decisions=(),
           random_values=False) -> tuple[np.ndarray, np.ndarray]:
    """Write a test's scripts into the configuration record cfg (R-16a): `deck` maps a round (1-3)
    to its raider stack, top card first; forced random outcomes and decisions are consumed in
    order. A forced outcome is the index drawn, or with `random_values` the element drawn (a
    card, a token, a seat: how kiai replay feeds a record's outcomes). Returns the buffers the
    record points to: the caller keeps them alive while the game is played."""
    mask = 0
    for r, cards in (deck or {}).items():
        if r not in (1, 2, 3):
            raise ConfigError(f"deck round must be 1, 2 or 3, got {r}")
        cards = list(cards)
        if len(set(cards)) != len(cards) or any(not 0 <= c < cfg.n_cards for c in cards):
            raise ConfigError(f"round {r} deck must list distinct card ids in 0..{cfg.n_cards - 1}")
        cfg.deck[r - 1, 0] = len(cards)
        cfg.deck[r - 1, 1 : 1 + len(cards)] = cards
        mask |= 1 << (r - 1)
    cfg.script_rounds = mask
    fr = np.ascontiguousarray(forced_random, dtype=np.int64).reshape(-1)
    fd = np.ascontiguousarray(forced_decisions, dtype=np.int64).reshape(-1)
    cfg.fr_addr, cfg.fr_n, cfg.fr_values = fr.ctypes.data, fr.shape[0], int(random_values)
    cfg.fd_addr, cfg.fd_n = fd.ctypes.data, fd.shape[0]
    return fr, fd


__all__ = ["CARD_CAP", "ConfigError", "Table", "check_table", "configure", "script"]
