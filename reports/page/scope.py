"""What every section of the page reads (Inputs), what the main rows of a report cover, in words,
for each section to say (Scope); and the small helpers the sections share."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from kiai.reports.findings import advice
from kiai.reports.findings.views import Views
from kiai.reports.findings.wording import fmt_pp


class Scope:
    """What the main rows cover, in words, for each section to say."""

    def __init__(self, main: pd.DataFrame, strategy: str):
        self.main, self.strategy = main, strategy
        self.grid = advice.grid_rows(main)  # what the sections count: one seating per line-up
        grid = advice.one_seating_per_lineup(main)
        self.games = grid["games"] if not grid.empty else pd.Series(dtype=int)
        self.seeds = sorted(set(main["seed"].astype(int))) if "seed" in main and not main.empty else []

    def seed(self) -> str:
        if not self.seeds:
            return "seed not recorded"
        if len(self.seeds) > 3:  # each seating on deals of its own (reports.playing.racing.seating_key)
            return f"each seating on deals of its own ({len(self.seeds):,} seeds: the table's seed column)"
        return f"seed {self.seeds[0]}" if len(self.seeds) == 1 else f"seeds {', '.join(map(str, self.seeds))}"

    def shared_deals(self) -> bool:
        """Whether line-ups of one level and team size met the same deals (a table from before each
        seating had deals of its own): their pooled rates are then less certain than their intervals."""
        g = self.grid
        if g.empty or "seed" not in g:
            return False
        per = g.groupby([g["difficulty"].astype(str), g["n_samurai"]])
        return bool((per["seed"].nunique() < per["seating"].nunique()).any())

    def deals(self) -> str:
        if self.shared_deals():
            return ("The line-ups of a team size met the same deals in this table, which correlates them: a rate "
                    "pooled over them is less certain than its interval says (sweeps give each seating deals of "
                    "its own; run them again to have intervals that hold).")
        return ("Each seating meets deals of its own, so a rate pooled over the line-ups of a team size averages "
                "independent games: its interval is that of all their games, and holds.")

    def line(self, what: str) -> str:
        return f"Scope: {what}; strategy `{self.strategy}`, the rules' own readings, {self.seed()}."

    def games_each(self) -> str:
        return f"{spread(self.games)} games each" if len(self.games) else "no games"

    def precision(self) -> str:
        if not len(self.games):
            return "The table holds no games of the main strategy."
        g = int(self.games.median())

        def half(rate):
            lo, hi, _ = advice.proportion_ci_arrays([round(rate * g)], [g])
            return (hi[0] - lo[0]) / 2

        return (f"Precision: a line-up plays {self.games_each()}, so one line-up's win rate is known to within "
                f"{fmt_pp(half(0.5), signed=False)} at 50% and {fmt_pp(half(0.1), signed=False)} at 10% (half "
                f"the width of its 95% interval). {self.deals()} Every interval on this page is a 95% interval, and "
                "a finding is stated only when the "
                'data separate it from the alternatives; otherwise the page says "within noise".')


@dataclass
class Inputs:
    """What the page's sections read, made once by reports.page.report.write_report: each section is a
    function (page, inputs) of reports.page.report.SECTIONS."""

    title: str  # the page's title
    everything: pd.DataFrame  # the whole table, the rows of every component file
    views: Views  # the rows of the main component file each part reads (reports.findings.views)
    scope: Scope  # what the main rows cover, in words
    notes: dict | None  # the caller's lines for the methods ({what: value})
    components: dict | None  # {sha256: name} of other component files (reports.page.house)
    solved: pd.DataFrame | None  # the solve stage's table (reports.page.bracket), None where there is none


def csv_columns(table: pd.DataFrame) -> pd.DataFrame:
    return table.rename(columns={"difficulty": "level", "rate": "win_rate", "lo": "ci_low", "hi": "ci_high"})


def spread(values: pd.Series) -> str:
    if values.empty:
        return "none"
    lo, hi = int(values.min()), int(values.max())
    return f"{lo:,}" if lo == hi else f"{lo:,} to {hi:,} (median {int(values.median()):,})"
