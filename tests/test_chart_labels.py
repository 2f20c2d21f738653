"""No chart prints a label over another: every text of every chart the report draws, measured
(test_no_labels_overlap_on_any_chart); the headline's labels clear of its markers and legend too
(reports.page.charts.place_labels). Measured on the boxes the texts and markers have in the drawn
figure, the same the PNG and SVG files are written from."""

from __future__ import annotations

import pandas as pd
from matplotlib.text import Annotation

from kiai.reports.page import charts

# the report of issue 59: at 2 samurai Normal the default's 80.0% sat under the strongest's marker,
# and at 6 and 7 samurai levels that won nothing share the axis
DEFAULT = {("easy", 2): 0.94, ("normal", 2): 0.80, ("hard", 2): 0.476, ("heroic", 2): 0.126,
           ("easy", 3): 0.658, ("normal", 3): 0.312, ("hard", 3): 0.077, ("heroic", 3): 0.0085,
           ("easy", 6): 0.047, ("normal", 6): 6 / 3500, ("hard", 6): 0.0, ("heroic", 6): 0.0,
           ("easy", 7): 0.013, ("normal", 7): 0.0, ("hard", 7): 0.0, ("heroic", 7): 0.0}
STRONG = {("easy", 2): (0.947, 0.927, 0.966), ("normal", 2): (0.854, 0.834, 0.873), ("hard", 2): (0.485, 0.465, 0.505),
          ("heroic", 2): (0.116, 0.097, 0.136), ("easy", 3): (0.736, 0.716, 0.756), ("normal", 3): (0.407, 0.387, 0.426),
          ("hard", 3): (0.077, 0.057, 0.097), ("easy", 6): (0.113, 0.094, 0.133), ("easy", 7): (0.037, 0.019, 0.057)}


def _grid() -> pd.DataFrame:
    games = {2: 3000, 3: 3000, 6: 3500, 7: 500}
    return pd.DataFrame([{"difficulty": lv, "n_samurai": n, "lineup": f"x{n}", "strategy": "selfplay",
                          "games": games[n], "wins": round(rate * games[n])} for (lv, n), rate in DEFAULT.items()])


def _strong() -> pd.DataFrame:
    return pd.DataFrame([{"difficulty": lv, "n_samurai": n, "lineups": 1, "wins": max(1, round(r * 300)), "games": 300,
                          "rate": r, "lo": lo, "hi": hi} for (lv, n), (r, lo, hi) in STRONG.items()])


def _clashes(fig) -> list[tuple[str, str]]:
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    found = []
    for ax in fig.axes:
        labels = [t for t in ax.texts if isinstance(t, Annotation)]
        boxes = [t.get_window_extent(renderer) for t in labels]
        marks = charts._marker_boxes(ax, renderer)
        legend = [ax.get_legend().get_window_extent(renderer)] if ax.get_legend() else []
        for i, box in enumerate(boxes):
            found += [(labels[i].get_text(), labels[j].get_text()) for j in range(i + 1, len(boxes))
                      if box.overlaps(boxes[j])]
            found += [(labels[i].get_text(), "a marker") for m in marks if box.overlaps(m)]
            found += [(labels[i].get_text(), "the legend") for m in legend if box.overlaps(m)]
    return found


def test_headline_labels_do_not_collide():
    fig = charts.plot_winrate_by_level(_grid(), _strong())
    labels = [t.get_text() for t in fig.axes[0].texts]
    assert "80.0%" in labels and labels.count("0/500") == 3  # the labels of the issue are drawn
    assert _clashes(fig) == []



# ------------------------------------------------------------------ every chart of the report

# where a level and team size wins: (default's rate, strongest's) by team size. The sizes' points
# lie close together at Easy and Normal (the agreement chart numbers them), and 6 and 7 samurai win
# nothing at Hard and Heroic (the headline stacks their 0/games labels on the axis)
RATES = {"easy": (0.92, 0.9, 0.86, 0.8, 0.3, 0.1), "normal": (0.6, 0.56, 0.5, 0.4, 0.05, 0.01),
         "hard": (0.3, 0.2, 0.08, 0.02, 0.0, 0.0), "heroic": (0.1, 0.02, 0.004, 0.001, 0.0, 0.0)}
STRONGER = 0.02  # the strongest player's gain at 2 to 4 samurai: its point beside the default's
READINGS = ("heal=wounded", "penalty=once", "round-end=drawn", "end-kiai=on", "second-fight=always")
GAMES = 300


