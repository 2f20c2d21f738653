"""The data of "Your table", the report's form: for every level and line-up the report played, the
figures a group asks of its own table (win rate, rank among the line-ups of its size, kiai's
strongest player's rate, each member's effect, how its games were lost, its seatings), taken from
the same rows as the page's tables and CSV files, as JSON that the page's script (your_table.js)
reads. Everything is decided here, in Python and under test; the script only looks it up and
writes it out, so that the page cannot say what the tables do not.
"""

from __future__ import annotations

import json
from importlib import resources

import numpy as np
import pandas as pd

from kiai.reports.findings import advice
from kiai.reports.findings.effects import samurai_effects
from kiai.reports.findings.wording import fmt_ci, fmt_pct, fmt_pp, fmt_pp_ci
from kiai.reports.page.render import Page
from kiai.reports.page.scope import Inputs
from kiai.simcore.codes import LEVELS, SAMURAI
from kiai.simcore.stats import proportion_ci_arrays

# kiai's strongest player plays the first deals of each line-up only (the agreement stage): below
# this many games its rate of one line-up is known to no better than about +/-10 points, too
# loose to help a group choose, so the form says there were too few and gives the command instead
STRONG_MIN_GAMES = 100
# the level a link without level= means, and the form's level on a fresh page: what kiai plays
# without -d
DEFAULT_LEVEL = "normal"
# games a printed command plays: a line-up's rate within about +/-2 points, a seating's within 3
SIMULATE_GAMES, COMPARE_GAMES = 2000, 1000
LOSS_COLUMNS = {"death": "out_death", "farmsteads": "out_farmsteads", "families": "out_families",
                "round 1": "lost_round_1", "round 2": "lost_round_2", "round 3": "lost_round_3"}


def _r(x: float, digits: int = 5) -> float:
    return round(float(x), digits)


def _key(level: str, lineup: str) -> str:
    return f"{level}|{lineup}"


def rank_range(part: pd.DataFrame) -> pd.DataFrame:
    """Each line-up's rank among `part` (the line-ups of one level and team size; rate, lo, hi) as a
    range: from 1 + those whose interval lies wholly above its own, to the count less those wholly
    below. Where the race left line-ups unresolved, their ranges overlap."""
    lo, hi = part["lo"].to_numpy(), part["hi"].to_numpy()
    above = (lo[None, :] > hi[:, None]).sum(axis=1)
    below = (hi[None, :] < lo[:, None]).sum(axis=1)
    return part.assign(rank_best=1 + above, rank_worst=len(part) - below)


def _losses(grid: pd.DataFrame) -> dict[str, dict[str, int]]:
    present = {label: col for label, col in LOSS_COLUMNS.items() if col in grid}
    if not present:
        return {}
    sums = grid.groupby(["difficulty", "lineup"])[list(present.values())].sum()
    return {_key(lv, lu): {label: int(row[col]) for label, col in present.items()}
            for (lv, lu), row in sums.iterrows()}


def _strongest(shown: pd.DataFrame) -> dict[str, dict]:
    """kiai's strongest player's wins and games of each level and line-up (its rows of the rules' own
    readings, the agreement stage's where the table holds them (agreement.own_race), one seating
    per line-up, each configuration's longest run once), with a 95% interval."""
    from kiai.reports.findings.agreement import own_race
    from kiai.reports.findings.ladder import distinct_games
    from kiai.reports.findings.strongest import tiers

    if shown.empty:
        return {}
    strong = own_race(shown[(tiers(shown) == "strongest").to_numpy()])
    if strong.empty:
        return {}
    rates = advice.lineup_rates(advice.grid_rows(distinct_games(strong)))
    out = {_key(r.difficulty, r.lineup): {"wins": int(round(r.wins)), "games": int(r.games), "lo": _r(r.lo),
                                          "hi": _r(r.hi), **_words(r.rate, r.lo, r.hi)} for r in rates.itertuples()}
    # the default on the same deals (the agreement stage): those few first deals may be easier or
    # harder than the default's thousands, and the reader should see which
    for (level, lineup), (wins, games, strong) in _both_on_same_deals(shown).items():
        if _key(level, lineup) in out:
            out[_key(level, lineup)]["same"] = {"wins": wins, "games": games, "pct": fmt_pct(wins / games),
                                                "strong_wins": strong, "strong_pct": fmt_pct(strong / games)}
    return out


