"""How hard at best: the share of deals a player who knew every card could win.

The solve stage of `make report` (`kiai solve --bracket`, kiai.bracket) writes solved.parquet
beside the results table: one row a deal, its answer won (a winning line, replayed by the engine),
lost (no line wins: proved) or unknown (the search's budget ran out). Per team size and level the
winnable share is bracketed by a 95% Clopper-Pearson interval whose lower limit counts the
unknown deals as lost and whose upper limit counts them as won (cell_brackets). A cell is shown
when it holds at least MIN_DEALS deals and its interval is at most WIDEST either side; the others
are named with their unknown share. Each cell is shown with its own seed and budget: kiai solve
--bracket replaces a cell whole, and a table whose cell mixes two settings is refused, never pooled.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pandas as pd

from kiai.reports.files import atomic_write
from kiai.reports.page.wording import fmt_pct
from kiai.simcore.codes import LEVELS

SOLVED = "solved.parquet"  # its name in a report's folder
COLUMNS = ("n_samurai", "difficulty", "lineup", "seed", "game", "budget", "deals", "answer", "nodes")
SETTINGS = ("seed", "budget", "deals")  # what a cell was solved with: one of each a cell, never two pooled
# the kinds of the table's columns (kiai.states.columns_doc); the later ones are not in every table
KINDS = {"n_samurai": "integer", "difficulty": "string", "lineup": "string", "seed": "integer", "game": "integer",
         "budget": "integer", "deals": "integer", "answer": "string", "nodes": "integer"}
LATER = {"found_by": ("string", "null"), "seconds": ("number", "null"), "cell_seconds": ("number", "null"),
         "engine": ("string", "null"), **{f"won_{p}": ("boolean", "null") for p in ("default", "judge", "foresight")}}
ANSWERS = ("won", "lost", "unknown", "failed")
MIN_DEALS = 400
WIDEST = 0.05  # the largest half-width shown
TITLE = "How hard at best, knowing every card"


@functools.cache  # one schema object: kiai.states keeps its validator
def _schema() -> dict:
    from kiai.states import columns_schema

    schema = columns_schema(KINDS)
    schema["properties"].update(columns_schema(LATER)["properties"])
    return schema


def read_solved(path, mixed: bool = False) -> pd.DataFrame:
    """The solve stage's table; a ValueError in one line where it is not one (a column of the wrong
    kind of value named; the callers name the file). A cell whose rows were solved with two
    settings is refused unless `mixed` (kiai.bracket solves it again)."""
    import pyarrow
    import pyarrow.parquet as pq

    from kiai.states import StateError, check, columns_doc

    try:
        columns = columns_doc(pq.read_schema(path))
        df = pd.read_parquet(path) if set(COLUMNS) <= set(columns) else None
    except (pyarrow.ArrowException, OSError, ValueError) as e:  # what pyarrow raises for a file that is no table
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise ValueError(f"cannot read it: {first}") from None
    missing = [c for c in COLUMNS if c not in columns]
    if missing:
        raise ValueError(f"not a solved table (kiai solve --bracket writes one): no column {', '.join(missing)}")
    try:
        check(columns, _schema(), path, "solved table")
    except StateError as e:  # a ValueError whose callers name the file, as for the others here
        raise ValueError(str(e).removeprefix(f"{path}: ")) from None
    odd = sorted(set(df["answer"].astype(str)) - set(ANSWERS))
    if odd:
        raise ValueError(f"an answer must be one of {', '.join(ANSWERS)}, got {odd[0]!r}")
    if not mixed:
        _one_setting_a_cell(df)
    return df


def _one_setting_a_cell(df: pd.DataFrame) -> None:
    """Refuse (ValueError) a cell whose rows were solved with two settings: its deals are not one sample."""
    keys = [c for c in (*SETTINGS, "engine") if c in df]
    for (n, level), part in df.groupby(["n_samurai", "difficulty"], sort=True):
        two = [c for c in keys if part[c].nunique() > 1]
        if two:
            raise ValueError(f"{n} samurai {level} holds deals solved with two settings ({', '.join(two)} differ); "
                             f"solve the cell again: kiai solve --bracket FILE --cells {n}-{level}")


def write_solved_table(df: pd.DataFrame, path) -> None:
    """Write the table whole or not at all (reports.files.atomic_write)."""
    atomic_write(Path(path), lambda tmp: df.to_parquet(tmp, index=False))


def bracket(won: int, unknown: int, deals: int, level: float = 0.95) -> tuple[float, float]:
    """The winnable share's interval: Clopper-Pearson's lower limit with the unknown deals lost,
    its upper limit with them won."""
    from kiai.simcore.stats import clopper_pearson

    return clopper_pearson(won, deals, level)[0], clopper_pearson(won + unknown, deals, level)[1]


def cell_brackets(df: pd.DataFrame) -> pd.DataFrame:
    """Per team size and level: its seed and budget, deals, won, lost, unknown, the interval (lo, hi)
    and whether it is shown, with why not ('why'). A cell solved with two settings is a ValueError."""
    _one_setting_a_cell(df)
    rows = []
    for (n, level), part in df.groupby(["n_samurai", "difficulty"], sort=True):
        answer = part["answer"].astype(str)
        deals, won, lost = len(part), int((answer == "won").sum()), int((answer == "lost").sum())
        unknown = deals - won - lost  # a failed deal (an engine error) is neither won nor lost
        lo, hi = bracket(won, unknown, deals)
        why = ""
        if deals < MIN_DEALS:
            why = f"only {deals} deals solved (at least {MIN_DEALS} are shown)"
        elif (hi - lo) / 2 > WIDEST:
            why = (f"{fmt_pct(unknown / deals)} of its deals unknown: the interval is wider than "
                   f"±{WIDEST * 100:.0f} points")
        rows.append({"n_samurai": int(n), "difficulty": str(level), "seed": int(part["seed"].iloc[0]),
                     "budget": int(part["budget"].iloc[0]), "deals": deals, "won": won, "lost": lost,
                     "unknown": unknown, "lo": lo, "hi": hi, "shown": not why, "why": why})
    return pd.DataFrame(rows, columns=["n_samurai", "difficulty", "seed", "budget", "deals", "won", "lost", "unknown",
                                       "lo", "hi", "shown", "why"])


def _range(r) -> str:
    return f"{fmt_pct(r.lo)} to {fmt_pct(r.hi)}"


def section(solved: pd.DataFrame | None) -> list[tuple]:
    """The blocks under "How hard is each level": the interval per shown cell, the cells left out and
    why; "not solved" where the report's folder holds no solved table."""
    blocks: list[tuple] = [("h3", TITLE)]
    if solved is None or solved.empty:
        return blocks + [("note", f"Not solved: the report's folder holds no {SOLVED} (the solve stage of "
                                  "make report writes it; kiai solve --bracket).")]
    cells = cell_brackets(solved)
    budgets = sorted(set(cells["budget"]))
    one = len(budgets) == 1 and cells["seed"].nunique() == 1  # else each cell's own are named with it
    stopped = f"{budgets[0]:,} turns played" if len(budgets) == 1 else "each cell's budget of turns played"
    blocks.append(("p", "Fix every random outcome of a deal in advance (each round's deck, each farmstead and family "
                        "lost, the first player) and the game is a puzzle with one answer. kiai's solver searches every "
                        "decision the rules allow, seeing every card: a deal is won (a winning line, found by the search "
                        "or by the cheating foresight's game on the same outcomes, and played by the engine), lost "
                        f"(no line wins: proved) or unknown (the search stopped after {stopped}). The "
                        "share of deals winnable this way bounds every player, honest or not. Its 95% "
                        "interval counts the unknown deals as lost for the lower limit and as won for the upper; "
                        f"a cell is shown where it holds at least {MIN_DEALS} deals and the interval reaches at most "
                        f"{WIDEST * 100:.0f} points either side."))
    shown = cells[cells["shown"]]
    if not shown.empty:
        blocks.append(("table", pd.DataFrame([{
            "team size": f"{r.n_samurai} samurai", "level": r.difficulty, "seed": f"{r.seed}",
            "budget": f"{r.budget:,}", "deals": f"{r.deals:,}",
            "won": f"{r.won:,}", "lost (proved)": f"{r.lost:,}", "unknown": f"{r.unknown:,}",
            "winnable, knowing every card": _range(r)} for r in shown.itertuples()])))
    out = cells[~cells["shown"]]
    left = [f"{r.n_samurai} samurai {r.difficulty} ({'' if one else f'seed {r.seed}, {r.budget:,} turns: '}{r.why})"
            for r in out.itertuples()]
    absent = [level.capitalize() for level in LEVELS if level not in set(cells["difficulty"])]
    if absent:
        left.append(f"{' and '.join(absent)}, not solved: the stage may add no more than a tenth of make report's "
                    "time, and at these levels most deals stay unknown at any budget that fits")
    if left:
        blocks.append(("p", "Left out: " + "; ".join(left) + "."))
    if (shown["n_samurai"] == 2).any():
        blocks.append(("p", "Two samurai are solved without absent tokens (R-18): a deal won without them is won "
                            "with them (use none), so the lower limit holds for the game as played."))
    return blocks


