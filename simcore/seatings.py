"""Line-ups and seatings of samurai (RULES R-2): what the sweeps, the reports and the training
families (training.families) enumerate.

A line-up is a set of samurai; a seating is a line-up in seat order 0..n-1. Rotations of a
seating are the same seating (the first player is drawn at random anyway); a mirror image is
a different one, because left and right neighbours differ. The canonical form of a seating puts
the samurai that comes first in codes.SAMURAI at seat 0.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import numpy as np

from kiai.simcore.codes import MAX_SEATS, SAMURAI

_ORDER = {name: i for i, name in enumerate(SAMURAI)}
MIN_SEATS = 2


def check_known(names: Sequence[str]) -> None:
    """ValueError naming every name that is not a samurai (case aside), in the one form every
    command prints: unknown samurai 'bob', 'eve' (known: kanbei, ...)."""
    unknown = list(dict.fromkeys(name for name in names if name.strip().lower() not in _ORDER))
    if unknown:
        listed = ", ".join(f"'{name}'" for name in unknown)
        raise ValueError(f"unknown samurai {listed} (known: {', '.join(SAMURAI)})")


def as_names(names: Sequence[str] | str) -> tuple[str, ...]:
    """Validated names; a comma-joined string (a lineup or seating key) is accepted too."""
    if isinstance(names, str):
        names = names.split(",")
    out = tuple(str(name).strip().lower() for name in names)
    check_known(out)
    if len(set(out)) != len(out):
        raise ValueError(f"samurai repeated in {list(out)}")
    if not MIN_SEATS <= len(out) <= MAX_SEATS:
        raise ValueError(f"need {MIN_SEATS} to {MAX_SEATS} samurai, got {len(out)}")
    return out


def _check_count(n: int) -> None:
    if not MIN_SEATS <= n <= MAX_SEATS:
        raise ValueError(f"need {MIN_SEATS} to {MAX_SEATS} samurai, got {n}")


def canonical_seating(seating: Sequence[str] | str) -> tuple[str, ...]:
    """The rotation of seating that puts the canonical-first samurai at seat 0."""
    seats = as_names(seating)
    first = min(range(len(seats)), key=lambda i: _ORDER[seats[i]])
    return seats[first:] + seats[:first]


def distinct_seatings(names: Sequence[str] | str) -> list[tuple[str, ...]]:
    """Every distinct seating of a line-up, canonical form, (n-1)! of them, fixed order."""
    ordered = sorted(as_names(names), key=_ORDER.__getitem__)
    first, rest = ordered[0], ordered[1:]
    return [(first, *perm) for perm in itertools.permutations(rest)]


def seatings_from(names: Sequence[str] | str) -> list[tuple[str, ...]]:
    """Every distinct seating of a line-up, (n-1)! of them, each starting with the first name
    given: the seating as given comes first, unchanged. A rotation is the same seating (R-2)
    but not the same games under a seed (the first player is drawn by seat number, R-3), so
    a seating is played in the rotation the user wrote."""
    seats = as_names(names)
    return [(seats[0], *perm) for perm in itertools.permutations(seats[1:])]


def lineup_key(names: Sequence[str] | str) -> str:
    """The line-up as names in codes.SAMURAI order, comma-joined."""
    return ",".join(sorted(as_names(names), key=_ORDER.__getitem__))


def seating_key(seating: Sequence[str] | str) -> str:
    """The canonical seating, comma-joined."""
    return ",".join(canonical_seating(seating))


def all_lineups(n: int) -> list[tuple[str, ...]]:
    """Every line-up of n samurai, C(7, n) of them, in canonical order."""
    _check_count(n)
    return list(itertools.combinations(SAMURAI, n))


def sample_lineups(n: int, k: int, seed: int) -> list[tuple[str, ...]]:
    """k distinct line-ups of n samurai drawn with numpy Generator(seed), in canonical order.

    k at or above C(7, n) returns all line-ups.
    """
    _check_count(n)
    if k < 0:
        raise ValueError(f"k must not be negative, got {k}")
    lineups = all_lineups(n)
    if k >= math.comb(len(SAMURAI), n):
        return lineups
    picked = np.random.default_rng(seed).choice(len(lineups), size=k, replace=False)
    return [lineups[i] for i in sorted(picked)]
