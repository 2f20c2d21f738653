"""The numba cache's key (simcore/_cache.py): every source compiled code depends on, and no more."""

from __future__ import annotations

import ast
from pathlib import Path

from simcore import _cache

ROOT = Path(_cache.__file__).resolve().parent.parent


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
        out |= {n.replace(".", "/") + ".py" for n in names if n.split(".")[0] in ("simcore", "strategies")}
    return out


def test_plain_modules_hold_no_compiled_code():
    for rel in _cache.PLAIN:
        text = (ROOT / rel).read_text()
        assert not any(w in text for w in ("njit", "@intrinsic", "cfunc", "@jit")), rel


def test_no_compiled_module_imports_a_plain_one():
    """An edit to a PLAIN module recompiles nothing, so compiled code must not depend on one."""
    for f in _cache.source_files():
        rel = f"{f.parent.name}/{f.name}"
        assert not (_imports(f) & _cache.PLAIN), f"{rel} imports {sorted(_imports(f) & _cache.PLAIN)}"

