"""Words for kiai's output: counts and their nouns, parameters in a line of text.

Below every layer: any module of kiai may import it (the engine's, the players', the reports',
the API's and the commands'), and it imports nothing of kiai's (tests/test_layers.py holds both).
"""

from __future__ import annotations


def plural(n: int, noun: str, nouns: str | None = None) -> str:
    """A count and its noun, singular for one: '1 configuration', '2 configurations', '20,000 games'
    (`nouns`: the plural when it is not noun + 's', e.g. 'strategies')."""
    return f"{n:,} {noun if n == 1 else nouns or noun + 's'}"


def said(value) -> str:
    """A parameter's value in a line of text: a number as %g, names as they are."""
    return f"{value:g}" if isinstance(value, (int, float)) else str(value)


def said_params(params: dict) -> str:
    """Parameters in a line of text, "name value" joined by commas ("edge 0.01, weigh cards")."""
    return ", ".join(f"{k} {said(v)}" for k, v in params.items())


def format_params(params: dict) -> str:
    """Parameters as options say them: {'T': 3, 'x': 0.5} as 'T=3 x=0.5' ('-' when empty)."""
    return " ".join(f"{k}={said(v)}" for k, v in params.items()) or "-"


def duration(seconds: float) -> str:
    """A duration in whole seconds, or minutes and seconds from a minute on: '42 s', '2 min 33 s'."""
    seconds = int(round(seconds))
    return f"{seconds} s" if seconds < 60 else f"{seconds // 60} min {seconds % 60:02d} s"
