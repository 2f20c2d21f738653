"""Tuning a strategy's parameters: candidates, a search by successive halving (or plain random
search) on common random numbers, and a re-evaluation of the winner on fresh games.

Nothing here touches the engine: the search and the re-evaluation call a `play(candidate,
configuration, offset, count)` function that returns the per-game wins (a bool array) of games
offset .. offset + count - 1, for at most BLOCK games at a time, and keep only counts, so memory
does not grow with the number of games. `kiai tune` passes one that runs the engine
(reports.search.tune_run, the loop); the tests pass fakes. Each may also take `play_many`, the
batched form (a list of such calls -> the list of their wins, in order): then the calls of a rung,
a generation or the re-evaluation go out together (on Dask, as tasks), at most BATCH_GAMES games
at a time, and the figures are those of `play` one call at a time.

- Candidates (sample_candidates): candidate 0 is the start point (the defaults, or a
  --params-file), and the others are drawn uniformly from each free parameter's [low, high]
  (whole numbers for integer parameters) with numpy's Generator seeded by the seed, so a
  tuning run is reproducible. Fixed parameters (--param) take their value in every candidate.
- Successive halving (halving_schedule, search): every candidate plays a small number of games
  per configuration; the best 1/eta of them (by total wins over the configurations) go on and
  play eta times as many, until one is left; the last rung plays the full budget. Survivors
  add games to the ones they have played, and at every rung all candidates still in the race
  have played the same game indices of the same seed (common random numbers), so their totals
  differ by their parameters, not by their luck of the deal. Ties go to the lower candidate
  number (the start point first).
- The cross-entropy method (cem_search), for a policy's parameters searched directly on the win
  rate: each generation draws its candidates from a normal distribution over the free
  parameters, each scaled to its [low, high] (clipped there; integers rounded), the
  distribution's mean first; all of them play the same games (the same deal set in every
  generation); the mean and spread are then refitted to the best CEM_ELITE of them, the spread
  kept at CEM_FLOOR at least so that noise cannot end the search early. The result is the last
  mean, which no generation played.
- Re-evaluation (evaluate): the search's best total is biased upwards (it is the largest of
  several noisy totals: the winner's curse), so the winner and the start point both play a
  fresh block of games (indices from EVAL_OFFSET on, which the search never reaches) and those
  are the figures reported: each win rate with its 95% interval, and McNemar's paired test of
  the winner against the start point on the same games (from the 2x2 counts of those games,
  added up block by block).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from kiai.simcore.stats import paired_counts, paired_test_counts, proportion_ci

EVAL_OFFSET = 10**9  # first game index of the re-evaluation; the search plays indices below it
BLOCK = 50_000  # game indices per play() call, at most
DEFAULT_ETA = 3
METHODS = ("halving", "random", "cem")
CEM_ELITE = 0.2  # the cross-entropy method refits its sampling distribution to this share, the best
CEM_SIGMA = 0.2  # its first spread, and the least it keeps, as shares of each parameter's range
CEM_FLOOR = 0.02
MAX_DRAWS_PER_CANDIDATE = 1000  # draws before giving up on finding a new distinct candidate

BATCH_GAMES = 5_000_000  # games of one play_many call, at most: their wins are held at once

Play = Callable[[int, int, int, int], np.ndarray]  # (candidate, configuration, offset, count) -> wins
PlayMany = Callable[[list], list]  # [(candidate, configuration, offset, count), ...] -> their wins, in order


class TuneError(ValueError):
    """A tuning run that cannot be done as asked; the message is one line."""


@dataclass(frozen=True)
class Rung:
    """One rung of a search: `candidates` play game indices 0..games-1 of every configuration
    (those they played at earlier rungs included), and the best `keep` go on."""

    candidates: int
    games: int
    keep: int


# ------------------------------------------------------------------------------ schedules


def halving_schedule(n: int, games: int, eta: int = DEFAULT_ETA) -> list[Rung]:
    """Successive halving for n candidates with a final budget of `games` per configuration.

    Rung r keeps ceil(candidates / eta); the number of rungs is the number of such cuts that
    leave one candidate; the last rung plays `games`, each earlier one 1/eta as many as the
    next (at least 1). One candidate gets a single rung of `games`."""
    if n < 1:
        raise TuneError(f"need at least 1 candidate, got {n}")
    if games < 1:
        raise TuneError(f"need at least 1 game, got {games}")
    if eta < 2:
        raise TuneError(f"eta must be at least 2, got {eta}")
    counts = [n]
    while counts[-1] > 1:
        counts.append(math.ceil(counts[-1] / eta))
    if len(counts) == 1:
        return [Rung(1, games, 1)]
    last = len(counts) - 2
    return [Rung(counts[r], max(1, games // eta ** (last - r)), counts[r + 1]) for r in range(last + 1)]


def random_schedule(n: int, games: int) -> list[Rung]:
    """Random search: every candidate plays the full budget, the best is kept."""
    if n < 1:
        raise TuneError(f"need at least 1 candidate, got {n}")
    if games < 1:
        raise TuneError(f"need at least 1 game, got {games}")
    return [Rung(n, games, 1)]


def schedule(method: str, n: int, games: int, eta: int = DEFAULT_ETA) -> list[Rung]:
    if method == "halving":
        return halving_schedule(n, games, eta)
    if method in ("random", "cem"):  # a generation of the cross-entropy method is one random rung
        return random_schedule(n, games)
    raise TuneError(f"--method must be one of {', '.join(METHODS)}, got '{method}'")


def search_games(rungs: Sequence[Rung]) -> int:
    """Games per configuration the whole search plays, over all candidates."""
    total, before = 0, 0
    for rung in rungs:
        total += rung.candidates * (rung.games - before)
        before = rung.games
    return total


# ----------------------------------------------------------------------------- candidates


def params_key(params: dict) -> tuple:
    return tuple(sorted(params.items()))


def space_size(info, fixed: dict | None = None) -> float:
    """How many distinct candidates there are (inf when a free parameter is continuous)."""
    size = 1
    for p in info.params:
        if p.name in (fixed or {}):
            continue
        if not p.integer:
            return math.inf
        size *= math.floor(p.high) - math.ceil(p.low) + 1
    return size


def sample_candidates(info, k: int, seed: int, start: dict | None = None, fixed: dict | None = None) -> list[dict]:
    """Up to k distinct parameter sets of strategy `info` (a strategies.registry.Strategy).

    Candidate 0 is `start` (defaults for what it leaves out) with `fixed` applied; the others
    draw every parameter not in `fixed` uniformly from [low, high] (integers for integer
    parameters) with numpy's default_rng(seed). Fewer than k come back when the parameter space
    has fewer distinct points. Each candidate is a complete, validated parameter dict."""
    fixed = dict(fixed or {})
    if not info.params:
        raise TuneError(f"strategy '{info.name}' has no parameters to tune")
    if k < 1:
        raise TuneError(f"need at least 1 candidate, got {k}")
    try:
        base = info.param_dict({**(start or {}), **fixed})
    except ValueError as e:
        raise TuneError(str(e)) from None
    free = [p for p in info.params if p.name not in fixed]
    if not free:
        raise TuneError(f"every parameter of '{info.name}' is fixed by --param; nothing to tune")
    k = int(min(k, space_size(info, fixed)))
    rng = np.random.default_rng(seed)
    out, seen = [base], {params_key(base)}
    draws = 0
    while len(out) < k and draws < MAX_DRAWS_PER_CANDIDATE * k:
        draws += 1
        cand = dict(base)
        for p in free:
            if p.integer:
                cand[p.name] = int(rng.integers(math.ceil(p.low), math.floor(p.high), endpoint=True))
            else:
                cand[p.name] = float(rng.uniform(p.low, p.high))
        cand = info.param_dict(cand)
        if params_key(cand) not in seen:
            seen.add(params_key(cand))
            out.append(cand)
    return out


# --------------------------------------------------------------------------------- search


@dataclass
class SearchResult:
    best: int  # the winning candidate's number
    rungs: list[dict]  # per rung: candidates, games, wins (total per candidate), kept
    wins: np.ndarray  # (candidates, configurations): wins over the games each candidate played
    games: np.ndarray  # (candidates,): game indices 0..games-1 played per configuration


def blocks(offset: int, count: int, block: int = BLOCK) -> list[tuple[int, int]]:
    """Games offset .. offset + count - 1 cut into (offset, count) blocks of at most `block`."""
    if block < 1:
        raise TuneError(f"a block must be at least 1 game, got {block}")
    return [(o, min(block, offset + count - o)) for o in range(offset, offset + count, block)]


def _wins(play: Play, c: int, j: int, offset: int, count: int) -> np.ndarray:
    """play(c, j, offset, count) as a bool array, checked to hold one result per game."""
    return _checked(play(c, j, offset, count), count)


def _checked(wins, count: int) -> np.ndarray:
    w = np.asarray(wins)
    if w.shape != (count,):
        raise TuneError(f"play returned {w.shape[0] if w.ndim else 0} results for {count} games")
    return w.astype(bool)


def _played(play: Play, play_many: PlayMany | None, calls: list[tuple]) -> Iterator[np.ndarray]:
    """The wins of each call (candidate, configuration, offset, count), in order: play's, one call
    at a time as it is asked for, or play_many's, in batches of at most BATCH_GAMES games."""
    if play_many is None:
        for call in calls:
            yield _wins(play, *call)
        return
    first = 0
    while first < len(calls):
        last, games = first, 0
        while last < len(calls) and (last == first or games + calls[last][3] <= BATCH_GAMES):
            games += calls[last][3]
            last += 1
        batch = calls[first:last]
        wins = play_many(batch)
        if len(wins) != len(batch):
            raise TuneError(f"play_many returned {len(wins)} results for {len(batch)} calls")
        yield from (_checked(w, call[3]) for w, call in zip(wins, batch))
        first = last


