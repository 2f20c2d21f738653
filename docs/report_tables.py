"""Fill docs/strategies.md's table of kiai's strongest player per team size and level from a
`make report` run's level_rates.csv: the default's rate and the strongest's on the agreement
stage's deals, their difference with its 95% interval, and whether the strongest was told apart
(reports.findings.strongest.told_apart).

    .venv/bin/python docs/report_tables.py               # from kiai-report/
    .venv/bin/python docs/report_tables.py other-report   # from another report folder

The table sits between `<!-- from make report: strongest -->` and `<!-- end from make report -->`;
nothing else of the page changes. A report without the agreement stage is an error.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "strategies.md"
OPEN, CLOSE = "<!-- from make report: strongest -->", "<!-- end from make report -->"


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def table(rates: pd.DataFrame) -> str:
    from kiai.reports.findings.advice import levels_present
    from kiai.reports.findings.strongest import NOT_TOLD_APART
    from kiai.strategies.registry import strongest

    default = rates[rates["player"] == "default"].set_index(["level", "n_samurai"])
    strong = rates[rates["player"] == "strongest"]
    if strong.empty or "told_apart" not in strong:
        raise SystemExit("report_tables: the report has no strongest player's rates (its agreement stage)")
    order = {lv: i for i, lv in enumerate(levels_present(strong["level"]))}
    strong = strong.assign(_o=strong["level"].map(order)).sort_values(["n_samurai", "_o"])
    lines = ["| samurai | level | default | strongest player | its rate, same line-ups | difference (95%) | |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for r in strong.itertuples():
        d = default.loc[(r.level, r.n_samurai)]
        name = strongest(int(r.n_samurai), str(r.level))[0]
        told = str(r.told_apart).lower() == "true"
        diff = (f"{100 * r.diff:+.1f} ({100 * r.diff_lo:+.1f} to {100 * r.diff_hi:+.1f})"
                if pd.notna(r.diff) else "")
        lines.append(f"| {r.n_samurai} | {r.level} | {pct(d['win_rate'])} | `{name}` | {pct(r.win_rate)} "
                     f"({r.games:,.0f} games) | {diff} | {'stronger' if told else NOT_TOLD_APART} |")
    return "\n".join(lines)


def fill(text: str, block: str) -> str:
    pattern = re.compile(re.escape(OPEN) + r".*?" + re.escape(CLOSE), re.S)
    if not pattern.search(text):
        raise SystemExit(f"report_tables: {PAGE.name} has no {OPEN} block")
    return pattern.sub(lambda _: f"{OPEN}\n{block}\n{CLOSE}", text)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder", nargs="?", default=str(ROOT / "kiai-report"))
    a = ap.parse_args(argv)
    path = Path(a.folder) / "level_rates.csv"
    if not path.exists():
        print(f"report_tables: no {path} (make report first)", file=sys.stderr)
        return 2
    PAGE.write_text(fill(PAGE.read_text(), table(pd.read_csv(path))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
