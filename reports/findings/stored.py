"""The studies' stored results (make coverage, make reach: reports.search.stored writes them), read
back from package data for the notes that quote them."""

from __future__ import annotations

import json
from importlib import resources


def read_stored(name: str) -> dict | None:
    """A study's stored result, package data of kiai.reports.findings (coverage.json, reach.json),
    or None where there is none (a study not run yet)."""
    try:
        return json.loads(resources.files("kiai.reports.findings").joinpath(name).read_text())
    except (FileNotFoundError, json.JSONDecodeError):
        return None
