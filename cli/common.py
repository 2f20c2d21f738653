"""Options shared by kiai's commands, and what they share with the Python API.

The checks of bad input and their one-line messages are the API's (kiai.inputs): a KiaiError is
printed as one line, exit code 2 (cli/main.py). The progress bar and the compile notes are the
API's too (kiai.progress), shown here on standard error."""

from __future__ import annotations

import functools
import inspect
import shlex
import sys
import time
from types import SimpleNamespace

import typer

from kiai.inputs.configs import DEFAULT_SAMURAI
from kiai.progress import rate_column

_COMMAND_LINE: list[str] = []  # the arguments of this run, set by cli.main.main


def command(name: str | None = None, **settings):
    """Mark a function as a kiai command: `name` (default: the function's) and typer's other
    settings of `Typer.command` (short_help, help, cls...). cli/main.py registers the marked
    functions on the app, all in one place; a command module never imports the app."""

    def mark(function):
        function.command_settings = {"name": name, **settings}
        return function

    return mark


def set_command_line(argv: list[str]) -> None:
    _COMMAND_LINE[:] = [str(a) for a in argv]


def command_line() -> str:
    """This run as a shell command line (`kiai ...`), for the provenance of written results."""
    return shlex.join(["kiai", *_COMMAND_LINE])


def __getattr__(name: str):
    if name == "RateColumn":  # `from kiai.cli.common import RateColumn`
        return rate_column()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


SamuraiOpt = typer.Option(DEFAULT_SAMURAI, "--samurai", "-s",
                          help="Seat order, clockwise from seat 0: 2 to 7 distinct names, comma-separated.")
DifficultyOpt = typer.Option("normal", "--difficulty", "-d", help="easy, normal, hard or heroic (or a house level of the component file).")
StrategyOpt = typer.Option(None, "--strategy", help="Strategy name (default: the --params-file's strategy, else "
                                                     "kiai's default strategy, marked in `kiai strategies`); "
                                                     "for simulate, record and trace also 'strongest': kiai's "
                                                     "strongest player of the table's team size.")
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
ModelOpt = typer.Option(None, "--model", help="Model file the strategy plays: a value of the table for `selfplay`, "
                                              "as `kiai train value` writes it, or a model of `learned` (also as a "
                                              "lookahead's base), as `kiai train learned` writes it (default: the ones "
                                              "shipped with kiai).")


class Options:
    """Typer options written once for several commands. A command names the group as one
    parameter (`player: Options = PLAYER`); @grouped puts the group's options in its place in the
    signature that typer reads (so --help lists them there) and hands the command their values
    as one namespace (player.strategy, player.param...)."""

    def __init__(self, *options: tuple[str, object, object]):
        self.options = options  # (parameter name, type, typer.Option)


TABLE = Options(("samurai", str, SamuraiOpt), ("difficulty", str, DifficultyOpt))
PLAYER = Options(("strategy", str, StrategyOpt), ("param", list[str], ParamOpt), ("params_file", str, ParamsFileOpt))
StrictOpt = typer.Option(False, "--strict", help="Refuse a model made for other component data (other cards or "
                                                  "Kiai values than --components holds); without it the model plays "
                                                  "and the result says 'model trained on other components'.")
WorkersOpt = typer.Option(None, "--workers", help="Play on a local Dask cluster of N worker processes started for "
                                                   "this run (docs/clusters.md). Results do not depend on it.")
SchedulerOpt = typer.Option(None, "--scheduler", help="Play on a running Dask cluster: its scheduler's address "
                                                       "(tcp://host:8786); its workers need the same kiai installed "
                                                       "(docs/clusters.md). Results do not depend on it.")
# where a command plays: here (neither), a local Dask cluster (--workers) or a running one (--scheduler)
CLUSTER = Options(("workers", int, WorkersOpt), ("scheduler", str, SchedulerOpt))
SETUP = Options(("absent_tokens", str, AbsentOpt), ("components", str, ComponentsOpt), ("model", str, ModelOpt),
                ("rule", list[str], RuleOpt), ("strict", bool, StrictOpt))


def grouped(function):
    """The command `function` with each Options parameter replaced by its options (see Options)."""
    signature = inspect.signature(function, eval_str=True)
    groups, parameters = {}, []
    for p in signature.parameters.values():
        if isinstance(p.default, Options):
            groups[p.name] = p.default
            parameters += [inspect.Parameter(name, p.kind, default=option, annotation=kind)
                           for name, kind, option in p.default.options]  # fmt: skip
        else:
            parameters.append(p)

    @functools.wraps(function)
    def run(**given):
        for name, group in groups.items():
            given[name] = SimpleNamespace(**{option: given.pop(option) for option, _, _ in group.options})
        return function(**given)

    del run.__wrapped__  # typer reads the signature below, not the function's
    run.__signature__ = signature.replace(parameters=parameters)
    run.__annotations__ = {p.name: p.annotation for p in parameters}
    return run


def config_args(player: SimpleNamespace, setup: SimpleNamespace) -> dict:
    """The values of PLAYER and SETUP as keyword arguments of kiai.api's functions and make_config."""
    return dict(strategy=player.strategy, params=player.param, params_file=player.params_file,
                absent_tokens=setup.absent_tokens, components=setup.components, model=setup.model,
                rules=setup.rule, strict=setup.strict)  # fmt: skip


def stderr(msg: str) -> None:
    print(msg, file=sys.stderr)


def interrupted(what: str):
    """Ctrl-C: one line saying what became of the output ('interrupted; OUT left as it was'), and
    exit code 130, as kiai's other runs."""
    stderr(f"kiai: interrupted; {what}")
    raise typer.Exit(130)


class StageBars:
    """A training run's stages (training.learned.Stages) as progress bars on a terminal;
    elsewhere (a log file: a run takes an hour) a line as each stage starts and at every tenth of
    it, with the minutes spent. Both give the stage's rate in its units, counted from its first
    advance: the first step of a stage may compile what it plays, and the rate leaves that out."""

    def __init__(self, bar):
        self.bar, self.task, self.log = bar, None, not bar.console.is_terminal

    def stage(self, description, total, unit="games"):
        if self.task is not None:
            self.bar.remove_task(self.task)
        self.task = self.bar.add_task(description, total=total, rate=" ")
        self.description, self.total, self.unit = description, total, unit
        self.done, self.began, self.first = 0, time.perf_counter(), None
        if self.log:
            stderr(f"{description}: {total:,} to do")

    def _rate(self, now) -> str:
        """Units a second since the first advance ('' until two advances have come)."""
        if self.first is None or now <= self.first[1] or self.done <= self.first[0]:
            return ""
        r = (self.done - self.first[0]) / (now - self.first[1])
        return f"{r:,.0f} {self.unit}/s" if r >= 100 else f"{r:.3g} {self.unit}/s"

    def advance(self, k=1):
        tenth = 10 * self.done // max(self.total, 1)
        self.done += k
        now = time.perf_counter()
        if self.first is None:
            self.first = (self.done, now)
        rate = self._rate(now)
        self.bar.update(self.task, advance=k, rate=rate or " ")
        if self.log and 10 * self.done // max(self.total, 1) > tenth:
            stderr(f"{self.description}: {self.done:,} of {self.total:,} in "
                   f"{(now - self.began) / 60:.1f} min" + (f" ({rate})" if rate else ""))

    def note(self, line):
        self.bar.console.print(line) if self.bar.console.is_terminal else stderr(line)
