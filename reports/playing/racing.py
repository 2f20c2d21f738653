"""How many games each configuration of a sweep plays: a fixed number, enough for a precision, or
as many as a race needs.

Games are played in rounds: a configuration plays games 0..b1-1 of the seed, then b1..b2-1, and
so on up to a cap (a rule's `bounds`). Every configuration belongs to one or more groups, and a
group has a rule. After each round the rule reads the wins and games of the group's members, and
nothing else, and says which of them play the next round; a configuration plays on while one of
its groups keeps it. Game i of a seed is the same deal for every configuration
(docs/design.md, Randomness), so a configuration that stops early has met the first deals of
those that play on, and their comparison stays paired as far as it goes. A configuration may
play deals of its own (Group.deals): the agreement preset gives each line-up deals of its own,
which both of its players meet. A rule reads only
results, never the clock, the thread count or the order in which blocks come back, so a sweep's
table is the same on any number of threads or Dask workers, and after an interrupted run is
resumed (the table keeps each finished configuration's wins at every round: Sweep.write).

The rules, and the constants and statistics they read, are reports.playing.stopping's.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from kiai.reports.playing.stopping import Rule
from kiai.reports.playing.summary import Tally, summarize
from kiai.reports.playing.tables import SweepError, identity_key, outcome_text, row_from_summary

@dataclass(frozen=True)
class Group:
    """Plan indices that race together under `rule`; `labels` (one per member) tell sides apart."""

    rule: Rule
    members: tuple[int, ...]
    labels: tuple[int, ...] = ()
    # one per member, or none: members with a key play deals of their own, those of deal_seed(seed,
    # key) (members of one key meet the same deals); '' or none, the sweep's seed's
    deals: tuple[str, ...] = ()

    def label_array(self) -> np.ndarray:
        return np.asarray(self.labels or (1,) * len(self.members))


def deal_seed(seed: int, key: str) -> int:
    """The seed of the deals that key `key` plays in a sweep of `seed` (Group.deals): 63 bits of
    SHA-256, so that keys, and sweeps of other seeds, meet deals of their own."""
    return int.from_bytes(hashlib.sha256(f"{int(seed)}:{key}".encode()).digest()[:8], "little") & (2**63 - 1)


def deal_seeds(groups: Sequence[Group], seed: int) -> dict[int, int]:
    """{plan index: the seed of its deals} for the members whose groups give them a deal key."""
    out: dict[int, int] = {}
    for g in groups:
        for i, key in zip(g.members, g.deals):
            if key and out.setdefault(i, deal_seed(seed, key)) != deal_seed(seed, key):
                raise SweepError(f"configuration {i} is in groups of different deals")
    return out


def seating_key(config) -> str:
    """The deal key of a configuration whose group names none: its seating. Each seating meets
    deals of its own, so rates pooled over line-ups or seatings average independent games; every
    strategy, parameter, rule reading, level and component file of one seating meets the same ones."""
    return ",".join(config.samurai)


def with_deals(configs: dict, groups: Sequence[Group]) -> list[Group]:
    """groups, each that names no deals given its members' seatings (seating_key; configs: plan
    index -> GameConfig)."""
    return [g if g.deals else dataclasses.replace(g, deals=tuple(seating_key(configs[i]) for i in g.members))
            for g in groups]


def signatures(plan: Sequence, groups: Sequence[Group]) -> dict[int, str]:
    """{plan index: a hash of every group it races in (rule and members)}, for the row keys: a row
    played in one race is no row of another."""
    idents = {}
    out: dict[int, list] = {}
    for g in groups:
        for i in g.members:
            if i not in idents:
                idents[i] = identity_key(plan[i])
        text = json.dumps([g.rule.describe(), [idents[i] for i in g.members], list(g.labels),
                           *([list(g.deals)] if g.deals else [])], sort_keys=True)
        for i in g.members:
            out.setdefault(i, []).append(text)
    return {i: hashlib.sha256("\n".join(sorted(texts)).encode()).hexdigest() for i, texts in out.items()}


def check_groups(size: int, groups: Sequence[Group]) -> None:
    """Every configuration in a group, and the groups of one configuration on the same rounds."""
    bounds: dict[int, tuple] = {}
    for g in groups:
        if g.labels and len(g.labels) != len(g.members):
            raise SweepError("a group's labels and members differ in number")
        if g.deals and len(g.deals) != len(g.members):
            raise SweepError("a group's deals and members differ in number")
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
    won: np.ndarray | None = None  # each game's win, kept where a group's rule reads them (Rule.paired)

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
        out = {"rounds": list(rounds), "tally": {k: (v.tolist() if hasattr(v, "tolist") else v)
                                                 for k, v in tally.counts().items()}}
        if self.won is not None:
            out["outcomes"] = outcome_text(self.won[:tally.games])
        return out


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
    there. Where a group's rule reads each game's win (Rule.paired), its members keep them, and
    `outcomes` holds those of the games a resumed table's configurations played before."""

    def __init__(self, plan: Sequence[tuple[int, object]], groups: Sequence[Group], seed: int, backend, *,
                 block: int, known: dict[int, list[int]] | None = None,
                 partial: dict[int, tuple[list[int], Tally]] | None = None,
                 outcomes: dict[int, np.ndarray] | None = None):
        if block < 1:
            raise SweepError(f"--block must be at least 1, got {block}")
        self.seed, self.backend, self.block = seed, backend, block
        self.seeds = deal_seeds(groups, seed)  # plan index -> the seed of its deals, where not `seed`
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
                if state.group.rule.paired and m.won is None:
                    m.won = np.zeros(m.bounds[-1], bool)
                    before = (outcomes or {}).get(m.index)
                    if m.known is not None and before is None:  # a table written before it kept them
                        raise SweepError("a resumed table's race does not replay as recorded (its games' wins "
                                         "were not kept); use --force to start over")  # fmt: skip
                    if before is not None:
                        m.won[:min(before.size, m.won.size)] = before[:m.won.size]
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
                m, offset, tally = self.backend.next_done()
                if m.won is not None:
                    m.won[offset:offset + tally.games] = tally.won
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
                    row = row_from_summary(summarize(m.tally, m.config, self.seed_of(m)), m.config)
                    if m.won is not None:
                        row["outcomes"] = outcome_text(m.won[:m.tally.games])
                    on_finished(m.index, row, m.tally.games, list(m.history))
                if on_estimate is not None:
                    on_estimate(self.estimate())

    def seed_of(self, m: Member) -> int:
        return self.seeds.get(m.index, self.seed)

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
            self.backend.submit(m, self.seed_of(m), m.scheduled, k)
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
        rule = state.group.rule
        if last:
            keep = np.zeros(len(held), bool)
        elif rule.paired:
            keep = rule.keep(wins, games, held, state.group.label_array(),
                             outcomes=[m.won[:n] for m, n in zip(state.members, games)],
                             deals=[self.seed_of(m) for m in state.members])
        else:
            keep = rule.keep(wins, games, held, state.group.label_array())
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