def search(n_candidates: int, n_configs: int, rungs: Sequence[Rung], play: Play,
           on_rung: Callable[[int, Rung], None] | None = None, block: int = BLOCK,
           play_many: PlayMany | None = None) -> SearchResult:
    """Run the rungs: at each, the candidates still in play add the game indices they have not
    played yet (the same ones for all, in blocks of at most `block`), and the best `keep` by
    total wins over the configurations go on (ties: lower candidate number first). With
    play_many, a rung's calls go out together."""
    if n_configs < 1:
        raise TuneError("need at least 1 configuration")
    if not rungs or rungs[0].candidates != n_candidates:
        raise TuneError(f"the schedule starts with {rungs[0].candidates if rungs else 0} candidates, "
                        f"not {n_candidates}")  # fmt: skip
    wins = np.zeros((n_candidates, n_configs), dtype=np.int64)
    played = np.zeros(n_candidates, dtype=np.int64)
    alive = list(range(n_candidates))
    history = []
    before = 0
    for r, rung in enumerate(rungs):
        if len(alive) != rung.candidates:
            raise TuneError(f"rung {r + 1} expects {rung.candidates} candidates, {len(alive)} are left")
        if on_rung is not None:
            on_rung(r, rung)
        if rung.games > before:
            calls = [(c, j, offset, count) for c in alive for j in range(n_configs)
                     for offset, count in blocks(before, rung.games - before, block)]  # fmt: skip
            for (c, j, _, _), w in zip(calls, _played(play, play_many, calls)):
                wins[c, j] += int(w.sum())
        played[alive] = rung.games
        before = rung.games
        totals = {c: int(wins[c].sum()) for c in alive}
        order = sorted(alive, key=lambda c: (-totals[c], c))
        kept = order[: rung.keep]
        history.append({"candidates": list(alive), "games": rung.games, "wins": totals, "kept": kept})
        alive = kept
    return SearchResult(alive[0], history, wins, played)


