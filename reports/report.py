"""Write a sweep's results table as a report: chart images, report.md and report.html, and every
full table as CSV beside them.

The page answers a board-game group first: "In short" gives, per team size, how hard each level
is, the line-up to pick and to avoid, the seating of the pick, and what the common rule mistakes
change (reports.advice); the sections after it hold the charts and tables behind each answer,
each saying what it covers. The page is assembled once as a list of blocks and rendered twice,
so the Markdown and HTML versions cannot drift apart.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import numpy as np
import pandas as pd

from kiai.reports import advice, agreement, charts, house, ladder
from kiai.reports.advice import fmt_ci, fmt_p, fmt_pct, fmt_pp, fmt_pp_ci, fmt_rate, names
from kiai.reports.charts import NoChartData
from kiai.reports.words import plural
from kiai.simcore.codes import SAMURAI
from kiai.simcore.components import load_components

REQUIRED = ("difficulty", "n_samurai", "lineup", "strategy", "games", "wins")
IMAGE_FORMATS = ("png", "svg")
PNG_DPI = 150
CSS_PX_PER_INCH = 96  # an image is shown at its figure's size, so that its text reads at the size set
COMPACT = 3  # rows kept at each end of a long table shown on the page; the CSV holds them all
SEATING_ROWS = 10  # seatings table: the line-ups where seating matters most, shown on the page

def load_results(path) -> pd.DataFrame:
    """A results table from a .parquet or .csv file."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".parquet":
        return pd.read_parquet(path)
    if suffix == ".csv":  # hashes as text: one made of digits alone would otherwise read as a number
        return pd.read_csv(path, dtype={"components_sha256": str, "engine": str})
    raise ValueError(f"cannot read {path.name}: expected a .parquet or .csv file")


def rule_readings(df: pd.DataFrame) -> pd.Series:
    """Each row's rule readings (the `rules` column of a sweep table): 'default' where the table
    predates the column or leaves it empty, since those rows played the rules' own readings."""
    from kiai.reports.sweep import DEFAULT_RULES

    if "rules" not in df:
        return pd.Series(DEFAULT_RULES, index=df.index, dtype=object)
    return df["rules"].astype(object).where(df["rules"].notna(), DEFAULT_RULES).astype(str)


def main_rules(df: pd.DataFrame) -> str:
    """The rule readings the charts and tables show: the rules' own where the table has them, else
    the readings played on the most configurations."""
    from kiai.reports.sweep import DEFAULT_RULES

    readings = rule_readings(df)
    if readings.empty or (readings == DEFAULT_RULES).any():
        return DEFAULT_RULES
    return readings.value_counts().index[0]


def check_results(df: pd.DataFrame) -> None:
    """Raise ValueError (one line) unless df has the columns a report needs and every row could
    have been played (_check_counts, _check_names). Checked before anything is written; the
    message names the first bad row (counted from 1) and its column."""
    missing = [c for c in REQUIRED if c not in df]
    if missing:
        raise ValueError(f"results table lacks column(s): {', '.join(missing)}")
    if df.empty:
        raise ValueError("the results table has no rows")
    _check_counts(df)
    _check_names(df)


def _check_counts(df: pd.DataFrame) -> None:
    """At least one game, 2 to 7 samurai, and whole counts of games that add up: no more wins
    than games, and, where the table has them, outcomes that sum to the games, scores to the wins
    and losses by round to the games lost."""
    for col, low, high, why in (("games", 1, np.inf, "of at least 1"), ("wins", 0, np.inf, "of at least 0"),
                                ("n_samurai", 2, len(SAMURAI), f"from 2 to {len(SAMURAI)}")):  # fmt: skip
        _refuse(df, col, ~_whole(df[col], low, high), f"must be a whole number {why}")
    games, wins = pd.to_numeric(df["games"]), pd.to_numeric(df["wins"])
    _refuse(df, "wins", wins > games, "exceeds the row's games")
    groups = {prefix: [c for c in df if c.startswith(prefix)] for prefix in ("out_", "score_", "lost_round_")}
    for col in [*(c for cols in groups.values() for c in cols), *(["stalled_games"] if "stalled_games" in df else [])]:
        _refuse(df, col, ~_whole(df[col], 0, np.inf) | (pd.to_numeric(df[col], errors="coerce") > games),
                "must be a whole number from 0 to the row's games")  # fmt: skip
    for prefix, total, what in (("out_", games, "games"), ("score_", wins, "wins"), ("lost_round_", games - wins,
                                                                                      "games lost")):  # fmt: skip
        if groups[prefix]:
            _refuse(df, groups[prefix][0], df[groups[prefix]].astype(float).sum(axis=1) != total,
                    f"and the other {prefix}* columns do not add up to the row's {what}")


def _whole(values: pd.Series, low: float, high: float) -> pd.Series:
    """Where `values` are whole numbers from low to high."""
    x = pd.to_numeric(values, errors="coerce").astype(float)
    return np.isfinite(x) & x.between(low, high) & (x == x.round())


def _check_names(df: pd.DataFrame) -> None:
    """A level, a strategy, known samurai (distinct, n_samurai of them) in the line-up and the
    seating, true or false in the flags, rule readings kiai has, and, where the row says it was
    played with kiai's own component data, one of its levels."""
    from kiai.simcore.readings import ReadingError, parse_rule_items

    for col in ("difficulty", "lineup", "strategy"):
        _refuse(df, col, ~df[col].map(lambda v: isinstance(v, str) and bool(v.strip())), "must be a name")
    names = df["lineup"].map(lambda v: sorted(x.strip() for x in v.split(",")))
    _refuse(df, "lineup", ~names.map(lambda n: len(set(n)) == len(n) and set(n) <= set(SAMURAI)),
            f"must name distinct samurai among {', '.join(SAMURAI)}")
    _refuse(df, "n_samurai", names.map(len) != pd.to_numeric(df["n_samurai"]),
            "differs from the samurai its lineup names")
    if "seating" in df:
        seated = df["seating"].map(lambda v: sorted(x.strip() for x in v.split(",")) if isinstance(v, str) else None)
        _refuse(df, "seating", seated.notna() & (seated != names), "seats other samurai than its lineup names")
    for col in ("honest", "absent_tokens"):
        if col in df:
            _refuse(df, col, ~df[col].map(lambda v: isinstance(v, (bool, np.bool_))), "must be true or false")

    def reading(text: str) -> bool:
        try:
            return text == "default" or bool(parse_rule_items(text.split(",")))
        except ReadingError:
            return False

    _refuse(df.assign(rules=rule_readings(df)), "rules", ~rule_readings(df).map(reading),
            "must be 'default' or rule readings NAME=VALUE,... (`kiai rules` lists them)")
    comp = load_components()
    ours = df["components_sha256"] == comp.sha256 if "components_sha256" in df else pd.Series(True, index=df.index)
    _refuse(df, "difficulty", ours & ~df["difficulty"].isin(list(comp.levels)),
            f"is no level of kiai's component data ({', '.join(comp.levels)})")


