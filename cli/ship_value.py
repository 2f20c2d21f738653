"""`kiai train ship`: make a value file the one `selfplay` plays on its family's tables (training.ship)."""

from __future__ import annotations

from pathlib import Path

import typer

from kiai.checks import check_size, fail, parse_levels, parse_params
from kiai.cli.common import command


@command("ship", short_help="Make a value file the one selfplay plays on its family's tables.",
         help="Copy a value file that `kiai train value --player selfplay` wrote into kiai's shipped values "
              "(strategies/data/selfplay-K-LEVEL.npz), as the value of the family it was trained on (--size "
              "samurai at --difficulty, read from its header when it says): `selfplay` then plays it on every table "
              "of that family. Its header gains `replaces`, the hashes of the file it replaces and of every file "
              "that one replaced, so that a value started from any of them still names its start. --play gives "
              "the parameters it plays best with (e.g. --play base=1 --play doubt=0.05, for playing over learned's "
              "answers), which `selfplay` then plays unless a user gives others, and --why says how they were "
              "chosen. Afterwards the stored digests of selfplay's games change: "
              "python tests/data/make_digests.py selfplay.")
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
    from kiai.simcore.components import load_components
    from kiai.strategies.base import said_params
    from kiai.strategies.nets.modelfile import AFTER, ModelError, load, other_components, other_data_error
    from kiai.training.ship import ship

    comp = load_components()
    try:
        model = load(file, AFTER, comp)
        if other_components(model, comp):  # kiai ships values of its own component data only
            raise other_data_error(model, comp)
    except ModelError as e:
        fail(str(e))
    k, _, lv = model.header.get("settings", {}).get("family", "").partition("@")
    size = size if size is not None else (int(k) if k else None)
    if size is None or (difficulty is None and not lv):
        fail(f"value file {file}: its header names no family; give --size and --difficulty")
    check_size(size)
    levels = parse_levels(difficulty or lv, comp)
    if len(levels) != 1:
        fail("--difficulty names one level")
    params = parse_params(play) if play else {}
    if params and not why.strip():
        fail("--play needs --why: say how the parameters were chosen (the header keeps it)")
    if to is not None and to.exists() and not to.is_dir():
        fail(f"--to {to} is a file, not a folder")
    if to is not None and not to.is_dir():
        fail(f"--to {to}: no such folder")
    try:
        dest, old = ship(model, f"{size}@{levels[0]}", params, why.strip(), to)
    except ModelError as e:
        fail(str(e))
    what = f"replaces {old.sha256[:12]}" if old is not None else "the family's first value"
    plays = said_params(params)
    print(f"{dest}: selfplay's value of {size}@{levels[0]} ({what}{'; plays ' + plays if plays else ''})")
