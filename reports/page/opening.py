"""The page's opening sections: its title and count, the precision of its figures with the contents,
"In short" and the headline "How hard is each level" (reports.page.report lists every section in
page order)."""

from __future__ import annotations

import pandas as pd

from kiai.reports.findings import advice
from kiai.reports.findings import in_short as short
from kiai.reports.findings.views import distinct_counts
from kiai.reports.findings.wording import fmt_ci, fmt_pct, fmt_rate
from kiai.reports.page import bracket, charts
from kiai.reports.page.render import Page
from kiai.reports.page.scope import Inputs, csv_columns
from kiai.words import plural


def title(page: Page, inputs: Inputs) -> None:
    """The page's title, and its count of configurations, games and wins."""
    page.add(("h1", inputs.title),
             ("p", f"{summary(inputs.everything)} Unless a section says otherwise, the samurai are played by kiai's "
                   f"strategy `{inputs.views.strategy}`."))


def precision(page: Page, inputs: Inputs) -> None:
    """How closely a line-up's win rate is known, then the contents."""
    page.add(("p", inputs.scope.precision()), ("toc",))


def summary(df: pd.DataFrame) -> str:
    """The header's count: every configuration once, its games once, as the tables and the methods
    count them (views.distinct_counts)."""
    counts = distinct_counts(df)
    return (f"{plural(counts.configurations, 'configuration')}, {plural(counts.games, 'game')}, "
            f"{counts.wins:,} won.")


def in_short(page: Page, inputs: Inputs) -> None:
    """The section "In short": per team size, the sentences a group reads first (reports.findings.in_short)."""
    df, strategy, scope = inputs.views.played, inputs.views.strategy, inputs.scope
    strong, solved = inputs.views.strong, inputs.solved
    page.add(("h2", "In short"))
    by_size = short.in_short(df, strategy, strong)
    if not by_size:
        page.add(("note", "The table holds no games of the rules' own readings to advise on."))
        return
    page.add(("p", scope.line(
        "every team size and level played; a team size's line-ups and seating compared at the hardest level "
        f"where it still wins at least {fmt_pct(advice.ADVICE_MIN_RATE)} of its games, each line-up seated in its "
        "own order") + " Seats are listed clockwise from any samurai: rotations are the same seating."
        # who the two players are, and how the strongest's rate is estimated: under the headline
        + (" Who kiai's two players are: How hard is each level." if not strong.empty else "")))
    # the strongest's rate only where it was told apart from the default (strongest.told_apart)
    at_best = bracket.in_short_players(strong[strong["told_apart"].astype(bool)] if "told_apart" in strong else strong,
                                       advice.level_rates(scope.grid))
    for n, lines in by_size.items():
        lines = lines + bracket.in_short_line(solved, n, at_best)
        page.add(("h3", f"{n} samurai" + (" (absent tokens on, R-18)" if n == 2 else "")), ("ul", lines))


def _players(strong: pd.DataFrame) -> str:
    """Who kiai's default and strongest players are, and how the strongest's rates are estimated."""
    from kiai.reports.findings.strongest import (DEFAULT_PLAYER, NOT_TOLD_APART, STRONGEST_PLAYER, TOLD_APART_RULE,
                                                 default_strategy, who)

    deals = strong["games"] / strong["lineups"]
    return (f"{DEFAULT_PLAYER} is `{default_strategy()}`; {STRONGEST_PLAYER} is {who(strong['n_samurai'].unique())}. "
            f"The strongest plays many times slower, so it plays only a few deals of each line-up "
            f"({int(deals.min()):,} to {int(deals.max()):,}, until its rate is known within two points, or to be under 2%), beside the "
            "default on the same deals; its rate is read on its own games, with its 95% interval. "
            f"The table says \"{NOT_TOLD_APART}\" instead of naming it the stronger {TOLD_APART_RULE}: "
            "nothing measured a stronger player there.")


def how_hard(page: Page, inputs: Inputs) -> None:
    """The headline: the win rate by level and team size, kiai's default player's and its strongest's."""
    from kiai.reports.findings.strongest import DEFAULT_PLAYER, STRONGEST_PLAYER

    scope, strong = inputs.scope, inputs.views.strong
    page.add(("h2", "How hard is each level"))
    grid = scope.grid
    rates = advice.level_rates(grid)
    if rates.empty:
        page.add(("note", "Not drawn: the table holds no games."))
        return
    page.add(("p", scope.line(f"every level and team size played, all line-ups pooled (each seated in its own "
                              f"order, {scope.games_each()})") + (f" {_players(strong)}" if not strong.empty else "")))
    page.chart("winrate_by_level", charts.plot_winrate_by_level, "Win rate by level and team size", grid,
               strong if not strong.empty else None)
    page.add(("p", f"Each point is the share of games won at one level by one team size, all its line-ups "
                   f"pooled, with its 95% interval: filled, {DEFAULT_PLAYER}, with its rate beside it (wins/games "
                   f"where wins are few)"
                   + (f"; open and dashed, just left of it, {STRONGEST_PLAYER}, where it won a game on its own deals "
                      "(the table gives it wherever either player won a game)" if not strong.empty else "")
                   + ". The scale is logarithmic, so that Easy's tens of percent and Heroic's hundredths read "
                   "on one chart: each step up the axis is ten times the win rate. An open triangle on the axis "
                   "is a level and team size that won no game."))
    page.add(("table", _level_table(rates, strong)))
    both = pd.concat([rates.assign(player="default"), strong.assign(player="strongest")], ignore_index=True)
    page.csv("level_rates.csv", csv_columns(both), "win rate per level and team size, for both players")


def _level_table(rates: pd.DataFrame, strong: pd.DataFrame) -> pd.DataFrame:
    """A row per level and player (the default's, then the strongest's where either won a game), a
    column per team size: the rate and its 95% interval."""
    from kiai.reports.findings.strongest import DEFAULT_PLAYER, NOT_TOLD_APART, STRONGEST_PLAYER

    def cells(table: pd.DataFrame, level: str, keep=None) -> dict:
        part = table[table["difficulty"] == level]
        return {f"{int(r.n_samurai)} samurai": (f"{fmt_rate(r.wins, r.games)} ({fmt_ci(r.lo, r.hi)})" if keep is None
                                                else f"{fmt_pct(r.rate)} ({fmt_ci(r.lo, r.hi)})" if r.told_apart
                                                else f"{NOT_TOLD_APART} ({fmt_pct(r.rate)}; {fmt_ci(r.lo, r.hi)})")
                for r in part.itertuples() if keep is None or keep(r)}

    sizes = [f"{int(n)} samurai" for n in sorted(set(rates["n_samurai"]))]
    rows = []
    for level in advice.levels_present(rates["difficulty"]):
        rows.append({"level": level, "player": DEFAULT_PLAYER, **cells(rates, level)})
        won = set(rates.loc[(rates["difficulty"] == level) & (rates["wins"] > 0), "n_samurai"])
        mine = cells(strong, level, lambda r: r.wins > 0 or r.n_samurai in won)
        if mine:
            rows.append({"level": "", "player": STRONGEST_PLAYER, **mine})
    return pd.DataFrame(rows, columns=["level", "player", *sizes]).fillna("-")
