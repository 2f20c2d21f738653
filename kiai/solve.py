"""`kiai solve` through the API: how hard a table is at best, and the report's cells (--bracket).

solve() checks its input and solves a table's deals with perfect information; bracket() checks its
input and solves the report's cells, team size by level, into a table. Both play here, or on Dask
(workers: a local cluster; scheduler: a running one), one task a deal, with the same answers. The
search is reports.search.solve's, and the engine's side of it the run layer's (strategies.run.solve).
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING

from kiai.errors import KiaiError
from kiai.inputs.checks import check_cluster, check_path, fail, name_text, once, split, whole
from kiai.inputs.counts import check_games, check_seed
from kiai.inputs.paths import check_output
from kiai.outputs import claim
from kiai.progress import reporter
from kiai.reports.playing.tables import SweepError
from kiai.reports.search import solve as search
from kiai.reports.search import late_game as late
from kiai.reports.search.late_game import LATE_BUDGET, LATE_CELLS, LATE_POSITIONS, LATE_SEED
from kiai.reports.search.solve import BRACKET_BUDGET, BRACKET_CELLS, BRACKET_DEALS, BRACKET_SEED, CHECK_PLAYERS, cell_name
from kiai.simcore.codes import LEVELS
from kiai.simcore.components import ComponentsError
from kiai.simcore.config import ConfigError
from kiai.strategies.run.config import GameConfig
from kiai.strategies.run.solve import ORDERS, table_config

if TYPE_CHECKING:
    import pandas as pd

    from kiai.progress import Progress

__all__ = ["BRACKET_BUDGET", "BRACKET_DEALS", "CHECK_PLAYERS", "LATE_BUDGET", "LATE_POSITIONS", "bracket", "cell_name",
           "check_bracket", "check_late_game", "check_solve", "late_game", "parse_cells", "solve"]

MAX_BUDGET = 10**9
MAX_DEALS = 100_000


def solve(samurai, level: str = "normal", games: int = 10, *, seed: int = 0, budget: int = 200_000,
          order: str = "foresight", out=None, force: bool = False, progress: bool | Progress = False,
          on_done=None, workers: int | None = None, scheduler: str | None = None) -> dict:
    """Solve deals 0..games-1 of `seed` on one table with perfect information, as `kiai solve`: every
    random outcome fixed in advance (keyed by the deal and the event), each deal searched for a
    winning line of at most `budget` nodes (turn plays).

    samurai: 2 to 7 names, a list or 'kyuzo,heihachi'; level: easy, normal, hard or heroic (any case).
    order: what is tried first, 'foresight' or 'default'. out: also write the answer as JSON there
    (.json; an existing file needs force), claimed before the first deal. progress counts the deals.
    Returns the fields of that JSON: the table, seed, games, budget and order, the counts won, lost,
    unknown and failed, the seconds, and `deals`, each deal's answer, nodes, states and winning
    line (with `certified`: the line replayed by the engine wins). on_done(answer) is called before
    the answer is written to `out`, so what it shows is not lost to a failed write.
    workers: play the deals on a local Dask cluster of that many worker processes; scheduler: on the
    running one at that address (tcp://host:8786). The answer is the same (but for its seconds); a
    cluster that cannot be reached or fails mid-run is a KiaiError (one line), `out` left as it was."""
    check_cluster(workers, scheduler)
    config = check_solve(samurai, level, games, seed, budget, order)
    if out:
        check_output(Path(out), force=force, suffixes=(".json",))
    with claim(Path(out), "--out", replace=force) if out else contextlib.nullcontext():
        with reporter(progress) as p:
            started = []

            def each(_deal) -> None:  # the first deal carries the compile: the rate starts after it
                if not started:
                    started.append(True)
                    p.start("deals", games)
                p.advance(1)

            try:
                answer = search.solve_table(config.samurai, config.difficulty, games, seed=seed, budget=budget,
                                            order=order, on_deal=each, workers=workers, scheduler=scheduler)
            except SweepError as e:  # the cluster's, one line
                raise KiaiError(f"{e}; {f'{out} left as it was' if out else 'nothing written'} "
                                "(kiai solve of a table has no --resume: run it again)") from None
        if on_done is not None:
            on_done(answer)
        if out:
            search.write_solved(answer, out)
        return answer


def bracket(out, cells=None, *, deals: int = BRACKET_DEALS, seed: int = BRACKET_SEED, budget: int = BRACKET_BUDGET,
            check: bool = False, progress: bool | Progress = False, on_cell=None, workers: int | None = None,
            scheduler: str | None = None) -> pd.DataFrame:
    """Solve the report's cells into the table `out` (.parquet), as `kiai solve --bracket`: `deals` deals
    of each cell (cells: '3-easy,4-normal' or [(3, 'easy'), ...]; None: 2 to 7 samurai at Easy and
    Normal), shared among its team size's line-ups. A cell already there with the same settings is
    kept, one with others is replaced whole, the cells not asked are kept; each cell is written as
    soon as it is done (on_cell(n, level) follows), the table claimed for the whole run. check: also
    play foresight, judge and the default on every deal's fixed outcomes.
    Returns one row per cell asked: deals, won, lost, unknown, and with check, for each player, the
    deals proved lost (lost_won_PLAYER, which must be 0) and left unknown (unknown_won_PLAYER) it won.
    workers: play the deals on a local Dask cluster of that many worker processes; scheduler: on the
    running one at that address (tcp://host:8786); the rows are the same (but for their seconds and
    cell_seconds). A cluster that cannot be reached or fails mid-run is a KiaiError (one line) that
    names the cells finished, which stay in `out`: the same call again keeps them."""
    check_cluster(workers, scheduler)
    picked = check_bracket(out, cells, deals, seed, budget)
    with reporter(progress) as p:
        started = []

        def each(_row) -> None:
            if not started:
                started.append(True)
                p.start("deals", deals * len(picked))
            p.advance(1)

        finished = []

        def cell_done(n: int, level: str) -> None:
            finished.append(cell_name(n, level))
            if on_cell is not None:
                on_cell(n, level)

        try:
            table = search.solve_bracket(out, picked, deals=deals, seed=seed, budget=budget, check=check,
                                         on_deal=each, on_cell=cell_done, workers=workers, scheduler=scheduler)
        except SweepError as e:  # the cluster's, one line
            raise KiaiError(f"{e}; " + (f"the cells finished ({', '.join(finished)}) are kept in {out}: running the "
                                        "same command again keeps them and solves the others" if finished else
                                        f"{out} left as it was")) from None
    return search.check_rows(table)


def late_game(out, cells=None, *, positions: int = LATE_POSITIONS, seed: int = LATE_SEED, budget: int = LATE_BUDGET,
              force: bool = False, progress: bool | Progress = False, workers: int | None = None,
              scheduler: str | None = None) -> pd.DataFrame:
    """The late-game ground truth, as `kiai solve --late-game`: `positions` positions of each cell
    (cells: '3-hard,4-easy' or [(3, 'hard'), ...]; None: 2 to 5 samurai at every level), each a turn's
    start 1 to 6 turns before the end of round 3 of a keyed game the default plays, solved with both of
    the solver's keys (the whole state, and R-B's canonical one) at `budget` nodes each; a position
    either key proves lost is also played by foresight, judge and the default. One row a position is
    written to `out` after each cell (.parquet; an existing one needs force), claimed for the whole run.
    Returns one row per cell (reports.search.late_game.truth_summary): each key's won, lost and
    unknown, the positions both resolved, and the checks that must be 0: `disagree` (the keys'
    answers differ), `failed` (a won line the engine does not replay as a win) and `lost_won` (a
    position proved lost that a player won); and R-B's nodes against the whole state's.
    workers/scheduler: on Dask, as bracket(); a cluster that fails ends in a KiaiError, the cells
    finished kept in `out`."""
    check_cluster(workers, scheduler)
    picked = check_late_game(out, cells, positions, seed, budget, force)
    with reporter(progress) as p:
        p.start("positions", positions * len(picked))
        try:
            table = late.late_game(out, picked, positions, seed, budget, force=force, workers=workers,
                                   scheduler=scheduler, on_row=lambda _row: p.advance(1))
        except SweepError as e:  # the cluster's, one line
            raise KiaiError(f"{e}; the cells finished, if any, are kept in {out}") from None
    return late.truth_summary(table)


def check_late_game(out, cells, positions: int, seed: int, budget: int, force: bool) -> list[tuple[int, str]]:
    """Check `kiai solve --late-game`'s input before any work (one-line errors naming the option)."""
    picked = parse_cells(cells, LATE_CELLS)
    check_seed(seed)
    check_games(positions, most=MAX_DEALS)
    check_budget(budget, "a position")
    check_output(Path(check_path(out, "--late-game")), "--late-game", force=force, suffixes=(".parquet",))
    return picked


