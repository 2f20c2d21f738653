"""`kiai bench`: the engine's speed on a fixed workload, and its compile times."""

from __future__ import annotations

import json

import typer

from kiai.cli.common import PLAYER, Options, ThreadsOpt, command, grouped, stderr
from kiai.progress import bar as progress
from kiai.words import plural


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
    from kiai import bench as B

    asked = dict(strategy=player.strategy, params=player.param, params_file=player.params_file, threads=threads,
                 note=stderr)  # fmt: skip
    if profile:
        _profile(games, asked, as_json)
        return
    result = B.bench(games, compile_times=compile_times, **asked)
    if as_json:
        print(json.dumps(result))
        return
    _print_workload(result)
    print(f"throughput    {result['games_per_second']:,.0f} games/s ({plural(games, 'game')} in "
          f"{result['seconds']:.2f} s)")  # fmt: skip
    if compile_times:
        print(f"compile cold  {result['compile_cold_s']:.1f} s (new process, empty cache)")
        print(f"start warm    {result['start_warm_s']:.2f} s (new process, cache present, incl. imports)")


def _print_workload(result: dict) -> None:
    print(f"workload      4 samurai ({result['samurai']}), {result['difficulty']}, strategy {result['strategy']}"
          + (f" {result['params']}" if result["params"] else ""))
    print(f"machine       {plural(result['cores'], 'core')}, {plural(result['threads'], 'thread')}, "
          f"numba {result['numba']}")


def _profile(games: int, asked: dict, as_json: bool) -> None:
    from kiai import bench as B

    with progress() as bar:  # the new process compiles for a minute or two, then plays
        task = bar.add_task("compiling everything in a new process", total=None, visible=False)

        def start() -> None:
            stderr(f"profiling {plural(games, 'game')} under perf in a new process (it compiles everything first)...")
            bar.update(task, visible=True)

        def played(n: int) -> None:
            bar.update(task, description="playing under perf", total=games, completed=n)

        result = B.profile(games, on_start=start, on_progress=played, **asked)
    if as_json:
        print(json.dumps(result))
        return
    _print_workload(result)
    print(f"under perf    {result['games_per_second']:,.0f} games/s")
    print("share of samples, by function (all threads):")
    for f in result["functions"]:
        print(f"  {100 * f['share']:5.1f}%  {f['function']}")
