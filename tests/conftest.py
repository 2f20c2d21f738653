"""Shared fixtures and helpers for the rules tests (tests/test_rules_*.py).

The `engine` fixture compiles (or loads from numba's cache) the one kernel once per test
session, up front, so that no single rules test carries the compile time.

The helpers below are plain functions; the rules tests import them with
``from conftest import ...`` (pytest puts this directory on sys.path).
"""

from __future__ import annotations

import os

import pytest


@pytest.fixture(scope="session")
def engine():
    """Import the engine and play one tiny game, so compilation happens once for the session."""
    from kiai.strategies.run.games import run_one

    run = run_one(make_config("heihachi", "kyuzo", first_seat=0), seed=1, stop_after_turns=1)
    assert run.book.err == 0
    return run


@pytest.fixture(scope="module")
def one_thread(engine):
    """Run the kernel on one numba thread inside a rules-test module (restored afterwards).

    Each rules test plays single games; waking a pool of threads for each one-game batch costs
    far more than the game itself on a busy machine. Results do not depend on the thread count
    (simcore.rng), so this changes nothing but the time taken."""
    import numba

    from kiai.strategies.run.games import set_threads

    before = numba.get_num_threads()
    set_threads(1)
    yield
    set_threads(before)


# --------------------------------------------------------------------------- rules-test helpers
def _comp():
    from kiai.simcore.components import load_components

    return load_components()


class Cards:
    """Picks distinct card ids by their properties (each pick is excluded from later picks).

    `guard()` returns a [hat, farm, doll] defence side made of high cards (lieutenants, then
    bosses, then plunderers with a penalty from 4 down; the few penalty-free plunderers are
    kept for combat lines), so that a seat holding it can never defend: every
    card he meets is confronted, and the end-of-round steps cost him nothing."""

    def __init__(self, comp=None):
        self.comp = comp if comp is not None else _comp()
        self.used: set[int] = set()

    def __call__(self, *, value=None, symbol=None, penalties=None, flames=None, rank=None):
        from scenario import find_card

        c = find_card(self.comp, value=value, symbol=symbol, penalties=penalties, flames=flames,
                      rank=rank, exclude=self.used)  # fmt: skip
        self.used.add(c)
        return c

    def take(self, c):
        """Reserve a specific card id."""
        assert c not in self.used, f"card #{c} picked twice"
        self.used.add(c)
        return c

    def guard(self):
        from kiai.simcore.codes import SYMBOLS

        comp = self.comp

        def rank(c):  # lieutenants, bosses, then plunderers with a penalty, high values first
            return (
                -int(comp.card_rank[c] == 1),
                -int(comp.card_rank[c] == 2),
                -int(any(comp.card_pen[c])),
                -int(comp.card_value[c]),
                c,
            )

        order = sorted(range(comp.n_cards()), key=rank)
        out = []
        for sym in ("hat", "farm", "doll"):
            for c in order:
                if c not in self.used and SYMBOLS[comp.card_symbol[c]] == sym:
                    self.used.add(c)
                    out.append(c)
                    break
            else:  # pragma: no cover - the default deck has plenty
                raise LookupError(f"no {sym} card left for a guard")
        return out


def make_config(*samurai, **kw):
    """A GameConfig played by `reference` unless the caller names a strategy: the rules tests
    were written against reference's choices, whatever kiai's default strategy becomes."""
    from kiai.strategies.run.config import GameConfig

    kw.setdefault("strategy", "reference")
    return GameConfig(samurai=tuple(samurai), **kw)


def events(run, code):
    """The (a, b, c, d, e, f) fields of every event `code` in the run's log, in order."""
    return [tuple(int(x) for x in row[2:]) for row in run.events if int(row[0]) == code]


def event_codes(run):
    return [int(row[0]) for row in run.events]


def story(run) -> str:
    """The run's event log in words (for assertion messages)."""
    from kiai.simcore.trace import describe

    return "\n".join(describe(run.events, run.config.samurai, run.config.components))


def ok(run):
    """The invariant checker ran at every decision of the run and found nothing."""
    assert run.book.err == 0, story(run)


