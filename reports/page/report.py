"""Write a sweep's results table as a report: chart images, report.md and report.html, and every
full table as CSV beside them.

The page answers a board-game group first: "In short" gives, per team size, how hard each level
is, the line-up to pick and to avoid, the seating of the pick, and what the common rule mistakes
change (reports.findings.advice); the sections after it hold the charts and tables behind each answer,
each saying what it covers. The page is assembled once as a list of blocks and rendered twice,
so the Markdown and HTML versions cannot drift apart.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from kiai.reports.files import atomic_write
from kiai.reports.findings.table_check import check_results
from kiai.reports.findings.views import views
from kiai.reports.page import bracket, charts, glance, house, ladder, methods, opening, sections, stronger, your_table
from kiai.reports.page.render import Page, to_html, to_markdown
from kiai.reports.page.scope import Inputs, Scope

# the page's sections in page order, each a function (page, inputs) that adds its blocks to the page
# and writes its charts and CSV files through it (docs/design.md). The first screen answers first:
# the grid, then the group's own line-up; the detail follows
SECTIONS = (opening.title, glance.section, your_table.section, opening.precision, opening.in_short,
            opening.how_hard, bracket.section, sections.lineups, sections.seating, sections.house_rules,
            house.section, ladder.section, stronger.section, sections.losses_and_grades, methods.section)


def write_report(df: pd.DataFrame, out_dir, title: str = "kiai report", notes: dict | None = None,
                 components: dict | None = None, solved: pd.DataFrame | None = None) -> dict:
    """Write charts (PNG and SVG), tables (CSV), report.md and report.html into out_dir.
    `components`: {sha256: name} of other component files the House rules section compares
    (reports.page.house; the table's rows of other files are shown there only). `solved`: the solve
    stage's table (reports.findings.bracket), None where the folder has none.

    Returns {file name: path} for every file written. Charts with nothing to draw are left
    out with a note in the pages.
    """
    from matplotlib import rc_context

    check_results(df)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    page = Page(out)
    v = views(df[house.of_main(df).to_numpy()])  # the games of other component files: reports.page.house's alone
    inputs = Inputs(title, df, v, Scope(v.main, v.strategy), notes, components, solved)
    with rc_context(charts.STYLE):
        for section in SECTIONS:
            section(page, inputs)

    for name, text in (("report.md", to_markdown(page.blocks)), ("report.html", to_html(page.blocks, title))):
        path = out / name
        atomic_write(path, lambda tmp, text=text: tmp.write_text(text, encoding="utf-8"))
        page.written[name] = path
    return page.written
