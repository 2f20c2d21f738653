"""Copy the report's charts that README.md and docs/report.md show from a `make report` run into
docs/img/.

    .venv/bin/python docs/report_images.py               # from kiai-report/
    .venv/bin/python docs/report_images.py other-report   # from another report folder

Every chart must be there: a report made without the advice, agreement or ladder stages would leave the
pages showing pictures of another run, so a missing one is an error and nothing is copied.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
IMAGES = ("winrate_by_level", "lineups_4", "samurai_effect", "house_rules", "skill_ladder", "agreement")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("report", nargs="?", type=Path, default=ROOT / "kiai-report", help="the report's folder")
    args = ap.parse_args(argv)
    found = [args.report / f"{stem}.png" for stem in IMAGES]
    missing = [p.name for p in found if not p.is_file()]
    if missing:
        print(f"report_images: {args.report} lacks {', '.join(missing)} (run make report first)", file=sys.stderr)
        return 1
    target = ROOT / "docs" / "img"
    target.mkdir(exist_ok=True)
    for path in found:
        shutil.copyfile(path, target / path.name)
        print(f"{path} -> {(target / path.name).relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
