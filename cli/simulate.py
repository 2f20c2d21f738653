"""`kiai simulate`: play N games of one configuration and summarise them."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from kiai.cli.common import (
    PLAYER,
    SETUP,
    TABLE,
    ForceOpt,
    Options,
    SeedOpt,
    ThreadsOpt,
    command,
    config_args,
    grouped,
    stderr,
)
from kiai.progress import Bar, bar as progress


@command(short_help="Play N games of one configuration and summarise them.",
         help="Play N games of one configuration and print a summary: win rate with a 95% "
              "interval, how games were lost and when, scores and grades of wins, speed. "
              "--out also writes the result as a one-row table in the schema of `kiai sweep`, "
              "which `kiai report` reads.")
@grouped
def simulate(
    table: Options = TABLE,
    games: int = typer.Option(100_000, "--games", "-n", help="Number of games to play (at most 100,000,000)."),
    seed: int = SeedOpt,
    player: Options = PLAYER,
    threads: int = ThreadsOpt,
    setup: Options = SETUP,
    as_json: bool = typer.Option(False, "--json", help="Print exactly one JSON object instead of text."),
    out: Path = typer.Option(None, "--out", help="Also write the result as a one-row table (.csv or .parquet) "
                                                 "in the schema of `kiai sweep`."),
    force: bool = ForceOpt,
):
    from kiai import api

    # --out is checked and claimed by the API before the first game, and written after the summary
    result = api.simulate(table.samurai, table.difficulty, games, seed=seed, **config_args(player, setup),
                          threads=threads, out=out, force=force, progress=Bar(progress))  # fmt: skip
    print(json.dumps(result.to_dict()) if as_json else str(result))
    if out is not None:
        try:
            result.write_table()
        except OSError as e:  # checked before playing; the disk may still fill or vanish
            stderr(f"kiai: error: cannot write --out {out}: {e.strerror or e}")
            raise typer.Exit(1) from None
        if not as_json:
            print(f"table written to {out}")

