"""What a board-game group asks of a sweep, per team size: how hard each level is, which line-up
to pick and which to avoid, how to seat the line-up picked, and what the common rule mistakes
change, as figures; the sentences of the report's "In short" are reports.findings.in_short's.

A finding is stated only when the data separate it from the alternatives: line-ups (or seatings)
must first differ as a group (a chi-square test that all of them win equally often), and then the
pick's 95% interval must not overlap the one to avoid. Otherwise the report says "within noise".
Configurations of a sweep share their deals, which correlates their results positively; the tests
and the intervals of differences used here treat them as independent, which makes them wider
(conservative), never narrower.

The main rows are those of the rules' own readings and the rules' default for absent tokens (on
with two samurai, off otherwise, R-18); the line-up grid is their rows seated in the line-up's own
order (the `default` preset plays every line-up so), one per line-up and level, on equal games.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from kiai.reports.findings.pooling import balanced, whole_counts
from kiai.reports.findings.wording import fmt_pct
from kiai.simcore import stats
from kiai.simcore.stats import difference_ci, proportion_ci_arrays
from kiai.simcore.codes import LEVELS, SAMURAI

ALPHA = 0.05
# the line-up advice of a team size is given at the hardest level where that team size still wins
# at least this share of games, pooled over its line-ups: below it, a level's line-ups are mostly
# told apart by a handful of wins
ADVICE_MIN_RATE = 0.10
DEFAULT_RULES = "default"
# short names for the charts, where four or more full names would not fit a label
ABBREVIATION = {name: name[:3] for name in SAMURAI}
assert len(set(ABBREVIATION.values())) == len(SAMURAI)

# what each reading (docs/rules.md section 14) means at the table, in plain words
PLAIN_READINGS = {
    "heal": ("V-1", "family bonus A heals a wounded samurai",
             "the samurai healed by family bonus A is drawn among the wounded ones only, instead of among "
             "all (where a draw of an unwounded samurai heals nothing)"),
    "penalty": ("V-2", "a card's penalty paid once",
                "the penalty of the last card of a line is paid once while the card stays there, instead of "
                "at every turn of its owner: the common table mistake"),
    "round-end": ("V-3", "the round ends only on a drawn last card",
                  "the round ends only when its last raider card is drawn, not as soon as the stack is empty "
                  "however it emptied"),
    "end-kiai": ("V-4", "Kiai during the end of the round",
                 "a samurai who turns animal during the end-of-round steps activates his Kiai at once"),
    "second-fight": ("V-5", "Kikuchiyo always fights twice",
                     "Kikuchiyo's extra fight is offered even when his total is above his Kiai value"),
}


# ------------------------------------------------------------------------------ wording


def names(lineup: str, short: bool = False) -> str:
    """A comma-joined line-up or seating for a page: 'kanbei, kyuzo' or, short, 'kan kyu'."""
    parts = [p.strip() for p in str(lineup).split(",")]
    return " ".join(ABBREVIATION.get(p, p) for p in parts) if short else ", ".join(parts)


# ------------------------------------------------------------------------------- rows


def _bool(values: pd.Series) -> pd.Series:
    if values.dtype == object:
        return values.astype(str).str.strip().str.lower().isin(("true", "1", "yes"))
    return values.astype(bool)


def rules_of(df: pd.DataFrame) -> pd.Series:
    if "rules" not in df:
        return pd.Series(DEFAULT_RULES, index=df.index, dtype=object)
    return df["rules"].astype(object).where(df["rules"].notna(), DEFAULT_RULES).astype(str)


def default_tokens(df: pd.DataFrame) -> pd.Series:
    """True where a row played the rules' default for absent tokens (R-18: on with two samurai)."""
    if "absent_tokens" not in df:
        return pd.Series(True, index=df.index)
    return _bool(df["absent_tokens"]) == (df["n_samurai"].astype(int) == 2)


def main_rows(df: pd.DataFrame, strategy: str | None = None) -> pd.DataFrame:
    """The rows of the rules' own readings and absent tokens (and of `strategy`, if given), with
    positive games; difficulty as text."""
    keep = (rules_of(df) == DEFAULT_RULES) & default_tokens(df) & (df["games"] > 0)
    if strategy is not None:
        keep &= df["strategy"].astype(str) == strategy
    return df[keep.to_numpy()].assign(difficulty=lambda d: d["difficulty"].astype(str))


def grid_rows(df: pd.DataFrame, strategy: str | None = None) -> pd.DataFrame:
    """The main rows (main_rows), one seating per line-up: a line-up played seated in its own order
    (the `default` preset's grid) counts by that row alone, so that every line-up counts once, on
    the same games, however many seatings of it were played; a line-up never seated so counts by
    all its rows."""
    return one_seating_per_lineup(main_rows(df, strategy))


