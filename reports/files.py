"""Writing kiai's files so that a fault (a full disk) leaves nothing unreadable behind.

Every file kiai writes goes through atomic_write (kiai/outputs.py, below every layer): written
whole to this run's temporary file beside it, then moved onto its name in one step (os.replace); a
report's folder is filled the same way (atomic_folder). A write that fails raises WriteError, one
line naming the file, which the command prints before it exits with code 1; the file (or folder)
is left as it was.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

from kiai.errors import WriteError
from kiai.outputs import atomic_write, finish, temp_folder, umask


def atomic_folder(folder, fill: Callable[[Path], object]):
    """Call fill(tmp) on this run's new temporary folder beside `folder`, then move what it made
    into `folder` (made if missing; files of other names there are kept), each file in one step.
    Returns what fill returns, with paths under `tmp` given under `folder`. An OSError comes back
    as a WriteError naming `folder`, and nothing of the half-made output is left."""
    folder = Path(folder)
    made_folder = not folder.exists()
    try:
        tmp = temp_folder(folder)
    except OSError as e:
        raise WriteError(folder, e) from None
    try:
        made = fill(tmp)
        folder.mkdir(exist_ok=True)
        for entry in sorted(tmp.iterdir()):
            os.replace(entry, folder / entry.name)
    except OSError as e:
        if made_folder and folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()
        raise WriteError(folder, e) from None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return _moved(made, tmp, folder)


def _moved(made, tmp: Path, folder: Path):
    """fill's result with every path under tmp given under folder instead."""
    if isinstance(made, Path) and (made == tmp or tmp in made.parents):
        return folder / made.relative_to(tmp)
    if isinstance(made, dict):
        return {k: _moved(v, tmp, folder) for k, v in made.items()}
    if isinstance(made, (list, tuple)):
        return type(made)(_moved(v, tmp, folder) for v in made)
    return made


__all__ = ["atomic_folder", "atomic_write", "finish", "umask"]