def _both_on_same_deals(shown: pd.DataFrame) -> dict[tuple[str, str], tuple[int, int, int]]:
    """{(level, line-up): (the default's wins, games, the strongest's wins)} on the deals both played
    (agreement.paired_rows): the strongest's own figure may pool more deals than these (another
    stage's run on other deals)."""
    from kiai.reports.findings.agreement import STRONG, paired_rows
    from kiai.reports.findings.strongest import default_strategy

    pairs = paired_rows(shown, default_strategy())
    if pairs.empty:
        return {}
    sums = {}
    for side, rows in (("default", pairs[pairs["strategy"] != STRONG]), ("strong", pairs[pairs["strategy"] == STRONG])):
        sums[side] = advice.one_seating_per_lineup(rows).groupby(["difficulty", "lineup"])[["wins", "games"]].sum()
    both = sums["default"].merge(sums["strong"], left_index=True, right_index=True, suffixes=("", "_strong"))
    return {(str(lv), str(lu)): (int(r["wins"]), int(r["games"]), int(r["wins_strong"]))
            for (lv, lu), r in both.iterrows() if r["games"] > 0 and r["games"] == r["games_strong"]}


def _words(rate: float, lo: float, hi: float) -> dict[str, str]:
    """A rate and its interval as the rest of the page words them (reports.findings.wording), so that the
    form's figures read exactly as the tables' do."""
    return {"pct": fmt_pct(rate), "ci": fmt_ci(lo, hi)}


def _effects(grid: pd.DataFrame) -> dict[str, dict[str, list[float]]]:
    effects = samurai_effects(grid) if not grid.empty else pd.DataFrame()
    out: dict[str, dict[str, list[float]]] = {}
    for r in effects.itertuples():
        out.setdefault(f"{r.difficulty}|{int(r.n_samurai)}", {})[r.samurai] = [
            _r(r.diff), _r(r.ci_low), _r(r.ci_high), f"{fmt_pp(r.diff)} ({fmt_pp_ci(r.ci_low, r.ci_high)})"]
    return out


def _seatings(main: pd.DataFrame, strategy: str) -> dict[str, dict]:
    """Every level and line-up whose seatings the report played (two or more): the advice stage's
    picks, every 4-samurai line-up at Easy."""
    from kiai.simcore.seatings import seating_key

    if main.empty or "seating" not in main:
        return {}
    d = advice.main_rows(main, strategy)
    counts = d.assign(seat=d["seating"].map(seating_key)).groupby(["difficulty", "lineup"])["seat"].nunique()
    out = {}
    for (level, lineup), count in counts.items():
        if count >= 2:
            table = advice.seating_rates(main, level, lineup, strategy)
            # each seating's own rate with its 95% interval: the headline of a group seated so
            rates = {r.seating: {"wins": int(r.wins), "games": int(r.games), **_words(r.rate, r.lo, r.hi)}
                     for r in table.itertuples()}
            out[_key(level, lineup)] = {**advice.seating_verdict(table), "rates": rates}
    return out


def _seated(grid: pd.DataFrame) -> dict[str, str | None]:
    """The seating (seat 0 first, in its canonical rotation) whose games each level and line-up's
    figures of the grid are; None where they pool several seatings of it."""
    from kiai.simcore.seatings import seating_key

    if grid.empty or "seating" not in grid:
        return {}
    seats = grid.assign(seat=grid["seating"].map(seating_key)).groupby(["difficulty", "lineup"])["seat"].unique()
    return {_key(lv, lu): (str(s[0]) if len(s) == 1 else None) for (lv, lu), s in seats.items()}


