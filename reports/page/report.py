"""Write a sweep's results table as a report: chart images, report.md and report.html, and every
full table as CSV beside them.

The page answers a board-game group first: "In short" gives, per team size, how hard each level
is, the line-up to pick and to avoid, the seating of the pick, and what the common rule mistakes
change (reports.page.advice); the sections after it hold the charts and tables behind each answer,
each saying what it covers. The page is assembled once as a list of blocks and rendered twice,
so the Markdown and HTML versions cannot drift apart.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from kiai.reports.page import advice, agreement, bracket, charts, house, ladder, sections
from kiai.reports.page.wording import fmt_ci, fmt_pct, fmt_rate
from kiai.reports.files import atomic_write
from kiai.reports.page.glance import glance_blocks
from kiai.reports.page.in_short import in_short
from kiai.reports.page.methods import methods_blocks, rules_note
from kiai.reports.page.render import Page, to_html, to_markdown
from kiai.reports.page.scope import Scope, csv_columns
from kiai.reports.page.stronger import agreement_section, strongest_rates
from kiai.reports.page.table_check import check_results
from kiai.reports.page.your_table import form_html, markdown_note, table_data
from kiai.words import plural



# what load_results raises for a damaged or foreign file: OSError (no such file, a damaged page),
# ValueError (pyarrow's ArrowInvalid, pandas' ParserError, bytes that are no UTF-8) and pyarrow's
# other errors
UNREADABLE = (OSError, ValueError, pa.ArrowException)


def load_results(path) -> pd.DataFrame:
    """A results table from a .parquet or .csv file (UNREADABLE where it is none)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".parquet":  # the pandas entry of its metadata unused: a damaged one is no TypeError
        df = pq.read_table(path).to_pandas(ignore_metadata=True)
        return df.drop(columns=[c for c in df.columns if str(c).startswith("__index_level_")])  # a frame's index
    if suffix == ".csv":  # hashes as text: one made of digits alone would otherwise read as a number
        df = pd.read_csv(path, dtype={"components_sha256": str, "models": str, "engine": str, "outcomes": str})
        return df.fillna({c: "" for c in ("models", "outcomes") if c in df})  # an empty field reads as NaN
    raise ValueError(f"cannot read {path.name}: expected a .parquet or .csv file")


def main_rules(df: pd.DataFrame) -> str:
    """The rule readings the charts and tables show: the rules' own where the table has them, else
    the readings played on the most configurations."""
    from kiai.reports.playing.tables import DEFAULT_RULES

    readings = advice.rules_of(df)
    if readings.empty or (readings == DEFAULT_RULES).any():
        return DEFAULT_RULES
    return readings.value_counts().index[0]


@dataclass
class Views:
    """The rows each part of a report reads (views)."""

    rules: str  # the rule readings the charts and tables show
    shown: pd.DataFrame  # the rows of those readings, every strategy
    strategy: str  # the main strategy: kiai's default where the tables have it
    played: pd.DataFrame  # its rows, every reading, each configuration's longest run once
    main: pd.DataFrame  # its rows of the shown readings and the rules' default for absent tokens
    strong: pd.DataFrame  # kiai's strongest player's win rate by level and team size (stronger.strongest_rates)


def views(df: pd.DataFrame) -> Views:
    """The rows of a results table (or of several, concatenated) that the report's parts read."""
    # the charts and tables show one set of rule readings, the rules' own where the table has them
    # (a sweep over --rule holds several: pooling them would mix games of different rules); the
    # house-rules section compares the others with them
    rules = main_rules(df)
    shown = df[(advice.rules_of(df) == rules).to_numpy()]
    # one strategy, kiai's default where the table has it; the ladder (other strategies on a few
    # tables) has its own section
    strategy = ladder.main_strategy(shown)
    played = ladder.distinct_games(agreement.without_controls(df[df["strategy"].astype(str) == strategy]))
    main = ladder.distinct_games(agreement.without_controls(shown[shown["strategy"].astype(str) == strategy]))
    main = main.assign(difficulty=main["difficulty"].astype(str))
    # two samurai play with absent tokens by default; rows that depart from the default
    # only feed the note on them, unless the table holds nothing else
    default = main[advice.default_tokens(main).to_numpy()]
    main = default if not default.empty else main
    strong = strongest_rates(shown, advice.level_rates(advice.grid_rows(main)))
    return Views(rules, shown, strategy, played, main, strong)


