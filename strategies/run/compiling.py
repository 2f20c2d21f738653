"""Compiling what a run plays: the engine's kernel (once, whatever the strategy), the decide()
of the strategy played (of a planner's base heuristic, plus the planner), each on its own, and
their addresses, which the engine reads from the configuration record (simcore.gateway). On a
cold cache a second process compiles beside this one.
"""

from __future__ import annotations

import os
import subprocess
import sys
from functools import cache

import numpy as np

from kiai.simcore import state
from kiai.simcore.config import configure
from kiai.simcore.gateway import DECIDE_ARGS, HOOK_ARGS, address
from kiai.simcore.results import N_OUT
from kiai.strategies import registry


@cache
def decide_address(name: str) -> int:
    """The compiled decide() of heuristic `name` (compiled or loaded from the cache once)."""
    return address(registry.hook_of(name, "decide"), DECIDE_ARGS)


@cache
def plan_address(name: str) -> int:
    return address(registry.hook_of(name, "plan"), HOOK_ARGS)


def pieces_of(configs) -> list[tuple[str, str]]:
    """The compiled pieces configs play besides the engine, as (function, strategy), once each:
    each base's decide and each planner's plan."""
    out = []
    for config in configs:
        info = config.strategy_info
        out += [("decide", config.base_name)] + ([("plan", info.name)] if info.planner else [])
    return list(dict.fromkeys(out))


def in_cache(dispatcher) -> bool:
    """Whether numba's on-disk cache holds dispatcher (its index file exists): a look, no
    compiling. The cache directory is keyed by the sources (simcore.sources), so an index there
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

    names = [name for kind, name in pieces_of(configs) if not in_cache(registry.hook_of(name, kind))]
    return not in_cache(play_games), list(dict.fromkeys(names))


def compile_pieces(pieces: list[str]) -> None:
    """Compile pieces named FUNCTION=STRATEGY (decide=keeper, plan=lookahead), or load them
    from the cache."""
    for piece in pieces:
        kind, name = piece.split("=")
        (decide_address if kind == "decide" else plan_address)(name)


HELPER = "import sys; from kiai.strategies.run.compiling import compile_pieces; compile_pieces(sys.argv[1:])"  # the second process
HELPER_TIMEOUT = 900  # seconds after the engine: far beyond any compile, short of forever


def compile_engine(cfgs) -> None:
    """Compile the engine's kernel, or load it from the cache: a call that plays no game."""
    from kiai.simcore.kernel import play_games

    recs = state_records()
    pub, hid = (r.view(np.ndarray)[0] for r in recs[:2])
    out = np.zeros((0, N_OUT), dtype=np.int32)
    play_games(cfgs.view(np.ndarray)[0], np.int64(0), np.int64(0), out, *(r[0] for r in recs), pub, hid)


def compile_side_by_side(configs, cfgs) -> None:
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
    engine = not in_cache(play_games)
    if not engine and len(configs) == 1 and not configs[0].strategy_info.planner:
        return  # one piece and the engine cached: nothing to overlap (kernel_config's usual call)
    pieces = [f"{kind}={name}" for kind, name in pieces_of(configs) if not in_cache(registry.hook_of(name, kind))]
    if len(pieces) < (1 if engine else 2):
        return  # (every call after the first ends here, on a look at the cache's index files)
    # the plans (judge's, the lookahead's) are the long compiles: one on each side
    pieces.sort(key=lambda p: not p.startswith("plan="))
    there, here = (pieces, []) if engine else (pieces[1::2], pieces[::2])
    helper = subprocess.Popen([sys.executable, "-c", HELPER, *there], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        if engine:
            compile_engine(cfgs)
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
    process compiles them): a profiler (kiai.profile) needs every compiled function built where
    it runs. Pieces already in numba's cache are loaded from it instead."""
    configs = list(configs)
    compile_pieces([f"{kind}={name}" for kind, name in pieces_of(configs)])
    prepare(configs)


def prepare(configs) -> None:
    """Compile, or load from the cache, the engine and everything configs play (side by side
    on a cold cache), so that no compiling happens once games are timed."""
    configs = list(configs)
    cfgs = configure(configs[0])
    compile_side_by_side(configs, cfgs)
    compile_engine(cfgs)
    compile_pieces([f"{kind}={name}" for kind, name in pieces_of(configs)])


def state_records():
    """Fresh state records for one thread of play (plain arrays: numba reads element 0)."""
    return tuple(np.zeros(1, dtype=d) for d in (state.TABLE, state.HIDDEN, state.BOOK, state.MEM))
