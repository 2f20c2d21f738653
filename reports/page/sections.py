"""The report's sections after the headline: which line-up, seating, house rules and common mistakes,
and how games were lost (reports.page.report lists every section in page order)."""

from __future__ import annotations

import pandas as pd

from kiai.reports.findings import advice
from kiai.reports.findings.effects import best_worst_seatings, neighbour_effect_tests, samurai_effects
from kiai.reports.findings.advice import names
from kiai.reports.findings.wording import fmt_ci, fmt_p, fmt_pct, fmt_pp, fmt_pp_ci, fmt_rate
from kiai.reports.page import charts
from kiai.reports.page import effects as eff
from kiai.reports.page.render import Page
from kiai.reports.page.scope import Inputs, csv_columns, spread
from kiai.words import plural

COMPACT = 3  # rows kept at each end of a long table shown on the page; the CSV holds them all
SEATING_ROWS = 10  # seatings table: the line-ups where seating matters most, shown on the page

# ------------------------------------------------------------------------------ content

# heading and how-to-read text of the charts drawn from every level's games, keyed by their file names
CAPTIONS = {
    "loss_causes": (
        "How games were lost",
        "Stacks show lost games as a share of all games, split by the round in which they were "
        "lost (left) and by the first cause in time (right); the whisker on top is the 95% interval of "
        "the loss rate.",
    ),
    "score_grades": (
        "Scores and grades of won games",
        "Each panel shows how a level's wins spread over grades (the score followed by the "
        "level's + marks), as a share of that level's wins with 95% intervals; each panel has its own scale.",
    ),
}


def lineups(page: Page, inputs: Inputs) -> None:
    """The section "Which line-up": each samurai's effect, and the line-ups of each team size."""
    scope = inputs.scope
    page.add(("h2", "Which line-up"))
    grid = scope.grid
    if grid.empty:
        page.add(("note", "Not drawn: the table holds no games."))
        return
    page.add(("p", scope.line(f"every line-up played, at every level, each seated in its own order "
                              f"({scope.games_each()})")))
    page.add(("h3", "Each samurai's effect"))
    if page.chart("samurai_effect", eff.plot_samurai_effects, "Each samurai's effect", grid):
        page.add(("p", "For each level and team size, a cell is the win rate of the line-ups that include the "
                       "samurai minus that of the line-ups without him, in percentage points: purple helps, orange "
                       "hurts. A cell marked * (in bold) has a 95% interval (Newcombe's) that excludes zero; the "
                       "others are within noise. Seven samurai have no line-up without any of them."))
        effects = samurai_effects(grid)
        page.csv("samurai_effects.csv", effects.drop(columns="variant").rename(columns={"difficulty": "level"}),
                 "each samurai's effect, with its interval")
    rates = advice.lineup_rates(grid)
    for n in sorted(set(rates["n_samurai"].astype(int))):
        count = rates.loc[rates["n_samurai"] == n, "lineup"].nunique()
        page.add(("h3", f"Line-ups of {n} samurai"))
        if count < 2:
            only = rates[rates["n_samurai"] == n].iloc[0]["lineup"]
            page.add(("p", f"{n} samurai make a single line-up ({names(only)}); its rates are in the level table."))
            continue
        if page.chart(f"lineups_{n}", charts.plot_lineups, f"Line-ups of {n} samurai", grid, n):
            page.add(("p", f"All {count} line-ups of {n} samurai at each level: a dot is a line-up's win rate, the "
                           "bar its 95% interval, best on top. A panel is ranked only where the line-ups differ (a "
                           "chi-square test, p < 0.05); where the best's and the worst's intervals do not overlap, "
                           "they are drawn green and orange. Names are shortened to their first three letters."))
        page.add(("details", f"Top and bottom {COMPACT} line-ups of {n} samurai per level",
                  _compact_lineups(rates[rates["n_samurai"] == n])))
    page.csv("lineups.csv", csv_columns(rates), "every line-up at every level")


