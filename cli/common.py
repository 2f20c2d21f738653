"""Options shared by kiai's commands, and turning bad input into one-line errors."""

from __future__ import annotations

import functools
import json
import os
import shlex
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import typer

from kiai.reports.words import plural

DEFAULT_SAMURAI = "kyuzo,kikuchiyo,heihachi,daisuke"
# The most games one command plays per configuration: 100 million is about 15 minutes at the
# engine's full speed. (It is not a memory bound: games are summarised block by block as they
# are played, so memory does not grow with their number.)
MAX_GAMES = 100_000_000
MAX_INDEX = 2**63 - 1  # game indices and seeds are 64-bit words in the engine (simcore.rng)

_COMMAND_LINE: list[str] = []  # the arguments of this run, set by cli.main.main


def command(name: str | None = None, **settings):
    """Mark a function as a kiai command: `name` (default: the function's) and typer's other
    settings of `Typer.command` (short_help, help, cls...). cli/main.py registers the marked
    functions on the app, all in one place; a command module never imports the app."""

    def mark(function):
        function.command_settings = {"name": name, **settings}
        return function

    return mark


class UserError(Exception):
    """Bad input: printed as one line, exit code 2."""


def fail(message: str):
    raise UserError(message)


def default_strategy() -> str:
    """kiai's default strategy (strategies.registry.DEFAULT), imported only when needed."""
    from kiai.strategies.registry import DEFAULT

    return DEFAULT


def parse_params(values: list[str] | None) -> dict[str, float]:
    """--param NAME=VALUE (repeatable) into a dict of numbers; a name given twice is an error."""
    params: dict[str, float] = {}
    for item in values or []:
        name, sep, raw = item.partition("=")
        name = name.strip()
        if not sep or not name or not raw.strip():
            fail(f"--param expects NAME=VALUE, got '{item}'")
        try:
            value = float(raw)
        except ValueError:
            fail(f"--param {name}: '{raw}' is not a number")
        if name in params:
            fail(f"--param {name} is given twice ({params[name]:g} and {value:g}); give it once")
        params[name] = int(value) if value.is_integer() else value
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
    from kiai.strategies import registry

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
                     option: str = "--strategy") -> tuple[str, dict]:
    """The strategy and parameter overrides of a command with --strategy, --param and --params-file.

    The file's strategy is used when --strategy is not given (the default otherwise); a
    --strategy naming another strategy is an error; --param values override the file's."""
    loaded = load_params_file(params_file) if params_file is not None else None
    if loaded is None:
        return strategy or default_strategy(), parse_params(params)
    if strategy is not None and strategy != loaded.strategy:
        fail(f"{option} {strategy} differs from the strategy of --params-file {loaded.path} ({loaded.strategy})")
    return loaded.strategy, {**loaded.params, **parse_params(params)}


def parse_samurai(text: str, option: str = "--samurai") -> tuple[str, ...]:
    """Comma-separated names; an empty name (`a,,b`, a trailing comma) is an error, not skipped,
    and so is a name that is not a samurai (every unknown one named, as every command names them)."""
    from kiai.reports.seatings import check_known

    names = tuple(s.strip() for s in text.split(","))
    if not any(names):
        fail(f"{option} expects a comma-separated list of 2 to 7 names")
    if not all(names):
        fail(f"{option} '{text}' has an empty name; give the names separated by single commas")
    try:
        check_known(names)
    except ValueError as e:
        fail(str(e))
    return names


def parse_rules(items: list[str] | None, option: str = "--rule", axis: bool = False) -> dict:
    """--rule NAME=VALUE (repeatable) into {name: value}; with `axis` (a sweep, a comparison) a
    name may list several values, {name: [values]}. Every problem is a UserError."""
    from kiai.simcore.readings import ReadingError, parse_rule_items

    try:
        parsed = parse_rule_items(items, option)
    except ReadingError as e:
        fail(str(e))
    if axis:
        return parsed
    several = next((k for k, v in parsed.items() if len(v) > 1), None)
    if several:
        fail(f"{option} {several}: give one value here (a sweep takes several)")
    return {k: v[0] for k, v in parsed.items()}


