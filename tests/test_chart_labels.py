"""The headline chart's labels never print over each other, over a marker or over the legend
(reports.page.charts.place_labels): measured on the boxes the text and markers have in the drawn
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

