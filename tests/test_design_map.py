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
    """kiai.reports.page as reports/page/, kiai as kiai/ (pyproject.toml's package-dir map)."""
    parts = package.split(".")
    return "/".join(parts[1:] if len(parts) > 1 else parts) + "/"


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
