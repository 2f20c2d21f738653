"""`kiai simulate`: play N games of one configuration and summarise them."""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
import typer

from cli.common import (
    AbsentOpt,
    ComponentsOpt,
    DifficultyOpt,
    ParamOpt,
    ParamsFileOpt,
    SamuraiOpt,
    SeedOpt,
    StrategyOpt,
    ThreadsOpt,
    check_seed,
    fail,
    games_rate,
    make_config,
    progress,
)
from cli.main import app

BLOCK = 50_000  # games per kernel call: keeps the progress bar moving on long runs


def play(config, games: int, seed: int, label: str = "games") -> tuple[np.ndarray, float]:
    """All games of a configuration, in blocks; returns per-game rows and seconds spent."""
    from simcore.api import run_games

    rows = []
    start = time.perf_counter()
    with progress(games, label) as bar:
        task = bar.add_task(label, total=games, rate="")
        done = 0
        while done < games:
            k = min(BLOCK, games - done)
            rows.append(run_games(config, k, seed, game_offset=done))
            done += k
            bar.update(task, completed=done, rate=games_rate(done, start))
    return np.concatenate(rows), time.perf_counter() - start


@app.command(help="Play N games of one configuration and print a summary: win rate with a 95% "
                  "interval, how games were lost and when, scores and grades of wins, speed.")
def simulate(
    samurai: str = SamuraiOpt,
    difficulty: str = DifficultyOpt,
    games: int = typer.Option(100_000, "--games", "-n", help="Number of games to play."),
    seed: int = SeedOpt,
    strategy: str = StrategyOpt,
    param: list[str] = ParamOpt,
    params_file: str = ParamsFileOpt,
    threads: int = ThreadsOpt,
    absent_tokens: str = AbsentOpt,
    components: str = ComponentsOpt,
    as_json: bool = typer.Option(False, "--json", help="Print exactly one JSON object instead of text."),
    out: Path = typer.Option(None, "--out", help="Also write the summary as a one-row table (.csv or .parquet)."),
):
    from reports.summary import format_summary, summarize
    from simcore.api import ConfigError, set_threads

    if games < 1:
        fail(f"--games must be at least 1, got {games}")
    check_seed(seed)
    if out is not None and out.suffix not in (".csv", ".parquet"):
        fail(f"--out must end in .csv or .parquet, got '{out}'")
    config = make_config(samurai, difficulty, strategy, param, absent_tokens, components, params_file=params_file)
    try:
        used = set_threads(threads)
    except ConfigError as e:
        fail(str(e))
    rows, seconds = play(config, games, seed)
    summary = summarize(rows, config, seed, seconds, used)
    if out is not None:
        write_summary_table(summary, out)
    if as_json:
        print(json.dumps(summary))
    else:
        print(format_summary(summary))
        if out is not None:
            print(f"table written to {out}")


def write_summary_table(summary: dict, path: Path) -> None:
    import pandas as pd

    flat = {}
    for k, v in summary.items():
        if isinstance(v, dict):
            for kk, vv in v.items():
                flat[f"{k}_{kk}"] = vv
        elif isinstance(v, list):
            flat[k] = ",".join(str(x) for x in v)
        else:
            flat[k] = v
    flat["ci_low"], flat["ci_high"] = summary["ci95"]
    df = pd.DataFrame([flat])
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix == ".parquet":
        df.to_parquet(path, index=False)
    else:
        df.to_csv(path, index=False)
