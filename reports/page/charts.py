"""Charts and tables drawn from a sweep's results table (one row per configuration).

Every chart function takes the DataFrame (plot_house_rules: reports.findings.advice.reading_effects's table
of it) and returns a matplotlib Figure, or raises NoChartData with a one-line reason when the
table holds nothing it could draw. Rows are pooled by summing
wins and games before any rate or interval is computed, so each interval is that of the pooled
games. Different strategies are never pooled together: each gets its own panel, and a cheating
strategy (honest=False) is labelled "(cheating)".

Figures are built on the Agg canvas directly rather than through pyplot, so drawing needs no
display and leaves no global figure state behind.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from kiai.reports.findings.pooling import balanced, whole_counts
from kiai.reports.findings.rows import NoChartData, level_order, pooled_rates, require_columns, with_variant
from kiai.simcore.stats import proportion_ci_arrays
from kiai.simcore.codes import LEVEL_PLUSES, LEVELS

# Okabe & Ito (2008) colours, chosen to stay distinguishable under the common colour-vision
# deficiencies. Yellow is last because it is faint on white.
OKABE_ITO = ("#E69F00", "#56B4E9", "#009E73", "#0072B2", "#D55E00", "#CC79A7", "#000000", "#F0E442")
# ColorBrewer PuOr: diverging and colour-blind safe; grey marks cells without data.
DIVERGING = "PuOr"
NO_DATA_COLOUR = "#d9d9d9"
CAPSIZE = 2

# the figures' text, in points: each figure is shown on the page at its own size (report.py sets
# the image's width from it), so these are the sizes a reader sees, whatever the figure's width
STYLE = {"font.size": 9, "axes.titlesize": 9.5, "axes.labelsize": 9, "xtick.labelsize": 8,
         "ytick.labelsize": 8, "legend.fontsize": 8, "legend.title_fontsize": 8, "figure.titlesize": 10}
MAX_WIDTH = 11.0  # inches: 1,056 CSS pixels, inside the page's text column

CAUSES = ("death", "farmsteads", "families")
ROUNDS = (1, 2, 3)
_SCORE_COLUMN = re.compile(r"^score_(\d+)$")


# ---------------------------------------------------------------------------------- helpers


def grade_label(score: int, level: str) -> str:
    return f"{score}" + "+" * LEVEL_PLUSES.get(level, 0)


def figure(nrows: int, ncols: int, panel_w: float, panel_h: float, **kw):
    fig = Figure(figsize=(panel_w * ncols, panel_h * nrows), layout="constrained")
    FigureCanvasAgg(fig)
    return fig, fig.subplots(nrows, ncols, squeeze=False, **kw)


def yerr(value, lo, hi) -> np.ndarray:
    # bars are drawn in percent; errorbar wants distances below and above the bar
    value, lo, hi = (np.asarray(x, dtype=float) * 100 for x in (value, lo, hi))
    return np.vstack([np.clip(value - lo, 0, None), np.clip(hi - value, 0, None)])


def panel_title(variant: str, detail: str, variants: list[str]) -> str:
    return f"{variant}: {detail}" if len(variants) > 1 else detail


def grouped_offsets(n_groups: int, width: float = 0.8) -> tuple[np.ndarray, float]:
    bar = width / max(n_groups, 1)
    return (np.arange(n_groups) - (n_groups - 1) / 2) * bar, bar


# ---------------------------------------------------------------------- 1. win rate by level


def plot_winrate_by_level(df: pd.DataFrame, strong: pd.DataFrame | None = None) -> Figure:
    """Win rate against team size, a line per level, on a log scale so that Easy's 80% and
    Heroic's 0.05% read on one chart (a panel per strategy): each point with its 95% interval and
    its rate written beside it; a level and team size that won no game is an open triangle on the
    axis, labelled with its games. A line-up played in several seatings counts by its row seated
    in its own order (advice.one_seating_per_lineup). `strong` (views.strongest_rates): kiai's
    strongest player's rates too, open circles on dashed lines, where either player won a game."""
    from kiai.reports.findings.advice import one_seating_per_lineup
    from kiai.reports.findings.wording import fmt_rate

    require_columns(df, ["difficulty", "n_samurai", "strategy", "games", "wins"])
    d = with_variant(df)
    d = one_seating_per_lineup(d) if "lineup" in d else d
    pooled = pooled_rates(d, ["variant", "difficulty", "n_samurai"])
    variants = sorted(pooled["variant"].unique())
    counts = sorted(pooled["n_samurai"].unique())
    levels = level_order(pooled["difficulty"])
    positive = pooled.loc[pooled["wins"] > 0, "ci_low"]
    if strong is not None and len(variants) == 1:
        positive = pd.concat([positive, strong.loc[strong["wins"] > 0, "lo"]])
    floor = max(float(positive.min()) * 100 / 3, 1e-4) if len(positive) else 1e-3
    fig, axes = figure(1, len(variants), min(MAX_WIDTH / len(variants), 1.8 + 1.0 * len(counts)), 4.2,
                        sharey=True)
    for ax, variant in zip(axes[0], variants):
        zeros: dict[int, int] = {}
        for j, level in enumerate(levels):
            colour = OKABE_ITO[LEVELS.index(level) % len(OKABE_ITO)] if level in LEVELS else OKABE_ITO[-2]
            sub = pooled[(pooled["variant"] == variant) & (pooled["difficulty"] == level)].sort_values("n_samurai")
            won = sub[sub["wins"] > 0]
            ax.errorbar(won["n_samurai"], won["win_rate"] * 100, yerr=yerr(won["win_rate"], won["ci_low"],
                        won["ci_high"]), color=colour, marker="o", markersize=4, capsize=CAPSIZE, label=level)
            if strong is not None and len(variants) == 1:
                _strong_points(ax, strong[strong["difficulty"] == level], colour, floor)
            for r in sub.itertuples():
                if r.wins == 0:
                    # levels that won nothing at one team size share the spot: their labels stack upwards
                    k = zeros.setdefault(r.n_samurai, 0)
                    zeros[r.n_samurai] += 1
                    ax.plot([r.n_samurai], [floor * 1.25], marker="v", markersize=6, markerfacecolor="none",
                            color=colour)
                    ax.annotate(f"0/{round(r.games):,}", (r.n_samurai, floor * 1.25), textcoords="offset points",
                                xytext=(5, -3 + 9 * k), fontsize=7, color=colour)
                    continue
                # the easiest level's labels above and right of its (falling) line, the others' below and
                # left of theirs: lines close together (two samurai at Easy and Normal) keep them apart
                ax.annotate(fmt_rate(r.wins, r.games).replace(" of ", "/"), (r.n_samurai, r.win_rate * 100),
                            textcoords="offset points", xytext=(5, 4) if j == 0 else (-4, -11), fontsize=7,
                            color=colour, ha="left" if j == 0 else "right")
        ax.set_yscale("log")
        ax.set_ylim(floor, 200)
        ticks = [t for t in (0.001, 0.01, 0.1, 1, 10, 100) if floor <= t <= 100]
        ax.set_yticks(ticks, [f"{t:g}%" for t in ticks])
        ax.set_xticks(counts, [str(int(n)) for n in counts])
        ax.set_xlim(min(counts) - 0.7, max(counts) + 0.8)
        ax.set_xlabel("samurai")
        ax.grid(axis="y", color="#eeeeee")
        ax.set_title(variant if len(variants) > 1 else "")
        handles, labels = ax.get_legend_handles_labels()
        if strong is not None and len(variants) == 1:  # which marker is which player
            from matplotlib.lines import Line2D

            for face, style, label in (("#555555", "-", "kiai's default player"),
                                       ("white", "--", "kiai's strongest player")):
                handles.append(Line2D([], [], color="#555555", marker="o", markersize=4, markerfacecolor=face,
                                      linestyle=style))
                labels.append(label)
        ax.legend(handles, labels, title="level", loc="lower left")
    axes[0][0].set_ylabel("win rate (log scale)")
    for ax in axes[0]:
        place_labels(ax)
    return fig


