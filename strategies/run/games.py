"""Playing games on the engine: the kernel's configuration record for a GameConfig, the threads
games play on, and games played in batches (run_games), one by one with their event log
(run_one, record_game) or with the rows a training run collects (label_games).
"""

from __future__ import annotations

import hashlib
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache

import numba
import numpy as np

from kiai.simcore import state
from kiai.simcore.config import ConfigError, configure, script
from kiai.simcore.events import TR_COLS
from kiai.simcore.gateway import checker_address
from kiai.simcore.results import N_OUT, OUT_NAMES
from kiai.strategies import registry
from kiai.strategies.run.compiling import compile_side_by_side, decide_address, plan_address, state_records
from kiai.strategies.run.config import GameConfig

MAX_TRACE_ROWS = 200_000  # run_one's event log, at most
_RECORDS: dict = {}  # data records handed to the engine by address: kept alive here


def _data_record(config: GameConfig, base) -> int:
    """The address of the base strategy's parameter record with its data (a model), made once
    per (strategy, parameters, model, components). The model's bytes name it, not its path: a
    file rewritten in place (a training run's candidate fits) is another model."""
    overrides = {} if config.strategy_info.planner else dict(config.params)
    # --model names the base's model unless the planner plays one of its own (judge's value): then
    # the base plays its shipped one
    model = config.model if config.model_owner == base.name else None
    base_config = config if config.model_owner == base.name else GameConfig(
        config.samurai, config.difficulty, base.name, overrides, components=config.components)
    # the record holds the model and the parameters; of the components, only the data its checks read;
    # and, where it points to the record of a base it plays over, that base's model (GameConfig.base_model)
    model_file = base_config.load_model()
    under = base_config.base_model(model_file)
    key = (base.name, tuple(sorted(overrides.items())), model_file.sha256, under.sha256 if under else "",
           config.components.data_sha256)
    record = _RECORDS.get(key)
    if record is None:
        view = GameConfig(config.samurai, config.difficulty, base.name, overrides, components=config.components,
                          model=model)
        # setdefault, not an assignment: two threads may make the same record at once (a sweep plays
        # several blocks at once), and the engine must not be handed one that the other then drops
        record = _RECORDS.setdefault(key, registry.hook_of(base.name, "data_record")(view))
    return record.ctypes.data


@dataclass(frozen=True)
class Collect:
    """What a training run collects from its games (strategies.helpers.collect): `what` (LABELS,
    TABLES_BASE, TABLES, TEACH or AFTERSTATES), rows of `width` floats, room for `per_game` rows
    a game on average, and `explore`, the share of selfplay's weighed answers given at random."""

    what: int
    width: int
    per_game: int
    explore: float = 0.0


def kernel_config(config: GameConfig, *, check=False, trace=False, scramble=False, stop_turns=-1,
                  stop_round_end=False, from_state=False, collect: Collect | None = None) -> np.recarray:
    """The kernel's configuration record for `config`, the strategy named by address."""
    cfgs = configure(config)
    compile_side_by_side([config], cfgs)
    cfg = cfgs[0]
    info = config.strategy_info
    base = registry.get(info.base(config.params))
    cfg.decide = decide_address(base.name)
    cfg.prm[: len(base.params)] = base.param_vector(None if info.planner else config.params)[: len(base.params)]
    if registry.hook_of(base.name, "data_record") is not None:  # the base plays a model (selfplay, learned)
        cfg.prm_at = _data_record(config, base)
    cfg.counting = int(base.counts)
    if info.planner:
        cfg.plan = plan_address(info.name)
        cfg.plan_turns, cfg.plan_questions = registry.hook_of(info.name, "hooks")(
            info.param_dict(config.params), collect.what if collect is not None else 0)
        cfg.plan_variant = registry.hook_of(info.name, "VARIANT")
        cfg.pprm[:] = info.param_vector(config.params)
        plan_record = registry.hook_of(info.name, "plan_record")
        if plan_record is not None:  # a planner with data (judge's value): kept alive by its bytes
            rec = plan_record(config)
            if "follow" in rec.dtype.names and int(rec[0]["follow"]):  # strategies.helpers.follow
                follow_default(config, rec)
            key = ("plan", info.name, hashlib.sha256(rec.tobytes()).hexdigest())
            cfg.pdata = _RECORDS.setdefault(key, rec).ctypes.data
    cfg.check = checker_address() if check else 0
    cfg.tracing = int(trace)
    cfg.scramble = int(scramble)
    cfg.stop_turns = stop_turns
    cfg.stop_round_end = int(stop_round_end)
    cfg.from_state = int(from_state)
    return cfgs


