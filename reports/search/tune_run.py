"""`kiai tune` played: the search a plan names (kiai.inputs.tune_plan checks it), on the engine, and
its winner re-evaluated on fresh games; the document that --params-file loads, and the text `kiai
tune` prints. The methods themselves (schedules, candidates, successive halving, the cross-entropy
method, the re-evaluation) are reports.search.tune's, which plays nothing. The search plays here, or
on Dask (reports.playing.pool): there each block of games is a task (wins_block), and the calls of a
rung, a generation or the re-evaluation go out together; the figures are the same.

    tuning = run(search, progress, command)   # a Tuning: best, document, write(), str()
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

from kiai.errors import KiaiError
from kiai.outputs import hold, write_held
from kiai.reports.playing import play as P  # P.play_chunks looked up at each call (tests may replace it)
from kiai.reports.playing.pool import open_pool, without_resume
from kiai.reports.playing.tables import SweepError
from kiai.reports.playing.summary import rules_label
from kiai.reports.search import tune as T
from kiai.simcore import results as L
from kiai.simcore.version import kiai_version
from kiai.strategies.run.warm import warm_engine
from kiai.words import format_params, plural

TASK_GAMES = 1000  # on Dask: the fewest games of a block (a task), where games allow


def run(search: Search, p, command: str, force: bool = False) -> Tuning:
    """Play the search and re-evaluate its winner, told to `p` (a kiai.Progress), under the claim
    on search.out (replaced with `force`), held until Tuning.write() writes it: a Tuning whose
    document keeps `command` as its provenance."""
    held = hold(search.out, replace=force)  # a second run on the same file refuses before its search
    try:
        found, fresh, played, seconds, workers = _search(search, p, p.note)
        document = _document(search, found, fresh, command)
    except BaseException as e:
        held.close()
        if isinstance(e, SweepError):  # the Dask cluster's: not reached, before any game, or failed mid-run
            raise KiaiError(without_resume(e, "tune")) from None
        raise
    return Tuning(search, found, fresh, played, seconds, document, held, workers)


class Tuning:
    """What tune() found. `best`: the best parameters; `document`: the JSON that --params-file loads
    (the best parameters, their evaluation on fresh games, the search, provenance); `search`: the
    run as planned; `played` games in `seconds`, on `workers` Dask workers (0: here). str() is the
    text `kiai tune` prints."""

    def __init__(self, search: Search, found, fresh, played: int, seconds: float, document: dict, held=None,
                 workers: int = 0):
        self.search, self.found, self.fresh = search, found, fresh
        self.played, self.seconds, self.document, self.workers = played, seconds, document, workers
        self.best = search.cands[found.best]
        self._held = held  # the claim on tune()'s out (kiai.outputs.hold), let go once that is written

    def write(self, path=None) -> Path:
        """Write the document to `path` (default: tune()'s `out`), whole or not at all, under the
        file's claim; returns the path."""
        path = Path(path if path is not None else self.search.out)
        text = json.dumps(self.document, indent=2) + "\n"
        if write_held(path, lambda tmp: tmp.write_text(text, encoding="utf-8"), self._held):
            self._held = None
        return path

    def __str__(self) -> str:
        return _text(self.search, self.found, self.fresh, self.played, self.seconds, self.workers)

    def __repr__(self) -> str:
        return f"<Tuning of {self.search.strategy}: best {format_params(self.best)}>"


@dataclass
class Search:
    """A tuning run as planned: what is searched, on which configurations, where it is written."""

    strategy: str
    info: object  # the strategy's registry.Strategy
    start: dict  # the start point's parameters (candidate 0)
    start_label: str  # 'start' (a --params-file) or 'defaults'
    fixed: dict  # --param values: fixed, not searched
    method: str
    eta: int
    seed: int
    games: int
    cands: list[dict]
    grid: list[tuple]  # (seating, level) of each configuration
    configs: list[list]  # configs[candidate][configuration]
    rungs: list
    base: object  # the first configuration with the start point (its rules, its strategy)
    absent_tokens: str
    components_sha256: str
    out: Path  # checked before the search
    threads: int
    generations: int
    population: int  # the cross-entropy method's candidates per generation
    make_configs: object  # a candidate's configurations, one per (seating, level)
    workers: int | None = None  # a local Dask cluster of that many workers
    scheduler: str | None = None  # or a running one's address; neither: here
    worker_threads: int | None = None  # --threads on Dask: each worker's (None: its share of its cores)

    def add(self, cand: dict) -> int:
        """The number of candidate `cand`, given it when new (the cross-entropy method's draws)."""
        for i, c in enumerate(self.cands):
            if T.params_key(c) == T.params_key(cand):
                return i
        self.cands.append(cand)
        self.configs.append(self.make_configs(cand))
        return len(self.cands) - 1


def _search(search: Search, p, note):
    """The search and the re-evaluation of its winner on fresh games, here or on Dask, told to `p`:
    (found, fresh, games played, seconds, Dask workers)."""
    n_cfg, games, rungs = len(search.grid), search.games, search.rungs
    cem = search.method == "cem"
    searched = search.population * search.generations * games if cem else T.search_games(rungs)
    total = (searched + 2 * games) * n_cfg  # the cross-entropy method's, at most: a draw met again is not replayed
    done = [0]
    if search.scheduler is None:  # here, or a local cluster that loads what this process compiled
        warm_engine(search.configs[0][0], note=note)  # compile (or load) before the bar starts
    # every worker warmed with the strategy (every candidate plays the same compiled code)
    with open_pool(search.workers, search.scheduler, search.worker_threads, search.configs[0]) as pool, p:
        start_time = time.perf_counter()
        p.start("search", total, workers=pool.workers or None)

        def advance(k):
            done[0] += k
            p.advance(k)

        def play(c, j, offset, count):  # reports.search.tune asks for at most T.BLOCK games at a time
            return np.concatenate([rows[:, L.O_OUTCOME] == 0
                                   for rows in P.play_chunks(search.configs[c][j], search.seed, offset, count,
                                                           advance)])  # fmt: skip

        def on_rung(r, rung):
            p.now(f"rung {r + 1}/{len(rungs)}: {plural(rung.candidates, 'candidate')}")

        # on Dask: blocks that spread one candidate's games over the workers too (the sums are the same)
        many = dict(play_many=_on_pool(pool, search, advance),
                    block=min(T.BLOCK, max(TASK_GAMES, -(-games // (2 * pool.workers))))) if pool.workers else {}
        if cem:
            found = _cem(search, play, lambda g: p.now(f"generation {g + 1}/{search.generations}"), many)
            p.estimate(done[0] + 2 * games * n_cfg)
        else:
            found = T.search(len(search.cands), n_cfg, rungs, play, on_rung=on_rung, **many)
        if found.best == 0:  # the start point won: it is played once
            p.estimate(done[0] + games * n_cfg)
        p.now("fresh games")
        fresh = T.evaluate(found.best, 0, n_cfg, games, play, **many)
    return found, fresh, done[0], max(time.perf_counter() - start_time, 1e-9), pool.workers


def wins_block(config, seed: int, offset: int, count: int) -> np.ndarray:
    """Games offset .. offset + count - 1 of seed, a task of the search on Dask: their wins (True =
    won), packed by np.packbits."""
    return np.packbits(P.play_block(config, seed, offset, count)[:, L.O_OUTCOME] == 0)


def _on_pool(pool, search: Search, advance):
    """The search's play_many on a pool's Dask workers (reports.search.tune): each call a task."""

    def play_many(calls: list) -> list:
        tasks = [(search.configs[c][j], search.seed, offset, count) for c, j, offset, count in calls]
        packed = pool.map(wins_block, tasks, on_done=lambda i, _: advance(calls[i][3]))
        return [np.unpackbits(bits, count=call[3]).astype(bool) for bits, call in zip(packed, calls)]

    return play_many


def _cem(search: Search, play, on_generation, many: dict):
    """The cross-entropy method's search, as a SearchResult: its generations in place of rungs."""
    best, steps, totals = T.cem_search(search.info, search.population, search.generations, search.games,
                                       len(search.grid), search.seed, search.add, play, start=search.start,
                                       fixed=search.fixed, on_generation=on_generation, **many)  # fmt: skip
    wins = np.array([[totals.get(i, 0)] for i in range(len(search.cands))], dtype=np.int64)
    games = np.array([search.games if i in totals else 0 for i in range(len(search.cands))], dtype=np.int64)
    rungs = [{"candidates": st.candidates, "games": search.games, "wins": st.wins, "kept": st.kept,
              "mean": st.mean, "sigma": st.sigma} for st in steps]  # fmt: skip
    return T.SearchResult(best, rungs, wins, games)


def _document(search: Search, found, fresh, command: str) -> dict:
    """The JSON that --params-file loads: the best parameters, their evaluation, the search, provenance."""
    best, baseline, games, seed = search.cands[found.best], search.cands[0], search.games, search.seed
    return {
        "strategy": search.strategy,
        "params": best,
        "win_rate": fresh["best"]["win_rate"],
        "ci95": fresh["best"]["ci95"],
        "ci_method": fresh["best"]["ci_method"],
        "wins": fresh["best"]["wins"],
        "games": fresh["best"]["games"],
        "games_per_configuration": games,
        "configurations": [{"samurai": list(seating), "difficulty": level, **r}
                           for (seating, level), r in zip(search.grid, fresh["best"]["configurations"])],  # fmt: skip
        "baseline": {"label": search.start_label, "params": baseline,
                     **{k: v for k, v in fresh["baseline"].items() if k != "configurations"}},  # fmt: skip
        "vs_baseline": fresh["test"],
        "evaluation": {"seed": seed, "first_game_index": fresh["offset"], "games_per_configuration": games},
        "search": {
            "method": search.method, "candidates": len(search.cands),
            "eta": search.eta if search.method == "halving" else None,
            **({"generations": search.generations, "population": search.population, "elite": T.CEM_ELITE}
               if search.method == "cem" else {}),
            "start": search.start, "fixed": search.fixed, "seed": seed,
            ("generations" if search.method == "cem" else "rungs"): [
                {"candidates": h["candidates"], "games_per_configuration": h["games"],
                 "wins": [h["wins"][c] for c in h["candidates"]], "kept": h["kept"],
                 **{k: h[k] for k in ("mean", "sigma") if k in h}} for h in found.rungs],
            "tried": [{"params": c, "games_per_configuration": int(found.games[i]), "wins": int(found.wins[i].sum())}
                      for i, c in enumerate(search.cands)],
        },  # fmt: skip
        "seed": seed,
        "absent_tokens": search.absent_tokens,
        "rules": dict(search.base.rules),
        "components_sha256": search.components_sha256,
        "command": command,
        "kiai_version": kiai_version(),
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }


def _text(search: Search, found, fresh, played: int, seconds: float, workers: int = 0) -> str:
    """The lines `kiai tune` prints: the search, the best parameters and their re-evaluation."""
    lines: list[str] = []
    out = lines.append

    best, baseline, games, grid = search.cands[found.best], search.cands[0], search.games, search.grid
    start_label, n_cfg = search.start_label, len(grid)
    searched = [p.name for p in search.info.params if p.name not in search.fixed]
    where = "; ".join(f"{','.join(s)} at {lv}" for s, lv in grid)
    out(f"tune {search.strategy}{'' if search.info.honest else ' (cheating)'} on {plural(n_cfg, 'configuration')}: "
        f"{where}" + rules_label(search.base.rules))  # fmt: skip
    how = {"halving": f"successive halving (eta {search.eta})", "random": "random search",
           "cem": f"cross-entropy method ({plural(search.generations, 'generation')} of {search.population})"}[search.method]
    out(f"{how}, {plural(len(search.cands), 'candidate')} searching {', '.join(searched)}"
        + (f" (fixed: {format_params(search.fixed)})" if search.fixed else "")
        + f", seed {search.seed}, common random numbers")  # fmt: skip
    for r, h in enumerate(found.rungs):
        if search.method == "cem":
            share = [h["wins"][c] / (h["games"] * n_cfg) for c in h["candidates"]]
            out(f"  generation {r + 1}: {plural(len(h['candidates']), 'candidate')} x {plural(h['games'], 'game')} "
                f"per configuration, mean's {100 * share[0]:.2f}%, best {100 * max(share):.2f}%, kept "
                f"{len(h['kept'])}")  # fmt: skip
            continue
        out(f"  rung {r + 1}: {plural(len(h['candidates']), 'candidate')} x {plural(h['games'], 'game')} per "
            f"configuration, kept {len(h['kept'])}")  # fmt: skip
    out("")
    out(f"{'last mean' if search.method == 'cem' else 'best parameters':<15}   {format_params(best)}"
        + ("   (the start point)" if found.best == 0 else ""))  # fmt: skip
    out(f"re-evaluated on {games:,} fresh games per configuration (indices {T.EVAL_OFFSET:,} on, which the "
        f"search did not play), {fresh['best']['games']:,} in all:")  # fmt: skip
    width = max(len("best"), len(start_label))
    for label, r, params in (("best", fresh["best"], best), (start_label, fresh["baseline"], baseline)):
        out(f"  {label:<{width}}  {100 * r['win_rate']:7.3f}%   95% CI [{100 * r['ci95'][0]:.3f}%, "
            f"{100 * r['ci95'][1]:.3f}%] ({r['ci_method']})   {format_params(params)}")  # fmt: skip
    t = fresh["test"]
    if found.best == 0:
        out(f"  the search kept the {start_label}: no better candidate was found")
    else:
        ci = "n/a" if None in t["diff_ci"] else f"[{100 * t['diff_ci'][0]:+.3f}, {100 * t['diff_ci'][1]:+.3f}] pp"
        out(f"  best - {start_label}: {100 * t['diff']:+.3f} pp   95% CI {ci}   McNemar p = {t['p_value']:.3g} "
            f"(games only best won {t['discordant'][0]:,}, only {start_label} {t['discordant'][1]:,})")  # fmt: skip
    if n_cfg > 1:
        for (s, lv), r in zip(grid, fresh["best"]["configurations"]):
            out(f"    {','.join(s)} at {lv}: {100 * r['win_rate']:.3f}%   95% CI [{100 * r['ci95'][0]:.3f}%, "
                f"{100 * r['ci95'][1]:.3f}%]")  # fmt: skip
    where = plural(workers, "Dask worker") if workers else plural(search.threads, "thread")
    out(f"{plural(played, 'game')} in {seconds:.1f} s ({played / seconds:,.0f} games/s on {where})")
    return "\n".join(lines)
