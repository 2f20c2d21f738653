"""The numba cache's key (simcore/sources.py): every source compiled code depends on, and no more."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from kiai.simcore import sources

ROOT = Path(sources.__file__).resolve().parent.parent


def _imports(path: Path) -> set[str]:
    """Modules of the two packages that a file imports, anywhere in it, as 'pkg/mod.py'."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        else:
            continue
        names = [n.removeprefix("kiai.") for n in names]  # installed as kiai.simcore, kiai.strategies
        out |= {n.replace(".", "/") + ".py" for n in names if n.split(".")[0] in ("simcore", "strategies")}
    return out


def test_plain_modules_hold_no_compiled_code():
    for rel in sources.PLAIN:
        text = (ROOT / rel).read_text()
        assert not any(w in text for w in ("njit", "@intrinsic", "cfunc", "@jit")), rel


def test_no_compiled_module_imports_a_plain_one():
    """An edit to a PLAIN module recompiles nothing, so compiled code must not depend on one."""
    for f in sources.source_files():
        rel = f"{f.parent.name}/{f.name}"
        assert not (_imports(f) & sources.PLAIN), f"{rel} imports {sorted(_imports(f) & sources.PLAIN)}"



def test_a_cold_strategy_compiles_in_a_second_process_beside_the_engine(monkeypatch):
    """On a cold cache the strategy's pieces go to a helper process while this one compiles the
    engine; the engine cached, new pieces are shared between the two (a plan on each side); the
    helper is waited for before the strategy is loaded."""
    from kiai.strategies.run import compiling
    from kiai.strategies.run.config import GameConfig

    calls = []

    class Helper:
        def __init__(self, argv, **kw):
            calls.append(("helper", argv[3:]))

        def wait(self, timeout=None):
            calls.append(("wait",))

    monkeypatch.setattr(compiling.subprocess, "Popen", Helper)
    monkeypatch.setattr(compiling, "compile_engine", lambda cfgs: calls.append(("engine",)))
    monkeypatch.setattr(compiling, "compile_pieces", lambda pieces: calls.append(("here", pieces)))
    monkeypatch.setattr(compiling.os, "cpu_count", lambda: 2)
    config = GameConfig(("kyuzo", "kikuchiyo", "heihachi"), "normal", "lookahead")
    assert compiling.pieces_of([config, config]) == [("decide", "keeper"), ("plan", "lookahead")]

    monkeypatch.setattr(compiling, "in_cache", lambda d: False)
    compiling.compile_side_by_side([config], None)
    assert calls == [("helper", ["plan=lookahead", "decide=keeper"]), ("engine",), ("wait",)]

    calls.clear()  # the engine in the cache: the two pieces side by side, the plan here
    monkeypatch.setattr(compiling, "in_cache", lambda d: d.__name__ == "play_games")
    compiling.compile_side_by_side([config], None)
    assert calls == [("helper", ["decide=keeper"]), ("here", ["plan=lookahead"]), ("wait",)]

    calls.clear()  # two planners new to the cache: one plan on each side
    judge = GameConfig(("kyuzo", "kikuchiyo", "heihachi"), "normal", "judge", {"base": 1})  # over learned
    compiling.compile_side_by_side([config, judge], None)
    assert calls == [("helper", ["plan=judge", "decide=learned"]), ("here", ["plan=lookahead", "decide=keeper"]),
                     ("wait",)]

    calls.clear()  # the engine in the cache and one piece: nothing to overlap, it compiles here
    keeper = GameConfig(("kyuzo", "kikuchiyo", "heihachi"), "normal", "keeper")
    compiling.compile_side_by_side([keeper], None)
    assert calls == []
    monkeypatch.setattr(compiling.os, "cpu_count", lambda: 1)  # one core: one after the other
    monkeypatch.setattr(compiling, "in_cache", lambda d: False)
    compiling.compile_side_by_side([config], None)
    assert calls == []


def test_an_interrupted_compile_stops_the_helper(monkeypatch):
    """Ctrl-C while the engine compiles stops the helper too; a helper that outlives its timeout
    is stopped and this process goes on (it compiles what the helper left)."""
    import subprocess

    from kiai.strategies.run import compiling
    from kiai.strategies.run.config import GameConfig

    events = []

    class Helper:
        def __init__(self, argv, **kw):
            self.stuck = False

        def wait(self, timeout=None):
            events.append("wait")
            if timeout is not None and self.stuck:
                raise subprocess.TimeoutExpired("helper", timeout)

        def kill(self):
            events.append("kill")

    def interrupted(cfgs):
        raise KeyboardInterrupt

    monkeypatch.setattr(compiling.subprocess, "Popen", Helper)
    monkeypatch.setattr(compiling, "in_cache", lambda d: False)
    monkeypatch.setattr(compiling.os, "cpu_count", lambda: 2)
    config = GameConfig(("kyuzo", "kikuchiyo", "heihachi"), "normal", "keeper")
    monkeypatch.setattr(compiling, "compile_engine", interrupted)
    with pytest.raises(KeyboardInterrupt):
        compiling.compile_side_by_side([config], None)
    assert events == ["kill", "wait"]

    events.clear()
    monkeypatch.setattr(Helper, "__init__", lambda self, argv, **kw: setattr(self, "stuck", True))
    monkeypatch.setattr(compiling, "compile_engine", lambda cfgs: None)
    compiling.compile_side_by_side([config], None)  # returns: the pieces get compiled here, in turn
    assert events == ["wait", "kill", "wait"]


def test_the_cache_look_sees_a_compiled_strategy():
    from kiai.strategies import keeper
    from kiai.strategies.run import compiling

    from types import SimpleNamespace

    compiling.compile_pieces(["decide=keeper"])
    assert compiling.in_cache(keeper.decide)
    missing = SimpleNamespace(_cache=SimpleNamespace(_cache_file=SimpleNamespace(_index_path="/no/such/index.nbi")))
    assert not compiling.in_cache(missing)
    assert compiling.in_cache(SimpleNamespace())  # numba's cache kept otherwise: compile one after the other


def test_the_helper_compiles_into_the_cache_this_process_reads(tmp_path):
    """The helper's command line compiles its pieces into the cache folder of the same sources,
    where in_cache looks for them, from any working directory (not only the checkout's, where
    the folders' own names would import too)."""
    import os
    import subprocess
    import sys

    from numba.core import config

    from kiai.strategies import reference
    from kiai.strategies.run import compiling

    env = dict(os.environ, KIAI_CACHE_DIR=str(tmp_path))
    subprocess.run([sys.executable, "-c", compiling.HELPER, "decide=reference"], env=env, check=True, timeout=300,
                   cwd=tmp_path)
    index = Path(reference.decide._cache._cache_file._index_path).relative_to(config.CACHE_DIR)
    assert (tmp_path / sources.source_hash() / index).exists()
