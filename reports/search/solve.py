"""How hard at best, the search: a table's deals solved with perfect information (solve_table, as
`kiai solve`), and the report's cells, team size by level (solve_bracket, as `kiai solve --bracket`
and `--check`), written to the solved table (reports.search.solved_table). The engine's side, the
search of one deal and the games on the same fixed outcomes, is the run layer's
(strategies.run.solve); the input is checked by kiai.solve.

solve_bracket() solves the deals of each cell (a team size and a level) with perfect information
(every random event keyed on the deal and the event, so the deal is a puzzle with one answer) and
writes one row a deal to a table (.parquet), whole or not at all, after every cell: a run stopped
half way keeps the cells it finished, and the next run with the same settings (seed, budget, deals,
and the engine's sources) solves only the others. The table keeps every cell it was not asked for;
a cell asked with other settings is replaced whole, so each cell's rows share one seed, budget and
deal count (the page reads them cell by cell). A cell's deals are shared among its team size's rule
line-ups (reports.playing.presets.rule_lineups: they hold Kikuchiyo), each line-up a block of deals.

With `check`, foresight, judge and the default also play every deal on the same fixed outcomes,
and each row says which of them won it: a deal the solver proved lost must be lost by every one
(check_rows). The report's section reads the table (reports.page.bracket).

Both play their deals through a reports.playing.pool Pool: here, one after the other, or on Dask
(workers or scheduler), one task a deal (solve_table_deal, solve_deal_row) and, with check, one a
player and line-up block (check_wins). The results come back in the order asked, so the rows and
deals are the same wherever they were played (only their seconds differ). Each process keeps one
Solver (solver_for), reused deal after deal as long as the table, level, budget and order stay.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pandas as pd

from kiai.errors import KiaiError
from kiai.outputs import atomic_write, claim
from kiai.reports.playing.pool import Pool, open_pool
from kiai.reports.playing.presets import rule_lineups
from kiai.reports.playing.tables import engine_hash
from kiai.reports.search.solved_table import read_solved, write_solved_table
from kiai.simcore.results import O_OUTCOME
from kiai.strategies.registry import DEFAULT
from kiai.strategies.run.solve import DEFAULT_BUDGET, Solved, Solver, certify, keyed_outcomes, table_config

# every team size at Easy and Normal: at Hard and Heroic most deals stay unknown at any budget the
# stage's time allows (a tenth of make report's), so they are not solved
BRACKET_CELLS = tuple((n, level) for level in ("easy", "normal") for n in range(2, 8))
BRACKET_DEALS = 400  # deals per cell (the issue: at least 400 for a cell shown)
BRACKET_BUDGET = 2_000  # nodes a deal: the wins are found in a few hundred (docs/strategies.md)
BRACKET_SEED = 0  # make report's (the CLI's --seed default): the API and `kiai solve --bracket` solve the same deals
CHECK_PLAYERS = ("default", "judge", "foresight")  # what `--check` plays beside the solver
# play each deal the search left unknown, in turn: where one wins, its game is a winning line (the
# engine's own, on the same fixed outcomes), and the deal is won. The default too: it wins deals
# foresight loses (3 samurai Hard, seed 0, 20M nodes: one of the 15 left unknown)
FINISHERS = ("foresight", "default")


def cell_name(n: int, level: str) -> str:
    return f"{n}-{level}"


def solve_deals(samurai, level: str = "normal", games: int = 10, *, seed: int = 0, budget: int = DEFAULT_BUDGET,
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


_SOLVER: dict = {}  # this process's one Solver: {(line-up, level, budget, order): Solver}


def solver_for(samurai, level: str, budget: int, order: str = "foresight") -> Solver:
    """This process's Solver of the table, made once and reused deal after deal (on a Dask worker,
    task after task) while the table, level, budget and order stay; one at a time, as its tables
    are large. Its tables are cleared at every deal, so an answer never depends on the deals before."""
    key = (tuple(samurai.split(",") if isinstance(samurai, str) else samurai), level, int(budget), order)
    solver = _SOLVER.get(key)
    if solver is None:
        _SOLVER.clear()  # the last one's tables go before the next one's are made
        solver = _SOLVER[key] = Solver(key[0], level, budget=budget, order=order)
    return solver


def release_solvers() -> None:
    """Let this process's Solver go (its tables are not kept past a run here)."""
    _SOLVER.clear()


def deal_pool(work, workers, scheduler, configs):
    """A Pool for the work: here without workers or scheduler (or without work), else on Dask,
    every worker warmed with configs() (the configurations it plays) and the solver."""
    if not work or (workers is None and scheduler is None):
        return Pool()
    return open_pool(workers, scheduler, None, configs(), solver=True)


def _table_configs(samurai, level: str, order: str) -> list:
    """What the workers of a table's solve are warmed with: the order's strategy (the solver's
    first config), and the default (the certificate)."""
    return [table_config(samurai, level, DEFAULT if order == "default" else order), table_config(samurai, level)]