def _marker_boxes(ax, renderer) -> list:
    """The window boxes of every marker drawn on ax: errorbar points, the triangles of no win, and
    scatter dots (whose sizes are areas in points squared)."""
    from matplotlib.collections import PathCollection
    from matplotlib.transforms import Bbox

    points = []  # (window x, y, half the marker's width in pixels)
    for line in ax.lines:
        if line.get_marker() in (None, "None", "", " "):
            continue
        xy = np.column_stack([np.asarray(line.get_xdata(), float), np.asarray(line.get_ydata(), float)])
        half = line.get_markersize() * renderer.points_to_pixels(1) / 2 + 1
        points += [(x, y, half) for x, y in ax.transData.transform(xy)]
    for dots in (c for c in ax.collections if isinstance(c, PathCollection)):
        sizes = dots.get_sizes()
        if not len(dots.get_offsets()) or not len(sizes):
            continue
        xy = dots.get_offset_transform().transform(dots.get_offsets())
        halves = np.sqrt(np.resize(sizes, len(xy))) * renderer.points_to_pixels(1) / 2 + 1
        points += [(x, y, half) for (x, y), half in zip(xy, halves)]
    return [Bbox.from_extents(x - h, y - h, x + h, y + h) for x, y, h in points if np.isfinite(x) and np.isfinite(y)]


