"""kiai's packages are layers: simcore < strategies < training < reports < the API (kiai/) < cli.

Below them all sit kiai/words.py, kiai/errors.py, kiai/outputs.py and kiai/states.py (BASE): any
module may import them, and they import nothing of kiai's but each other. The commands (cli/) work
through the API alone: no cli module imports the engine, the players, training or the reports (kiai.simcore, kiai.strategies, kiai.training,
kiai.reports), not even inside a function.

A module may import its own layer and the layers below it, never one above (an import inside
a function counts too: it is still a dependency, only a later one). Among the project's
modules, the imports made at module top level (those run when the module is imported) form no
cycle. What is private stays home: no module uses another's private name, nor imports a private
module (one whose name starts with `_`) of another package. All is read from the source with
`ast`, so nothing here is imported or run.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("simcore", "strategies", "training", "reports", "kiai", "cli")  # lowest first; kiai/ holds the API
FOLDERS = ("simcore", "strategies", "training", "reports", "cli")  # installed as kiai.<folder>
BASE = ("kiai.words", "kiai.errors", "kiai.outputs", "kiai.states")  # below every layer: wording, errors and writing that every layer uses
BELOW_THE_API = ("kiai.simcore", "kiai.strategies", "kiai.training", "kiai.reports")  # what cli/ never imports


def module_name(path: Path) -> str:
    """The installed name: simcore/kernel.py is kiai.simcore.kernel, kiai/api.py kiai.api."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts if parts[0] == "kiai" else ["kiai", *parts])


MODULES = {module_name(p): p for layer in LAYERS for p in sorted((ROOT / layer).rglob("*.py"))}


def plant(monkeypatch, tmp_path, module: str, source: str) -> None:
    """A made-up module `module` with `source`, among the project's modules for one test."""
    fake = tmp_path / "fake.py"
    fake.write_text(source, encoding="utf-8")
    monkeypatch.setitem(MODULES, module, fake)


def _resolve(module: str, node: ast.ImportFrom) -> str:
    """The absolute name of a `from ... import` (relative ones resolved against `module`)."""
    if not node.level:
        return node.module or ""
    package = module.split(".") if MODULES[module].name == "__init__.py" else module.split(".")[:-1]
    base = package[: len(package) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _targets(module: str, node: ast.AST) -> list[str]:
    """The modules an import statement names: for `from X import y`, X.y when that is one of
    the project's modules (a submodule), else X."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = _resolve(module, node)
    return [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names]


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports(module: str) -> tuple[set[str], set[str]]:
    """(all imports, top-level imports) of a project module, each as the names of modules.

    Top level means run on import: statements of the module's body, also inside its if/try
    blocks, but not inside functions or classes' methods, and not under `if TYPE_CHECKING:`."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"), filename=str(MODULES[module]))
    every = {t for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))
             for t in _targets(module, node)}  # fmt: skip

    top: set[str] = set()

    def visit(body):
        for node in body:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                top.update(_targets(module, node))
            elif isinstance(node, ast.If) and not _is_type_checking(node):
                visit(node.body)
                visit(node.orelse)
            elif isinstance(node, ast.Try):
                visit(node.body)
                for handler in node.handlers:
                    visit(handler.body)
                visit(node.orelse)
                visit(node.finalbody)
            elif isinstance(node, ast.ClassDef):
                visit(node.body)  # a class body runs on import (its methods do not)
            elif isinstance(node, (ast.With,)):
                visit(node.body)

    visit(tree.body)
    return every, top


def project(names: set[str]) -> set[str]:
    """The project's modules among imported names (`import kiai.simcore.x` also runs kiai.simcore;
    the package kiai itself imports nothing of the project on import, so it is no dependency)."""
    found = set()
    for name in names:
        parts = name.split(".")
        if parts[0] != "kiai":
            continue
        found.update(p for p in (".".join(parts[:i]) for i in range(2, len(parts) + 1)) if p in MODULES)
    return found


def layer(module: str) -> int:
    """The module's layer, an index of LAYERS (-1: BASE, below them all)."""
    if module in BASE:
        return -1
    parts = module.split(".")
    return LAYERS.index(parts[1] if len(parts) > 1 and parts[1] in FOLDERS else "kiai")


