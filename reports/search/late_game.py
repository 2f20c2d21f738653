"""The late-game ground truth (`kiai solve --late-game`): positions a few turns before the end of
round 3, each solved exactly with both of the solver's keys, and the checks every answer must pass.

A position is a turn's start in round 3 of a keyed game (every random event fixed by the deal and
the event, docs/rules.md R-16a) that the default plays from the deal's setup: the game is played
turn by turn (strategies.run.solve.turn_starts), and the position kept is 1 to LATE_TURNS turn
starts before its last, drawn by the deal. Few turns are left there, so the search can exhaust the
position: it is won or proved lost, and both answers are common (the default loses many of the
positions it reaches, and the solver wins some of those). That makes it the test of anything that
claims a deal is lost:

- the whole-state key ("full") and R-B's canonical key ("rb", docs/strategies.md) must give the same
  answer wherever both resolve the position;
- every win must be certified: its line, replayed by the engine from the position, wins;
- no position proved lost may be won by the default's own game through it, nor by any of
  CHECK_PLAYERS playing from it on the same outcomes.

truth_summary() counts the answers, the agreements, the violations (each must be 0) and the nodes
R-B needs against the whole state's, per cell. The positions play through a reports.playing.pool
Pool (here, or on Dask one task a deal), and the rows come back in the order asked.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from kiai.outputs import claim
from kiai.reports.files import atomic_write
from kiai.reports.playing.tables import engine_hash
from kiai.reports.search.solve import CHECK_PLAYERS, check_wins, deal_pool, release_solvers, solver_for
from kiai.simcore.codes import LEVELS, OUT_WIN
from kiai.simcore.seatings import all_lineups
from kiai.strategies.registry import DEFAULT
from kiai.strategies.run.solve import KEYS, certify, table_config, turn_starts

LATE_CELLS = tuple((n, level) for n in range(2, 6) for level in LEVELS)  # 2 to 5 samurai, every level
LATE_POSITIONS = 625  # a cell's positions: 10,000 over LATE_CELLS
LATE_BUDGET = 2_000_000  # nodes a position and key: a few turns from the end, most trees are far smaller
LATE_TURNS = 6  # a position is 1 to LATE_TURNS turn starts before its game's last
LATE_SEED = 0
GAMES_A_POSITION = 20  # games tried per position asked, at most (a game that ends before round 3 gives none)
SCAN = 50  # games a task plays to find the deals that give a position
ROUND = 3
SUMMARY = ("n_samurai", "difficulty", "positions", *(f"{k}_{a}" for k in KEYS for a in ("won", "lost", "unknown")),
           "both", "disagree", "failed", "lost_won", "median_ratio", "sum_ratio")
PLAYER = DEFAULT  # who plays each game up to its position
ORDER = "default"  # what the search tries first: the position is exhausted either way, and the default is fast


def lineup_of(n: int, seed: int, game: int) -> tuple[str, ...]:
    """The line-up deal `game` is played with: one of the team size's, drawn by the deal."""
    lineups = all_lineups(n)
    return tuple(lineups[int(np.random.default_rng([seed, n, game]).integers(len(lineups)))])


def late_position(lineup, level: str, seed: int, game: int):
    """(turn index, turn starts left, (pub, hid), whether the default's game won) of deal `game`'s
    position, or None where its game ends before round 3 (or in an engine error)."""
    starts = turn_starts(lineup, level, PLAYER, seed, game)
    if not starts or not starts[-1][0][0]["game_over"]:
        return None
    last = len(starts) - 1
    late = [i for i in range(last) if int(starts[i][0][0]["round_no"]) == ROUND]
    if not late:
        return None
    back = 1 + int(np.random.default_rng([seed, game, ROUND]).integers(LATE_TURNS))
    i = late[max(0, len(late) - back)]
    return i, last - i, starts[i], int(starts[-1][0][0]["outcome"]) == OUT_WIN


def late_row(n: int, level: str, seed: int, game: int, budget: int, engine: str) -> dict:
    """The row of deal `game`'s position (a task; the deal gives one, late_games): each key's
    answer, nodes and seconds (a won line not replayed as a win by the engine is 'failed'), whether
    the default's own game won from there, and, where either key proves it lost, whether each of
    CHECK_PLAYERS wins from it on the same outcomes."""
    lineup = lineup_of(n, seed, game)
    turn, left, start, won = late_position(lineup, level, seed, game)
    row = {"n_samurai": n, "difficulty": level, "lineup": ",".join(lineup), "seed": seed, "game": game, "turn": turn,
           "turns_left": left, "budget": budget, "player_won": won}
    solver = solver_for(lineup, level, budget, ORDER)
    for key in KEYS:
        s = solver.solve(seed, game, budget, start, key=key)
        answer = s.answer
        if answer == "won" and not certify(lineup, level, seed, game, s.line, start=start):
            answer = "failed"
        row.update({key: answer, f"{key}_nodes": s.nodes, f"{key}_seconds": s.seconds})
    lost = "lost" in (row["full"], row["rb"])
    for p in CHECK_PLAYERS:
        row[f"won_{p}"] = check_wins(p, lineup, level, seed, game, 1, start)[0] if lost else None
    row["engine"] = engine
    return row


