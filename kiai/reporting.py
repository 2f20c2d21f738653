"""`kiai report` through the API: a report (charts, tables, report.md and report.html) from
results tables, and two reports' findings compared."""

from __future__ import annotations

from pathlib import Path

from kiai.inputs.checks import check_input, fail
from kiai.errors import WriteError, first_line
from kiai.outputs import atomic_write, claim
from kiai.inputs.paths import check_output_folder, read_results
from kiai.words import plural


def report(results, out="kiai-report", *, title: str = "kiai report", components: str | None = None) -> list[str]:
    """Write a report of results tables (.parquet or .csv, as kiai.sweep or `kiai simulate --out`
    write them, or a folder holding results.parquet) into the folder `out`, as `kiai report`:
    charts as PNG and SVG, every full table as CSV, report.md and report.html. Several tables are
    read as one. components: other component files (comma-separated) whose games the tables hold,
    compared in the House rules section by name. The folder is made whole or not at all, under
    its claim; it gets a list of the files the report made (FILES_LIST), and of an earlier report's
    files there, those this one does not make again are removed (never a table it reads, nor a
    file no report listed). Returns the names of the files written."""
    import pandas as pd

    from kiai.reports.files import atomic_folder
    from kiai.reports.findings.table_check import check_results
    from kiai.reports.page.report import write_report
    from kiai.reports.playing.tables import with_rules_column

    results = [Path(r) for r in ([results] if isinstance(results, (str, Path)) else results or [])]
    if not results:
        fail("give the results tables to report on (or --compare OLD NEW)")
    out = Path(out)
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
        df = read_results(path, f"cannot read {path}")
        try:
            check_results(df)  # before the folder is made: a bad table leaves nothing behind
        except ValueError as e:
            fail(f"{path}: {e}")
        frames.append(with_rules_column(df))  # a table older than the column played the rules' own readings
        for key, value in _sweep_notes(path).items():
            notes[key if len(results) == 1 else f"{key} ({path.name})"] = value
    notes["Results table" + ("s" if len(results) > 1 else "")] = ", ".join(str(p) for p in results)
    df = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
    solved = _solved(results[0])

    def fill(tmp: Path) -> dict:
        made = write_report(df, tmp, title=title, notes=notes, components=names, solved=solved)
        made[FILES_LIST] = tmp / FILES_LIST
        text = "".join(f"{name}\n" for name in sorted(made))
        atomic_write(tmp / FILES_LIST, lambda f: f.write_text(text, encoding="utf-8"))
        return made

    with claim(out, folder=True):  # from the first chart to the last move: a second report refuses
        earlier = _listed(out)
        try:  # made in a folder beside --out, moved into it once whole: a full disk leaves no half report
            written = atomic_folder(out, fill)
        except ValueError as e:
            fail(f"{results[0]}: {e}")
        _remove_earlier(out, earlier - set(written), read)
    return written


FILES_LIST = "report-files.txt"  # the files a report made in its folder, one name a line
MADE = (".png", ".svg", ".csv", ".md", ".html")  # what a report makes: charts, its tables, pages


def _listed(out: Path) -> set[str]:
    """The files an earlier report in `out` made, as its FILES_LIST names them (plain names of
    the kinds a report makes; anything else a hand may have put there is left out)."""
    try:
        lines = (out / FILES_LIST).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):  # no earlier report, or no list of ours
        return set()
    return {name for name in lines if name and name == Path(name).name and not name.startswith(".")
            and name.lower().endswith(MADE)}


def _remove_earlier(out: Path, names: set[str], read: set[Path]) -> None:
    """Remove an earlier report's files that this one did not make again (a chart with nothing
    to draw now): only plain files, never a table this report read, nor a CSV beside a Parquet
    table of its name (a sweep's --csv copy)."""
    for name in sorted(names):
        path = out / name
        if (path.is_file() and not path.is_symlink() and path.resolve() not in read
                and not path.with_suffix(".parquet").exists()):
            try:
                path.unlink(missing_ok=True)
            except OSError as e:
                raise WriteError(path, e) from None


def _solved(first: Path):
    """The solve stage's table (kiai solve --bracket) beside the first results table, or None (the
    page then says 'not solved'); a bad one is refused in one line."""
    from kiai.reports.findings.bracket import SOLVED
    from kiai.reports.search.solved_table import read_solved

    path = (first if first.is_dir() else first.parent) / SOLVED
    if not path.is_file():
        return None
    try:
        return read_solved(path)
    except ValueError as e:
        fail(f"{path}: {e}")


def _sweep_notes(path: Path) -> dict:
    """What the sweep's Parquet metadata says about how it was made (empty if nothing); damaged
    metadata is refused in one line naming the file and the field (tables.sweep_info)."""
    if path.suffix.lower() != ".parquet":
        return {}
    import pyarrow.parquet as pq

    from kiai.reports.findings.views import UNREADABLE
    from kiai.reports.playing.tables import sweep_info

    try:
        metadata = pq.read_schema(path).metadata
    except UNREADABLE as e:  # read whole a moment ago (load_results): changed since
        fail(f"cannot read {path}: {first_line(e)}")
    info = sweep_info(metadata, path) or {}  # a table of `kiai simulate --out` has none
    notes = {}
    if info.get("command"):
        notes["Sweep"] = info["command"]
    if info.get("configurations") and "keys" in info and len(info["keys"]) < info["configurations"]:
        notes["Incomplete"] = f"{len(info['keys'])} of {plural(info['configurations'], 'configuration')} finished"
    return notes


def _component_names(text: str | None) -> dict:
    """--components: {sha256: file name} of each file listed (checked before anything is read)."""
    from kiai.inputs.checks import once, split
    from kiai.inputs.configs import load_components

    if text is None:
        return {}
    comps = [load_components(f) for f in once(split(text, "--components", "file"), "--components")]
    if not comps:
        fail("--components expects component files, comma-separated")
    return {c.sha256: Path(c.path).name for c in comps}


def compare_reports(old, new) -> tuple[list[str], bool]:
    """Every difference of provenance between two reports (folders as `make report` writes, or
    tables: findings.provenance), then the findings of In short of both side by side with their
    verdicts, as the lines `kiai report --compare` prints; and whether a finding of the old
    report differs in the new (or is gone)."""
    from kiai.reports.findings import findings as F

    frames, tables = [], []
    for path in (Path(old), Path(new)):
        if not path.exists():
            fail(f"{path}: no such file or folder")
        try:
            frames.append(F.read_folder(path))
            tables.append(F.findings(frames[-1]))
        except (ValueError, OSError) as e:
            fail(f"{path}: {first_line(e)}")
    table = F.compare(*tables)
    lines = [f"{r.samurai} samurai, {r.finding}{f', {r.where}' if r.where else ''}: {r.verdict}\n"
             f"  old: {r.old}\n  new: {r.new}" for r in table.itertuples()]  # fmt: skip
    # what played each report first: a finding's change may be the players', not the deals'
    return [*F.provenance(*frames), *lines, F.summary(table)], bool(F.differs(table))