# ---------------------------------------------------------------------------- evaluation


def rate(wins: int, games: int) -> dict:
    lo, hi, method = proportion_ci(wins, games)
    return {"games": int(games), "wins": int(wins), "win_rate": wins / games, "ci95": [lo, hi], "ci_method": method}


def evaluate(best: int, baseline: int, n_configs: int, games: int, play: Play, offset: int = EVAL_OFFSET,
             block: int = BLOCK, play_many: PlayMany | None = None) -> dict:
    """The winner and the baseline on fresh games offset .. offset + games - 1 of every
    configuration: pooled and per-configuration rates, and McNemar's paired test best - baseline
    over all those games. Both play each block of at most `block` games in turn (with play_many,
    all together), and only counts are kept. When the winner is the baseline it is played once."""
    if games < 1:
        raise TuneError(f"need at least 1 game, got {games}")
    won = {best: [0] * n_configs, baseline: [0] * n_configs}
    pair = np.zeros(4, dtype=np.int64)  # games, both won, only best won, only baseline won
    who = [best] if baseline == best else [best, baseline]
    calls = [(c, j, off, count) for j in range(n_configs) for off, count in blocks(offset, games, block) for c in who]
    results = _played(play, play_many, calls)
    for j in range(n_configs):
        for _ in blocks(offset, games, block):
            a = next(results)
            b = a if baseline == best else next(results)
            won[best][j] += int(a.sum())
            if baseline != best:
                won[baseline][j] += int(b.sum())
            pair += paired_counts(a, b)
    t = paired_test_counts(*(int(x) for x in pair))

    def rates(c):
        return {**rate(sum(won[c]), games * n_configs), "configurations": [rate(w, games) for w in won[c]]}

    return {
        "offset": offset,
        "games_per_configuration": games,
        "best": rates(best),
        "baseline": rates(baseline),
        # a single game has no interval: None rather than NaN, which strict JSON lacks
        "test": {"diff": t["diff"], "diff_ci": [None if math.isnan(x) else x for x in t["diff_ci"]],
                 "discordant": [t["a_only"], t["b_only"]], "p_value": t["pvalue"], "exact": t["exact"]},  # fmt: skip
    }


