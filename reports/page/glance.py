"""The report's first screen, "At a glance": one grid of team size by level, each cell the win rate
of kiai's default player and of its strongest, coloured by how hard the level is for that team.

Where nothing measured kiai's strongest player stronger than the default, the cell says "not told
apart" instead of giving its figure (strongest.told_apart: it wins under 1%, or its difference with
the default, on the deals both played, is within noise or below): it plays few deals
(views.strongest_rates), and a reader must not take either player for the stronger.
"""

from __future__ import annotations

import html

import pandas as pd

from kiai.reports.findings.advice import level_rates, levels_present
from kiai.reports.findings.strongest import NOT_TOLD_APART, TOLD_APART_MIN, TOLD_APART_RULE
from kiai.reports.findings.wording import fmt_ci, fmt_pct, fmt_rate
from kiai.reports.page.render import Page
from kiai.reports.page.scope import Inputs

# (lowest win rate, word, colour): the bands a cell is coloured by, the default player's rate
BANDS = (
    (0.50, "mostly won", "#a6d96a"),
    (0.20, "often won", "#d9ef8b"),
    (0.05, "hard", "#fee08b"),
    (0.01, "very hard", "#fdae61"),
    (0.0, "almost never won", "#f4a582"),
)
NOISE = NOT_TOLD_APART


def band(rate: float) -> tuple[str, str]:
    """(word, colour) of a win rate."""
    for floor, word, colour in BANDS:
        if rate >= floor:
            return word, colour
    return BANDS[-1][1], BANDS[-1][2]


def told_apart(default: pd.Series, strong: pd.Series) -> bool:
    """Whether the cell measured the strongest player stronger than the default: its told_apart
    (views.strongest_rates); for a row without it, it wins at least 1% and its 95% interval lies
    wholly above the default's rate."""
    if "told_apart" in strong:
        return bool(strong["told_apart"])
    return bool(strong["rate"] >= TOLD_APART_MIN and strong["lo"] > default["rate"])


def strong_cell(default: pd.Series, strong: pd.Series | None) -> str:
    """The strongest player's figure of one cell: its rate, 'not told apart' where nothing measured
    it stronger than the default (told_apart), '' where it did not play the cell."""
    if strong is None:
        return ""
    return fmt_pct(strong["rate"]) if told_apart(default, strong) else NOISE


def cells(rates: pd.DataFrame, strong: pd.DataFrame) -> list[dict]:
    """One record per team size and level: default's rate, strongest's figure, band."""
    mine = {(r["difficulty"], int(r["n_samurai"])): r for _, r in strong.iterrows()} if not strong.empty else {}
    out = []
    for _, r in rates.iterrows():
        key = (r["difficulty"], int(r["n_samurai"]))
        word, colour = band(r["rate"])
        out.append({"level": key[0], "n": key[1], "default": fmt_rate(r["wins"], r["games"]),
                    "ci": fmt_ci(r["lo"], r["hi"]), "strong": strong_cell(r, mine.get(key)), "band": word,
                    "strong_ci": fmt_ci(mine[key]["lo"], mine[key]["hi"]) if key in mine else "",
                    "colour": colour})
    return out


def section(page: Page, inputs: Inputs) -> None:
    """The section "At a glance": the grid of every team size and level played."""
    page.add(*glance_blocks(level_rates(inputs.scope.grid), inputs.views.strong))


def glance_blocks(rates: pd.DataFrame, strong: pd.DataFrame) -> list[tuple]:
    """The grid as a page block: HTML coloured, Markdown a plain table with the band's word."""
    if rates.empty:
        return []
    table = cells(rates, strong)
    levels = levels_present(rates["difficulty"])
    sizes = sorted({c["n"] for c in table})
    at = {(c["level"], c["n"]): c for c in table}
    esc = html.escape
    head = "".join(f"<th scope=\"col\">{esc(lv.capitalize())}</th>" for lv in levels)
    rows = []
    for n in sizes:
        tds = []
        for lv in levels:
            c = at.get((lv, n))
            if c is None:
                tds.append("<td>-</td>")
                continue
            shown = c["strong"] if c["strong"] == NOISE else f'strongest {c["strong"]}'
            strong_line = f'<span class="strong">{esc(shown)}</span>' if c["strong"] else ""
            strong_title = f"; strongest's interval {esc(c['strong_ci'])}" if c["strong"] else ""
            tds.append(f'<td style="background:{c["colour"]}" title="{esc(c["band"])}; 95% interval {esc(c["ci"])}{strong_title}" '
                       f'data-level="{lv}" data-n="{n}"><span class="default">{esc(c["default"])}</span>'
                       f"{strong_line}</td>")
        rows.append(f'<tr><th scope="row">{n}</th>{"".join(tds)}</tr>')
    legend = "".join(f'<li><span class="swatch" style="background:{colour}"></span>{esc(word)} '
                     f"({'at least ' + format(floor, '.0%') if floor else 'under 1%'})</li>"
                     for floor, word, colour in BANDS)
    grid = (f'<div id="glance"><div class="scroll"><table class="glance"><thead><tr><th scope="col">Samurai</th>{head}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table></div>'
            f'<ul class="legend">{legend}</ul>'
            '<p class="legend-note">Each cell: the win rate of kiai\'s default player, all line-ups of that size '
            "pooled; below it, kiai's strongest player's (on fewer games), or "
            f'"{NOISE}" {esc(TOLD_APART_RULE)}: nothing measured a stronger player there. '
            "Colour: the default's rate. The intervals are in the cell's tooltip and in "
            '<a href="#how-hard-is-each-level">How hard is each level</a>.</p></div>')
    md_rows = [{"samurai": n, **{lv.capitalize(): (f"{at[(lv, n)]['default']} ({at[(lv, n)]['band']})"
                                                   + (_md_strong(at[(lv, n)]) if at[(lv, n)]['strong'] else ""))
                                 if (lv, n) in at else "-" for lv in levels}} for n in sizes]
    words = "; ".join(f"{word}: {'at least ' + format(floor, '.0%') if floor else 'under 1%'}" for floor, word, _ in BANDS)
    md = [("table", pd.DataFrame(md_rows)),
          ("p", f"Each cell: kiai's default player's win rate, all line-ups pooled, and how hard that is ({words}); "
                f"then kiai's strongest player's, with its 95% interval, or \"{NOISE}\" {TOLD_APART_RULE}.")]
    return [("h2", "At a glance"), ("html", grid, md)]


def _md_strong(cell: dict) -> str:
    """A Markdown cell's strongest player: '; strongest 60.0% (57.0 to 63.0%)', or '; not told apart
    (strongest 0 to 1.6%)'."""
    if cell["strong"] == NOISE:
        return f"; {NOISE} (strongest {cell['strong_ci']})"
    return f"; strongest {cell['strong']} ({cell['strong_ci']})"
