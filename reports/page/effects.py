"""The charts of the samurai's effects on a sweep's results (charts.py draws the rest, with the same
conventions; reports.findings.effects computes the figures): each samurai's effect on the win rate,
the effect of who sits beside whom, and the house rules' chart.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from kiai.reports.findings.effects import neighbour_effect_tests, samurai_effects
from kiai.reports.findings.rows import NoChartData, level_order
from kiai.reports.page.charts import DIVERGING, MAX_WIDTH, NO_DATA_COLOUR, figure, panel_title
from kiai.simcore.codes import SAMURAI


# -------------------------------------------------------------- 2. each samurai's effect


def plot_samurai_effects(df: pd.DataFrame) -> Figure:
    """A heat map per level (a row of them per strategy): samurai down, team sizes across, each cell
    the win rate with the samurai minus without it in percentage points; a cell whose 95% interval
    excludes zero is marked * and written in bold."""
    effects = samurai_effects(df)
    if effects.empty:
        raise NoChartData("no level and team size has line-ups both with and without a samurai")
    variants = sorted(effects["variant"].unique())
    levels = level_order(effects["difficulty"])
    counts = sorted(effects["n_samurai"].unique())
    limit = float(np.nanmax(np.abs(effects["diff"].to_numpy(float)))) * 100 or 1.0
    width = min(MAX_WIDTH, 1.2 + len(levels) * (0.55 * len(counts) + 0.9))
    fig, axes = figure(len(variants), len(levels), width / len(levels), 3.0)
    cmap = _diverging_cmap()
    for row, variant in enumerate(variants):
        for col, level in enumerate(levels):
            ax = axes[row][col]
            sub = effects[(effects["variant"] == variant) & (effects["difficulty"] == level)]
            values = np.full((len(SAMURAI), len(counts)), np.nan)
            clear = np.zeros_like(values, dtype=bool)
            for r in sub.itertuples():
                i, j = SAMURAI.index(r.samurai), counts.index(r.n_samurai)
                values[i, j] = r.diff * 100
                clear[i, j] = r.ci_low > 0 or r.ci_high < 0
            image = ax.imshow(np.ma.masked_invalid(values), cmap=cmap, vmin=-limit, vmax=limit, aspect="auto")
            for (i, j), v in np.ndenumerate(values):
                if np.isfinite(v):
                    text = (f"{v:+.1f}" if abs(v) >= 0.95 else f"{v:+.2f}") + ("*" if clear[i, j] else "")
                    ax.text(j, i, text, ha="center", va="center", fontsize=6.5,
                            fontweight="bold" if clear[i, j] else "normal",
                            color="white" if abs(v) > 0.6 * limit else ("black" if clear[i, j] else "#555555"))
            ax.set_xticks(np.arange(len(counts)), [str(int(c)) for c in counts])
            ax.set_xlabel("samurai")
            ax.set_yticks(np.arange(len(SAMURAI)), SAMURAI if col == 0 else [])
            ax.set_title(panel_title(variant, level, variants))
    fig.colorbar(image, ax=axes, shrink=0.8, label="with minus without (pp)")
    return fig


# ---------------------------------------------------------------- 3. neighbour effects


def plot_neighbour_effects(df: pd.DataFrame) -> Figure:
    """Heat map per strategy of neighbour_effects, centred on 0, values annotated; a cell whose
    Holm-adjusted p (neighbour_effect_tests) is below 0.05 is marked * and written in bold."""
    try:
        tests = neighbour_effect_tests(df)
    except NoChartData as exc:
        raise NoChartData(f"no seating data: {exc}") from None
    if not tests:
        raise NoChartData("no line-up was played in two or more seatings at one level")
    variants = sorted(tests)
    # one symmetric scale for all panels, so that equal colours mean equal effects
    finite = np.concatenate([t[0].to_numpy().ravel() for t in tests.values()])
    finite = finite[np.isfinite(finite)]
    limit = float(np.abs(finite).max()) if finite.size and np.abs(finite).max() > 0 else 1.0
    fig, axes = figure(1, len(variants), 5.6, 4.4)
    cmap = _diverging_cmap()
    for ax, variant in zip(axes[0], variants):
        values, _, p = (t.to_numpy() for t in tests[variant])
        image = ax.imshow(np.ma.masked_invalid(values), cmap=cmap, vmin=-limit, vmax=limit)
        for (i, j), v in np.ndenumerate(values):
            if np.isfinite(v):
                clear = bool(p[i, j] < 0.05)
                colour = "white" if abs(v) > 0.6 * limit else ("black" if clear else "#555555")
                ax.text(j, i, f"{v:+.1f}" + ("*" if clear else ""), ha="center", va="center", fontsize=7.5,
                        color=colour, fontweight="bold" if clear else "normal")
        # upright: a slanted name's box reaches over its neighbour's in columns this narrow
        ax.set_xticks(np.arange(len(SAMURAI)), SAMURAI, rotation=90)
        ax.set_yticks(np.arange(len(SAMURAI)), SAMURAI)
        ax.set_xlabel("samurai B")
        ax.set_ylabel("samurai A, seated directly to B's left")
        if len(variants) > 1:
            ax.set_title(variant)
        fig.colorbar(image, ax=ax, shrink=0.8, label="effect on win rate (pp)")
    return fig


def plot_house_rules(rules: pd.DataFrame) -> Figure:
    """A heat map per level of advice.reading_effects: readings V-1..V-5 down, team sizes across, each
    cell the win rate under the reading minus under the rules' own in percentage points; a cell
    whose 95% interval excludes zero is marked * and written in bold."""
    if rules.empty:
        raise NoChartData("no configuration was played under a changed rule reading and the rules' own")
    levels = level_order(rules["difficulty"])
    counts = sorted(rules["n_samurai"].unique())
    readings = sorted(set(zip(rules["v"], rules["reading"], rules["value"])))
    limit = float(np.nanmax(np.abs(rules["diff"].to_numpy(float)))) * 100 or 1.0
    width = min(MAX_WIDTH, 2.2 + len(levels) * (0.55 * len(counts) + 0.5))
    fig, axes = figure(1, len(levels), width / len(levels), 0.9 + 0.42 * len(readings))
    cmap = _diverging_cmap()
    for col, level in enumerate(levels):
        ax = axes[0][col]
        values = np.full((len(readings), len(counts)), np.nan)
        clear = np.zeros_like(values, dtype=bool)
        for r in rules[rules["difficulty"] == level].itertuples():
            i, j = readings.index((r.v, r.reading, r.value)), counts.index(r.n_samurai)
            values[i, j], clear[i, j] = r.diff * 100, r.separated
        image = ax.imshow(np.ma.masked_invalid(values), cmap=cmap, vmin=-limit, vmax=limit, aspect="auto")
        for (i, j), v in np.ndenumerate(values):
            if np.isfinite(v):
                ax.text(j, i, f"{v:+.1f}" + ("*" if clear[i, j] else ""), ha="center", va="center", fontsize=7,
                        fontweight="bold" if clear[i, j] else "normal",
                        color="white" if abs(v) > 0.6 * limit else ("black" if clear[i, j] else "#555555"))
        ax.set_xticks(np.arange(len(counts)), [str(int(c)) for c in counts])
        ax.set_xlabel("samurai")
        ax.set_yticks(np.arange(len(readings)), [f"{v} {name}={value}" for v, name, value in readings]
                      if col == 0 else [])
        ax.set_title(level)
    fig.colorbar(image, ax=axes, shrink=0.9, label="changed minus rules' own (pp)")
    return fig


def _diverging_cmap():
    from matplotlib import colormaps

    return colormaps[DIVERGING].with_extremes(bad=NO_DATA_COLOUR)
