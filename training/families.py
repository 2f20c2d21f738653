"""A family of tables: every seating of K samurai at one level. `kiai train value --size K`
learns one value for a family (kiai.training.value), and `selfplay` plays the family's shipped
value on any of its tables (strategies.nets.modelfile.family_path).

A value learned for one family serves line-ups it never played (the family's held-out
line-ups measure that), but not other team sizes or levels: the samurai's talents weigh
differently with more of them, and the cards differ by level.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kiai.simcore.seatings import all_lineups, seatings_from

EVAL_SEATINGS = 3  # tables a family without held-out line-ups is evaluated on


def parse(text: str) -> tuple[int, str]:
    """"K@level" -> (K, level)."""
    size, level = text.split("@")
    return int(size), level


@dataclass(frozen=True)
class Family:
    size: int
    level: str
    hold_out: int = 0  # line-ups left out of training, drawn from the seed
    seed: int = 0

    def held(self) -> list[tuple[str, ...]]:
        """The line-ups training never plays."""
        every = all_lineups(self.size)
        picks = np.random.default_rng([self.seed, 3]).choice(len(every), self.hold_out, replace=False)
        return [every[i] for i in sorted(picks)]

    def trained(self) -> list[tuple[str, ...]]:
        """Every seating of the line-ups training plays."""
        held = set(self.held())
        return [s for lineup in all_lineups(self.size) if lineup not in held for s in seatings_from(lineup)]

    def tables(self, count: int, iteration: int) -> list[tuple[tuple[str, ...], str]]:
        """`count` training tables of an iteration: every trained seating count // n times, and
        count % n more drawn afresh each iteration."""
        every = self.trained()
        n = len(every)
        rng = np.random.default_rng([self.seed, 1, iteration])
        picks = np.concatenate([np.tile(np.arange(n), count // n), rng.permutation(n)[: count % n]])
        return [(every[i], self.level) for i in rng.permutation(picks)]

    def eval_tables(self) -> tuple[tuple[tuple[str, ...], str], ...]:
        """The held-out line-ups as they are written, else three trained seatings drawn from the seed."""
        if self.hold_out:
            return tuple((lineup, self.level) for lineup in self.held())
        every = self.trained()
        picks = np.random.default_rng([self.seed, 4]).choice(len(every), min(EVAL_SEATINGS, len(every)), replace=False)
        return tuple((every[i], self.level) for i in sorted(picks))


def never_played(header: dict, size: int) -> list[tuple[str, ...]]:
    """The line-ups of `size` samurai that no run in a value's history played: the value's own run
    (its header's `settings`), then the value each run started from (`started_from`, nested).
    A family run of another team size played none of them; a run on one table played its line-up;
    a run on tables drawn from every size, or of unknown making, may have played any."""
    left = set(all_lineups(size))
    made = header
    while True:
        settings = made.get("settings")
        if not settings:
            return []
        if settings.get("family"):
            k, level = parse(settings["family"])
            if k == size:
                left &= set(Family(k, level, settings.get("hold_out", 0), settings.get("seed", 0)).held())
        elif settings.get("table"):
            played = set(settings["table"].partition("@")[0].split(","))
            left = {lineup for lineup in left if set(lineup) != played}
        else:
            return []
        made = made.get("started_from")
        if not made:  # the run started from keeper's or learned's answers
            break
    return [lineup for lineup in all_lineups(size) if lineup in left]
