"""How hard at best: solve deals with perfect information, and play strategies on the
same fixed outcomes.

solve() asks simcore.solve's exact search, deal by deal, whether any sequence of decisions wins
a deal whose every random event is keyed on the deal and the event (cfg.event_keyed,
simcore.rng.event): won (with the winning line), lost (proved) or unknown (budget spent).
certify() replays a won line through the engine's own kernel (the line as forced decisions,
R-16a, the same keyed outcomes) and says whether it wins; keyed_outcomes() plays a strategy on
the same keyed deals.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from kiai.simcore.config import ConfigError, script
from kiai.simcore.questions import Q_ABSENT, QUESTIONS
from kiai.simcore.results import N_OUT, O_ERR, O_OUTCOME
from kiai.strategies import registry
from kiai.strategies.game_config import GameConfig

DEFAULT_BUDGET = 20_000  # turn plays per deal (PILOT-60.md)
ORDERS = ("foresight", "default")  # what orders the answers tried: foresight's rollouts on the true deal, or the default strategy
LINE_CAP = 1 << 14
# the transposition tables' largest size, 2^23 entries: two tables of 64 MiB. Sized from the budget,
# they are as before up to 2,097,151 nodes a deal (2^20 entries at 200,000), where no search can
# fill them; above, a full table stops storing states (simcore.solve.tt_visit) and the search
# repeats work, never answers wrongly, and memory stays bounded at the top budget
TT_MAX_BITS = 23


def table_bits(budget: int) -> int:
    """log2 of the transposition tables' entries for a budget: at least twice the states a search
    of `budget` nodes can keep (it stores at most one a node, and stops at 75% full), capped."""
    return min(TT_MAX_BITS, max(16, int(np.ceil(np.log2(max(budget, 1) * 2 + 1))) + 1))


@dataclass
class Solved:
    """One deal's answer."""

    game: int
    answer: str  # won | lost | unknown | failed
    nodes: int
    seconds: float
    states: int
    line: list[int] = field(default_factory=list)  # won: every answer to a question of two options or more, in order

    def to_dict(self) -> dict:
        return {"game": self.game, "answer": self.answer, "nodes": self.nodes, "seconds": round(self.seconds, 4),
                "states": self.states, "line": self.line}


def _table(samurai, level: str, strategy: str = registry.DEFAULT, params=None) -> GameConfig:
    """The table, without absent support tokens: the search does not branch on Q_ABSENT (whose
    answer is a set), so every table is solved, and its strategies played, without them."""
    if isinstance(samurai, str):
        samurai = tuple(s for s in samurai.split(",") if s.strip())
    config = GameConfig(tuple(samurai), level, strategy, dict(params or {}), absent_tokens="off")
    return config


def keyed_config(config: GameConfig, **kw) -> np.recarray:
    """The kernel's configuration for config with event-keyed outcomes."""
    from kiai.strategies.playing import kernel_config

    cfgs = kernel_config(config, **kw)
    cfgs[0].event_keyed = 1
    return cfgs


def _start_records(start):
    """The kernel's start records: start = (pub, hid), a position, or None (none: the deal's setup)."""
    from kiai.simcore.state import HIDDEN, TABLE

    if start is None:
        return np.zeros(0, dtype=TABLE), np.zeros(0, dtype=HIDDEN)
    return np.array(start[0], dtype=TABLE).reshape(1), np.array(start[1], dtype=HIDDEN).reshape(1)


