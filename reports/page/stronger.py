"""The report's section "Does it hold for stronger players?" (reports.page.agreement computes it)."""

from __future__ import annotations

import pandas as pd

from kiai.reports.page import advice, agreement
from kiai.reports.page.advice import names
from kiai.reports.page.wording import fmt_ci, fmt_pp, fmt_pp_ci, fmt_rate
from kiai.reports.page.render import Page
from kiai.reports.page.scope import csv_columns, spread
from kiai.words import plural

AGREEMENT_HEADING = "Does it hold for stronger players?"


def agreement_section(page: Page, shown: pd.DataFrame, main: pd.DataFrame, strategy: str) -> None:
    """Three findings of the page played again by kiai's strongest player on the same deals
    (reports.page.agreement): the win rate by level and team size, each samurai's effect, the best and
    worst line-ups; their rank correlations, and a flag on each part the two reverse beyond noise."""
    from kiai.reports.page.strongest import STRONGEST_PLAYER, who

    strong = agreement.STRONG
    page.add(("h2", AGREEMENT_HEADING))
    pairs = agreement.paired_rows(shown, strategy, strong)
    if pairs.empty:
        page.add(("note", f"Not drawn: no table was played by both `{strategy}` and {STRONGEST_PLAYER} on the same "
                          "deals (make report plays the preset agreement)."))
        return
    rates, orders = agreement.levels(pairs, strategy, strong)
    cell = agreement.effect_cell(pairs)
    effects = every = shown_lineups = reversals = None
    if cell is not None:
        level, n = cell
        effects = agreement.effects(pairs, level, n, strategy, strong)
        every, shown_lineups, reversals = agreement.lineups(pairs, main, level, n, strategy, strong)
    seeds = sorted(set(pairs["seed"].astype(int))) if "seed" in pairs else []
    check = pairs[(pairs["difficulty"] == cell[0]) & (pairs["n_samurai"] == cell[1])] if cell is not None else None
    page.add(
        ("p", f"Every finding above is `{strategy}`'s, kiai's default player. Some could come from how it plays "
              "rather than from the game: a samurai it plays badly looks weak. So the main sweep's tables are played "
              f"again by {STRONGEST_PLAYER} ({who(pairs['n_samurai'].unique())}; they weigh each answer by playing "
              f"the game on), and set beside `{strategy}` on the same tables and the same deals. Where the two "
              f"agree, the finding holds for stronger players; where they part, it is `{strategy}`'s, not the "
              "game's."),
        ("p", f"Scope: {plural(len(pairs) // 2, 'table')} of the main sweep, each played by both on the same "
              f"deals, {spread(pairs['games'])} games each, seated in its own order: every line-up at each level "
              "and team size, until the strongest player's rate, all line-ups pooled, is known within two points (or to be "
              "under 2%)"
              + (f"; the {check['lineup'].nunique()} line-ups of {cell[1]} samurai at {cell[0].capitalize()} "
                 f"{spread(check['games'])} games each, for the checks of effects and rankings"
                 if check is not None else "")
              + "; the rules' own readings, "
              + (f"each line-up on deals of its own ({len(seeds):,} seeds, drawn from the sweep's seed and the line-up)."
                 if len(seeds) > 3 else f"seed {', '.join(map(str, seeds)) or 'not recorded'}.")),
        ("ul", _agreement_lines(pairs, rates, orders, effects, every, reversals, cell, strategy, strong)),
        ("p", f"FLAG: reversed marks a comparison that `{strategy}` and the {strong} each tell apart from noise "
              "but in opposite directions: both 95% intervals of the difference exclude zero, on opposite sides. "
              "\"holds\": both tell it apart, the same way; \"X within noise\": only the other one does. The "
              "intervals (Newcombe's) ignore that the games share their deals, which makes them wider than paired "
              "ones: a flag needs a clear difference both ways. The rank correlation is Spearman's, with its "
              "p-value."))
    where = f" at {cell[0]}, {cell[1]} samurai" if cell is not None else ""
    page.chart("agreement", agreement.plot_agreement, AGREEMENT_HEADING, rates, effects, shown_lineups, strategy,
               strong, where)
    page.add(("p", f"Left, each level and team size: {STRONGEST_PLAYER}'s win rate against `{strategy}`'s, on the "
                   "same tables and deals, where either won a game (log scales; above the dashed diagonal the "
                   "strongest player wins more; an open triangle won no game for one of them)."
                   + (" Middle and right: each samurai's effect and the best and worst line-ups, each strategy's "
                      "value with its 95% interval." if cell is not None else "")))

    _levels_part(page, rates, orders, strategy, strong)
    if cell is None:
        page.add(("note", "No level and team size holds four or more line-ups played by both, so each samurai's "
                          "effect and the best and worst line-ups are not compared."))
        return
    _checks_part(page, cell, effects, every, shown_lineups, reversals, strategy, strong)


