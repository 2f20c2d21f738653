"""Other component files in the report (its House rules section): games played under a corrected
or changed component file, paired with the same configurations under the report's own file.

A results table may hold rows of several component files (`kiai sweep --preset house --components
FILE` plays the rule readings' line-ups under FILE, on the deals of the default sweep). The report's
charts and tables show one file's games, kiai's packaged file where the table has it (main); the
rows of every other file are compared here with their partners of the main file: the same seating,
level, strategy, parameters, absent tokens, readings, seed and games.
"""

from __future__ import annotations

import pandas as pd

from kiai.reports.findings.advice import difference, levels_present
from kiai.reports.findings.wording import fmt_pp, fmt_pp_ci, fmt_rate
from kiai.reports.page.render import Page
from kiai.reports.page.scope import Inputs

KEY = ("difficulty", "seating", "strategy", "params", "absent_tokens", "rules", "seed", "games")
COLUMNS = ["file", "components_sha256", "difficulty", "n_samurai", "lineups", "games", "wins_main", "wins_file",
           "rate_main", "rate_file", "diff", "lo", "hi", "separated"]


def main_components(df: pd.DataFrame) -> str | None:
    """The component file whose games the report shows: kiai's packaged one where the table holds
    it, else the one of most rows (None: a table without the column)."""
    from kiai.simcore.components import load_components

    if "components_sha256" not in df or df.empty:
        return None
    shas = df["components_sha256"].astype(str)
    own = load_components().sha256
    return own if (shas == own).any() else str(shas.value_counts().index[0])


def of_main(df: pd.DataFrame) -> pd.Series:
    """True for the rows of the main component file (every row, where the table names none)."""
    main = main_components(df)
    return df["components_sha256"].astype(str) == main if main is not None else pd.Series(True, index=df.index)


def compare_files(df: pd.DataFrame, strategy: str | None = None, names: dict | None = None) -> pd.DataFrame:
    """Per other component file, level and team size: line-ups, games, wins under the main file and
    under that file on the same configurations, the difference (file minus main) with Newcombe's
    95% interval, and whether it excludes zero. `names`: {sha256: the file's name}."""
    names = names or {}
    main = main_components(df)
    if main is None:
        return pd.DataFrame(columns=COLUMNS)
    d = df[(df["games"] > 0).to_numpy()].assign(difficulty=lambda x: x["difficulty"].astype(str),
                                                components_sha256=lambda x: x["components_sha256"].astype(str))
    if strategy is not None:
        d = d[d["strategy"].astype(str) == strategy]
    key = [c for c in KEY if c in d]
    base = d[d["components_sha256"] == main].drop_duplicates(key)
    other = d[d["components_sha256"] != main]
    if other.empty or base.empty:
        return pd.DataFrame(columns=COLUMNS)
    both = other.merge(base[key + ["wins"]], on=key, suffixes=("", "_main"))
    rows = []
    for (sha, level, n), part in both.groupby(["components_sha256", "difficulty", "n_samurai"]):
        games, w_file, w_main = int(part["games"].sum()), int(part["wins"].sum()), int(part["wins_main"].sum())
        diff, lo, hi = difference(w_file, games, w_main, games)
        rows.append({"file": names.get(sha, f"components {sha[:12]}"), "components_sha256": sha, "difficulty": level,
                     "n_samurai": int(n), "lineups": part["lineup"].nunique(), "games": games, "wins_main": w_main,
                     "wins_file": w_file, "rate_main": w_main / games, "rate_file": w_file / games, "diff": diff,
                     "lo": lo, "hi": hi, "separated": bool(lo > 0 or hi < 0)})  # fmt: skip
    out = pd.DataFrame(rows, columns=COLUMNS)
    order = {lv: i for i, lv in enumerate(levels_present(out["difficulty"]))}
    return out.assign(_o=out["difficulty"].map(order)).sort_values(["file", "_o", "n_samurai"]).drop(
        columns="_o").reset_index(drop=True)


def section(page: Page, inputs: Inputs) -> None:
    """The report's part on other component files (a subsection of House rules), when the table
    holds games of one, or `names` (the report's `components`) lists one."""
    df, strategy, names = inputs.everything, inputs.views.strategy, inputs.components
    files = compare_files(df, strategy, names)
    if files.empty and not names:
        return
    page.add(("h3", "Other component files"))
    if files.empty:
        page.add(("note", "Not drawn: the tables hold no games under " + ", ".join(sorted(names.values()))
                          + " paired with the same configurations under the report's own file (`kiai sweep --preset "
                          "house --components FILE` plays them)."))
        return
    page.add(("p", "The same line-ups, each seated in its own order, on the same deals under another component file "
                   "(a corrected deck, changed Kiai values, changed levels) and under the report's own: the win rate "
                   f"under each and the difference, strategy `{strategy}`. A difference marked 'within noise' has a 95% "
                   "interval (Newcombe's) that includes zero; `kiai compare --components` tests one line-up with a "
                   "paired test. Where a file changes the cards or the Kiai values, the learned players play it with "
                   "models made for other components."),
             ("table", pd.DataFrame({
                 "file": files["file"], "level": files["difficulty"], "samurai": files["n_samurai"].astype(int),
                 "line-ups": files["lineups"].astype(int),
                 "own file": [fmt_rate(r.wins_main, r.games) for r in files.itertuples()],
                 "this file": [fmt_rate(r.wins_file, r.games) for r in files.itertuples()],
                 "difference": [f"{fmt_pp(r.diff)} ({fmt_pp_ci(r.lo, r.hi)})" + ("" if r.separated else ", within noise")
                                for r in files.itertuples()]})))  # fmt: skip
    page.csv("component_files.csv", files.rename(columns={"difficulty": "level"}),
             "every other component file against the report's own")