def _row(level, seating, wins, strategy="selfplay", rules="default", params="{}"):
    from kiai.simcore.seatings import lineup_key

    losses = GAMES - wins
    scores = {f"score_{i}": 0 for i in range(11)}
    scores.update(score_4=wins // 2, score_7=wins - wins // 2 - wins // 5, score_10=wins // 5)
    return {"difficulty": level, "n_samurai": len(seating), "lineup": lineup_key(seating), "seating": ",".join(seating),
            "strategy": strategy, "honest": True, "params": params, "absent_tokens": len(seating) == 2,
            "rules": rules, "games": GAMES, "wins": wins, "out_win": wins, "out_death": losses // 2,
            "out_farmsteads": losses // 3, "out_families": losses - losses // 2 - losses // 3,
            "lost_round_1": losses // 6, "lost_round_2": losses // 3, "lost_round_3": losses - losses // 6 - losses // 3,
            "seed": 1, **scores}


def _every_chart_table() -> pd.DataFrame:
    """A results table with something for every chart of the report: every line-up of 2 to 7 samurai at
    every level (the headline, the effects, the line-ups' panels, the losses and the grades), every
    seating of one line-up (neighbour effects), V-1..V-5 on two line-ups a team size (house rules), kiai's
    strongest player on the same deals at 2 to 4 samurai (the agreement chart) and `reference` beside
    them at 3 (the skill ladder)."""
    import numpy as np

    from kiai.simcore.seatings import all_lineups, distinct_seatings

    rng = np.random.default_rng(11)
    rows = []
    for level, rates in RATES.items():
        for n, rate in zip(range(2, 8), rates):
            for k, lineup in enumerate(all_lineups(n)):
                wins = int(rng.binomial(GAMES, min(1.0, rate * (0.9 + 0.01 * k)))) if rate else 0
                rows.append(_row(level, lineup, wins))
                if n <= 4 and level in ("easy", "normal"):
                    rows.append(_row(level, lineup, min(GAMES, wins + round(STRONGER * GAMES)), strategy="judge"))
                if n == 3 and level == "easy" and k < 6:
                    rows.append(_row(level, lineup, wins // 2, strategy="reference"))
                if level in ("easy", "normal") and k < 2:
                    rows += [_row(level, lineup, int(rng.binomial(GAMES, rate)), rules=r) for r in READINGS]
    seated = all_lineups(4)[0]
    rows += [_row("easy", s, int(rng.binomial(GAMES, 0.5 + 0.03 * i))) for i, s in enumerate(distinct_seatings(seated)[1:])]
    return pd.DataFrame(rows)


# every chart the report draws from such a table (lineups_7: seven samurai make a single line-up)
EVERY_CHART = {"winrate_by_level", "samurai_effect", "lineups_2", "lineups_3", "lineups_4", "lineups_5", "lineups_6",
               "neighbour_effect", "house_rules", "skill_ladder", "agreement", "loss_causes", "score_grades"}
# boxes that share less than this (points, each way) touch rather than overlap: a glyph's box holds
# its line's ascent and descent, wider than its ink
TOUCH = 0.5


def _overlaps(drawn: dict) -> list[str]:
    found = []
    items = list(drawn.values())
    for i, (text_a, a) in enumerate(items):
        for text_b, b in items[i + 1:]:
            w, h = min(a.x1, b.x1) - max(a.x0, b.x0), min(a.y1, b.y1) - max(a.y0, b.y0)
            if w > TOUCH and h > TOUCH:
                found.append(f"{text_a!r} and {text_b!r} ({w:.1f} x {h:.1f})")
    return found


def test_no_labels_overlap_on_any_chart(tmp_path, monkeypatch):
    """Every text the report's charts print (titles, axis and tick labels, legends, annotations,
    the values in heat-map cells) clear of every other text of its chart: the boxes are measured
    while the SVG and PNG files are drawn (matplotlib's renderer gives each text's box as it lays it
    out: the SVG holds text as paths, so its own file has no boxes to read), per chart and format."""
    from matplotlib.text import Text
    from matplotlib.transforms import Affine2D

    from kiai.reports.page import render
    from kiai.reports.page.report import write_report

    drawn: dict[tuple[str, str], dict] = {}
    now = {}
    draw, figure = Text.draw, render.Page.figure

    def recording_draw(self, renderer):
        draw(self, renderer)
        if self.get_visible() and self.get_text().strip() and "stem" in now:
            kind = "png" if type(renderer).__name__ == "RendererAgg" else "svg"
            box = self.get_window_extent(renderer).transformed(Affine2D().scale(1 / renderer.points_to_pixels(1)))
            drawn.setdefault((now["stem"], kind), {})[id(self)] = (self.get_text(), box)  # in points

    def named_figure(page, stem, fig, alt):
        now["stem"] = stem
        try:
            return figure(page, stem, fig, alt)
        finally:
            now.clear()

    monkeypatch.setattr(Text, "draw", recording_draw)
    monkeypatch.setattr(render.Page, "figure", named_figure)
    write_report(_every_chart_table(), tmp_path, title="every chart")
    assert {stem for stem, _ in drawn} == EVERY_CHART
    assert {kind for _, kind in drawn} == {"png", "svg"}
    clashes = {f"{stem}.{kind}": found for (stem, kind), texts in drawn.items() if (found := _overlaps(texts))}
    assert clashes == {}, "\n".join(f"{name}: {'; '.join(found[:6])}" for name, found in clashes.items())