def test_the_modules_are_found():
    assert {"kiai.simcore.kernel", "kiai.strategies.run.games", "kiai.reports.playing.summary", "kiai.api", "kiai.cli.main"} <= set(MODULES)


def layer_violations() -> list[str]:
    bad = []
    for module in MODULES:
        every, _ = imports(module)
        for target in sorted(project(every)):
            if layer(target) > layer(module):
                bad.append(f"{module} ({_layer_name(module)}) imports {target} ({_layer_name(target)})")
    return bad


def _layer_name(module: str) -> str:
    return "base" if layer(module) < 0 else LAYERS[layer(module)]


def top_level_cycles() -> list[list[str]]:
    """The cycles of the graph of top-level imports between the project's modules, one per
    back edge a depth-first search finds (enough to say whether there are any, and where)."""
    graph = {m: sorted(project(imports(m)[1]) - {m}) for m in MODULES}
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []
    cycles: list[list[str]] = []

    def visit(node: str) -> None:
        state[node] = 1
        path.append(node)
        for nxt in graph[node]:
            if state.get(nxt) == 1:
                cycles.append(path[path.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt)
        path.pop()
        state[node] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module)
    return cycles


def test_no_module_imports_a_higher_layer():
    bad = layer_violations()
    assert not bad, "imports against the layer order simcore < strategies < reports < kiai (API) < cli:\n" + "\n".join(bad)


def around_the_api(modules=None) -> list[str]:
    """Imports by a command module (kiai.cli.*) of a package below the API, inside functions too."""
    bad = []
    for module in modules or MODULES:
        if not module.startswith("kiai.cli"):
            continue
        every, _ = imports(module)
        bad += [f"{module} imports {t}" for t in sorted(every)
                if any(t == p or t.startswith(p + ".") for p in BELOW_THE_API)]  # fmt: skip
    return bad


def test_every_command_works_through_the_api():
    bad = around_the_api()
    assert not bad, "commands that go around the API (kiai/*.py):\n" + "\n".join(bad)


@pytest.mark.parametrize("source, found", [
    ("def f():\n    from kiai.strategies.run.games import run_games\n", True),
    ("import kiai.simcore.codes\n", True),
    ("from kiai.reports import tune\n", True),
    ("from kiai.training import value as V\n", True),
    ("from kiai import api\nfrom kiai.words import plural\n", False),
])
def test_a_command_going_around_the_api_is_found(monkeypatch, tmp_path, source, found):
    plant(monkeypatch, tmp_path, "kiai.cli.fake", source)
    assert bool(around_the_api(["kiai.cli.fake"])) == found


def test_the_base_imports_nothing_of_kiai():
    bad = [f"{m} imports {t}" for m in BASE for t in sorted(project(imports(m)[0]) - set(BASE))]
    assert not bad, "kiai/words.py, kiai/errors.py and kiai/outputs.py sit below every layer:\n" + "\n".join(bad)


def test_no_import_cycle_at_module_top_level():
    cycles = top_level_cycles()
    assert not cycles, "import cycles at module top level:\n" + "\n".join(" -> ".join(c) for c in cycles)


@pytest.mark.parametrize("source, module", [
    ("from kiai.reports.playing.summary import summarize\n", "kiai.simcore.kernel"),
    ("def f():\n    from kiai.cli.common import command\n", "kiai.reports.playing.summary"),
    ("if True:\n    import kiai.cli.main as m\n", "kiai.strategies.run.games"),
    ("def f():\n    from kiai.api import simulate\n", "kiai.reports.playing.summary"),
])
def test_an_upward_import_is_found(monkeypatch, tmp_path, source, module):
    """The layer check catches an upward import, also one inside a function or a block."""
    plant(monkeypatch, tmp_path, module, source)
    assert any(v.startswith(f"{module} ") for v in layer_violations())


