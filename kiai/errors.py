"""The errors kiai raises: KiaiError for bad input, WriteError for a file it could not write.

Below every layer, as kiai/words.py is: any module of kiai may import it, and it imports nothing
of kiai's."""

from __future__ import annotations


class KiaiError(ValueError):
    """Bad input to kiai: a name that is not a samurai, a level that does not exist, a number of
    games out of range... The message is one line, the one the `kiai` command prints before it
    exits with code 2, and it names the command's option (`--games`, `--samurai`, ...)."""


class WriteError(OSError):
    """A file kiai could not write (a full disk, a vanished folder); strerror is one line that
    names it, reason the system's words. The command prints it and exits with code 1; the file
    is left as it was (reports/files.py writes every file)."""

    def __init__(self, path, fault: OSError):
        self.reason = getattr(fault, "reason", None) or fault.strerror or str(fault)
        super().__init__(fault.errno, f"cannot write {path}: {self.reason}")


def first_line(error: BaseException) -> str:
    """An error's first line, for a one-line refusal (a library's message can run to many lines),
    or its type's name when it says nothing."""
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
