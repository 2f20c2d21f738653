"""The rule readings careful tables disagree on (docs/rules.md section 14, V-1..V-5), as options.

Each reading has a name, its values (the first is the rules' own, the default) and the decision it
departs from. A table's readings are a dict {name: value} holding every reading; the engine gets
them as flags (the index of the value played) in READINGS's order: simcore.kernel.load_readings
copies them into TABLE.heal_wounded, ..., second_fight_always.
"""

from __future__ import annotations

from dataclasses import dataclass


class ReadingError(ValueError):
    """An unknown reading or value; the message is one line, fit for the command line."""


@dataclass(frozen=True)
class Reading:
    name: str
    v: str  # its number in docs/rules.md section 14
    departs: str  # the decision of docs/rules.md it departs from
    values: tuple[str, str]  # the first is docs/rules.md's
    summary: str

    @property
    def default(self) -> str:
        return self.values[0]


READINGS = (
    Reading("heal", "V-1", "R-14", ("any", "wounded"),
            "family bonus A draws its samurai among all samurai, or among those holding a wound token"),
    Reading("penalty", "V-2", "section 3, step 2", ("every-turn", "once"),
            "the last card's battle penalty applies at every turn of its owner, or once per stay in the line"),
    Reading("round-end", "V-3", "R-9", ("empty", "drawn"),
            "the round ends when the raider stack empties however it empties, or only when its last card is drawn"),
    Reading("end-kiai", "V-4", "R-10", ("off", "on"),
            "turning animal during the end-of-round steps triggers no Kiai, or triggers it at once"),
    Reading("second-fight", "V-5", "R-7b", ("below-kiai", "always"),
            "Kikuchiyo's extra fight needs a total not above his Kiai, or is offered above it too"),
)
BY_NAME = {r.name: r for r in READINGS}
DEFAULTS = {r.name: r.default for r in READINGS}


def check_rules(rules: dict | None) -> dict[str, str]:
    """Every reading's value: the defaults, overridden by `rules` (checked)."""
    out = dict(DEFAULTS)
    for name, value in (rules or {}).items():
        reading = BY_NAME.get(name)
        if reading is None:
            raise ReadingError(f"unknown rule '{name}' (known: {', '.join(BY_NAME)}; see `kiai rules`)")
        if value not in reading.values:
            raise ReadingError(f"rule {name} must be {' or '.join(reading.values)}, got '{value}'")
        out[name] = value
    return out


def parse_rule_items(items: list[str] | None, option: str = "--rule") -> dict[str, list[str]]:
    """NAME=VALUE[,VALUE...] items into {name: [values]} (checked; a name given twice is an error)."""
    out: dict[str, list[str]] = {}
    for item in items or []:
        name, sep, raw = item.partition("=")
        name = name.strip().lower()
        values = [v.strip().lower() for v in raw.split(",")]
        if not sep or not name or not all(values):
            raise ReadingError(f"{option} expects NAME=VALUE (e.g. heal=wounded), got '{item}'")
        if name in out:
            raise ReadingError(f"{option} {name} is given twice; give it once")
        for v in values:
            check_rules({name: v})
        if len(set(values)) != len(values):
            raise ReadingError(f"{option} {name} lists a value twice: '{raw}'")
        out[name] = values
    return out


def changed(rules: dict) -> dict[str, str]:
    """The readings that differ from the rules' own."""
    return {k: v for k, v in rules.items() if DEFAULTS.get(k) != v}


def label(rules: dict) -> str:
    """'default', or the changed readings as 'heal=wounded,penalty=once' (a sweep's column)."""
    diff = changed(rules)
    return ",".join(f"{k}={v}" for k, v in diff.items()) or "default"


def flags(rules: dict) -> list[int]:
    """The engine's flags (index of the value played), in READINGS's order."""
    full = check_rules(rules)
    return [r.values.index(full[r.name]) for r in READINGS]
