"""What the report's methods say of its intervals' coverage: the stored result of `make coverage`
(reports.search.coverage), read from package data, with the commit it was run on."""

from __future__ import annotations

from kiai.reports.findings.stored import read_stored

STORED = "coverage.json"


def stored() -> dict | None:
    """The stored result, or None where there is none (a check not run yet)."""
    return read_stored(STORED)


def sentence(result: dict | None = None) -> str | None:
    """One sentence for the methods: the study, and each kind's coverage and ratio."""
    result = stored() if result is None else result
    if not result:
        return None
    s = result["study"]
    kinds = result["kinds"]
    worst = min(r["coverage"] for r in kinds.values())
    widest = max(r["ratio"] for r in kinds.values())
    return (f"Coverage, checked: a small study ({s['size']} samurai {s['level'].capitalize()}, `{s['strategy']}` on every "
            f"line-up with `{s['strong']}` beside it, {s['games']:,} games a configuration) repeated over "
            f"{result['seeds']:,} seeds (`make coverage`, kiai {result.get('commit', 'unknown')}): each kind of interval "
            f"this page prints held its target (the mean of its estimates over the seeds; for the best seating's gain, "
            f"the true gap of the two chosen) in at least {worst:.0%} of the seeds, and the estimates "
            f"spread at most {widest:.2f} times as widely as the intervals said (1.96 times their spread over the mean "
            "half-width; 1 is exact).")
