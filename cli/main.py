"""The `kiai` command."""

from __future__ import annotations

import atexit
import errno
import functools
import gc
import importlib
import os
import sys

import typer

try:  # typer >= 0.2x ships its own copy of click
    from typer._click import exceptions as cx
except ImportError:  # pragma: no cover - older typer on plain click
    import click.exceptions as cx

from kiai import environment
from kiai.about import version_line
from kiai.cli.common import set_command_line
from kiai.errors import KiaiError, WriteError

HELP = "Monte Carlo difficulty analyser for the cooperative card game Samurai Spirit."
SETTINGS = dict(add_completion=False, rich_markup_mode=None, no_args_is_help=True,
                context_settings={"max_content_width": 100})  # help as wide as the terminal, up to 100 columns


def _show_version(value: bool) -> None:
    if not value:
        return
    print(version_line())
    raise typer.Exit()


def _kiai(
    version: bool = typer.Option(False, "--version", is_eager=True, callback=_show_version,
                                 help="Print kiai's version, numba's, and the short hashes of the shipped models "
                                      "(learned's, and selfplay's family values together) and component data, then "
                                      "exit."),
) -> None:
    """kiai's own options, before a command (the app's help text says what kiai is)."""


# Each command lives in its own module as a plain function marked with cli.common.command; they
# are registered here as {command: "module.function"} of cli/, in this order (the order of
# `kiai --help`). No command module imports this one.
COMMANDS = {
    "balance": "balance.balance", "bench": "bench.bench", "compare": "compare.compare", "record": "record_cmd.record",
    "replay": "record_cmd.replay", "report": "report_cmd.report", "rules": "rules_cmd.rules",
    "simulate": "simulate.simulate", "solve": "solve_cmd.solve", "strategies": "strategies_cmd.strategies",
    "sweep": "sweep.sweep", "trace": "trace_cmd.trace", "tune": "tune.tune",
}
# the training commands, one group: what a user who only analyses the game never needs
TRAINING = {"learned": "train.train", "value": "train_value.train_value", "ship": "ship_value.ship_value"}


def _register(app: typer.Typer, where: str) -> None:
    module, function = where.split(".")
    marked = getattr(importlib.import_module(f"kiai.cli.{module}"), function)
    app.command(**marked.command_settings)(marked)


def make_app(only: str | None = None) -> typer.Typer:
    """The `kiai` app: every command, or the command named `only` alone. A run imports only the
    module of the command it runs: each module brings its command's own imports, and all of them
    with their registration take some 0.02 s of a start that numba's floor leaves 0.35 s for."""
    app = typer.Typer(name="kiai", help=HELP, pretty_exceptions_enable=False, **SETTINGS)
    app.callback()(_kiai)
    for name, where in COMMANDS.items():
        if only in (None, name):
            _register(app, where)
    if only is None:
        train_app = typer.Typer(name="train", help="Train kiai's learned players (needs PyTorch, the extra kiai[train]): "
                                                   "`learned`'s model, the values `selfplay` and `judge` play by, and "
                                                   "ship a value as a family's own.", **SETTINGS)
        for where in TRAINING.values():
            _register(train_app, where)
        app.add_typer(train_app, name="train", short_help="Train the learned players: kiai train learned|value|ship.")
    return app


def __getattr__(name: str):
    if name == "app":  # the whole app, for what reads its commands (the tests, the docs)
        return _whole_app()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@functools.cache
def _whole_app() -> typer.Typer:
    return make_app()


# spellings of earlier versions: one line saying what to type now
MOVED = {"train-value": "kiai train value", "ship-value": "kiai train ship"}


def moved(argv: list[str]) -> str | None:
    """The hint for a command line of an earlier spelling (`kiai train-value`, `kiai ship-value`,
    `kiai train FOLDER --options`), or None."""
    if argv and argv[0] in MOVED:
        return f"`kiai {argv[0]}` is now `{MOVED[argv[0]]}` (same options)"
    subcommands = set(TRAINING)
    if len(argv) > 1 and argv[0] == "train" and argv[1] not in subcommands and argv[1] not in ("--help", "-h"):
        return ("`kiai train` takes a subcommand: `kiai train learned` (what `kiai train` was), "
                "`kiai train value`, `kiai train ship`")
    return None