def place_labels(ax, step: float = 4.0, tries: int = 8) -> None:
    """Move each annotation of ax (offset in points from its point) up or down, a step at a time,
    until its box overlaps no label placed before it, no marker and not the legend; a label with no
    free place within `tries` steps either way keeps its own. Labels written beside close points
    (two samurai at Easy and Normal, both players' markers) would otherwise print over each other."""
    from matplotlib.text import Annotation

    fig = ax.figure
    fig.canvas.draw()  # the layout first: boxes are measured where the picture will have them
    renderer = fig.canvas.get_renderer()
    taken = _marker_boxes(ax, renderer)
    if ax.get_legend() is not None:
        taken.append(ax.get_legend().get_window_extent(renderer))
    for label in (t for t in ax.texts if isinstance(t, Annotation)):
        label.set_in_layout(False)  # a moved label must not move the axes it was measured on
        x, y = label.xyann
        for k in [0] + [sign * i for i in range(1, tries + 1) for sign in (1, -1)]:
            label.xyann = (x, y + k * step)
            box = label.get_window_extent(renderer)
            if not any(box.overlaps(other) for other in taken):
                break
        else:
            label.xyann = (x, y)
            box = label.get_window_extent(renderer)
        taken.append(box)


def place_all_labels(fig) -> None:
    """place_labels on every panel of fig that has annotations (the page's charts number or label
    their points; a panel without any is left undrawn)."""
    from matplotlib.text import Annotation

    for ax in fig.axes:
        if any(isinstance(t, Annotation) for t in ax.texts):
            place_labels(ax)


def _strong_points(ax, strong: pd.DataFrame, colour, floor: float) -> None:
    """kiai's strongest player's rates at one level (views.strongest_rates columns), beside the default's
    points: open circles a little to the left (the default's labels sit below left only for the
    harder levels, and the strongest wins more), joined by a dashed line, with their 95% intervals
    (an interval that reaches zero ends at the axis); at the team sizes where it won a game on its own
    deals (elsewhere its estimate is the default's rate again, with an interval from zero: the table
    under the chart gives it) and its estimate is above zero (a log scale has no zero)."""
    part = strong[(strong["wins"] > 0) & (strong["rate"] > 0)].sort_values("n_samurai")
    if part.empty:
        return
    lo = np.maximum(part["lo"].to_numpy(float), floor / 100)
    bars = ax.errorbar(part["n_samurai"] - 0.14, part["rate"] * 100, yerr=yerr(part["rate"], lo, part["hi"]),
                       color=colour, marker="o", markersize=4, markerfacecolor="white", linestyle="--",
                       linewidth=0.9, capsize=CAPSIZE)
    for line in bars[2]:  # the whiskers lighter than the default's: these intervals are wide
        line.set_alpha(0.45)