def check_budget(budget, each: str = "a deal") -> int:
    """--budget: 1 to MAX_BUDGET nodes, a whole number."""
    budget = whole(budget, "--budget")
    if not 1 <= budget <= MAX_BUDGET:
        fail(f"--budget must be 1..{MAX_BUDGET:,} nodes {each}, got {budget}")
    return budget


def check_solve(samurai, level: str, games: int, seed: int, budget: int, order: str = "foresight") -> GameConfig:
    """Check `kiai solve`'s input before any work: one-line KiaiErrors naming the option."""
    level = name_text(level, "--difficulty").lower()  # any case, as every command takes it
    check_seed(seed)
    check_games(games, most=MAX_DEALS)
    check_budget(budget)
    if order not in ORDERS:
        fail(f"--order must be one of {', '.join(ORDERS)}, got '{order}'")
    try:
        config = table_config(samurai, level)
    except (ConfigError, ComponentsError) as e:
        fail(str(e))
    return config


def parse_cells(text, default=BRACKET_CELLS) -> list[tuple[int, str]]:
    """--cells '3-easy,4-Normal' as [(3, 'easy'), (4, 'normal')] (levels in any case, as every
    command takes them); None: `default` (the report's cells). One-line errors."""
    if text is None:
        return list(default)
    if not isinstance(text, str):  # the API's [(3, 'easy'), ...], checked as the command's text
        text = ",".join(cell_name(n, lv) for n, lv in text)
    cells = []
    for part in split(str(text), "--cells", "cell"):
        size, _, level = part.partition("-")
        level = level.strip().lower()
        if not size.strip().isdigit() or not 2 <= int(size) <= 7 or level not in LEVELS:
            fail(f"--cells takes team size-level pairs such as 3-easy,4-normal (2 to 7 samurai; "
                 f"{', '.join(LEVELS)}), got '{part}'")
        cells.append((int(size), level))
    if not cells:
        fail("--cells takes team size-level pairs such as 3-easy,4-normal")
    once([cell_name(n, lv) for n, lv in cells], "--cells")
    return cells


def check_bracket(out, cells, deals: int, seed: int, budget: int) -> list[tuple[int, str]]:
    """Check `kiai solve --bracket`'s input before any work (one-line errors naming the option)."""
    cells = parse_cells(cells)
    check_seed(seed)
    check_games(deals, most=MAX_DEALS)
    check_budget(budget)
    check_output(Path(check_path(out, "--bracket")), "--bracket", force=True, suffixes=(".parquet",))
    return cells