def _refuse(df: pd.DataFrame, col: str, bad: pd.Series, why: str) -> None:
    """ValueError naming the first row where `bad` holds, its column and value, and why."""
    if bad.any():
        i = int(bad.to_numpy().argmax())
        value = df[col].iloc[i]
        value = value.item() if isinstance(value, np.generic) else value  # 100.5, not np.float64(100.5)
        raise ValueError(f"row {i + 1}: column '{col}' is {value!r}; it {why}")


class _Page:
    """The blocks of the page, and the files written beside it."""

    def __init__(self, out: Path):
        self.out, self.blocks, self.written = out, [], {}

    def add(self, *blocks: tuple) -> None:
        self.blocks.extend(blocks)

    def figure(self, stem: str, fig, alt: str) -> None:
        for fmt in IMAGE_FORMATS:
            path = self.out / f"{stem}.{fmt}"
            fig.savefig(path, dpi=PNG_DPI if fmt == "png" else None)
            self.written[path.name] = path
        self.add(("img", stem, alt, round(float(fig.get_size_inches()[0]) * CSS_PX_PER_INCH)))

    def csv(self, name: str, table: pd.DataFrame, what: str) -> None:
        path = self.out / name
        table.to_csv(path, index=False)
        self.written[name] = path
        self.add(("csv", name, what))

    def chart(self, stem: str, plot, alt: str, *args) -> bool:
        """Draw `plot(*args)` as `stem`, or a note saying why it was not drawn."""
        try:
            fig = plot(*args)
        except NoChartData as exc:
            self.add(("note", f"Not drawn: {exc}."))
            return False
        self.figure(stem, fig, alt)
        return True


def write_report(df: pd.DataFrame, out_dir, title: str = "kiai report", notes: dict | None = None,
                 components: dict | None = None) -> dict:
    """Write charts (PNG and SVG), tables (CSV), report.md and report.html into out_dir.
    `components`: {sha256: name} of other component files the House rules section compares
    (reports.house; the table's rows of other files are shown there only).

    Returns {file name: path} for every file written. Charts with nothing to draw are left
    out with a note in the pages.
    """
    from matplotlib import rc_context

    check_results(df)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    page = _Page(out)
    everything = df
    df = df[house.of_main(df).to_numpy()]  # the games of other component files: reports.house's alone
    # the charts and tables show one set of rule readings, the rules' own where the table has them
    # (a sweep over --rule holds several: pooling them would mix games of different rules); the
    # house-rules section compares the others with them
    rules = main_rules(df)
    shown = df[(rule_readings(df) == rules).to_numpy()]
    # one strategy, kiai's default where the table has it; the ladder (other strategies on a few
    # tables) has its own section
    strategy = ladder.main_strategy(shown)
    played = ladder.distinct_games(df[df["strategy"].astype(str) == strategy])
    main = ladder.distinct_games(shown[shown["strategy"].astype(str) == strategy])
    main = main.assign(difficulty=main["difficulty"].astype(str))
    # two samurai play with absent tokens by default (R-18); rows that depart from the default
    # only feed the note on them, unless the table holds nothing else
    default = main[advice.default_tokens(main).to_numpy()]
    main = default if not default.empty else main
    scope = _Scope(main, strategy)

    page.add(("h1", title),
             ("p", f"{_summary(everything)} Unless a section says otherwise, the samurai are played by kiai's "
                   f"strategy `{strategy}`."),
             ("p", scope.precision()), ("toc",))
    with rc_context(charts.STYLE):
        _in_short(page, played, strategy, scope)
        _levels(page, main, scope)
        _lineups(page, main, scope)
        _seating(page, main, scope)
        _house_rules(page, played, strategy, scope)
        house.add_section(page, everything, strategy, components)
        _skill_ladder(page, shown)
        _agreement(page, shown, main, strategy)
        _losses_and_grades(page, main, scope)
    page.add(*_methods_blocks(shown, notes or {}, _rules_note(everything, rules)))

    for name, text in (("report.md", _to_markdown(page.blocks)), ("report.html", _to_html(page.blocks, title))):
        path = out / name
        path.write_text(text, encoding="utf-8")
        page.written[name] = path
    return page.written


# ------------------------------------------------------------------------------ content

LADDER_CAPTION = (
    "Skill ladder",
    "For each level and team size, the win rate of each strategy on the same tables and deals: "
    "`reference` (the plain baseline), `keeper`, `learned`, `selfplay` (kiai's default, which weighs its answers "
    "by a value of the table learned by self-play), the `lookahead` and `judge`, the strong tier, which plays "
    "each answer two turns on and values the table it reaches (both on fewer games, since they play many times "
    "slower than `selfplay`), and, as a ceiling, "
    "`foresight`, which cheats by seeing every hidden card. The climb from `reference` to `judge` is what "
    "skill wins; what even `foresight` loses is the deal.",
)

# heading and how-to-read text of the charts drawn from every level's games, keyed by their file names
CAPTIONS = {
    "loss_causes": (
        "How games were lost",
        "Stacks show lost games as a share of all games, split by the round in which they were "
        "lost (left) and by the first cause in time (right); the whisker on top is the 95% interval of "
        "the loss rate.",
    ),
    "score_grades": (
        "Scores and grades of won games",
        "Each panel shows how a level's wins spread over grades (the score followed by the "
        "level's + marks), as a share of that level's wins with 95% intervals; each panel has its own scale.",
    ),
}


class _Scope:
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
        return f"seed {self.seeds[0]}" if len(self.seeds) == 1 else f"seeds {', '.join(map(str, self.seeds))}"

    def line(self, what: str) -> str:
        return f"Scope: {what}; strategy `{self.strategy}`, the rules' own readings, {self.seed()}."

    def games_each(self) -> str:
        return f"{_spread(self.games)} games each" if len(self.games) else "no games"

    def precision(self) -> str:
        if not len(self.games):
            return "The table holds no games of the main strategy."
        g = int(self.games.median())

        def half(rate):
            lo, hi, _ = advice.proportion_ci_arrays([round(rate * g)], [g])
            return (hi[0] - lo[0]) / 2

        return (f"Precision: a line-up plays {self.games_each()}, so one line-up's win rate is known to within "
                f"{fmt_pp(half(0.5), signed=False)} at 50% and {fmt_pp(half(0.1), signed=False)} at 10% (half "
                "the width of its 95% interval); rates pooled over the line-ups of a team size are known far more "
                "closely. Every interval on this page is a 95% interval, and a finding is stated only when the "
                'data separate it from the alternatives; otherwise the page says "within noise".')


