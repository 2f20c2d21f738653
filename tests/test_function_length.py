"""No function runs over LIMIT lines without a reason: a `# long: why` comment on the lines just
above it (or its decorators). The reason stays with the code; a new long function without one
fails here."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("simcore", "strategies", "training", "cli", "reports", "kiai")
LIMIT = 80


def long_functions(source: str, limit: int = LIMIT) -> list[tuple[str, int, bool]]:
    """(name, lines, has a reason) of each function of `source` longer than `limit` lines."""
    lines = source.splitlines()
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            length = node.end_lineno - node.lineno + 1
            if length > limit:
                first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                above = lines[max(0, first - 4):first - 1]
                out.append((node.name, length, any(x.strip().startswith("# long:") for x in above)))
    return out


def test_a_long_function_without_a_reason_is_found():
    body = "\n".join(f"    x = {i}" for i in range(LIMIT))
    assert long_functions(f"def f():\n{body}\n") == [("f", LIMIT + 1, False)]
    assert long_functions(f"# long: a table\n@deco\ndef f():\n{body}\n") == [("f", LIMIT + 1, True)]
    assert long_functions("def g():\n    return 1\n") == []


def test_every_function_over_the_limit_says_why():
    missing = [f"{path.relative_to(ROOT)}:{name} ({n} lines)"
               for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))
               for name, n, why in long_functions(path.read_text()) if not why]
    assert not missing, "functions over 80 lines without a '# long:' reason: " + ", ".join(missing)