def models_read(config: GameConfig) -> dict[str, str]:
    """Every model file the games of `config` read, by role, as the SHA-256 of its bytes, as
    kernel_config hands them to the engine: `model`, its model owner's (the file --model names:
    learned's networks, selfplay's or judge's value); `base`, the model of the base it plays over,
    where its records read one beside `model` (selfplay over learned's answers; judge over learned,
    which plays its shipped model); with `follow` 1, the followed default's, as `follow` and
    `follow-base`. Empty for a strategy that reads no model."""
    out: dict[str, str] = {}
    info = config.strategy_info
    if config.uses_model:
        model = config.load_model()
        out["model"] = model.sha256
        under = config.base_model(model)  # selfplay's learned; a planner's base beside its own value
        if under is not None:
            out["base"] = under.sha256
    if info.planner and int(info.param_dict(config.params).get("follow", 0)):
        for role, sha in models_read(followed_config(config)).items():
            out["follow" if role == "model" else f"follow-{role}"] = sha
    return out


# the value file of the default that a planner with `follow` 1 (judge, the lookahead) follows: None, the
# family's shipped one (strategies.helpers.follow)
_FOLLOWED_MODEL: ContextVar[str | None] = ContextVar("kiai_follows", default=None)
_FOLLOWED: dict = {}  # the followed default's records, alive while the process runs


@contextmanager
def following(model: str | None):
    """Inside the block, a planner with `follow` 1 follows the default playing the value file `model`
    (None: its family's shipped one): a teacher on a new value's own positions (DAgger)."""
    token = _FOLLOWED_MODEL.set(None if model is None else str(model))
    try:
        yield
    finally:
        _FOLLOWED_MODEL.reset(token)


def followed_config(config: GameConfig) -> GameConfig:
    """The default a planner with `follow` 1 follows on config's table, playing the value
    `following` names."""
    return GameConfig(config.samurai, config.difficulty, registry.DEFAULT, absent_tokens=config.absent_tokens,
                      components=config.components, first_seat=config.first_seat, model=_FOLLOWED_MODEL.get(),
                      rules=dict(config.rules))


def follow_default(config: GameConfig, rec: np.ndarray) -> None:
    """Point the planner's record (its follow_fn, follow_at) at the default's decide() and its
    record for config's table, the default playing the value `following` names."""
    followed = followed_config(config)
    data_record = registry.hook_of(registry.DEFAULT, "data_record")
    key = (followed.samurai, followed.difficulty, followed.load_model().sha256, followed.components.data_sha256,
           tuple(sorted(followed.rules.items())))  # the value's bytes: a file rewritten in place is another
    frec = _FOLLOWED.get(key)
    if frec is None:  # built once a table and value; setdefault: two threads at once both keep the first
        frec = _FOLLOWED.setdefault(key, data_record(followed))
    rec[0]["follow_fn"] = decide_address(registry.DEFAULT)
    rec[0]["follow_at"] = frec.ctypes.data


_THREADS = [None]  # set_threads; None: every core numba may use
# threads_for: the threads of one call (of the Python API), in its own thread and context only
_CALL_THREADS: ContextVar[int | None] = ContextVar("kiai_call_threads", default=None)


def set_threads(threads: int | None) -> int:
    """Play on `threads` threads (None: all the cores) from now on, in the whole process; returns
    the number in use (inside a threads_for block, that block's)."""
    if threads is not None:
        if threads < 1:
            raise ConfigError(f"--threads must be at least 1, got {threads}")
        _THREADS[0] = min(threads, numba.config.NUMBA_NUM_THREADS)
    return _CALL_THREADS.get() or _THREADS[0] or numba.config.NUMBA_NUM_THREADS


