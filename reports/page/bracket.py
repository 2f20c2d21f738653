"""The report's part "How hard at best, knowing every card" (under "How hard is each level") and
its sentence of In short, from the solve stage's table (reports.findings.bracket gives the figures:
the share of deals a player who knew every card could win, per team size and level)."""

from __future__ import annotations

import pandas as pd

from kiai.reports.findings import reach_note
from kiai.reports.findings.bracket import MIN_DEALS, SOLVED, WIDEST, cell_brackets
from kiai.reports.findings.wording import fmt_pct
from kiai.reports.page.render import Page
from kiai.reports.page.scope import Inputs
from kiai.simcore.codes import LEVELS

TITLE = "How hard at best, knowing every card"


def _range(r) -> str:
    return f"{fmt_pct(r.lo)} to {fmt_pct(r.hi)}"


def section(page: Page, inputs: Inputs) -> None:
    """The part "How hard at best, knowing every card", under "How hard is each level" (bracket_blocks)."""
    page.add(*bracket_blocks(inputs.solved))


def bracket_blocks(solved: pd.DataFrame | None) -> list[tuple]:
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
                        "or by the cheating foresight's or the default's game on the same outcomes, and played by the engine), lost "
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
    absent = [level for level in LEVELS if level not in set(cells["difficulty"])]
    if absent:
        left.append(f"{' and '.join(level.capitalize() for level in absent)}, not solved: the stage may add no more "
                    "than a tenth of make report's time, and at these levels most deals stay unknown at any budget "
                    "that fits")
    if left:
        blocks.append(("p", "Left out: " + "; ".join(left) + "."))
    reach = reach_note.sentence(absent)
    if reach:
        blocks.append(("p", reach))
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
    from kiai.reports.findings.strongest import DEFAULT_PLAYER, STRONGEST_PLAYER

    return [(STRONGEST_PLAYER, strong), (DEFAULT_PLAYER, default)]
