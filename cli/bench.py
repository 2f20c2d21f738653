"""`kiai bench`: the engine's speed on a fixed workload, and its compile times."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time

import typer

from kiai.cli.common import PLAYER, Options, ThreadsOpt, check_threads, command, grouped, stderr, warm_engine
from kiai.checks import check_games, fail, resolve_strategy
from kiai.progress import bar as progress
from kiai.reports.words import plural

WORKLOAD = dict(samurai="kyuzo,kikuchiyo,heihachi,daisuke", difficulty="normal", strategy="reference")

# Run in a fresh interpreter: time from the first import to the end of a tiny batch.
_PROBE = """
import time, json
t0 = time.perf_counter()
from kiai.strategies.game_config import GameConfig
from kiai.strategies.playing import run_games
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


@command(short_help="Time the engine and its compilation.",
         help="Time the engine on a fixed workload (4 samurai, normal, the chosen strategy, "
              "1,000,000 games by default) after compilation, and the compile time cold "
              "(empty cache, new process) and warm (cache present, new process).")
@grouped
def bench(
    games: int = typer.Option(1_000_000, "--games", "-n", help="Games in the timed batch (at most 100,000,000)."),
    player: Options = PLAYER,
    threads: int = ThreadsOpt,
    compile_times: bool = typer.Option(True, "--compile/--no-compile", help="Also measure cold and warm compile."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
    profile: bool = typer.Option(False, "--profile", help="Instead of timing: play the workload in a new "
                                 "process under Linux perf (which must be installed) and list the compiled "
                                 "functions by their share of the time. That process compiles everything "
                                 "itself (about a minute), so that perf can name the compiled code."),
):
    import numba

    from kiai.simcore.config import ConfigError
    from kiai.strategies.game_config import GameConfig
    from kiai.strategies.playing import run_games, set_threads
    from kiai.strategies import registry

    check_games(games)
    check_threads(threads)
    strategy, overrides = resolve_strategy(player.strategy, player.param, player.params_file)
    try:
        registry.get(strategy)
        config = GameConfig(tuple(WORKLOAD["samurai"].split(",")), WORKLOAD["difficulty"], strategy, overrides)
        used = set_threads(threads)
    except (KeyError, ConfigError) as e:
        fail(str(e.args[0]))
    result = {"cores": os.cpu_count(), "threads": used, "games": games, **WORKLOAD, "strategy": strategy,
              "params": config.played_params(), "numba": numba.__version__}
    if profile:
        _profile(result, config, as_json)
        return
    if compile_times:
        with tempfile.TemporaryDirectory(prefix="kiai-bench-") as tmp:
            stderr("timing a cold compile (a new process with an empty cache; about a minute)...")
            result["compile_cold_s"] = _probe(tmp, strategy)
            stderr(f"  compiled in {result['compile_cold_s']:.1f} s; timing a warm start...")
            result["start_warm_s"] = _probe(tmp, strategy)
    warm_engine(config)  # load or compile before timing
    stderr(f"playing {plural(games, 'game')}...")
    t0 = time.perf_counter()
    run_games(config, games, 0)
    seconds = time.perf_counter() - t0
    result["seconds"] = seconds
    result["games_per_second"] = games / seconds
    if as_json:
        print(json.dumps(result))
        return
    _print_workload(result)
    print(f"throughput    {result['games_per_second']:,.0f} games/s ({plural(games, 'game')} in {seconds:.2f} s)")
    if compile_times:
        print(f"compile cold  {result['compile_cold_s']:.1f} s (new process, empty cache)")
        print(f"start warm    {result['start_warm_s']:.2f} s (new process, cache present, incl. imports)")


def _print_workload(result: dict) -> None:
    print(f"workload      4 samurai ({WORKLOAD['samurai']}), {WORKLOAD['difficulty']}, strategy {result['strategy']}"
          + (f" {result['params']}" if result["params"] else ""))
    print(f"machine       {plural(result['cores'], 'core')}, {plural(result['threads'], 'thread')}, "
          f"numba {result['numba']}")


def _profile(result: dict, config, as_json: bool) -> None:
    from kiai.cli.profile import profile

    games = result["games"]
    with progress() as bar:  # the new process compiles for a minute or two, then plays
        task = bar.add_task("compiling everything in a new process", total=None, visible=False)

        def start() -> None:
            stderr(f"profiling {plural(games, 'game')} under perf in a new process (it compiles everything first)...")
            bar.update(task, visible=True)

        def played(n: int) -> None:
            bar.update(task, description="playing under perf", total=games, completed=n)

        try:  # perf's absence is found before any work, a failed run after it
            found = profile(WORKLOAD, result["strategy"], config.param_dict(), games, result["threads"],
                            on_start=start, on_progress=played)
        except (FileNotFoundError, RuntimeError) as e:
            fail(str(e))
    result.update(games_per_second=found["games_per_second"],
                  functions=[{"share": round(share / 100, 6), "function": name} for share, name in found["functions"]])
    if as_json:
        print(json.dumps(result))
        return
    _print_workload(result)
    print(f"under perf    {found['games_per_second']:,.0f} games/s")
    print("share of samples, by function (all threads):")
    for share, name in found["functions"]:
        print(f"  {share:5.1f}%  {name}")
