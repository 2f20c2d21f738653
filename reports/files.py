"""Writing kiai's files so that a fault (a full disk) leaves nothing unreadable behind.

Every file kiai writes goes through atomic_write: written whole to a temporary file beside it,
then moved onto its name in one step (os.replace); a report's folder is filled the same way
(atomic_folder). A write that fails raises WriteError, one line naming the file, which the
command prints before it exits with code 1; the file (or folder) is left as it was.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from kiai.errors import WriteError


def finish(tmp: Path) -> None:
    """Make a written temporary file durable before it takes its name."""
    with open(tmp, "rb") as f:
        os.fsync(f.fileno())


def atomic_write(path, write: Callable[[Path], None]) -> None:
    """Call write(tmp) on a temporary file beside `path`, then move it onto `path` in one
    step (os.replace). If write raises, `path` is left as it was and the temporary removed; an
    OSError comes back as a WriteError naming `path`."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        os.close(fd)
    except OSError as e:
        raise WriteError(path, e) from None
    tmp = Path(tmp)
    try:
        write(tmp)
        finish(tmp)
        os.chmod(tmp, 0o666 & ~umask())  # mkstemp makes 0600; give the usual permissions
        os.replace(tmp, path)
    except OSError as e:
        tmp.unlink(missing_ok=True)
        raise WriteError(path, e) from None
    except BaseException:  # Ctrl-C, or a bug in write: no half file left, the fault goes on as it is
        tmp.unlink(missing_ok=True)
        raise


def atomic_folder(folder, fill: Callable[[Path], object]):
    """Call fill(tmp) on a new temporary folder beside `folder`, then move what it made into
    `folder` (made if missing; files of other names there are kept), each file in one step.
    Returns what fill returns, with paths under `tmp` given under `folder`. An OSError comes back
    as a WriteError naming `folder`, and nothing of the half-made output is left."""
    folder = Path(folder)
    made_folder = not folder.exists()
    try:
        tmp = Path(tempfile.mkdtemp(dir=folder.parent, prefix=f".{folder.name}.", suffix=".tmp"))
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


def umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