def solve_table_deal(samurai, level: str, seed: int, game: int, budget: int, order: str) -> dict:
    """One deal of `kiai solve` (a task): its answer, and a won line certified by the engine."""
    s = solver_for(samurai, level, budget, order).solve(seed, game, budget)
    d = s.to_dict()
    if s.answer == "won":
        d["certified"] = certify(samurai, level, seed, s.game, s.line)
    return d


def solve_table(samurai, level: str = "normal", games: int = 10, *, seed: int = 0, budget: int = DEFAULT_BUDGET,
                order: str = "foresight", on_deal=None, workers: int | None = None,
                scheduler: str | None = None) -> dict:
    """`kiai solve` of a table (its input checked: kiai.solve): every deal's answer (won lines certified
    by the engine) and the shares (write_solved writes it as JSON). On Dask with workers (a local
    cluster) or scheduler (a running one), one task a deal; on_deal follows each deal done."""
    t0 = time.perf_counter()
    samurai = tuple(samurai.split(",") if isinstance(samurai, str) else samurai)
    calls = [(samurai, level, seed, g, budget, order) for g in range(games)]
    try:
        with deal_pool(calls, workers, scheduler, lambda: _table_configs(samurai, level, order)) as pool:
            deals = pool.map(solve_table_deal, calls, on_done=None if on_deal is None else lambda _i, d: on_deal(d))
    finally:
        release_solvers()
    counts = {a: sum(d["answer"] == a for d in deals) for a in ("won", "lost", "unknown", "failed")}
    res = {"samurai": list(samurai), "difficulty": level, "seed": seed, "games": games, "budget": budget,
           "order": order, "outcomes": "keyed by event (docs/rules.md R-16a)", **counts,
           "seconds": round(time.perf_counter() - t0, 3), "deals": deals}
    return res


def write_solved(res: dict, path) -> None:
    """Write solve_table's answer as JSON to path, whole or not at all (kiai.outputs.atomic_write)."""
    atomic_write(Path(path), lambda tmp: tmp.write_text(json.dumps(res) + "\n", encoding="utf-8"))


def check_wins(player: str, lineup, level: str, seed: int, game0: int, count: int, start=None) -> list[bool]:
    """Whether `player` (of CHECK_PLAYERS) wins each deal game0.. of `seed`, outcomes keyed (a task),
    from the position start = (pub, hid) if given."""
    rows = keyed_outcomes(lineup, level, count, seed=seed, strategy=DEFAULT if player == "default" else player,
                          game0=game0, start=start)
    return [bool(r == 0) for r in rows[:, O_OUTCOME]]


def solve_deal_row(n: int, level: str, lineup, seed: int, game: int, budget: int, deals: int, engine: str,
                   wins: dict) -> dict:
    """The row of deal `game` of a cell (a task). wins: {player: won this deal} of --check's players
    ({} without). A won deal whose line the engine does not replay as a win is 'failed', never 'won';
    an unknown deal that one of FINISHERS wins on the same outcomes is won ('found_by' says which:
    the first that wins; a player --check played is not played again)."""
    s = solver_for(lineup, level, budget).solve(seed, game, budget)
    answer, found_by = s.answer, "solver" if s.answer == "won" else ""
    if answer == "won" and not certify(lineup, level, seed, game, s.line):
        answer, found_by = "failed", ""
    for player in FINISHERS:
        if answer == "unknown" and (wins[player] if player in wins
                                    else check_wins(player, lineup, level, seed, game, 1)[0]):
            answer, found_by = "won", player  # its game is a winning line, played by the engine
    row = {"n_samurai": n, "difficulty": level, "lineup": ",".join(lineup), "seed": seed, "game": game,
           "budget": budget, "deals": deals, "answer": answer, "found_by": found_by, "nodes": s.nodes,
           "seconds": s.seconds, "engine": engine}
    row.update({f"won_{p}": w for p, w in wins.items()})
    return row


