"""docs/design.md's first screen, the map of the code, names every package kiai installs, so that a
newcomer can tell from it where each job lives (a report section, a sweep, a search)."""

from __future__ import annotations

import re
from pathlib import Path

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent


def first_screen() -> str:
    """design.md up to its first heading after the map (## State records)."""
    text = (ROOT / "docs" / "design.md").read_text(encoding="utf-8")
    return text.split("\n## ", 2)[1] if text.count("\n## ") >= 2 else text


def folder_of(package: str) -> str:
    """kiai.reports.page as reports/page/, kiai as kiai/, kiai.inputs as kiai/inputs/ (pyproject.toml's
    package-dir map: the folders at the repository's top, and kiai's own sub-packages in kiai/)."""
    parts = package.split(".")
    top = len(parts) > 1 and parts[1] in ("simcore", "strategies", "training", "reports", "cli")
    return "/".join(parts[1:] if top else parts) + "/"


def installed_packages() -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return config["tool"]["setuptools"]["packages"]


def test_the_map_names_every_package():
    screen = first_screen()
    missing = [p for p in installed_packages()
               if not re.search(rf"(^|\s){re.escape(folder_of(p))}(\s|$)", screen, re.M)]  # fmt: skip
    assert not missing, f"docs/design.md's map does not name {missing}: one line each, with its job"


def test_every_package_folder_is_installed():
    """A folder of modules (an __init__.py) under the installed folders is in pyproject.toml's list,
    and so on the map."""
    listed = {folder_of(p) for p in installed_packages()}
    found = {str(init.parent.relative_to(ROOT)) + "/" for top in ("simcore", "strategies", "training", "reports",
                                                                  "cli", "kiai")
             for init in (ROOT / top).rglob("__init__.py")}  # fmt: skip
    assert found <= listed, f"packages not in pyproject.toml: {sorted(found - listed)}"


def map_blocks() -> dict[str, str]:
    """The map's text by folder: each line that starts at the margin with a folder (`reports/page/`,
    `strategies/*.py` as strategies/) opens that folder's block, which runs to the next such line."""
    screen = first_screen()
    code = screen.split("```", 2)[1]
    blocks: dict[str, str] = {}
    folder = None
    for line in code.splitlines():
        head = re.match(r"^([a-z_]+(?:/[a-z_*]+)*)(?:/|\.py)", line)
        if head:
            folder = head.group(1).split("/*")[0].rstrip("/") + "/"
            blocks[folder] = blocks.get(folder, "") + line[len(head.group(0)):] + "\n"
        elif folder:
            blocks[folder] += line + "\n"
    return blocks


def unnamed_modules(blocks: dict[str, str]) -> list[str]:
    """The tree's modules (and the page's script) that their folder's block of the map does not name."""
    missing = []
    for top in ("simcore", "strategies", "training", "reports", "cli", "kiai"):
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix not in (".py", ".js") or path.name == "__init__.py" or "__pycache__" in path.parts:
                continue
            folder = str(path.parent.relative_to(ROOT)) + "/"
            text = blocks.get(folder, "").replace(folder, "")
            if not re.search(rf"(?<![\w/]){re.escape(path.name)}\b", text):
                missing.append(str(path.relative_to(ROOT)))
    return missing


def test_the_map_names_every_module():
    """A newcomer finds every file of the tree on the map, in its own folder's block, with its job."""
    missing = unnamed_modules(map_blocks())
    assert not missing, f"docs/design.md's map does not name {missing} in their folder's block"


def test_a_module_the_map_forgets_is_caught():
    blocks = map_blocks()
    blocks["reports/page/"] = blocks["reports/page/"].replace("render.py", "")
    assert unnamed_modules(blocks) == ["reports/page/render.py"]