def _levels_part(page: Page, rates: pd.DataFrame, orders: pd.DataFrame, strategy: str, strong: str) -> None:
    """How hard, played by both: a table of the two rates per level and team size, the orders reversed."""
    from kiai.reports.page.strongest import STRONGEST_PLAYER

    page.add(("h3", f"How hard, played by {STRONGEST_PLAYER}"))
    table = rates.assign(cell=[f"{fmt_rate(r.wins_a, r.games_a)} → {fmt_rate(r.wins_b, r.games_b)}"
                               for r in rates.itertuples()])
    pivot = table.pivot(index="difficulty", columns="n_samurai", values="cell")
    pivot = pivot.reindex(advice.levels_present(rates["difficulty"]))
    pivot.columns = [f"{int(n)} samurai" for n in pivot.columns]
    page.add(("p", f"Each cell: `{strategy}`'s win rate → {STRONGEST_PLAYER}'s, on the same tables and deals, the "
                   "line-ups of the scope pooled."),
             ("table", pivot.reset_index().rename(columns={"difficulty": "level"}).fillna("not played")))
    page.add(*_reversal_blocks(orders, "order", "pairs of team sizes at one level or of levels at one team size",
                               strategy, strong))
    page.csv("agreement_levels.csv", _suffixed(csv_columns(rates), strategy, strong),
             f"win rate per level and team size, {strategy} and {strong}")
    page.csv("agreement_orders.csv", _suffixed(orders, strategy, strong),
             "every order of two team sizes at one level or of two levels at one team size")


def _checks_part(page: Page, cell, effects, every, shown_lineups, reversals, strategy: str, strong: str) -> None:
    """Each samurai's effect, and the best and worst line-ups, played by both, at the check's cell."""
    from kiai.reports.page.strongest import STRONGEST_PLAYER

    level, n = cell
    page.add(("h3", f"Each samurai's effect, played by {STRONGEST_PLAYER}"),
             ("p", f"At {level.capitalize()} with {n} samurai: the win rate of the line-ups with him minus those "
                   "without, in percentage points, with its 95% interval."),
             ("table", pd.DataFrame({
                 "samurai": effects["samurai"],
                 strategy: [f"{fmt_pp(r.diff_a)} ({fmt_pp_ci(r.ci_low_a, r.ci_high_a)})" for r in effects.itertuples()],
                 strong: [f"{fmt_pp(r.diff_b)} ({fmt_pp_ci(r.ci_low_b, r.ci_high_b)})" for r in effects.itertuples()],
                 "agree?": effects["status"],
             })))
    page.csv("agreement_effects.csv", _suffixed(effects, strategy, strong),
             f"each samurai's effect, {strategy} and {strong}")
    count, rows = len(every), list(shown_lineups.itertuples())
    page.add(("h3", f"Best and worst line-ups, played by {STRONGEST_PLAYER}"),
             ("p", f"The {agreement.TOP} best and {agreement.TOP} worst of the {count} line-ups of {n} samurai at "
                   f"{level.capitalize()} by the main sweep's `{strategy}` win rates, on "
                   f"{spread(every['games_main'].dropna())} games each; then each strategy on the games both played, "
                   f"and the line-up's rank among the {count} for the {strong}."),
             ("table", pd.DataFrame({
                 "line-up": [names(x) for x in shown_lineups["lineup"]],
                 "main sweep": [_ranked(r.wins_main, r.games_main, r.rank_main, count) for r in rows],
                 strategy: [f"{fmt_rate(r.wins_a, r.games_a)} ({fmt_ci(r.lo_a, r.hi_a)})" for r in rows],
                 strong: [f"{fmt_rate(r.wins_b, r.games_b)} ({fmt_ci(r.lo_b, r.hi_b)})" for r in rows],
                 f"{strong}'s rank": [f"{int(r.rank_b)} of {count}" for r in rows],
             })))
    page.add(*_reversal_blocks(reversals.assign(first=reversals["first"].map(names),
                                                second=reversals["second"].map(names)),
                               "order", "pairs of these line-ups", strategy, strong))
    page.csv("agreement_lineups.csv", _suffixed(every, strategy, strong),
             f"every line-up of {n} samurai at {level}, {strategy} and {strong}")