def guarded(cfg, cards, seats=None):
    """A Position in which the given seats hold a full defence side (Cards.guard), so that every
    card they meet is confronted unless a talent moves it. `seats`: None for every seat, a
    number n for seats 0..n-1, or the seats themselves."""
    from scenario import Position

    if seats is None:
        seats = cfg.n
    pos = Position(cfg)
    for s in range(seats) if isinstance(seats, int) else seats:
        pos.defence(s, cards.guard())
    return pos


class RecordingBar:
    """Stands in for kiai.progress.bar (`progress` in the command modules): records the tasks and how far they moved."""

    def __init__(self):
        self.tasks, self.moves, self.names = [], [], []

    def __call__(self, *a, **k):
        return self

    def __enter__(self):
        return self

    def __exit__(self, *a):
        return False

    def add_task(self, description, total=None, **fields):
        self.tasks.append({"description": description, "total": total, "completed": 0})
        return len(self.tasks) - 1

    def advance(self, task, k):
        self.tasks[task]["completed"] += k
        self.moves.append((task, k))

    def update(self, task, completed=None, description=None, **fields):
        if completed is not None:
            self.tasks[task]["completed"] = completed
        if description is not None:
            self.names.append(description)


# --------------------------------------------------------------------------- command-line helpers
def run(capsys, *argv):
    """`kiai ARGV...` in this process: (exit code, standard output, standard error)."""
    from kiai.cli.main import main

    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(code, out, err, *words):
    """Bad input: exit 2, nothing on standard output, one `kiai: error:` line naming `words`."""
    assert code == 2 and out == "", (code, out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kiai: error:"), err
    for w in words:
        assert w in lines[0], lines[0]


# ------------------------------------------------------------------------------ the browser tests
# pytest-playwright's `browser` and `page` fixtures drive Debian's Chromium (the system's binary,
# found by tests/browser.py): Playwright downloads no browser of its own. Where Chromium, Playwright
# or pytest-playwright is missing, the tests that use them are left out with one line saying how to
# install them; under KIAI_REQUIRE_BROWSER=1 (.ci/run sets it) they fail instead, so that CI cannot
# pass by skipping them.
try:
    import pytest_playwright  # noqa: F401 - only whether it is there
except ImportError:
    pytest_playwright = None

BROWSER_FIXTURES = ("browser", "page")
_NO_BROWSER: list[str] = []  # why the browser tests were left out, once, for the summary


def _browser_missing() -> str | None:
    """None where the browser tests can run; else one line saying what is missing and how to install it."""
    import browser as harness

    if pytest_playwright is None:
        return str(harness.BrowserMissing("pytest-playwright is not installed"))
    return harness.available()


def _refuse_or_skip(missing: str):
    if os.environ.get("KIAI_REQUIRE_BROWSER") == "1":
        pytest.fail(f"KIAI_REQUIRE_BROWSER=1 but {missing}", pytrace=False)
    pytest.skip(missing)


def pytest_collection_modifyitems(config, items):
    """Without Chromium or Playwright (and without KIAI_REQUIRE_BROWSER=1), leave out the tests that
    need them, so that the run says why once (pytest_terminal_summary), not once a test."""
    missing = _browser_missing()
    if not missing or os.environ.get("KIAI_REQUIRE_BROWSER") == "1":
        return
    left = [item for item in items if set(BROWSER_FIXTURES) & set(getattr(item, "fixturenames", ()))]
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = [item for item in items if item not in left]
        _NO_BROWSER.append(f"{len(left)} browser tests not run: {missing}")


def pytest_terminal_summary(terminalreporter):
    for line in _NO_BROWSER:
        terminalreporter.write_line(line)


if pytest_playwright is not None:

    @pytest.fixture(scope="session")
    def browser_type_launch_args(browser_type_launch_args):
        """pytest-playwright's launch options, with the system's Chromium and the harness's flags (no
        network: the page must work offline); headless unless pytest runs with --headed."""
        import browser as harness

        missing = _browser_missing()
        if missing:
            _refuse_or_skip(missing)
        flags = [flag for flag in harness.LAUNCH_ARGS if flag != "--headless"]
        return {**browser_type_launch_args, "executable_path": harness.find_chromium(), "args": flags}

else:  # the fixtures' names, so that a test needing them is skipped (or fails in CI), not an error

    @pytest.fixture(scope="session")
    def browser():
        _refuse_or_skip(_browser_missing())

    @pytest.fixture
    def page():
        _refuse_or_skip(_browser_missing())
