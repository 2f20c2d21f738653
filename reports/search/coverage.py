"""Whether the report's intervals keep their promise: a small study repeated over many seeds.

Each seed plays one family as the report's sweeps play it (every line-up in its own order, every
seating of one line-up, one rule reading on two line-ups, a second strategy on every line-up
beside the first), and the report's own functions (reports.findings) give each kind of figure
with its 95% interval. Over the seeds, a kind's *coverage* is the share of its intervals that hold
the target, the mean of its estimates over all seeds; its *ratio* is 1.96 times the spread of the
estimates over the mean printed half-width (1 for an interval as wide as it should be, above 1 for
one too narrow). `deals="shared"` plays every configuration of a seed on the same deals, as sweeps
did before each seating got deals of its own (racing.seating_key): the pooled kinds then show
what ignoring that costs.

`make coverage` runs the full check with the default player and stores its result
(reports/data/coverage.json), which the report's methods quote; tests run a small one.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

import numpy as np
import pandas as pd

from kiai.reports.findings import advice
from kiai.reports.findings.effects import samurai_effects
from kiai.reports.playing.grid import build_plan
from kiai.reports.playing.play import LocalBackend
from kiai.reports.playing.presets import merge_plans
from kiai.reports.playing.racing import Group
from kiai.reports.playing.stopping import Fixed
from kiai.reports.playing.sweep import run_plan
from kiai.reports.playing.tables import to_frame
from kiai.simcore.seatings import all_lineups, seatings_from

TARGET_COVERAGE = 0.93  # issue 70's targets: at least this share of intervals hold the target
TARGET_RATIO = 1.1  # and 1.96 x the estimates' spread is at most this many printed half-widths

KINDS = {
    "level": "a team size's rate at a level, all its line-ups pooled",
    "lineup": "one line-up's rate",
    "difference": "the difference between two line-ups named in advance",
    "samurai": "a samurai's effect (line-ups with it minus those without)",
    "seating": "one seating's rate",
    "chosen": "the best seating's gain over the worst, the two chosen from the games",
    "reading": "a rule reading against the rules' own, its line-ups pooled",
    "strongest": "the second player's rate, all line-ups pooled (the strongest player's cell)",
}


@dataclass(frozen=True)
class Study:
    """What one seed plays: `size` samurai at `level`, `games` a configuration, `strategy` and a
    second player `strong` on every line-up, every seating of the first line-up, `reading` on
    the first two line-ups."""

    size: int = 4
    level: str = "normal"
    strategy: str = "selfplay"
    strong: str = "learned"
    games: int = 200
    reading: str = "V-1"
    deals: str = "own"  # or "shared": every configuration of a seed on the same deals

    def plan(self) -> list:
        from kiai.simcore.readings import READINGS

        lineups = all_lineups(self.size)
        reading = next(r for r in READINGS if r.v == self.reading)
        variants = [(self.strategy, {}), (self.strong, {})]
        grid = build_plan([self.level], lineups, variants)
        seatings = build_plan([self.level], seatings_from(lineups[0]), variants[:1])
        rules = build_plan([self.level], lineups[:2], variants[:1], rules=[{reading.name: reading.values[1]}])
        return merge_plans(grid, seatings, rules)


@dataclass
class Kind:
    estimates: list = field(default_factory=list)
    lows: list = field(default_factory=list)
    highs: list = field(default_factory=list)
    targets: list = field(default_factory=list)  # per seed, where the target depends on a choice

    def add(self, estimate: float, lo: float, hi: float) -> None:
        self.estimates.append(float(estimate))
        self.lows.append(float(lo))
        self.highs.append(float(hi))

    def result(self) -> dict:
        est, lo, hi = (np.asarray(x, float) for x in (self.estimates, self.lows, self.highs))
        if self.targets:  # the chosen pair's own gap: coverage against it, spread about it
            target = np.asarray(self.targets, float)
            spread = float(np.sqrt(np.mean((est - target) ** 2)))
        else:
            target = np.full(len(est), est.mean())
            spread = float(est.std(ddof=1)) if len(est) > 1 else 0.0
        half = float(np.mean((hi - lo) / 2))
        return {"seeds": len(est), "target": float(target.mean()), "coverage": float(np.mean((lo <= target) & (target <= hi))),
                "half_width": half, "ratio": 1.96 * spread / half if half > 0 else math.inf}


def figures(df: pd.DataFrame, study: Study) -> dict[str, tuple[float, float, float]]:
    """{kind: (estimate, lo, hi)} of one seed's table, each from the report's own function."""
    lineups = [",".join(x) for x in all_lineups(study.size)]
    grid = advice.grid_rows(df, study.strategy)
    out = {}
    rate = advice.level_rates(grid).iloc[0]
    out["level"] = (rate["rate"], rate["lo"], rate["hi"])
    rates = advice.lineup_rates(grid).set_index("lineup")
    first, second = rates.loc[lineups[0]], rates.loc[lineups[1]]
    out["lineup"] = (first["rate"], first["lo"], first["hi"])
    out["difference"] = advice.difference(first["wins"], first["games"], second["wins"], second["games"])
    eff = samurai_effects(grid)
    one = eff[eff["samurai"] == lineups[0].split(",")[0]].iloc[0]
    out["samurai"] = (one["diff"], one["ci_low"], one["ci_high"])
    seatings = advice.seating_rates(df, study.level, lineups[0], study.strategy)
    s = seatings.sort_values("seating").iloc[-1]
    out["seating"] = (s["rate"], s["lo"], s["hi"])
    if len(seatings) > 1:
        gain = advice.seating_advice(seatings, study.size)
        out["chosen"] = (gain["diff"], gain["lo"], gain["hi"], gain["best"]["seating"], gain["worst"]["seating"],
                         dict(zip(seatings["seating"], seatings["rate"])))
    reading = advice.reading_effects(df, study.strategy).iloc[0]
    out["reading"] = (reading["diff"], reading["lo"], reading["hi"])
    strong = advice.level_rates(advice.grid_rows(df, study.strong)).iloc[0]
    out["strongest"] = (strong["rate"], strong["lo"], strong["hi"])
    return out


def run(study: Study, seeds: int, first_seed: int = 0, on_seed: Callable[[int], None] | None = None) -> dict:
    """Play `seeds` seeds of `study` and return {"study", "kinds": {kind: Kind.result()}}."""
    from kiai.strategies.run.warm import warm_engine

    plan = study.plan()
    warm_engine(*plan)
    kinds = {k: Kind() for k in KINDS}
    chosen, rates = [], []  # per seed: the chosen (best, worst), and every seating's rate
    indexed = list(enumerate(plan))
    shared = ("shared",) if study.deals == "shared" else None
    for seed in range(first_seed, first_seed + seeds):
        groups = [Group(Fixed.of(study.games), (i,), deals=shared or ()) for i in range(len(plan))]
        rows = run_plan(indexed, seed, _request(study.games), LocalBackend(), groups=groups)
        table = to_frame([rows[i] for i in sorted(rows)])
        for kind, (est, lo, hi, *choice) in figures(table, study).items():
            kinds[kind].add(est, lo, hi)
            if choice:
                chosen.append(choice[:2])
                rates.append(choice[2])
        if on_seed is not None:
            on_seed(seed)
    if chosen:  # each seating's true rate: its mean over every seed; the chosen pair's gap, that of theirs
        true = pd.DataFrame(rates).mean()
        kinds["chosen"].targets = [true[b] - true[w] for b, w in chosen]
    return {"study": asdict(study), "seeds": seeds, "first_seed": first_seed,
            "kinds": {k: v.result() for k, v in kinds.items() if v.estimates}}


def _request(games: int):
    from kiai.reports.playing.grid import Request

    return Request(games=games)


def failures(result: dict) -> list[str]:
    """The kinds that miss a target, in words (none: the intervals keep their promise)."""
    out = []
    for kind, r in result["kinds"].items():
        if r["coverage"] < TARGET_COVERAGE or r["ratio"] > TARGET_RATIO:
            out.append(f"{kind}: coverage {r['coverage']:.0%}, ratio {r['ratio']:.2f}")
    return out


def table_text(result: dict) -> str:
    """The result as a Markdown table, one row per kind."""
    lines = ["| figure | seeds | coverage | 1.96 x spread / half-width |", "| --- | --- | --- | --- |"]
    for kind, r in result["kinds"].items():
        lines.append(f"| {KINDS[kind]} | {r['seeds']} | {r['coverage']:.1%} | {r['ratio']:.2f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """`python -m kiai.reports.search.coverage`: run the check, print its table, store its result.
    Exit 1 where a kind misses a target (the result is stored all the same)."""
    import argparse
    import sys
    from pathlib import Path

    from kiai.reports.search.stored import claimed, code_commit, store

    ap = argparse.ArgumentParser(prog="python -m kiai.reports.search.coverage", description=__doc__.split("\n\n")[0])
    study = Study()
    ap.add_argument("--seeds", type=int, default=200, help="seeds to repeat the study over (default 200)")
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--size", type=int, default=study.size)
    ap.add_argument("--level", default=study.level)
    ap.add_argument("--strategy", default=study.strategy)
    ap.add_argument("--strong", default=study.strong, help="the second player, in the strongest player's place")
    ap.add_argument("--games", type=int, default=study.games, help="games a configuration plays each seed")
    ap.add_argument("--deals", choices=("own", "shared"), default="own")
    ap.add_argument("--out", type=Path, help="store the result here as JSON")
    a = ap.parse_args(argv)
    if a.seeds < 2 or a.games < 1 or not 2 <= a.size <= 7:
        ap.exit(2, "coverage: --seeds must be at least 2, --games at least 1, --size 2 to 7\n")
    if a.out is not None and not a.out.parent.is_dir():  # before any game, not after minutes of them
        ap.exit(2, f"coverage: --out {a.out}: no folder {a.out.parent}\n")
    study = Study(a.size, a.level, a.strategy, a.strong, a.games, study.reading, a.deals)
    try:
        study.plan()  # the names checked (SweepError, ConfigError) before any game
    except ValueError as e:
        ap.exit(2, f"coverage: {e}\n")
    done = []

    def tick(seed):
        done.append(seed)
        if len(done) % 10 == 0 or len(done) == a.seeds:
            print(f"coverage: {len(done)} of {a.seeds} seeds", file=sys.stderr, flush=True)

    commit = code_commit()  # the code that plays, read before the run
    with claimed("coverage", ("--out", a.out)):
        result = store(run(study, a.seeds, a.first_seed, tick), commit, a.out)
    print(table_text(result))
    missed = failures(result)
    for line in missed:
        print(f"misses a target: {line}")
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
