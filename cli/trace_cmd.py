"""`kiai trace`: one game, turn by turn, in plain words."""

from __future__ import annotations

import typer

from kiai.cli.common import (
    PLAYER,
    SETUP,
    TABLE,
    Options,
    SeedOpt,
    command,
    config_args,
    grouped,
    stderr,
)


@command(short_help="Play one game and print it turn by turn.",
         help="Play one game and print it turn by turn, in words: who acts, which card, where it "
              "went, totals, Kiai, penalties and the end-of-round steps, with a line after every "
              "turn giving the village (barricades, farmsteads, families) and each samurai's "
              "wounds. A legend at the top explains the card notation. The same seed and game "
              "index replay the same game as `kiai simulate` played; `kiai record` writes it as "
              "JSON for programs.")
@grouped
def trace(
    table: Options = TABLE,
    seed: int = SeedOpt,
    game_index: int = typer.Option(0, "--game-index", "-i", help="Which game of the seed's sequence "
                                                                 "(0..2**63-1)."),
    player: Options = PLAYER,
    setup: Options = SETUP,
):
    from kiai.trace import trace as lines

    for line in lines(table.samurai, table.difficulty, seed=seed, game_index=game_index,
                      **config_args(player, setup), note=stderr):  # fmt: skip
        print(line)
