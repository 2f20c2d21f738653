"""The strategies a command plays and their parameters, checked: --strategy, --param,
--params-file, compare's --strategies with their own parameters, the strongest player of a table,
and the model files the players read (--model)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from kiai.inputs.checks import check_input, fail, name_text
from kiai.words import said


MAX_PARAMS_FILE = 1_000_000  # bytes: a --params-file holds a few parameters


def param_value(name: str, raw: str):
    """A --param value: a number, or words for a parameter that takes names ('action+cards'; the
    strategy checks them)."""
    try:
        value = float(raw)
    except ValueError:
        if not NAMES_VALUE.fullmatch(raw.strip()):
            fail(f"--param {name}: '{raw}' is not a number")
        return raw.strip()
    return int(value) if value.is_integer() else value


NAMES_VALUE = re.compile(r"[a-z][a-z-]*(\+[a-z][a-z-]*)*")  # names joined by '+': a set-of-names parameter


def parse_params(values: list[str] | None) -> dict[str, float]:
    """--param NAME=VALUE (repeatable) into a dict of numbers (or words, for a parameter that
    takes names); a name given twice is an error."""
    params: dict[str, float] = {}
    for item in values or []:
        name, sep, raw = item.partition("=")
        name = name.strip()
        if not sep or not name or not raw.strip():
            fail(f"--param expects NAME=VALUE, got '{item}'")
        value = param_value(name, raw)
        if name in params:
            fail(f"--param {name} is given twice ({params[name]} and {value}); give it once")
        params[name] = value
    return params


@dataclass(frozen=True)
class ParamsFile:
    """A strategy and its parameters, as read from a --params-file (the JSON `kiai tune` writes)."""

    path: str
    strategy: str
    params: dict = field(default_factory=dict)
    info: dict = field(default_factory=dict)  # the whole file, provenance included


def load_params_file(path: str | Path) -> ParamsFile:
    """Read and check a --params-file: {"strategy": NAME, "params": {NAME: VALUE, ...}, ...}.

    Every problem (no file, bad JSON, unknown strategy, unknown or out-of-range parameter) is
    a one-line KiaiError that names the file."""
    from kiai.strategies import registry

    where = f"--params-file {check_input(path, '--params-file', MAX_PARAMS_FILE)}"
    if Path(path).is_dir():
        fail(f"{where} is a folder; give the file")
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        fail(f"{where}: no such file")
    except (OSError, UnicodeDecodeError) as e:
        fail(f"{where}: cannot read it ({getattr(e, 'strerror', None) or e})")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        fail(f"{where}: not valid JSON ({e.msg} at line {e.lineno}, column {e.colno})")
    if not isinstance(data, dict):
        fail(f"{where}: expected a JSON object with 'strategy' and 'params'")
    name, params = data.get("strategy"), data.get("params", {})
    if not isinstance(name, str) or not name:
        fail(f"{where}: 'strategy' must be a strategy name")
    if not isinstance(params, dict):
        fail(f"{where}: 'params' must be an object of NAME: number")
    try:
        info = registry.get(name)
        info.param_vector(params)
    except KeyError as e:
        fail(f"{where}: {e.args[0]}")
    except ValueError as e:
        fail(f"{where}: {e}")
    return ParamsFile(str(path), name, dict(params), data)


def resolve_strategy(strategy: str | None, params: list[str] | None, params_file: str | Path | None,
                     option: str = "--strategy") -> tuple[str, dict]:
    """The strategy and parameter overrides of a command with --strategy, --param and --params-file.

    The file's strategy is used when --strategy is not given (the default otherwise); a
    --strategy naming another strategy is an error; --param values override the file's."""
    if strategy is not None:
        name_text(strategy, option)
    loaded = load_params_file(params_file) if params_file is not None else None
    if loaded is None:
        from kiai.strategies.registry import DEFAULT  # imported only when needed

        return strategy or DEFAULT, parse_params(params)
    if strategy is not None and strategy != loaded.strategy:
        fail(f"{option} {strategy} differs from the strategy of --params-file {loaded.path} ({loaded.strategy})")
    return loaded.strategy, {**loaded.params, **parse_params(params)}


def strongest_for(samurai, level: str, components, overrides: dict) -> tuple[str, dict]:
    """`--strategy strongest`: kiai's strongest player of the table's family (its team size, at the
    official level a house level plays as) and its parameters, the user's over them."""
    from kiai.strategies.registry import strongest

    strategy, own = strongest(len(samurai), components.family_level(level) if components else level)
    return strategy, {**own, **overrides}


def check_model(model: str | None, configs, note: Callable[[str], None] | None = None) -> None:
    """--model is for configurations that play a model (selfplay, learned, or a planner over it).
    A value learned for one family of tables plays on any table, as asked, but `note` is told in
    one line where it plays on another family's tables (a file passed by mistake, most often),
    and in one line each (model_notes) where a house level plays an official level's models or a
    model plays other component data than it was made for."""
    if model is not None and not any(c.uses_model for c in configs):
        fail("--model: no strategy here plays a model (it is for selfplay, learned, judge, or a lookahead over learned)")
    if note is not None:
        for line in model_notes(configs):
            note(line)
    if model is None or note is None:
        return
    tables = {f"{c.n}@{c.difficulty}": c for c in configs if c.uses_model}  # one configuration per family
    made = {table: c.describe()["model"].get("family") for table, c in tables.items()}
    family = next((f for f in made.values() if f is not None), None)
    others = [table for table, f in made.items() if f is not None and f != table]
    if others:
        note(f"note: --model {model} is the value of the family {family}; it plays here on "
             f"{'a table' if len(others) == 1 else 'tables'} of {', '.join(others)}")


