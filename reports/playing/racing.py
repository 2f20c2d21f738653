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

The rules, and the constants and statistics they read, are reports.playing.stopping's.
"""

from __future__ import annotations

import hashlib
import json
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from kiai.reports.playing.stopping import Rule
from kiai.reports.playing.summary import Tally, summarize
from kiai.reports.playing.tables import SweepError, identity_key, row_from_summary

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