def plot_lineups(df: pd.DataFrame, n: int) -> Figure:
    """Every line-up of n samurai as a dot with its 95% interval, one panel per level (a line-up
    played in several seatings counts by its row seated in its own order). A panel is ranked, best
    on top, only when its line-ups differ (advice.pick_avoid); otherwise they stay in name order,
    and a level where no line-up won says so instead."""
    from kiai.reports.findings import advice

    require_columns(df, ["difficulty", "n_samurai", "lineup", "strategy", "games", "wins"])
    grid = advice.one_seating_per_lineup(df.assign(difficulty=df["difficulty"].astype(str)))
    rates = advice.lineup_rates(grid[grid["n_samurai"] == n])
    if rates["lineup"].nunique() < 2:
        raise NoChartData(f"fewer than two line-ups of {n} samurai")
    levels = level_order(rates["difficulty"])
    size = rates.groupby("difficulty")["lineup"].nunique().max()
    fig, axes = figure(1, len(levels), min(MAX_WIDTH, 2.75 * len(levels)) / len(levels), 0.9 + 0.15 * size)
    for ax, level in zip(axes[0], levels):
        pa = advice.pick_avoid(rates, level, n)
        part = pa["table"] if pa else rates[rates["difficulty"] == level]
        ranked = bool(pa and pa["p"] < advice.ALPHA and not pa["no_wins"])
        if not ranked:
            part = part.sort_values("lineup", ascending=False)
        else:
            part = part.iloc[::-1]  # best on top
        y = np.arange(len(part))
        ax.set_yticks(y, [advice.names(lu, short=True) for lu in part["lineup"]], fontsize=7)
        ax.set_ylim(-0.7, len(part) - 0.3)
        ax.set_title(level + ("" if ranked else " (not ranked)"))
        if pa and pa["no_wins"]:
            ax.text(0.5, 0.5, f"no line-up won\n(0 of {int(part['games'].sum()):,} games)", ha="center",
                    va="center", transform=ax.transAxes)
            ax.set_xticks([])
            continue
        colours = ["#0072B2"] * len(part)
        if ranked and pa["separated"]:
            colours[-1], colours[0] = "#009E73", "#D55E00"  # the pick and the one to avoid
        ax.errorbar(part["rate"] * 100, y, xerr=yerr(part["rate"], part["lo"], part["hi"]), fmt="none",
                    ecolor="#888888", elinewidth=1)
        ax.scatter(part["rate"] * 100, y, s=14, c=colours, zorder=3)
        # fitted to the intervals (a dot plot needs no zero baseline), but never below zero
        lo, hi = float(part["lo"].min()) * 100, max(float(part["hi"].max()) * 100, 0.01)
        pad = 0.06 * (hi - lo)
        ax.set_xlim(max(0.0, lo - pad), hi + pad)
        ax.set_xlabel("win rate (%)")
        ax.grid(axis="x", color="#eeeeee")
    return fig


# ------------------------------------------------------------------------- 4. loss causes