def _suffixed(table: pd.DataFrame, strategy: str, strong: str) -> pd.DataFrame:
    """reports.page.agreement's columns for a CSV: the suffixes _a and _b as the strategies' names."""
    strong = strong.replace(" ", "_")
    return table.rename(columns=lambda c: c[:-2] + "_" + strategy if c.endswith("_a")
                        else c[:-2] + "_" + strong if c.endswith("_b") else c)


def _ranked(wins, games, rank, count: int) -> str:
    if pd.isna(games) or pd.isna(rank):
        return "not played"
    return f"{fmt_rate(wins, games)} ({int(rank)} of {count})"


def _agreement_lines(pairs, rates, orders, effects, every, reversals, cell, strategy: str, strong: str) -> list[str]:
    """One line per finding: its rank correlation, and how its comparisons fared. Whether the
    strongest wins more at a level and team size reads the deals both played where the rows kept
    their games' wins (shared_difference), else Newcombe's interval."""
    won = rates[(rates["wins_a"] > 0) | (rates["wins_b"] > 0)]  # both at 0: a tie that says nothing of the order
    rho = agreement.rank_correlation(won["rate_a"], won["rate_b"])
    more = []
    for r in rates.itertuples():
        part = pairs[(pairs["difficulty"].astype(str) == str(r.difficulty)) & (pairs["n_samurai"] == r.n_samurai)]
        d = shared_difference(part, strong) or advice.difference(r.wins_b, r.games_b, r.wins_a, r.games_a)
        more.append(agreement.sign(*d[1:]))
    lines = [f"How hard: {agreement.fmt_rho(*rho, 'levels and team sizes where either won a game')}; "
             f"{_tally(orders, 'orders')} "
             f"The {strong} wins more than `{strategy}` beyond noise (on the deals both played) at {more.count(1)} of the {len(rates)} levels and "
             f"team sizes, less at {more.count(-1)}."]
    if cell is not None:
        level, n = cell
        rho = agreement.rank_correlation(effects["diff_a"], effects["diff_b"])
        lines.append(f"Each samurai's effect at {level.capitalize()}, {n} samurai: "
                     f"{agreement.fmt_rho(*rho, 'samurai')}; {_tally(effects, 'signs')}")
        rho = agreement.rank_correlation(every["rate_a"], every["rate_b"])
        best, worst = every.iloc[0], every.iloc[-1]
        lines.append(f"Best and worst line-ups at {level.capitalize()}, {n} samurai: "
                     f"{agreement.fmt_rho(*rho, 'line-ups')}; the main sweep's best ({names(best['lineup'])}) "
                     f"ranks {int(best['rank_b'])} of {len(every)} for the {strong}, its worst "
                     f"({names(worst['lineup'])}) {int(worst['rank_b'])}; among the {agreement.TOP} best and "
                     f"{agreement.TOP} worst, {_tally(reversals, 'orders')}")
    return lines


def _tally(table: pd.DataFrame, what: str) -> str:
    """'2 of 96 orders reversed beyond noise (flagged); 80 hold, 14 within noise for one or both.'"""
    status = table["status"]
    flagged = int((status == agreement.REVERSED).sum())
    holds = int((status == agreement.HOLDS).sum())
    head = (f"{flagged} of {len(table)} {what} reversed beyond noise (flagged)" if flagged
            else f"none of {len(table)} {what} reversed beyond noise")
    return (f"{head}; {holds} hold{'s' if holds == 1 else ''}, {len(table) - flagged - holds} within noise for one "
            "or both.")