def one_seating_per_lineup(d: pd.DataFrame) -> pd.DataFrame:
    """The rows of d seated in their line-up's own order, for every (strategy, level, line-up)
    that has such a row; all rows of the others."""
    if "seating" not in d or d.empty:
        return d
    own = (d["seating"].astype(str) == d["lineup"].astype(str)).to_numpy()
    keys = [c for c in ("strategy", "difficulty", "lineup") if c in d]
    has_own = pd.Series(own, index=d.index).groupby([d[k].astype(str) for k in keys]).transform("any").to_numpy()
    return d[own | ~has_own]


def _with_ci(pooled: pd.DataFrame) -> pd.DataFrame:
    pooled = pooled[pooled["games"] > 0].reset_index(drop=True)
    lo, hi, _ = proportion_ci_arrays(*whole_counts(pooled["wins"], pooled["games"]))
    return pooled.assign(rate=pooled["wins"] / pooled["games"], lo=lo, hi=hi)


def levels_present(values) -> list[str]:
    present = set(map(str, values))
    return [lv for lv in LEVELS if lv in present] + sorted(present - set(LEVELS))


def level_rates(grid: pd.DataFrame) -> pd.DataFrame:
    """Per level and team size: line-ups, wins and games summed over the grid's line-ups, each line-up
    counted once (pooling.balanced: effective counts where they played different games), rate and
    95% interval; levels easy to heroic."""
    if grid.empty:
        return pd.DataFrame(columns=["difficulty", "n_samurai", "lineups", "wins", "games", "rate", "lo", "hi"])
    grid = balanced(grid, ["difficulty", "n_samurai"])
    pooled = grid.groupby(["difficulty", "n_samurai"], as_index=False).agg(
        lineups=("lineup", "nunique"), wins=("wins", "sum"), games=("games", "sum"))
    order = {lv: i for i, lv in enumerate(levels_present(pooled["difficulty"]))}
    pooled = pooled.assign(_o=pooled["difficulty"].map(order)).sort_values(["_o", "n_samurai"]).drop(columns="_o")
    return _with_ci(pooled)


def lineup_rates(grid: pd.DataFrame) -> pd.DataFrame:
    """Per level, team size and line-up: wins, games, rate and 95% interval."""
    pooled = grid.groupby(["difficulty", "n_samurai", "lineup"], as_index=False)[["wins", "games"]].sum()
    return _with_ci(pooled)


def difference(w1, n1, w2, n2) -> tuple[float, float, float]:
    """(p1 - p2, lo, hi): Newcombe's 95% interval for a difference of two proportions."""
    return difference_ci(w1, n1, w2, n2)


def advice_level(rates: pd.DataFrame, n: int) -> str | None:
    """The level at which team size n's line-ups are compared: the hardest at which it wins at
    least ADVICE_MIN_RATE, else the easiest played."""
    part = rates[rates["n_samurai"] == n]
    if part.empty:
        return None
    levels = levels_present(part["difficulty"])
    fit = [lv for lv in levels if float(part.loc[part["difficulty"] == lv, "rate"].iloc[0]) >= ADVICE_MIN_RATE]
    return fit[-1] if fit else levels[0]


def pick_avoid(lineups: pd.DataFrame, level: str, n: int, seated: dict[str, int] | None = None) -> dict | None:
    """The line-up of n samurai to pick at `level` ("best") and the worst, their gap, and whether
    the data separate them: line-ups differ as a group (chi-square, p < ALPHA) and the two 95%
    intervals do not overlap. None with fewer than two line-ups.

    The pick is the line-up of the highest rate; with `seated` ({line-up: seatings played}), the
    one played in most seatings among those within noise of it (their interval reaches its lower
    bound), so that the pick is the line-up the advice stage seated in every way even where
    tables added later (the ladder's longer runs) move the highest rate to a line-up tied with it."""
    part = lineups[(lineups["difficulty"] == level) & (lineups["n_samurai"] == n)]
    if len(part) < 2:
        return None
    part = part.sort_values(["rate", "lineup"], ascending=[False, True]).reset_index(drop=True)
    best, worst = part.iloc[0], part.iloc[-1]
    if seated:
        tied = part[part["hi"] >= best["lo"]]
        counts = tied["lineup"].map(lambda x: seated.get(str(x), 1))
        best = tied.iloc[int(np.argmax(counts.to_numpy()))]  # the first of the most seated: rates descend
    p = stats.homogeneity_p(part["wins"], part["games"])
    diff, lo, hi = difference(best["wins"], best["games"], worst["wins"], worst["games"])
    separated = bool(p < ALPHA and best["lo"] > worst["hi"])
    # line-ups whose interval reaches the pick's: as good as it, as far as the data tell
    tied = int(((part["hi"] >= best["lo"]).sum()) - 1)
    return {"level": level, "n": n, "lineups": len(part), "best": best, "worst": worst, "diff": diff,
            "lo": lo, "hi": hi, "p": p, "separated": separated, "tied": tied,
            "no_wins": bool(part["wins"].sum() == 0), "table": part}


