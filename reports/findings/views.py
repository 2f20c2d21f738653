"""A results table read (load_results), and the rows of it each part of a report reads (views): the
rule readings shown, the main strategy, its rows, and kiai's strongest player's win rates
(strongest_rates). reports.page.report writes the page from them, and reports.findings.findings reads
In short's findings from them as the page does."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from kiai.reports.findings import advice, agreement, ladder

# what load_results raises for a damaged or foreign file: OSError (no such file, a damaged page),
# ValueError (pyarrow's ArrowInvalid, pandas' ParserError, bytes that are no UTF-8) and pyarrow's
# other errors
UNREADABLE = (OSError, ValueError, pa.ArrowException)


def load_results(path) -> pd.DataFrame:
    """A results table from a .parquet or .csv file (UNREADABLE where it is none)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".parquet":  # the pandas entry of its metadata unused: a damaged one is no TypeError
        df = pq.read_table(path).to_pandas(ignore_metadata=True)
        return df.drop(columns=[c for c in df.columns if str(c).startswith("__index_level_")])  # a frame's index
    if suffix == ".csv":  # hashes as text: one made of digits alone would otherwise read as a number
        df = pd.read_csv(path, dtype={"components_sha256": str, "models": str, "engine": str, "outcomes": str})
        return df.fillna({c: "" for c in ("models", "outcomes") if c in df})  # an empty field reads as NaN
    raise ValueError(f"cannot read {path.name}: expected a .parquet or .csv file")


@dataclass(frozen=True)
class Counts:
    """What a table played, each configuration once (distinct_counts)."""

    configurations: int
    games: int
    wins: int


def distinct_counts(df: pd.DataFrame) -> Counts:
    """The configurations, games and wins of a table (or of several, concatenated) as its tables
    count them: each configuration once, by its longest run of the same deals (ladder.distinct_games),
    however many tables repeat it. The page's header and its methods count with this, and nothing
    else."""
    once = ladder.distinct_games(df)
    return Counts(len(once), int(once["games"].sum()), int(once["wins"].sum()))


def main_rules(df: pd.DataFrame) -> str:
    """The rule readings the charts and tables show: the rules' own where the table has them, else
    the readings played on the most configurations."""
    from kiai.reports.playing.tables import DEFAULT_RULES

    readings = advice.rules_of(df)
    if readings.empty or (readings == DEFAULT_RULES).any():
        return DEFAULT_RULES
    return readings.value_counts().index[0]


@dataclass
class Views:
    """The rows each part of a report reads (views)."""

    rules: str  # the rule readings the charts and tables show
    shown: pd.DataFrame  # the rows of those readings, every strategy
    strategy: str  # the main strategy: kiai's default where the tables have it
    played: pd.DataFrame  # its rows, every reading, each configuration's longest run once
    main: pd.DataFrame  # its rows of the shown readings and the rules' default for absent tokens
    strong: pd.DataFrame  # kiai's strongest player's win rate by level and team size (strongest_rates)


def views(df: pd.DataFrame) -> Views:
    """The rows of a results table (or of several, concatenated) that the report's parts read."""
    # the charts and tables show one set of rule readings, the rules' own where the table has them
    # (a sweep over --rule holds several: pooling them would mix games of different rules); the
    # house-rules section compares the others with them
    rules = main_rules(df)
    shown = df[(advice.rules_of(df) == rules).to_numpy()]
    # one strategy, kiai's default where the table has it; the ladder (other strategies on a few
    # tables) has its own section
    strategy = ladder.main_strategy(shown)
    played = ladder.distinct_games(agreement.without_controls(df[df["strategy"].astype(str) == strategy]))
    main = ladder.distinct_games(agreement.without_controls(shown[shown["strategy"].astype(str) == strategy]))
    main = main.assign(difficulty=main["difficulty"].astype(str))
    # two samurai play with absent tokens by default; rows that depart from the default
    # only feed the note on them, unless the table holds nothing else
    default = main[advice.default_tokens(main).to_numpy()]
    main = default if not default.empty else main
    strong = strongest_rates(shown, advice.level_rates(advice.grid_rows(main)))
    return Views(rules, shown, strategy, played, main, strong)


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
    from kiai.reports.findings.agreement import own_race
    from kiai.reports.findings.ladder import distinct_games
    from kiai.reports.findings.strongest import tiers

    strong = own_race(df[(tiers(df) == "strongest").to_numpy()]) if not df.empty else df
    own = advice.level_rates(advice.grid_rows(distinct_games(strong))) if not strong.empty else advice.level_rates(strong)
    keys = ["difficulty", "n_samurai"]
    own = own.merge(main[[*keys, "lineups"]].rename(columns={"lineups": "lineups_all"}), on=keys)
    own = own[own["lineups"] == own["lineups_all"]].reset_index(drop=True)
    return with_difference(df, own.reindex(columns=[*keys, "lineups", "wins", "games", "rate", "lo", "hi"]), main)


def with_difference(df: pd.DataFrame, strong: pd.DataFrame, main: pd.DataFrame) -> pd.DataFrame:
    """`strong` (strongest_rates) with, per level and team size, the strongest player's difference
    from the default (strongest minus default) and its 95% interval, diff, diff_lo, diff_hi, and
    told_apart (strongest.told_apart: it wins at least 1% and the interval lies above zero).

    The difference is read on the deals both played (agreement.paired_rows): deal by deal where the
    rows kept each game's win (agreement.shared_difference), else Newcombe's interval over the two
    players' games of those deals; where the two played no deals in common, Newcombe's over the
    strongest's own games and the default's (`main`)."""
    from kiai.reports.findings.strongest import default_strategy, told_apart

    columns = ["diff", "diff_lo", "diff_hi"]
    if strong.empty:
        return strong.assign(**{c: pd.Series(dtype=float) for c in columns}, told_apart=pd.Series(dtype=bool))
    pairs = agreement.paired_rows(df, default_strategy())
    keys = ["difficulty", "n_samurai"]
    if not pairs.empty:
        pairs = pairs.assign(difficulty=pairs["difficulty"].astype(str))
        sides = {side: advice.level_rates(pairs[(pairs["strategy"] == agreement.STRONG) == (side == "strong")])
                 .set_index(keys) for side in ("strong", "default")}
    defaults = main.assign(difficulty=main["difficulty"].astype(str)).set_index(keys) if not main.empty else main
    out = []
    for r in strong.itertuples():
        at = (str(r.difficulty), int(r.n_samurai))
        part = pairs[(pairs["difficulty"] == at[0]) & (pairs["n_samurai"] == at[1])] if not pairs.empty else pairs
        d = agreement.shared_difference(part, agreement.STRONG) if not part.empty else None
        if d is None and not part.empty and at in sides["strong"].index and at in sides["default"].index:
            a, b = sides["strong"].loc[at], sides["default"].loc[at]
            d = advice.difference(a["wins"], a["games"], b["wins"], b["games"])
        if d is None and at in defaults.index:
            d = advice.difference(r.wins, r.games, defaults.loc[at, "wins"], defaults.loc[at, "games"])
        out.append(d if d is not None else (float("nan"),) * 3)
    strong = strong.assign(**{c: [float(d[i]) for d in out] for i, c in enumerate(columns)})
    return strong.assign(told_apart=[told_apart(r.rate, r.diff_lo) for r in strong.itertuples()])