def empty_argument(argv: list[str]) -> str | None:
    """What an empty (or blank) argument was given for: kiai takes no empty name, and a path
    given as '' would read as the current folder."""
    for i, arg in enumerate(argv):
        option, eq, value = arg.partition("=")
        if arg.startswith("--") and eq and not value.strip():
            return option
        if not arg.strip():
            before = argv[i - 1] if i else ""
            return before if before.startswith("-") else f"the argument after '{before}'"
    return None


# what a write to standard output fails with when it cannot take more (a full disk, a closed pipe)
OUTPUT_FAULTS = (errno.ENOSPC, errno.EPIPE, errno.EDQUOT, errno.EFBIG, errno.EIO)


def main(argv: list[str] | None = None) -> int:
    """Entry point: usage errors and bad input print one line and exit with code 2; a file or
    standard output that cannot be written (a full disk) one line and code 1; Ctrl-C exits
    with code 130."""
    if argv is None:  # the process's own command line (the `kiai` script): it exits after this
        _collect_as_a_command()
        _forgiving_streams()
    try:
        code = _main(argv)
        sys.stdout.flush()  # here, not at the interpreter's exit, where a fault would go unsaid
    except WriteError as e:  # kiai.errors: a file of the command's, left as it was
        print(f"kiai: error: {e.strerror}", file=sys.stderr)
        return 1
    except OSError as e:  # standard output (print, the help, the final flush)
        if e.errno not in OUTPUT_FAULTS:
            raise
        print(f"kiai: error: cannot write standard output: {e.strerror or e}", file=sys.stderr)
        _drop_stdout()
        return 1
    return code


def _collect_as_a_command() -> None:
    """The garbage collector's pace for kiai as a process of its own (not for a program that calls
    main()). A start makes some 130,000 objects that live to the exit (numba's typing tables,
    typer's and pydantic's models) and few cycles among them; at Python's default pace the collector
    walks them all twice while the engine loads, and once more at the exit, some 0.1 s of a warm
    `kiai simulate` that frees next to nothing. A young-object collection every 10,000 allocations
    rather than 700, and one of the middle generation every 100 of those rather than 10, leave
    those walks out of a start (a long sweep keeps a bounded heap all the same: every generation
    is still collected, less often); the objects alive at the exit are frozen (gc.freeze), which
    the exit's collection then leaves alone."""
    gc.set_threshold(10_000, 100, gc.get_threshold()[2])
    atexit.register(gc.freeze)


def _forgiving_streams() -> None:
    """Standard output and error that write any text in the encoding they have: a name or a path
    their encoding lacks (an ASCII terminal, PYTHONIOENCODING=ascii, a file name of undecodable
    bytes) is written as Python's backslash escapes, not a UnicodeEncodeError after the work is
    done. Here once, for every line of every command."""
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):  # a TextIOWrapper (None under pythonw, or a caller's own object)
            stream.reconfigure(errors="backslashreplace")


def _drop_stdout() -> None:
    """Point standard output at the null device, so that the interpreter's last flush of what
    could not be written raises nothing more ("Exception ignored...")."""
    if sys.stdout is sys.__stdout__ and sys.stdout is not None:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)


def _main(argv: list[str] | None) -> int:
    args = [str(a) for a in (sys.argv[1:] if argv is None else argv)]
    asked = args[0] if args and args[0] in COMMANDS else None
    command = typer.main.get_command(make_app(asked))
    set_command_line(args)
    if environment.PROBLEM is not None:
        print(f"kiai: error: {environment.PROBLEM}", file=sys.stderr)
        return 2
    if environment.NOTE is not None:
        print(environment.NOTE, file=sys.stderr)
    problem = moved(args)
    empty = empty_argument(args)
    if problem is None and empty is not None:
        problem = f"{empty} is empty"
    if problem is not None:
        print(f"kiai: error: {problem}", file=sys.stderr)
        return 2
    try:
        rv = command.main(args=argv, prog_name="kiai", standalone_mode=False)
    except cx.NoArgsIsHelpError as e:  # bare `kiai`: show help, like --help
        print(e.ctx.get_help())
        return 0
    except typer.Exit as e:
        return e.exit_code
    except typer.Abort as e:
        if isinstance(e.__cause__, EOFError):  # click's word for the end of typed input: here a bug to show
            raise e.__cause__ from None
        print("kiai: aborted", file=sys.stderr)
        return 130
    except cx.ClickException as e:
        print(f"kiai: error: {e.format_message()}", file=sys.stderr)
        return 2
    except KiaiError as e:  # bad input: one line, exit code 2
        print(f"kiai: error: {e}", file=sys.stderr)
        return 2
    return rv if isinstance(rv, int) else 0

