"""Write a sweep's results table as a report: chart images plus report.md and report.html.

The page is assembled once as a list of blocks and rendered twice, so the Markdown and HTML
versions cannot drift apart.
"""

from __future__ import annotations

import html
from pathlib import Path

import pandas as pd

from kiai.reports import charts, ladder
from kiai.reports.charts import NoChartData
from kiai.reports.words import plural

REQUIRED = ("difficulty", "n_samurai", "lineup", "strategy", "games", "wins")
COUNTS = ("n_samurai", "games", "wins")  # whole numbers the charts add up
IMAGE_FORMATS = ("png", "svg")
PNG_DPI = 150

LADDER_CAPTION = (
    "Skill ladder",
    "For each level and team size, the win rate of each strategy on the same tables and deals: "
    "reference (the plain baseline), keeper, learned (kiai's default), the lookahead (on fewer "
    "games: it plays some two hundred and fifty times slower than learned) and, as a ceiling, foresight, "
    "which cheats by seeing every hidden card. The climb from reference to the lookahead is what "
    "skill wins; what even foresight loses is the deal.",
)

# heading and how-to-read text per chart, keyed like charts.CHARTS
CAPTIONS = {
    "winrate_by_level": (
        "Win rate by level and number of samurai",
        "Each bar is the share of games won at one difficulty level with one team size, all "
        "line-ups and seatings pooled; the whisker is its 95% interval. Bars whose whiskers do "
        "not overlap differ clearly.",
    ),
    "samurai_effect": (
        "Each samurai's effect",
        "For each level and team size, a bar is the win rate of line-ups that include the "
        "samurai minus that of line-ups without it, in percentage points; above zero the "
        "samurai helps. A whisker that crosses zero means no clear effect.",
    ),
    "neighbour_effect": (
        "Neighbour effects",
        "Row A, column B is how much a seating gains (percentage points, against the mean of "
        "the same line-up's seatings) when A sits directly to B's left, i.e. A plays right "
        "after B. Purple cells help, orange cells hurt; grey means no seating had that pair.",
    ),
    "loss_causes": (
        "How games were lost",
        "Stacks show lost games as a share of all games, split by the round in which they were "
        "lost (left) and by the cause (right); the whisker on top is the 95% interval of the "
        "loss rate.",
    ),
    "score_grades": (
        "Scores and grades of won games",
        "Each panel shows how a level's wins spread over grades (the score followed by the "
        "level's + marks), as a share of that level's wins with 95% intervals.",
    ),
}


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
    """Raise ValueError (one line) unless df has the columns a report needs, with whole,
    non-negative counts and no more wins than games: checked before anything is written."""
    missing = [c for c in REQUIRED if c not in df]
    if missing:
        raise ValueError(f"results table lacks column(s): {', '.join(missing)}")
    for col in COUNTS:
        values = pd.to_numeric(df[col], errors="coerce")
        bad = values.isna() | (values < 0) | (values != values.round())
        if bad.any():
            i = int(bad.to_numpy().argmax())
            raise ValueError(f"column '{col}' must hold whole numbers of at least 0; row {i + 1} has {df[col].iloc[i]!r}")
    if (pd.to_numeric(df["wins"]) > pd.to_numeric(df["games"])).any():
        raise ValueError("column 'wins' exceeds 'games' in some row")


def write_report(df: pd.DataFrame, out_dir, title: str = "kiai report", notes: dict | None = None) -> dict:
    """Write charts (PNG and SVG), report.md and report.html into out_dir.

    Returns {file name: path} for every file written. Charts with nothing to draw are left
    out with a note in the pages.
    """
    check_results(df)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written: dict[str, Path] = {}
    everything = df
    # the charts and tables show one set of rule readings, the rules' own where the table has them
    # (a sweep over --rule holds several: pooling them would mix games of different rules)
    rules = main_rules(df)
    df = df[(rule_readings(df) == rules).to_numpy()]
    # the charts and tables show one strategy, kiai's default where the table has it; the
    # ladder (other strategies on a few tables) has its own section
    strategy = ladder.main_strategy(df)
    main = ladder.distinct_games(df[df["strategy"].astype(str) == strategy])
    blocks: list[tuple] = [("h1", title), ("p", _summary(everything)), ("h2", "In short"),
                           ("ul", ladder.plain_summary(main, strategy))]

    def figure(stem, fig, heading, how_to_read):
        for fmt in IMAGE_FORMATS:
            path = out / f"{stem}.{fmt}"
            fig.savefig(path, dpi=PNG_DPI if fmt == "png" else None)
            written[path.name] = path
        blocks.extend([("img", stem, heading), ("p", how_to_read)])

    blocks.append(("h2", LADDER_CAPTION[0]))
    try:
        table = ladder.ladder_table(df)
        figure("skill_ladder", ladder.plot_ladder(df), *LADDER_CAPTION)
        games = [c for c in table if c.endswith(" games")]
        blocks += [("table", table.drop(columns=games)),
                   ("p", "Win rates in percent with their 95% intervals. Games per strategy, level and team size: "
                         + "; ".join(f"{c[: -len(' games')]} {ladder.spread(table[c])}" for c in games) + ".")]
    except NoChartData as exc:
        blocks.append(("note", f"Not drawn: {exc} (make report plays the presets ladder and ladder-planners)."))

    for stem, plot in charts.CHARTS.items():
        heading, how_to_read = CAPTIONS[stem]
        heading = f"{heading} ({strategy})"
        blocks.append(("h2", heading))
        try:
            fig = plot(main)
        except NoChartData as exc:
            blocks.append(("note", f"Not drawn: {exc}."))
            continue
        fig.suptitle(f"{fig.get_suptitle()}; strategy {strategy}")
        figure(stem, fig, heading, how_to_read)
        if stem == "winrate_by_level":
            blocks.append(("table", _winrate_table(main)))

    blocks += _table_blocks(main, strategy)
    blocks += _methods_blocks(df, notes or {}, _rules_note(everything, rules))

    for name, text in (("report.md", _to_markdown(blocks)), ("report.html", _to_html(blocks, title))):
        path = out / name
        path.write_text(text, encoding="utf-8")
        written[name] = path
    return written


