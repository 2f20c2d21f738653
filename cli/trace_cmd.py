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
    warm_engine,
)
from kiai.checks import check_game_index, check_seed, make_config


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

    from kiai.strategies.playing import grade, run_one
    from kiai.simcore.codes import OUT_WIN
    from kiai.reports.summary import absent_label, absent_tokens_unused, rules_label
    from kiai.simcore.trace import LEGEND, describe, outcome_words

    check_seed(seed)
    check_game_index(game_index)
    config = make_config(table.samurai, table.difficulty, **config_args(player, setup), note=stderr)
    warm_engine(config)
    run = run_one(config, seed, game_index, trace=True, check=True)
    seats = ", ".join(f"seat {i}: {s}" for i, s in enumerate(config.samurai))
    params = f" {config.played_params()}" if config.params else ""
    absent = absent_label(config.absent_on, absent_tokens_unused(config))
    print(f"Game {game_index} of seed {seed}: {seats}; {config.difficulty}; strategy {config.strategy}{params}"
          f"{absent}{rules_label(config.rules)}.")
    for line in LEGEND:
        print(line)
    for line in describe(run.events, config.samurai, config.components):
        print(line)
    outcome = run.result("outcome")
    if outcome == OUT_WIN:
        print(f"The samurai win. Score {grade(run.result('score'), config.level_pluses)}.")
    else:
        print(f"The samurai lose in round {run.result('end_round')}: {outcome_words(outcome)}.")
    if run.book.err:
        print(f"warning: an invariant failed during this game (code {int(run.book.err)})")
