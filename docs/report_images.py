"""Copy the report's charts that README.md and docs/report.md show from a `make report` run into
docs/img/, and photograph the page's first screen there: the grid "At a glance" (1,400 px) and the
form "Your table" answering a line-up on a phone (390 px), through tests/browser.py (Chromium under
Playwright).

    .venv/bin/python docs/report_images.py               # from kiai-report/
    .venv/bin/python docs/report_images.py other-report   # from another report folder

Every chart must be there: a report made without the advice, agreement or ladder stages would leave the
pages showing pictures of another run, so a missing one is an error and nothing is copied. Without
Chromium or Playwright the charts are copied and the photographs left as they were, with one line
saying so.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
IMAGES = ("winrate_by_level", "lineups_4", "samurai_effect", "house_rules", "skill_ladder", "agreement")
# (file, window width, the page's address fragment, the element photographed)
SHOTS = (("glance.png", 1400, "", "#glance"),
         ("your_table.png", 390, "#table=kanbei,kikuchiyo,heihachi,daisuke&level=easy", "#your-table-box"))


def photograph(page: Path, target: Path) -> None:
    """The SHOTS of the report's page, into target."""
    sys.path.insert(0, str(ROOT / "tests"))
    import browser  # tests/browser.py: the one browser harness

    missing = browser.available()
    if missing:
        print(f"report_images: pictures of the page not taken: {missing}", file=sys.stderr)
        return
    with browser.chromium() as b:
        for name, width, fragment, element in SHOTS:
            with browser.open_page(page, width, fragment=fragment, browser=b) as live:
                live.locator(element).screenshot(path=str(target / name))
            print(f"{page}{fragment} at {width} px -> {(target / name).relative_to(ROOT)}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("report", nargs="?", type=Path, default=ROOT / "kiai-report", help="the report's folder")
    args = ap.parse_args(argv)
    found = [args.report / f"{stem}.png" for stem in IMAGES]
    missing = [p.name for p in found if not p.is_file()]
    if missing or not (args.report / "report.html").is_file():
        missing += [] if (args.report / "report.html").is_file() else ["report.html"]
        print(f"report_images: {args.report} lacks {', '.join(missing)} (run make report first)", file=sys.stderr)
        return 1
    target = ROOT / "docs" / "img"
    target.mkdir(exist_ok=True)
    for path in found:
        shutil.copyfile(path, target / path.name)
        print(f"{path} -> {(target / path.name).relative_to(ROOT)}")
    photograph(args.report / "report.html", target)
    return 0


if __name__ == "__main__":
    sys.exit(main())