@contextmanager
def threads_for(threads: int | None):
    """Play on `threads` threads (at most the cores) inside the with block only, and only in the
    thread that entered it: a library call must leave its caller's settings as they were.
    None: the number set_threads gives. Yields the number in use."""
    if threads is None:
        yield set_threads(None)
        return
    if threads < 1:
        raise ConfigError(f"--threads must be at least 1, got {threads}")
    token = _CALL_THREADS.set(min(threads, numba.config.NUMBA_NUM_THREADS))
    try:
        yield _CALL_THREADS.get()
    finally:
        _CALL_THREADS.reset(token)


def play_batch(cfgs, seed: int, game0: int, out: np.ndarray, start=None, collect: Collect | None = None):
    """Play games game0 .. game0 + len(out) - 1 into out, in chunks on set_threads() threads.
    Returns the last chunk's records (a one-game batch: that game's final state) and the rows
    the players wrote where a training run collects from the games (`collect`: what, and room
    for so many rows a game), in game order (none otherwise). cfgs: kernel_config's, made with
    the same `collect`."""
    from kiai.simcore.kernel import play_games
    from kiai.strategies.helpers.collect import COLLECTOR

    per_game, width = (collect.per_game, collect.width) if collect is not None else (0, 1)
    cfg = cfgs.view(np.ndarray)[0]
    if start is None:
        start = state_records()[:2]
    start_pub, start_hid = (a.view(np.ndarray)[0] for a in start)
    n = out.shape[0]
    workers = min(set_threads(None), n)
    parts = 1 if workers == 1 else min(n, 4 * workers)
    cuts = [n * k // parts for k in range(parts + 1)]

    def chunk(k):
        recs = state_records()
        lo, hi = cuts[k], cuts[k + 1]
        buf = np.zeros((per_game * (hi - lo), width), dtype=np.float32)
        hook = np.zeros(1, dtype=COLLECTOR)  # the training hook's record, alive while the chunk plays
        if collect is not None:
            hook[0] = (buf.ctypes.data, buf.shape[0], 0, collect.what, collect.explore)
            recs[3][0]["collect"] = hook.ctypes.data
        play_games(cfg, np.int64(seed), np.int64(game0 + lo), out[lo:hi], *(r[0] for r in recs), start_pub, start_hid)
        return recs, buf[: int(hook[0]["n"])]

    if workers == 1:
        done = [chunk(k) for k in range(parts)]
    else:
        with ThreadPoolExecutor(workers) as pool:
            done = list(pool.map(chunk, range(parts)))
    return done[-1][0], np.concatenate([rows for _, rows in done])


def run_games(config: GameConfig, games: int, seed: int, game_offset: int = 0, *, check=False,
              scramble=False) -> np.ndarray:
    """Play games game_offset .. game_offset + games - 1; one row of simcore.results each."""
    if games < 1:
        raise ConfigError(f"--games must be at least 1, got {games}")
    out = np.zeros((games, N_OUT), dtype=np.int32)
    play_batch(kernel_config(config, check=check, scramble=scramble), seed, game_offset, out)
    return out


def label_games(config: GameConfig, games: int, seed: int, game_offset: int = 0,
                per_game: int = 200) -> tuple[np.ndarray, np.ndarray]:
    """Play games with a planner that weighs questions as they are asked (lookahead with
    `decisions` 1, or judge, over keeper or learned); returns the per-game rows and every weighed
    question as a training row (strategies.nets.features.LABEL_WIDTH floats), in game order. At
    most `per_game` questions a game are kept on average."""
    from kiai.strategies.helpers.collect import LABELS
    from kiai.strategies.nets.features import LABEL_WIDTH

    info, prm = config.strategy_info, config.param_dict()
    weighs = int(prm.get("decisions", 0)) == 1 if info.name != "judge" else True
    if not info.planner or not weighs or config.base_name not in ("keeper", "learned"):
        raise ConfigError("labels come from a planner that weighs questions over keeper or learned "
                          "(lookahead with decisions=1, or judge, and base keeper or learned)")
    out = np.zeros((games, N_OUT), dtype=np.int32)
    collect = Collect(LABELS, LABEL_WIDTH, per_game)
    _, rows = play_batch(kernel_config(config, collect=collect), seed, game_offset, out, collect=collect)
    return out, rows


@dataclass
class GameRun:
    """One game played to its end (or a requested stop), with its final state and event log."""

    config: GameConfig
    seed: int
    game_index: int
    row: np.ndarray
    pub: np.record  # the final state's records (simcore.state): run.pub.total[2], ...
    hid: np.record
    book: np.record
    mem: np.record
    events: np.ndarray  # rows of simcore.events

    def result(self, name: str) -> int:
        return int(self.row[OUT_NAMES.index(name)])


def run_one(config: GameConfig, seed: int = 0, game_index: int = 0, *, trace=True, check=True,
            scramble=False, deck: dict[int, list[int]] | None = None, forced_random=(),
            forced_decisions=(), state_: tuple[np.ndarray, np.ndarray] | None = None,
            stop_after_turns: int | None = None, stop_after_round_end=False,
            trace_rows: int = MAX_TRACE_ROWS) -> GameRun:
    """Play one game, optionally scripted (R-16a): `deck` maps a round (1-3) to its raider
    stack, top card first; `forced_random` and `forced_decisions` are consumed in order;
    `state_` = (pub, hid) starts from a prepared position (a stopped game's state, edited);
    `trace_rows` bounds the event log."""
    cfgs = kernel_config(
        config, check=check, trace=trace, scramble=scramble,
        stop_turns=-1 if stop_after_turns is None else stop_after_turns,
        stop_round_end=stop_after_round_end, from_state=state_ is not None,
    )  # fmt: skip
    scripts = script(cfgs[0], deck, forced_random, forced_decisions)  # noqa: F841 - kept alive while played
    events = np.zeros((trace_rows if trace else 0, TR_COLS), dtype=np.int64)
    cfgs[0].trace_addr = events.ctypes.data
    cfgs[0].trace_cap = events.shape[0]
    start = None
    if state_ is not None:
        start = (np.array(state_[0], dtype=state.TABLE).reshape(1), np.array(state_[1], dtype=state.HIDDEN).reshape(1))
    out = np.zeros((1, N_OUT), dtype=np.int32)
    pub, hid, book, mem = (a.view(np.recarray)[0] for a in play_batch(cfgs, seed, game_index, out, start)[0])
    n_ev = min(int(book.trace_n), events.shape[0])
    return GameRun(config, seed, game_index, out[0], pub, hid, book, mem, events[:n_ev].copy())


RECORD_ROWS = 1 << 18  # event rows a recorded game may fill; the longest seen use a few thousand


def record_game(config: GameConfig, seed: int, game_index: int, *, forced_random=(),
                forced_decisions=()) -> tuple[np.ndarray, np.ndarray]:
    """One game played with a full record (simcore.events from EV_DECISION on: every decision,
    random outcome and public state), for `kiai record` and `kiai replay`: its results row and
    event rows. Replaying, `forced_random` holds the random outcomes as elements (the card, the
    token, the seat drawn) and `forced_decisions` the answers, in order of play (R-16a)."""
    cfgs = kernel_config(config, trace=True)
    cfg = cfgs[0]
    cfg.recording = 1
    scripts = script(cfg, None, forced_random, forced_decisions, random_values=True)  # noqa: F841 - kept alive
    events = _record_buffer()
    cfg.trace_addr = events.ctypes.data
    cfg.trace_cap = events.shape[0]
    out = np.zeros((1, N_OUT), dtype=np.int32)
    book = play_batch(cfgs, seed, game_index, out)[0][2]
    n = int(book["trace_n"][0])
    if n > events.shape[0]:
        raise ConfigError(f"game {game_index} needs more than {events.shape[0]:,} record rows")
    return out[0], events[:n].copy()


@cache
def _record_buffer() -> np.ndarray:
    return np.zeros((RECORD_ROWS, TR_COLS), dtype=np.int64)


def grade(score: int, pluses: int) -> str:
    return f"{score}{'+' * pluses}"
