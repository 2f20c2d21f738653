"""What kind of file a path names, for the one-line refusal of a special file given where a
regular file is read (a FIFO would hang the reader, /dev/zero feed it without end)."""

from __future__ import annotations

import os
import stat

KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a device"),
         (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"))  # fmt: skip


def kind(mode: int) -> str:
    """'a FIFO', 'a device'... for a stat mode that is not a regular file's."""
    return next((name for test, name in KINDS if test(mode)), "not a regular file")


def problem(path, most: int | None = None) -> str | None:
    """Why `path` is not a regular file to read (at most `most` bytes), in a few words, or None.
    A missing file, or a folder, is left to the reader, which says so in its own words."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    if stat.S_ISDIR(st.st_mode):  # a folder is left to the reader too: each says what it wants instead
        return None
    if not stat.S_ISREG(st.st_mode):
        return f"is {kind(st.st_mode)}, not a regular file"
    if most is not None and st.st_size > most:
        return f"is {st.st_size:,} bytes, more than the {most:,} a file of this kind may hold"
    return None
