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
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pandas as pd

from kiai.errors import KiaiError
from kiai.outputs import atomic_write, claim
from kiai.reports.playing.presets import rule_lineups
from kiai.reports.playing.tables import engine_hash
from kiai.reports.search.solved_table import read_solved, write_solved_table
from kiai.simcore.results import O_OUTCOME
from kiai.strategies.registry import DEFAULT
from kiai.strategies.run.solve import DEFAULT_BUDGET, Solved, Solver, certify, keyed_outcomes

# every team size at Easy and Normal: at Hard and Heroic most deals stay unknown at any budget the
# stage's time allows (a tenth of make report's), so they are not solved
BRACKET_CELLS = tuple((n, level) for level in ("easy", "normal") for n in range(2, 8))
BRACKET_DEALS = 400  # deals per cell (the issue: at least 400 for a cell shown)
BRACKET_BUDGET = 2_000  # nodes a deal: the wins are found in a few hundred (docs/strategies.md)
BRACKET_SEED = 60
CHECK_PLAYERS = ("default", "judge", "foresight")  # what `--check` plays beside the solver
# plays each deal the search left unknown: where it wins, its game is a winning line (the engine's own,
# on the same fixed outcomes), and the deal is won
FINISHER = "foresight"


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


def solve_table(samurai, level: str = "normal", games: int = 10, *, seed: int = 0, budget: int = DEFAULT_BUDGET,
                order: str = "foresight", on_deal=None) -> dict:
    """`kiai solve` of a table (its input checked: kiai.solve): every deal's answer (won lines certified
    by the engine) and the shares (write_solved writes it as JSON)."""
    t0 = time.perf_counter()
    deals = []

    def each(s: Solved):
        d = s.to_dict()
        if s.answer == "won":
            d["certified"] = certify(samurai, level, seed, s.game, s.line)
        deals.append(d)
        if on_deal is not None:
            on_deal(d)

    solve_deals(samurai, level, games, seed=seed, budget=budget, order=order, on_deal=each)
    counts = {a: sum(d["answer"] == a for d in deals) for a in ("won", "lost", "unknown", "failed")}
    res = {"samurai": list(samurai), "difficulty": level, "seed": seed, "games": games, "budget": budget,
           "order": order, "outcomes": "keyed by event (docs/rules.md R-16a)", **counts,
           "seconds": round(time.perf_counter() - t0, 3), "deals": deals}
    return res


def write_solved(res: dict, path) -> None:
    """Write solve_table's answer as JSON to path, whole or not at all (kiai.outputs.atomic_write)."""
    atomic_write(Path(path), lambda tmp: tmp.write_text(json.dumps(res) + "\n", encoding="utf-8"))


def _player_wins(lineup, level: str, seed: int, game0: int, count: int) -> dict:
    """{player: [won each deal]} for CHECK_PLAYERS on deals game0.. of `seed`, outcomes keyed."""
    out = {}
    for player in CHECK_PLAYERS:
        rows = keyed_outcomes(lineup, level, count, seed=seed, strategy=DEFAULT if player == "default" else player,
                              game0=game0)
        out[player] = [bool(r == 0) for r in rows[:, O_OUTCOME]]
    return out


def _wins_with(player: str, wins: dict, lineup, level: str, seed: int, game: int, game0: int) -> bool:
    """Whether `player` wins deal `game` on its keyed outcomes (read from `wins` where --check played it)."""
    if player in wins:
        return wins[player][game - game0]
    return int(keyed_outcomes(lineup, level, 1, seed=seed, strategy=player, game0=game)[0, O_OUTCOME]) == 0


def solve_cell(n: int, level: str, deals: int, seed: int, budget: int, check=False, on_deal=None) -> list[dict]:
    """The rows of one cell: its deals 0..deals-1 of `seed`, line-up j of the size solving a block of them.
    A won deal whose line the engine does not replay as a win is 'failed', never 'won'; an unknown deal
    that FINISHER wins on the same outcomes is won ('found_by' says which)."""
    engine = engine_hash()
    lineups = rule_lineups(n)
    rows = []
    for j, lineup in enumerate(lineups):
        game0, game1 = deals * j // len(lineups), deals * (j + 1) // len(lineups)
        if game1 <= game0:
            continue
        solver = Solver(lineup, level, budget=budget)
        wins = _player_wins(lineup, level, seed, game0, game1 - game0) if check else {}
        for g in range(game0, game1):
            s = solver.solve(seed, g, budget)
            answer, found_by = s.answer, "solver" if s.answer == "won" else ""
            if answer == "won" and not certify(lineup, level, seed, g, s.line):
                answer, found_by = "failed", ""
            if answer == "unknown" and _wins_with(FINISHER, wins, lineup, level, seed, g, game0):
                answer, found_by = "won", FINISHER  # its game is a winning line, played by the engine
            row = {"n_samurai": n, "difficulty": level, "lineup": ",".join(lineup), "seed": seed, "game": g,
                   "budget": budget, "deals": deals, "answer": answer, "found_by": found_by, "nodes": s.nodes,
                   "seconds": s.seconds, "engine": engine}
            row.update({f"won_{p}": w[g - game0] for p, w in wins.items()})
            rows.append(row)
            if on_deal is not None:
                on_deal(row)
    return rows


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


def solve_bracket(out, cells=None, *, deals: int = BRACKET_DEALS, seed: int = BRACKET_SEED,
                  budget: int = BRACKET_BUDGET, check: bool = False, on_deal=None, on_cell=None) -> "object":
    """Solve the cells asked into `out`, each written as soon as it is done: a cell already there
    with the same settings (seed, budget, deals, engine) is kept, one with others is replaced
    whole, and the cells not asked are kept as they are. Returns the table of the cells asked;
    on_cell(n, level) follows each cell written. The output is claimed for the whole run. `cells`: (team
    size, level) pairs, None the report's (BRACKET_CELLS), and the input checked (kiai.solve)."""
    cells = list(BRACKET_CELLS if cells is None else cells)
    path = Path(out)
    with claim(path, "--bracket"):
        table = _earlier(path)
        for n, level in cells:
            mine = ((table["n_samurai"] == n) & (table["difficulty"] == level)) if not table.empty else None
            if mine is not None and _is_kept(table[mine], deals, seed, budget, check):
                continue
            t0 = time.perf_counter()
            rows = solve_cell(n, level, deals, seed, budget, check, on_deal)
            done = pd.DataFrame(rows).assign(cell_seconds=time.perf_counter() - t0)
            table = pd.concat([table[~mine], done], ignore_index=True) if mine is not None else done
            write_solved_table(table, path)
            if on_cell is not None:
                on_cell(n, level)
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