def recommended_lineups(df: pd.DataFrame, strategy: str | None = None) -> dict[int, tuple[str, str]]:
    """{team size: (level, line-up)}: the line-up to pick per team size (pick_avoid's best, at
    advice_level), from a results table holding the `default` preset's grid; the one line-up of
    a size with a single line-up."""
    grid = grid_rows(df, strategy)
    rates, lineups = level_rates(grid), lineup_rates(grid)
    out = {}
    for n in sorted(set(rates["n_samurai"].astype(int))):
        level = advice_level(rates, n)
        part = lineups[(lineups["difficulty"] == level) & (lineups["n_samurai"] == n)]
        if part.empty:
            continue
        best = part.sort_values(["rate", "lineup"], ascending=[False, True]).iloc[0]
        out[n] = (level, str(best["lineup"]))
    return out


def seatings_played(df: pd.DataFrame, level: str, strategy: str | None = None) -> dict[str, int]:
    """{line-up: distinct seatings played at `level`} over the main rows."""
    from kiai.simcore.seatings import seating_key

    d = main_rows(df, strategy)
    d = d[d["difficulty"] == level]
    if d.empty:
        return {}
    return d.assign(seat=d["seating"].map(seating_key)).groupby("lineup")["seat"].nunique().to_dict()


def the_pick(df: pd.DataFrame, rates: pd.DataFrame, lineups: pd.DataFrame, n: int,
             strategy: str | None = None) -> tuple[str | None, str | None, dict | None]:
    """(level, line-up to pick, pick_avoid's result) for team size n: pick_avoid at advice_level with
    the seatings played, or the one line-up of a size that has one."""
    level = advice_level(rates, n)
    if level is None:
        return None, None, None
    pa = pick_avoid(lineups, level, n, seatings_played(df, level, strategy))
    if pa is not None:
        return level, str(pa["best"]["lineup"]), pa
    part = lineups[(lineups["difficulty"] == level) & (lineups["n_samurai"] == n)]
    return level, (str(part["lineup"].iloc[0]) if len(part) else None), None


def seating_rates(df: pd.DataFrame, level: str, lineup: str, strategy: str | None = None) -> pd.DataFrame:
    """Every seating of `lineup` played at `level` (main rows), each with its rate and interval,
    best first. A seating is keyed in its canonical rotation (rotations are the same seating)."""
    from kiai.simcore.seatings import seating_key

    d = main_rows(df, strategy)
    d = d[(d["difficulty"] == level) & (d["lineup"].astype(str) == lineup)]
    if d.empty:
        return pd.DataFrame(columns=["seating", "wins", "games", "rate", "lo", "hi"])
    d = d.assign(seating=d["seating"].map(seating_key))
    pooled = _with_ci(d.groupby("seating", as_index=False)[["wins", "games"]].sum())
    return pooled.sort_values(["rate", "seating"], ascending=[False, True]).reset_index(drop=True)


def seating_advice(seatings: pd.DataFrame, n: int) -> dict:
    """Best and worst seating of one line-up, the gain (best minus worst, with an interval that
    holds whichever two were chosen: chosen_gap), whether the seatings differ as a group (`p`, the
    homogeneity test), the gain's selection-aware p (`p_chosen`: how often every seating winning
    equally often gives a gap as wide, simcore.stats.extremes_p), and whether the best stands out
    of them all (seating_verdict). The best is `separated` from the worst only when p_chosen is
    below ALPHA: choosing the extremes of many noisy rates widens their gap by itself. All its
    (n-1)! seatings are expected; `complete` says whether the table holds them all."""
    expected = math.factorial(n - 1)
    out = {"seatings": len(seatings), "expected": expected, "complete": len(seatings) >= expected}
    if len(seatings) < 2:
        return {**out, "separated": False}
    best, worst = seatings.iloc[0], seatings.iloc[-1]
    p = stats.homogeneity_p(seatings["wins"], seatings["games"])
    p_chosen = stats.extremes_p(seatings["wins"], seatings["games"])
    diff = best["wins"] / best["games"] - worst["wins"] / worst["games"]
    lo, hi = chosen_gap(seatings)
    return {**out, "best": best, "worst": worst, "diff": diff, "lo": lo, "hi": hi, "p": p, "p_chosen": p_chosen,
            "separated": bool(p_chosen < ALPHA), "stands_out": seating_verdict(seatings)["best"] is not None}


