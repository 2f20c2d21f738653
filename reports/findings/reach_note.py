"""What the report says of Hard and Heroic, where it brackets nothing: the stored result of `make
reach` (reports.search.reach), read from package data: per team size, the share of deals the
search won within each count of nodes and the share it left unknown."""

from __future__ import annotations

from kiai.reports.findings.bracket import TOKENS_TEAM
from kiai.reports.findings.stored import read_stored
from kiai.reports.findings.wording import fmt_pct

STORED = "reach.json"


def stored() -> dict | None:
    """The stored result, or None where there is none (the study not run yet)."""
    return read_stored(STORED)


def _cell_words(c: dict, marks) -> str:
    """'N samurai a / b / c won, u unknown' (and the share proved lost, where there is one)."""
    won = " / ".join(fmt_pct(c["won_within"][str(m)] / c["deals"]) for m in marks)
    words = f"{c['n_samurai']} samurai {won} won, {fmt_pct(c['unknown'] / c['deals'])} unknown"
    if c["lost"]:
        words += f", {fmt_pct(c['lost'] / c['deals'])} proved lost"
        if c["n_samurai"] == TOKENS_TEAM:
            words += " without absent tokens (R-18: no bound)"
    return words


def sentence(levels, result: dict | None = None) -> str | None:
    """One paragraph on `levels` (those the report's table does not hold): the study's settings,
    then per level and team size the share won within each mark and the share unknown; None where
    the study holds none of them."""
    result = stored() if result is None else result
    cells = [c for c in (result or {}).get("cells", []) if c["difficulty"] in levels]
    if not cells:
        return None
    marks = result["marks"]
    held = [level for level in levels if any(c["difficulty"] == level for c in cells)]
    parts = [f"{level.capitalize()}: " + "; ".join(_cell_words(c, marks) for c in cells if c["difficulty"] == level)
             for level in held]
    return (f"How far the search reaches at {' and '.join(level.capitalize() for level in held)} (`make reach`, kiai "
            f"{result.get('commit', 'unknown')}: {result['deals']:,} deals a team size, seed {result['seed']}, shared "
            f"among its line-ups as above): the share won within {' / '.join(f'{m:,}' for m in marks)} turns played, "
            "and the share left unknown. " + ". ".join(parts)
            + ". The won share is a lower limit; the unknown deals may be won or lost, so nothing bounds these "
            "levels from above: the growth with the budget is evidence of how many more a longer search would "
            "win, not a bound.")
