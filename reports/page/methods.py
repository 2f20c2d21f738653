"""The report's last section, "How these results were made": strategies, games, seeds, rule
readings, files and versions, and the statistics used."""

from __future__ import annotations

import pandas as pd

from kiai.reports.findings import advice
from kiai.reports.findings.ladder import distinct_games
from kiai.reports.findings.rows import as_bool, strategy_labels
from kiai.reports.page.render import Page
from kiai.reports.page.scope import Inputs, spread
from kiai.words import plural


def section(page: Page, inputs: Inputs) -> None:
    """The section "How these results were made"."""
    v = inputs.views
    page.add(*methods_blocks(v.shown, inputs.notes or {}, rules_note(inputs.everything, v.rules)))


def rules_note(df: pd.DataFrame, shown: str) -> str:
    """The methods' line on the rule readings (docs/rules.md section 14) the table played."""
    rules = advice.rules_of(distinct_games(df))  # each configuration once, as the tables count it
    others = sorted(set(rules) - {shown})
    text = f"Rule readings (docs/rules.md section 14, `kiai rules`): {shown}"
    if others:
        text += (f" in the charts and tables; the results also hold {'; '.join(others)} "
                 f"({plural(int((rules != shown).sum()), 'configuration')}, not shown)")
    return text + "."


def _count(df: pd.DataFrame) -> str:
    """The methods' count, as the header's (views.distinct_counts): '140 configurations, 28,000 games'."""
    from kiai.reports.findings.views import distinct_counts

    counts = distinct_counts(df)
    return f"{plural(counts.configurations, 'configuration')}, {plural(counts.games, 'game')}"


def methods_blocks(df: pd.DataFrame, notes: dict, rules_note: str | None = None) -> list[tuple]:
    once = distinct_games(df)  # two runs of the same deals count as the tables count them: the longer once
    labels = strategy_labels(df)
    strategies = []
    for label, sub in df.groupby(labels, sort=True):
        params = sorted(set(sub["params"].astype(str))) if "params" in sub else []
        strategies.append(f"{label}" + (f" (params: {'; '.join(params)})" if params else ""))
    items = [
        "Strategies: " + (", ".join(strategies) or "none") + ".",
        *([models] if (models := models_note(df)) else []),
        f"Games per configuration: {spread(once['games'])}; {_count(df)}.",
        f"Seeds: {listing(df, 'seed')}.",
        *([rules_note] if rules_note else []),
        f"Components file SHA-256: {listing(df, 'components_sha256')}.",
        f"kiai version: {listing(df, 'kiai_version')}.",
    ]
    if "stalled_games" in once and once["stalled_games"].sum() > 0:
        items.append(f"Stalled games (stopped at the engine's turn cap): {int(once['stalled_games'].sum()):,}.")
    items += [f"{key}: {value}" for key, value in notes.items()]
    statement = (
        "Win rates are shares of games won. Intervals are 95% intervals: Wilson score "
        "intervals, or Clopper-Pearson where the wins are within 5 of none or of all games; "
        "rates pooled over several configurations sum their wins and games first, each configuration "
        "counted once where they played different numbers of games (each scaled to the harmonic mean of "
        "their games: Kish's effective size), which holds because each seating meets deals of its own. A samurai's "
        "effect uses Newcombe's interval for a difference of two independent proportions. "
        "Seating comparisons are Holm-adjusted where shown."
    )
    from kiai.reports.findings.coverage_note import sentence as coverage_sentence

    blocks = [("h2", "How these results were made"), ("ul", items), ("p", statement)]
    if (checked := coverage_sentence()) is not None:
        blocks.append(("p", checked))
    if raced(df):
        blocks.append(("p", race_statement()))
    if "honest" in df and not as_bool(df["honest"]).all():
        blocks.append(("p", "Strategies marked (cheating) see hidden information; they show what "
                            "perfect knowledge could reach and are not a fair difficulty measure."))
    return blocks


