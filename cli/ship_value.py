"""`kiai train ship`: make a value file the one `selfplay` plays on its family's tables (training.ship)."""

from __future__ import annotations

from pathlib import Path

import typer

from kiai.cli.common import command


@command("ship", short_help="Make a value file the one selfplay plays on its family's tables.",
         help="Copy a value file that `kiai train value --player selfplay` wrote into kiai's shipped values "
              "(strategies/data/selfplay-K-LEVEL.npz), as the value of the family it was trained on (--size "
              "samurai at --difficulty, read from its header when it says): `selfplay` then plays it on every table "
              "of that family. Its header gains `replaces`, the hashes of the file it replaces and of every file "
              "that one replaced, so that a value started from any of them still names its start. --play gives "
              "the parameters it plays best with (e.g. --play base=1 --play doubt=0.05, for playing over learned's "
              "answers), which `selfplay` then plays unless a user gives others, and --why says how they were "
              "chosen. Afterwards the stored digests of the default's games on that family's table change: "
              "python tests/data/make_digests.py --families (and python tests/data/make_digests.py selfplay where "
              "the family holds one of selfplay's own digest tables).")
def ship_value(
    file: Path = typer.Argument(..., metavar="FILE", help="The value file (value-I.npz of a train value run)."),
    size: int = typer.Option(None, "--size", help="The family's team size (2-7); default: the file's header's."),
    difficulty: str = typer.Option(None, "--difficulty", "-d", help="The family's level; default: the file's "
                                                                     "header's."),
    play: list[str] = typer.Option(None, "--play", help="A selfplay parameter NAME=VALUE the value plays best with; "
                                                        "repeatable."),
    why: str = typer.Option("", "--why", help="How --play was chosen (required with --play): kept in the header."),
    to: Path = typer.Option(None, "--to", help="The folder of shipped values (default: kiai's strategies/data)."),
):
    from kiai.train import ship

    print(ship(file, size=size, difficulty=difficulty, play=play, why=why, to=to))
