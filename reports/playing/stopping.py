"""The rules that say, after each round of a sweep (reports.playing.racing), which configurations
of a group play on; and the statistics they read.

The rules:

- Fixed: one round of n games (`kiai sweep --games`).
- Precision: rounds doubling until the 95% interval's half-width is at most h (`--precision`).
- Extremes: a race (successive elimination; Maron and Moore's Hoeffding races, with exact
  binomial bounds instead of Hoeffding's): a member leaves once it can be neither the best nor
  the worst of its group; see Extremes for the error rate it keeps.
- Difference: two sides (a rule reading's configurations and the rules' own) play until the
  difference of their pooled rates is told apart from zero, or shown smaller than a margin.
- Cell: the members play together until the pooled rate of one side is as precise as asked.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from kiai.simcore.stats import deal_parts, difference_ci, paired_difference, proportion_ci
from kiai.reports.playing.tables import SweepError

PRECISION_START = 1_000  # first batch of a --precision run; each later batch doubles the total
PRECISION_MAX_GAMES = 10_000_000  # a --precision run stops here even if the target is not met
ALPHA = 0.05  # a race's error rate: per group, over all its members and looks


def half_width(wins: int, games: int) -> float:
    """Half the width of the 95% interval kiai reports (simcore.stats.proportion_ci)."""
    lo, hi, _ = proportion_ci(wins, games)
    return (hi - lo) / 2


def widest_side(wins: int, games: int) -> float:
    """The longer side of the 95% interval kiai reports, from the rate to its farther limit: what
    "within +-h" asks of an interval that is not symmetric (Wilson's, near 0% or 100%)."""
    lo, hi, _ = proportion_ci(wins, games)
    rate = wins / games
    return max(hi - rate, rate - lo)


def exact_bounds(wins, games, level: float) -> tuple[np.ndarray, np.ndarray]:
    """Clopper-Pearson (exact binomial) bounds at two-sided confidence `level`, per member: their
    coverage is at least `level` whatever the rate, which a union bound over members and looks
    needs (Wilson's dips below its nominal level near the edges)."""
    from scipy.stats import beta

    w, n = np.asarray(wins, dtype=float), np.asarray(games, dtype=float)
    a = (1 - level) / 2
    with np.errstate(invalid="ignore", divide="ignore"):
        lo = np.where(w > 0, beta.ppf(a, w, n - w + 1), 0.0)
        hi = np.where(w < n, beta.isf(a, w + 1, n - w), 1.0)
    return np.nan_to_num(lo, nan=0.0), np.nan_to_num(hi, nan=1.0)


def pooled(wins, games) -> tuple[float, float]:
    """(rate, effective games) of members pooled with equal weight: the mean of their rates, and
    the games of equal-sized members that would give that mean the same binomial variance (Kish's
    effective size, k^2 / sum(1/n)); with equal games, the plain pooled rate and total games."""
    w, n = np.asarray(wins, dtype=float), np.asarray(games, dtype=float)
    return float(np.mean(w / n)), float(len(n) ** 2 / np.sum(1 / n))


# ----------------------------------------------------------------------------------- rules


@dataclass(frozen=True)
class Rule:
    """Rounds ending at `bounds()` games (the first at `first`, then `step` more each, or doubling
    with step 0, the last at `cap`), and after each round, which members play on (keep)."""

    first: int
    step: int
    cap: int

    def __post_init__(self):
        if not 1 <= self.first <= self.cap or self.step < 0:
            raise SweepError(f"a rule's rounds must satisfy 1 <= first <= cap, step >= 0: {self}")

    def bounds(self) -> tuple[int, ...]:
        out, n = [], self.first
        while n < self.cap:
            out.append(n)
            n = min(self.cap, n + self.step if self.step else 2 * n)
        return (*out, self.cap)

    def looks(self) -> int:
        """The rounds after which the rule decides anything (the last round ends every member)."""
        return max(1, len(self.bounds()) - 1)

    @property
    def paired(self) -> bool:
        """Whether the race keeps each game's win, and hands them to keep() (outcomes=: per member, its
        games' wins in order)."""
        return False

    def keep(self, wins: np.ndarray, games: np.ndarray, held: np.ndarray, labels: np.ndarray) -> np.ndarray:
        """Which members play the next round: a subset of `held` (those the group still holds;
        the others' wins and games are frozen where the group let them go)."""
        raise NotImplementedError

    def describe(self) -> dict:
        return {"rule": type(self).__name__, **dataclasses.asdict(self)}


@dataclass(frozen=True)
class Fixed(Rule):
    """One round of `cap` games."""

    @classmethod
    def of(cls, games: int) -> Fixed:
        return cls(games, 0, games)

    def keep(self, wins, games, held, labels):
        return np.zeros(len(held), bool)


@dataclass(frozen=True)
class Precision(Rule):
    """Rounds doubling from `first` until a member's 95% half-width is at most h (or `cap` games)."""

    h: float = 0.01

    def keep(self, wins, games, held, labels):
        return held & np.array([half_width(int(w), int(n)) > self.h for w, n in zip(wins, games)])


@dataclass(frozen=True)
class Extremes(Rule):
    """A race for the best and the worst member of a group (or the best alone, worst=False).

    After each look every member gets an exact interval at confidence 1 - alpha / (k looks), k
    members: by the union bound, all the intervals of a group cover their members' true rates at
    every look with probability at least 1 - alpha. A member is a candidate for the best while its
    upper bound reaches the highest lower bound, for the worst while its lower bound reaches the
    lowest upper bound; it plays on while it is a candidate of a side that is not settled, and a 95%
    interval of its games is wider than +-`precision` (the precision the report's sentence needs) at
    the group's pooled rate. A side is settled once every candidate is shown within `margin` of the
    best (or the worst). So, with probability at least 1 - alpha, the best and the worst members are
    never dropped before their side is settled or that precision reached: a clear leader stops the
    others early, and a tie plays to the cap.

    The precision reads the group's rate, not the member's own: a binomial interval is narrower
    where the rate is lower, so a member stopped on its own interval would stop when it happens to
    win less, and the rates pooled over the group would lean low.

    `floor`: no sentence ranks the group's members when the whole group wins clearly less than
    this (its pooled rate's upper bound, at the same confidence, below it): then every member
    stops (the report compares line-ups at the hardest level where a team size wins at least 10%).

    `pooled`: besides, every member plays on while the group's pooled rate has a 95% interval
    wider than +-pooled on either side (a headline cell asked to that precision)."""

    alpha: float = ALPHA
    margin: float = 0.0
    precision: float = 0.0
    worst: bool = True
    floor: float | None = None
    pooled: float = 0.0

    def keep(self, wins, games, held, labels):
        level = 1 - self.alpha / (len(wins) * self.looks())
        lo, hi = exact_bounds(wins, games, level)
        if self.floor is not None:
            rate, size = pooled(wins, games)
            if exact_bounds([rate * size], [size], level)[1][0] < self.floor:
                return np.zeros(len(held), bool)
        best = hi >= lo.max()
        need = best & ~(hi.max() - lo[best].min() <= self.margin)
        if self.worst:
            worst = lo <= hi.min()
            need |= worst & ~(hi[worst].max() - lo.min() <= self.margin)
        if self.precision:
            rate = pooled(wins, games)[0]
            need &= np.array([half_width(round(rate * n), int(n)) > self.precision for n in games])
        if self.pooled:
            rate, size = pooled(wins, games)
            if widest_side(round(rate * size), max(1, round(size))) > self.pooled:
                need[:] = True
        return held & need

    def describe(self) -> dict:
        out = super().describe()
        if not self.pooled:  # a race without a headline precision is described, and resumed, as before it existed
            del out["pooled"]
        return out


@dataclass(frozen=True)
class Difference(Rule):
    """Two sides, labels 1 and 0 (a rule reading's configurations, the rules' own), each pooled with
    equal weight: every member plays on until the difference of the pooled rates has a normal
    interval, at confidence 1 - alpha / looks, that excludes zero (the side that wins more is told)
    or lies within +-`margin` (no difference worth a sentence)."""

    alpha: float = ALPHA
    margin: float = 0.0

    def keep(self, wins, games, held, labels):
        from scipy.stats import norm

        labels = np.asarray(labels)
        w, n = np.asarray(wins, dtype=float), np.asarray(games, dtype=float)
        p = (w + 0.5) / (n + 1)  # for the variance only: a side that never wins still has some
        parts = []
        for side in (1, 0):
            s = labels == side
            parts.append((np.mean(w[s] / n[s]), np.sum(p[s] * (1 - p[s]) / n[s]) / s.sum() ** 2))
        diff, var = parts[0][0] - parts[1][0], parts[0][1] + parts[1][1]
        z = norm.isf(self.alpha / (2 * self.looks())) * np.sqrt(var)
        settled = diff - z > 0 or diff + z < 0 or abs(diff) + z <= self.margin
        return held & (not settled)


@dataclass(frozen=True)
class Cell(Rule):
    """Members play together until the pooled rate of those labelled 1 (equal weight, effective
    games: pooled) has a 95% interval within +-`h`, each side of it (widest_side; the precision the
    report's sentence needs): the
    interval the report gives kiai's strongest player (reports.findings.views.strongest_rates), those
    labelled 0 (the default) playing beside it on the same deals. With `against`, until the
    difference of that pooled rate from the pooled rate of those labelled 0 has a 95% interval
    within +-`h`: Newcombe's (difference_half_width), or with `shared`, the one over the deals both
    sides played (paired_half_width: the luck of a deal cancels in the difference, and members that
    met the same deals are not taken as independent). Where `floor` is set and every side's 95%
    interval lies below it, +-`rough` is enough: the sentence says "under 2%" there, not a rate to
    two points. With `shared` the race keeps each game's win (the tables' `outcomes`), which the
    page reads the two players' difference from deal by deal."""

    h: float = 0.04
    against: bool = False
    floor: float = 0.0
    rough: float = 0.0
    shared: bool = False  # the race keeps each game's win; with against, the interval reads them

    @property
    def paired(self) -> bool:
        return self.shared

    def keep(self, wins, games, held, labels, outcomes=None, deals=None):
        s = np.asarray(labels) == 1
        rate, size = pooled(np.asarray(wins)[s], np.asarray(games)[s])
        sides = [(rate, size)]
        if (~s).any():
            sides.append(pooled(np.asarray(wins)[~s], np.asarray(games)[~s]))
        if not self.against:
            return held & (widest_side(round(rate * size), max(1, round(size))) > self._need(*sides))
        (rate0, size0) = sides[1]
        if self.shared:
            hw = paired_half_width(outcomes, s, deals)
        else:
            hw = difference_half_width(round(rate * size), max(1, round(size)), round(rate0 * size0), max(1, round(size0)))
        return held & (hw > self._need(*sides))

    def _need(self, *sides) -> float:
        """The precision asked: `rough` where every side's interval lies under `floor`, else h."""
        under = all(proportion_ci(round(r * n), max(1, round(n)))[1] < self.floor for r, n in sides)
        return max(self.h, self.rough) if self.floor > 0 and under else self.h


def difference_half_width(w1: int, n1: int, w0: int, n0: int) -> float:
    """The larger side of Newcombe's 95% interval for p1 - p0 (what the report's difference of two
    players' pooled rates prints: reports.findings.advice.difference)."""
    d, lo, hi = difference_ci(w1, n1, w0, n0)
    return max(d - lo, hi - d)


def paired_half_width(outcomes, ones, deals=None) -> float:
    """The larger side of the 95% interval for the difference of two sides' mean rates read over
    their deals (simcore.stats.paired_difference; outcomes, ones and deals as deal_parts takes them)."""
    d, lo, hi = paired_difference(deal_parts(outcomes, ones, deals))
    return max(d - lo, hi - d)