def _summary(df: pd.DataFrame) -> str:
    return (
        f"{plural(len(df), 'configuration')}, {plural(int(df['games'].sum()), 'game')}, "
        f"{int(df['wins'].sum()):,} won."
    )


def _in_short(page: _Page, df: pd.DataFrame, strategy: str, scope: _Scope) -> None:
    page.add(("h2", "In short"))
    by_size = advice.in_short(df, strategy)
    if not by_size:
        page.add(("note", "The table holds no games of the rules' own readings to advise on."))
        return
    page.add(("p", scope.line(
        "every team size and level played; a team size's line-ups and seating compared at the hardest level "
        f"where it still wins at least {fmt_pct(advice.ADVICE_MIN_RATE)} of its games, each line-up seated in its "
        "own order") + " Seats are listed clockwise from any samurai: rotations are the same seating."))
    for n, lines in by_size.items():
        page.add(("h3", f"{n} samurai" + (" (absent tokens on, R-18)" if n == 2 else "")), ("ul", lines))


def _levels(page: _Page, main: pd.DataFrame, scope: _Scope) -> None:
    page.add(("h2", "How hard is each level"))
    grid = scope.grid
    rates = advice.level_rates(grid)
    if rates.empty:
        page.add(("note", "Not drawn: the table holds no games."))
        return
    page.add(("p", scope.line(f"every level and team size played, all line-ups pooled (each seated in its own "
                              f"order, {scope.games_each()})")))
    page.chart("winrate_by_level", charts.plot_winrate_by_level, "Win rate by level and team size", grid)
    page.add(("p", "Each point is the share of games won at one level by one team size, all its line-ups "
                   "pooled, with its 95% interval; the figure beside it is the rate (wins/games where wins are "
                   "few). The scale is logarithmic, so that Easy's tens of percent and Heroic's hundredths read "
                   "on one chart: each step up the axis is ten times the win rate. An open triangle on the axis "
                   "is a level and team size that won no game."))
    table = rates.assign(cell=[f"{fmt_rate(r.wins, r.games)} ({fmt_ci(r.lo, r.hi)})" for r in rates.itertuples()])
    pivot = table.pivot(index="difficulty", columns="n_samurai", values="cell")
    pivot = pivot.reindex(advice.levels_present(rates["difficulty"]))
    pivot.columns = [f"{int(n)} samurai" for n in pivot.columns]
    page.add(("table", pivot.reset_index().rename(columns={"difficulty": "level"}).fillna("not played")))
    page.csv("level_rates.csv", _csv_columns(rates), "win rate per level and team size")


def _csv_columns(table: pd.DataFrame) -> pd.DataFrame:
    return table.rename(columns={"difficulty": "level", "rate": "win_rate", "lo": "ci_low", "hi": "ci_high"})


def _lineups(page: _Page, main: pd.DataFrame, scope: _Scope) -> None:
    page.add(("h2", "Which line-up"))
    grid = scope.grid
    if grid.empty:
        page.add(("note", "Not drawn: the table holds no games."))
        return
    page.add(("p", scope.line(f"every line-up played, at every level, each seated in its own order "
                              f"({scope.games_each()})")))
    page.add(("h3", "Each samurai's effect"))
    if page.chart("samurai_effect", charts.plot_samurai_effects, "Each samurai's effect", grid):
        page.add(("p", "For each level and team size, a cell is the win rate of the line-ups that include the "
                       "samurai minus that of the line-ups without him, in percentage points: purple helps, orange "
                       "hurts. A cell marked * (in bold) has a 95% interval (Newcombe's) that excludes zero; the "
                       "others are within noise. Seven samurai have no line-up without any of them."))
        effects = charts.samurai_effects(grid)
        page.csv("samurai_effects.csv", effects.drop(columns="variant").rename(columns={"difficulty": "level"}),
                 "each samurai's effect, with its interval")
    rates = advice.lineup_rates(grid)
    for n in sorted(set(rates["n_samurai"].astype(int))):
        count = rates.loc[rates["n_samurai"] == n, "lineup"].nunique()
        page.add(("h3", f"Line-ups of {n} samurai"))
        if count < 2:
            only = rates[rates["n_samurai"] == n].iloc[0]["lineup"]
            page.add(("p", f"{n} samurai make a single line-up ({names(only)}); its rates are in the level table."))
            continue
        if page.chart(f"lineups_{n}", charts.plot_lineups, f"Line-ups of {n} samurai", grid, n):
            page.add(("p", f"All {count} line-ups of {n} samurai at each level: a dot is a line-up's win rate, the "
                           "bar its 95% interval, best on top. A panel is ranked only where the line-ups differ (a "
                           "chi-square test, p < 0.05); where the best's and the worst's intervals do not overlap, "
                           "they are drawn green and orange. Names are shortened to their first three letters."))
        page.add(("details", f"Top and bottom {COMPACT} line-ups of {n} samurai per level",
                  _compact_lineups(rates[rates["n_samurai"] == n])))
    page.csv("lineups.csv", _csv_columns(rates), "every line-up at every level")


