"""An installed copy of kiai, not the editable one the tests run from, holds every package.

setuptools installs only the packages pyproject.toml lists, and of each only the files in its own
folder: a sub-package left off the list (reports/page/, say) is missing from a wheel while the
editable install, which finds folders on disk, still imports it. So this test lays out the files
a wheel would hold, with setuptools' own build_py (what `pip wheel` runs) and pyproject.toml's
list, package-dir map and package data, then imports every package from that copy alone in a
fresh Python. (pyproject.toml's [project] table is not read: a setuptools older than its
build-system asks for, as a test environment may have, refuses it.)
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from setuptools import Distribution
from setuptools.command.build_py import build_py

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent

# in the fresh Python: drop the editable install's import hook, which would find a package on
# disk that the copy lacks, then import every package and say where each came from
IMPORT_ALL = """
import importlib, sys
sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in getattr(f, "__module__", "") + repr(f)]
for name in sys.argv[1:]:
    print(name, importlib.import_module(name).__file__)
"""


def built_copy(out: Path) -> list[str]:
    """The files a wheel of kiai holds, laid out under `out` (kiai/...); returns their paths."""
    tool = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    dist = Distribution({"name": "kiai", "packages": tool["packages"], "script_name": "setup.py",
                         "package_dir": {k: str(ROOT / v) for k, v in tool["package-dir"].items()},
                         "package_data": tool.get("package-data", {})})
    cmd = build_py(dist)
    cmd.build_lib = str(out)
    cmd.compile = False
    cmd.ensure_finalized()
    cmd.run()
    return [str(Path(p).relative_to(out)) for p in cmd.get_outputs()]


def packages_on_disk() -> list[str]:
    """Every package of the source tree (a folder with an __init__.py under a folder that
    pyproject.toml maps into kiai), by its installed name."""
    folders = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["package-dir"]
    found = set()
    for name, folder in folders.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            found.add(".".join([name, *init.parent.relative_to(ROOT / folder).parts]))
    return sorted(found)


def test_an_installed_copy_finds_every_package(tmp_path):
    packages = packages_on_disk()
    assert {"kiai.reports.page", "kiai.reports.playing", "kiai.reports.search", "kiai.reports.records"} <= set(packages)
    files = set(built_copy(tmp_path / "lib"))
    missing = [p for p in packages if "/".join(p.split(".")) + "/__init__.py" not in files]
    assert not missing, f"a wheel would lack {missing}: list them in pyproject.toml's packages"
    assert "kiai/simcore/data/components.toml" in files
    assert "kiai/reports/page/your_table.js" in files  # the report form's script, inlined into report.html

    done = subprocess.run([sys.executable, "-c", IMPORT_ALL, *packages], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(tmp_path / "lib")})
    assert done.returncode == 0, done.stderr[-2000:]
    found = dict(line.split(" ", 1) for line in done.stdout.splitlines())
    outside = {name: where for name, where in found.items() if not where.startswith(str(tmp_path / "lib"))}
    assert set(found) == set(packages) and not outside, f"imported from outside the installed copy: {outside}"