def _player_rate(n: int, level: str, players) -> str:
    """'; kiai's strongest player wins M%' from the first of players ((who, rates), ...) with the cell."""
    for who, rates in players:
        if rates is None or rates.empty:
            continue
        row = rates[(rates["n_samurai"] == n) & (rates["difficulty"].astype(str) == level)]
        if not row.empty:
            return f"; {who} wins {fmt_pct(float(row['rate'].iloc[0]))}"
    return ""


def in_short_line(solved: pd.DataFrame | None, n: int, players=()) -> list[str]:
    """The In short sentence of team size n, where a cell of it is shown: at least L% of its deals can
    be won knowing every card, so at most 1 - L% are lost whatever is played, against the rate of the
    first of `players` ((who, level_rates or strongest_rates), ...) that has the cell."""
    if solved is None or solved.empty:
        return []
    cells = cell_brackets(solved)
    mine = cells[(cells["n_samurai"] == n) & cells["shown"]]
    parts = []
    for r in mine.itertuples():
        lost = f"at most {fmt_pct(1 - r.lo)} lost whatever is played"
        if r.lost:
            lost += f", {fmt_pct(r.lost / r.deals)} proved so"
        parts.append(f"{r.difficulty.capitalize()} {_range(r)} ({lost}{_player_rate(n, r.difficulty, players)})")
    return ["How hard at best, knowing every card, the share of deals that can be won: " + "; ".join(parts) + "."
            ] if parts else []


def in_short_players(strong: pd.DataFrame | None, default: pd.DataFrame | None) -> list[tuple]:
    """in_short_line's players: kiai's strongest where it played the cell, else its default."""
    from kiai.reports.page.strongest import DEFAULT_PLAYER, STRONGEST_PLAYER

    return [(STRONGEST_PLAYER, strong), (DEFAULT_PLAYER, default)]