def _compact_lineups(rates: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for level in advice.levels_present(rates["difficulty"]):
        part = rates[rates["difficulty"] == level].sort_values(["rate", "lineup"], ascending=[False, True])
        part = part.reset_index(drop=True)
        if part["wins"].sum() == 0:  # nothing to rank: say so rather than list line-ups at 0
            rows.append({"level": level, "rank": "-", "line-up": f"none won ({len(part)} line-ups)",
                         "win rate": f"0 of {int(part['games'].sum()):,}", "95% interval": ""})
            continue
        keep = sorted(set(range(min(COMPACT, len(part)))) | set(range(max(len(part) - COMPACT, 0), len(part))))
        for i in keep:
            r = part.iloc[i]
            rows.append({"level": level, "rank": f"{i + 1} of {len(part)}", "line-up": names(r["lineup"]),
                         "win rate": fmt_rate(r["wins"], r["games"]), "95% interval": fmt_ci(r["lo"], r["hi"])})
    return pd.DataFrame(rows)


def _seating_scope(main: pd.DataFrame) -> tuple[str, int] | None:
    """The level and team size with the most line-ups played in several seatings."""
    from kiai.simcore.seatings import seating_key

    if "seating" not in main or main.empty:
        return None
    d = main.assign(seat=main["seating"].map(seating_key))
    several = d.groupby(["difficulty", "n_samurai", "lineup"])["seat"].nunique()
    several = several[several >= 2].reset_index().groupby(["difficulty", "n_samurai"]).size()
    if several.empty:
        return None
    order = {lv: i for i, lv in enumerate(advice.levels_present(several.index.get_level_values(0)))}
    best = sorted(several.items(), key=lambda kv: (-kv[1], order[kv[0][0]], kv[0][1]))[0][0]
    return str(best[0]), int(best[1])


def _pick_seatings(main: pd.DataFrame, grid: pd.DataFrame) -> tuple[list[dict], list[pd.DataFrame]]:
    """A row per team size of three or more: its pick's seatings (advice.seating_advice), and the
    seatings themselves; `grid` is main's one seating per line-up (advice.grid_rows)."""
    rates, lineups = advice.level_rates(grid), advice.lineup_rates(grid)
    rows, every = [], []
    for n in sorted(set(rates["n_samurai"].astype(int)) - {2}):
        level, pick, _ = advice.the_pick(main, rates, lineups, n)
        if pick is None:
            continue
        seats = advice.seating_rates(main, level, pick)
        sa = advice.seating_advice(seats, n)
        every.append(seats.assign(level=level, n_samurai=n, lineup=pick))
        row = {"samurai": n, "level": level, "line-up": names(pick),
               "seatings": f"{sa['seatings']:,} of {sa['expected']:,}"}
        if sa["seatings"] < 2:
            rows.append({**row, "best seating": "", "worst seating": "", "gain": "not played", "p": ""})
            continue
        short = n >= 4
        rows.append({**row,
                     "best seating": f"{names(sa['best']['seating'], short)}: "
                                     f"{fmt_rate(sa['best']['wins'], sa['best']['games'])}",
                     "worst seating": f"{names(sa['worst']['seating'], short)}: "
                                      f"{fmt_rate(sa['worst']['wins'], sa['worst']['games'])}",
                     "gain": f"{fmt_pp(sa['diff'], signed=False)} ({fmt_pp_ci(sa['lo'], sa['hi'])})"
                             + ("" if sa["separated"] else ", within noise"),
                     "p": fmt_p(sa["p"])})
    return rows, every


def _seating(page: _Page, main: pd.DataFrame, scope: _Scope) -> None:
    page.add(("h2", "Seating"), ("h3", "The line-up to pick, in every seating"))
    rows, every = _pick_seatings(main, scope.grid)
    if rows:
        page.add(("p", scope.line("for each team size, the line-up to pick (In short) in every seating played, "
                                  "at the level its line-ups are compared; two samurai have a single seating")),
                 ("table", pd.DataFrame(rows)),
                 ("p", "Gain: the best seating's win rate minus the worst's, with Newcombe's 95% interval; p: a "
                       "chi-square test that all the seatings win equally often. With many seatings the best and "
                       "the worst are partly luck, so the gain counts only when p is below 0.05. Four or more "
                       "names are shortened to three letters, seated clockwise."))
        page.csv("pick_seatings.csv", _csv_columns(pd.concat(every, ignore_index=True)),
                 "every seating of each line-up to pick")
    else:
        page.add(("note", "No table: no team size of three or more samurai was played."))

    page.add(("h3", "Neighbour effects"))
    where = _seating_scope(main)
    if where is None:
        page.add(("note", "Not drawn: no line-up was played in two or more seatings at one level."))
        return
    level, n = where
    part = main[(main["difficulty"] == level) & (main["n_samurai"] == n)]
    seatings = charts.best_worst_seatings(part)
    page.add(("p", scope.line(f"{level}, {n} samurai, the {plural(len(seatings), 'line-up')} played in several "
                              f"seatings there ({plural(int(seatings['seatings'].sum()), 'seating')}, "
                              f"{_spread(part['games'])} games each)")))
    page.chart("neighbour_effect", charts.plot_neighbour_effects, "Neighbour effects", part)
    page.add(("p", "Row A, column B is how much a seating gains (percentage points, against the mean of the same "
                   "line-up's seatings) when A sits directly to B's left, so that A plays right after B. Purple "
                   "helps, orange hurts, grey had no seating with that pair. A cell marked * (in bold) differs from "
                   "zero (a t-test over the seatings that put A left of B, Holm-adjusted over the cells); the "
                   "others are within noise."))
    tests = charts.neighbour_effect_tests(part)
    if tests:
        mean, count, p = next(iter(tests.values()))
        cells = pd.DataFrame({"a_left_of_b": [a for a in mean.index for _ in mean.columns],
                              "b": [b for _ in mean.index for b in mean.columns],
                              "effect_pp": mean.to_numpy().ravel(), "seatings": count.to_numpy().ravel(),
                              "p_holm": p.to_numpy().ravel()}).dropna(subset=["effect_pp"])
        page.csv("neighbour_effects.csv", cells, "neighbour effects with their p-values")
    page.add(("h3", f"Seatings of every line-up of {n} samurai at {level}"))
    ordered = seatings.sort_values(["spread (pp)", "line-up"], ascending=[False, True]).reset_index(drop=True)
    shown = _seatings_table(ordered, n)
    clear = int((ordered["p (Holm)"].astype(float) < 0.05).sum())
    page.add(("p", scope.line(f"{level}, {n} samurai, every seating of each line-up listed") + " "
                   f"The line-ups where seating matters most come first (by the spread between their best and "
                   f"worst seating); {clear} of {len(ordered)} differ beyond noise (a chi-square test that all "
                   "seatings win equally often, Holm-adjusted over the line-ups, below 0.05). Seats clockwise, "
                   "names shortened to three letters."),
             ("table", shown.head(SEATING_ROWS)))
    if len(shown) > SEATING_ROWS:
        page.add(("details", f"All {len(shown)} line-ups", shown))
    page.csv("seatings.csv", ordered.drop(columns="strategy"), "best and worst seating of every line-up")


def _seatings_table(table: pd.DataFrame, n: int) -> pd.DataFrame:
    short = n >= 4
    return pd.DataFrame({
        "line-up": [names(x, short) for x in table["line-up"]],
        "best seating": [names(x, short) for x in table["best seating"]],
        "best": [fmt_pct(x / 100) for x in table["best (%)"]],
        "worst seating": [names(x, short) for x in table["worst seating"]],
        "worst": [fmt_pct(x / 100) for x in table["worst (%)"]],
        "spread": [fmt_pp(x / 100, signed=False) for x in table["spread (pp)"]],
        "p (Holm)": [fmt_p(x) for x in table["p (Holm)"]],
    })


def _house_rules(page: _Page, played: pd.DataFrame, strategy: str, scope: _Scope) -> None:
    page.add(("h2", "House rules and common mistakes"))
    rules = advice.house_rules(played, strategy)
    if rules.empty:
        page.add(("note", "Not drawn: the table holds no games under another rule reading paired with the "
                          "rules' own (make report's default sweep plays them)."))
    else:
        changed = played[(advice.rules_of(played) != advice.DEFAULT_RULES).to_numpy()]
        levels = ", ".join(advice.levels_present(rules["difficulty"]))
        page.add(("p", f"Scope: {levels}; {plural(changed['lineup'].nunique(), 'line-up')} "
                       f"({int(rules['lineups'].max())} at most per team size), each seated in its own order, every "
                       f"reading on the same deals as the rules' own ({_spread(changed['games'])} games each); "
                       f"strategy `{strategy}`, {scope.seed()}. Line-ups: "
                       + "; ".join(names(x, short=True) for x in sorted(set(changed["lineup"].astype(str)), key=lambda x: (len(x), x)))
                       + " (the first three letters of each name)."))
        items = []
        for name, (v, short, plain) in advice.PLAIN_READINGS.items():
            if (rules["reading"] == name).any():
                value = rules.loc[rules["reading"] == name, "value"].iloc[0]
                items.append(f"{v}, {short} (`--rule {name}={value}`): {plain}.")
        page.add(("ul", items))
        page.chart("house_rules", charts.plot_house_rules, "House rules and common mistakes", rules)
        page.add(("p", "A cell is the win rate under the reading minus under the rules' own, in percentage points, "
                       "the same line-ups on the same deals: purple makes the game easier, orange harder. A cell "
                       "marked * (in bold) has a 95% interval (Newcombe's) that excludes zero. That interval "
                       "ignores the pairing of the deals, so it is wider than need be: a cell within noise may still "
                       "hide a small effect, which `kiai compare --rules` can test on one line-up with a paired "
                       "test."))
        table = pd.DataFrame({
            "reading": [f"{r.v} {r.reading}={r.value}" for r in rules.itertuples()],
            "level": rules["difficulty"], "samurai": rules["n_samurai"].astype(int),
            "rules' own": [fmt_rate(r.wins_default, r.games) for r in rules.itertuples()],
            "changed": [fmt_rate(r.wins_changed, r.games) for r in rules.itertuples()],
            "difference": [f"{fmt_pp(r.diff)} ({fmt_pp_ci(r.lo, r.hi)})" + ("" if r.separated else ", within noise")
                           for r in rules.itertuples()],
        })
        page.add(("details", "Every reading, level and team size", table))
        page.csv("house_rules.csv", rules.rename(columns={"difficulty": "level"}), "every reading against the rules' own")
    off = advice.tokens_off(played, strategy)
    if not off.empty:
        page.add(("h3", "Two samurai without absent tokens"),
                 ("p", "With two samurai the rules hand out the absent samurai's support tokens (R-18), and every "
                       "2-samurai result on this page plays with them. Without them (`--absent-tokens off`), the "
                       f"same {int(off['lineups'].max())} line-ups, each seated in its own order, on the same deals "
                       f"({_spread(off['games'] // off['lineups'])} games each), win:"),
                 ("table", pd.DataFrame({
                     "level": off["difficulty"],
                     "tokens on (the rules)": [fmt_rate(r.wins_on, r.games) for r in off.itertuples()],
                     "tokens off": [fmt_rate(r.wins_off, r.games) for r in off.itertuples()],
                     "difference": [f"{fmt_pp(r.diff)} ({fmt_pp_ci(r.lo, r.hi)})" for r in off.itertuples()],
                 })))


def _skill_ladder(page: _Page, shown: pd.DataFrame) -> None:
    heading, text = LADDER_CAPTION
    page.add(("h2", heading))
    try:
        table = ladder.ladder_table(shown)
    except NoChartData as exc:
        page.add(("note", f"Not drawn: {exc} (make report plays the presets ladder and ladder-planners)."))
        return
    games = [c for c in table if c.endswith(" games")]
    rows = ladder.ladder_rows(shown)
    seeds = sorted(set(rows["seed"].astype(int))) if "seed" in rows else []
    page.add(("p", f"Scope: every level played, {', '.join(map(str, sorted(set(table['samurai']))))} samurai, "
                   f"{int(table['line-ups'].max())} line-ups per level and team size, seated in their own order; "
                   "games per strategy, level and team size: " + "; ".join(f"`{c[: -len(' games')]}` {ladder.spread(table[c])}"
                                                       for c in games)
                   + f"; the rules' own readings, seed {', '.join(map(str, seeds)) or 'not recorded'}."))
    page.chart("skill_ladder", ladder.plot_ladder, heading, shown)
    page.add(("p", text + " The scale is logarithmic and shared by the levels; an open triangle on the axis is a "
                          "strategy that won no game there."), ("table", table.drop(columns=games)))
    page.csv("ladder.csv", _csv_columns(ladder.ladder_rates(shown)), "the skill ladder's rates")


AGREEMENT_HEADING = "Does it hold for stronger players?"


def _agreement(page: _Page, shown: pd.DataFrame, main: pd.DataFrame, strategy: str) -> None:
    """Three findings of the page played again by the strong tier on the same deals
    (reports.agreement): the win rate by level and team size, each samurai's effect, the best and
    worst line-ups; their rank correlations, and a flag on each part the two reverse beyond noise."""
    strong = agreement.STRONG
    page.add(("h2", AGREEMENT_HEADING))
    pairs = agreement.paired_rows(shown, strategy, strong)
    if pairs.empty:
        page.add(("note", f"Not drawn: no table was played by both `{strategy}` and `{strong}` on the same deals "
                          "(make report plays the preset agreement)."))
        return
    rates, orders = agreement.levels(pairs, strategy, strong)
    cell = agreement.effect_cell(pairs)
    effects = every = shown_lineups = reversals = None
    if cell is not None:
        level, n = cell
        effects = agreement.effects(pairs, level, n, strategy, strong)
        every, shown_lineups, reversals = agreement.lineups(pairs, main, level, n, strategy, strong)
    per_cell = pairs[pairs["strategy"] == strategy].groupby(["difficulty", "n_samurai"])["lineup"].nunique()
    seeds = sorted(set(pairs["seed"].astype(int))) if "seed" in pairs else []
    others = per_cell.drop(index=[cell]) if cell is not None and len(per_cell) > 1 else per_cell
    tables = f"up to {plural(int(others.max()), 'line-up')} per level and team size" + (
        f", and all {int(per_cell[cell])} line-ups of {cell[1]} samurai at {cell[0].capitalize()}"
        if cell is not None and len(per_cell) > 1 else "")
    page.add(
        ("p", f"Every finding above is `{strategy}`'s, kiai's default player. Some could come from how it plays "
              "rather than from the game: a samurai it plays badly looks weak. So part of them is played again by "
              f"`{strong}`, the strong tier (the strongest honest rung of the skill ladder: it tries each answer "
              "to a question and keeps the one whose table a value learned by self-play rates best), and set "
              f"beside `{strategy}` on the same tables and the same deals. Where the two agree, the finding holds "
              f"for stronger players; where they part, it is `{strategy}`'s, not the game's."),
        ("p", f"Scope: {plural(len(pairs) // 2, 'table')} of the main sweep, each played by `{strategy}` and "
              f"`{strong}` on the same {_spread(pairs['games'])} games: {tables}, each seated in its own order; "
              f"the rules' own readings, seed {', '.join(map(str, seeds)) or 'not recorded'}."),
        ("ul", _agreement_summary(rates, orders, effects, every, reversals, cell, strategy, strong)),
        ("p", f"FLAG: reversed marks a comparison that `{strategy}` and `{strong}` each tell apart from noise "
              "but in opposite directions: both 95% intervals of the difference exclude zero, on opposite sides. "
              "\"holds\": both tell it apart, the same way; \"X within noise\": only the other one does. The "
              "intervals (Newcombe's) ignore that the games share their deals, which makes them wider than paired "
              "ones: a flag needs a clear difference both ways. The rank correlation is Spearman's, with its "
              "p-value."))
    where = f" at {cell[0]}, {cell[1]} samurai" if cell is not None else ""
    page.chart("agreement", agreement.plot_agreement, AGREEMENT_HEADING, rates, effects, shown_lineups, strategy,
               strong, where)
    page.add(("p", f"Left, each level and team size: `{strong}`'s win rate against `{strategy}`'s, on the same "
                   "tables and deals, where either won a game (log scales; above the dashed diagonal the strong "
                   "tier wins more; an open triangle won no game for one of them)."
                   + (" Middle and right: each samurai's effect and the best and worst line-ups, each strategy's "
                      "value with its 95% interval." if cell is not None else "")))

    page.add(("h3", f"How hard, played by {strong}"))
    table = rates.assign(cell=[f"{fmt_rate(r.wins_a, r.games_a)} → {fmt_rate(r.wins_b, r.games_b)}"
                               for r in rates.itertuples()])
    pivot = table.pivot(index="difficulty", columns="n_samurai", values="cell")
    pivot = pivot.reindex(advice.levels_present(rates["difficulty"]))
    pivot.columns = [f"{int(n)} samurai" for n in pivot.columns]
    page.add(("p", f"Each cell: `{strategy}`'s win rate → `{strong}`'s, the line-ups of the scope pooled."),
             ("table", pivot.reset_index().rename(columns={"difficulty": "level"}).fillna("not played")))
    page.add(*_reversal_blocks(orders, "order", "pairs of team sizes at one level or of levels at one team size",
                               strategy, strong))
    page.csv("agreement_levels.csv", _suffixed(_csv_columns(rates), strategy, strong),
             f"win rate per level and team size, {strategy} and {strong}")
    page.csv("agreement_orders.csv", _suffixed(orders, strategy, strong),
             "every order of two team sizes at one level or of two levels at one team size")
    if cell is None:
        page.add(("note", "No level and team size holds four or more line-ups played by both, so each samurai's "
                          "effect and the best and worst line-ups are not compared."))
        return
    level, n = cell
    page.add(("h3", f"Each samurai's effect, played by {strong}"),
             ("p", f"At {level.capitalize()} with {n} samurai: the win rate of the line-ups with him minus those "
                   "without, in percentage points, with its 95% interval."),
             ("table", pd.DataFrame({
                 "samurai": effects["samurai"],
                 strategy: [f"{fmt_pp(r.diff_a)} ({fmt_pp_ci(r.ci_low_a, r.ci_high_a)})" for r in effects.itertuples()],
                 strong: [f"{fmt_pp(r.diff_b)} ({fmt_pp_ci(r.ci_low_b, r.ci_high_b)})" for r in effects.itertuples()],
                 "agree?": effects["status"],
             })))
    page.csv("agreement_effects.csv", _suffixed(effects, strategy, strong),
             f"each samurai's effect, {strategy} and {strong}")
    count, rows = len(every), list(shown_lineups.itertuples())
    page.add(("h3", f"Best and worst line-ups, played by {strong}"),
             ("p", f"The {agreement.TOP} best and {agreement.TOP} worst of the {count} line-ups of {n} samurai at "
                   f"{level.capitalize()} by the main sweep's `{strategy}` win rates, on "
                   f"{_spread(every['games_main'].dropna())} games each; then each strategy on the games both played, "
                   f"and the line-up's rank among the {count} for `{strong}`."),
             ("table", pd.DataFrame({
                 "line-up": [names(x) for x in shown_lineups["lineup"]],
                 "main sweep": [_ranked(r.wins_main, r.games_main, r.rank_main, count) for r in rows],
                 strategy: [f"{fmt_rate(r.wins_a, r.games_a)} ({fmt_ci(r.lo_a, r.hi_a)})" for r in rows],
                 strong: [f"{fmt_rate(r.wins_b, r.games_b)} ({fmt_ci(r.lo_b, r.hi_b)})" for r in rows],
                 f"{strong}'s rank": [f"{int(r.rank_b)} of {count}" for r in rows],
             })))
    page.add(*_reversal_blocks(reversals.assign(first=reversals["first"].map(names),
                                                second=reversals["second"].map(names)),
                               "order", "pairs of these line-ups", strategy, strong))
    page.csv("agreement_lineups.csv", _suffixed(every, strategy, strong),
             f"every line-up of {n} samurai at {level}, {strategy} and {strong}")


def _suffixed(table: pd.DataFrame, strategy: str, strong: str) -> pd.DataFrame:
    """reports.agreement's columns for a CSV: the suffixes _a and _b as the strategies' names."""
    return table.rename(columns=lambda c: c[:-2] + "_" + strategy if c.endswith("_a")
                        else c[:-2] + "_" + strong if c.endswith("_b") else c)


def _ranked(wins, games, rank, count: int) -> str:
    if pd.isna(games) or pd.isna(rank):
        return "not played"
    return f"{fmt_rate(wins, games)} ({int(rank)} of {count})"


def _agreement_summary(rates, orders, effects, every, reversals, cell, strategy: str, strong: str) -> list[str]:
    """One line per finding: its rank correlation, and how its comparisons fared."""
    won = rates[(rates["wins_a"] > 0) | (rates["wins_b"] > 0)]  # both at 0: a tie that says nothing of the order
    rho = agreement.rank_correlation(won["rate_a"], won["rate_b"])
    more = [agreement.sign(*advice.difference(r.wins_b, r.games_b, r.wins_a, r.games_a)[1:])
            for r in rates.itertuples()]
    lines = [f"How hard: {agreement.fmt_rho(*rho, 'levels and team sizes where either won a game')}; "
             f"{_tally(orders, 'orders')} "
             f"`{strong}` wins more than `{strategy}` beyond noise at {more.count(1)} of the {len(rates)} levels and "
             f"team sizes, less at {more.count(-1)}."]
    if cell is not None:
        level, n = cell
        rho = agreement.rank_correlation(effects["diff_a"], effects["diff_b"])
        lines.append(f"Each samurai's effect at {level.capitalize()}, {n} samurai: "
                     f"{agreement.fmt_rho(*rho, 'samurai')}; {_tally(effects, 'signs')}")
        rho = agreement.rank_correlation(every["rate_a"], every["rate_b"])
        best, worst = every.iloc[0], every.iloc[-1]
        lines.append(f"Best and worst line-ups at {level.capitalize()}, {n} samurai: "
                     f"{agreement.fmt_rho(*rho, 'line-ups')}; the main sweep's best ({names(best['lineup'])}) "
                     f"ranks {int(best['rank_b'])} of {len(every)} for `{strong}`, its worst "
                     f"({names(worst['lineup'])}) {int(worst['rank_b'])}; among the {agreement.TOP} best and "
                     f"{agreement.TOP} worst, {_tally(reversals, 'orders')}")
    return lines


def _tally(table: pd.DataFrame, what: str) -> str:
    """'2 of 96 orders reversed beyond noise (flagged); 80 hold, 14 within noise for one or both.'"""
    status = table["status"]
    flagged = int((status == agreement.REVERSED).sum())
    holds = int((status == agreement.HOLDS).sum())
    head = (f"{flagged} of {len(table)} {what} reversed beyond noise (flagged)" if flagged
            else f"none of {len(table)} {what} reversed beyond noise")
    return (f"{head}; {holds} hold{'s' if holds == 1 else ''}, {len(table) - flagged - holds} within noise for one "
            "or both.")


def _reversal_blocks(table: pd.DataFrame, what: str, among: str, strategy: str, strong: str) -> list[tuple]:
    """The comparisons flagged (reversed beyond noise), as a list, or a line saying there are none."""
    flagged = table[table["status"] == agreement.REVERSED]
    if table.empty:
        return []
    if flagged.empty:
        return [("p", f"No {what} of the {len(table)} {among} is reversed beyond noise.")]
    return [("p", f"{agreement.REVERSED}: {plural(len(flagged), what)} of the {len(table)} {among} "
                  f"(first minus second):"),
            ("ul", [f"{r.first} against {r.second}: `{strategy}` {fmt_pp(r.diff_a)} ({fmt_pp_ci(r.lo_a, r.hi_a)}), "
                    f"`{strong}` {fmt_pp(r.diff_b)} ({fmt_pp_ci(r.lo_b, r.hi_b)})." for r in flagged.itertuples()])]


def _losses_and_grades(page: _Page, main: pd.DataFrame, scope: _Scope) -> None:
    for stem, plot in (("loss_causes", charts.plot_loss_causes), ("score_grades", charts.plot_score_grades)):
        heading, how_to_read = CAPTIONS[stem]
        # one seating per line-up, as the level table: the many seatings of a few line-ups at one level
        # would otherwise outweigh the rest of that level
        page.add(("h2", heading), ("p", scope.line("every level and team size, all line-ups pooled, each seated in "
                                                   "its own order")))
        if page.chart(stem, plot, heading, scope.grid):
            page.add(("p", how_to_read))

def _rules_note(df: pd.DataFrame, shown: str) -> str:
    """The methods' line on the rule readings (docs/rules.md section 14) the table played."""
    others = sorted(set(rule_readings(df)) - {shown})
    text = f"Rule readings (docs/rules.md section 14, `kiai rules`): {shown}"
    if others:
        text += (f" in the charts and tables; the results also hold {'; '.join(others)} "
                 f"({plural(int((rule_readings(df) != shown).sum()), 'configuration')}, not shown)")
    return text + "."


def _methods_blocks(df: pd.DataFrame, notes: dict, rules_note: str | None = None) -> list[tuple]:
    labels = charts.strategy_labels(df)
    strategies = []
    for label, sub in df.groupby(labels, sort=True):
        params = sorted(set(sub["params"].astype(str))) if "params" in sub else []
        strategies.append(f"{label}" + (f" (params: {'; '.join(params)})" if params else ""))
    items = [
        "Strategies: " + (", ".join(strategies) or "none") + ".",
        *([models] if (models := _models_note(df)) else []),
        f"Games per configuration: {_spread(df['games'])}; {plural(len(df), 'configuration')}.",
        f"Seeds: {_listing(df, 'seed')}.",
        *([rules_note] if rules_note else []),
        f"Components file SHA-256: {_listing(df, 'components_sha256')}.",
        f"kiai version: {_listing(df, 'kiai_version')}.",
    ]
    if "stalled_games" in df and df["stalled_games"].sum() > 0:
        items.append(f"Stalled games (stopped at the engine's turn cap): {int(df['stalled_games'].sum()):,}.")
    items += [f"{key}: {value}" for key, value in notes.items()]
    statement = (
        "Win rates are shares of games won. Intervals are 95% intervals: Wilson score "
        "intervals, or Clopper-Pearson where the wins are within 5 of none or of all games; "
        "rates pooled over several configurations sum their wins and games first. A samurai's "
        "effect uses Newcombe's interval for a difference of two independent proportions. "
        "Seating comparisons are Holm-adjusted where shown."
    )
    blocks = [("h2", "How these results were made"), ("ul", items), ("p", statement)]
    if "honest" in df and not charts.as_bool(df["honest"]).all():
        blocks.append(("p", "Strategies marked (cheating) see hidden information; they show what "
                            "perfect knowledge could reach and are not a fair difficulty measure."))
    return blocks


def _models_note(df: pd.DataFrame) -> str:
    """The methods' line on the strategies that play a model per family of tables (selfplay,
    strategies BY_FAMILY): its parameters above are its defaults, and each family's value file
    says in its header how it plays."""
    from kiai.strategies import registry

    known = registry.names()
    names = sorted(n for n in set(df["strategy"].astype(str))
                   if n in known and registry.hook_of(n, "BY_FAMILY", False))
    if not names:
        return ""
    return (f"{' and '.join(names)}: the value of each table's family (team size and level) where kiai ships one, "
            "played as that file's header says over the parameters above, else learned's answers; `kiai simulate` "
            "names a table's value file and how it played.")


def _spread(values: pd.Series) -> str:
    if values.empty:
        return "none"
    lo, hi = int(values.min()), int(values.max())
    return f"{lo:,}" if lo == hi else f"{lo:,} to {hi:,} (median {int(values.median()):,})"


def _listing(df: pd.DataFrame, column: str, limit: int = 5) -> str:
    if column not in df:
        return "not recorded"
    values = sorted(set(df[column].dropna().astype(str)))
    if not values:
        return "not recorded"
    if len(values) <= limit:
        return ", ".join(values)
    return f"{len(values)} distinct values, e.g. {', '.join(values[:limit])}"


# ---------------------------------------------------------------------------- rendering


def slug(text: str) -> str:
    """A heading's anchor, as GitHub makes it (lower case, punctuation dropped, spaces to hyphens)."""
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


def _toc(blocks: list[tuple]) -> list[tuple[int, str]]:
    return [(2 if kind == "h2" else 3, rest[0]) for kind, *rest in blocks if kind in ("h2", "h3")]


def _to_markdown(blocks: list[tuple]) -> str:
    lines: list[str] = []
    for kind, *rest in blocks:
        if kind == "h1":
            lines += [f"# {rest[0]}", ""]
        elif kind in ("h2", "h3"):
            lines += [f"{'#' * int(kind[1])} {rest[0]}", ""]
        elif kind == "toc":
            lines += ["**Contents**", ""]
            lines += [f"{'  ' * (depth - 2)}- [{text}](#{slug(text)})" for depth, text in _toc(blocks)] + [""]
        elif kind == "p":
            lines += [rest[0], ""]
        elif kind == "note":
            lines += [f"*{rest[0]}*", ""]
        elif kind == "img":
            stem, alt, _width = rest
            lines += [f"[![{alt}]({stem}.png)]({stem}.svg)", ""]
        elif kind == "ul":
            lines += [f"- {item}" for item in rest[0]] + [""]
        elif kind == "table":
            lines += _markdown_table(rest[0]) + [""]
        elif kind == "details":
            summary, table = rest
            lines += ["<details>", f"<summary>{html.escape(summary)}</summary>", ""]
            lines += _markdown_table(table) + ["", "</details>", ""]
        elif kind == "csv":
            name, what = rest
            lines += [f"Download: [{name}]({name}) ({what}, CSV).", ""]
    return "\n".join(lines)


def _markdown_table(table: pd.DataFrame) -> list[str]:
    def cell(value) -> str:
        return str(value).replace("|", "\\|")

    header = "| " + " | ".join(cell(c) for c in table.columns) + " |"
    rule = "|" + "|".join("---" for _ in table.columns) + "|"
    body = ["| " + " | ".join(cell(v) for v in row) + " |" for row in table.itertuples(index=False)]
    return [header, rule, *body]


_CSS = """
body { font-family: system-ui, sans-serif; max-width: 72rem; margin: 2rem auto; padding: 0 1rem;
       color: #222; line-height: 1.45; }
img { max-width: 100%; height: auto; }
figure { margin: 0.5rem 0; }
table { border-collapse: collapse; font-size: 0.85rem; margin: 0.5rem 0 1rem; display: block;
        max-width: 100%; overflow-x: auto; }
th, td { border: 1px solid #ccc; padding: 0.2rem 0.5rem; text-align: left; vertical-align: top; }
th { background: #f2f2f2; }
code { background: #f4f4f4; padding: 0 0.2em; border-radius: 3px; font-size: 0.9em; }
details { margin: 0.5rem 0 1rem; }
summary { cursor: pointer; color: #0b5394; }
nav ul { columns: 2; }
.note { font-style: italic; color: #555; }
.csv { font-size: 0.9rem; }
"""


def _inline(text) -> str:
    """Text for HTML: escaped, with `code` as <code>, as Markdown renders it."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(str(text), quote=False))


def _html_table(table: pd.DataFrame) -> str:
    head = "".join(f"<th>{_inline(c)}</th>" for c in table.columns)
    body = "".join("<tr>" + "".join(f"<td>{_inline(v)}</td>" for v in row) + "</tr>"
                   for row in table.itertuples(index=False))
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _to_html(blocks: list[tuple], title: str) -> str:
    esc = html.escape
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{esc(title)}</title>",
        f"<style>{_CSS}</style>",
        "</head>",
        "<body>",
    ]
    for kind, *rest in blocks:
        if kind == "h1":
            parts.append(f"<h1>{_inline(rest[0])}</h1>")
        elif kind in ("h2", "h3"):
            parts.append(f'<{kind} id="{slug(rest[0])}">{_inline(rest[0])}</{kind}>')
        elif kind == "toc":
            items, depth = [], 2
            for level, text in _toc(blocks):
                if level > depth:
                    items.append("<ul>")
                elif level < depth:
                    items.append("</ul></li>")
                elif items:
                    items.append("</li>")
                items.append(f'<li><a href="#{slug(text)}">{_inline(text)}</a>')
                depth = level
            items.append("</li>" + ("</ul></li>" if depth > 2 else ""))
            parts.append("<nav><strong>Contents</strong><ul>" + "".join(items) + "</ul></nav>")
        elif kind == "p":
            parts.append(f"<p>{_inline(rest[0])}</p>")
        elif kind == "note":
            parts.append(f'<p class="note">{_inline(rest[0])}</p>')
        elif kind == "img":
            stem, alt, width = rest
            parts.append(f'<figure><a href="{stem}.svg"><img src="{stem}.png" alt="{esc(alt)}" '
                         f'width="{width}"></a></figure>')
        elif kind == "ul":
            parts.append("<ul>" + "".join(f"<li>{_inline(item)}</li>" for item in rest[0]) + "</ul>")
        elif kind == "table":
            parts.append(_html_table(rest[0]))
        elif kind == "details":
            summary, table = rest
            parts.append(f"<details><summary>{_inline(summary)}</summary>{_html_table(table)}</details>")
        elif kind == "csv":
            name, what = rest
            parts.append(f'<p class="csv">Download: <a href="{esc(name)}" download>{esc(name)}</a> '
                         f"({_inline(what)}, CSV).</p>")
    parts += ["</body>", "</html>", ""]
    return "\n".join(parts)