class Solver:
    """The search's configuration for one table, reused deal after deal."""

    def __init__(self, samurai, level: str = "normal", tt_bits: int | None = None, budget: int = DEFAULT_BUDGET,
                 order: str = "foresight"):
        from kiai.simcore.gateway import HOOK_ARGS, address
        from kiai.simcore.solve import QBUF, question_hook, work_arrays
        from kiai.simcore.state import TABLE

        if order not in ORDERS:
            raise ConfigError(f"--order must be one of {', '.join(ORDERS)}, got '{order}'")
        self.config = _table(samurai, level, registry.DEFAULT if order == "default" else order)
        self.cfgs = keyed_config(self.config)
        cfg = self.cfgs[0]
        self.qbuf = np.zeros(QBUF, dtype=np.int64)
        self.qbuf[7] = cfg.plan  # the ordering planner (foresight), or 0
        self.qbuf[8] = cfg.pdata  # and its record (strategies.lookahead.plan_record)
        cfg.plan = address(question_hook, HOOK_ARGS)
        cfg.plan_turns = 0
        cfg.plan_questions = sum(1 << q for q in QUESTIONS if q != Q_ABSENT)
        cfg.pdata = self.qbuf.ctypes.data
        bits = tt_bits if tt_bits is not None else table_bits(budget)
        self.tt1 = np.zeros(1 << bits, dtype=np.uint64)
        self.tt2 = np.zeros(1 << bits, dtype=np.uint64)
        self.layout = np.array([TABLE.fields["line"][1] // 8, TABLE.fields["turn_no"][1] // 8], dtype=np.int64)
        self.line = np.zeros(LINE_CAP, dtype=np.int64)
        self.stats = np.zeros(8, dtype=np.int64)
        self.work = work_arrays()  # made once: a deal's search then allocates nothing

    def solve(self, seed: int, game: int, budget: int = DEFAULT_BUDGET, start=None) -> Solved:
        """Deal `game` of `seed`, or (start = (pub, hid), a hand-built turn's start: tests/scenario.py)
        that position, its later random events keyed on (seed, game)."""
        from kiai.simcore.solve import S_NODES, S_STATES, STATUS, solve_deal

        pubs, hids = _start_records(start)
        t0 = time.perf_counter()
        answer, n = solve_deal(self.cfgs.view(np.ndarray)[0], np.int64(seed), np.int64(game), np.int64(budget),
                               self.tt1, self.tt2, self.qbuf, self.layout, self.line, self.stats, pubs, hids, self.work)
        dt = time.perf_counter() - t0
        if n > LINE_CAP:
            raise RuntimeError(f"deal {game}: a winning line of {n} answers is longer than {LINE_CAP}")
        line = [int(x) for x in self.line[:n]] if STATUS[answer] == "won" else []
        return Solved(int(game), STATUS[answer], int(self.stats[S_NODES]), dt, int(self.stats[S_STATES]), line)


def solve(samurai, level: str = "normal", games: int = 10, *, seed: int = 0, budget: int = DEFAULT_BUDGET,
          game0: int = 0, order: str = "foresight", on_deal=None) -> list[Solved]:
    """Solve deals game0 .. game0 + games - 1 of `seed`."""
    solver = Solver(samurai, level, budget=budget, order=order)
    out = []
    for g in range(game0, game0 + games):
        s = solver.solve(seed, g, budget)
        out.append(s)
        if on_deal is not None:
            on_deal(s)
    return out


def certify(samurai, level: str, seed: int, game: int, line, start=None) -> bool:
    """Whether `line`, fed as forced decisions to the engine's own kernel from the deal's setup
    (or the position start = (pub, hid)) with the same keyed outcomes, wins, uses every answer
    and breaks no rule."""
    from kiai.simcore.kernel import play_games
    from kiai.strategies.compiling import state_records

    config = _table(samurai, level)
    cfgs = keyed_config(config, from_state=start is not None)
    bufs = script(cfgs[0], None, (), list(line))  # noqa: F841 - kept alive while played
    recs = state_records()
    out = np.zeros((1, N_OUT), dtype=np.int32)
    pubs, hids = _start_records(start)
    if start is None:
        pubs, hids = (r for r in state_records()[:2])
    play_games(cfgs.view(np.ndarray)[0], np.int64(seed), np.int64(game), out, *(r[0] for r in recs), pubs[0], hids[0])
    book = recs[2][0]
    return int(out[0, O_OUTCOME]) == 0 and int(out[0, O_ERR]) == 0 and int(book["fd_pos"]) == len(line)


def keyed_outcomes(samurai, level: str, games: int, seed: int = 0, strategy: str = registry.DEFAULT,
                   params=None, game0: int = 0, start=None) -> np.ndarray:
    """The results rows (simcore.results) of `strategy` on deals game0.. of `seed`, outcomes keyed
    by event: the deals solve() searches (from the position start = (pub, hid), if given)."""
    from kiai.strategies.playing import play_batch

    config = _table(samurai, level, strategy, params)
    out = np.zeros((games, N_OUT), dtype=np.int32)
    play_batch(keyed_config(config, from_state=start is not None), seed, game0, out,
               None if start is None else _start_records(start))
    return out


MAX_BUDGET = 10**9
MAX_DEALS = 100_000


def check_solve(samurai, level: str, games: int, seed: int, budget: int, order: str = "foresight") -> GameConfig:
    """Check `kiai solve`'s input before any work: one-line KiaiErrors naming the option."""
    from kiai.checks import fail, name_text, whole
    from kiai.counts import check_games, check_seed
    from kiai.simcore.components import ComponentsError

    level = name_text(level, "--difficulty").lower()  # any case, as every command takes it
    check_seed(seed)
    check_games(games, most=MAX_DEALS)
    budget = whole(budget, "--budget")
    if not 1 <= budget <= MAX_BUDGET:
        fail(f"--budget must be 1..{MAX_BUDGET:,} nodes a deal, got {budget}")
    if order not in ORDERS:
        fail(f"--order must be one of {', '.join(ORDERS)}, got '{order}'")
    try:
        config = _table(samurai, level)
    except (ConfigError, ComponentsError) as e:
        fail(str(e))
    return config


def solve_table(samurai, level: str = "normal", games: int = 10, *, seed: int = 0, budget: int = DEFAULT_BUDGET,
                order: str = "foresight", on_deal=None) -> dict:
    """`kiai solve`: every deal's answer (won lines certified by the engine) and the shares."""
    config = check_solve(samurai, level, games, seed, budget, order)
    level = config.difficulty
    t0 = time.perf_counter()
    deals = []

    def each(s: Solved):
        d = s.to_dict()
        if s.answer == "won":
            d["certified"] = certify(config.samurai, level, seed, s.game, s.line)
        deals.append(d)
        if on_deal is not None:
            on_deal(d)

    solve(config.samurai, level, games, seed=seed, budget=budget, order=order, on_deal=each)
    counts = {a: sum(d["answer"] == a for d in deals) for a in ("won", "lost", "unknown", "failed")}
    return {"samurai": list(config.samurai), "difficulty": level, "seed": seed, "games": games, "budget": budget,
            "order": order, "outcomes": "keyed by event (docs/rules.md R-16a)", **counts,
            "seconds": round(time.perf_counter() - t0, 3), "deals": deals}


def write_solved(res: dict, path) -> None:
    """Write solve_table's answer as JSON to path, whole or not at all (kiai.outputs.atomic_write)."""
    import json
    from pathlib import Path

    from kiai.outputs import atomic_write

    atomic_write(Path(path), lambda tmp: tmp.write_text(json.dumps(res) + "\n", encoding="utf-8"))
