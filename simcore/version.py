"""kiai's version, as installed (results, records and trained models name it)."""

from __future__ import annotations

from importlib import metadata


def kiai_version() -> str:
    try:
        return metadata.version("kiai")
    except metadata.PackageNotFoundError:  # running from a source tree
        return "0+unknown"
