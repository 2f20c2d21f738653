"""`kiai simulate`: play N games of one configuration and summarise them."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from kiai.cli.common import (
    AbsentOpt,
    ComponentsOpt,
    DifficultyOpt,
    ForceOpt,
    ParamOpt,
    ParamsFileOpt,
    RuleOpt,
    SamuraiOpt,
    SeedOpt,
    StrategyOpt,
    ThreadsOpt,
    check_games,
    check_output,
    check_seed,
    check_threads,
    command,
    make_config,
    ModelOpt,
    progress,
    stderr,
    warm_engine,
)

if TYPE_CHECKING:
    from kiai.reports.summary import Tally


def play(config, games: int, seed: int, label: str = "games") -> tuple[Tally, float]:
    """Games 0..games-1 of a configuration with a progress bar that moves every second or so;
    returns their Tally (summarised as they are played) and the seconds spent playing
    (compilation excluded)."""
    from kiai.reports.sweep import play_range

    warm_engine(config)
    start = time.perf_counter()
    with progress() as bar:
        task = bar.add_task(label, total=games, rate="")
        tally = play_range(config, seed, 0, games, lambda k: bar.advance(task, k))
    return tally, time.perf_counter() - start


@command(short_help="Play N games of one configuration and summarise them.",
         help="Play N games of one configuration and print a summary: win rate with a 95% "
              "interval, how games were lost and when, scores and grades of wins, speed. "
              "--out also writes the result as a one-row table in the schema of `kiai sweep`, "
              "which `kiai report` reads.")
def simulate(
    samurai: str = SamuraiOpt,
    difficulty: str = DifficultyOpt,
    games: int = typer.Option(100_000, "--games", "-n", help="Number of games to play (at most 100,000,000)."),
    seed: int = SeedOpt,
    strategy: str = StrategyOpt,
    param: list[str] = ParamOpt,
    params_file: str = ParamsFileOpt,
    threads: int = ThreadsOpt,
    absent_tokens: str = AbsentOpt,
    components: str = ComponentsOpt,
    model: str = ModelOpt,
    rule: list[str] = RuleOpt,
    as_json: bool = typer.Option(False, "--json", help="Print exactly one JSON object instead of text."),
    out: Path = typer.Option(None, "--out", help="Also write the result as a one-row table (.csv or .parquet) "
                                                 "in the schema of `kiai sweep`."),
    force: bool = ForceOpt,
):
    from kiai.reports.summary import format_summary, summarize
    from kiai.strategies.run import set_threads

    check_games(games)
    check_seed(seed)
    check_threads(threads)
    if out is not None:
        check_output(out, force=force, suffixes=(".csv", ".parquet"))
    config = make_config(samurai, difficulty, strategy, param, absent_tokens, components, params_file=params_file,
                         model=model, rules=rule)
    used = set_threads(threads)
    tally, seconds = play(config, games, seed)
    summary = summarize(tally, config, seed, seconds, used)
    print(json.dumps(summary) if as_json else format_summary(summary))
    if out is not None:
        try:
            write_summary_table(summary, config, out)
        except OSError as e:  # checked before playing; the disk may still fill or vanish
            stderr(f"kiai: error: cannot write --out {out}: {e.strerror or e}")
            raise typer.Exit(1) from None
        if not as_json:
            print(f"table written to {out}")


def write_summary_table(summary: dict, config, path: Path) -> None:
    """The summary as a one-row results table, the same columns and types as a sweep's."""
    from kiai.reports.sweep import atomic_write, row_from_summary, to_frame

    df = to_frame([row_from_summary(summary, config)])
    if path.suffix.lower() == ".parquet":
        atomic_write(path, lambda tmp: df.to_parquet(tmp, index=False))
    else:
        atomic_write(path, lambda tmp: df.to_csv(tmp, index=False))
