"""Comparing several "arms" (configurations that differ in one respect) on the same games.

An arm is a label and a GameConfig. Every arm plays game indices 0..N-1 of one seed, so game i
has the same deal in every arm (common random numbers) and arms can be compared game by game:
each is tested against the best with McNemar's test on the games they won and lost
(simcore.stats.paired_test_counts), and the p-values are Holm-adjusted over the comparisons.

The arms play block by block (every arm plays a block of game indices before any arm plays the
next), and each block is counted in and dropped: every arm's Tally, and for every pair of arms
the games both won. From those and each arm's wins come the 2x2 counts of every pair, so memory
does not grow with the number of games, and the figures are those of playing each arm whole.

`kiai compare` builds its arms from the seatings of a line-up (seating_arms) and ranks them
against the best (rank), or, with --strategies, from strategies on one seating (strategy_arms),
or, with --rules, from the values of one rule reading (rule_arms), or, with --components a,b, from
component files (component_arms), and tests every pair of arms (pairwise). seatings_report,
strategies_report, rules_report and components_report give what it prints with --json.

compare() plays a Plan (kiai.inputs.compare_plan checks the API's arguments and makes it): the arms
on the engine's threads, compiled before the clock starts, or on Dask (reports.playing.pool: each
arm's block of games a task, every worker warmed with every arm), told to the caller's progress; its
Comparison prints as `kiai compare` does (reports.search.compare_text). Both give the same figures.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from kiai.errors import KiaiError
from kiai.reports.search.compare_arms import Arm, component_arms, rule_arms, seating_arms, strategy_arms  # noqa: F401
from kiai.reports.search.compare_text import text
from kiai.reports.playing import play
from kiai.reports.playing.pool import open_pool, without_resume
from kiai.reports.playing.tables import SweepError
from kiai.simcore.seatings import seatings_from  # noqa: F401 (the arms' order, for the tests)
from kiai.simcore.stats import holm, paired_test_counts
from kiai.reports.playing.summary import Tally, summarize
from kiai.simcore import results as L
from kiai.strategies.run.games import threads_for
from kiai.strategies.run.warm import warm_engine

if TYPE_CHECKING:
    import pandas as pd

ALPHA = 0.05
# a block's win matrix (arms x games, float64 for the pair counts) holds at most this many cells
PAIR_CELLS = 2_000_000
TASK_GAMES = 1000  # on Dask: the fewest games of an arm's block (a task), where games allow
WINDOW = 16  # on Dask: tasks per worker sent at once, their wins merged before the next are sent


def both_won(won) -> np.ndarray:
    """For a win matrix (arms x games, True = won), the (arms x arms) counts of games both arms
    won; the diagonal is each arm's wins. Exact: a float64 product of 0/1 entries sums whole
    numbers far below 2**53."""
    w = np.asarray(won, dtype=np.float64)
    return np.rint(w @ w.T).astype(np.int64)


def arm_block(config, seed: int, offset: int, count: int) -> tuple[Tally, np.ndarray]:
    """One arm's games offset .. offset + count - 1 of seed, a task of play_arms on Dask: their
    Tally and their wins (True = won), packed by np.packbits."""
    tally = Tally.of(play.play_block(config, seed, offset, count))
    won, tally.won = np.packbits(tally.won), None
    return tally, won


def play_arms(arms: Sequence[Arm], games: int, seed: int, *,
              on_block: Callable[[int], None] | None = None,
              on_arm: Callable[[Arm], None] | None = None, pool=None) -> list[dict]:
    """Play every arm on games 0..games-1 of seed: [{arm, summary, index, both}], where index
    is the arm's place in `arms` and both[j] the games it and arm j both won.

    The games are played in blocks of indices, every arm playing a block before any arm plays
    the next; the first block has play.FIRST_CHUNK games and each next one is sized so the
    slowest arm plays it in about play.CHUNK_SECONDS (at most play.BLOCK, and at most
    PAIR_CELLS cells of arms x games). on_arm(arm) is called as an arm starts its part of a
    block, on_block(k) after it played those k games. On a pool with Dask workers
    (reports.playing.pool) the blocks have a fixed size instead, and each arm's part of a block is
    a task (_on_workers); the figures are the same."""
    k = len(arms)
    tallies = [Tally() for _ in arms]
    both = np.zeros((k, k), np.int64)
    cap = max(1, min(play.BLOCK, PAIR_CELLS // max(k, 1)))
    if pool is not None and pool.workers:
        _on_workers(arms, games, seed, pool, min(cap, max(TASK_GAMES, -(-games // (2 * pool.workers)))),
                    tallies, both, on_block)  # fmt: skip
    else:
        _here(arms, games, seed, cap, tallies, both, on_block, on_arm)
    return [{"arm": arm, "summary": summarize(tallies[i], arm.config, seed), "index": i, "both": both[i]}
            for i, arm in enumerate(arms)]  # fmt: skip


def _here(arms, games: int, seed: int, cap: int, tallies: list, both: np.ndarray, on_block, on_arm) -> None:
    """play_arms in this process: blocks sized by the measured speed, each arm's part in turn."""
    k = len(arms)
    done, size = 0, play.FIRST_CHUNK
    while done < games:
        n = min(size, cap, games - done)
        won = np.empty((k, n), dtype=bool)
        slowest = 0.0
        for i, arm in enumerate(arms):
            if on_arm is not None:
                on_arm(arm)
            t0 = time.perf_counter()
            rows = play.play_block(arm.config, seed, done, n)
            slowest = max(slowest, time.perf_counter() - t0)
            tallies[i].add(rows)
            won[i] = rows[:, L.O_OUTCOME] == 0
            if on_block is not None:
                on_block(n)
        both += both_won(won)
        done += n
        size = play.next_chunk(n, slowest)