def _names(seating: str) -> str:
    """A seating as the form writes it: 'heihachi,daisuke' -> 'Heihachi, Daisuke'."""
    return ", ".join(s.capitalize() for s in seating.split(","))


def whose(line: dict, seatings: bool = True) -> dict[str, str]:
    """The words that say whose a line-up's figures are, for a group that typed a seating other than
    the one they are of (`line`: the line-up's entry, its `seating` None where it pools several).
    The script shows them as they are: `played` after the typed seating's own rate, where the
    report played that seating (only where it played the line-up's seatings: `seatings`); `other`
    after the line-up's rate, where it did not; `of` beside the rank, the strongest player and the
    losses, which are the line-up's."""
    seated = line["seating"]
    if seated:
        words = {"played": f", seated as you typed; the line-up seated {_names(seated)}, as the rank below compares "
                           f"it: {line['pct']}",
                 "other": f", seated {_names(seated)}: the seating the report played, not yours",
                 "of": f"seated {_names(seated)}"}
    else:
        words = {"played": f", seated as you typed; the line-up, all its seatings pooled: {line['pct']}",
                 "other": ", pooled over the seatings of this line-up the report played, not yours",
                 "of": "its seatings pooled"}
    return words if seatings else {k: v for k, v in words.items() if k != "played"}


def _readings(played: pd.DataFrame, strategy: str) -> dict[str, dict]:
    """Every rule reading other than the rules' own that the report played (the default sweep plays
    V-1..V-5 on a few line-ups per team size at a few levels), one or several at once as the
    `rules` column names them: its V-numbers, its plain words, and for each level and line-up played
    under it (advice.reading_lineups, house_rules_lineups.csv) its rate with interval beside the rules'
    own on the same seating and seed."""
    rows = advice.reading_lineups(played, strategy) if not played.empty else pd.DataFrame()
    out: dict[str, dict] = {}
    for rules, part in rows.groupby("rules", sort=False) if not rows.empty else ():
        items = [item.partition("=") for item in rules.split(",")]
        words = "; ".join(" ".join(advice.PLAIN_READINGS.get(name, ("", f"{name}={value}"))[:2]).strip()
                          for name, _, value in items)
        out[rules] = {"v": part["v"].iloc[0], "words": words,
                      "rows": {_key(r.difficulty, r.lineup): {
                          "wins": int(round(r.wins)), "games": int(r.games), "lo": _r(r.lo), "hi": _r(r.hi),
                          **_words(r.rate, r.lo, r.hi), "own": {"wins": int(round(r.wins_default)),
                                                                "games": int(r.games_default),
                                                                "pct": fmt_pct(r.rate_default)}}
                               for r in part.itertuples()}}
    return out


def rule_readings() -> list[dict]:
    """Every reading a group may pick in the form (simcore.readings, docs/rules.md section 14): its
    V-number, the option that plays it, the rules' own value (for `kiai compare --rules`) and its
    plain words."""
    from kiai.simcore.readings import READINGS

    return [{"v": r.v, "name": r.name, "value": r.values[1], "own": r.default,
             "words": advice.PLAIN_READINGS[r.name][1] if r.name in advice.PLAIN_READINGS else r.summary}
            for r in READINGS]