def test_a_cycle_is_found_and_an_import_in_a_function_is_no_cycle(monkeypatch, tmp_path):
    a, b, c = tmp_path / "a.py", tmp_path / "b.py", tmp_path / "c.py"
    a.write_text("import kiai.strategies.fake_b\n", encoding="utf-8")
    b.write_text("from kiai.strategies import fake_a\n", encoding="utf-8")
    c.write_text("def f():\n    from kiai.strategies import fake_c\n", encoding="utf-8")
    for name, path in (("fake_a", a), ("fake_b", b), ("fake_c", c)):
        monkeypatch.setitem(MODULES, f"kiai.strategies.{name}", path)
    cycles = top_level_cycles()
    assert ["kiai.strategies.fake_a", "kiai.strategies.fake_b", "kiai.strategies.fake_a"] in cycles
    assert not any("kiai.strategies.fake_c" in cycle for cycle in cycles)


def full_graph_cycles() -> list[list[str]]:
    """The strongly connected parts (of two or more modules) of the graph of every import, those
    inside functions too: a circle that only lazy imports close is still a circle."""
    graph = {m: sorted(project(imports(m)[0]) - {m}) for m in MODULES}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    parts: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan's algorithm
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                parts.append(sorted(part))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return parts


def test_no_import_cycle_even_through_imports_in_functions():
    parts = full_graph_cycles()
    assert not parts, "modules that import each other (imports in functions included):\n" + "\n".join(map(str, parts))


def test_a_cycle_through_an_import_in_a_function_is_found(monkeypatch, tmp_path):
    a, b = tmp_path / "a.py", tmp_path / "b.py"
    a.write_text("import kiai.strategies.fake_b\n", encoding="utf-8")
    b.write_text("def f():\n    from kiai.strategies import fake_a\n", encoding="utf-8")
    for name, path in (("fake_a", a), ("fake_b", b)):
        monkeypatch.setitem(MODULES, f"kiai.strategies.{name}", path)
    assert ["kiai.strategies.fake_a", "kiai.strategies.fake_b"] in full_graph_cycles()


def private_crossings(modules=None) -> list[str]:
    """Uses of another module's private name (one that starts with a single underscore): `from X
    import _y`, or `X._y` where X names one of the project's modules."""
    bad = []
    for module in modules or MODULES:
        tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
        aliases = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                base = _resolve(module, node)
                for a in node.names:
                    if f"{base}.{a.name}" in MODULES:
                        aliases[a.asname or a.name] = f"{base}.{a.name}"
                    elif a.name.startswith("_") and not a.name.startswith("__") and base.startswith("kiai"):
                        bad.append(f"{module}: from {base} import {a.name}")
            elif isinstance(node, ast.Import):
                aliases.update({a.asname or a.name: a.name for a in node.names if a.name in MODULES})
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases
                    and node.attr.startswith("_") and not node.attr.startswith("__") and aliases[node.value.id] != module):
                bad.append(f"{module}: {node.value.id}.{node.attr}")
    return sorted(set(bad))


def test_no_module_reaches_a_private_name_of_another():
    bad = private_crossings()
    assert not bad, "private names used outside their module:\n" + "\n".join(bad)


def test_a_private_name_reached_from_another_module_is_found(monkeypatch, tmp_path):
    fake = tmp_path / "fake.py"
    fake.write_text("from kiai.strategies import learned\nfrom kiai.strategies.lookahead import _x\nlearned._y\n",
                    encoding="utf-8")
    monkeypatch.setitem(MODULES, "kiai.strategies.fake", fake)
    assert private_crossings(["kiai.strategies.fake"]) == [
        "kiai.strategies.fake: from kiai.strategies.lookahead import _x", "kiai.strategies.fake: learned._y"]


def private_module_imports(modules=None) -> list[str]:
    """Imports of a private module (a name part that starts with a single underscore, as in
    kiai.simcore._cache) by a module outside the package that holds it."""
    bad = []
    for module in modules or MODULES:
        package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]
        every, _ = imports(module)
        for target in sorted(project(every)):
            parts = target.split(".")
            for i, part in enumerate(parts):
                owner = ".".join(parts[:i])
                if (part.startswith("_") and not part.startswith("__")
                        and package != owner and not package.startswith(owner + ".")):
                    bad.append(f"{module} imports {target}, private to {owner}")
                    break
    return sorted(set(bad))


def test_no_module_imports_a_private_module_of_another_package():
    bad = private_module_imports()
    assert not bad, "private modules imported from outside their package:\n" + "\n".join(bad)


