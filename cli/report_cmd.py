"""`kiai report`: charts and pages from a sweep's results table."""

from __future__ import annotations

from pathlib import Path

import typer

from kiai.inputs.checks import fail
from kiai.cli.common import command, interrupted
from kiai.words import plural


@command("report", short_help="Write charts and pages from results tables.",
         help="Write a report of results tables made by `kiai sweep` or `kiai simulate "
              "--out` (.parquet or .csv; or a folder holding results.parquet, as `make "
              "report` writes): charts as PNG and SVG, every full table as CSV, report.md and "
              "report.html, in --out. Several tables are read as one: `make report` adds the "
              "advice stage's (advice.parquet), the agreement stage's (agreement.parquet) and the "
              "skill ladder's (ladder.parquet, planners.parquet) to the main sweep's. With --compare "
              "OLD NEW, compare instead the findings of In short of two reports (folders as `make "
              "report` writes, holding their tables): each is the same, within noise, or different; "
              "exit status 1 where one differs.")
def report(
    results: list[Path] = typer.Argument(None, help="Results tables (.parquet or .csv) written by `kiai sweep` or "
                                                    "`kiai simulate --out`, or a folder holding results.parquet."),
    out: Path = typer.Option(Path("kiai-report"), "--out", "-o", help="Folder for the charts and pages (made if "
                                                                     "missing, in an existing folder)."),
    title: str = typer.Option("kiai report", "--title", help="Title of the pages."),
    components: str = typer.Option(None, "--components", help="Other component files (TOML, comma-separated) whose "
                                                              "games the tables hold (`kiai sweep --preset house "
                                                              "--components FILE`): the House rules section compares "
                                                              "each with the report's own file, by name."),
    compare: tuple[Path, Path] = typer.Option(None, "--compare", help="OLD NEW: two report folders (or "
                                                                              "tables) whose findings to compare; "
                                                                              "writes nothing."),
):
    from kiai.reporting import compare_reports, report as write

    if compare and compare[0] is not None:
        if results:
            fail("--compare takes two reports (OLD NEW) and no other table")
        try:
            lines, differs = compare_reports(*compare)
        except KeyboardInterrupt:
            interrupted("nothing written")
        print("\n".join(lines))
        raise typer.Exit(1 if differs else 0)
    try:
        written = write(results, out, title=title, components=components)
    except KeyboardInterrupt:  # the report is made in a folder beside --out, moved into it once whole
        interrupted(f"{out} left as it was")
    charts = sorted({Path(n).stem for n in written if n.endswith(".png")})
    tables = sum(1 for n in written if n.endswith(".csv"))
    print(f"report written to {out / 'report.html'} and {out / 'report.md'} "
          f"({plural(len(charts), 'chart')}: {', '.join(charts) or 'none'}; {plural(tables, 'table')} as CSV)")  # fmt: skip


