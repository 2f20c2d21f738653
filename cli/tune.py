"""`kiai tune`: search a strategy's parameters on common random numbers, re-evaluate the winner
on fresh games, and write the result as a file --params-file loads."""

from __future__ import annotations

from pathlib import Path

import typer

from kiai.inputs.configs import DEFAULT_SAMURAI
from kiai.cli.common import (
    CLUSTER,
    AbsentOpt,
    ComponentsOpt,
    ParamsFileOpt,
    RuleOpt,
    SeedOpt,
    ForceOpt,
    ModelOpt,
    Options,
    StrictOpt,
    ThreadsOpt,
    command,
    command_line,
    grouped,
    stderr,
)
from kiai.progress import Bar, bar as progress


@command(short_help="Search a strategy's parameters for the best win rate.",
         help="Search a strategy's parameters over their declared ranges (successive halving, random "
              "search, or the cross-entropy method) on one or more configurations, every candidate playing the same games "
              "(common random numbers); then play the best candidate and the start point (defaults "
              "or --params-file) on fresh games, print the best parameters with their win rate, "
              "interval and a paired test against the start point, and write them to a JSON file "
              "that --params-file loads in every command. --workers or --scheduler plays on Dask, "
              "with the same result.")
@grouped
def tune(
    strategy: str = typer.Argument(None, metavar="STRATEGY", help="The strategy to tune (default: the "
                                                                  "--params-file's)."),
    samurai: list[str] = typer.Option(None, "--samurai", "-s", help="A seating, seat 0 first, comma-separated; "
                                                                    f"repeatable (default: {DEFAULT_SAMURAI})."),
    difficulty: list[str] = typer.Option(None, "--difficulty", "-d", help="Levels, comma-separated or 'all'; "
                                                                          "repeatable (default: normal)."),
    games: int = typer.Option(20_000, "--games", "-n", help="Games per configuration at the last rung, and in "
                                                            "the re-evaluation of the winner on fresh games."),
    candidates: int = typer.Option(16, "--candidates", "-k", help="Parameter sets tried, the start point "
                                                                  "included (fewer if the ranges hold fewer)."),
    method: str = typer.Option("halving", "--method", help="halving: successive halving (all candidates on few "
                                                           "games, the best 1/eta go on to eta times as many); "
                                                           "random: every candidate plays --games; cem: the "
                                                           "cross-entropy method, --generations generations of "
                                                           "--candidates each drawn around the best fifth of the "
                                                           "last, every one playing the same --games."),
    generations: int = typer.Option(8, "--generations", help="The cross-entropy method: how many generations."),
    eta: int = typer.Option(3, "--eta", help="Successive halving: keep 1/eta of the candidates at each rung."),
    seed: int = SeedOpt,
    param: list[str] = typer.Option(None, "--param", help="Fix a parameter NAME=VALUE (not searched); repeatable."),
    params_file: str = typer.Option(None, "--params-file", help=ParamsFileOpt.help + " Its parameters are the "
                                                                "start point (candidate 0)."),
    out: Path = typer.Option(None, "--out", "-o", help="Where to write the result (default: tuned-STRATEGY.json); "
                                                       "checked before the search starts."),
    force: bool = ForceOpt,
    absent_tokens: str = AbsentOpt,
    rule: list[str] = RuleOpt,
    components: str = ComponentsOpt,
    model: str = ModelOpt,
    strict: bool = StrictOpt,
    threads: int = ThreadsOpt,
    cluster: Options = CLUSTER,
):
    from kiai.tune import tune as search

    result = search(strategy, samurai=samurai, levels=difficulty, games=games, candidates=candidates, method=method,
                    generations=generations, eta=eta, seed=seed, params=param, params_file=params_file, out=out,
                    force=force, absent_tokens=absent_tokens, rules=rule, components=components, model=model,
                    strict=strict, threads=threads, workers=cluster.workers, scheduler=cluster.scheduler,
                    command=command_line(),
                    progress=Bar(progress, name="tune"))  # fmt: skip
    print(result)
    try:  # after the results are printed: a late failure (a full disk) must not lose them
        written = result.write()
    except OSError as e:
        stderr(f"kiai: error: cannot write --out {result.search.out}: {e.strerror or e}")
        raise typer.Exit(1) from None
    print(f"written to {written} (load it with --params-file {written})")