def chosen_gap(seatings: pd.DataFrame) -> tuple[float, float]:
    """A 95% interval for the best seating's rate minus the worst's (seatings best first) that
    holds however the two were chosen: every seating's interval at 1 - 0.05/k (Bonferroni, k
    seatings) holds all k true rates at once with probability at least 95%, so the chosen two's
    true gap lies between the best's lower limit less the worst's upper and the other way round.
    Newcombe's interval, as if the two had been named in advance, runs high: the winner's curse."""
    k = len(seatings)
    lo, hi, _ = proportion_ci_arrays(seatings["wins"].to_numpy(), seatings["games"].to_numpy(), level=1 - 0.05 / k)
    return float(lo[0] - hi[-1]), float(hi[0] - lo[-1])


def seating_verdict(seatings: pd.DataFrame) -> dict:
    """The seatings of one line-up at one level (seating_rates) with intervals simultaneous
    over them (Bonferroni): the best is named only when its lower limit lies above every other
    seating's upper limit; otherwise no seating stands out. The winner of many noisy seatings is
    mostly luck, so a plain 95% interval would name one far too often."""
    k = len(seatings)
    lo, hi, _ = proportion_ci_arrays(seatings["wins"].to_numpy(), seatings["games"].to_numpy(), level=1 - 0.05 / k)
    best = int(np.argmax(seatings["rate"].to_numpy()))
    others = np.delete(hi, best)
    stands_out = bool(k >= 2 and lo[best] > others.max())
    rows = [[s, int(w), int(g), round(float(a), 5), round(float(b), 5), fmt_pct(w / g)] for s, w, g, a, b in
            zip(seatings["seating"], seatings["wins"], seatings["games"], lo, hi)]
    return {"rows": rows, "best": str(seatings["seating"].iloc[best]) if stands_out else None}


# -------------------------------------------------------------------------- rule readings


def reading_pairs(df: pd.DataFrame, strategy: str | None = None) -> pd.DataFrame:
    """The rows played under a changed reading (one or several, e.g. 'heal=wounded,penalty=once'),
    each beside its rules'-own partner: the default-reading row of the same seating, level,
    strategy, parameters, absent tokens and seed (the two played the first deals of the seed; a race
    may have stopped one before the other), whose wins and games come as wins_default, games_default."""
    d = df[(df["games"] > 0).to_numpy()].assign(difficulty=lambda x: x["difficulty"].astype(str),
                                                rules=rules_of(df))
    if strategy is not None:
        d = d[d["strategy"].astype(str) == strategy]
    key = [c for c in ("difficulty", "seating", "strategy", "params", "absent_tokens", "seed") if c in d]
    base = d[d["rules"] == DEFAULT_RULES].sort_values("games", ascending=False, kind="stable").drop_duplicates(key)
    changed = d[d["rules"] != DEFAULT_RULES]
    if changed.empty or base.empty:
        return changed.assign(wins_default=0, games_default=0).iloc[:0]
    return changed.merge(base[key + ["wins", "games"]], on=key, suffixes=("", "_default"))


def reading_lineups(df: pd.DataFrame, strategy: str | None = None) -> pd.DataFrame:
    """Per changed reading, level and line-up (reading_pairs): wins, games, rate and 95% interval
    under the reading, and the rules' own wins, games and rate on the same deals; the rows of
    house_rules_lineups.csv and of the page's form. Absent tokens as the rules have them (R-18), as
    every line-up's rate on the page."""
    from kiai.simcore.readings import BY_NAME

    columns = ["rules", "v", "difficulty", "n_samurai", "lineup", "wins", "games", "rate", "lo", "hi",
               "wins_default", "games_default", "rate_default"]
    both = reading_pairs(df[default_tokens(df).to_numpy()], strategy)
    if both.empty:
        return pd.DataFrame(columns=columns)
    pooled = _with_ci(both.groupby(["rules", "difficulty", "n_samurai", "lineup"], as_index=False)[
        ["wins", "games", "wins_default", "games_default"]].sum())
    v = [", ".join(BY_NAME[n].v if n in BY_NAME else n for n in (item.partition("=")[0] for item in r.split(",")))
         for r in pooled["rules"]]
    order = {lv: i for i, lv in enumerate(levels_present(pooled["difficulty"]))}
    out = pooled.assign(v=v, rate_default=pooled["wins_default"] / pooled["games_default"])
    return out.assign(_o=out["difficulty"].map(order)).sort_values(["v", "_o", "n_samurai", "lineup"])[
        columns].reset_index(drop=True)


