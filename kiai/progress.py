"""What a long call says as it goes: progress, and notes such as 'compiling the engine...'.

kiai's functions take `progress=`: False (nothing is shown), True (a bar on standard error, and
the notes there too), a function f(n) called with the number of games played since the last
call, or a Progress, whose methods the functions call (the command line's bars are one).

Where standard error is no terminal (a log, CI, nohup), a bar cannot be drawn: Bar writes a
plain line there every LOG_EVERY seconds instead (games done, of how many or about how many,
the rate and the time left), and a compile says every 30 seconds that it still runs
(strategies.run.warm, which compiles and hands its notes to Progress.note), so that no stage is
silent for a minute.
"""

from __future__ import annotations

import functools
import sys
import time
from collections.abc import Callable

from kiai.words import duration

LOG_EVERY = 30.0  # seconds between two progress lines where standard error is no terminal


class Progress:
    """The calls a long function makes as it plays; each does nothing here. Subclass it to show
    progress your own way, and pass an instance as `progress=`. The function uses it as a context
    manager around its work."""

    def note(self, line: str) -> None:
        """A one-line note for the user: the engine is compiling, a sweep resumes..."""

    def start(self, what: str, total: int | None, *, configurations: int | None = None,
              threads: int | None = None, workers: int | None = None) -> None:
        """Play begins, compilation over: `total` units of `what` (games, records; None: not known
        ahead). A sweep also gives its `configurations` to play, and the engine threads it plays
        on (or the Dask `workers`)."""

    def advance(self, n: int) -> None:
        """n more units (games, records) done."""

    def estimate(self, total: int) -> None:
        """The total, as now expected, where start() could not say it (a race's games)."""

    def now(self, description: str) -> None:
        """What is in play now (compare: the arm)."""

    def finished(self, index: int, row: dict, games: int) -> None:
        """A sweep finished the configuration `index` of its plan: its table row, and the games played."""

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> bool:
        return False


class _Calls(Progress):
    """progress=f: f(n) after every n games."""

    def __init__(self, function: Callable[[int], None]):
        self.function = function

    def advance(self, n: int) -> None:
        self.function(n)


class Bar(Progress):
    """A rich bar on standard error, shown once play begins; notes are printed there too.

    `make` makes the bar (default: bar(), shown on a terminal only), `enabled` overrides where
    it is shown. The bar counts what it saw: `games` (units advanced), `configurations_done`,
    `started` (time.perf_counter() when play began), and the `threads` or `workers` played on."""

    def __init__(self, make: Callable | None = None, *, enabled: bool | None = None, name: str = "kiai"):
        self.make = make
        self.enabled = enabled
        self.name = name  # what the plain lines start with: the command
        self.games = 0
        self.configurations_done = 0
        self.started: float | None = None
        self.threads: int | None = None
        self.workers: int | None = None
        self._bar = None
        self._task = self._configurations = None
        self._lines: Lines | None = None

    def note(self, line: str) -> None:
        print(line, file=sys.stderr)

    def start(self, what, total, *, configurations=None, threads=None, workers=None) -> None:
        self.started = time.perf_counter()
        self.threads, self.workers = threads, workers
        make = self.make or bar
        if self.enabled is None and make is bar and not may_be_terminal():
            self._bar = _Unshown()  # as rich's bar would be here, without importing rich
        else:
            self._bar = make() if self.enabled is None else make(enabled=self.enabled)
        self._bar.__enter__()
        if configurations is not None:
            self._configurations = self._bar.add_task("configurations", total=configurations, rate=" ")
        self._task = self._bar.add_task(what, total=total, rate="")
        if self.enabled is None and getattr(self._bar, "disable", False):  # no terminal: plain lines
            self._lines = Lines(self.name, what, total, configurations)

    def advance(self, n: int) -> None:
        self.games += n
        self._bar.advance(self._task, n)
        if self._lines is not None:
            self._lines.advance(n, self.configurations_done)

    def estimate(self, total: int) -> None:
        self._bar.update(self._task, total=total)
        if self._lines is not None:
            self._lines.total, self._lines.estimated = total, True

    def now(self, description: str) -> None:
        self._bar.update(self._task, description=description)

    def finished(self, index: int, row: dict, games: int) -> None:
        self.configurations_done += 1
        self._bar.update(self._configurations, completed=self.configurations_done,
                         rate=games_rate(self.games, self.started))  # fmt: skip

    def __exit__(self, *exc) -> bool:
        if self._bar is not None:
            self._bar.__exit__(*exc)
            self._bar = None
        return False


