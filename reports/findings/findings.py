"""The findings of a report's "In short", as data, and two reports' findings compared (`kiai report
--compare OLD NEW`): each is the same, within noise, or different.

A finding is read from the tables, as the report reads them (views.views), not from its text:
so a report written by an older kiai compares too, as long as its folder holds its tables.

- How hard (each team size and level, for kiai's default player and for its strongest): the same
  when both give the same figure, within noise when the 95% interval of the difference (Newcombe's)
  holds zero, else different. Every line-up meets the same deals, so their results move together
  (a run of easy deals is easy for all of them), and two reports of one seed differ mostly by the
  deals one played and the other did not: a pooled rate is compared as if it rested on one line-up's
  games (the median line-up's), not on all of them, which would take the line-ups as independent.
- The line-up to pick and the one to avoid (each team size): the same when both name the same ones
  and agree on whether the data separate them; within noise when each report's choice is within
  noise of the other's in the other report (its interval reaches the pick's, or the worst's), and a
  change of "separated" is one of gaps whose intervals overlap; else different.
- The seating of the pick: the same way, for the best seating.
- Each rule reading at each level, and absent tokens off: the same when both state the same
  (beyond noise or not) with the same figure, within noise when the two differences' intervals
  overlap, else different.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from kiai.reports.findings import advice
from kiai.reports.findings.in_short import lineup_sentence, seating_sentence
from kiai.reports.findings import wording

SAME, WITHIN, DIFFERENT = "same", "within noise", "different"
NEW, GONE = "new", "gone"  # stated by the new report only (kiai's strongest player's rates), by the old only
_ORDER = {SAME: 0, WITHIN: 1, DIFFERENT: 2}


@dataclass
class Finding:
    """One statement of In short: its team size, what it says, where (a level, a reading...), its
    words as the report prints them, and what comparing it needs."""

    n: int
    what: str
    where: str
    text: str
    data: dict


def read_folder(folder) -> pd.DataFrame:
    """Every results table of a report folder (make report's kiai-report/: results.parquet and the
    other stages' tables beside it, not the solve stage's table of solved deals), as one table."""
    from kiai.reports.findings.bracket import SOLVED
    from kiai.reports.findings.table_check import check_results
    from kiai.reports.findings.views import load_results
    from kiai.reports.playing.tables import with_rules_column

    folder = Path(folder)
    files = sorted(p for p in folder.glob("*.parquet") if p.name != SOLVED) if folder.is_dir() else [folder]
    if not files:
        raise ValueError(f"{folder} holds no results table (.parquet)")
    frames = []
    for path in files:
        df = load_results(path)
        check_results(df)
        frames.append(with_rules_column(df))
    return pd.concat(frames, ignore_index=True)


def findings(df: pd.DataFrame) -> list[Finding]:
    """The findings of In short of a report of `df` (views.views reads it as write_report does)."""
    from kiai.reports.findings.views import views

    v = views(df)
    grid = advice.grid_rows(v.played, v.strategy)
    rates, lineups = advice.level_rates(grid), advice.lineup_rates(grid)
    rules, off = advice.reading_effects(v.played, v.strategy), advice.tokens_off(v.played, v.strategy)
    out: list[Finding] = []
    for n in sorted(set(rates["n_samurai"].astype(int))):
        out += _rates(rates, n, "how hard", "") + _rates(v.strong, n, "how hard", " (kiai's strongest player)", True)
        level, pick, pa = advice.the_pick(v.played, rates, lineups, n, v.strategy)
        if pa is not None:
            out.append(Finding(n, "line-up", level, lineup_sentence(pa, n), {"pa": pa}))
        if pick and n > 2:
            seats = advice.seating_rates(v.played, level, pick, v.strategy)
            sa = advice.seating_advice(seats, n)
            if sa["seatings"] >= 2:
                out.append(Finding(n, "seating", f"{level}, {pick}", seating_sentence(sa, n, level, pick),
                                   {"sa": sa, "table": seats}))
        for r in rules[rules["n_samurai"] == n].itertuples() if not rules.empty else ():
            out.append(Finding(n, "rule", f"{r.v} at {r.difficulty}", _difference_text(r), {"row": r}))
    for r in off.itertuples() if not off.empty else ():
        out.append(Finding(2, "absent tokens off", r.difficulty, _difference_text(r), {"row": r}))
    return out


def _rates(rates: pd.DataFrame, n: int, what: str, who: str, estimated: bool = False) -> list[Finding]:
    """How hard, per level: the default's pooled rate, or the strongest's estimate (views.strongest_rates)."""
    if rates is None or rates.empty:
        return []
    return [Finding(n, what + who, r.difficulty, f"{wording.fmt_pct(r.rate)} ({wording.fmt_ci(r.lo, r.hi)})" if estimated
                    else wording.fmt_rate(r.wins, r.games), {"rate": r.rate, "deals": r.games / r.lineups})
            for r in rates[rates["n_samurai"] == n].itertuples()]


def _separated(r) -> bool:
    return bool(r.lo > 0 or r.hi < 0)


def _difference_text(r) -> str:
    return f"{wording.fmt_pp(r.diff)} ({wording.fmt_pp_ci(r.lo, r.hi)})" + ("" if _separated(r) else ", within noise")


# --------------------------------------------------------------------------- comparing


def compare(old: list[Finding], new: list[Finding]) -> pd.DataFrame:
    """A row per finding of either report: team size, what, where, its words in each, and the
    verdict (SAME, WITHIN, DIFFERENT; NEW or GONE where only one report states it)."""
    a = {(f.n, f.what, _slot(f)): f for f in old}
    b = {(f.n, f.what, _slot(f)): f for f in new}
    rows = []
    for key in sorted(set(a) | set(b), key=lambda k: (k[0], k[1], str(k[2]))):
        x, y = a.get(key), b.get(key)
        verdict = NEW if x is None else GONE if y is None else _verdict(x, y)
        rows.append({"samurai": key[0], "finding": key[1], "where": (x or y).where, "old": x.text if x else "-",
                     "new": y.text if y else "-", "verdict": verdict})
    return pd.DataFrame(rows, columns=["samurai", "finding", "where", "old", "new", "verdict"])


def _slot(f: Finding) -> str:
    """What pairs a finding with the other report's: the level or reading; the line-up and seating
    statements pair by team size alone (the level they are compared at may itself move)."""
    return "" if f.what in ("line-up", "seating") else f.where


def _verdict(x: Finding, y: Finding) -> str:
    if x.what.startswith("how hard"):
        return _rate_verdict(x, y)
    if x.what == "line-up":
        return _lineup_verdict(x.data["pa"], y.data["pa"])
    if x.what == "seating":
        return _seating_verdict(x.data, y.data)
    return _difference_verdict(x.data["row"], y.data["row"])


def _rate_verdict(x: Finding, y: Finding) -> str:
    if x.text == y.text:
        return SAME
    a, b = x.data, y.data  # at one line-up's games (module docstring)
    _, lo, hi = advice.difference(a["rate"] * a["deals"], a["deals"], b["rate"] * b["deals"], b["deals"])
    return WITHIN if lo <= 0 <= hi else DIFFERENT


def _worst(*verdicts: str) -> str:
    return max(verdicts, key=_ORDER.get)


def _tied(table: pd.DataFrame, row, best: bool) -> set[str]:
    """The line-ups of `table` within noise of `row` (the best's, or the worst's): their intervals
    reach its bound."""
    near = table["hi"] >= row["lo"] if best else table["lo"] <= row["hi"]
    return set(table.loc[near, "lineup"].astype(str))


def _lineup_verdict(x: dict, y: dict) -> str:
    if x["no_wins"] and y["no_wins"]:
        return SAME
    parts = []
    for side, best in (("best", True), ("worst", False)):
        a, b = str(x[side]["lineup"]), str(y[side]["lineup"])
        if a == b:
            parts.append(SAME)
        else:
            near = a in _tied(y["table"], y[side], best) or b in _tied(x["table"], x[side], best)
            parts.append(WITHIN if near else DIFFERENT)
    if x["separated"] != y["separated"]:
        overlap = x["lo"] <= y["hi"] and y["lo"] <= x["hi"]  # the two gaps' intervals
        parts.append(WITHIN if overlap else DIFFERENT)
    if x["level"] != y["level"]:
        parts.append(WITHIN)  # the level moved with the pooled rates: only ever near the 10% line
    return _worst(*parts)


def _seating_verdict(x: dict, y: dict) -> str:
    a, b = x["sa"], y["sa"]
    if not a["separated"] and not b["separated"]:
        return SAME
    tables = (x["table"].rename(columns={"seating": "lineup"}), y["table"].rename(columns={"seating": "lineup"}))
    best_a, best_b = str(a["best"]["seating"]), str(b["best"]["seating"])
    if a["separated"] and b["separated"] and best_a == best_b:
        return SAME
    near = best_a in _tied(tables[1], b["best"], True) or best_b in _tied(tables[0], a["best"], True)
    overlap = a["lo"] <= b["hi"] and b["lo"] <= a["hi"]
    return WITHIN if near or overlap else DIFFERENT


def _difference_verdict(x, y) -> str:
    if _separated(x) == _separated(y) and wording.fmt_pp(x.diff) == wording.fmt_pp(y.diff):
        return SAME
    return WITHIN if x.lo <= y.hi and y.lo <= x.hi else DIFFERENT


# what played two reports' games, named before their findings are compared: (words, column)
PROVENANCE = (("kiai version", "kiai_version"), ("engine", "engine"), ("component file", "components_sha256"),
              ("strategies", "strategy"), ("parameters", "params"), ("models", "models"))
_SHOWN = 3  # values listed of a side's own, the rest counted


def provenance(old: pd.DataFrame, new: pd.DataFrame) -> list[str]:
    """A line for each field of PROVENANCE whose values differ between the two reports' tables,
    naming the values each holds that the other lacks ('Provenance differs, engine: old
    1a2b3c4d5e6f; new 9f8e7d6c5b4a'); else one line saying they agree. Two reports' findings differ
    by noise alone only where the same players played the same game."""
    lines = []
    for words, column in PROVENANCE:
        a, b = _provenance_values(old, column), _provenance_values(new, column)
        sides = [f"{side} {_listed(only)}" for side, only in (("old", a - b), ("new", b - a)) if only]
        if sides:
            lines.append(f"Provenance differs, {words}: " + "; ".join(sides))
    if lines:
        return lines
    fields = [words for words, _ in PROVENANCE]
    return [f"Provenance: the same {', '.join(fields[:-1])} and {fields[-1]}."]


def _provenance_values(df: pd.DataFrame, column: str) -> set[str]:
    """The values of `column` in a report's tables, hashes cut to 12 characters; parameters and
    models beside the strategy they are of; {'not recorded'} where the tables lack the column."""
    from kiai.reports.playing.tables import UNKNOWN_MODELS, models_of

    if column not in df:
        return {"not recorded"}
    values = df[column].fillna("not recorded").astype(str)
    if column in ("components_sha256", "engine"):
        values = values.str[:12]
    if column == "models":
        values = values.map(lambda v: v if v == UNKNOWN_MODELS else ";".join(
            f"{role}={sha[:12]}" for role, sha in models_of(v).items()) or "no model")
    if column in ("params", "models"):
        values = df["strategy"].astype(str) + " " + values
    return set(values)


def _listed(values: set[str]) -> str:
    shown = sorted(values)[:_SHOWN]
    more = len(values) - len(shown)
    return ", ".join(shown) + (f" and {more} more" if more else "")


def summary(table: pd.DataFrame) -> str:
    """'58 findings of In short compared: 12 the same, 45 within noise, 1 different; 20 new.'"""
    counts = table["verdict"].value_counts()
    both = len(table) - counts.get(NEW, 0) - counts.get(GONE, 0)
    text = (f"{both} findings of In short compared: {counts.get(SAME, 0)} the same, "
            f"{counts.get(WITHIN, 0)} within noise, {counts.get(DIFFERENT, 0)} different")
    for verdict, words in ((GONE, "in the old report only"), (NEW, "in the new report only")):
        if counts.get(verdict, 0):
            text += f"; {counts[verdict]} {words}"
    return text + "."


def differs(table: pd.DataFrame) -> bool:
    """True where a finding of the old report is different in the new, or gone."""
    return bool(table["verdict"].isin([DIFFERENT, GONE]).any())