def _blocks(n: int, deals: int) -> list[tuple[tuple[str, ...], int, int]]:
    """(line-up, first deal, end) of each of the team size's line-ups with deals: line-up j of the
    size solves deals deals * j // k .. deals * (j + 1) // k - 1 of the cell's."""
    lineups = rule_lineups(n)
    blocks = [(tuple(lineup), deals * j // len(lineups), deals * (j + 1) // len(lineups))
              for j, lineup in enumerate(lineups)]
    return [b for b in blocks if b[2] > b[1]]


def solve_cell(n: int, level: str, deals: int, seed: int, budget: int, check=False, on_deal=None,
               pool: Pool | None = None) -> list[dict]:
    """The rows of one cell: its deals 0..deals-1 of `seed`, each line-up of the size solving a block of
    them (solve_deal_row), in that order, played on `pool` (None: here); on_deal follows each deal
    done. With check, each player's wins of each block come first (check_wins)."""
    pool = Pool() if pool is None else pool
    engine = engine_hash()
    blocks = _blocks(n, deals)
    wins: dict = {}
    if check:
        calls = [(p, lineup, level, seed, game0, game1 - game0)
                 for lineup, game0, game1 in blocks for p in CHECK_PLAYERS]
        for (p, lineup, *_), won in zip(calls, pool.map(check_wins, calls)):
            wins.setdefault(lineup, {})[p] = won
    calls = [(n, level, lineup, seed, g, budget, deals, engine,
              {p: won[g - game0] for p, won in wins.get(lineup, {}).items()})
             for lineup, game0, game1 in blocks for g in range(game0, game1)]
    return pool.map(solve_deal_row, calls, on_done=None if on_deal is None else lambda _i, row: on_deal(row))


def _earlier(path: Path):
    """The table an earlier run wrote to `path` (every cell of it), or an empty one."""
    if not path.is_file():
        return pd.DataFrame()
    try:
        return read_solved(path, mixed=True)  # a cell of two settings is solved again where asked
    except ValueError as e:
        raise KiaiError(f"{path}: {e}")


def _is_kept(part, deals: int, seed: int, budget: int, check: bool) -> bool:
    """Whether a cell's rows of an earlier run are the cell asked: every deal, solved with these
    settings by this engine's sources (and, for --check, played by every player)."""
    if len(part) != deals or "engine" not in part:
        return False
    same = (part["seed"] == seed) & (part["budget"] == budget) & (part["deals"] == deals)
    same &= part["engine"] == engine_hash()
    if check:
        if not all(f"won_{p}" in part for p in CHECK_PLAYERS):
            return False
        same &= part[[f"won_{p}" for p in CHECK_PLAYERS]].notna().all(axis=1)
    return bool(same.all()) and part["game"].nunique() == deals


def _warm_configs(cells, check: bool) -> list:
    """What the workers are warmed with: the first cell's first line-up, with the solver's order
    (FINISHERS), the default (the certificate) and, with check, every player."""
    players = tuple(DEFAULT if p == "default" else p for p in (*FINISHERS, DEFAULT, *(CHECK_PLAYERS if check else ())))
    n, level = cells[0]
    return [table_config(rule_lineups(n)[0], level, s) for s in dict.fromkeys(players)]


def solve_bracket(out, cells=None, *, deals: int = BRACKET_DEALS, seed: int = BRACKET_SEED,
                  budget: int = BRACKET_BUDGET, check: bool = False, on_deal=None, on_cell=None,
                  workers: int | None = None, scheduler: str | None = None) -> "object":
    """Solve the cells asked into `out`, each written as soon as it is done: a cell already there
    with the same settings (seed, budget, deals, engine) is kept, one with others is replaced
    whole, and the cells not asked are kept as they are. Returns the table of the cells asked;
    on_cell(n, level) follows each cell written. The output is claimed for the whole run. `cells`: (team
    size, level) pairs, None the report's (BRACKET_CELLS), and the input checked (kiai.solve). On
    Dask with workers (a local cluster) or scheduler (a running one), reached once a cell is left to
    solve: one task a deal; a cluster that fails (reports.playing.cluster.ClusterFailed) leaves the
    cells written before it in the table."""
    cells = list(BRACKET_CELLS if cells is None else cells)
    path = Path(out)
    with claim(path, "--bracket"):
        table = _earlier(path)
        mine = {cell: ((table["n_samurai"] == cell[0]) & (table["difficulty"] == cell[1])) if not table.empty else None
                for cell in cells}
        todo = [c for c in cells if mine[c] is None or not _is_kept(table[mine[c]], deals, seed, budget, check)]
        try:
            with deal_pool(todo, workers, scheduler, lambda: _warm_configs(todo, check)) as pool:
                for n, level in todo:
                    t0 = time.perf_counter()
                    rows = solve_cell(n, level, deals, seed, budget, check, on_deal, pool=pool)
                    done = pd.DataFrame(rows).assign(cell_seconds=time.perf_counter() - t0)
                    if table.empty:
                        table = done
                    else:
                        here = (table["n_samurai"] == n) & (table["difficulty"] == level)
                        table = pd.concat([table[~here], done], ignore_index=True)
                    write_solved_table(table, path)
                    if on_cell is not None:
                        on_cell(n, level)
        finally:
            release_solvers()
    asked = pd.Series([(int(n), str(lv)) in cells for n, lv in zip(table["n_samurai"], table["difficulty"])],
                      index=table.index, dtype=bool)
    return table[asked].reset_index(drop=True)


def check_rows(table) -> "object":
    """Per cell: deals, proved lost, and how many of those each player won (each must be 0)."""
    lost = table[table["answer"] == "lost"]
    cols = {f"won_{p}": "sum" for p in CHECK_PLAYERS if f"won_{p}" in table}
    per = table.groupby(["n_samurai", "difficulty"], sort=True).agg(
        deals=("game", "size"), won=("answer", lambda a: int((a == "won").sum())),
        lost=("answer", lambda a: int((a == "lost").sum())), unknown=("answer", lambda a: int((a == "unknown").sum())))
    if cols:
        wins = lost.groupby(["n_samurai", "difficulty"]).agg(cols).rename(columns=lambda c: f"lost_{c}")
        per = per.join(wins).fillna(0).astype(int)
        unknown = table[table["answer"] == "unknown"]
        per = per.join(unknown.groupby(["n_samurai", "difficulty"]).agg(
            {c: "sum" for c in cols}).rename(columns=lambda c: f"unknown_{c}")).fillna(0).astype(int)
    return per.reset_index()