class _Unshown:
    """The calls Bar makes of a rich bar that is not shown: none does anything."""

    disable = True

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> bool:
        return False

    def add_task(self, *args, **fields) -> int:
        return 0

    def advance(self, *args) -> None:
        pass

    def update(self, *args, **fields) -> None:
        pass


def may_be_terminal() -> bool:
    """False where rich would surely find standard error no terminal, known without importing
    rich (a few hundredths of a second of a start): it is not a tty, and neither TTY_COMPATIBLE=1
    nor FORCE_COLOR, by which rich takes a pipe for a terminal, is set. Where this is True, bar()
    asks rich itself."""
    import os

    if os.environ.get("TTY_COMPATIBLE") == "1" or "FORCE_COLOR" in os.environ:
        return True
    try:
        return sys.stderr is not None and sys.stderr.isatty()
    except (AttributeError, ValueError):  # no isatty, or closed: rich says no terminal too
        return False


class Lines:
    """Plain progress lines on standard error, at most one every LOG_EVERY seconds: 'sweep: 412,000
    of about 1,650,000 games (25%), 8,120 games/s, about 2 min 33 s left; 120 of 849 configurations
    finished'. The rate is that of the games since the last line, so the time left follows the
    work in hand."""

    def __init__(self, name: str, what: str, total: int | None, configurations: int | None):
        self.name, self.what, self.total, self.configurations = name, what, total, configurations
        self.estimated = False
        self.done = 0
        self._last = time.perf_counter()
        self._since = 0

    def advance(self, n: int, configurations_done: int = 0) -> None:
        self.done += n
        self._since += n
        now = time.perf_counter()
        if now - self._last < LOG_EVERY:
            return
        rate = self._since / max(now - self._last, 1e-9)
        self._last, self._since = now, 0
        print(self.line(rate, configurations_done), file=sys.stderr, flush=True)

    def line(self, rate: float, configurations_done: int = 0) -> str:
        head = f"{self.name}: {self.done:,}"
        if self.total:
            about = "about " if self.estimated else ""
            head += f" of {about}{self.total:,} {self.what} ({100 * self.done / self.total:.0f}%)"
        else:
            head += f" {self.what}"
        head += f", {rate:,.0f} {self.what}/s"
        if self.total and rate > 0:
            left = max(self.total - self.done, 0) / rate
            head += f", {'about ' if self.estimated else ''}{duration(left)} left"
        if self.configurations:
            head += f"; {configurations_done:,} of {self.configurations:,} configurations finished"
        return head


def reporter(progress) -> Progress:
    """The Progress a function's `progress=` argument stands for."""
    from kiai.errors import KiaiError

    if progress is None or progress is False:
        return Progress()
    if progress is True:
        return Bar(enabled=True)
    if isinstance(progress, Progress):
        return progress
    if callable(progress):
        return _Calls(progress)
    raise KiaiError(f"progress must be True, False, a function of the games played or a kiai.Progress, "
                    f"got {progress!r}")


def games_rate(games: int, start: float) -> str:
    """'N games/s' since time.perf_counter() read `start`, for progress bars."""
    return f"{games / max(time.perf_counter() - start, 1e-9):,.0f} games/s"


def bar(total: int | None = None, description: str = "", enabled: bool | None = None):
    """A rich progress bar on stderr, shown only on a terminal (unless `enabled` says).

    A task's `rate` field is shown as given; tasks that count games leave it empty and get
    rich's own speed estimate over the last seconds, so the rate follows the work in hand
    (a slow strategy after a fast one) rather than an average since the start."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn
    from rich.progress import Progress as RichProgress

    console = Console(stderr=True)
    show = console.is_terminal if enabled is None else enabled
    return RichProgress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), rate_column()(),
        TimeRemainingColumn(), console=console, disable=not show, transient=True, speed_estimate_period=10,
    )  # fmt: skip


@functools.cache
def rate_column() -> type:
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