@pytest.mark.parametrize("source, module, found", [
    ("def f():\n    from kiai.simcore._cache import CACHE_DIR\n", "kiai.reports.fake", True),
    ("from kiai.simcore import _cache\n", "kiai.strategies.fake", True),
    ("import kiai.simcore._cache\n", "kiai.fake", True),
    ("from kiai.simcore import _cache\n", "kiai.simcore.fake", False),  # its own package's
    ("from kiai.simcore.sources import source_hash\n", "kiai.reports.fake", False),
])
def test_a_private_module_imported_from_another_package_is_found(monkeypatch, tmp_path, source, module, found):
    plant(monkeypatch, tmp_path, module, source)
    assert bool(private_module_imports([module])) == found


# ------------------------------------------------------------------ one home for each job (issue 69)

ENGINE_WIRING = ("kiai.simcore.kernel", "kiai.simcore.state", "kiai.simcore.gateway", "kiai.simcore.solve")
COMPILING_OR_PLAYING = ("kiai.strategies.run", "kiai.reports.playing")  # the run layer (compiling, games), playing


def reaching(modules, banned) -> list[str]:
    """Imports, inside functions too, by `modules` of a module that is or lies under one of `banned`."""
    bad = []
    for module in modules:
        every, _ = imports(module)
        bad += [f"{module} imports {t}" for t in sorted(every) if any(t == b or t.startswith(b + ".") for b in banned)]
    return bad


def players() -> set[str]:
    """The players: the modules strategies/registry.py lists (its _MODULE_OF, read with ast), and any
    module of strategies/ itself (no sub-package's) that declares STRATEGY."""
    listed = set()
    for node in ast.walk(ast.parse((ROOT / "strategies" / "registry.py").read_text(encoding="utf-8"))):
        if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict)
                and any(isinstance(t, ast.Name) and t.id == "_MODULE_OF" for t in node.targets)):
            listed |= {f"kiai.strategies.{v.value}" for v in node.value.values if isinstance(v, ast.Constant)}
    declared = {module_name(p) for p in (ROOT / "strategies").glob("*.py")
                if any(isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "STRATEGY" for t in n.targets)
                       for n in ast.parse(p.read_text(encoding="utf-8")).body)}  # fmt: skip
    return listed | declared


def nets_reaching_players(modules=None) -> list[str]:
    nets = [m for m in modules or MODULES if m == "kiai.strategies.nets" or m.startswith("kiai.strategies.nets.")]
    return reaching(nets, sorted(players()))


def progress_compiling_or_playing() -> list[str]:
    return reaching(["kiai.progress"], COMPILING_OR_PLAYING)


def api_reaching_the_engine(modules=None) -> list[str]:
    faces = [m for m in modules or MODULES if m == "kiai" or m.split(".")[1] not in FOLDERS]  # kiai/ itself
    return reaching(faces, ENGINE_WIRING)


def test_the_players_are_found():
    assert {"kiai.strategies.keeper", "kiai.strategies.risk", "kiai.strategies.learned"} <= players()
    assert not players() & {"kiai.strategies.base", "kiai.strategies.registry"}


def test_the_networks_import_no_player():
    """strategies/nets/ (the learned players' inputs and layers) sits below the players: what the
    features need of keeper and risk lives in strategies/helpers/ (reasoning.py)."""
    bad = nets_reaching_players()
    assert not bad, "modules of strategies/nets/ that import a player:\n" + "\n".join(bad)


def test_progress_reports_and_neither_compiles_nor_plays():
    """kiai/progress.py shows progress; compiling before the clock starts is the run layer's
    (strategies.run.warm), playing the run layer's and reports.playing's."""
    bad = progress_compiling_or_playing()
    assert not bad, "kiai/progress.py compiles or plays:\n" + "\n".join(bad)


def test_the_api_holds_no_engine_wiring():
    """The engine's addresses, records and kernel are the run layer's (strategies.run): no module of
    kiai/ imports simcore's kernel, state, gateway or solve, not even inside a function."""
    bad = api_reaching_the_engine()
    assert not bad, "modules of kiai/ that wire the engine:\n" + "\n".join(bad)