def table_data(grid: pd.DataFrame, main: pd.DataFrame, shown: pd.DataFrame, strategy: str,
               played: pd.DataFrame | None = None) -> dict:
    """The JSON the form reads: every played level and line-up of the grid (advice.grid_rows of the
    main strategy, as the line-up tables and lineups.csv) with its rate, interval, rank range,
    the seating those are of (None: pooled over several) and the words that say so (whose), and
    beside them the strongest player's rates, the effects, the losses, the seatings and the rule
    readings played (`played`: the main strategy's rows of every reading)."""
    rates = advice.lineup_rates(grid) if not grid.empty else pd.DataFrame()
    lineups, seatings = {}, _seatings(main, strategy)
    if not rates.empty:
        ranked = pd.concat([rank_range(part) for _, part in rates.groupby(["difficulty", "n_samurai"])])
        counts = ranked.groupby(["difficulty", "n_samurai"])["lineup"].transform("count")
        seated = _seated(grid)
        for r, of in zip(ranked.itertuples(), counts):
            key = _key(r.difficulty, r.lineup)
            lineups[key] = {
                "wins": int(round(r.wins)), "games": int(r.games), "rate": _r(r.rate), "lo": _r(r.lo), "hi": _r(r.hi),
                **_words(r.rate, r.lo, r.hi), "rank": [int(r.rank_best), int(r.rank_worst)], "of": int(of),
                "seating": seated.get(key)}
            lineups[key]["whose"] = whose(lineups[key], key in seatings)
    seeds = sorted(set(grid["seed"].astype(int))) if "seed" in grid and not grid.empty else [0]
    return {"samurai": list(SAMURAI), "levels": [lv for lv in LEVELS], "default_level": DEFAULT_LEVEL,
            "strategy": strategy, "seed": seeds[0], "strong_min_games": STRONG_MIN_GAMES,
            "simulate_games": SIMULATE_GAMES, "compare_games": COMPARE_GAMES,
            "lineups": lineups, "strongest": _strongest(shown), "effects": _effects(grid),
            "losses": _losses(grid), "seatings": seatings,
            "readings": _readings(played if played is not None else pd.DataFrame(), strategy),
            "rule_readings": rule_readings()}


def script() -> str:
    """The form's script, shipped beside this module."""
    return resources.files("kiai.reports.page").joinpath("your_table.js").read_text(encoding="utf-8")


def as_json(data: dict) -> str:
    """The data for a <script type="application/json">: no '</' can close the element early."""
    return json.dumps(data, separators=(",", ":"), allow_nan=False).replace("</", "<\\/")


def form_html(data: dict) -> str:
    """The form, its answer box, its data and its script, as one piece of HTML."""
    boxes = "".join(f'<label><input type="checkbox" name="samurai" value="{s}"> {s.capitalize()}</label>'
                    for s in data["samurai"])
    levels = "".join(f'<option value="{lv}"{" selected" if lv == data["default_level"] else ""}>{lv.capitalize()}</option>'
                     for lv in data["levels"])
    return (
        '<div id="your-table-box"><form id="your-table-form" class="your-table" autocomplete="off">'
        f'<fieldset><legend>Tick your samurai (2 to 7), in the order you sit, clockwise</legend>'
        f'<div class="samurai">{boxes}</div></fieldset>'
        f'<label class="level">Level <select name="level">{levels}</select></label>'
        # filled by the script: the readings the report played at the level and team size picked
        '<label class="rules">Rule reading <select name="rules"><option value="">the rules\' own</option>'
        '</select></label>'
        '<p class="order" id="your-order"></p>'
        '</form>'
        '<div id="your-answer" class="answer" aria-live="polite"><p>Tick your samurai and pick a level.</p></div></div>'
        f'<script type="application/json" id="your-table-data">{as_json(data)}</script>'
        f"<script>{script()}</script>"
    )


def section(page: Page, inputs: Inputs) -> None:
    """The section "Your table": the form (HTML), or a note saying where it is (Markdown)."""
    v = inputs.views
    page.add(("h2", "Your table"),
             ("html", form_html(table_data(inputs.scope.grid, v.main, v.shown, v.strategy, v.played)),
              [("note", markdown_note())]))


def markdown_note() -> str:
    return ("*Your table: report.html has a form here that answers for your own line-up and level "
            "(open it in a browser).*")
