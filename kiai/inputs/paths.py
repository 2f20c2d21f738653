"""The files a command writes or reads, checked before any game is played: an output that exists
needs --force, its folder must be writable; record files given to replay are found."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from kiai.errors import first_line
from kiai.inputs.checks import check_input, check_path, fail


def check_output(path: Path, option: str = "--out", *, force: bool = False, suffixes: tuple[str, ...] = (),
                 exists_hint: str = "use --force to replace it") -> Path:
    """Check an output file before any game is played: the right suffix, not a folder, not an
    existing file unless --force, and in an existing folder we can create files in (kiai makes
    no folders for an output file: a missing one is more often a typo than a wish)."""
    path = Path(path)
    if suffixes and path.suffix.lower() not in suffixes:
        fail(f"{option} must end in {' or '.join(suffixes)}, got '{path}'")
    if path.is_dir():
        fail(f"{option} {path} is a folder; give a file name")
    if os.path.lexists(path) and not force:  # a dangling or looping link is there too
        fail(f"{option} {path} exists; {exists_hint}")
    _check_writable_folder(path.parent, option, path)
    return path


def check_output_folder(folder: Path, option: str = "--out") -> Path:
    """Check a folder of kiai's own output (`report --out`, `train`'s FOLDER) before any work:
    a folder, made if missing, but then in an existing folder, as for an output file."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        fail(f"{option} {folder} exists and is not a folder")
    _check_writable_folder(folder if folder.is_dir() else folder.parent, option, folder)
    return folder


def _check_writable_folder(folder: Path, option: str, path: Path) -> None:
    """`folder` (where `path` goes) exists, is a folder and takes new files. The check creates
    and removes a probe file, so it holds for root and for file systems (/proc) whose modes say
    nothing."""
    if not folder.exists():
        fail(f"{option} {path}: folder {folder} does not exist; create it first")
    if not folder.is_dir():
        fail(f"{option} {path}: {folder} is not a folder")
    try:
        fd, probe = tempfile.mkstemp(dir=folder, prefix=".kiai-probe-")
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        fail(f"{option} {path}: cannot write in {folder} ({e.strerror or e})")


def record_sources(records) -> list:
    """What `kiai replay` (kiai.replay) checks: record files, each an existing file, or records
    as dicts; one of them or a list."""
    sources = [records] if isinstance(records, (str, os.PathLike, dict)) else records
    if not isinstance(sources, (list, tuple)) or not all(isinstance(f, (str, os.PathLike, dict)) for f in sources):
        fail(f"replay expects record files (.jsonl, .jsonl.gz) or records (dicts), one or a list, got {records!r}")
    seen = set()
    for f in sources:
        if isinstance(f, dict):
            continue
        if Path(check_path(f, "FILES")).is_dir():
            fail(f"{f} is a folder; give the record files")
        if not Path(f).exists():
            fail(f"{f}: no such file")
        check_input(f, "FILES")  # records may be large: no bound
        if Path(f).resolve() in seen:  # its games would be counted as verified twice
            fail(f"{f} is given twice; give each record file once")
        seen.add(Path(f).resolve())
    if not sources:
        fail("no records given")
    return list(sources)


def read_results(path: Path, where: str):
    """A results table read whole (.parquet or .csv), or one line `WHERE: what was wrong` for a
    damaged or foreign file."""
    from kiai.reports.findings.views import UNREADABLE, load_results

    try:
        return load_results(path)
    except UNREADABLE as e:
        fail(f"{where}: {first_line(e)}")
