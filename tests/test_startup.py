"""kiai starts in about a second: the heavy libraries are imported by the commands that use them.

`kiai --help` needs only typer, and `kiai simulate` the engine; pandas, scipy, statsmodels,
matplotlib, dask, pyarrow and torch took most of a second to import before any game was played.
These tests check which modules a fresh process loads (they time nothing).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("pandas", "scipy", "statsmodels", "matplotlib", "dask", "distributed", "pyarrow", "torch")


def loaded_after(code: str) -> dict[str, list[str]]:
    """The heavy packages (and rich, numba) a fresh interpreter has loaded after running `code`."""
    probe = (f"{code}\nimport json, sys\n"
             f"print(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}})))")  # fmt: skip
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def test_importing_the_cli_loads_no_heavy_library():
    loaded = loaded_after("import cli.main")
    assert not [m for m in HEAVY if m in loaded], f"`import cli.main` loads {[m for m in HEAVY if m in loaded]}"
    # `kiai --help` needs neither the engine nor the progress bars
    assert "numba" not in loaded
    assert "rich" not in loaded


def test_importing_kiai_loads_neither_the_engine_nor_pandas():
    """`import kiai` in a notebook costs nothing until a function is called; its names are there."""
    loaded = loaded_after("import kiai\nassert callable(kiai.simulate) and issubclass(kiai.KiaiError, ValueError)")
    assert "numba" not in loaded and "pandas" not in loaded
    assert not [m for m in HEAVY if m in loaded], f"`import kiai` loads {[m for m in HEAVY if m in loaded]}"


def test_simulate_loads_no_heavy_library_but_the_part_of_scipy_numba_brings():
    """`kiai simulate` summarises its games (95% interval included) without statsmodels, scipy.stats
    or pandas; numba itself imports scipy.linalg for its BLAS, so scipy is checked by module."""
    loaded = loaded_after(
        "import contextlib, io, sys\n"
        "from cli.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    assert main(['simulate', '-n', '50', '-s', 'kyuzo,kikuchiyo']) == 0\n"
        "heavy = sorted({m for m in sys.modules if m.split('.')[0] in %r and m.split('.')[0] != 'scipy'}\n"
        "               | {m for m in sys.modules if m.startswith(('scipy.stats', 'scipy.special'))})\n"
        "assert not heavy, heavy" % (HEAVY,))
    assert "numba" in loaded  # the probe did play


def test_the_heavy_libraries_are_still_there_when_used():
    """A lazy import is still an import: the statistics that need statsmodels get it."""
    loaded = loaded_after("from kiai.simcore.stats import paired_test\npaired_test([True, False] * 20, [False, True] * 20)")
    assert "statsmodels" in loaded


def modules_after(code: str) -> list[str]:
    """Every module (dotted name) a fresh interpreter has loaded after running `code`; its
    standard error is a pipe, as in a log or under a test runner: no terminal."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


SIMULATE = ("import contextlib, io\n"
            "from kiai.cli.main import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    assert main(['simulate', '-n', '50', '-s', 'kyuzo,kikuchiyo']) == 0\n")


def test_simulate_on_no_terminal_loads_no_progress_bar_and_nothing_of_the_page():
    """`kiai simulate` with standard error on no terminal draws no bar, so rich stays unloaded;
    nothing of the report's page, searches or records is loaded."""
    loaded = modules_after(SIMULATE)
    assert "kiai.cli.simulate" in loaded  # the probe did play
    assert not [m for m in loaded if m.split(".")[0] == "rich"], "rich is loaded without a bar to draw"
    assert not [m for m in loaded if m.startswith(("kiai.reports.page", "kiai.reports.search", "kiai.reports.records"))]


def test_simulate_imports_only_its_own_command_and_each_name_registers_its_command():
    """The CLI imports only the module of the command it runs (each brings its own imports);
    `kiai --help` and the tests get the whole app, and each name of cli.main.COMMANDS registers
    the command of that name."""
    loaded = modules_after(SIMULATE)
    others = [m for m in loaded if m.startswith("kiai.cli.") and m not in ("kiai.cli.main", "kiai.cli.common", "kiai.cli.simulate")]
    assert not others, f"`kiai simulate` imports the other commands {others}"
    import typer

    from kiai.cli import main

    for name in main.COMMANDS:
        assert list(typer.main.get_command(main.make_app(name)).commands) == [name]
    assert list(typer.main.get_command(main.app).commands) == [*main.COMMANDS, "train"]


def test_main_called_by_a_program_leaves_the_garbage_collectors_pace_alone(capsys):
    """Only the `kiai` process itself (main() reading sys.argv) sets the collector's pace."""
    import gc

    from kiai.cli.main import main

    before = gc.get_threshold()
    assert main(["rules"]) == 0
    assert gc.get_threshold() == before


def test_a_warm_simulate_loads_none_of_the_event_logs_writers():
    """The event log's writers are compiled with the engine that calls them, and its cached code
    holds them: a warm start loads none of them (they were compiled at import, two loads of numba's
    cache in every start). The first run warms the cache where this session's sources are new."""
    modules_after(SIMULATE)
    loaded = modules_after(
        SIMULATE + "from numba.core.dispatcher import Dispatcher\n"
        "from kiai.simcore import events\n"
        "compiled = [name for name, f in vars(events).items() if isinstance(f, Dispatcher) and f.overloads]\n"
        "assert not compiled, compiled\n")
    assert "kiai.simcore.events" in loaded
