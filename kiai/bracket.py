"""How hard at best, per team size and level: `kiai solve --bracket` and `--check`.

solve_bracket() solves the deals of each cell (a team size and a level) with perfect information
(kiai.solve: every random event keyed on the deal and the event, so the deal is a puzzle with one
answer) and writes one row a deal to a table (.parquet), whole or not at all, after every cell:
a run stopped half way keeps the cells it finished, and the next run with the same settings (seed,
budget, deals, and the engine's sources) solves only the others. A cell's deals are shared among
its team size's rule line-ups (reports.playing.presets.rule_lineups: they hold Kikuchiyo), each
line-up a block of deals.

With `check`, foresight, judge and the default also play every deal on the same fixed outcomes,
and each row says which of them won it: a deal the solver proved lost must be lost by every one
(check_rows). The report's section reads the table (reports.page.bracket).
"""

from __future__ import annotations

import time
from pathlib import Path

from kiai.checks import fail
from kiai.simcore.codes import LEVELS

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


def parse_cells(text: str | None) -> list[tuple[int, str]]:
    """--cells '3-easy,4-normal' as [(3, 'easy'), (4, 'normal')]; None: the report's cells. One-line errors."""
    if text is None:
        return list(BRACKET_CELLS)
    cells = []
    for part in (p.strip() for p in str(text).split(",")):
        size, _, level = part.partition("-")
        if not size.isdigit() or not 2 <= int(size) <= 7 or level not in LEVELS:
            fail(f"--cells takes team size-level pairs such as 3-easy,4-normal (2 to 7 samurai; "
                 f"{', '.join(LEVELS)}), got '{part}'")
        if (int(size), level) in cells:
            fail(f"--cells names {part} twice")
        cells.append((int(size), level))
    return cells


def check_bracket(out, cells, deals: int, seed: int, budget: int) -> list[tuple[int, str]]:
    """Check `kiai solve --bracket`'s input before any work (one-line errors naming the option)."""
    from kiai.counts import check_games, check_seed
    from kiai.paths import check_output
    from kiai.solve import MAX_BUDGET, MAX_DEALS

    cells = parse_cells(cells)
    check_seed(seed)
    check_games(deals, most=MAX_DEALS)
    if not 1 <= int(budget) <= MAX_BUDGET:
        fail(f"--budget must be 1..{MAX_BUDGET:,} nodes a deal, got {budget}")
    check_output(Path(out), force=True, suffixes=(".parquet",))
    return cells


def _lineups(n: int) -> list[tuple[str, ...]]:
    from kiai.reports.playing.presets import rule_lineups

    return rule_lineups(n)


def _player_wins(lineup, level: str, seed: int, game0: int, count: int) -> dict:
    """{player: [won each deal]} for CHECK_PLAYERS on deals game0.. of `seed`, outcomes keyed."""
    from kiai.simcore.results import O_OUTCOME
    from kiai.solve import keyed_outcomes
    from kiai.strategies.registry import DEFAULT

    out = {}
    for player in CHECK_PLAYERS:
        rows = keyed_outcomes(lineup, level, count, seed=seed, strategy=DEFAULT if player == "default" else player,
                              game0=game0)
        out[player] = [bool(r == 0) for r in rows[:, O_OUTCOME]]
    return out


def _wins_with(player: str, wins: dict, lineup, level: str, seed: int, game: int, game0: int) -> bool:
    """Whether `player` wins deal `game` on its keyed outcomes (read from `wins` where --check played it)."""
    from kiai.simcore.results import O_OUTCOME
    from kiai.solve import keyed_outcomes

    if player in wins:
        return wins[player][game - game0]
    return int(keyed_outcomes(lineup, level, 1, seed=seed, strategy=player, game0=game)[0, O_OUTCOME]) == 0


def solve_cell(n: int, level: str, deals: int, seed: int, budget: int, check=False, on_deal=None) -> list[dict]:
    """The rows of one cell: its deals 0..deals-1 of `seed`, line-up j of the size solving a block of them.
    A won deal whose line the engine does not replay as a win is 'failed', never 'won'; an unknown deal
    that FINISHER wins on the same outcomes is won ('found_by' says which)."""
    from kiai.reports.playing.tables import engine_hash
    from kiai.solve import Solver, certify

    engine = engine_hash()
    lineups = _lineups(n)
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


def _kept(path: Path, cells, deals: int, seed: int, budget: int, check: bool):
    """The rows of `path` (an earlier run's) for the cells asked, solved with the same settings."""
    import pandas as pd

    from kiai.reports.page.bracket import read_solved

    if not path.is_file():
        return pd.DataFrame()
    try:
        df = read_solved(path)
    except ValueError as e:
        fail(f"{path}: {e}")
    from kiai.reports.playing.tables import engine_hash

    keep = (df["seed"] == seed) & (df["budget"] == budget) & (df["deals"] == deals)
    keep &= df["engine"] == engine_hash() if "engine" in df else False  # solved by this engine's sources
    if check:
        keep &= df[[f"won_{p}" for p in CHECK_PLAYERS]].notna().all(axis=1) if all(
            f"won_{p}" in df for p in CHECK_PLAYERS) else False
    keep &= pd.Series([(int(n), str(lv)) in cells for n, lv in zip(df["n_samurai"], df["difficulty"])], index=df.index)
    return df[keep]


def solve_bracket(out, cells=None, *, deals: int = BRACKET_DEALS, seed: int = BRACKET_SEED,
                  budget: int = BRACKET_BUDGET, check: bool = False, on_deal=None) -> "object":
    """Solve every cell not already in `out` (same seed, budget and deals), writing the table after
    each cell; returns the table of the cells asked."""
    import pandas as pd

    from kiai.reports.page.bracket import write_solved_table

    cells = check_bracket(out, cells if cells is None or isinstance(cells, str) else
                          ",".join(f"{n}-{lv}" for n, lv in cells), deals, seed, budget)
    path = Path(out)
    table = _kept(path, cells, deals, seed, budget, check)
    for n, level in cells:
        if not table.empty and ((table["n_samurai"] == n) & (table["difficulty"] == level)).sum() == deals:
            continue
        t0 = time.perf_counter()
        rows = solve_cell(n, level, deals, seed, budget, check, on_deal)
        done = pd.DataFrame(rows).assign(cell_seconds=time.perf_counter() - t0)
        table = pd.concat([table, done], ignore_index=True) if not table.empty else done
        write_solved_table(table, path)
    return table


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
