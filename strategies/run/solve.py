"""The solver's wiring of the engine: deals with perfect information, and strategies played on the
same fixed outcomes.

Solver asks simcore.solve's exact search, deal by deal, whether any sequence of decisions wins
a deal whose every random event is keyed on the deal and the event (cfg.event_keyed,
simcore.rng.event): won (with the winning line), lost (proved) or unknown (budget spent).
certify() replays a won line through the engine's own kernel (the line as forced decisions,
R-16a, the same keyed outcomes) and says whether it wins; keyed_outcomes() plays a strategy on
the same keyed deals. The search over a table's deals and the report's cells is
reports.search.solve's.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from kiai.simcore.config import ConfigError, script
from kiai.simcore.gateway import HOOK_ARGS, address
from kiai.simcore.kernel import play_games
from kiai.simcore.questions import Q_ABSENT, QUESTIONS
from kiai.simcore.results import N_OUT, O_ERR, O_OUTCOME
from kiai.simcore.solve import KEY_FULL, KEY_RB, QBUF, S_NODES, S_STATES, STATUS, question_hook, solve_deal, work_arrays
from kiai.simcore.state import HIDDEN, TABLE
from kiai.strategies import registry
from kiai.strategies.run.compiling import state_records
from kiai.strategies.run.config import GameConfig
from kiai.strategies.run.games import kernel_config, play_batch

DEFAULT_BUDGET = 20_000  # turn plays per deal (PILOT-60.md)
ORDERS = ("foresight", "default")  # what orders the answers tried: foresight's rollouts on the true deal, or the default strategy
# the transposition table's key: the whole state (today's), or R-B's canonical form (docs/strategies.md)
KEYS = {"full": KEY_FULL, "rb": KEY_RB}
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


def table_config(samurai, level: str, strategy: str = registry.DEFAULT, params=None) -> GameConfig:
    """The table, without absent support tokens: the search does not branch on Q_ABSENT (whose
    answer is a set), so every table is solved, and its strategies played, without them."""
    if isinstance(samurai, str):
        samurai = tuple(s for s in samurai.split(",") if s.strip())
    config = GameConfig(tuple(samurai), level, strategy, dict(params or {}), absent_tokens="off")
    return config


def keyed_config(config: GameConfig, **kw) -> np.recarray:
    """The kernel's configuration for config with event-keyed outcomes."""
    cfgs = kernel_config(config, **kw)
    cfgs[0].event_keyed = 1
    return cfgs


def _start_records(start):
    """The kernel's start records: start = (pub, hid), a position, or None (none: the deal's setup)."""
    if start is None:
        return np.zeros(0, dtype=TABLE), np.zeros(0, dtype=HIDDEN)
    return np.array(start[0], dtype=TABLE).reshape(1), np.array(start[1], dtype=HIDDEN).reshape(1)


class Solver:
    """The search's configuration for one table, reused deal after deal."""

    def __init__(self, samurai, level: str = "normal", tt_bits: int | None = None, budget: int = DEFAULT_BUDGET,
                 order: str = "foresight"):
        if order not in ORDERS:
            raise ConfigError(f"--order must be one of {', '.join(ORDERS)}, got '{order}'")
        self.config = table_config(samurai, level, registry.DEFAULT if order == "default" else order)
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
        words = [TABLE.fields["line"][1] // 8, TABLE.fields["turn_no"][1] // 8]
        self.layouts = {k: np.array([*words, code], dtype=np.int64) for k, code in KEYS.items()}
        self.line = np.zeros(LINE_CAP, dtype=np.int64)
        self.stats = np.zeros(8, dtype=np.int64)
        self.work = work_arrays()  # made once: a deal's search then allocates nothing

    def solve(self, seed: int, game: int, budget: int = DEFAULT_BUDGET, start=None, key: str = "full") -> Solved:
        """Deal `game` of `seed`, or (start = (pub, hid), a turn's start: built by hand as in
        tests/scenario.py, or reached by play, turn_starts) that position, its later random events
        keyed on (seed, game). key: the states merged, "full" (the whole state) or "rb" (KEYS)."""
        pubs, hids = _start_records(start)
        t0 = time.perf_counter()
        answer, n = solve_deal(self.cfgs.view(np.ndarray)[0], np.int64(seed), np.int64(game), np.int64(budget),
                               self.tt1, self.tt2, self.qbuf, self.layouts[key], self.line, self.stats, pubs, hids,
                               self.work)
        dt = time.perf_counter() - t0
        if n > LINE_CAP:
            raise RuntimeError(f"deal {game}: a winning line of {n} answers is longer than {LINE_CAP}")
        line = [int(x) for x in self.line[:n]] if STATUS[answer] == "won" else []
        return Solved(int(game), STATUS[answer], int(self.stats[S_NODES]), dt, int(self.stats[S_STATES]), line)


def certify(samurai, level: str, seed: int, game: int, line, start=None) -> bool:
    """Whether `line`, fed as forced decisions to the engine's own kernel from the deal's setup
    (or the position start = (pub, hid)) with the same keyed outcomes, wins, uses every answer
    and breaks no rule."""
    config = table_config(samurai, level)
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
    config = table_config(samurai, level, strategy, params)
    out = np.zeros((games, N_OUT), dtype=np.int32)
    play_batch(keyed_config(config, from_state=start is not None), seed, game0, out,
               None if start is None else _start_records(start))
    return out


def play_from(cfgs, seed: int, game: int, start=None, forced=()):
    """One run of the kernel under cfgs (its stop_turns set by the caller) from start = (pub, hid)
    records (None: the deal's setup), `forced` fed as forced decisions: the records it ends in
    (pub, hid, each of one row) and its book."""
    cfg = cfgs[0]
    buf = np.array(list(forced) + [0], dtype=np.int64)
    cfg.fd_addr = buf.ctypes.data
    cfg.fd_n = len(forced)
    cfg.from_state = int(start is not None)
    pub, hid, book, mem = state_records()
    sp, sh = start if start is not None else (np.zeros(1, TABLE), np.zeros(1, HIDDEN))
    out = np.zeros((1, N_OUT), dtype=np.int32)
    play_games(cfgs.view(np.ndarray)[0], np.int64(seed), np.int64(game), out, pub[0], hid[0], book[0], mem[0],
               sp[0], sh[0])
    return pub, hid, book[0]


MAX_TURN_STARTS = 400  # a game's turns, at most (the longest keyed games seen take about 120)


def turn_starts(samurai, level: str, strategy: str, seed: int, game: int) -> list:
    """Every turn start of deal `game` of `seed` played by `strategy` with keyed outcomes, in order:
    (pub, hid) records of one row each, then the state the game ended in (game_over set; none
    where the engine reported an error)."""
    cfgs = keyed_config(table_config(samurai, level, strategy))
    cfgs[0].stop_turns = 0
    pub, hid, book = play_from(cfgs, seed, game)
    cfgs[0].stop_turns = 1
    out = []
    while int(book["err"]) == 0 and len(out) < MAX_TURN_STARTS:
        out.append((pub.copy(), hid.copy()))
        if pub[0]["game_over"]:
            break
        pub, hid, book = play_from(cfgs, seed, game, (pub, hid))
    return out
