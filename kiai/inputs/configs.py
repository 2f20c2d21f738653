"""Building a table's configuration from the command's text: the seats (--samurai), levels,
team sizes, rule readings, component files, and the GameConfig itself (make_config)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from kiai.inputs.checks import check_flag, check_input, check_path, fail, listed, name_text, once, split, text_of
from kiai.inputs.players import check_model, resolve_strategy, strongest_for


DEFAULT_SAMURAI = "kyuzo,kikuchiyo,heihachi,daisuke"


def parse_samurai(text, option: str = "--samurai") -> tuple[str, ...]:
    """Comma-separated names (or a list of them); an empty name (`a,,b`, a trailing comma) is an
    error, not skipped, and so is a name that is not a samurai (every unknown one named, as every
    command names them)."""
    from kiai.simcore.seatings import check_known

    text = text_of(text, option)
    names = tuple(split(text, option)) if text is not None else ()
    if not names:
        fail(f"{option} expects a comma-separated list of 2 to 7 names")
    try:
        check_known(names)
    except ValueError as e:
        fail(str(e))
    return names


def parse_rules(items: list[str] | None, option: str = "--rule", axis: bool = False) -> dict:
    """--rule NAME=VALUE (repeatable) into {name: value}; with `axis` (a sweep, a comparison) a
    name may list several values, {name: [values]}. Every problem is a KiaiError."""
    from kiai.simcore.readings import ReadingError, parse_rule_items

    try:
        parsed = parse_rule_items(items, option)
    except ReadingError as e:
        fail(str(e))
    if axis:
        return parsed
    several = next((k for k, v in parsed.items() if len(v) > 1), None)
    if several:
        fail(f"{option} {several}: give one value here (a sweep takes several)")
    return {k: v[0] for k, v in parsed.items()}


def load_components(path):
    """The component data of --components (None: the packaged file), or a KiaiError."""
    from kiai.simcore.components import ComponentsError, Components, load_components as load

    if isinstance(path, Components):
        return path
    try:
        return load(check_path(path, "--components"))
    except ComponentsError as e:
        fail(str(e))


def component_files(value) -> list[tuple[str, object, str | None]] | None:
    """compare's --components when it lists 2 or more files, comma-separated ('default' names
    kiai's packaged file; FILE@LEVEL plays that file's LEVEL, a house level, instead of
    --difficulty), or a list of files or Components: [(label, Components, level or None)], each
    label the file as given. None when it names one file or none (the file every arm plays)."""
    from kiai.simcore.components import Components

    if value is None or isinstance(value, (Components, os.PathLike)) or (isinstance(value, str) and "," not in value):
        return None
    items = split(value, "--components", "file") if isinstance(value, str) else list(listed(value))
    if len(items) < 2:
        fail(f"--components expects one file, or 2 or more to compare (comma-separated), got {value!r}")
    out = []
    for item in items:
        if isinstance(item, Components):
            out.append((Path(item.path).name, item, None))
            continue
        path, at, level = str(check_path(item, "--components")).rpartition("@")
        if not at or Path(str(item)).exists():  # a file whose name holds '@' is that file
            path, level = str(item), None
        comp = load_components(None if path == "default" else path)
        if level is not None and level.lower() not in comp.levels:
            fail(f"--components {item}: {path} has no level {level!r} (known: {', '.join(comp.levels)})")
        out.append((str(item), comp, level.lower() if level is not None else None))
    return out


def make_config(samurai, difficulty: str, strategy: str | None, params: list[str] | None,
                absent_tokens: str, components, first_seat: int | None = None,
                params_file: str | Path | None = None, model: str | None = None, rules: list[str] | None = None,
                note: Callable[[str], None] | None = None, strict: bool = False):
    """Build a GameConfig from the command's text; every problem becomes a KiaiError (and
    check_model's notes go to `note`). `strict`: refuse a model made for other component data."""
    from kiai.simcore.components import ComponentsError
    from kiai.simcore.config import ConfigError
    from kiai.strategies.run.config import GameConfig
    from kiai.strategies.registry import STRONGEST_NAME

    strategy, overrides = resolve_strategy(strategy, params, params_file)
    readings = parse_rules(rules)
    comp = load_components(components)
    check_input(model, "--model")
    try:
        if strategy == STRONGEST_NAME:  # the family's strongest player, with the user's parameters over its own
            strategy, overrides = strongest_for(parse_samurai(samurai), name_text(difficulty, "--difficulty").lower(),
                                                comp, overrides)
        config = GameConfig(
            samurai=parse_samurai(samurai), difficulty=name_text(difficulty, "--difficulty").lower(),
            strategy=strategy, params=overrides, absent_tokens=name_text(absent_tokens, "--absent-tokens").lower(),
            components=comp, first_seat=first_seat, model=model, rules=readings,
            strict=check_flag(strict, "--strict"),
        )  # fmt: skip
    except (ConfigError, ComponentsError) as e:
        fail(str(e))
    check_model(model, [config], note)
    return config


def parse_levels(text, comp) -> list[str]:
    """--difficulty of a sweep, a tuning or a training: levels, comma-separated, or 'all' (default:
    normal); a list of such texts (tune's repeatable --difficulty) gives their levels in turn, each
    once. The one reader of a level list's text."""
    from kiai.simcore.codes import LEVELS

    if text is not None and not isinstance(text, str):
        return once([lv for item in text for lv in parse_levels(item, comp)], "--difficulty")
    if text is None:
        return ["normal"]
    if text.strip().lower() == "all":
        return [lv for lv in LEVELS if lv in comp.levels] + [lv for lv in comp.levels if lv not in LEVELS]
    levels = [t.lower() for t in split(text, "--difficulty")]
    if not levels:
        fail("--difficulty expects levels, comma-separated, or 'all'")
    for lv in levels:
        if lv not in comp.levels:
            fail(f"unknown difficulty '{lv}' (known: {', '.join(comp.levels)})")
    return once(levels, "--difficulty")


def parse_counts(text: str | None) -> list[int]:
    """--players: numbers of samurai, comma-separated (default: 4)."""
    if text is None:
        return [4]
    counts = []
    for t in split(text, "--players", "number"):
        try:
            n = int(t)
        except ValueError:
            fail(f"--players expects numbers of samurai, comma-separated, got '{t}'")
        if not 2 <= n <= 7:
            fail(f"--players: a game needs 2 to 7 samurai, got {n}")
        counts.append(n)
    if not counts:
        fail("--players expects numbers of samurai, comma-separated")
    return once(counts, "--players")


def parse_rule_axis(rules: str, fixed: dict) -> tuple[str, list[str]]:
    """--rules NAME=V1,V2[,...]: one reading and its values (2 or more, each once), not also fixed by --rule."""
    name, sep, raw = rules.partition("=")
    if not sep or not name.strip() or not raw.strip():
        fail(f"--rules expects NAME=V1,V2 (e.g. heal=any,wounded), got '{rules}'")
    parsed = parse_rules([rules], option="--rules", axis=True)
    (name, values), = parsed.items()  # one NAME=... item gives one reading
    if len(values) < 2:
        fail(f"--rules needs at least 2 values of one reading, comma-separated (e.g. {name}=V1,V2), got '{rules}'")
    if name in fixed:
        fail(f"--rule {name} and --rules {name} exclude each other: --rules compares the values of {name}")
    return name, values