def _compact_lineups(rates: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for level in advice.levels_present(rates["difficulty"]):
        part = rates[rates["difficulty"] == level].sort_values(["rate", "lineup"], ascending=[False, True])
        part = part.reset_index(drop=True)
        if part["wins"].sum() == 0:  # nothing to rank: say so rather than list line-ups at 0
            rows.append({"level": level, "rank": "-", "line-up": f"none won ({len(part)} line-ups)",
                         "win rate": f"0 of {int(part['games'].sum()):,}", "95% interval": ""})
            continue
        keep = sorted(set(range(min(COMPACT, len(part)))) | set(range(max(len(part) - COMPACT, 0), len(part))))
        for i in keep:
            r = part.iloc[i]
            rows.append({"level": level, "rank": f"{i + 1} of {len(part)}", "line-up": names(r["lineup"]),
                         "win rate": fmt_rate(r["wins"], r["games"]), "95% interval": fmt_ci(r["lo"], r["hi"])})
    return pd.DataFrame(rows)


def _seating_scope(main: pd.DataFrame) -> tuple[str, int] | None:
    """The level and team size with the most line-ups played in several seatings."""
    from kiai.simcore.seatings import seating_key

    if "seating" not in main or main.empty:
        return None
    d = main.assign(seat=main["seating"].map(seating_key))
    several = d.groupby(["difficulty", "n_samurai", "lineup"])["seat"].nunique()
    several = several[several >= 2].reset_index().groupby(["difficulty", "n_samurai"]).size()
    if several.empty:
        return None
    order = {lv: i for i, lv in enumerate(advice.levels_present(several.index.get_level_values(0)))}
    best = sorted(several.items(), key=lambda kv: (-kv[1], order[kv[0][0]], kv[0][1]))[0][0]
    return str(best[0]), int(best[1])


def _pick_seatings(main: pd.DataFrame, grid: pd.DataFrame) -> tuple[list[dict], list[pd.DataFrame]]:
    """A row per team size of three or more: its pick's seatings (advice.seating_advice), and the
    seatings themselves; `grid` is main's one seating per line-up (advice.grid_rows)."""
    rates, lineups = advice.level_rates(grid), advice.lineup_rates(grid)
    rows, every = [], []
    for n in sorted(set(rates["n_samurai"].astype(int)) - {2}):
        level, pick, _ = advice.the_pick(main, rates, lineups, n)
        if pick is None:
            continue
        seats = advice.seating_rates(main, level, pick)
        sa = advice.seating_advice(seats, n)
        every.append(seats.assign(level=level, n_samurai=n, lineup=pick))
        row = {"samurai": n, "level": level, "line-up": names(pick),
               "seatings": f"{sa['seatings']:,} of {sa['expected']:,}"}
        if sa["seatings"] < 2:
            rows.append({**row, "best seating": "", "worst seating": "", "gain": "not played", "p (as chosen)": ""})
            continue
        short = n >= 4
        rows.append({**row,
                     "best seating": f"{names(sa['best']['seating'], short)}: "
                                     f"{fmt_rate(sa['best']['wins'], sa['best']['games'])}",
                     "worst seating": f"{names(sa['worst']['seating'], short)}: "
                                      f"{fmt_rate(sa['worst']['wins'], sa['worst']['games'])}",
                     "gain": f"{fmt_pp(sa['diff'], signed=False)} ({fmt_pp_ci(sa['lo'], sa['hi'])})"
                             + (", within noise" if not sa["separated"]
                                else "" if sa["stands_out"] else ", no seating stands out"),
                     "p (as chosen)": fmt_p(sa["p_chosen"])})
    return rows, every


def seating(page: Page, inputs: Inputs) -> None:
    """The section "Seating": the pick's seatings, neighbour effects, and every line-up's seatings."""
    main, scope = inputs.views.main, inputs.scope
    page.add(("h2", "Seating"), ("h3", "The line-up to pick, in every seating"))
    rows, every = _pick_seatings(main, scope.grid)
    if rows:
        page.add(("p", scope.line("for each team size, the line-up to pick (In short) in every seating played, "
                                  "at the level its line-ups are compared; two samurai have a single seating")),
                 ("table", pd.DataFrame(rows)),
                 ("p", "Gain: the best seating's win rate minus the worst's, as chosen from these games, before any "
                       "confirmation on fresh deals: choosing the extremes of many noisy rates widens their gap by "
                       "itself, the more so the more seatings there are. Its 95% interval holds however the two were "
                       "chosen (each seating's interval made simultaneous over all of them, the best's limits less "
                       "the worst's), so it is wide where many seatings were played. p (as chosen): how often "
                       "a gap as wide arises when every seating wins equally often (simulated from the pooled rate, "
                       "each seating with its own games), which counts the choosing. The gain counts only when this "
                       "p is below 0.05; otherwise it is within noise. Even then a best seating is advice (In short) "
                       "only where its interval, simultaneous over all the seatings, lies above every other's; "
                       "otherwise no seating stands out. Four or more names are shortened to three letters, seated "
                       "clockwise."))
        page.csv("pick_seatings.csv", csv_columns(pd.concat(every, ignore_index=True)),
                 "every seating of each line-up to pick")
    else:
        page.add(("note", "No table: no team size of three or more samurai was played."))

    page.add(("h3", "Neighbour effects"))
    where = _seating_scope(main)
    if where is None:
        page.add(("note", "Not drawn: no line-up was played in two or more seatings at one level."))
        return
    level, n = where
    part = main[(main["difficulty"] == level) & (main["n_samurai"] == n)]
    seatings = best_worst_seatings(part)
    page.add(("p", scope.line(f"{level}, {n} samurai, the {plural(len(seatings), 'line-up')} played in several "
                              f"seatings there ({plural(int(seatings['seatings'].sum()), 'seating')}, "
                              f"{spread(part['games'])} games each)")))
    page.chart("neighbour_effect", eff.plot_neighbour_effects, "Neighbour effects", part)
    page.add(("p", "Row A, column B is how much a seating gains (percentage points, against the mean of the same "
                   "line-up's seatings) when A sits directly to B's left, so that A plays right after B. Purple "
                   "helps, orange hurts, grey had no seating with that pair. A cell marked * (in bold) differs from "
                   "zero (a t-test over the seatings that put A left of B, Holm-adjusted over the cells); the "
                   "others are within noise."))
    tests = neighbour_effect_tests(part)
    if tests:
        mean, count, p = next(iter(tests.values()))
        cells = pd.DataFrame({"a_left_of_b": [a for a in mean.index for _ in mean.columns],
                              "b": [b for _ in mean.index for b in mean.columns],
                              "effect_pp": mean.to_numpy().ravel(), "seatings": count.to_numpy().ravel(),
                              "p_holm": p.to_numpy().ravel()}).dropna(subset=["effect_pp"])
        page.csv("neighbour_effects.csv", cells, "neighbour effects with their p-values")
    page.add(("h3", f"Seatings of every line-up of {n} samurai at {level}"))
    ordered = seatings.sort_values(["spread (pp)", "line-up"], ascending=[False, True]).reset_index(drop=True)
    shown = _seatings_table(ordered, n)
    clear = int((ordered["p (Holm)"].astype(float) < 0.05).sum())
    page.add(("p", scope.line(f"{level}, {n} samurai, every seating of each line-up listed") + " "
                   f"The line-ups where seating matters most come first (by the spread between their best and "
                   f"worst seating); {clear} of {len(ordered)} differ beyond noise (a chi-square test that all "
                   "seatings win equally often, Holm-adjusted over the line-ups, below 0.05). Seats clockwise, "
                   "names shortened to three letters."),
             ("table", shown.head(SEATING_ROWS)))
    if len(shown) > SEATING_ROWS:
        page.add(("details", f"All {len(shown)} line-ups", shown))
    page.csv("seatings.csv", ordered.drop(columns="strategy"), "best and worst seating of every line-up")


def _seatings_table(table: pd.DataFrame, n: int) -> pd.DataFrame:
    short = n >= 4
    return pd.DataFrame({
        "line-up": [names(x, short) for x in table["line-up"]],
        "best seating": [names(x, short) for x in table["best seating"]],
        "best": [fmt_pct(x / 100) for x in table["best (%)"]],
        "worst seating": [names(x, short) for x in table["worst seating"]],
        "worst": [fmt_pct(x / 100) for x in table["worst (%)"]],
        "spread": [fmt_pp(x / 100, signed=False) for x in table["spread (pp)"]],
        "p (Holm)": [fmt_p(x) for x in table["p (Holm)"]],
    })


def house_rules(page: Page, inputs: Inputs) -> None:
    """The section "House rules and common mistakes": each rule reading against the rules' own, and
    two samurai without absent tokens."""
    played, strategy, scope = inputs.views.played, inputs.views.strategy, inputs.scope
    page.add(("h2", "House rules and common mistakes"))
    rules = advice.reading_effects(played, strategy)
    if rules.empty:
        page.add(("note", "Not drawn: the table holds no games under another rule reading paired with the "
                          "rules' own (make report's default sweep plays them)."))
    else:
        changed = played[(advice.rules_of(played) != advice.DEFAULT_RULES).to_numpy()]
        levels = ", ".join(advice.levels_present(rules["difficulty"]))
        page.add(("p", f"Scope: {levels}; {plural(changed['lineup'].nunique(), 'line-up')} "
                       f"({int(rules['lineups'].max())} at most per team size), each seated in its own order, every "
                       f"reading on the same deals as the rules' own ({spread(changed['games'])} games each); "
                       f"strategy `{strategy}`, {scope.seed()}. Line-ups: "
                       + "; ".join(names(x, short=True) for x in sorted(set(changed["lineup"].astype(str)), key=lambda x: (len(x), x)))
                       + " (the first three letters of each name)."))
        items = []
        for name, (v, short, plain) in advice.PLAIN_READINGS.items():
            if (rules["reading"] == name).any():
                value = rules.loc[rules["reading"] == name, "value"].iloc[0]
                items.append(f"{v}, {short} (`--rule {name}={value}`): {plain}.")
        page.add(("ul", items))
        page.chart("house_rules", eff.plot_house_rules, "House rules and common mistakes", rules)
        page.add(("p", "A cell is the win rate under the reading minus under the rules' own, in percentage points, "
                       "the same line-ups on the same deals: purple makes the game easier, orange harder. A cell "
                       "marked * (in bold) has a 95% interval (Newcombe's) that excludes zero. That interval "
                       "ignores the pairing of the deals, so it is wider than need be: a cell within noise may still "
                       "hide a small effect, which `kiai compare --rules` can test on one line-up with a paired "
                       "test."))
        table = pd.DataFrame({
            "reading": [f"{r.v} {r.reading}={r.value}" for r in rules.itertuples()],
            "level": rules["difficulty"], "samurai": rules["n_samurai"].astype(int),
            "rules' own": [fmt_rate(r.wins_default, r.games_default) for r in rules.itertuples()],
            "changed": [fmt_rate(r.wins_changed, r.games_changed) for r in rules.itertuples()],
            "difference": [f"{fmt_pp(r.diff)} ({fmt_pp_ci(r.lo, r.hi)})" + ("" if r.separated else ", within noise")
                           for r in rules.itertuples()],
        })
        page.add(("details", "Every reading, level and team size", table))
        page.csv("house_rules.csv", rules.rename(columns={"difficulty": "level"}), "every reading against the rules' own")
        page.csv("house_rules_lineups.csv", csv_columns(advice.reading_lineups(played, strategy)),
                 "every line-up under every reading, beside the rules' own on the same deals")
    off = advice.tokens_off(played, strategy)
    if not off.empty:
        page.add(("h3", "Two samurai without absent tokens"),
                 ("p", "With two samurai the rules hand out the absent samurai's support tokens (R-18), and every "
                       "2-samurai result on this page plays with them. Without them (`--absent-tokens off`), the "
                       f"same {int(off['lineups'].max())} line-ups, each seated in its own order, on the same deals "
                       f"({spread(off['games_off'] / off['lineups'])} games each without them), win:"),
                 ("table", pd.DataFrame({
                     "level": off["difficulty"],
                     "tokens on (the rules)": [fmt_rate(r.wins_on, r.games_on) for r in off.itertuples()],
                     "tokens off": [fmt_rate(r.wins_off, r.games_off) for r in off.itertuples()],
                     "difference": [f"{fmt_pp(r.diff)} ({fmt_pp_ci(r.lo, r.hi)})" for r in off.itertuples()],
                 })))


def losses_and_grades(page: Page, inputs: Inputs) -> None:
    """The sections "How games were lost" and "Scores and grades of won games"."""
    scope = inputs.scope
    for stem, plot in (("loss_causes", charts.plot_loss_causes), ("score_grades", charts.plot_score_grades)):
        heading, how_to_read = CAPTIONS[stem]
        # one seating per line-up, as the level table: the many seatings of a few line-ups at one level
        # would otherwise outweigh the rest of that level
        page.add(("h2", heading), ("p", scope.line("every level and team size, all line-ups pooled, each seated in "
                                                   "its own order")))
        if page.chart(stem, plot, heading, scope.grid):
            page.add(("p", how_to_read))