def reading_effects(df: pd.DataFrame, strategy: str | None = None) -> pd.DataFrame:
    """Every single changed reading against the rules' own, on the same configurations
    (reading_pairs). Per reading, level and team size: line-ups, games and wins under each (each
    line-up counted once: pooling.balanced), the difference (changed minus default) with Newcombe's
    95% interval, and whether the interval excludes zero."""
    from kiai.simcore.readings import BY_NAME

    columns = ["reading", "v", "value", "difficulty", "n_samurai", "lineups", "games_default", "games_changed",
               "wins_default", "wins_changed", "rate_default", "rate_changed", "diff", "lo", "hi", "separated"]
    both = reading_pairs(df, strategy)
    both = both[~both["rules"].str.contains(",")]
    if both.empty:
        return pd.DataFrame(columns=columns)
    rows = []
    for (label, level, n), part in both.groupby(["rules", "difficulty", "n_samurai"]):
        name, _, value = label.partition("=")
        changed_side, default_side = _pooled_pair(part["wins"], part["games"], part["wins_default"],
                                                  part["games_default"])
        diff, lo, hi = difference(*changed_side, *default_side)
        reading = BY_NAME.get(name)
        rows.append({"reading": name, "v": reading.v if reading else "", "value": value, "difficulty": level,
                     "n_samurai": int(n), "lineups": part["lineup"].nunique(), "games_default": default_side[1],
                     "games_changed": changed_side[1], "wins_default": default_side[0],
                     "wins_changed": changed_side[0], "rate_default": default_side[0] / default_side[1],
                     "rate_changed": changed_side[0] / changed_side[1], "diff": diff, "lo": lo, "hi": hi,
                     "separated": bool(lo > 0 or hi < 0)})
    out = pd.DataFrame(rows, columns=columns)
    order = {lv: i for i, lv in enumerate(levels_present(out["difficulty"]))}
    return out.assign(_o=out["difficulty"].map(order)).sort_values(["v", "_o", "n_samurai"]).drop(
        columns="_o").reset_index(drop=True)


def _pooled_pair(wins_a, games_a, wins_b, games_b) -> tuple[tuple[float, float], tuple[float, float]]:
    """Two sides of paired rows, each pooled with every row counted once: ((wins, games), (wins,
    games)), effective counts where the rows played different games (pooling)."""
    from kiai.reports.playing.stopping import pooled

    out = []
    for w, g in ((wins_a, games_a), (wins_b, games_b)):
        rate, size = pooled(w, g)
        out.append((rate * size, size))
    return out[0], out[1]


def tokens_off(df: pd.DataFrame, strategy: str | None = None) -> pd.DataFrame:
    """Two samurai with absent tokens off against the rules' default (on), per level, on the line-ups
    played both ways (seated in their own order): games and wins of each (each line-up counted once:
    _pooled_pair), and the difference (off minus on) with Newcombe's interval."""
    d = df[(rules_of(df) == DEFAULT_RULES).to_numpy() & (df["n_samurai"] == 2).to_numpy()
           & (df["games"] > 0).to_numpy()]
    if strategy is not None:
        d = d[d["strategy"].astype(str) == strategy]
    if "absent_tokens" not in d or d.empty:
        return pd.DataFrame()
    d = d[d["seating"].astype(str) == d["lineup"].astype(str)].assign(
        difficulty=lambda x: x["difficulty"].astype(str), on=lambda x: _bool(x["absent_tokens"]))
    key = [c for c in ("difficulty", "seating", "strategy", "params", "seed") if c in d]
    on_rows = d[d["on"]].sort_values("games", ascending=False, kind="stable").drop_duplicates(key)
    both = on_rows.merge(d[~d["on"]][key + ["wins", "games"]], on=key, suffixes=("_on", "_off"))
    rows = []
    for level in levels_present(both["difficulty"]):
        part = both[both["difficulty"] == level]
        (off, games_off), (on, games_on) = _pooled_pair(part["wins_off"], part["games_off"], part["wins_on"],
                                                        part["games_on"])
        diff, lo, hi = difference(off, games_off, on, games_on)
        rows.append({"difficulty": level, "lineups": part["lineup"].nunique(), "games_on": games_on,
                     "games_off": games_off, "wins_on": on, "wins_off": off, "diff": diff, "lo": lo, "hi": hi})
    return pd.DataFrame(rows)