@pytest.mark.parametrize("source, module, check, found", [
    ("from kiai.strategies import keeper\n", "kiai.strategies.nets.fake", nets_reaching_players, True),
    ("def f():\n    from kiai.strategies.risk import fight_rule\n", "kiai.strategies.nets.fake", nets_reaching_players, True),
    ("from kiai.strategies.helpers.reasoning import fight_rule\n", "kiai.strategies.nets.fake", nets_reaching_players,
     False),
    ("def f():\n    from kiai.simcore.gateway import HOOK_ARGS\n", "kiai.fake", api_reaching_the_engine, True),
    ("from kiai.simcore import kernel\n", "kiai.fake", api_reaching_the_engine, True),
    ("import kiai.simcore.state\n", "kiai.fake", api_reaching_the_engine, True),
    ("from kiai.simcore.config import ConfigError\n", "kiai.fake", api_reaching_the_engine, False),
])
def test_a_player_in_the_networks_or_the_engine_in_the_api_is_found(monkeypatch, tmp_path, source, module, check,
                                                                      found):
    plant(monkeypatch, tmp_path, module, source)
    assert bool(check([module])) == found


@pytest.mark.parametrize("source, found", [
    ("def f():\n    from kiai.reports.playing.play import warm\n", True),
    ("def f():\n    from kiai.strategies.run.compiling import prepare\n", True),
    ("from kiai.strategies.run import warm\n", True),
    ("from kiai.words import duration\n", False),
])
def test_progress_compiling_or_playing_is_found(monkeypatch, tmp_path, source, found):
    plant(monkeypatch, tmp_path, "kiai.progress", source)
    assert bool(progress_compiling_or_playing()) == found


# Each search has its loop in one module below the API, and the API is a thin face: its functions
# check their input (kiai.inputs) and make one call; the faces of the searches hold no loop.
SEARCH_STEPS = {  # a search's steps, as (module, function) -> the one module that plays them
    "tune": ({("kiai.reports.search.tune", "search"), ("kiai.reports.search.tune", "cem_search"),
              ("kiai.reports.search.tune", "evaluate")}, "kiai.reports.search.tune_run"),
    "compare": ({("kiai.reports.search.compare", "play_arms")}, "kiai.reports.search.compare"),
}
API_FACES = ("kiai.api", "kiai.tune")  # the API's functions of simulate, sweep, compare, record, replay and tune


def calls(module: str) -> set[tuple[str, str]]:
    """The (module, function) pairs `module` calls, where the function is one imported by name from
    a project module, reached as an attribute of an imported project module, or its own."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    modules, names = {}, {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = _resolve(module, node)
            for a in node.names:
                if f"{base}.{a.name}" in MODULES:
                    modules[a.asname or a.name] = f"{base}.{a.name}"
                elif base in MODULES:
                    names[a.asname or a.name] = (base, a.name)
        elif isinstance(node, ast.Import):
            modules.update({a.asname or a.name: a.name for a in node.names if a.name in MODULES})
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.setdefault(node.name, (module, node.name))
    found = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        if isinstance(f, ast.Name) and f.id in names:
            found.add(names[f.id])
        elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in modules:
            found.add((modules[f.value.id], f.attr))
    return found


def searches_in_several_rooms(modules=None) -> list[str]:
    """The modules that play a search's steps other than that search's one module."""
    bad = []
    for module in modules or MODULES:
        made = calls(module)
        bad += [f"{module} plays {search}'s loop (its home: {home})"
                for search, (steps, home) in SEARCH_STEPS.items() if made & steps and module != home]  # fmt: skip
    return bad


def loops_in_the_api(modules=API_FACES) -> list[str]:
    """The loops (for, while) of the API's faces: a face checks its input and makes one call."""
    bad = []
    for module in modules:
        tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
        bad += [f"{module}, line {node.lineno}: a {type(node).__name__.lower()} loop"
                for node in ast.walk(tree) if isinstance(node, (ast.For, ast.While, ast.AsyncFor))]  # fmt: skip
    return bad


def test_each_search_plays_in_one_module_below_the_api():
    bad = searches_in_several_rooms()
    assert not bad, "a search's loop outside its one module:\n" + "\n".join(bad)
    assert all(layer(home) == LAYERS.index("reports") for _, home in SEARCH_STEPS.values())


