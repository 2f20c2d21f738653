"""`kiai record` and `kiai replay`: games as data (reports.records), and checking them."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from kiai.cli.common import (
    PLAYER,
    SETUP,
    TABLE,
    ForceOpt,
    Options,
    SeedOpt,
    command,
    config_args,
    grouped,
    interrupted,
    stderr,
)
from kiai.progress import Bar, bar as progress
from kiai.words import plural


@command(short_help="Play games and write each as a JSON record.",
         help="Play games and write each as a record: one JSON object per line with the setup, every "
              "event, decision and random outcome in order of play, the public state after each turn "
              "and end-of-round step, and the result (docs/records.md). `kiai replay` checks records "
              "against the engine; so can an independent implementation of the rules.")
@grouped
def record(
    table: Options = TABLE,
    games: int = typer.Option(None, "--games", "-n", help="Record games 0..N-1 of the seed (default 1)."),
    game_index: int = typer.Option(None, "--game-index", "-i", help="Record only this game of the seed's sequence "
                                                                     "(0..2**63-1), as `kiai trace` plays it."),
    seed: int = SeedOpt,
    player: Options = PLAYER,
    setup: Options = SETUP,
    out: Path = typer.Option(None, "--out", help="Write to this .jsonl or .jsonl.gz file (default: standard output)."),
    force: bool = ForceOpt,
):
    from kiai import api

    asked = dict(game_index=game_index, seed=seed, **config_args(player, setup))
    if out is None:  # to standard output as they are played; no bar there
        done = 0
        try:
            for line in api.records(table.samurai, table.difficulty, games, **asked, as_lines=True,
                                    progress=Bar(progress, enabled=False)):
                sys.stdout.write(line + "\n")
                done += 1
        except KeyboardInterrupt:
            interrupted(f"{plural(done, 'game record')} written to standard output")
        return
    try:
        api.record(table.samurai, table.difficulty, games, **asked, out=out, force=force, progress=Bar(progress))
    except KeyboardInterrupt:  # the records go to a temporary file, moved onto --out once complete
        interrupted(f"{out} left as it was")
    stderr(f"{plural(1 if game_index is not None else games or 1, 'game record')} written to {out}")


@command(short_help="Check game records against the engine.",
         help="Check game records against the engine: replay each, feeding it the record's random outcomes "
              "and decisions, and compare every event, state and the result. Prints 'N games verified', or "
              "the first divergence (game, event, field, recorded and replayed values) and exits 1. A record "
              "made with another component file needs that file (--components).")
def replay(
    files: list[Path] = typer.Argument(..., help="Record files (.jsonl or .jsonl.gz), as `kiai record` writes."),
    components: list[str] = typer.Option(None, "--components", help="Component data file(s) the records were made "
                                                                     "with, when not the packaged one; repeatable."),
):
    from kiai import api

    result = api.replay(files, components, progress=Bar(progress))
    print(result)
    if not result.ok:
        raise typer.Exit(1)