# ------------------------------------------------------------------- cross-entropy method


@dataclass(frozen=True)
class CemStep:
    """One generation: its candidates (numbers given by add()), their total wins, the kept ones,
    and the mean and spread (in each free parameter's units) they were drawn from."""

    candidates: list[int]
    wins: dict[int, int]
    kept: list[int]
    mean: dict
    sigma: dict


def _scaled(info, free, cand: dict) -> np.ndarray:
    return np.array([(cand[p.name] - p.low) / (p.high - p.low) for p in free], dtype=float)


def _unscaled(info, free, base: dict, u: np.ndarray) -> dict:
    cand = dict(base)
    for p, x in zip(free, np.clip(u, 0.0, 1.0)):
        v = p.low + float(x) * (p.high - p.low)
        cand[p.name] = int(round(v)) if p.integer else v
    return info.param_dict(cand)


def cem_search(info, population: int, generations: int, games: int, n_configs: int, seed: int,
               add: Callable[[dict], int], play: Play, start: dict | None = None, fixed: dict | None = None,
               on_generation: Callable[[int], None] | None = None,
               block: int = BLOCK, play_many: PlayMany | None = None) -> tuple[int, list[CemStep], dict[int, int]]:
    """The cross-entropy method from `start` (candidate 0, which add() must number 0): the number
    add() gave the last mean, each generation's step, and each candidate's total wins. Every
    candidate plays game indices 0..games-1 of every configuration; ties go to the lower number.
    add() may give a parameter set it has seen before its old number. With play_many, a
    generation's calls go out together."""
    fixed = dict(fixed or {})
    if population < 2:
        raise TuneError(f"need at least 2 candidates per generation, got {population}")
    if generations < 1:
        raise TuneError(f"need at least 1 generation, got {generations}")
    if games < 1:
        raise TuneError(f"need at least 1 game, got {games}")
    try:
        base = info.param_dict({**(start or {}), **fixed})
    except ValueError as e:
        raise TuneError(str(e)) from None
    free = [p for p in info.params if p.name not in fixed and p.high > p.low]
    if not free:
        raise TuneError(f"every parameter of '{info.name}' is fixed by --param; nothing to tune")
    if add(base) != 0:
        raise TuneError("the start point must be candidate 0")
    rng = np.random.default_rng([seed, 7])
    mean, sigma = _scaled(info, free, base), np.full(len(free), CEM_SIGMA)
    n_elite = max(2, math.ceil(CEM_ELITE * population))
    steps, first, played = [], 0, {}
    for g in range(generations):
        if on_generation is not None:
            on_generation(g)
        draws = [mean] + [mean + sigma * rng.standard_normal(len(free)) for _ in range(population - 1)]
        numbers = [first] if g == 0 else [add(_unscaled(info, free, base, mean))]
        numbers += [add(_unscaled(info, free, base, u)) for u in draws[1:]]
        # a candidate drawn again (integers round alike) plays its games once
        calls = [(c, j, o, n) for c in dict.fromkeys(numbers) if c not in played for j in range(n_configs)
                 for o, n in blocks(0, games, block)]  # fmt: skip
        for (c, _, _, _), w in zip(calls, _played(play, play_many, calls)):
            played[c] = played.get(c, 0) + int(w.sum())
        wins = {c: played[c] for c in numbers}
        order = sorted(range(population), key=lambda i: (-wins[numbers[i]], numbers[i]))
        kept = order[:n_elite]
        elite = np.array([np.clip(draws[i], 0.0, 1.0) for i in kept])
        steps.append(CemStep(numbers, wins, [numbers[i] for i in kept],
                             {p.name: p.low + m * (p.high - p.low) for p, m in zip(free, mean)},
                             {p.name: s * (p.high - p.low) for p, s in zip(free, sigma)}))  # fmt: skip
        mean, sigma = elite.mean(axis=0), np.maximum(elite.std(axis=0), CEM_FLOOR)
    return add(_unscaled(info, free, base, mean)), steps, played