def warm_configs(cells) -> list:
    """What the workers are warmed with: the first cell's table, played by the default and each
    of CHECK_PLAYERS (the solver's own are warmed with it)."""
    n, level = cells[0]
    return [table_config(all_lineups(n)[0], level, DEFAULT if p == "default" else p) for p in CHECK_PLAYERS]


def late_games(n: int, level: str, seed: int, game0: int, game1: int) -> list[int]:
    """The deals game0..game1-1 of `seed` whose games give a position (a task: a game each, no search)."""
    return [g for g in range(game0, game1) if late_position(lineup_of(n, seed, g), level, seed, g) is not None]


def late_cell(n: int, level: str, positions: int, seed: int, budget: int, pool, on_row=None) -> list[dict]:
    """The rows of one cell: the positions of the first `positions` deals of `seed` that give one (of
    at most GAMES_A_POSITION games a position asked), in order. The deals are found first, SCAN
    games a task, so that no position is solved in vain; on_row(row) follows each row solved."""
    engine = engine_hash()
    found: list[int] = []
    game, last = 0, positions * GAMES_A_POSITION
    while len(found) < positions and game < last:
        end = min(last, game + max(SCAN, 2 * (positions - len(found))))
        calls = [(n, level, seed, g, min(g + SCAN, end)) for g in range(game, end, SCAN)]
        found += [g for part in pool.map(late_games, calls) for g in part]
        game = end
    calls = [(n, level, seed, g, budget, engine) for g in found[:positions]]
    return pool.map(late_row, calls, on_done=None if on_row is None else lambda _i, row: on_row(row))


def late_game(out, cells, positions: int, seed: int, budget: int, *, force: bool = False, on_row=None,
              workers=None, scheduler=None) -> pd.DataFrame:
    """Solve `positions` positions of each cell ((team size, level) pairs, checked: kiai.solve) into
    `out` (.parquet, claimed for the whole run: an existing one only with force), written whole
    after each cell, so that a run stopped half way keeps the cells it finished; returns the table
    (one row a position)."""
    path = Path(out)
    rows: list[dict] = []
    with claim(path, "--late-game", replace=force):
        try:
            with deal_pool(cells, workers, scheduler, lambda: warm_configs(cells)) as pool:
                for n, level in cells:
                    rows += late_cell(n, level, positions, seed, budget, pool, on_row)
                    table = pd.DataFrame(rows)
                    atomic_write(path, lambda tmp: table.to_parquet(tmp, index=False))
        finally:
            release_solvers()
    return pd.DataFrame(rows)


def truth_summary(table: pd.DataFrame) -> pd.DataFrame:
    """Per cell: positions; each key's won, lost and unknown; how many both keys resolved, and
    among them the answers that differ; the failed certificates; the positions proved lost that
    a player won; and R-B's nodes against the whole state's on the positions both resolved (the
    median of the ratios, and the ratio of the sums). disagree, failed and lost_won must be 0;
    broken is their sum."""
    resolved = ("won", "lost")
    rows = []
    if table.empty:
        return pd.DataFrame(columns=[*SUMMARY, "broken"])
    for (n, level), part in table.groupby(["n_samurai", "difficulty"], sort=False):
        both = part["full"].isin(resolved) & part["rb"].isin(resolved)
        lost = (part["full"] == "lost") | (part["rb"] == "lost")
        players = part[["player_won"] + [f"won_{p}" for p in CHECK_PLAYERS]].fillna(False).astype(bool).any(axis=1)
        shared = part[both]
        ratio = shared["rb_nodes"] / shared["full_nodes"].clip(lower=1)
        rows.append({
            "n_samurai": int(n), "difficulty": level, "positions": len(part),
            **{f"{k}_{a}": int((part[k] == a).sum()) for k in KEYS for a in ("won", "lost", "unknown")},
            "both": int(both.sum()), "disagree": int((shared["full"] != shared["rb"]).sum()),
            "failed": int((part[list(KEYS)] == "failed").to_numpy().sum()), "lost_won": int((lost & players).sum()),
            "median_ratio": float(ratio.median()) if len(ratio) else float("nan"),
            "sum_ratio": float(shared["rb_nodes"].sum() / max(1, shared["full_nodes"].sum())),
        })  # fmt: skip
    summary = pd.DataFrame(rows)
    summary["broken"] = summary[["disagree", "failed", "lost_won"]].sum(axis=1)
    return summary