def make_config(samurai: str, difficulty: str, strategy: str | None, params: list[str] | None,
                absent_tokens: str, components: str | None, first_seat: int | None = None,
                params_file: str | Path | None = None, model: str | None = None, rules: list[str] | None = None):
    """Build a GameConfig from command-line text; every problem becomes a UserError."""
    from kiai.simcore.config import ConfigError
    from kiai.strategies.run import GameConfig
    from kiai.simcore.components import ComponentsError, load_components

    strategy, overrides = resolve_strategy(strategy, params, params_file)
    readings = parse_rules(rules)
    try:
        comp = load_components(components)
        config = GameConfig(
            samurai=parse_samurai(samurai), difficulty=difficulty.lower(), strategy=strategy,
            params=overrides, absent_tokens=absent_tokens.lower(), components=comp,
            first_seat=first_seat, model=model, rules=readings,
        )  # fmt: skip
    except (ConfigError, ComponentsError) as e:
        fail(str(e))
    check_model(model, [config])
    return config


def check_model(model: str | None, configs) -> None:
    """--model is for configurations that play a model (learned, or a planner over it)."""
    if model is not None and not any(c.uses_model for c in configs):
        fail("--model: no strategy here plays a model (it is for learned, or a lookahead over learned)")


def check_seed(seed: int) -> int:
    if not 0 <= seed <= MAX_INDEX:
        fail(f"--seed must be in 0..2**63-1, got {seed}")
    return seed


def check_games(games: int, option: str = "--games") -> int:
    """A number of games per configuration: 1 to MAX_GAMES."""
    if not 1 <= games <= MAX_GAMES:
        fail(f"{option} must be at least 1 and at most {MAX_GAMES:,}, got {games:,}")
    return games


def check_threads(threads: int | None) -> None:
    """Refuse fewer than one thread; say in one line when more are asked than the engine has."""
    if threads is None:
        return
    if threads < 1:
        fail(f"--threads must be at least 1, got {threads}")
    import numba

    most = numba.config.NUMBA_NUM_THREADS
    if threads > most:
        stderr(f"note: --threads {threads}: this machine runs at most {plural(most, 'engine thread')}; using {most}")


def check_output(path: Path, option: str = "--out", *, force: bool = False, suffixes: tuple[str, ...] = (),
                 exists_hint: str = "use --force to replace it") -> Path:
    """Check an output file before any game is played: the right suffix, not a folder, not an
    existing file unless --force, and in an existing folder we can create files in (kiai makes
    no folders for an output file: a missing one is more often a typo than a wish)."""
    path = Path(path)
    if suffixes and path.suffix.lower() not in suffixes:
        fail(f"{option} must end in {' or '.join(suffixes)}, got '{path}'")
    if path.is_dir():
        fail(f"{option} {path} is a folder; give a file name")
    if path.exists() and not force:
        fail(f"{option} {path} exists; {exists_hint}")
    _check_writable_folder(path.parent, option, path)
    return path


def check_output_folder(folder: Path, option: str = "--out") -> Path:
    """Check a folder of kiai's own output (`report --out`, `train`'s FOLDER) before any work:
    a folder, made if missing, but then in an existing folder, as for an output file."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        fail(f"{option} {folder} exists and is not a folder")
    _check_writable_folder(folder if folder.is_dir() else folder.parent, option, folder)
    return folder


def _check_writable_folder(folder: Path, option: str, path: Path) -> None:
    """`folder` (where `path` goes) exists, is a folder and takes new files. The check creates
    and removes a probe file, so it holds for root and for file systems (/proc) whose modes say
    nothing."""
    if not folder.exists():
        fail(f"{option} {path}: folder {folder} does not exist; create it first")
    if not folder.is_dir():
        fail(f"{option} {path}: {folder} is not a folder")
    try:
        fd, probe = tempfile.mkstemp(dir=folder, prefix=".kiai-probe-")
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        fail(f"{option} {path}: cannot write in {folder} ({e.strerror or e})")


def progress(total: int | None = None, description: str = "", enabled: bool | None = None):
    """A rich progress bar on stderr, shown only on a terminal.

    A task's `rate` field is shown as given; tasks that count games leave it empty and get
    rich's own speed estimate over the last seconds, so the rate follows the work in hand
    (a slow strategy after a fast one) rather than an average since the start."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    console = Console(stderr=True)
    show = console.is_terminal if enabled is None else enabled
    return Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), _rate_column()(),
        TimeRemainingColumn(), console=console, disable=not show, transient=True, speed_estimate_period=10,
    )  # fmt: skip


@functools.cache
def _rate_column() -> type:
    """RateColumn, made on first use: rich.progress is imported only when a bar is drawn."""
    from rich.progress import ProgressColumn

    class RateColumn(ProgressColumn):
        """The task's `rate` field if set, else its recent speed in games/s."""

        def render(self, task):
            from rich.text import Text

            text = task.fields.get("rate") or ""
            if not text and task.speed is not None:
                text = f"{task.speed:,.0f} games/s"
            return Text(text)

    RateColumn.__module__ = __name__
    return RateColumn


