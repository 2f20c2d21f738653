"""Options shared by kiai's commands, and turning bad input into one-line errors."""

from __future__ import annotations

import sys

import typer

DEFAULT_SAMURAI = "kyuzo,kikuchiyo,heihachi,daisuke"


class UserError(Exception):
    """Bad input: printed as one line, exit code 2."""


def fail(message: str):
    raise UserError(message)


def parse_params(values: list[str] | None) -> dict[str, float]:
    """--param NAME=VALUE (repeatable) into a dict of numbers."""
    params: dict[str, float] = {}
    for item in values or []:
        name, sep, raw = item.partition("=")
        if not sep or not name.strip() or not raw.strip():
            fail(f"--param expects NAME=VALUE, got '{item}'")
        try:
            value = float(raw)
        except ValueError:
            fail(f"--param {name.strip()}: '{raw}' is not a number")
        params[name.strip()] = int(value) if value.is_integer() else value
    return params


def parse_samurai(text: str) -> tuple[str, ...]:
    names = tuple(s.strip() for s in text.split(",") if s.strip())
    if not names:
        fail("--samurai expects a comma-separated list of 2 to 7 names")
    return names


def make_config(samurai: str, difficulty: str, strategy: str, params: list[str] | None,
                absent_tokens: str, components: str | None, first_seat: int | None = None):
    """Build a GameConfig from command-line text; every problem becomes a UserError."""
    from simcore.api import ConfigError, GameConfig
    from simcore.components import ComponentsError, load_components

    try:
        comp = load_components(components)
        return GameConfig(
            samurai=parse_samurai(samurai), difficulty=difficulty.lower(), strategy=strategy,
            params=parse_params(params), absent_tokens=absent_tokens.lower(), components=comp,
            first_seat=first_seat,
        )  # fmt: skip
    except (ConfigError, ComponentsError) as e:
        fail(str(e))


def check_seed(seed: int) -> int:
    if not 0 <= seed < 2**63:
        fail(f"--seed must be in 0..2**63-1, got {seed}")
    return seed


def progress(total: int, description: str, enabled: bool | None = None):
    """A rich progress bar on stderr, shown only on a terminal."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    console = Console(stderr=True)
    show = console.is_terminal if enabled is None else enabled
    return Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"), TimeRemainingColumn(),
        console=console, disable=not show, transient=True,
    )  # fmt: skip


SamuraiOpt = typer.Option(DEFAULT_SAMURAI, "--samurai", "-s",
                          help="Seat order, clockwise from seat 0: 2 to 7 distinct names, comma-separated.")
DifficultyOpt = typer.Option("normal", "--difficulty", "-d", help="easy, normal, hard or heroic (or a house level of the component file).")
StrategyOpt = typer.Option("reference", "--strategy", help="Strategy name (see `kiai strategies`).")
ParamOpt = typer.Option(None, "--param", help="Strategy parameter NAME=VALUE; repeatable (e.g. --param T=3).")
AbsentOpt = typer.Option("auto", "--absent-tokens", help="Absent support tokens: on, off, or auto (on with two samurai, R-18).")
ComponentsOpt = typer.Option(None, "--components", help="Component data file (TOML); default: the packaged file.")
SeedOpt = typer.Option(0, "--seed", help="Random seed; game i of seed S is the same game on any machine.")
ThreadsOpt = typer.Option(None, "--threads", help="Worker threads (default: all cores). Results do not depend on it.")


def stderr(msg: str) -> None:
    print(msg, file=sys.stderr)
