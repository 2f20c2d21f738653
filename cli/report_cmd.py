"""`kiai report`: charts and pages from a sweep's results table."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from kiai.checks import check_output_folder, fail
from kiai.cli.common import command
from kiai.reports.words import plural


def _sweep_notes(path: Path) -> dict:
    """What the sweep's Parquet metadata says about how it was made (empty if nothing)."""
    if path.suffix.lower() != ".parquet":
        return {}
    try:
        import pyarrow.parquet as pq

        from kiai.reports.tables import METADATA_KEY

        raw = (pq.read_schema(path).metadata or {}).get(METADATA_KEY)
        info = json.loads(raw) if raw else {}
    except Exception:  # noqa: BLE001 - notes are optional
        return {}
    notes = {}
    if info.get("command"):
        notes["Sweep"] = info["command"]
    if info.get("configurations") and "keys" in info and len(info["keys"]) < info["configurations"]:
        notes["Incomplete"] = f"{len(info['keys'])} of {plural(info['configurations'], 'configuration')} finished"
    return notes


def _component_names(text: str | None) -> dict:
    """--components: {sha256: file name} of each file listed (checked before anything is read)."""
    from kiai.checks import load_components, split

    if text is None:
        return {}
    comps = [load_components(f) for f in split(text, "--components", "file")]
    if not comps:
        fail("--components expects component files, comma-separated")
    return {c.sha256: Path(c.path).name for c in comps}


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
    import pandas as pd

    from kiai.checks import check_input
    from kiai.reports.files import atomic_folder
    from kiai.reports.report import check_results, load_results, write_report
    from kiai.reports.tables import with_rules_column

    if compare and compare[0] is not None:
        if results:
            fail("--compare takes two reports (OLD NEW) and no other table")
        raise typer.Exit(_compare(*compare))
    if not results:
        fail("give the results tables to report on (or --compare OLD NEW)")
    check_output_folder(out)  # made if missing, in an existing folder
    names = _component_names(components)
    frames, notes, read = [], {}, set()
    for path in results:
        if path.is_dir():
            if not (path / "results.parquet").is_file():
                fail(f"{path} is a folder without a results.parquet; give the results table file")
            path = path / "results.parquet"
        if path.resolve() in read:
            fail(f"{path} is given twice; its games would count twice")
        read.add(path.resolve())
        check_input(path, "FILES")
        if path.suffix.lower() not in (".parquet", ".csv"):
            fail(f"{path}: expected a .parquet or .csv results table")
        if not path.exists():
            fail(f"{path}: no such file")
        try:
            df = load_results(path)
        except Exception as e:  # noqa: BLE001 - pandas/pyarrow raise many kinds for a bad file
            msg = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            fail(f"cannot read {path}: {msg}")
        try:
            check_results(df)  # before the folder is made: a bad table leaves nothing behind
        except ValueError as e:
            fail(f"{path}: {e}")
        frames.append(with_rules_column(df))  # a table older than the column played the rules' own readings
        for key, value in _sweep_notes(path).items():
            notes[key if len(results) == 1 else f"{key} ({path.name})"] = value
    notes["Results table" + ("s" if len(results) > 1 else "")] = ", ".join(str(p) for p in results)
    df = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
    try:  # made in a folder beside --out, moved into it once whole: a full disk leaves no half report
        written = atomic_folder(out, lambda tmp: write_report(df, tmp, title=title, notes=notes, components=names))
    except ValueError as e:
        fail(f"{results[0]}: {e}")
    charts = sorted({Path(n).stem for n in written if n.endswith(".png")})
    tables = sum(1 for n in written if n.endswith(".csv"))
    print(f"report written to {out / 'report.html'} and {out / 'report.md'} "
          f"({plural(len(charts), 'chart')}: {', '.join(charts) or 'none'}; {plural(tables, 'table')} as CSV)")  # fmt: skip


def _compare(old: Path, new: Path) -> int:
    """Print the findings of In short of two reports side by side with their verdicts; 1 where one
    of the old report's differs in the new (or is gone), else 0."""
    from kiai.reports import findings as F

    tables = []
    for path in (old, new):
        if not path.exists():
            fail(f"{path}: no such file or folder")
        try:
            tables.append(F.findings(F.read_folder(path)))
        except (ValueError, OSError) as e:
            fail(f"{path}: {str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__}")
    table = F.compare(*tables)
    for r in table.itertuples():
        print(f"{r.samurai} samurai, {r.finding}{f', {r.where}' if r.where else ''}: {r.verdict}\n"
              f"  old: {r.old}\n  new: {r.new}")
    print(F.summary(table))
    return 1 if F.differs(table) else 0