def _on_workers(arms, games: int, seed: int, pool, size: int, tallies: list, both: np.ndarray, on_block) -> None:
    """play_arms on a pool's Dask workers: blocks of `size` games, each arm's part of one a task
    (arm_block), WINDOW tasks a worker sent at once; each block's tallies and pairs counted in, in
    block order (counts: the same as played here)."""
    k, blocks = len(arms), [(o, min(size, games - o)) for o in range(0, games, size)]
    step = max(1, WINDOW * pool.workers // k)
    for first in range(0, len(blocks), step):
        window = blocks[first:first + step]
        calls = [(arm.config, seed, o, n) for o, n in window for arm in arms]
        results = pool.map(arm_block, calls, on_done=None if on_block is None else lambda i, _: on_block(calls[i][3]))
        for b, (_, n) in enumerate(window):
            won = np.empty((k, n), dtype=bool)
            for i in range(k):
                tally, bits = results[b * k + i]
                tallies[i].merge(tally)
                won[i] = np.unpackbits(bits, count=n).astype(bool)
            both += both_won(won)


def paired(p: dict, q: dict) -> dict:
    """McNemar's test of played arm p against q on their common games (simcore.stats
    .paired_test_counts, a = p, b = q), from their wins and the games both won."""
    n = p["summary"]["games"]
    both = int(p["both"][q["index"]])
    return paired_test_counts(n, both, p["summary"]["wins"] - both, q["summary"]["wins"] - both)


def arm_entry(p: dict) -> dict:
    """An arm's label and win rate with its interval."""
    s = p["summary"]
    return {"label": p["arm"].label, "games": s["games"], "wins": s["wins"], "win_rate": s["win_rate"],
            "ci95": list(s["ci95"]), "ci_method": s["ci_method"]}  # fmt: skip


def by_win_rate(played: Sequence[dict]) -> list[dict]:
    """The played arms, highest win rate first (ties keep the given order)."""
    return sorted(played, key=lambda p: -p["summary"]["win_rate"])


def rank(played: Sequence[dict], alpha: float = ALPHA) -> list[dict]:
    """Arms ranked by win rate (ties keep the given order), each against the best.

    diff_from_best is the arm's win rate minus the best's (0 or below); diff_ci its paired 95%
    interval; p_value McNemar's raw p-value against the best, p_holm Holm-adjusted over the
    other arms; significant is p_holm < alpha. The best has None for the tests."""
    ordered = by_win_rate(played)
    best = ordered[0]
    tests = [paired(p, best) for p in ordered[1:]]
    adjusted = holm([t["pvalue"] for t in tests]) if tests else np.array([])
    out = []
    for r, p in enumerate(ordered):
        entry = {"rank": r + 1, **arm_entry(p),
                 "diff_from_best": p["summary"]["win_rate"] - best["summary"]["win_rate"]}  # fmt: skip
        if r == 0:
            entry.update(diff_ci=[0.0, 0.0], p_value=None, p_holm=None, significant=False,
                         discordant=[0, 0])  # fmt: skip
        else:
            t = tests[r - 1]
            entry.update(diff_ci=list(t["diff_ci"]), p_value=t["pvalue"], p_holm=float(adjusted[r - 1]),
                         significant=bool(adjusted[r - 1] < alpha), discordant=[t["a_only"], t["b_only"]])  # fmt: skip
        out.append(entry)
    return out


def pairwise(played: Sequence[dict], alpha: float = ALPHA) -> list[dict]:
    """Every pair of arms (a, b), a before b in the order given: k(k-1)/2 entries.

    diff is a's win rate minus b's on the same games; diff_ci its paired 95% interval;
    discordant [games only a won, games only b won]; p_value McNemar's raw p-value, p_holm
    Holm-adjusted over all the pairs; significant is p_holm < alpha."""
    pairs = [(a, b) for i, a in enumerate(played) for b in played[i + 1 :]]
    tests = [paired(a, b) for a, b in pairs]
    adjusted = holm([t["pvalue"] for t in tests]) if tests else np.array([])
    return [
        {
            "a": a["arm"].label,
            "b": b["arm"].label,
            "diff": t["diff"],
            "diff_ci": list(t["diff_ci"]),
            "discordant": [t["a_only"], t["b_only"]],
            "exact": t["exact"],
            "p_value": t["pvalue"],
            "p_holm": float(p_holm),
            "significant": bool(p_holm < alpha),
        }
        for (a, b), t, p_holm in zip(pairs, tests, adjusted)
    ]


def seatings_report(played: Sequence[dict], typed: str, seed: int) -> list[dict]:
    """The seatings ranked by win rate, each tested against the best: what `kiai compare --json`
    prints. `typed` is the seating as given (seat 0 first, comma-joined)."""
    d = played[0]["summary"]
    return [{"rank": e["rank"], "seating": e["label"], "as_typed": e["label"] == typed,
             **{k: v for k, v in e.items() if k not in ("rank", "label")},
             "difficulty": d["difficulty"], "strategy": d["strategy"], "params": d["params"],
             "rules": d["rules"], "seed": seed}
            for e in rank(played)]  # fmt: skip


def strategies_report(played: Sequence[dict], games: int, seed: int) -> dict:
    """Strategies on one seating, best first, and the paired test of every pair: what
    `kiai compare --strategies ... --json` prints."""
    ordered = by_win_rate(played)
    d = ordered[0]["summary"]
    rows = [{"rank": r + 1, "strategy": p["summary"]["strategy"], "label": p["arm"].label, "honest": p["summary"]["honest"],
             "params": p["summary"]["params"], **{k: v for k, v in arm_entry(p).items() if k != "label"},
             "rules": p["summary"]["rules"]}
            for r, p in enumerate(ordered)]  # fmt: skip
    return {"mode": "strategies", "seating": d["samurai"], "difficulty": d["difficulty"],
            "absent_tokens": d["absent_tokens"], "rules": d["rules"], "games": games, "seed": seed,
            "components_sha256": d["components_sha256"], "kiai_version": d["kiai_version"],
            "alpha": ALPHA, "strategies": rows, "pairs": pairwise(ordered)}  # fmt: skip


def rules_report(played: Sequence[dict], reading: str, games: int, seed: int) -> dict:
    """The values of one rule reading on one seating and strategy, best first, and the paired
    test of every pair: what `kiai compare --rules ... --json` prints."""
    from kiai.simcore.readings import BY_NAME, changed

    info = BY_NAME[reading]
    ordered = by_win_rate(played)
    d = ordered[0]["summary"]
    rows = [{"rank": r + 1, "reading": p["summary"]["rules"][reading],
             "default": p["summary"]["rules"][reading] == info.default,
             **arm_entry(p), "rules": p["summary"]["rules"]}
            for r, p in enumerate(ordered)]  # fmt: skip
    others = {k: v for k, v in changed(d["rules"]).items() if k != reading}  # the --rule readings of every arm
    return {"mode": "rules", "rule": reading, "v": info.v, "departs_from": info.departs,
            "seating": d["samurai"], "difficulty": d["difficulty"], "strategy": d["strategy"],
            "honest": d["honest"], "params": d["params"], "absent_tokens": d["absent_tokens"],
            "fixed_rules": others, "games": games, "seed": seed,
            "components_sha256": d["components_sha256"], "kiai_version": d["kiai_version"],
            "alpha": ALPHA, "readings": rows, "pairs": pairwise(ordered)}  # fmt: skip


def components_report(played: Sequence[dict], games: int, seed: int) -> dict:
    """The component files on one seating and strategy, best first, and the paired test of every
    pair: what `kiai compare --components a.toml,b.toml --json` prints. Each file's row names its
    SHA-256, that of the data the learned players read, and the mark of a model made for other data."""
    ordered = by_win_rate(played)
    d = ordered[0]["summary"]
    rows = [{"rank": r + 1, **arm_entry(p), "difficulty": p["summary"]["difficulty"],
             "components": p["summary"]["components"],
             "components_sha256": p["summary"]["components_sha256"],
             "components_data_sha256": p["summary"]["components_data_sha256"],
             "model": p["summary"].get("model", {}).get("sha256"),
             "mark": p["summary"].get("model", {}).get("mark")}
            for r, p in enumerate(ordered)]  # fmt: skip
    return {"mode": "components", "seating": d["samurai"], "difficulty": d["difficulty"], "strategy": d["strategy"],
            "honest": d["honest"], "params": d["params"], "absent_tokens": d["absent_tokens"], "rules": d["rules"],
            "games": games, "seed": seed, "kiai_version": d["kiai_version"], "alpha": ALPHA, "files": rows,
            "pairs": pairwise(ordered)}  # fmt: skip


# ------------------------------------------------------------------------------- the comparison


@dataclass(frozen=True)
class Plan:
    """A comparison as planned (kiai.inputs.compare_plan): its arms, of one kind (`mode`: seatings,
    strategies, readings or components), the games each plays on `seed`, the engine threads of the
    call (None: the caller's), the seating as typed (seatings) and the reading compared (readings)."""

    mode: str
    arms: list
    games: int
    seed: int
    threads: int | None
    typed: str | None
    reading: str | None
    workers: int | None = None  # a local Dask cluster of that many workers
    scheduler: str | None = None  # or a running one's address; neither: here


_ARM = {"seatings": "seating", "strategies": "strategy", "readings": "reading", "components": "file"}


def compare(plan: Plan, p) -> Comparison:
    """Play the plan's arms on the same games, here or on its Dask cluster, told to `p` (a
    kiai.Progress), and test them: a Comparison. The cluster's failure is a KiaiError (one line)."""
    arms, games, seed, mode = plan.arms, plan.games, plan.seed, plan.mode
    configs, local = [arm.config for arm in arms], plan.workers is None and plan.scheduler is None
    try:
        with threads_for(plan.threads if local else None) as used:
            if plan.scheduler is None:  # here, or a local cluster that loads what this process compiled
                warm_engine(*configs, note=p.note)  # every strategy the arms need, before timing
            with open_pool(plan.workers, plan.scheduler, plan.threads, configs) as pool:
                start = time.perf_counter()
                p.start(f"{len(arms)} {mode}", games * len(arms), workers=pool.workers or None)
                place = {arm.label: i for i, arm in enumerate(arms, 1)}  # labels are distinct

                def on_arm(arm):
                    p.now(f"{_ARM[mode]} {place[arm.label]}/{len(arms)}: {arm.label}")

                played = play_arms(arms, games, seed, on_block=p.advance, on_arm=on_arm, pool=pool)
                seconds = max(time.perf_counter() - start, 1e-9)
    except SweepError as e:  # the cluster's: not reached, before any game, or failed mid-run
        raise KiaiError(without_resume(e, "compare")) from None
    return Comparison("rules" if mode == "readings" else mode, played, games, seed, seconds, used, typed=plan.typed,
                      reading=plan.reading, workers=pool.workers)  # fmt: skip


class Comparison:
    """Arms played on the same games, with paired tests: what compare() (kiai.compare) returns.

    `mode` is 'seatings' (every seating of a line-up, each tested against the best), 'strategies',
    'rules' or 'components' (every pair of arms tested). `arms` lists the arms best first and `pairs` the
    paired tests of every pair (empty for seatings, whose arms carry their test against the
    best); both as `kiai compare --json` gives them, and to_json() gives that whole. to_frame()
    is the arms as a table; `summaries` are the arms' summaries (as kiai.simulate's to_dict()),
    best first; `seconds` and `threads` say how long the games took, on how many threads, or
    `workers` on how many Dask workers (0: here)."""

    def __init__(self, mode: str, played: list[dict], games: int, seed: int, seconds: float, threads: int,
                 *, typed: str | None = None, reading: str | None = None, workers: int = 0):
        self.mode, self.games, self.seed, self.seconds, self.threads = mode, games, seed, seconds, threads
        self.workers = workers
        self.typed, self.reading = typed, reading  # the seating as given (seatings); the reading compared (rules)
        if mode == "seatings":
            self._json = seatings_report(played, typed, seed)
            self.arms, self.pairs = self._json, []
        elif mode == "strategies":
            self._json = strategies_report(played, games, seed)
            self.arms, self.pairs = self._json["strategies"], self._json["pairs"]
        elif mode == "components":
            self._json = components_report(played, games, seed)
            self.arms, self.pairs = self._json["files"], self._json["pairs"]
        else:
            self._json = rules_report(played, reading, games, seed)
            self.arms, self.pairs = self._json["readings"], self._json["pairs"]
        self.summaries = [p["summary"] for p in by_win_rate(played)]

    def to_json(self) -> list | dict:
        """What `kiai compare --json` prints (json.dumps of it is that line): for seatings a list,
        best first, else one object with the arms and the pairs."""
        return copy.deepcopy(self._json)

    def to_frame(self) -> pd.DataFrame:
        """One row per arm, best first: its fields, with each interval as two columns (ci_low and
        ci_high; diff_ci_low and diff_ci_high) and a seating's discordant games as won_only_here and
        won_only_by_best."""
        import pandas as pd

        rows = []
        for arm in self.arms:
            row = {}
            for key, value in arm.items():
                if key == "ci95":
                    row["ci_low"], row["ci_high"] = value
                elif key == "diff_ci":
                    row["diff_ci_low"], row["diff_ci_high"] = value
                elif key == "discordant":
                    row["won_only_here"], row["won_only_by_best"] = value
                else:
                    row[key] = value
            rows.append(row)
        return pd.DataFrame(rows)

    def __str__(self) -> str:
        """The text `kiai compare` prints (reports.search.compare_text)."""
        return text(self)

    def __repr__(self) -> str:
        best = self.arms[0]
        label = best.get("seating") or best.get("strategy") or best.get("label")
        return (f"<Comparison of {len(self.arms)} {self.mode} over {self.games:,} games: best {label} "
                f"{100 * best['win_rate']:.3f}%>")