def plot_loss_causes(df: pd.DataFrame) -> Figure:
    """Two panels per strategy: losses by round and losses by cause, stacked per level, as a
    share of all games; the error bar on each stack is the 95% interval of the loss rate.

    The table has per-round and per-cause totals but not their cross-tabulation, hence two
    panels rather than one stack split both ways."""
    round_cols = [f"lost_round_{r}" for r in ROUNDS]
    cause_cols = [f"out_{c}" for c in CAUSES]
    require_columns(df, ["difficulty", "strategy", "games", "wins", *round_cols, *cause_cols])
    d = balanced(with_variant(df), ["variant", "difficulty"])
    counted = ["games", "wins", *round_cols, *cause_cols]
    pooled = d.groupby(["variant", "difficulty"], as_index=False)[counted].sum()
    pooled["losses"] = pooled["games"] - pooled["wins"]
    if pooled["losses"].sum() <= 0:
        raise NoChartData("no game was lost")
    lo, hi, _ = proportion_ci_arrays(*whole_counts(pooled["losses"], pooled["games"]))
    pooled = pooled.assign(loss_rate=pooled["losses"] / pooled["games"], loss_lo=lo, loss_hi=hi)
    variants = sorted(pooled["variant"].unique())
    # at least wide enough for the legend under each panel
    fig, axes = figure(len(variants), 2, max(3.2, 1.2 + 0.9 * pooled["difficulty"].nunique()), 3.0, sharey=True)
    panels = (
        (round_cols, [f"round {r}" for r in ROUNDS], "losses by round", OKABE_ITO[:3]),
        (cause_cols, list(CAUSES), "losses by cause", OKABE_ITO[3:6]),
    )
    levels = level_order(pooled["difficulty"])
    x = np.arange(len(levels))
    for row, variant in enumerate(variants):
        sub = pooled[pooled["variant"] == variant].set_index("difficulty").reindex(levels)
        for ax, (cols, names, what, colours) in zip(axes[row], panels):
            bottom = np.zeros(len(levels))
            for col, name, colour in zip(cols, names, colours):
                share = np.nan_to_num((sub[col] / sub["games"] * 100).to_numpy(float))
                ax.bar(x, share, 0.6, bottom=bottom, color=colour, label=name)
                bottom += share
            ax.errorbar(
                x,
                sub["loss_rate"] * 100,
                yerr=yerr(sub["loss_rate"], sub["loss_lo"], sub["loss_hi"]),
                fmt="none",
                ecolor="black",
                capsize=3,
            )
            ax.set_xticks(x, levels)
            ax.set_xlim(-0.5, len(levels) - 0.5)
            ax.set_xlabel("difficulty level")
            ax.set_ylabel("games lost (% of games)")
            ax.set_title(panel_title(variant, what, variants))
            # under the panel, where it cannot cover a stack
            ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncols=len(names), frameon=False)
    return fig


# ------------------------------------------------------------------- 5. scores and grades


def score_columns(df: pd.DataFrame) -> list[str]:
    found = [(int(m.group(1)), c) for c in df.columns if (m := _SCORE_COLUMN.match(str(c)))]
    return [c for _, c in sorted(found)]


def plot_score_grades(df: pd.DataFrame) -> Figure:
    """Bars per level: share of wins at each grade (score plus the level's "+" marks), with
    95% intervals of each share."""
    require_columns(df, ["difficulty", "strategy", "games", "wins"])
    cols = score_columns(df)
    if not cols:
        raise NoChartData("the table has no score_N columns")
    scores = [int(_SCORE_COLUMN.match(c).group(1)) for c in cols]
    pooled = balanced(with_variant(df), ["variant", "difficulty"]).groupby(["variant", "difficulty"],
                                                                           as_index=False)[cols].sum()
    pooled["scored_wins"] = pooled[cols].sum(axis=1)
    if pooled["scored_wins"].sum() <= 0:
        raise NoChartData("no game was won")
    variants = sorted(pooled["variant"].unique())
    levels = level_order(pooled["difficulty"])
    # each panel fitted to its own bars, with its own tick labels
    fig, axes = figure(len(variants), len(levels), min(MAX_WIDTH / len(levels), 3.0), 2.6)
    for row, variant in enumerate(variants):
        for col, level in enumerate(levels):
            ax = axes[row][col]
            sub = pooled[(pooled["variant"] == variant) & (pooled["difficulty"] == level)]
            ax.set_title(panel_title(variant, level, variants))
            if sub.empty or sub["scored_wins"].iloc[0] == 0:
                note = "not played" if sub.empty else "no wins"
                ax.text(0.5, 0.5, note, ha="center", va="center", transform=ax.transAxes)
                ax.set_axis_off()
                continue
            counts = np.rint(sub[cols].iloc[0].to_numpy(float)).astype(int)
            total = np.full(len(counts), counts.sum())
            lo, hi, _ = proportion_ci_arrays(counts, total)
            share = counts / total
            colour = OKABE_ITO[LEVELS.index(level) % len(OKABE_ITO)] if level in LEVELS else OKABE_ITO[-2]
            x = np.arange(len(scores))
            ax.bar(x, share * 100, 0.7, yerr=yerr(share, lo, hi), capsize=CAPSIZE, color=colour)
            ax.set_xticks(x, [grade_label(s, level) for s in scores], rotation=90, fontsize=7)
            ax.set_xlabel("grade")
            ax.set_ylabel("share of wins (%)")
            ax.set_ylim(0, min(100.0, float(np.max(hi)) * 100 * 1.1))
    return fig
