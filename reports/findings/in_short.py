"""The report's "In short": for each team size, the sentences a board-game group reads first (how
hard each level is, the line-up to pick and to avoid, the seating of the pick, the rule mistakes
that matter), said from the findings of reports.findings.advice."""

from __future__ import annotations

import pandas as pd

from kiai.reports.findings.advice import (
    PLAIN_READINGS,
    grid_rows,
    level_rates,
    levels_present,
    lineup_rates,
    names,
    reading_effects,
    seating_advice,
    seating_rates,
    the_pick,
    tokens_off,
)
from kiai.reports.findings.wording import fmt_ci, fmt_pct, fmt_pp, fmt_pp_ci, fmt_rate, p_is


def lineup_sentence(pa: dict | None, n: int) -> str:
    if pa is None:  # one line-up: all seven samurai, or the only one of its size the table holds
        return ("Line-up: 7 samurai make a single line-up, all seven." if n == 7 else
                f"Line-up: the table holds a single line-up of {n} samurai, so none is compared.")
    level, best, worst = pa["level"].capitalize(), pa["best"], pa["worst"]
    if pa["no_wins"]:
        return f"Line-up: at {level} no line-up of {n} won a game, so none is ranked."
    head = f"Line-up (at {level}, {pa['lineups']} line-ups): "
    if not pa["separated"]:
        return (head + f"within noise: the best, {names(best['lineup'])} ({fmt_rate(best['wins'], best['games'])}), "
                f"and the worst, {names(worst['lineup'])} ({fmt_rate(worst['wins'], worst['games'])}), are not "
                f"told apart ({p_is(pa['p'])}).")
    tied = (f"; {pa['tied']} other line-up{'s are' if pa['tied'] != 1 else ' is'} within noise of it"
            if pa["tied"] else "")
    return (head + f"pick {names(best['lineup'])} ({fmt_rate(best['wins'], best['games'])}){tied}; avoid "
            f"{names(worst['lineup'])} ({fmt_rate(worst['wins'], worst['games'])}): "
            f"{fmt_pp(pa['diff'], signed=False)} apart ({fmt_pp_ci(pa['lo'], pa['hi'])}).")


def seating_sentence(sa: dict | None, n: int, level: str | None, lineup: str | None) -> str:
    if n == 2:
        return "Seating: two samurai have a single seating (each sits on the other's left)."
    if sa is None or lineup is None or sa["seatings"] < 2:
        return "Seating: not played for this team size (make report's advice stage plays it)."
    where = f"{names(lineup)} at {level.capitalize()}, {sa['seatings']:,} of its {sa['expected']:,} seatings"
    # the p of the best-minus-worst gap as chosen (advice.seating_advice), as the Seating table prints it
    p = sa.get("p_chosen", sa["p"])
    if not sa["separated"]:
        worst, best = sa["worst"], sa["best"]
        return (f"Seating ({where}): within noise; the seatings range from {fmt_rate(worst['wins'], worst['games'])} "
                f"to {fmt_rate(best['wins'], best['games'])} ({p_is(p)}, a test of the gap "
                "between the best and the worst, as chosen, when all win equally often).")
    if not sa.get("stands_out", True):
        # the winner of many noisy seatings is mostly luck: name it only when it stands out of them all
        worst, best = sa["worst"], sa["best"]
        return (f"Seating ({where}): the seatings differ ({p_is(p)}; from {fmt_rate(worst['wins'], worst['games'])} "
                f"to {fmt_rate(best['wins'], best['games'])}), but no seating stands out: the best's interval, "
                f"simultaneous over the {sa['seatings']:,}, overlaps others', so it is no advice.")
    return (f"Seating ({where}): sit {names(sa['best']['seating'])} clockwise "
            f"({fmt_rate(sa['best']['wins'], sa['best']['games'])}): it gains {fmt_pp(sa['diff'], signed=False)} "
            f"over the worst, {names(sa['worst']['seating'])} ({fmt_pp_ci(sa['lo'], sa['hi'])}; seatings differ, "
            f"{p_is(p)}).")


