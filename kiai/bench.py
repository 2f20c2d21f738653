"""`kiai bench` through the API: the engine's speed on a fixed workload, its compile times, and
where its time goes under Linux perf (kiai.profile)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

from kiai.inputs.checks import fail
from kiai.inputs.counts import check_games, check_threads
from kiai.inputs.players import resolve_strategy
from kiai.strategies.run.warm import warm_engine
from kiai.words import plural

WORKLOAD = dict(samurai="kyuzo,kikuchiyo,heihachi,daisuke", difficulty="normal", strategy="reference")

# Run in a fresh interpreter: time from the first import to the end of a tiny batch.
_PROBE = """
import time, json
t0 = time.perf_counter()
from kiai.strategies.run.config import GameConfig
from kiai.strategies.run.games import run_games
run_games(GameConfig(tuple({samurai!r}.split(',')), {difficulty!r}, {strategy!r}), 10, 0)
print(json.dumps({{"seconds": time.perf_counter() - t0}}))
"""


def _probe(cache_dir: str, strategy: str) -> float:
    env = dict(os.environ, KIAI_CACHE_DIR=cache_dir)
    code = _PROBE.format(**dict(WORKLOAD, strategy=strategy))
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        fail(f"benchmark probe failed: {done.stderr.strip().splitlines()[-1] if done.stderr else done.returncode}")
    return json.loads(done.stdout.strip().splitlines()[-1])["seconds"]


def _workload(games, strategy, params, params_file, threads, note):
    """The checked workload: (the result's fields so far, its configuration)."""
    import numba

    from kiai.simcore.config import ConfigError
    from kiai.strategies import registry
    from kiai.strategies.run.config import GameConfig
    from kiai.strategies.run.games import set_threads

    check_games(games)
    check_threads(threads, note)
    strategy, overrides = resolve_strategy(strategy, params, params_file)
    try:
        registry.get(strategy)
        config = GameConfig(tuple(WORKLOAD["samurai"].split(",")), WORKLOAD["difficulty"], strategy, overrides)
        used = set_threads(threads)
    except (KeyError, ConfigError) as e:
        fail(str(e.args[0]))
    result = {"cores": os.cpu_count(), "threads": used, "games": games, **WORKLOAD, "strategy": strategy,
              "params": config.played_params(), "numba": numba.__version__}
    return result, config


def bench(games: int = 1_000_000, *, strategy: str | None = None, params: list[str] | None = None,
          params_file=None, threads: int | None = None, compile_times: bool = True,
          note: Callable[[str], None] | None = None) -> dict:
    """Time the engine on the workload (4 samurai at normal, the strategy; the reference's by
    default) after compilation, as `kiai bench`; with compile_times also a cold compile (a new
    process with an empty cache) and a warm start (a new process, cache present). Returns the
    fields of `kiai bench --json`; note(line) hears what it is doing (None: nothing)."""
    from kiai.strategies.run.games import run_games

    say = note or (lambda line: None)
    result, config = _workload(games, strategy, params, params_file, threads, note)
    if compile_times:
        with tempfile.TemporaryDirectory(prefix="kiai-bench-") as tmp:
            say("timing a cold compile (a new process with an empty cache; about a minute)...")
            result["compile_cold_s"] = _probe(tmp, result["strategy"])
            say(f"  compiled in {result['compile_cold_s']:.1f} s; timing a warm start...")
            result["start_warm_s"] = _probe(tmp, result["strategy"])
    warm_engine(config, note=note)  # load or compile before timing
    say(f"playing {plural(games, 'game')}...")
    t0 = time.perf_counter()
    run_games(config, games, 0)
    seconds = time.perf_counter() - t0
    result["seconds"] = seconds
    result["games_per_second"] = games / seconds
    return result


def profile(games: int = 1_000_000, *, strategy: str | None = None, params: list[str] | None = None,
            params_file=None, threads: int | None = None, top: int = 25, on_start=lambda: None,
            on_progress=lambda played: None, note: Callable[[str], None] | None = None) -> dict:
    """Play the workload in a new process under Linux perf, as `kiai bench --profile`: the fields of
    its --json, with games_per_second under perf and `functions`, the compiled functions' shares of
    the samples (the `top` largest). perf is looked for first; then on_start() is called, the new
    process compiles everything (about a minute) and plays, calling on_progress(games played)."""
    from kiai.profile import profile as under_perf

    result, config = _workload(games, strategy, params, params_file, threads, note)
    try:  # perf's absence is found before any work, a failed run after it
        found = under_perf(WORKLOAD, result["strategy"], config.param_dict(), games, result["threads"], top=top,
                           on_start=on_start, on_progress=on_progress)  # fmt: skip
    except (FileNotFoundError, RuntimeError) as e:
        fail(str(e))
    result.update(games_per_second=found["games_per_second"],
                  functions=[{"share": round(share / 100, 6), "function": name} for share, name in found["functions"]])
    return result