def test_the_api_faces_hold_no_loop():
    bad = loops_in_the_api()
    assert not bad, "the API's faces check their input and make one call:\n" + "\n".join(bad)


@pytest.mark.parametrize("source, module, found", [
    ("from kiai.reports.search import compare as C\ndef f():\n    C.play_arms([], 1, 0)\n", "kiai.api", True),
    ("def f():\n    from kiai.reports.search.tune import cem_search\n    cem_search()\n", "kiai.tune", True),
    ("from kiai.reports.search import tune as T\nT.METHODS\n", "kiai.tune", False),
    ("def f():\n    for i in range(3):\n        pass\n", "kiai.api", True),
])
def test_a_search_loop_in_the_api_is_found(monkeypatch, tmp_path, source, module, found):
    plant(monkeypatch, tmp_path, module, source)
    assert bool(searches_in_several_rooms([module]) or loops_in_the_api([module])) == found


PAGE = "kiai.reports.page"  # the report page: it renders what the packages below it compute
BELOW_THE_PAGE = ("kiai.reports.findings", "kiai.reports.playing", "kiai.reports.search")


def page_imports(modules=None) -> list[str]:
    """Imports of the report page (reports/page/) by the figures it states (reports/findings/) or by
    the playing and searching that use them (reports/playing/, reports/search/), inside functions too."""
    bad = []
    for module in modules or MODULES:
        if not module.startswith(tuple(p + "." for p in BELOW_THE_PAGE)):
            continue
        every, _ = imports(module)
        bad += [f"{module} imports {t}" for t in sorted(every) if t == PAGE or t.startswith(PAGE + ".")]
    return bad


def test_the_findings_playing_and_searching_import_no_page():
    assert any(m.startswith("kiai.reports.findings.") for m in MODULES), "reports/findings/ holds the page's figures"
    bad = page_imports()
    assert not bad, "modules below the report page that import it (reports/page/ only renders):\n" + "\n".join(bad)


@pytest.mark.parametrize("source, module, found", [
    ("def f():\n    from kiai.reports.page.advice import difference\n", "kiai.reports.search.fake", True),
    ("from kiai.reports.page import charts\n", "kiai.reports.findings.fake", True),
    ("import kiai.reports.page.render\n", "kiai.reports.playing.fake", True),
    ("from kiai.reports.findings import advice\n", "kiai.reports.playing.fake", False),
    ("from kiai.reports.findings import advice\n", "kiai.reports.page.fake", False),
])
def test_an_import_of_the_page_from_below_it_is_found(monkeypatch, tmp_path, source, module, found):
    plant(monkeypatch, tmp_path, module, source)
    assert bool(page_imports([module])) == found


# kiai balance's search lives whole in one module: its settings, its searches and the runner that
# plays each team size are made and played there alone (reports/search/balance_run.py runs it, once)
BALANCE = "kiai.reports.search.balance"
BALANCE_STEPS = {(BALANCE, "space"), (BALANCE, "Search"), (BALANCE, "Runner")}


def balance_loop_outside(modules=None) -> list[str]:
    """The modules other than reports/search/balance.py that play balance's steps."""
    return [f"{m} plays balance's loop (its home: {BALANCE})" for m in modules or MODULES
            if m != BALANCE and calls(m) & BALANCE_STEPS]  # fmt: skip


def test_balance_plays_in_one_module():
    bad = balance_loop_outside()
    assert not bad, "balance's loop outside its one module:\n" + "\n".join(bad)


@pytest.mark.parametrize("source, found", [
    ("from kiai.reports.search import balance as B\ndef f(sp):\n    B.Search(sp, None, 0.1)\n", True),
    ("from kiai.reports.search.balance import space\nspace(None, 'normal', 3)\n", True),
    ("from kiai.reports.search import balance as B\ndef f():\n    B.run(None, None)\n", False),
])
def test_balance_played_outside_its_module_is_found(monkeypatch, tmp_path, source, found):
    plant(monkeypatch, tmp_path, "kiai.reports.search.fake", source)
    assert bool(balance_loop_outside(["kiai.reports.search.fake"])) == found