def rules_sentence(rules: pd.DataFrame, n: int) -> str | None:
    part = rules[rules["n_samurai"] == n] if not rules.empty else rules
    if part.empty:
        return None
    found = part[part["separated"]]
    if found.empty:
        return (f"Rule mistakes: none of V-1 to V-5 changes the win rate beyond noise "
                f"(at {', '.join(lv.capitalize() for lv in levels_present(part['difficulty']))}).")
    pieces = []
    for v, sub in found.groupby("v", sort=True):
        name = PLAIN_READINGS.get(sub["reading"].iloc[0], (v, sub["reading"].iloc[0], ""))[1]
        at = ", ".join(f"{r.difficulty.capitalize()} {fmt_pct(r.rate_default)} to {fmt_pct(r.rate_changed)} "
                       f"({fmt_pp(r.diff)})" for r in sub.itertuples())
        pieces.append(f"{v} ({name}): {at}")
    quiet = sorted(set(part["v"]) - set(found["v"]))
    tail = f"; {', '.join(quiet)} within noise" if quiet else ""
    return "Rule mistakes: " + "; ".join(pieces) + tail + "."


def how_hard(rates: pd.DataFrame, strong: pd.DataFrame | None, n: int, strategy: str | None = None) -> list[str]:
    """The sentence "How hard" of team size n, one line: the main strategy's rate at each level
    (`rates`, level_rates; kiai's default player, as a rule), and after it, at every level where
    either won a game, kiai's strongest player's with its interval (`strong`,
    views.strongest_rates), or "not told apart" where nothing measured it stronger than the default
    (strongest.told_apart): the reader should take neither player for the stronger there."""
    from kiai.reports.findings.strongest import DEFAULT_PLAYER, NOT_TOLD_APART, STRONGEST_PLAYER, default_strategy, name
    from kiai.strategies.registry import strongest

    part = rates[rates["n_samurai"] == n]
    count = int(part["lineups"].max())
    pooled = f"all its {count} line-ups pooled" if count > 1 else "its single line-up"
    player = (f"{DEFAULT_PLAYER} (`{default_strategy()}`)" if strategy in (None, default_strategy())
              else f"`{strategy}`")
    mine = (strong[strong["n_samurai"] == n].set_index("difficulty") if strong is not None and not strong.empty
            else pd.DataFrame())
    levels, any_strong, told = [], False, False
    for r in part.itertuples():
        text = f"{r.difficulty.capitalize()} {fmt_rate(r.wins, r.games)}"
        if r.difficulty in mine.index:
            s = mine.loc[r.difficulty]
            if r.wins > 0 or s["wins"] > 0:
                apart = bool(s.get("told_apart", True))
                text += (f", strongest {fmt_pct(s['rate'])} ({fmt_ci(s['lo'], s['hi'])})" if apart
                         else f", {NOT_TOLD_APART} ({fmt_pct(s['rate'])}; {fmt_ci(s['lo'], s['hi'])})")
                any_strong, told = True, told or apart
        levels.append(text)
    if not any_strong:
        return [f"How hard for {player}, {pooled}: " + "; ".join(levels) + "."]
    who = name(*strongest(n, str(part["difficulty"].iloc[0])))
    who = f"{STRONGEST_PLAYER}, {who}," if told else f"{who}, {NOT_TOLD_APART} from the default at any level,"
    return [f"How hard for {player}, {pooled}, and after each level's figure, for {who} "
            "on the same line-ups: " + "; ".join(levels) + "."]


def in_short(df: pd.DataFrame, strategy: str | None = None, strong: pd.DataFrame | None = None) -> dict[int, list[str]]:
    """{team size: sentences}: how hard each level is (for kiai's default player, and for its
    strongest where `strong`, views.strongest_rates, has it), the line-up to pick and to avoid, the
    seating of the pick, the rule readings that matter (and for two samurai, absent tokens off)."""
    grid = grid_rows(df, strategy)
    rates, lineups = level_rates(grid), lineup_rates(grid)
    rules = reading_effects(df, strategy)
    off = tokens_off(df, strategy)
    out: dict[int, list[str]] = {}
    for n in sorted(set(rates["n_samurai"].astype(int))):
        lines = how_hard(rates, strong, n, strategy)
        level, pick, pa = the_pick(df, rates, lineups, n, strategy)
        lines.append(lineup_sentence(pa, n))
        sa = seating_advice(seating_rates(df, level, pick, strategy), n) if pick else None
        lines.append(seating_sentence(sa, n, level, pick))
        sentence = rules_sentence(rules, n)
        if sentence:
            lines.append(sentence)
        if n == 2 and not off.empty:
            lines.append("Absent tokens (R-18, on by default with two samurai) turned off: " + "; ".join(
                f"{r.difficulty.capitalize()} {fmt_rate(r.wins_off, r.games_off)} instead of "
                f"{fmt_rate(r.wins_on, r.games_on)}"
                for r in off.itertuples()) + ".")
        out[n] = lines
    return out
