import math

import pytest

from kiai.simcore.seatings import (
    all_lineups,
    canonical_seating,
    distinct_seatings,
    lineup_key,
    sample_lineups,
    seating_key,
)
from kiai.simcore.codes import SAMURAI


def _rotations(seating):
    return {seating[i:] + seating[:i] for i in range(len(seating))}


@pytest.mark.parametrize("n", range(2, 8))
def test_counts(n):
    assert len(distinct_seatings(SAMURAI[:n])) == math.factorial(n - 1)
    assert len(all_lineups(n)) == math.comb(7, n)


@pytest.mark.parametrize("n", range(2, 8))
def test_no_seating_is_a_rotation_of_another(n):
    seatings = distinct_seatings(SAMURAI[-n:])
    seen = set()
    for s in seatings:
        assert not (_rotations(s) & seen)
        seen |= _rotations(s)
    # together they cover every ordering of the line-up
    assert len(seen) == math.factorial(n)


@pytest.mark.parametrize("n", range(3, 8))
def test_every_mirror_image_is_a_distinct_seating(n):
    seatings = distinct_seatings(SAMURAI[:n])
    as_set = set(seatings)
    for s in seatings:
        mirror = canonical_seating(tuple(reversed(s)))
        assert mirror in as_set
        assert mirror != s


def test_canonical_form_and_order():
    seatings = distinct_seatings(["kikuchiyo", "kyuzo", "daisuke"])
    assert seatings == [("daisuke", "kyuzo", "kikuchiyo"), ("daisuke", "kikuchiyo", "kyuzo")]
    assert distinct_seatings(["kyuzo", "heihachi"]) == [("heihachi", "kyuzo")]


def test_canonical_seating_rotates_and_is_idempotent():
    s = ("kyuzo", "kanbei", "daisuke", "kikuchiyo")
    c = canonical_seating(s)
    assert c == ("daisuke", "kikuchiyo", "kyuzo", "kanbei")
    assert canonical_seating(c) == c
    for r in _rotations(s):
        assert canonical_seating(r) == c


def test_keys():
    assert lineup_key(["kikuchiyo", "heihachi", "kyuzo"]) == "heihachi,kyuzo,kikuchiyo"
    assert seating_key(["kyuzo", "kikuchiyo", "heihachi"]) == "heihachi,kyuzo,kikuchiyo"
    assert seating_key("kikuchiyo,heihachi,kyuzo") == "heihachi,kyuzo,kikuchiyo"
    assert seating_key(["heihachi", "kikuchiyo", "kyuzo"]) != seating_key(["heihachi", "kyuzo", "kikuchiyo"])


def test_all_lineups_canonical_order():
    pairs = all_lineups(2)
    assert pairs[0] == ("heihachi", "daisuke")
    assert all(lineup_key(p) == ",".join(p) for p in pairs)
    assert all_lineups(7) == [SAMURAI]


def test_sample_lineups_is_distinct_deterministic_and_capped():
    a = sample_lineups(3, 10, seed=42)
    assert len(a) == len(set(a)) == 10
    assert a == sample_lineups(3, 10, seed=42)
    assert set(a) <= set(all_lineups(3))
    assert sample_lineups(3, 35, seed=1) == all_lineups(3)
    assert sample_lineups(6, 100, seed=1) == all_lineups(6)
    assert sample_lineups(3, 0, seed=1) == []
    assert any(sample_lineups(3, 10, seed=s) != a for s in range(1, 5))


@pytest.mark.parametrize(
    "names",
    [
        ["heihachi"],
        ["heihachi", "heihachi"],
        ["heihachi", "bob"],
        list(SAMURAI) + ["heihachi"],
        [],
    ],
)
def test_bad_lineups_raise(names):
    with pytest.raises(ValueError):
        distinct_seatings(names)
    with pytest.raises(ValueError):
        canonical_seating(names)


@pytest.mark.parametrize("n", [0, 1, 8])
def test_bad_counts_raise(n):
    with pytest.raises(ValueError):
        all_lineups(n)
    with pytest.raises(ValueError):
        sample_lineups(n, 3, seed=0)


def test_negative_sample_size_raises():
    with pytest.raises(ValueError):
        sample_lineups(3, -1, seed=0)
