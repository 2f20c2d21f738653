"""Every import in the docs' Python examples names a module and names that exist today.

The ```python blocks of README.md and docs/*.md are read with `ast`, the slow ones too (those
docs/generate.py regenerates only with --slow, minutes of games, so tests/test_readme.py never runs
them): each `import X` must import and each `from X import a, b` must give `a` and `b`. Only the
imports are run, never the blocks, so a renamed or removed module fails here in seconds instead
of at the next `make docs`.
"""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]  # as docs/generate.py's pages()
FENCED = re.compile(r"^```python\n(?P<code>.*?)^```", flags=re.S | re.M)


def python_blocks(text: str) -> list[tuple[int, str]]:
    """(line of the opening fence, code) of each ```python fenced block of a page's text."""
    return [(text.count("\n", 0, m.start()) + 1, m.group("code")) for m in FENCED.finditer(text)]


def imports(code: str) -> list[tuple[int, str, tuple[str, ...]]]:
    """(line in the block, module, names) of each import statement in the code, those inside
    functions too; names is empty for `import X`."""
    found = []
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name, ()) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            assert not node.level, "a docs example cannot make a relative import"
            found.append((node.lineno, node.module, tuple(a.name for a in node.names)))
    return found


def missing(module: str, names: tuple[str, ...]) -> list[str]:
    """What of `from module import names` (or `import module`) does not exist: the module, or
    each name that is neither an attribute of it nor a submodule."""
    try:
        mod = importlib.import_module(module)
    except ImportError as e:
        return [f"module {module} ({e})"]
    gone = []
    for name in names:
        if name == "*" or hasattr(mod, name):
            continue
        try:
            importlib.import_module(f"{module}.{name}")
        except ImportError:
            gone.append(f"{module}.{name}")
    return gone


STATEMENTS = [
    pytest.param(module, names, id=f"{page.relative_to(ROOT)}:{start + line}")
    for page in PAGES
    for start, code in python_blocks(page.read_text(encoding="utf-8"))
    for line, module, names in imports(code)
]


def test_the_docs_examples_are_found():
    """Guards the reader above: the pages hold Python examples that import kiai."""
    assert any(p.values[0].startswith("kiai") for p in STATEMENTS)


@pytest.mark.parametrize("module, names", STATEMENTS)
def test_a_docs_import_names_what_exists(module, names):
    gone = missing(module, names)
    assert not gone, f"the example imports what does not exist: {', '.join(gone)}"


def test_a_gone_module_or_name_is_found():
    assert missing("kiai.strategies.no_such_module", ()) == [
        "module kiai.strategies.no_such_module (No module named 'kiai.strategies.no_such_module')"]
    assert missing("kiai.simcore.results", ("O_OUTCOME", "NO_SUCH_NAME")) == ["kiai.simcore.results.NO_SUCH_NAME"]
    assert missing("kiai.strategies.nets", ("modelfile",)) == []  # a submodule, not yet imported
