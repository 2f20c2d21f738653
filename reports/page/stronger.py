"""The report's section "Does it hold for stronger players?" and its chart (reports.findings.agreement
computes it)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from kiai.reports.findings import advice, agreement
from kiai.reports.findings.advice import names
from kiai.reports.findings.agreement import REVERSED, STRONG, TOP, shared_difference
from kiai.reports.findings.rows import NoChartData, level_order
from kiai.reports.findings.wording import fmt_ci, fmt_pp, fmt_pp_ci, fmt_rate
from kiai.reports.page import charts
from kiai.reports.page.render import Page
from kiai.reports.page.scope import Inputs, csv_columns, spread
from kiai.words import plural

AGREEMENT_HEADING = "Does it hold for stronger players?"


def section(page: Page, inputs: Inputs) -> None:
    """Three findings of the page played again by kiai's strongest player on the same deals
    (reports.findings.agreement): the win rate by level and team size, each samurai's effect, the best and
    worst line-ups; their rank correlations, and a flag on each part the two reverse beyond noise."""
    from kiai.reports.findings.strongest import STRONGEST_PLAYER, who

    shown, main, strategy = inputs.views.shown, inputs.views.main, inputs.views.strategy
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
    page.chart("agreement", plot_agreement, AGREEMENT_HEADING, rates, effects, shown_lineups, strategy,
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
    from kiai.reports.findings.strongest import STRONGEST_PLAYER

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
    from kiai.reports.findings.strongest import STRONGEST_PLAYER

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
    """reports.findings.agreement's columns for a CSV: the suffixes _a and _b as the strategies' names."""
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


# ------------------------------------------------------------------------------- chart


def plot_agreement(rates: pd.DataFrame, effect: pd.DataFrame | None, shown: pd.DataFrame | None,
                   strategy: str, strong: str = STRONG, where: str = ""):
    """Up to three panels: the win rate of every level and team size where either won a game (the
    strong tier's against the default strategy's, on log scales, the diagonal where they are
    equal); each samurai's
    effect; the best and worst line-ups (best on top); in the last two each strategy is a colour
    and each value has its 95% interval, and a row that the two reverse beyond noise is labelled
    (reversed). `where` ends the last two panels' titles (' at easy, 4 samurai')."""
    if rates.empty:
        raise NoChartData(f"no configuration was played by both {strategy} and {strong}")
    dots = [part for part in (effect, shown) if part is not None and not part.empty]
    fig, axes = charts.figure(1, 1 + len(dots), min(charts.MAX_WIDTH / (1 + len(dots)), 3.7), 3.6)
    axes = list(axes[0])
    _scatter_levels(axes[0], rates, strategy, strong)
    colours = {strategy: charts.OKABE_ITO[3], strong: charts.OKABE_ITO[4]}
    ax = axes[1] if effect is not None and not effect.empty else None
    if ax is not None:
        rows = effect.iloc[::-1]
        labels = [s + (" (reversed)" if st == REVERSED else "") for s, st in zip(rows["samurai"], rows["status"])]
        _paired_dots(ax, rows, ("diff", "ci_low", "ci_high"), labels, colours, strategy, strong)
        ax.axvline(0, color="#888888", linewidth=0.8)
        ax.set_xlabel("with him minus without (pp)")
        ax.set_title(f"each samurai's effect{where}")
    if shown is not None and not shown.empty:
        ax = axes[-1]
        rows = shown.iloc[::-1]
        _paired_dots(ax, rows, ("rate", "lo", "hi"), [advice.names(x, short=True) for x in rows["lineup"]], colours,
                     strategy, strong)
        if len(rows) == 2 * TOP:  # the best above the line, the worst below
            ax.axhline(TOP - 0.5, color="#888888", linewidth=0.8, linestyle=":")
        ax.set_xlabel("win rate (%)")
        ax.set_title(f"best and worst line-ups{where}")
    if dots:
        handles, labels = axes[-1].get_legend_handles_labels()
        fig.legend(handles, labels, loc="outside lower center", ncols=2)
    return fig


def _scatter_levels(ax, rates: pd.DataFrame, strategy: str, strong: str) -> None:
    """The strong tier's win rate against the default's, a dot per level and team size where either
    won a game, numbered by team size; one that won nothing is an open triangle on its axis."""
    rates = rates[(rates["wins_a"] > 0) | (rates["wins_b"] > 0)]
    both = rates[(rates["wins_a"] > 0) & (rates["wins_b"] > 0)]
    low = min(float(both["rate_a"].min()), float(both["rate_b"].min())) * 100 / 2 if len(both) else 0.01
    floor = max(low, 1e-3)
    for level in level_order(rates["difficulty"]):
        part = rates[rates["difficulty"] == level]
        colour = charts.OKABE_ITO[charts.LEVELS.index(level) % 8] if level in charts.LEVELS else charts.OKABE_ITO[6]
        x = np.maximum(part["rate_a"].to_numpy(float) * 100, floor)
        y = np.maximum(part["rate_b"].to_numpy(float) * 100, floor)
        none = (part["wins_a"].to_numpy() == 0) | (part["wins_b"].to_numpy() == 0)
        ax.scatter(x[~none], y[~none], s=16, color=colour, label=level, zorder=3)
        ax.scatter(x[none], y[none], s=22, facecolors="none", edgecolors=colour, marker="v", zorder=3)
        for xi, yi, n in zip(x, y, part["n_samurai"]):
            ax.annotate(str(int(n)), (xi, yi), textcoords="offset points", xytext=(3, 2), fontsize=6.5, color=colour)
    ax.plot([floor, 100], [floor, 100], color="#888888", linewidth=0.8, linestyle="--")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(floor / 1.3, 130)
    ax.set_ylim(floor / 1.3, 130)
    ticks = [t for t in (0.01, 0.1, 1, 10, 100) if floor / 1.3 <= t <= 100]
    ax.set_xticks(ticks, [f"{t:g}%" for t in ticks])
    ax.set_yticks(ticks, [f"{t:g}%" for t in ticks])
    ax.set_xlabel(f"{strategy}'s win rate")
    ax.set_ylabel(f"{strong}'s win rate")
    ax.set_title("win rate by level (number: samurai)")
    ax.grid(color="#eeeeee")
    ax.legend(loc="upper left", fontsize=7)


def _paired_dots(ax, rows: pd.DataFrame, columns: tuple[str, str, str], labels: list[str], colours: dict,
                 strategy: str, strong: str) -> None:
    """Two dots per row, `strategy`'s above `strong`'s, each with its interval: columns (value, low,
    high), suffixed _a and _b, in 0..1 (drawn in percent)."""
    y = np.arange(len(rows))
    for offset, suffix, name in ((0.17, "a", strategy), (-0.17, "b", strong)):
        v, l, h = (rows[f"{c}_{suffix}"].to_numpy(float) for c in columns)
        ax.errorbar(v * 100, y + offset, xerr=charts.yerr(v, l, h), fmt="o", markersize=3.5, color=colours[name],
                    capsize=charts.CAPSIZE, label=name)
    ax.set_yticks(y, labels, fontsize=7)
    ax.set_ylim(-0.7, len(rows) - 0.3)
    ax.grid(axis="x", color="#eeeeee")