def raced(df: pd.DataFrame) -> bool:
    """True where the configurations of one strategy, level and team size played different numbers
    of games: a race decided them (reports.playing.racing)."""
    keys = [c for c in ("strategy", "difficulty", "n_samurai") if c in df]
    return bool(len(df) and (df.groupby(keys)["games"].nunique() > 1).any())


def race_statement() -> str:
    """What `make report`'s races do and guarantee, from the presets' own numbers."""
    from kiai.reports.playing import presets as p
    from kiai.reports.playing.stopping import ALPHA

    def pts(x: float) -> str:
        return f"{100 * x:g} points"

    return (
        f"How many games: `make report`'s main sweep, advice and agreement stages play in rounds ({p.DEFAULT_ROUND:,}, "
        f"{p.ADVICE_ROUND:,}, and about {p.AGREEMENT_ROUND} games pooled over a cell's line-ups) and stop a "
        "configuration once the report's sentences have what they need of it (successive elimination, as in "
        "Maron and Moore's racing, with exact bounds). After each round every line-up of a level and team size (every "
        "seating of a line-up) gets a Clopper-Pearson interval at confidence 1 - "
        f"{ALPHA:g}/(k x looks), k line-ups and the race's looks; it leaves the race once its bound shows it can be "
        "neither the best nor the worst, or once a 95% interval of its games at the race's pooled rate is within "
        f"+-{pts(p.SWEEP_PRECISION)} (seatings +-{pts(p.SEATING_PRECISION)}; the advice stage's seatings "
        f"+-{pts(p.ADVICE_MARGIN)}), at {p.DEFAULT_GAMES:,} games ({p.ADVICE_CAP:,} for advice) at most. By the union "
        f"bound, with probability at least {1 - ALPHA:.0%} per race every interval covers its true rate at every look, "
        "so no line-up that is truly the best or the worst is dropped before it reaches that precision: a clear "
        "leader ends the race early, a tie plays to the cap. A rule reading (and absent tokens off) plays until "
        f"the difference with the rules' own, pooled over its line-ups, has an interval at confidence 1 - {ALPHA:g}/looks "
        f"that excludes zero or lies within +-{pts(p.RULE_MARGIN)}; the agreement stage plays every line-up of a level "
        "and team size, each line-up on deals of its own and both its players on the same ones, until the "
        "95% interval of kiai's strongest "
        f"player's rate, all line-ups pooled, is within +-{pts(p.HEADLINE_PRECISION)} (its check of effects "
        f"and rankings plays {p.AGREEMENT_GAMES:,} games a line-up). Game i of the seed is the same deal for every configuration, so a configuration that "
        "stopped early met the first deals of those that played on. The rules read only the games' results, never "
        "the clock: the tables are the same on any number of threads and after an interrupted run is resumed."
    )


def models_note(df: pd.DataFrame) -> str:
    """The methods' line on the strategies that play a model per family of tables (selfplay,
    strategies BY_FAMILY): its parameters above are its defaults, and each family's value file
    says in its header how it plays."""
    from kiai.strategies import registry

    known = registry.names()
    names = sorted(n for n in set(df["strategy"].astype(str))
                   if n in known and registry.hook_of(n, "BY_FAMILY", False))
    if not names:
        return ""
    return (f"{' and '.join(names)}: the value of each table's family (team size and level) where kiai ships one, "
            "played as that file's header says over the parameters above, else learned's answers; `kiai simulate` "
            "names a table's value file and how it played.")


def listing(df: pd.DataFrame, column: str, limit: int = 5) -> str:
    if column not in df:
        return "not recorded"
    values = sorted(set(df[column].dropna().astype(str)))
    if not values:
        return "not recorded"
    if len(values) <= limit:
        return ", ".join(values)
    return f"{len(values)} distinct values, e.g. {', '.join(values[:limit])}"
