"""Words for kiai's output."""

from __future__ import annotations


def plural(n: int, noun: str, nouns: str | None = None) -> str:
    """A count and its noun, singular for one: '1 configuration', '2 configurations', '20,000 games'
    (`nouns`: the plural when it is not noun + 's', e.g. 'strategies')."""
    return f"{n:,} {noun if n == 1 else nouns or noun + 's'}"