def __getattr__(name: str):
    if name == "RateColumn":  # `from cli.common import RateColumn`
        return _rate_column()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


COMPILE_NOTE_AFTER = 2.0  # seconds: a warm start loads the engine in about one


def warm_engine(config, *more) -> float:
    """Compile the engine and what `config` (and the configurations `more`) play, or load them
    from numba's cache, before any game is timed.

    When that takes longer than a warm start, one line on stderr says what is being compiled
    (the engine and the strategies played, on a first run after an install or an update; or
    only the strategies played for the first time, the engine being cached), so a long silence
    is explained, and one more says how long it took. Returns the seconds it took."""
    import threading
    import time

    from kiai.reports.sweep import warm
    from kiai.strategies.run import prepare, uncompiled

    configs = [config, *more]
    engine, names = uncompiled(configs)
    strategies = ", ".join(names)
    if engine:
        what = "the engine" + (f" and the strategies it plays ({strategies})" if names else "")
        doing = f"compiling {what} (first run after an install or an update; about a minute)..."
        done = f"compiled {what}"
    elif names:
        what = f"strateg{'ies' if len(names) > 1 else 'y'} {strategies}"
        doing = f"compiling {what}, played for the first time (the engine is already compiled)..."
        done = f"compiled {what}"
    else:
        doing = "loading the compiled engine and strategies from the cache..."
        done = "loaded the compiled engine and strategies"
    start = time.perf_counter()
    note = threading.Timer(COMPILE_NOTE_AFTER, stderr, [doing])
    note.daemon = True
    note.start()
    try:
        prepare(configs)
        warm(config)
    finally:
        note.cancel()
    seconds = time.perf_counter() - start
    if seconds > COMPILE_NOTE_AFTER:
        stderr(f"{done} in {seconds:.0f} s" + (" (cached for later runs)" if engine or names else ""))
    return seconds


SamuraiOpt = typer.Option(DEFAULT_SAMURAI, "--samurai", "-s",
                          help="Seat order, clockwise from seat 0: 2 to 7 distinct names, comma-separated.")
DifficultyOpt = typer.Option("normal", "--difficulty", "-d", help="easy, normal, hard or heroic (or a house level of the component file).")
StrategyOpt = typer.Option(None, "--strategy", help="Strategy name (default: the --params-file's strategy, else "
                                                     "kiai's default strategy, marked in `kiai strategies`).")
ParamOpt = typer.Option(None, "--param", help="Strategy parameter NAME=VALUE; repeatable (e.g. --param T=3); overrides "
                                              "the --params-file's value.")
ParamsFileOpt = typer.Option(None, "--params-file", help="JSON file of a strategy and its parameters, as `kiai tune` "
                                                         "writes: {\"strategy\": NAME, \"params\": {NAME: VALUE}}.")
AbsentOpt = typer.Option("auto", "--absent-tokens", help="Absent support tokens: on, off, or auto (on with two samurai, R-18).")
ComponentsOpt = typer.Option(None, "--components", help="Component data file (TOML); default: the packaged file.")
SeedOpt = typer.Option(0, "--seed", help="Random seed; game i of seed S is the same game on any machine.")
ThreadsOpt = typer.Option(None, "--threads", help="Worker threads (default: all cores; at most the cores). Results "
                                                   "do not depend on it.")
ForceOpt = typer.Option(False, "--force", help="Replace an existing output file.")
RuleOpt = typer.Option(None, "--rule", help="A rule reading NAME=VALUE where players read the rules differently "
                                            "(docs/rules.md section 14; `kiai rules` lists them); repeatable, e.g. "
                                            "--rule heal=wounded. Default: the rules' own readings.")
ModelOpt = typer.Option(None, "--model", help="Model file that `learned` plays (also as a lookahead's base), as "
                                              "`kiai train` writes it (default: the model shipped with kiai).")


def games_rate(games: int, start: float) -> str:
    """'N games/s' since time.perf_counter() read `start`, for progress bars."""
    import time

    return f"{games / max(time.perf_counter() - start, 1e-9):,.0f} games/s"


def format_params(params: dict) -> str:
    """{'T': 3, 'x': 0.5} as 'T=3 x=0.5' ('-' when empty)."""
    return " ".join(f"{k}={v:g}" for k, v in params.items()) or "-"


def stderr(msg: str) -> None:
    print(msg, file=sys.stderr)
