"""The report's last section, "How these results were made": strategies, games, seeds, rule
readings, files and versions, and the statistics used."""

from __future__ import annotations

import pandas as pd

from kiai.reports import advice, charts
from kiai.reports.scope import spread
from kiai.reports.words import plural

def rules_note(df: pd.DataFrame, shown: str) -> str:
    """The methods' line on the rule readings (docs/rules.md section 14) the table played."""
    others = sorted(set(advice.rules_of(df)) - {shown})
    text = f"Rule readings (docs/rules.md section 14, `kiai rules`): {shown}"
    if others:
        text += (f" in the charts and tables; the results also hold {'; '.join(others)} "
                 f"({plural(int((advice.rules_of(df) != shown).sum()), 'configuration')}, not shown)")
    return text + "."


def methods_blocks(df: pd.DataFrame, notes: dict, rules_note: str | None = None) -> list[tuple]:
    labels = charts.strategy_labels(df)
    strategies = []
    for label, sub in df.groupby(labels, sort=True):
        params = sorted(set(sub["params"].astype(str))) if "params" in sub else []
        strategies.append(f"{label}" + (f" (params: {'; '.join(params)})" if params else ""))
    items = [
        "Strategies: " + (", ".join(strategies) or "none") + ".",
        *([models] if (models := models_note(df)) else []),
        f"Games per configuration: {spread(df['games'])}; {plural(len(df), 'configuration')}.",
        f"Seeds: {listing(df, 'seed')}.",
        *([rules_note] if rules_note else []),
        f"Components file SHA-256: {listing(df, 'components_sha256')}.",
        f"kiai version: {listing(df, 'kiai_version')}.",
    ]
    if "stalled_games" in df and df["stalled_games"].sum() > 0:
        items.append(f"Stalled games (stopped at the engine's turn cap): {int(df['stalled_games'].sum()):,}.")
    items += [f"{key}: {value}" for key, value in notes.items()]
    statement = (
        "Win rates are shares of games won. Intervals are 95% intervals: Wilson score "
        "intervals, or Clopper-Pearson where the wins are within 5 of none or of all games; "
        "rates pooled over several configurations sum their wins and games first. A samurai's "
        "effect uses Newcombe's interval for a difference of two independent proportions. "
        "Seating comparisons are Holm-adjusted where shown."
    )
    blocks = [("h2", "How these results were made"), ("ul", items), ("p", statement)]
    if "honest" in df and not charts.as_bool(df["honest"]).all():
        blocks.append(("p", "Strategies marked (cheating) see hidden information; they show what "
                            "perfect knowledge could reach and are not a fair difficulty measure."))
    return blocks


def models_note(df: pd.DataFrame) -> str:
    """The methods' line on the strategies that play a model per family of tables (selfplay,
    strategies BY_FAMILY): its parameters above are its defaults, and each family's value file
    says in its header how it plays."""
    from kiai.strategies import registry

    known = registry.names()
    names = sorted(n for n in set(df["strategy"].astype(str))
                   if n in known and getattr(registry.module(n), "BY_FAMILY", False))
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
