"""The one error kiai raises for bad input."""

from __future__ import annotations


class KiaiError(ValueError):
    """Bad input to kiai: a name that is not a samurai, a level that does not exist, a number of
    games out of range... The message is one line, the one the `kiai` command prints before it
    exits with code 2, and it names the command's option (`--games`, `--samurai`, ...)."""
