"""Charts and tables drawn from a sweep's results table (one row per configuration).

Every chart function takes the DataFrame and returns a matplotlib Figure, or raises NoChartData
with a one-line reason when the table holds nothing it could draw. Rows are pooled by summing
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
from scipy.stats import chi2_contingency
from statsmodels.stats.proportion import confint_proportions_2indep

from kiai.reports.seatings import lineup_key, seating_key
from kiai.reports.stats import holm, proportion_ci_arrays
from kiai.simcore.codes import LEVEL_PLUSES, LEVELS, SAMURAI

# Okabe & Ito (2008) colours, chosen to stay distinguishable under the common colour-vision
# deficiencies. Yellow is last because it is faint on white.
OKABE_ITO = ("#E69F00", "#56B4E9", "#009E73", "#0072B2", "#D55E00", "#CC79A7", "#000000", "#F0E442")
# ColorBrewer PuOr: diverging and colour-blind safe; grey marks cells without data.
DIVERGING = "PuOr"
NO_DATA_COLOUR = "#d9d9d9"
CAPSIZE = 2

CAUSES = ("death", "farmsteads", "families")
ROUNDS = (1, 2, 3)
_SCORE_COLUMN = re.compile(r"^score_(\d+)$")


class NoChartData(Exception):
    """The table holds nothing this chart could draw; the message says why."""


# ---------------------------------------------------------------------------------- helpers


def as_bool(values: pd.Series) -> pd.Series:
    # a CSV round trip may leave "True"/"False" strings, and bool("False") is True
    if values.dtype == object:
        return values.astype(str).str.strip().str.lower().isin(("true", "1", "yes"))
    return values.astype(bool)


def strategy_labels(df: pd.DataFrame) -> pd.Series:
    """Per-row name of what was played: strategy, its params where one strategy ran with
    several, "(cheating)" for dishonest ones and ", absent tokens" for that rule variant."""
    label = df["strategy"].astype(str)
    if "params" in df:
        several = df.groupby("strategy")["params"].transform("nunique") > 1
        label = label.where(~several, label + " " + df["params"].astype(str))
    if "honest" in df:
        label = label.where(as_bool(df["honest"]), label + " (cheating)")
    if "absent_tokens" in df:
        label = label.where(~as_bool(df["absent_tokens"]), label + ", absent tokens")
    return label


def level_order(values) -> list[str]:
    """Levels present, easy to heroic, any unknown ones after them."""
    present = set(map(str, values))
    return [lv for lv in LEVELS if lv in present] + sorted(present - set(LEVELS))


def grade_label(score: int, level: str) -> str:
    return f"{score}" + "+" * LEVEL_PLUSES.get(level, 0)


def _require(df: pd.DataFrame, columns) -> None:
    missing = [c for c in columns if c not in df]
    if missing:
        raise NoChartData(f"the table lacks column(s) {', '.join(missing)}")
    if df.empty or df["games"].sum() <= 0:
        raise NoChartData("the table holds no games")


def _with_variant(df: pd.DataFrame) -> pd.DataFrame:
    d = df.assign(variant=strategy_labels(df), difficulty=df["difficulty"].astype(str))
    return d[d["games"] > 0]


def pooled_rates(df: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """Sum wins and games over rows sharing `by`; add win_rate, ci_low, ci_high, ci_method."""
    pooled = df.groupby(by, as_index=False, sort=False)[["wins", "games"]].sum()
    pooled = pooled[pooled["games"] > 0].reset_index(drop=True)
    lo, hi, method = proportion_ci_arrays(pooled["wins"].to_numpy(), pooled["games"].to_numpy())
    return pooled.assign(
        win_rate=pooled["wins"] / pooled["games"], ci_low=lo, ci_high=hi, ci_method=method
    )


def _figure(nrows: int, ncols: int, panel_w: float, panel_h: float, **kw):
    fig = Figure(figsize=(panel_w * ncols, panel_h * nrows), layout="constrained")
    FigureCanvasAgg(fig)
    return fig, fig.subplots(nrows, ncols, squeeze=False, **kw)


def _yerr(value, lo, hi) -> np.ndarray:
    # bars are drawn in percent; errorbar wants distances below and above the bar
    value, lo, hi = (np.asarray(x, dtype=float) * 100 for x in (value, lo, hi))
    return np.vstack([np.clip(value - lo, 0, None), np.clip(hi - value, 0, None)])


def _panel_title(variant: str, detail: str, variants: list[str]) -> str:
    return f"{variant}: {detail}" if len(variants) > 1 else detail


def _grouped_offsets(n_groups: int, width: float = 0.8) -> tuple[np.ndarray, float]:
    bar = width / max(n_groups, 1)
    return (np.arange(n_groups) - (n_groups - 1) / 2) * bar, bar


def _team_size_legend(fig: Figure, axes) -> None:
    # outside the panels, where it cannot hide a bar; panels share colours so one legend serves
    handles, labels = {}, []
    for ax in axes.flat:
        for handle, label in zip(*ax.get_legend_handles_labels()):
            if label not in handles:
                handles[label] = handle
                labels.append(label)
    fig.legend(
        [handles[lb] for lb in labels], labels, title="team size", loc="outside lower center",
        ncols=max(1, len(labels)), fontsize="small",
    )


# ---------------------------------------------------------------------- 1. win rate by level


def plot_winrate_by_level(df: pd.DataFrame) -> Figure:
    """Grouped bars: win rate per level, one bar per samurai count, 95% interval error bars."""
    _require(df, ["difficulty", "n_samurai", "strategy", "games", "wins"])
    pooled = pooled_rates(_with_variant(df), ["variant", "difficulty", "n_samurai"])
    variants = sorted(pooled["variant"].unique())
    counts = sorted(pooled["n_samurai"].unique())
    offsets, bar = _grouped_offsets(len(counts))
    fig, axes = _figure(1, len(variants), 1.6 + 1.4 * pooled["difficulty"].nunique(), 4.2, sharey=True)
    # every panel gets every level so that panels line up and a missing level shows as a gap
    levels = level_order(pooled["difficulty"])
    for ax, variant in zip(axes[0], variants):
        sub = pooled[pooled["variant"] == variant]
        for j, count in enumerate(counts):
            rows = sub[sub["n_samurai"] == count].set_index("difficulty").reindex(levels)
            ax.bar(
                np.arange(len(levels)) + offsets[j],
                rows["win_rate"] * 100,
                bar,
                yerr=_yerr(rows["win_rate"], rows["ci_low"], rows["ci_high"]),
                capsize=CAPSIZE,
                color=OKABE_ITO[j % len(OKABE_ITO)],
                label=f"{count} samurai",
            )
        ax.set_xticks(np.arange(len(levels)), levels)
        ax.set_xlim(-0.5, len(levels) - 0.5)
        ax.set_xlabel("difficulty level")
        ax.set_ylabel("win rate (%)")
        ax.set_title(variant if len(variants) > 1 else "")  # one strategy: the report's title names it
    # scale to the data (small rates would look flat on a fixed 0-100% axis); say so in the title
    top = float(np.nanmax(pooled["ci_high"].to_numpy(dtype=float))) * 100 if len(pooled) else 100.0
    axes[0, 0].set_ylim(0, min(100.0, max(1.0, top * 1.15)))
    _team_size_legend(fig, axes)
    fig.suptitle("Win rate by difficulty level and number of samurai (95% intervals)")
    return fig


# -------------------------------------------------------------- 2. each samurai's effect


def samurai_effects(df: pd.DataFrame) -> pd.DataFrame:
    """Win rate of line-ups with each samurai minus line-ups without, within each strategy,
    level and samurai count (team size changes the win rate far more than any samurai does, so
    it must not be mixed in). Interval: Newcombe's hybrid score interval for the difference of
    two independent proportions (statsmodels confint_proportions_2indep, method "newcomb")."""
    _require(df, ["difficulty", "n_samurai", "lineup", "strategy", "games", "wins"])
    d = _with_variant(df)
    members = d["lineup"].astype(str).str.split(",").map(lambda xs: {x.strip() for x in xs})
    keys = ["variant", "difficulty", "n_samurai"]
    parts = []
    for samurai in SAMURAI:
        has = members.map(lambda m, s=samurai: s in m)
        with_ = d[has].groupby(keys)[["wins", "games"]].sum()
        without = d[~has].groupby(keys)[["wins", "games"]].sum()
        both = with_.reset_index().merge(without.reset_index(), on=keys, suffixes=("_with", "_without"))
        parts.append(both.assign(samurai=samurai))
    effects = pd.concat(parts, ignore_index=True)
    effects = effects[(effects["games_with"] > 0) & (effects["games_without"] > 0)]
    if effects.empty:
        return effects.assign(diff=[], ci_low=[], ci_high=[])
    lo, hi = confint_proportions_2indep(
        effects["wins_with"].to_numpy(float),
        effects["games_with"].to_numpy(float),
        effects["wins_without"].to_numpy(float),
        effects["games_without"].to_numpy(float),
        method="newcomb",
        compare="diff",
    )
    diff = effects["wins_with"] / effects["games_with"] - effects["wins_without"] / effects["games_without"]
    return effects.assign(diff=diff, ci_low=np.asarray(lo), ci_high=np.asarray(hi)).reset_index(drop=True)


def plot_samurai_effects(df: pd.DataFrame) -> Figure:
    """Bars per samurai: win-rate difference with vs without it, per level and team size."""
    effects = samurai_effects(df)
    if effects.empty:
        raise NoChartData("no level and team size has line-ups both with and without a samurai")
    variants = sorted(effects["variant"].unique())
    levels = level_order(effects["difficulty"])
    counts = sorted(effects["n_samurai"].unique())
    offsets, bar = _grouped_offsets(len(counts))
    fig, axes = _figure(len(levels), len(variants), 7.5, 3.0, sharey=True)
    x = np.arange(len(SAMURAI))
    for col, variant in enumerate(variants):
        for row, level in enumerate(levels):
            ax = axes[row][col]
            sub = effects[(effects["variant"] == variant) & (effects["difficulty"] == level)]
            for j, count in enumerate(counts):
                rows = sub[sub["n_samurai"] == count].set_index("samurai").reindex(SAMURAI)
                ax.bar(
                    x + offsets[j],
                    rows["diff"] * 100,
                    bar,
                    yerr=_yerr(rows["diff"], rows["ci_low"], rows["ci_high"]),
                    capsize=CAPSIZE,
                    color=OKABE_ITO[j % len(OKABE_ITO)],
                    label=f"{count} samurai",
                )
            ax.axhline(0, color="black", linewidth=0.8)
            ax.set_xticks(x, SAMURAI, rotation=30, ha="right")
            ax.set_ylabel("difference (percentage points)")
            ax.set_title(_panel_title(variant, level, variants))
    _team_size_legend(fig, axes)
    fig.suptitle("Win rate with each samurai minus without it (95% Newcombe intervals)")
    return fig


# ---------------------------------------------------------------- 3. neighbour effects


def neighbour_effects(df: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """Per strategy, a 7x7 table in percentage points: row A, column B holds the mean effect
    of seating A directly to B's left (seat(A) = seat(B) + 1 mod n).

    Only line-ups played in two or more distinct seatings at one level count. Within each such
    group a seating's effect is its win rate minus the unweighted mean over the group's
    seatings, so the line-up's own strength cancels. NaN where no seating put A left of B.
    """
    _require(df, ["difficulty", "seating", "strategy", "games", "wins"])
    d = _with_variant(df)
    d = d[d["seating"].notna() & (d["seating"].astype(str).str.len() > 0)]
    if d.empty:
        return {}
    d = d.assign(seat_key=d["seating"].map(seating_key))
    d = d.assign(group=d["seat_key"].map(lineup_key))
    keys = ["variant", "difficulty", "group", "seat_key"]
    pooled = d.groupby(keys, as_index=False)[["wins", "games"]].sum()
    pooled["rate"] = pooled["wins"] / pooled["games"]
    grouped = pooled.groupby(["variant", "difficulty", "group"])["rate"]
    pooled["effect"] = (pooled["rate"] - grouped.transform("mean")) * 100
    pooled = pooled[grouped.transform("size") >= 2]
    index = {name: i for i, name in enumerate(SAMURAI)}
    tables = {}
    for variant, sub in pooled.groupby("variant"):
        total = np.zeros((len(SAMURAI), len(SAMURAI)))
        count = np.zeros_like(total)
        for seat_key, effect in zip(sub["seat_key"], sub["effect"]):
            seats = seat_key.split(",")
            n = len(seats)
            for b in range(n):
                a_i, b_i = index[seats[(b + 1) % n]], index[seats[b]]
                total[a_i, b_i] += effect
                count[a_i, b_i] += 1
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = np.where(count > 0, total / np.where(count > 0, count, 1), np.nan)
        tables[variant] = pd.DataFrame(mean, index=list(SAMURAI), columns=list(SAMURAI))
    return tables


def plot_neighbour_effects(df: pd.DataFrame) -> Figure:
    """Heat map per strategy of neighbour_effects, centred on 0, values annotated."""
    try:
        tables = neighbour_effects(df)
    except NoChartData as exc:
        raise NoChartData(f"no seating data: {exc}") from None
    if not tables:
        raise NoChartData("no line-up was played in two or more seatings at one level")
    variants = sorted(tables)
    # one symmetric scale for all panels, so that equal colours mean equal effects
    finite = np.concatenate([t.to_numpy().ravel() for t in tables.values()])
    finite = finite[np.isfinite(finite)]
    limit = float(np.abs(finite).max()) if finite.size and np.abs(finite).max() > 0 else 1.0
    fig, axes = _figure(1, len(variants), 6.2, 5.4)
    cmap = _diverging_cmap()
    for ax, variant in zip(axes[0], variants):
        values = tables[variant].to_numpy()
        image = ax.imshow(np.ma.masked_invalid(values), cmap=cmap, vmin=-limit, vmax=limit)
        for (i, j), v in np.ndenumerate(values):
            if np.isfinite(v):
                colour = "white" if abs(v) > 0.6 * limit else "black"
                ax.text(j, i, f"{v:+.1f}", ha="center", va="center", fontsize=8, color=colour)
        ax.set_xticks(np.arange(len(SAMURAI)), SAMURAI, rotation=30, ha="right")
        ax.set_yticks(np.arange(len(SAMURAI)), SAMURAI)
        ax.set_xlabel("samurai B")
        ax.set_ylabel("samurai A, seated directly to B's left")
        ax.set_title(variant if len(variants) > 1 else "neighbour effect")
        fig.colorbar(image, ax=ax, shrink=0.8, label="effect on win rate (percentage points)")
    fig.suptitle("Effect of seating A to the left of B (grey: no data)")
    return fig


def _diverging_cmap():
    from matplotlib import colormaps

    return colormaps[DIVERGING].with_extremes(bad=NO_DATA_COLOUR)


# ------------------------------------------------------------------------- 4. loss causes


def plot_loss_causes(df: pd.DataFrame) -> Figure:
    """Two panels per strategy: losses by round and losses by cause, stacked per level, as a
    share of all games; the error bar on each stack is the 95% interval of the loss rate.

    The table has per-round and per-cause totals but not their cross-tabulation, hence two
    panels rather than one stack split both ways."""
    round_cols = [f"lost_round_{r}" for r in ROUNDS]
    cause_cols = [f"out_{c}" for c in CAUSES]
    _require(df, ["difficulty", "strategy", "games", "wins", *round_cols, *cause_cols])
    d = _with_variant(df)
    counted = ["games", "wins", *round_cols, *cause_cols]
    pooled = d.groupby(["variant", "difficulty"], as_index=False)[counted].sum()
    pooled["losses"] = pooled["games"] - pooled["wins"]
    if pooled["losses"].sum() <= 0:
        raise NoChartData("no game was lost")
    lo, hi, _ = proportion_ci_arrays(pooled["losses"].to_numpy(), pooled["games"].to_numpy())
    pooled = pooled.assign(loss_rate=pooled["losses"] / pooled["games"], loss_lo=lo, loss_hi=hi)
    variants = sorted(pooled["variant"].unique())
    fig, axes = _figure(len(variants), 2, 1.4 + 1.2 * pooled["difficulty"].nunique(), 3.8, sharey=True)
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
                yerr=_yerr(sub["loss_rate"], sub["loss_lo"], sub["loss_hi"]),
                fmt="none",
                ecolor="black",
                capsize=3,
            )
            ax.set_xticks(x, levels)
            ax.set_xlim(-0.5, len(levels) - 0.5)
            ax.set_xlabel("difficulty level")
            ax.set_ylabel("games lost (% of games)")
            ax.set_title(_panel_title(variant, what, variants))
            ax.legend(fontsize="small")
    fig.suptitle("How games were lost (error bar: 95% interval of the loss rate)")
    return fig


# ------------------------------------------------------------------- 5. scores and grades


def score_columns(df: pd.DataFrame) -> list[str]:
    found = [(int(m.group(1)), c) for c in df.columns if (m := _SCORE_COLUMN.match(str(c)))]
    return [c for _, c in sorted(found)]


def plot_score_grades(df: pd.DataFrame) -> Figure:
    """Bars per level: share of wins at each grade (score plus the level's "+" marks), with
    95% intervals of each share."""
    _require(df, ["difficulty", "strategy", "games", "wins"])
    cols = score_columns(df)
    if not cols:
        raise NoChartData("the table has no score_N columns")
    scores = [int(_SCORE_COLUMN.match(c).group(1)) for c in cols]
    pooled = _with_variant(df).groupby(["variant", "difficulty"], as_index=False)[cols].sum()
    pooled["scored_wins"] = pooled[cols].sum(axis=1)
    if pooled["scored_wins"].sum() <= 0:
        raise NoChartData("no game was won")
    variants = sorted(pooled["variant"].unique())
    levels = level_order(pooled["difficulty"])
    # fixed 0-100 axes instead of shared ones, so every panel keeps its own tick labels
    fig, axes = _figure(len(variants), len(levels), 4.0, 3.2)
    for row, variant in enumerate(variants):
        for col, level in enumerate(levels):
            ax = axes[row][col]
            sub = pooled[(pooled["variant"] == variant) & (pooled["difficulty"] == level)]
            ax.set_title(_panel_title(variant, level, variants))
            if sub.empty or sub["scored_wins"].iloc[0] == 0:
                note = "not played" if sub.empty else "no wins"
                ax.text(0.5, 0.5, note, ha="center", va="center", transform=ax.transAxes)
                ax.set_axis_off()
                continue
            counts = sub[cols].iloc[0].to_numpy(int)
            total = np.full(len(counts), counts.sum())
            lo, hi, _ = proportion_ci_arrays(counts, total)
            share = counts / total
            colour = OKABE_ITO[LEVELS.index(level) % len(OKABE_ITO)] if level in LEVELS else OKABE_ITO[-2]
            x = np.arange(len(scores))
            ax.bar(x, share * 100, 0.7, yerr=_yerr(share, lo, hi), capsize=CAPSIZE, color=colour)
            ax.set_xticks(x, [grade_label(s, level) for s in scores], rotation=45)
            ax.set_xlabel("grade")
            ax.set_ylabel("share of wins (%)")
            ax.set_ylim(0, 100)
    fig.suptitle("Grades of won games (95% intervals)")
    return fig


# --------------------------------------------------------------------------- 6. tables


def best_worst_lineups(df: pd.DataFrame, k: int = 3) -> pd.DataFrame:
    """The k best and k worst line-ups (all seatings pooled) per strategy, level and team
    size; groups with a single line-up are left out. Rates and intervals in percent."""
    _require(df, ["difficulty", "n_samurai", "lineup", "strategy", "games", "wins"])
    d = _with_variant(df).assign(lineup=lambda x: x["lineup"].map(lineup_key))
    pooled = pooled_rates(d, ["variant", "difficulty", "n_samurai", "lineup"])
    rows = []
    for (variant, level, count), sub in pooled.groupby(["variant", "difficulty", "n_samurai"]):
        if len(sub) < 2:
            continue
        sub = sub.sort_values(["win_rate", "lineup"], ascending=[False, True]).reset_index(drop=True)
        keep = sorted(set(range(min(k, len(sub)))) | set(range(max(len(sub) - k, 0), len(sub))))
        for i in keep:
            r = sub.iloc[i]
            rows.append(
                {
                    "strategy": variant,
                    "level": level,
                    "samurai": int(count),
                    "rank": f"{i + 1} of {len(sub)}",
                    "line-up": r["lineup"],
                    "games": int(r["games"]),
                    "win rate (%)": round(100 * r["win_rate"], 1),
                    "95% CI (%)": f"{100 * r['ci_low']:.1f} to {100 * r['ci_high']:.1f}",
                }
            )
    columns = ["strategy", "level", "samurai", "rank", "line-up", "games", "win rate (%)", "95% CI (%)"]
    table = pd.DataFrame(rows, columns=columns)
    return _sort_by_level(table)


def best_worst_seatings(df: pd.DataFrame) -> pd.DataFrame:
    """Per strategy, level and line-up played in two or more seatings: its best and worst
    seating, the spread between them, and whether the seatings differ at all.

    The p-value is a chi-square test of homogeneity of win rates across the line-up's seatings
    (scipy chi2_contingency), Holm-adjusted over every line-up in the table. Seatings played
    on shared seeds are positively correlated, which makes this test conservative.
    """
    columns = [
        "strategy", "level", "line-up", "seatings", "best seating", "best (%)",
        "worst seating", "worst (%)", "spread (pp)", "p", "p (Holm)",
    ]
    _require(df, ["difficulty", "seating", "strategy", "games", "wins"])
    d = _with_variant(df)
    d = d[d["seating"].notna() & (d["seating"].astype(str).str.len() > 0)]
    if d.empty:
        return pd.DataFrame(columns=columns)
    d = d.assign(seat_key=d["seating"].map(seating_key))
    d = d.assign(group=d["seat_key"].map(lineup_key))
    pooled = pooled_rates(d, ["variant", "difficulty", "group", "seat_key"])
    rows = []
    for (variant, level, group), sub in pooled.groupby(["variant", "difficulty", "group"]):
        if len(sub) < 2:
            continue
        sub = sub.sort_values(["win_rate", "seat_key"], ascending=[False, True])
        best, worst = sub.iloc[0], sub.iloc[-1]
        rows.append(
            {
                "strategy": variant,
                "level": level,
                "line-up": group,
                "seatings": len(sub),
                "best seating": best["seat_key"],
                "best (%)": round(100 * best["win_rate"], 1),
                "worst seating": worst["seat_key"],
                "worst (%)": round(100 * worst["win_rate"], 1),
                "spread (pp)": round(100 * (best["win_rate"] - worst["win_rate"]), 1),
                "p": _homogeneity_p(sub["wins"].to_numpy(), sub["games"].to_numpy()),
            }
        )
    table = pd.DataFrame(rows, columns=columns[:-1])
    table["p (Holm)"] = holm(table["p"].to_numpy(float)) if len(table) else []
    table["p"] = table["p"].astype(float).round(4)
    table["p (Holm)"] = table["p (Holm)"].astype(float).round(4)
    return _sort_by_level(table)


def _homogeneity_p(wins: np.ndarray, games: np.ndarray) -> float:
    table = np.column_stack([wins, games - wins])
    if (table.sum(axis=0) == 0).any():
        # every seating won every game (or lost every one): nothing varies between them
        return 1.0
    return float(chi2_contingency(table).pvalue)


def _sort_by_level(table: pd.DataFrame) -> pd.DataFrame:
    if table.empty:
        return table.reset_index(drop=True)
    rank = {lv: i for i, lv in enumerate(level_order(table["level"]))}
    order = table["level"].map(rank)
    ordered = table.assign(_order=order).sort_values(["strategy", "_order"], kind="stable")
    return ordered.drop(columns="_order").reset_index(drop=True)


# stable output names for the report, in reading order
CHARTS = {
    "winrate_by_level": plot_winrate_by_level,
    "samurai_effect": plot_samurai_effects,
    "neighbour_effect": plot_neighbour_effects,
    "loss_causes": plot_loss_causes,
    "score_grades": plot_score_grades,
}