def model_notes(configs) -> list[str]:
    """One line for each house level whose models are an official level's (its `like`, or the
    nearest by its settings), and one for each component file whose data a model was not made for
    (it plays, and its results are marked; --strict refuses it)."""
    out = []
    for c in {(c.difficulty, c.components.sha256): c for c in configs if c.uses_model}.values():
        level = c.components.level(c.difficulty)
        if not level.official:
            how = f'its table says like = "{level.like}"' if level.like else "the nearest by its settings"
            out.append(f"note: house level {c.difficulty} is played with the models of {c.family_level} ({how})")
    for c in {c.components.sha256: c for c in configs if c.uses_model}.values():
        if c.other_components(c.load_model()):
            out.append(f"warning: {c.components.path} holds other cards or Kiai values than the model was trained on; "
                       f"it plays, and the results say 'model trained on other components' (--strict refuses it)")
    return out


def _strategy_items(text: str) -> list[str]:
    """--strategies' items: commas inside a strategy's brackets (judge[samples=8,race=0]) part none."""
    items = [t.strip() for t in re.split(r",(?![^\[]*\])", text)]
    if any(items) and not all(items):
        fail(f"--strategies '{text}' has an empty name; give the strategies separated by single commas")
    return [t for t in items if t]


def _check_distinct(arms: list[tuple[str, str, dict]]) -> None:
    """Two arms of --strategies that play alike (the same label, or brackets that set the same
    parameters, defaults included) would play the same games twice: refused, with a bracket the
    strategy does take as the example."""
    from kiai.strategies import registry

    seen: dict = {}
    for label, name, own in arms:
        try:  # the parameters as played; a bad value is refused later, with its own message
            key = (name, tuple(registry.get(name).param_dict(own).items()))
        except ValueError:
            key = (name, label)
        if key in seen:
            what = f"'{label}' twice" if seen[key] == label else f"'{seen[key]}' and '{label}', which play alike"
            example = bracket_example(name, own)
            fail(f"--strategies lists {what}; each plays once (the games are the same): "
                 + (f"give one of them other parameters in brackets, e.g. {example}" if example
                    else f"{name} takes no parameters to tell two apart, so list it once"))
        seen[key] = label


def bracket_example(name: str, own: dict) -> str | None:
    """NAME[P=V]: a parameter strategy `name` takes (one a user tunes, where it has one) at a value
    in its range other than its default and than `own`'s; None for a strategy without parameters."""
    from kiai.strategies import registry

    params = [p for p in registry.get(name).params if p.low < p.high and not p.choices]
    for p in sorted(params, key=lambda p: p.expert):
        taken = {p.default, own.get(p.name, p.default)}
        for v in (p.default / 2, (p.low + p.high) / 2, p.low, p.high):
            v = round(v) if p.integer else v
            if p.low <= v <= p.high and v not in taken:
                return f"{name}[{p.name}={said(v)}]"
    return None


def parse_strategy_params(strategies: str, param: list[str] | None,
                          params_files: list[str] | None) -> list[tuple[str, str, dict]]:
    """(label, name, overrides) for each strategy of --strategies: NAME, or NAME[P=V,...] with
    parameters of its own, so that one strategy may be compared with itself (judge[samples=8],judge);
    more from --params-file and STRATEGY.NAME=VALUE where the strategy is listed once."""
    from kiai.strategies import registry

    items = _strategy_items(strategies)
    if len(items) < 2:
        fail(f"--strategies needs at least 2 strategies, comma-separated, got '{strategies}'")
    arms = []
    for item in items:
        m = re.fullmatch(r"([^\[\]]+?)\s*(?:\[(.*)\])?", item)
        if m is None:
            fail(f"--strategies: '{item}' is not NAME or NAME[PARAM=VALUE,...]")
        name, inside = m.group(1).strip(), m.group(2)
        try:
            registry.get(name)
        except KeyError as e:
            fail(e.args[0])
        own = parse_params(inside.split(",") if inside else None)
        if inside is not None and not own:
            fail(f"--strategies: '{item}' gives no parameters in its brackets (NAME[PARAM=VALUE,...])")
        label = name + ("[" + ",".join(f"{k}={said(v)}" for k, v in own.items()) + "]" if own else "")
        arms.append((label, name, own))
    labels = [a[0] for a in arms]
    names = [a[1] for a in arms]
    repeated = {n for n in names if names.count(n) > 1}

    def only(name: str, what: str) -> int:
        if name in repeated:
            fail(f"{what}: '{name}' is listed more than once in --strategies; give each its parameters "
                 f"in brackets ({name}[PARAM=VALUE,...])")
        return names.index(name)

    from_file: dict[str, str] = {}
    for path in params_files or []:
        loaded = load_params_file(path)
        if loaded.strategy not in names:
            fail(f"--params-file {path} is for strategy {loaded.strategy}, "
                 f"which --strategies {','.join(labels)} does not list")
        i = only(loaded.strategy, f"--params-file {path}")
        if loaded.strategy in from_file:
            fail(f"--params-file {from_file[loaded.strategy]} and {path} are both for strategy {loaded.strategy}")
        from_file[loaded.strategy] = path
        arms[i] = (arms[i][0], arms[i][1], {**loaded.params, **arms[i][2]})
    for key, value in parse_params(param).items():
        name, dot, pname = key.partition(".")
        if not dot or not pname:
            fail(f"--param with --strategies expects STRATEGY.NAME=VALUE (e.g. {names[0]}.T=3), got '{key}={value}'")
        if name not in names:
            fail(f"--param {key}: '{name}' is not one of --strategies ({', '.join(labels)})")
        i = only(name, f"--param {key}")
        arms[i][2][pname] = value
    _check_distinct(arms)  # last: a strategy listed twice is first told that --param cannot pick one of them
    return arms