def _reversal_blocks(table: pd.DataFrame, what: str, among: str, strategy: str, strong: str) -> list[tuple]:
    """The comparisons flagged (reversed beyond noise), as a list, or a line saying there are none."""
    flagged = table[table["status"] == agreement.REVERSED]
    if table.empty:
        return []
    if flagged.empty:
        return [("p", f"No {what} of the {len(table)} {among} is reversed beyond noise.")]
    return [("p", f"{agreement.REVERSED}: {plural(len(flagged), what)} of the {len(table)} {among} "
                  f"(first minus second):"),
            ("ul", [f"{r.first} against {r.second}: `{strategy}` {fmt_pp(r.diff_a)} ({fmt_pp_ci(r.lo_a, r.hi_a)}), "
                    f"the {strong} {fmt_pp(r.diff_b)} ({fmt_pp_ci(r.lo_b, r.hi_b)})." for r in flagged.itertuples()])]


def shared_difference(pairs: pd.DataFrame, strong: str) -> tuple[float, float, float] | None:
    """(strongest - default, lo, hi) read over the deals both played (simcore.stats.paired_difference:
    the rows of one seed met the same deals), for one cell's paired rows (agreement.paired_rows)
    where every row kept its games' wins (tables' `outcomes`: the agreement stage's race reads
    them), one row per line-up and player, the rows of a seed on the same games; None otherwise (the
    caller falls back on Newcombe's interval)."""
    from kiai.reports.playing.tables import outcome_bits
    from kiai.simcore.stats import deal_parts, paired_difference

    if pairs.empty or "outcomes" not in pairs:
        return None
    counts = pairs.groupby(["lineup", "strategy"]).size()
    if counts.max() != 1 or pairs.groupby("lineup")["strategy"].nunique().min() != 2:
        return None
    bits = [outcome_bits(t) for t in pairs["outcomes"]]
    if any(b is None or b.size != int(n) for b, n in zip(bits, pairs["games"])):
        return None
    if (pairs.groupby("seed")["games"].nunique() != 1).any():
        return None
    return paired_difference(deal_parts(bits, pairs["strategy"].astype(str) == strong, pairs["seed"]))


def strongest_rates(df: pd.DataFrame, main: pd.DataFrame) -> pd.DataFrame:
    """kiai's strongest player's win rate by level and team size, beside `main` (the default's,
    advice.level_rates over all its line-ups), with a 95% interval: columns difficulty, n_samurai,
    lineups, wins and games (its own, pooled: advice.level_rates), rate, lo, hi.

    Only where it played every line-up the default did (the agreement stage does; the skill
    ladder's few line-ups are no rate of a team size), and only the agreement stage's games where
    the table holds them (agreement.own_race: not the ladder's games of the same player); a
    configuration played twice counts by its longer run of the same deals. Its rate is read on its
    own games: each line-up met deals of its own, so they are independent. The default's games on
    the same deals would not narrow it: on a deal the two players' wins barely correlate (the
    play's own luck outweighs the deal's), so the default's rate plus the difference on the deals
    both played is wider than this."""
    from kiai.reports.page.agreement import own_race
    from kiai.reports.page.ladder import distinct_games
    from kiai.reports.page.strongest import tiers

    strong = own_race(df[(tiers(df) == "strongest").to_numpy()]) if not df.empty else df
    own = advice.level_rates(advice.grid_rows(distinct_games(strong))) if not strong.empty else advice.level_rates(strong)
    keys = ["difficulty", "n_samurai"]
    own = own.merge(main[[*keys, "lineups"]].rename(columns={"lineups": "lineups_all"}), on=keys)
    own = own[own["lineups"] == own["lineups_all"]].reset_index(drop=True)
    return own.reindex(columns=[*keys, "lineups", "wins", "games", "rate", "lo", "hi"])
