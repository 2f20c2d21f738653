"""How hard at best: the share of deals a player who knew every card could win, its figures
(reports.page.bracket words them).

The solve stage of `make report` (`kiai solve --bracket`, reports.search.solve) writes solved.parquet
beside the results table: one row a deal, its answer won (a winning line, replayed by the engine),
lost (no line wins: proved) or unknown (the search's budget ran out). Per team size and level the
winnable share is bracketed by a 95% Clopper-Pearson interval whose lower limit counts the
unknown deals as lost and whose upper limit counts them as won (cell_brackets); with two samurai,
whose game has absent support tokens that the solver does not search, the deals it proved lost too. A cell is shown
when it holds at least MIN_DEALS deals and its interval is at most WIDEST either side; the others
are named with their unknown share. Each cell is shown with its own seed and budget: kiai solve
--bracket replaces a cell whole, and a table whose cell mixes two settings is refused, never pooled.
"""

from __future__ import annotations

import pandas as pd

from kiai.reports.findings.wording import fmt_pct
from kiai.reports.search.solved_table import one_setting_a_cell

SOLVED = "solved.parquet"  # its name in a report's folder
MIN_DEALS = 400
WIDEST = 0.05  # the largest half-width shown
# the team size played with absent support tokens (docs/rules.md R-18), which the solver does not search:
# a deal it proves lost without them may be won with them, so there a proof bounds nothing above
TOKENS_TEAM = 2


def bracket(won: int, unknown: int, deals: int, level: float = 0.95) -> tuple[float, float]:
    """The winnable share's interval: Clopper-Pearson's lower limit with the unknown deals lost,
    its upper limit with them won."""
    from kiai.simcore.stats import clopper_pearson

    return clopper_pearson(won, deals, level)[0], clopper_pearson(won + unknown, deals, level)[1]


def cell_brackets(df: pd.DataFrame) -> pd.DataFrame:
    """Per team size and level: its seed and budget, deals, won, lost, unknown, the interval (lo, hi)
    and whether it is shown, with why not ('why'). A cell solved with two settings is a ValueError."""
    one_setting_a_cell(df)
    rows = []
    for (n, level), part in df.groupby(["n_samurai", "difficulty"], sort=True):
        answer = part["answer"].astype(str)
        deals, won, lost = len(part), int((answer == "won").sum()), int((answer == "lost").sum())
        unknown = deals - won - lost  # a failed deal (an engine error) is neither won nor lost
        lo, hi = bracket(won, unknown + (lost if int(n) == TOKENS_TEAM else 0), deals)
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