# ------------------------------------------------------------------------------ content


def _summary(df: pd.DataFrame) -> str:
    return (
        f"{plural(len(df), 'configuration')}, {plural(int(df['games'].sum()), 'game')}, "
        f"{int(df['wins'].sum()):,} won."
    )


def _winrate_table(df: pd.DataFrame) -> pd.DataFrame:
    d = df.assign(strategy=charts.strategy_labels(df), difficulty=df["difficulty"].astype(str))
    pooled = charts.pooled_rates(d[d["games"] > 0], ["strategy", "difficulty", "n_samurai"])
    rank = {lv: i for i, lv in enumerate(charts.level_order(pooled["difficulty"]))}
    pooled = pooled.assign(_order=pooled["difficulty"].map(rank))
    pooled = pooled.sort_values(["strategy", "_order", "n_samurai"])
    return pd.DataFrame(
        {
            "strategy": pooled["strategy"],
            "level": pooled["difficulty"],
            "samurai": pooled["n_samurai"].astype(int),
            "games": pooled["games"].astype(int),
            "win rate (%)": (100 * pooled["win_rate"]).round(1),
            "95% CI (%)": [
                f"{100 * lo:.1f} to {100 * hi:.1f}" for lo, hi in zip(pooled["ci_low"], pooled["ci_high"])
            ],
            "interval": pooled["ci_method"],
        }
    ).reset_index(drop=True)


def _table_blocks(df: pd.DataFrame, strategy: str) -> list[tuple]:
    blocks: list[tuple] = [("h2", f"Best and worst line-ups ({strategy})")]
    try:
        lineups = charts.best_worst_lineups(df)
    except NoChartData as exc:
        lineups, reason = None, str(exc)
    else:
        reason = "no level and team size has two or more line-ups"
    if lineups is None or lineups.empty:
        blocks.append(("note", f"No table: {reason}."))
    else:
        blocks += [
            ("p", "The three best and three worst line-ups per level and team size, all their "
                  "seatings pooled; the rank counts line-ups of that size at that level."),
            ("table", lineups),
        ]

    blocks.append(("h2", f"Best and worst seatings ({strategy})"))
    try:
        seatings = charts.best_worst_seatings(df)
    except NoChartData as exc:
        seatings, reason = None, str(exc)
    else:
        reason = "no line-up was played in two or more seatings at one level"
    if seatings is None or seatings.empty:
        blocks.append(("note", f"No table: {reason}."))
    else:
        blocks += [
            ("p", "For each line-up played in several seatings: its best and worst seating "
                  "(seat 0 first, each samurai's left neighbour next), the spread in percentage "
                  "points, and the p-value of a chi-square test that all its seatings win "
                  "equally often, raw and Holm-adjusted over all line-ups listed."),
            ("table", seatings),
        ]
    return blocks


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


def _to_markdown(blocks: list[tuple]) -> str:
    lines: list[str] = []
    for kind, *rest in blocks:
        if kind == "h1":
            lines += [f"# {rest[0]}", ""]
        elif kind == "h2":
            lines += [f"## {rest[0]}", ""]
        elif kind == "p":
            lines += [rest[0], ""]
        elif kind == "note":
            lines += [f"*{rest[0]}*", ""]
        elif kind == "img":
            stem, alt = rest
            lines += [f"[![{alt}]({stem}.png)]({stem}.svg)", ""]
        elif kind == "ul":
            lines += [f"- {item}" for item in rest[0]] + [""]
        elif kind == "table":
            lines += _markdown_table(rest[0]) + [""]
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
table { border-collapse: collapse; font-size: 0.85rem; margin: 0.5rem 0 1.5rem; }
th, td { border: 1px solid #ccc; padding: 0.2rem 0.5rem; text-align: left; }
th { background: #f2f2f2; }
.note { font-style: italic; color: #555; }
"""


def _to_html(blocks: list[tuple], title: str) -> str:
    esc = html.escape
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f"<title>{esc(title)}</title>",
        f"<style>{_CSS}</style>",
        "</head>",
        "<body>",
    ]
    for kind, *rest in blocks:
        if kind == "h1":
            parts.append(f"<h1>{esc(rest[0])}</h1>")
        elif kind == "h2":
            parts.append(f"<h2>{esc(rest[0])}</h2>")
        elif kind == "p":
            parts.append(f"<p>{esc(rest[0])}</p>")
        elif kind == "note":
            parts.append(f'<p class="note">{esc(rest[0])}</p>')
        elif kind == "img":
            stem, alt = rest
            parts.append(
                f'<figure><a href="{stem}.svg"><img src="{stem}.png" alt="{esc(alt)}"></a></figure>'
            )
        elif kind == "ul":
            parts.append("<ul>" + "".join(f"<li>{esc(str(item))}</li>" for item in rest[0]) + "</ul>")
        elif kind == "table":
            parts.append(rest[0].to_html(index=False, escape=True, border=0))
    parts += ["</body>", "</html>", ""]
    return "\n".join(parts)
