"""The run layer: registered strategies played on the engine.

This is the one module that joins simcore (the rules) and strategies (the players). It compiles
what a run needs and nothing more: the engine's kernel (once, whatever the strategy), the
decide() of the strategy played (of a planner's base heuristic, plus the planner), each on its
own, and hands the engine their addresses in the configuration record (simcore.gateway).
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cache

import numba
import numpy as np

from kiai.simcore import state
from kiai.simcore.components import Components, load_components
from kiai.simcore.config import ConfigError, TableFacts, check_table, configure, script
from kiai.simcore.events import TR_COLS
from kiai.simcore.gateway import DECIDE_ARGS, HOOK_ARGS, address, checker_address
from kiai.simcore.results import N_OUT, OUT_NAMES
from kiai.strategies import registry
from kiai.strategies.base import said_params
from kiai.strategies.nets import modelfile

MAX_TRACE_ROWS = 200_000
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
        check = registry.hook_of(self.strategy, "check_data") if self.strategy_info.planner else None
        if check is not None:
            try:
                check(self)
            except ValueError as e:
                raise ConfigError(str(e)) from None
        if self.uses_model:
            try:
                model = self.load_model(self.components)
                if self.strict and self.other_components(model):
                    raise modelfile.other_data_error(model, self.components, load_components())
            except ValueError as e:
                raise ConfigError(str(e)) from None
        else:  # a command's --model applies to the configurations that play one (kiai.checks.check_model)
            object.__setattr__(self, "model", None)

    @property
    def base_name(self) -> str:
        """The heuristic that answers the questions (a planner's base, else the strategy)."""
        return self.strategy_info.base(self.params)

    @property
    def uses_model(self) -> bool:
        return registry.hook_of(self.base_name, "data_record") is not None

    def load_model(self, components: Components | None = None, shipped: bool = False):
        """The model file the base plays (self.model, else its shipped one; `shipped`: the shipped
        one), checked (with `components`, that its inputs hold their data); ValueError (one line)
        when it cannot be played. A base whose shipped values come by family (selfplay) gets the
        one of this table's team size and level: a house level's official one (family_level)."""
        load = registry.hook_of(self.base_name, "load_model")
        path = None if shipped else self.model
        if registry.hook_of(self.base_name, "BY_FAMILY", False):
            return load(path, components, table=(len(self.samurai), self.family_level))
        return load(path, components)

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
            plays = registry.hook_of(self.base_name, "plays")
            if plays is not None:  # how the model changes the play (selfplay: over whose answers)
                out["model"]["plays"] = plays(m)
            family_of = registry.hook_of(self.base_name, "family_of")
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
        label = registry.hook_of(self.base_name, "label") if self.uses_model else None
        bits = [label(self, model if model is not None else self.load_model())] if label is not None else []
        bits += [said_params(self.params)] if self.params else []
        return f"{self.strategy} ({', '.join(bits)})" if bits else self.strategy


@cache
def decide_address(name: str) -> int:
    """The compiled decide() of heuristic `name` (compiled or loaded from the cache once)."""
    return address(registry.hook_of(name, "decide"), DECIDE_ARGS)


@cache
def plan_address(name: str) -> int:
    return address(registry.hook_of(name, "plan"), HOOK_ARGS)


_RECORDS: dict = {}  # data records handed to the engine by address: kept alive here


def _data_record(config: GameConfig, base) -> int:
    """The address of the base strategy's parameter record with its data (a model), made once
    per (strategy, parameters, model, components). The model's bytes name it, not its path: a
    file rewritten in place (a training run's candidate fits) is another model."""
    overrides = {} if config.strategy_info.planner else dict(config.params)
    # the record holds the model and the parameters; of the components, only the data its checks read
    key = (base.name, tuple(sorted(overrides.items())), config.load_model().sha256, config.components.data_sha256)
    record = _RECORDS.get(key)
    if record is None:
        view = GameConfig(config.samurai, config.difficulty, base.name, overrides, components=config.components,
                          model=config.model)
        # setdefault, not an assignment: two threads may make the same record at once (a sweep plays
        # several blocks at once), and the engine must not be handed one that the other then drops
        record = _RECORDS.setdefault(key, registry.hook_of(base.name, "data_record")(view))
    return record.ctypes.data


def _pieces(configs) -> list[tuple[str, str]]:
    """The compiled pieces configs play besides the engine, as (function, strategy), once each:
    each base's decide and each planner's plan."""
    out = []
    for config in configs:
        info = config.strategy_info
        out += [("decide", config.base_name)] + ([("plan", info.name)] if info.planner else [])
    return list(dict.fromkeys(out))


def _in_cache(dispatcher) -> bool:
    """Whether numba's on-disk cache holds dispatcher (its index file exists): a look, no
    compiling. The cache directory is keyed by the sources (simcore._cache), so an index there
    is never stale."""
    try:
        return os.path.exists(dispatcher._cache._cache_file._index_path)
    except AttributeError:  # numba keeps its cache otherwise: compile one after the other
        return True


def uncompiled(configs) -> tuple[bool, list[str]]:
    """What prepare(configs) would compile rather than load from numba's cache: whether the
    engine's kernel, and the strategies (by name, once each) of a piece not there yet. A look,
    no compiling."""
    from kiai.simcore.kernel import play_games

    names = [name for kind, name in _pieces(configs) if not _in_cache(registry.hook_of(name, kind))]
    return not _in_cache(play_games), list(dict.fromkeys(names))


def compile_pieces(pieces: list[str]) -> None:
    """Compile pieces named FUNCTION=STRATEGY (decide=keeper, plan=lookahead), or load them
    from the cache."""
    for piece in pieces:
        kind, name = piece.split("=")
        (decide_address if kind == "decide" else plan_address)(name)


HELPER = "import sys; from kiai.strategies.run import compile_pieces; compile_pieces(sys.argv[1:])"  # the second process
HELPER_TIMEOUT = 900  # seconds after the engine: far beyond any compile, short of forever


def _compile_engine(cfgs) -> None:
    """Compile the engine's kernel, or load it from the cache: a call that plays no game."""
    from kiai.simcore.kernel import play_games

    recs = _records()
    pub, hid = (r.view(np.ndarray)[0] for r in recs[:2])
    out = np.zeros((0, N_OUT), dtype=np.int32)
    play_games(cfgs.view(np.ndarray)[0], np.int64(0), np.int64(0), out, *(r[0] for r in recs), pub, hid)


def _compile_side_by_side(configs, cfgs) -> None:
    """On a cold cache (a new install, or new sources), compile in a second process what this
    one does not: the strategies of configs while this one compiles the engine, or, the engine
    cached, half of the strategies new to the cache while this one compiles the other half.
    numba compiles one function at a time in a process, and each takes half a minute or more:
    side by side on two cores they take the time of the longer. The helper writes numba's on-disk
    cache, and this process then loads its pieces from it; should the helper fail, this process
    compiles them itself."""
    from kiai.simcore.kernel import play_games

    if (os.cpu_count() or 1) < 2:
        return
    engine = not _in_cache(play_games)
    if not engine and len(configs) == 1 and not configs[0].strategy_info.planner:
        return  # one piece and the engine cached: nothing to overlap (kernel_config's usual call)
    pieces = [f"{kind}={name}" for kind, name in _pieces(configs) if not _in_cache(registry.hook_of(name, kind))]
    if len(pieces) < (1 if engine else 2):
        return  # (every call after the first ends here, on a look at the cache's index files)
    # the plans (judge's, the lookahead's) are the long compiles: one on each side
    pieces.sort(key=lambda p: not p.startswith("plan="))
    there, here = (pieces, []) if engine else (pieces[1::2], pieces[::2])
    helper = subprocess.Popen([sys.executable, "-c", HELPER, *there], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        if engine:
            _compile_engine(cfgs)
        else:
            compile_pieces(here)
        helper.wait(timeout=HELPER_TIMEOUT)
    except subprocess.TimeoutExpired:  # a stuck helper: this process compiles what it left
        helper.kill()
        helper.wait()
    except BaseException:  # interrupted (Ctrl-C): leave no compiler running behind
        helper.kill()
        helper.wait()
        raise


def compile_here(configs) -> None:
    """Compile everything configs play in this process, the strategies first (so no helper
    process compiles them): a profiler (cli.profile) needs every compiled function built where
    it runs. Pieces already in numba's cache are loaded from it instead."""
    configs = list(configs)
    compile_pieces([f"{kind}={name}" for kind, name in _pieces(configs)])
    prepare(configs)


def prepare(configs) -> None:
    """Compile, or load from the cache, the engine and everything configs play (side by side
    on a cold cache), so that no compiling happens once games are timed."""
    configs = list(configs)
    cfgs = configure(configs[0])
    _compile_side_by_side(configs, cfgs)
    _compile_engine(cfgs)
    compile_pieces([f"{kind}={name}" for kind, name in _pieces(configs)])


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
    _compile_side_by_side([config], cfgs)
    cfg = cfgs[0]
    info = config.strategy_info
    base = registry.get(info.base(config.params))
    cfg.decide = decide_address(base.name)
    cfg.prm[: len(base.params)] = base.param_vector(None if info.planner else config.params)[: len(base.params)]
    if config.uses_model:
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
            key = ("plan", info.name, hashlib.sha256(rec.tobytes()).hexdigest())
            cfg.pdata = _RECORDS.setdefault(key, rec).ctypes.data
    cfg.check = checker_address() if check else 0
    cfg.tracing = int(trace)
    cfg.scramble = int(scramble)
    cfg.stop_turns = stop_turns
    cfg.stop_round_end = int(stop_round_end)
    cfg.from_state = int(from_state)
    return cfgs


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


def _records():
    """Fresh state records for one thread of play (plain arrays: numba reads element 0)."""
    return tuple(np.zeros(1, dtype=d) for d in (state.TABLE, state.HIDDEN, state.BOOK, state.MEM))


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
        start = _records()[:2]
    start_pub, start_hid = (a.view(np.ndarray)[0] for a in start)
    n = out.shape[0]
    workers = min(set_threads(None), n)
    parts = 1 if workers == 1 else min(n, 4 * workers)
    cuts = [n * k // parts for k in range(parts + 1)]

    def chunk(k):
        recs = _records()
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
    question as a training row (strategies.lookahead.LABEL_WIDTH floats), in game order. At
    most `per_game` questions a game are kept on average."""
    from kiai.strategies.helpers.collect import LABELS
    from kiai.strategies.lookahead import LABEL_WIDTH

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
