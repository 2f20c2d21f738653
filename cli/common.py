"""Options shared by kiai's commands, and turning bad input into one-line errors."""

from __future__ import annotations

import json
import shlex
import sys
from dataclasses import dataclass, field
from pathlib import Path

import typer

DEFAULT_SAMURAI = "kyuzo,kikuchiyo,heihachi,daisuke"
DEFAULT_STRATEGY = "reference"  # simulate, trace, bench when neither --strategy nor --params-file names one

_COMMAND_LINE: list[str] = []  # the arguments of this run, set by cli.main.main


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


def set_command_line(argv: list[str]) -> None:
    _COMMAND_LINE[:] = [str(a) for a in argv]


def command_line() -> str:
    """This run as a shell command line (`kiai ...`), for the provenance of written results."""
    return shlex.join(["kiai", *_COMMAND_LINE])


@dataclass(frozen=True)
class ParamsFile:
    """A strategy and its parameters, as read from a --params-file (the JSON `kiai tune` writes)."""

    path: str
    strategy: str
    params: dict = field(default_factory=dict)
    info: dict = field(default_factory=dict)  # the whole file, provenance included


def load_params_file(path: str | Path) -> ParamsFile:
    """Read and check a --params-file: {"strategy": NAME, "params": {NAME: VALUE, ...}, ...}.

    Every problem (no file, bad JSON, unknown strategy, unknown or out-of-range parameter) is
    a one-line UserError that names the file."""
    from strategies import registry

    where = f"--params-file {path}"
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        fail(f"{where}: no such file")
    except (OSError, UnicodeDecodeError) as e:
        fail(f"{where}: cannot read it ({getattr(e, 'strerror', None) or e})")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        fail(f"{where}: not valid JSON ({e.msg} at line {e.lineno}, column {e.colno})")
    if not isinstance(data, dict):
        fail(f"{where}: expected a JSON object with 'strategy' and 'params'")
    name, params = data.get("strategy"), data.get("params", {})
    if not isinstance(name, str) or not name:
        fail(f"{where}: 'strategy' must be a strategy name")
    if not isinstance(params, dict):
        fail(f"{where}: 'params' must be an object of NAME: number")
    try:
        info = registry.get(name)
        info.param_vector(params)
    except KeyError as e:
        fail(f"{where}: {e.args[0]}")
    except ValueError as e:
        fail(f"{where}: {e}")
    return ParamsFile(str(path), name, dict(params), data)


def resolve_strategy(strategy: str | None, params: list[str] | None, params_file: str | Path | None,
                     default: str = DEFAULT_STRATEGY, option: str = "--strategy") -> tuple[str, dict]:
    """The strategy and parameter overrides of a command with --strategy, --param and --params-file.

    The file's strategy is used when --strategy is not given (the default otherwise); a
    --strategy naming another strategy is an error; --param values override the file's."""
    loaded = load_params_file(params_file) if params_file is not None else None
    if loaded is None:
        return strategy or default, parse_params(params)
    if strategy is not None and strategy != loaded.strategy:
        fail(f"{option} {strategy} differs from the strategy of --params-file {loaded.path} ({loaded.strategy})")
    return loaded.strategy, {**loaded.params, **parse_params(params)}


def parse_samurai(text: str) -> tuple[str, ...]:
    names = tuple(s.strip() for s in text.split(",") if s.strip())
    if not names:
        fail("--samurai expects a comma-separated list of 2 to 7 names")
    return names


def make_config(samurai: str, difficulty: str, strategy: str | None, params: list[str] | None,
                absent_tokens: str, components: str | None, first_seat: int | None = None,
                params_file: str | Path | None = None):
    """Build a GameConfig from command-line text; every problem becomes a UserError."""
    from simcore.api import ConfigError, GameConfig
    from simcore.components import ComponentsError, load_components

    strategy, overrides = resolve_strategy(strategy, params, params_file)
    try:
        comp = load_components(components)
        return GameConfig(
            samurai=parse_samurai(samurai), difficulty=difficulty.lower(), strategy=strategy,
            params=overrides, absent_tokens=absent_tokens.lower(), components=comp,
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
StrategyOpt = typer.Option(None, "--strategy", help="Strategy name (see `kiai strategies`; default: the "
                                                     f"--params-file's strategy, else {DEFAULT_STRATEGY}).")
ParamOpt = typer.Option(None, "--param", help="Strategy parameter NAME=VALUE; repeatable (e.g. --param T=3); overrides "
                                              "the --params-file's value.")
ParamsFileOpt = typer.Option(None, "--params-file", help="JSON file of a strategy and its parameters, as `kiai tune` "
                                                         "writes: {\"strategy\": NAME, \"params\": {NAME: VALUE}}.")
AbsentOpt = typer.Option("auto", "--absent-tokens", help="Absent support tokens: on, off, or auto (on with two samurai, R-18).")
ComponentsOpt = typer.Option(None, "--components", help="Component data file (TOML); default: the packaged file.")
SeedOpt = typer.Option(0, "--seed", help="Random seed; game i of seed S is the same game on any machine.")
ThreadsOpt = typer.Option(None, "--threads", help="Worker threads (default: all cores). Results do not depend on it.")


def games_rate(games: int, start: float) -> str:
    """'N games/s' since time.perf_counter() read `start`, for progress bars."""
    import time

    return f"{games / max(time.perf_counter() - start, 1e-9):,.0f} games/s"


def format_params(params: dict) -> str:
    """{'T': 3, 'x': 0.5} as 'T=3 x=0.5' ('-' when empty)."""
    return " ".join(f"{k}={v:g}" for k, v in params.items()) or "-"


def stderr(msg: str) -> None:
    print(msg, file=sys.stderr)
