"""How far the solver reaches at Hard and Heroic, where make report brackets nothing: `make reach`.

The solve stage of make report solves Easy and Normal only (its time is bounded). At Hard and
Heroic the search rarely proves a deal lost (no relaxation found scales: docs/strategies.md), so
no upper limit is known there; what can be shown is the share the search wins and how that share
grows with the nodes it is given. This study solves REACH_DEALS deals of every team size at Hard
and Heroic (`kiai solve --bracket` into a table of its own, resumable cell by cell) at REACH_BUDGET
nodes a deal, and stores per cell the deals won within each of REACH_MARKS nodes (a deal the
search won with at most that many; one that foresight or the default won on the same outcomes
counts at every mark), the deals proved lost and those left unknown, in reports/findings/reach.json
with the commit and the engine it was run on. The report quotes it as evidence of the search's
reach, not as a bound: an unknown deal may be won or lost (reports.findings.reach_note).

The marks are read from one search of REACH_BUDGET nodes a deal: a search given fewer nodes from
the start sizes its transposition tables to them (strategies.run.solve.table_bits), so its count
of nodes can differ a little from the larger search's.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from kiai.reports.search.solve import BRACKET_SEED, FINISHERS, solve_bracket

REACH_CELLS = tuple((n, level) for level in ("hard", "heroic") for n in range(2, 8))
REACH_DEALS = 100
REACH_BUDGET = 2_000_000
REACH_MARKS = (2_000, 20_000, 200_000, 2_000_000)
PROGRESS_SECONDS = 30


def summarize(table: pd.DataFrame, marks=REACH_MARKS) -> list[dict]:
    """Per cell of a solved table (one row a deal): its settings, deals, proved lost, unknown, and
    the deals won within each mark that does not pass the cell's budget."""
    rows = []
    for (n, level), part in table.groupby(["n_samurai", "difficulty"], sort=True):
        answer = part["answer"].astype(str)
        budget = int(part["budget"].iloc[0])
        won = answer == "won"
        by_finisher = won & part["found_by"].astype(str).isin(FINISHERS)
        within = {str(m): int((by_finisher | (won & (part["nodes"] <= m))).sum()) for m in marks if m <= budget}
        rows.append({"n_samurai": int(n), "difficulty": str(level), "seed": int(part["seed"].iloc[0]),
                     "budget": budget, "deals": len(part), "won": int(won.sum()),
                     "lost": int((answer == "lost").sum()), "unknown": int((answer == "unknown").sum()),
                     "won_within": within})
    return rows


def run(table, cells=REACH_CELLS, *, deals: int = REACH_DEALS, budget: int = REACH_BUDGET, seed: int = BRACKET_SEED,
        workers: int | None = None, progress=None) -> dict:
    """Solve the cells into `table` (cells already there with these settings are kept) and
    summarize them at the marks below the budget and at the budget; progress(row) follows each deal."""
    solved = solve_bracket(table, cells, deals=deals, seed=seed, budget=budget, on_deal=progress, workers=workers)
    marks = [m for m in REACH_MARKS if m < budget] + [budget]  # the budget itself is always one
    return {"seed": seed, "deals": deals, "budget": budget, "marks": marks,
            "engine": str(solved["engine"].iloc[0]), "cells": summarize(solved, marks)}


def table_text(result: dict) -> str:
    """The result as a Markdown table: per cell, the deals won within each mark, lost and unknown."""
    marks = result["marks"]
    head = ["team size", "level", "deals", *(f"won within {m:,} nodes" for m in marks), "lost (proved)", "unknown"]
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for c in result["cells"]:
        cols = [f"{c['n_samurai']} samurai", c["difficulty"], f"{c['deals']:,}",
                *(f"{c['won_within'][str(m)]:,}" for m in marks), f"{c['lost']:,}", f"{c['unknown']:,}"]
        lines.append("| " + " | ".join(cols) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """`python -m kiai.reports.search.reach`: solve the study's cells, print its table, store it."""
    import argparse
    import sys
    import time

    from kiai.reports.search.stored import claimed, code_commit, store

    ap = argparse.ArgumentParser(prog="python -m kiai.reports.search.reach", description=__doc__.split("\n\n")[0])
    ap.add_argument("--table", type=Path, default=Path("kiai-report/reach.parquet"),
                    help="the solved table (kept cell by cell: the same command again solves only what is missing)")
    ap.add_argument("--out", type=Path, help="store the result here as JSON")
    ap.add_argument("--deals", type=int, default=REACH_DEALS, help=f"deals a cell (default {REACH_DEALS})")
    ap.add_argument("--budget", type=int, default=REACH_BUDGET, help=f"nodes a deal (default {REACH_BUDGET:,})")
    ap.add_argument("--workers", type=int, help="play on a local Dask cluster of N worker processes")
    a = ap.parse_args(argv)
    if a.deals < 1 or a.budget < 1 or (a.workers is not None and a.workers < 1):
        ap.exit(2, "reach: --deals, --budget and --workers must be at least 1\n")
    for path in (a.table, a.out):  # before any deal, not after an hour of them
        if path is not None and not path.parent.is_dir():
            ap.exit(2, f"reach: {path}: no folder {path.parent}\n")
    done, said = [], [time.monotonic()]

    def tick(_row):  # every 50 deals, and at least every PROGRESS_SECONDS (a 7-samurai Heroic deal takes seconds)
        done.append(1)
        if len(done) % 50 == 0 or time.monotonic() - said[0] >= PROGRESS_SECONDS:
            said[0] = time.monotonic()
            print(f"reach: {len(done)} deals solved", file=sys.stderr, flush=True)

    commit = code_commit()  # the code that solves, read before the run
    with claimed("reach", ("--table", a.table), ("--out", a.out)):
        result = store(run(a.table, deals=a.deals, budget=a.budget, workers=a.workers, progress=tick), commit, a.out)
    print(table_text(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
