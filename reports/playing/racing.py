"""How many games each configuration of a sweep plays: a fixed number, enough for a precision, or
as many as a race needs.

Games are played in rounds: a configuration plays games 0..b1-1 of the seed, then b1..b2-1, and
so on up to a cap (a rule's `bounds`). Every configuration belongs to one or more groups, and a
group has a rule. After each round the rule reads the wins and games of the group's members, and
nothing else, and says which of them play the next round; a configuration plays on while one of
its groups keeps it. Game i of a seed is the same deal for every configuration
(docs/design.md, Randomness), so a configuration that stops early has met the first deals of
those that play on, and their comparison stays paired as far as it goes. A rule reads only
results, never the clock, the thread count or the order in which blocks come back, so a sweep's
table is the same on any number of threads or Dask workers, and after an interrupted run is
resumed (the table keeps each finished configuration's wins at every round: Sweep.write).

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
import hashlib
import json
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from kiai.simcore.stats import difference_ci, proportion_ci
from kiai.reports.playing.summary import Tally, summarize
from kiai.reports.playing.tables import SweepError, identity_key, row_from_summary

PRECISION_START = 1_000  # first batch of a --precision run; each later batch doubles the total
PRECISION_MAX_GAMES = 10_000_000  # a --precision run stops here even if the target is not met
ALPHA = 0.05  # a race's error rate: per group, over all its members and looks


def half_width(wins: int, games: int) -> float:
    """Half the width of the 95% interval kiai reports (simcore.stats.proportion_ci)."""
    lo, hi, _ = proportion_ci(wins, games)
    return (hi - lo) / 2


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
    stops (the report compares line-ups at the hardest level where a team size wins at least 10%)."""

    alpha: float = ALPHA
    margin: float = 0.0
    precision: float = 0.0
    worst: bool = True
    floor: float | None = None

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
        return held & need


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
    games: pooled) has a 95% interval within +-`h` (the precision the report's sentence needs).
    With `against`, until the difference of that pooled rate from the pooled rate of those
    labelled 0 has a 95% interval (Newcombe's, difference_half_width) within +-`h`: the interval the
    report gives kiai's strongest player, whose rate it reads as the default's plus that difference
    (reports.page.stronger.strongest_rates)."""

    h: float = 0.04
    against: bool = False

    def keep(self, wins, games, held, labels):
        s = np.asarray(labels) == 1
        rate, size = pooled(np.asarray(wins)[s], np.asarray(games)[s])
        if not self.against:
            return held & (half_width(round(rate * size), max(1, round(size))) > self.h)
        rate0, size0 = pooled(np.asarray(wins)[~s], np.asarray(games)[~s])
        hw = difference_half_width(round(rate * size), max(1, round(size)), round(rate0 * size0), max(1, round(size0)))
        return held & (hw > self.h)


def difference_half_width(w1: int, n1: int, w0: int, n0: int) -> float:
    """The larger side of Newcombe's 95% interval for p1 - p0 (what the report's difference of two
    players' pooled rates prints: reports.page.advice.difference)."""
    d, lo, hi = difference_ci(w1, n1, w0, n0)
    return max(d - lo, hi - d)


@dataclass(frozen=True)
class Group:
    """Plan indices that race together under `rule`; `labels` (one per member) tell sides apart."""

    rule: Rule
    members: tuple[int, ...]
    labels: tuple[int, ...] = ()

    def label_array(self) -> np.ndarray:
        return np.asarray(self.labels or (1,) * len(self.members))


def signatures(plan: Sequence, groups: Sequence[Group]) -> dict[int, str]:
    """{plan index: a hash of every group it races in (rule and members)}, for the row keys: a row
    played in one race is no row of another."""
    idents = {}
    out: dict[int, list] = {}
    for g in groups:
        for i in g.members:
            if i not in idents:
                idents[i] = identity_key(plan[i])
        text = json.dumps([g.rule.describe(), [idents[i] for i in g.members], list(g.labels)], sort_keys=True)
        for i in g.members:
            out.setdefault(i, []).append(text)
    return {i: hashlib.sha256("\n".join(sorted(texts)).encode()).hexdigest() for i, texts in out.items()}


def check_groups(size: int, groups: Sequence[Group]) -> None:
    """Every configuration in a group, and the groups of one configuration on the same rounds."""
    bounds: dict[int, tuple] = {}
    for g in groups:
        if g.labels and len(g.labels) != len(g.members):
            raise SweepError("a group's labels and members differ in number")
        for i in g.members:
            if bounds.setdefault(i, g.rule.bounds()) != g.rule.bounds():
                raise SweepError(f"configuration {i} is in groups of different rounds")
    if len(bounds) != size:
        raise SweepError(f"{size - len(bounds)} configuration(s) of the plan are in no group")


# ---------------------------------------------------------------------------------- driver


@dataclass(eq=False)
class Member:
    """One configuration in play: its games so far, and its wins at the end of every round."""

    index: int
    config: object
    bounds: tuple[int, ...]
    known: list[int] | None = None  # resumed: its wins at the end of each round played before
    resumed: Tally | None = None  # resumed unfinished: its games so far (those of known's rounds)
    checkpoint: Tally | None = None  # its games at the end of its last round (a block of the next may be in)
    groups: list = field(default_factory=list)
    tally: Tally = field(default_factory=Tally)
    scheduled: int = 0
    history: list[int] = field(default_factory=list)
    done: bool = False

    @property
    def ended_before(self) -> bool:
        """A configuration a resumed table holds finished: nothing of it is played again."""
        return self.known is not None and self.resumed is None and self.tally.games == 0

    def partial(self) -> dict | None:
        """Where an unfinished configuration stands, for a resumed run: its wins at the end of each
        round so far and its Tally at the last one (None before its first round ends)."""
        if self.done or self.ended_before:
            return None
        rounds, tally = (self.known, self.resumed) if self.resumed is not None else (self.history, self.checkpoint)
        if not rounds or tally is None:
            return None
        return {"rounds": list(rounds), "tally": {k: (v.tolist() if hasattr(v, "tolist") else v)
                                                  for k, v in tally.__getstate__().items()}}


@dataclass(eq=False)
class _GroupState:
    group: Group
    members: list[Member]
    released: dict = field(default_factory=dict)  # member index -> the round after which the group let it go
    decided: int = -1  # the last round decided

    def holds(self, m: Member) -> bool:
        return m.index not in self.released


class Race:
    """Plays the plan's configurations round by round as their groups decide (module docstring).
    The backend plays blocks (play.LocalBackend, cluster.DaskBackend); `known` holds the wins per
    round of configurations finished before (a resumed table), which are not played again, and
    `partial` the wins per round and the Tally of those a run left unfinished, which play on from
    there."""

    def __init__(self, plan: Sequence[tuple[int, object]], groups: Sequence[Group], seed: int, backend, *,
                 block: int, known: dict[int, list[int]] | None = None,
                 partial: dict[int, tuple[list[int], Tally]] | None = None):
        if block < 1:
            raise SweepError(f"--block must be at least 1, got {block}")
        self.seed, self.backend, self.block = seed, backend, block
        known, partial = known or {}, partial or {}
        self.members = {}
        for i, config in plan:
            wins, tally = partial.get(i, (known.get(i), None))
            self.members[i] = Member(i, config, (), wins, tally)
        self.groups = [_GroupState(g, [self.members[i] for i in g.members]) for g in groups]
        for state in self.groups:
            for m in state.members:
                m.groups.append(state)
                m.bounds = state.group.rule.bounds()
        self.instant: deque[Member] = deque()
        self.finished: list[Member] = []
        self.played = 0

    # -- the loop
    def run(self, on_finished: Callable | None = None, on_block: Callable | None = None,
            on_estimate: Callable | None = None) -> None:
        for m in self.members.values():
            self._schedule(m, 0)
        if on_estimate is not None:
            on_estimate(self.estimate())  # at first, every configuration to its cap
        while self.instant or self.backend.pending():
            if self.instant:
                m = self.instant.popleft()
                m.history.append(m.known[len(m.history)])
                self._completed(m)
            else:
                m, _offset, tally = self.backend.next_done()
                m.tally.merge(tally)
                self.played += tally.games
                if on_block is not None:
                    on_block(tally.games)
                if m.tally.games == m.bounds[len(m.history)]:
                    m.history.append(m.tally.wins)
                    m.checkpoint = Tally().merge(m.tally)
                    self._completed(m)
            while self.finished:
                m = self.finished.pop(0)
                if on_finished is not None and not m.ended_before:
                    row = row_from_summary(summarize(m.tally, m.config, self.seed), m.config)
                    on_finished(m.index, row, m.tally.games, list(m.history))
                if on_estimate is not None:
                    on_estimate(self.estimate())

    def partials(self) -> dict[int, dict]:
        """{plan index: Member.partial()} of the configurations left unfinished so far."""
        return {i: p for i, m in self.members.items() if (p := m.partial()) is not None}

    def estimate(self) -> int:
        """Games this race will have played in all, as now expected: those played and handed out,
        and of what the unfinished configurations may still play up to their cap, the share that
        finished ones played (taken as a half, worth ten configurations, until they say more: the
        first to finish are those that leave the race at once)."""
        fresh = [m for m in self.members.values() if not m.ended_before]
        ended = [m for m in fresh if m.done]
        prior = 10 * max((m.bounds[-1] - m.bounds[0] for m in fresh), default=0)
        could = sum(m.bounds[-1] - m.bounds[0] for m in ended) + prior
        share = (sum(m.tally.games - m.bounds[0] for m in ended) + prior / 2) / could if could else 1.0
        open_ = [m for m in fresh if not m.done]
        return int(sum(m.tally.games for m in ended) + sum(m.scheduled for m in open_)
                   + share * sum(m.bounds[-1] - m.scheduled for m in open_))

    # -- rounds
    def _schedule(self, m: Member, r: int) -> None:
        """Hand out round r of m (its games from the last round's end to bounds[r])."""
        target = m.bounds[r]
        if m.known is not None and r < len(m.known):  # played before: its wins are known
            m.scheduled = target
            self.instant.append(m)
            return
        if m.ended_before:
            raise SweepError("a resumed table's race does not replay as recorded; use --force to start over")
        if m.resumed is not None and r == len(m.known):  # an unfinished one plays on from where it stopped
            m.tally, m.resumed = m.resumed, None
            if m.tally.games != m.bounds[r - 1]:
                raise SweepError("a resumed table's race does not replay as recorded; use --force to start over")
        while m.scheduled < target:
            k = min(self.block, target - m.scheduled)
            self.backend.submit(m, self.seed, m.scheduled, k)
            m.scheduled += k

    def _completed(self, m: Member) -> None:
        for state in m.groups:
            self._decide(state)
        self._advance(m, len(m.history) - 1)

    def _decide(self, state: _GroupState) -> None:
        """Decide the group's next round once every member it holds has finished that round."""
        r = state.decided + 1
        if any(state.holds(m) and len(m.history) <= r for m in state.members):
            return
        held = np.array([state.holds(m) for m in state.members])
        at = [state.released.get(m.index, r) for m in state.members]
        wins = np.array([m.history[s] for m, s in zip(state.members, at)])
        games = np.array([m.bounds[s] for m, s in zip(state.members, at)])
        last = r == len(state.members[0].bounds) - 1
        keep = np.zeros(len(held), bool) if last else state.group.rule.keep(wins, games, held,
                                                                             state.group.label_array())
        for m, h, k in zip(state.members, held, keep):
            if h and not k:
                state.released[m.index] = r
        state.decided = r
        for m, h in zip(state.members, held):
            if h:
                self._advance(m, r)

    def _advance(self, m: Member, r: int) -> None:
        """After round r of m: once every group of m has decided it, play on or finish."""
        if m.done or len(m.history) != r + 1 or m.scheduled > m.bounds[r]:
            return
        if any(s.holds(m) and s.decided < r for s in m.groups):
            return
        if any(s.holds(m) for s in m.groups):
            self._schedule(m, r + 1)
            return
        if (m.ended_before or m.resumed is not None) and len(m.known) != r + 1:
            raise SweepError("a resumed table's race does not replay as recorded; use --force to start over")
        if m.resumed is not None:  # an unfinished one whose last round played was its last: it ends there
            m.tally, m.resumed = m.resumed, None
        m.done = True
        self.finished.append(m)