def write_report(df: pd.DataFrame, out_dir, title: str = "kiai report", notes: dict | None = None,
                 components: dict | None = None, solved: pd.DataFrame | None = None) -> dict:
    """Write charts (PNG and SVG), tables (CSV), report.md and report.html into out_dir.
    `components`: {sha256: name} of other component files the House rules section compares
    (reports.page.house; the table's rows of other files are shown there only). `solved`: the solve
    stage's table (reports.page.bracket), None where the folder has none.

    Returns {file name: path} for every file written. Charts with nothing to draw are left
    out with a note in the pages.
    """
    from matplotlib import rc_context

    check_results(df)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    page = Page(out)
    everything = df
    df = df[house.of_main(df).to_numpy()]  # the games of other component files: reports.page.house's alone
    v = views(df)
    rules, shown, strategy, played, main = v.rules, v.shown, v.strategy, v.played, v.main
    scope = Scope(main, strategy)

    page.add(("h1", title),
             ("p", f"{summary(everything)} Unless a section says otherwise, the samurai are played by kiai's "
                   f"strategy `{strategy}`."))
    # the first screen answers first: the grid, then the group's own line-up; the detail follows
    page.add(*glance_blocks(advice.level_rates(scope.grid), v.strong))
    page.add(("h2", "Your table"),
             ("html", form_html(table_data(scope.grid, main, shown, strategy, played)), [("note", markdown_note())]))
    page.add(("p", scope.precision()), ("toc",))
    with rc_context(charts.STYLE):
        strong = v.strong
        _in_short(page, played, strategy, scope, strong, solved)
        _levels(page, scope, strong)
        page.add(*bracket.section(solved))
        sections.lineups(page, main, scope)
        sections.seating(page, main, scope)
        sections.house_rules(page, played, strategy, scope)
        house.add_section(page, everything, strategy, components)
        sections.skill_ladder(page, shown)
        agreement_section(page, shown, main, strategy)
        sections.losses_and_grades(page, main, scope)
    page.add(*methods_blocks(shown, notes or {}, rules_note(everything, rules)))

    for name, text in (("report.md", to_markdown(page.blocks)), ("report.html", to_html(page.blocks, title))):
        path = out / name
        atomic_write(path, lambda tmp, text=text: tmp.write_text(text, encoding="utf-8"))
        page.written[name] = path
    return page.written


def summary(df: pd.DataFrame) -> str:
    """The header's count: every configuration once, its games once (the tables' count:
    ladder.distinct_games keeps the longer of two runs of the same deals)."""
    df = ladder.distinct_games(df)
    return (
        f"{plural(len(df), 'configuration')}, {plural(int(df['games'].sum()), 'game')}, "
        f"{int(df['wins'].sum()):,} won."
    )


def _in_short(page: Page, df: pd.DataFrame, strategy: str, scope: Scope, strong: pd.DataFrame,
              solved: pd.DataFrame | None = None) -> None:
    page.add(("h2", "In short"))
    by_size = in_short(df, strategy, strong)
    if not by_size:
        page.add(("note", "The table holds no games of the rules' own readings to advise on."))
        return
    page.add(("p", scope.line(
        "every team size and level played; a team size's line-ups and seating compared at the hardest level "
        f"where it still wins at least {fmt_pct(advice.ADVICE_MIN_RATE)} of its games, each line-up seated in its "
        "own order") + " Seats are listed clockwise from any samurai: rotations are the same seating."
        # who the two players are, and how the strongest's rate is estimated: under the headline
        + (" Who kiai's two players are: How hard is each level." if not strong.empty else "")))
    at_best = bracket.in_short_players(strong, advice.level_rates(scope.grid))
    for n, lines in by_size.items():
        lines = lines + bracket.in_short_line(solved, n, at_best)
        page.add(("h3", f"{n} samurai" + (" (absent tokens on, R-18)" if n == 2 else "")), ("ul", lines))


def _players(strong: pd.DataFrame) -> str:
    """Who kiai's default and strongest players are, and how the strongest's rates are estimated."""
    from kiai.reports.page.strongest import DEFAULT_PLAYER, STRONGEST_PLAYER, default_strategy, who

    deals = strong["games"] / strong["lineups"]
    return (f"{DEFAULT_PLAYER} is `{default_strategy()}`; {STRONGEST_PLAYER} is {who(strong['n_samurai'].unique())}. "
            f"The strongest plays many times slower, so it plays only a few deals of each line-up "
            f"({int(deals.min()):,} to {int(deals.max()):,}, until its rate is known within two points, or to be under 2%), beside the "
            "default on the same deals; its rate is read on its own games, with its 95% interval, and where that "
            "interval holds the default's rate it is within noise of the default's.")


def _levels(page: Page, scope: Scope, strong: pd.DataFrame) -> None:
    """The headline: the win rate by level and team size, kiai's default player's and its strongest's."""
    from kiai.reports.page.strongest import DEFAULT_PLAYER, STRONGEST_PLAYER

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
    from kiai.reports.page.strongest import DEFAULT_PLAYER, STRONGEST_PLAYER

    def cells(table: pd.DataFrame, level: str, keep=None) -> dict:
        part = table[table["difficulty"] == level]
        return {f"{int(r.n_samurai)} samurai": f"{fmt_rate(r.wins, r.games) if keep is None else fmt_pct(r.rate)} "
                                               f"({fmt_ci(r.lo, r.hi)})" for r in part.itertuples() if keep is None or keep(r)}

    sizes = [f"{int(n)} samurai" for n in sorted(set(rates["n_samurai"]))]
    rows = []
    for level in advice.levels_present(rates["difficulty"]):
        rows.append({"level": level, "player": DEFAULT_PLAYER, **cells(rates, level)})
        won = set(rates.loc[(rates["difficulty"] == level) & (rates["wins"] > 0), "n_samurai"])
        mine = cells(strong, level, lambda r: r.wins > 0 or r.n_samurai in won)
        if mine:
            rows.append({"level": "", "player": STRONGEST_PLAYER, **mine})
    return pd.DataFrame(rows, columns=["level", "player", *sizes]).fillna("-")
