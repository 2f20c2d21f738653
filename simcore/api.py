"""Python face of the engine: configurations, running batches, single scripted games.

Everything here prepares integer arrays for the one kernel (simcore.kernel.play_batch) and reads
its results back; no rule lives here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numba
import numpy as np

from simcore import layout as L
from simcore.codes import CARD_CAP, LEVEL_PLUSES, SAMURAI
from simcore.components import Components, load_components
from strategies import registry

MAX_TRACE_ROWS = 200_000


class ConfigError(ValueError):
    """A bad configuration; the message is one line, fit for the command line."""


@dataclass(frozen=True)
class GameConfig:
    """One configuration: who sits where, the level, the strategy and its parameters."""

    samurai: tuple[str, ...]
    difficulty: str = "normal"
    strategy: str = "reference"
    params: dict = field(default_factory=dict)
    absent_tokens: str = "auto"  # on | off | auto (R-18: on with two samurai)
    components: Components | None = None
    first_seat: int | None = None  # None: drawn at random

    def __post_init__(self):
        comp = self.components if self.components is not None else load_components()
        object.__setattr__(self, "components", comp)
        names = tuple(s.strip().lower() for s in self.samurai)
        object.__setattr__(self, "samurai", names)
        unknown = [s for s in names if s not in SAMURAI]
        if unknown:
            raise ConfigError(f"unknown samurai '{unknown[0]}' (known: {', '.join(SAMURAI)})")
        dup = sorted({s for s in names if names.count(s) > 1})
        if dup:
            raise ConfigError(f"samurai '{dup[0]}' is seated twice")
        if not 2 <= len(names) <= 7:
            raise ConfigError(f"a game needs 2 to 7 samurai, got {len(names)}")
        if self.difficulty not in comp.levels:
            raise ConfigError(f"unknown difficulty '{self.difficulty}' (known: {', '.join(comp.levels)})")
        comp.check_setup(self.difficulty, len(names))
        if self.absent_tokens not in ("on", "off", "auto"):
            raise ConfigError(f"--absent-tokens must be on, off or auto, got '{self.absent_tokens}'")
        if self.absent_tokens == "on" and len(names) == 7:
            raise ConfigError("absent support tokens need an absent samurai (2 to 6 samurai, R-18)")
        try:
            self.strategy_info.param_vector(self.params)
        except KeyError as e:
            raise ConfigError(e.args[0]) from None
        except ValueError as e:
            raise ConfigError(str(e)) from None
        if self.first_seat is not None and not 0 <= self.first_seat < len(names):
            raise ConfigError(f"first seat {self.first_seat} is not a seat of {len(names)} samurai")

    @property
    def n(self) -> int:
        return len(self.samurai)

    @property
    def strategy_info(self) -> registry.Strategy:
        try:
            return registry.get(self.strategy)
        except KeyError as e:
            raise ConfigError(e.args[0]) from None

    @property
    def absent_on(self) -> bool:
        return self.absent_tokens == "on" or (self.absent_tokens == "auto" and self.n == 2)

    @property
    def level_pluses(self) -> int:
        return LEVEL_PLUSES.get(self.difficulty, 0)

    def param_dict(self) -> dict:
        return self.strategy_info.param_dict(self.params)

    def describe(self) -> dict:
        """What a result needs to say about how it was made."""
        info = self.strategy_info
        return {
            "samurai": list(self.samurai),
            "difficulty": self.difficulty,
            "strategy": info.name,
            "honest": info.honest,
            "params": self.param_dict(),
            "absent_tokens": self.absent_on,
            "components": self.components.path,
            "components_sha256": self.components.sha256,
        }


def _cfg_vector(config: GameConfig, *, check=False, trace=False, scramble=False, stop_turns=-1,
                stop_round_end=False, from_state=False, script_rounds=0) -> np.ndarray:
    comp = config.components
    level = comp.levels[config.difficulty]
    n = config.n
    cfg = np.zeros(24, dtype=np.int64)
    info = config.strategy_info
    cfg[0] = info.base(config.params).sid  # a planner plays with its base heuristic
    cfg[1] = int(check)
    cfg[2] = int(trace)
    cfg[3] = int(scramble)
    cfg[4] = -1 if config.first_seat is None else config.first_seat
    cfg[5] = stop_turns
    cfg[6] = int(stop_round_end)
    cfg[7] = int(from_state)
    cfg[8] = script_rounds
    cfg[9] = level.plunderers_per_samurai
    cfg[10] = level.lieutenants(n)
    cfg[11] = level.bosses(n)
    cfg[12] = int(n == 2)  # R-17 doll check; R-18: none with 3 or more samurai
    cfg[13] = level.barricades(n)
    cfg[14] = int(level.farmstead_penalties)
    cfg[15] = int(level.family_bonuses)
    cfg[16] = int(config.absent_on)
    cfg[17] = info.planner
    return cfg


def _params(config: GameConfig) -> tuple[np.ndarray, np.ndarray]:
    """The parameter vectors the kernel takes: the strategy's (for a planner: its base
    heuristic's defaults) and the planner's own (zeros for other strategies)."""
    info = config.strategy_info
    if info.planner:
        return info.base(config.params).param_vector(), info.param_vector(config.params)
    return info.param_vector(config.params), np.zeros(registry.N_PARAMS)


def _tables(config: GameConfig):
    c = config.components
    i32 = lambda a: np.ascontiguousarray(a, dtype=np.int32)  # noqa: E731
    return (
        i32(c.card_value), i32(c.card_symbol), i32(c.card_pen), i32(c.card_flame), i32(c.card_rank),
        i32(c.kiai), i32(c.farm_backs), i32(c.family_bonuses),
    )


def _seats(config: GameConfig) -> np.ndarray:
    return np.array([SAMURAI.index(s) for s in config.samurai], dtype=np.int32)


def set_threads(threads: int | None) -> int:
    """Use `threads` numba threads (None: all); returns the number in use."""
    if threads is not None:
        if threads < 1:
            raise ConfigError(f"--threads must be at least 1, got {threads}")
        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    return numba.get_num_threads()


_EMPTY_I64 = np.zeros(0, dtype=np.int64)


def run_games(config: GameConfig, games: int, seed: int, game_offset: int = 0, *, check=False,
              scramble=False) -> np.ndarray:
    """Play games game_offset .. game_offset + games - 1; one row of layout.OUT_NAMES each."""
    from simcore.kernel import play_batch

    if games < 1:
        raise ConfigError(f"--games must be at least 1, got {games}")
    out = np.zeros((games, L.N_OUT), dtype=np.int32)
    # a one-game batch writes its final state back; give it room so it never writes past a buffer
    tr = np.zeros((0, L.TR_COLS), dtype=np.int64)
    pf = np.zeros(L.P_SIZE, dtype=np.int64)
    hf = np.zeros(L.H_SIZE, dtype=np.int64)
    kf = np.zeros(L.K_SIZE, dtype=np.int64)
    play_batch(
        _cfg_vector(config, check=check, scramble=scramble), _seats(config), *_tables(config),
        *_params(config), np.int64(seed), np.int64(game_offset),
        np.int64(games), _EMPTY_I64, _EMPTY_I64, np.zeros((3, CARD_CAP + 1), dtype=np.int64),
        np.zeros(L.P_SIZE, dtype=np.int64), np.zeros(L.H_SIZE, dtype=np.int64), out, tr, pf, hf, kf,
    )
    return out


@dataclass
class GameRun:
    """One game played to its end (or a requested stop), with its state and trace."""

    config: GameConfig
    seed: int
    game_index: int
    row: np.ndarray
    P: np.ndarray
    H: np.ndarray
    K: np.ndarray
    events: np.ndarray

    def result(self, name: str) -> int:
        return int(self.row[L.OUT_NAMES.index(name)])


def run_one(config: GameConfig, seed: int = 0, game_index: int = 0, *, trace=True, check=True,
            scramble=False, deck: dict[int, list[int]] | None = None, forced_random=(),
            forced_decisions=(), state: tuple[np.ndarray, np.ndarray] | None = None,
            stop_after_turns: int | None = None, stop_after_round_end=False,
            trace_rows: int = MAX_TRACE_ROWS) -> GameRun:
    """Play one game, optionally scripted (R-16a): `deck` maps a round (1-3) to its raider
    stack, top card first; `forced_random` and `forced_decisions` are consumed in order;
    `state` = (P, H) starts from a prepared position (a stopped game's state, edited);
    `trace_rows` bounds the event log (a long log costs time to allocate on every call)."""
    from simcore.kernel import play_batch

    if len(forced_random) > L.FR_CAP or len(forced_decisions) > L.FD_CAP:
        raise ConfigError(f"at most {L.FR_CAP} forced random outcomes and {L.FD_CAP} forced decisions")
    sc = np.zeros((3, CARD_CAP + 1), dtype=np.int64)
    mask = 0
    for r, cards in (deck or {}).items():
        if r not in (1, 2, 3):
            raise ConfigError(f"deck round must be 1, 2 or 3, got {r}")
        cards = list(cards)
        nc = config.components.n_cards()
        if len(set(cards)) != len(cards) or any(not 0 <= c < nc for c in cards):
            raise ConfigError(f"round {r} deck must list distinct card ids in 0..{nc - 1}")
        sc[r - 1, 0] = len(cards)
        sc[r - 1, 1 : 1 + len(cards)] = cards
        mask |= 1 << (r - 1)
    p0 = np.zeros(L.P_SIZE, dtype=np.int64)
    h0 = np.zeros(L.H_SIZE, dtype=np.int64)
    if state is not None:
        p0[:] = state[0]
        h0[:] = state[1]
    out = np.zeros((1, L.N_OUT), dtype=np.int32)
    tr = np.zeros((trace_rows if trace else 0, L.TR_COLS), dtype=np.int64)
    pf = np.zeros(L.P_SIZE, dtype=np.int64)
    hf = np.zeros(L.H_SIZE, dtype=np.int64)
    kf = np.zeros(L.K_SIZE, dtype=np.int64)
    cfg = _cfg_vector(
        config, check=check, trace=trace, scramble=scramble,
        stop_turns=-1 if stop_after_turns is None else stop_after_turns,
        stop_round_end=stop_after_round_end, from_state=state is not None, script_rounds=mask,
    )  # fmt: skip
    play_batch(
        cfg, _seats(config), *_tables(config), *_params(config),
        np.int64(seed), np.int64(game_index), np.int64(1),
        np.asarray(forced_random, dtype=np.int64), np.asarray(forced_decisions, dtype=np.int64),
        sc, p0, h0, out, tr, pf, hf, kf,
    )  # fmt: skip
    n_ev = min(int(kf[L.K_TR_N]), tr.shape[0])
    return GameRun(config, seed, game_index, out[0], pf, hf, kf, tr[:n_ev].copy())


def grade(score: int, pluses: int) -> str:
    return f"{score}{'+' * pluses}"
