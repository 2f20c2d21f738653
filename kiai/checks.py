"""Checking what kiai is asked to do, before any game is played.

The API (kiai.api) and the command line share these checks and their messages: every problem is
a KiaiError whose one-line message names the command's option, and `kiai` prints it as is. The
API takes Python values (lists, dicts, numbers) where the command takes text; text_of and the
*_items helpers write them as the command's text, so both go through the same parsing.
"""

from __future__ import annotations

import json
import math
import os
import re
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from numbers import Integral
from pathlib import Path

from kiai.errors import KiaiError
from kiai.reports.words import plural

DEFAULT_SAMURAI = "kyuzo,kikuchiyo,heihachi,daisuke"
# The most games one call plays per configuration: 100 million is about 15 minutes at the
# engine's full speed. (It is not a memory bound: games are summarised block by block as they
# are played, so memory does not grow with their number.)
MAX_GAMES = 100_000_000
MAX_PARAMS_FILE = 1_000_000  # bytes: a --params-file holds a few parameters
MAX_INDEX = 2**63 - 1  # game indices and seeds are 64-bit words in the engine (simcore.rng)


def fail(message: str):
    raise KiaiError(message)


def default_strategy() -> str:
    """kiai's default strategy (strategies.registry.DEFAULT), imported only when needed."""
    from kiai.strategies.registry import DEFAULT

    return DEFAULT


# --------------------------------------------------------------- Python values as command text


def _number_text(value) -> str:
    """A number as typed (a numpy scalar as the plain number it holds)."""
    if isinstance(value, float):
        return repr(float(value))
    return str(int(value)) if isinstance(value, Integral) and not isinstance(value, bool) else str(value)


def _plain(value):
    """A one-dimensional numpy array or pandas Series (or Index) as a list; anything else as is."""
    if getattr(value, "ndim", None) == 1 and hasattr(value, "tolist"):
        return value.tolist()
    if getattr(value, "ndim", None) == 0 and hasattr(value, "item"):  # a numpy scalar: the Python value
        return value.item()
    return value


def text_of(value, option: str, sep: str = ",") -> str | None:
    """A comma-separated option's text from a string (as is) or a list of names or numbers (not
    a set or a dict: their order is not the one written)."""
    value = _plain(value)
    if value is None or isinstance(value, str):
        return None if value is None else str(value)
    if isinstance(value, Integral) and not isinstance(value, bool):
        return str(int(value))
    items = [_plain(v) for v in value] if isinstance(value, (list, tuple)) else None
    if items is None or not all(isinstance(v, (str, Integral, float)) and not isinstance(v, bool) for v in items):
        fail(f"{option} expects a comma-separated text or a list of names or numbers, got {value!r}")
    return sep.join(_number_text(v) for v in items)


def items_of(value, option: str) -> list[str] | None:
    """The items of a repeatable NAME=VALUE option (--param, --rule) from a dict or a list.

    {name: value} gives 'name=value'; {name: [v1, v2]} 'name=v1,v2' (an axis of a sweep);
    {strategy: {name: value}} 'strategy.name=value' (compare's --strategies); a string is one
    item, a list of strings the items themselves."""
    if value is None:
        return None
    if isinstance(value, str):
        return [value]
    if isinstance(value, Mapping):
        out = []
        for name, v in value.items():
            v = _plain(v)
            if isinstance(v, Mapping):
                out += [f"{name}.{inner}={_number_text(_plain(x))}" for inner, x in v.items()]
            elif isinstance(v, (list, tuple)):
                out.append(f"{name}={','.join(_number_text(x) for x in v)}")
            else:
                out.append(f"{name}={_number_text(v)}")
        return out
    try:
        return [str(item) for item in _plain(value)]
    except TypeError:
        fail(f"{option} expects NAME=VALUE items or a dict, got {value!r}")


def listed(value) -> list:
    """An argument given once or as a list (a repeatable option's), as a list; None gives none."""
    return list(value) if isinstance(value, (list, tuple)) else [] if value is None else [value]


def one_item(value, option: str) -> str:
    """The one NAME=VALUES item of an option that takes one (compare's --rules), from a dict or a list."""
    items = items_of(value, option)
    if len(items) != 1:
        fail(f"{option} expects one NAME=V1,V2 item (e.g. heal=any,wounded), got {value!r}")
    return items[0]


def whole(value, option: str) -> int:
    if not isinstance(value, Integral) or isinstance(value, bool):
        fail(f"{option} must be a whole number, got {value!r}")
    return int(value)


def _text(value, option: str) -> str:
    if not isinstance(value, str):
        fail(f"{option} expects a name, got {value!r}")
    if not value.strip():
        fail(f"{option} is empty")
    return value


def check_path(value, option: str):
    """A file or folder named by the caller (None: not given): text or a path, not empty (a path
    '' would be the current folder)."""
    if value is None:
        return None
    if not isinstance(value, (str, os.PathLike)):
        fail(f"{option} expects a file name, got {value!r}")
    if not str(value).strip():
        fail(f"{option} is empty")
    return value


def check_input(value, option: str, most: int | None = None):
    """A file read by kiai (check_path), which must not be a special file (a FIFO would hang the
    reader, /dev/zero feed it without end), nor larger than `most` bytes. A missing one is left to
    the reader."""
    from kiai.simcore.filekinds import problem

    odd = problem(check_path(value, option), most) if value is not None else None
    if odd is not None:
        fail(f"{option} {value} {odd}")
    return value


def check_flag(value, option: str) -> bool:
    if not isinstance(value, bool):
        fail(f"{option} must be True or False, got {value!r}")
    return value


# ------------------------------------------------------------------- strategies and parameters


def _param_value(name: str, raw: str):
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
        value = _param_value(name, raw)
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
        _text(strategy, option)
    loaded = load_params_file(params_file) if params_file is not None else None
    if loaded is None:
        return strategy or default_strategy(), parse_params(params)
    if strategy is not None and strategy != loaded.strategy:
        fail(f"{option} {strategy} differs from the strategy of --params-file {loaded.path} ({loaded.strategy})")
    return loaded.strategy, {**loaded.params, **parse_params(params)}


# ------------------------------------------------------------------ samurai, rules, configurations


def parse_samurai(text, option: str = "--samurai") -> tuple[str, ...]:
    """Comma-separated names (or a list of them); an empty name (`a,,b`, a trailing comma) is an
    error, not skipped, and so is a name that is not a samurai (every unknown one named, as every
    command names them)."""
    from kiai.simcore.seatings import check_known

    text = text_of(text, option)
    if text is None:
        fail(f"{option} expects a comma-separated list of 2 to 7 names")
    names = tuple(s.strip() for s in text.split(","))
    if not any(names):
        fail(f"{option} expects a comma-separated list of 2 to 7 names")
    if not all(names):
        fail(f"{option} '{text}' has an empty name; give the names separated by single commas")
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


def strongest_for(samurai, level: str, components, overrides: dict) -> tuple[str, dict]:
    """`--strategy strongest`: kiai's strongest player of the table's family (its team size, at the
    official level a house level plays as) and its parameters, the user's over them."""
    from kiai.strategies.registry import strongest

    strategy, own = strongest(len(samurai), components.family_level(level) if components else level)
    return strategy, {**own, **overrides}


def make_config(samurai, difficulty: str, strategy: str | None, params: list[str] | None,
                absent_tokens: str, components, first_seat: int | None = None,
                params_file: str | Path | None = None, model: str | None = None, rules: list[str] | None = None,
                note: Callable[[str], None] | None = None, strict: bool = False):
    """Build a GameConfig from the command's text; every problem becomes a KiaiError (and
    check_model's notes go to `note`). `strict`: refuse a model made for other component data."""
    from kiai.simcore.components import ComponentsError
    from kiai.simcore.config import ConfigError
    from kiai.strategies.game_config import GameConfig
    from kiai.strategies.registry import STRONGEST_NAME

    strategy, overrides = resolve_strategy(strategy, params, params_file)
    readings = parse_rules(rules)
    comp = load_components(components)
    check_input(model, "--model")
    try:
        if strategy == STRONGEST_NAME:  # the family's strongest player, with the user's parameters over its own
            strategy, overrides = strongest_for(parse_samurai(samurai), _text(difficulty, "--difficulty").lower(),
                                                comp, overrides)
        config = GameConfig(
            samurai=parse_samurai(samurai), difficulty=_text(difficulty, "--difficulty").lower(),
            strategy=strategy, params=overrides, absent_tokens=_text(absent_tokens, "--absent-tokens").lower(),
            components=comp, first_seat=first_seat, model=model, rules=readings,
            strict=check_flag(strict, "--strict"),
        )  # fmt: skip
    except (ConfigError, ComponentsError) as e:
        fail(str(e))
    check_model(model, [config], note)
    return config


def check_model(model: str | None, configs, note: Callable[[str], None] | None = None) -> None:
    """--model is for configurations that play a model (selfplay, learned, or a planner over it).
    A value learned for one family of tables plays on any table, as asked, but `note` is told in
    one line where it plays on another family's tables (a file passed by mistake, most often),
    and in one line each (model_notes) where a house level plays an official level's models or a
    model plays other component data than it was made for."""
    if model is not None and not any(c.uses_model for c in configs):
        fail("--model: no strategy here plays a model (it is for selfplay, learned, or a lookahead over learned)")
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


# ------------------------------------------------------------------------------------- numbers


def check_seed(seed: int, option: str = "--seed") -> int:
    seed = whole(seed, option)
    if not 0 <= seed <= MAX_INDEX:
        fail(f"{option} must be in 0..2**63-1, got {seed}")
    return seed


def check_size(size: int) -> int:
    """--size: a team of 2 to 7 samurai (a family's)."""
    from kiai.simcore.codes import SAMURAI

    if not 2 <= size <= len(SAMURAI):
        fail(f"--size must be in [2, {len(SAMURAI)}], got {size}")
    return size


def check_games(games: int, option: str = "--games", most: int = MAX_GAMES) -> int:
    """A number of games per configuration: 1 to `most`."""
    games = whole(games, option)
    if not 1 <= games <= most:
        fail(f"{option} must be at least 1 and at most {most:,}, got {games:,}")
    return games


def check_game_index(index: int) -> int:
    """One game of a seed's sequence: 0 to 2**63-1, like the seed."""
    index = whole(index, "--game-index")
    if not 0 <= index <= MAX_INDEX:
        fail(f"--game-index must be in 0..2**63-1, got {index}")
    return index


def check_threads(threads: int | None, note: Callable[[str], None] | None = None) -> None:
    """Refuse fewer than one thread; say in one line (to `note`) when more are asked than the
    engine has."""
    if threads is None:
        return
    threads = whole(threads, "--threads")
    if threads < 1:
        fail(f"--threads must be at least 1, got {threads}")
    import numba

    most = numba.config.NUMBA_NUM_THREADS
    if threads > most and note is not None:
        note(f"note: --threads {threads}: this machine runs at most {plural(most, 'engine thread')}; using {most}")


# --------------------------------------------------------------------------------------- files


def check_output(path: Path, option: str = "--out", *, force: bool = False, suffixes: tuple[str, ...] = (),
                 exists_hint: str = "use --force to replace it") -> Path:
    """Check an output file before any game is played: the right suffix, not a folder, not an
    existing file unless --force, and in an existing folder we can create files in (kiai makes
    no folders for an output file: a missing one is more often a typo than a wish)."""
    path = Path(path)
    if suffixes and path.suffix.lower() not in suffixes:
        fail(f"{option} must end in {' or '.join(suffixes)}, got '{path}'")
    if path.is_dir():
        fail(f"{option} {path} is a folder; give a file name")
    if os.path.lexists(path) and not force:  # a dangling or looping link is there too
        fail(f"{option} {path} exists; {exists_hint}")
    _check_writable_folder(path.parent, option, path)
    return path


def check_output_folder(folder: Path, option: str = "--out") -> Path:
    """Check a folder of kiai's own output (`report --out`, `train`'s FOLDER) before any work:
    a folder, made if missing, but then in an existing folder, as for an output file."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        fail(f"{option} {folder} exists and is not a folder")
    _check_writable_folder(folder if folder.is_dir() else folder.parent, option, folder)
    return folder


def _check_writable_folder(folder: Path, option: str, path: Path) -> None:
    """`folder` (where `path` goes) exists, is a folder and takes new files. The check creates
    and removes a probe file, so it holds for root and for file systems (/proc) whose modes say
    nothing."""
    if not folder.exists():
        fail(f"{option} {path}: folder {folder} does not exist; create it first")
    if not folder.is_dir():
        fail(f"{option} {path}: {folder} is not a folder")
    try:
        fd, probe = tempfile.mkstemp(dir=folder, prefix=".kiai-probe-")
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        fail(f"{option} {path}: cannot write in {folder} ({e.strerror or e})")


def record_sources(records) -> list:
    """What `kiai replay` (kiai.replay) checks: record files, each an existing file, or records
    as dicts; one of them or a list."""
    sources = [records] if isinstance(records, (str, os.PathLike, dict)) else records
    if not isinstance(sources, (list, tuple)) or not all(isinstance(f, (str, os.PathLike, dict)) for f in sources):
        fail(f"replay expects record files (.jsonl, .jsonl.gz) or records (dicts), one or a list, got {records!r}")
    for f in sources:
        if isinstance(f, dict):
            continue
        if Path(check_path(f, "FILES")).is_dir():
            fail(f"{f} is a folder; give the record files")
        if not Path(f).exists():
            fail(f"{f}: no such file")
        check_input(f, "FILES")  # records may be large: no bound
    if not sources:
        fail("no records given")
    return list(sources)


# ----------------------------------------------------------------------------- a sweep's grid


def split(text: str, option: str, noun: str = "name") -> list[str]:
    """Comma-separated items, stripped; an empty one (`a,,b`, a trailing comma) is an error, not
    skipped, as in a line-up (parse_samurai). Text of nothing but commas gives no items: the
    caller says what it expects."""
    items = [t.strip() for t in text.split(",")]
    if any(items) and not all(items):
        fail(f"{option} '{text}' has an empty {noun}; give the {noun}s separated by single commas")
    return [t for t in items if t]


def once(items: list, option: str) -> list:
    """The items of a list option, each given once: a value given twice is refused (kiai plays
    nothing twice, nor merges what was typed twice), named in one line."""
    seen = set()
    for item in items:
        if item in seen:
            fail(f"{option} lists {_number_text(item)!s} twice; give each value once")
        seen.add(item)
    return list(items)


def parse_levels(text: str | None, comp) -> list[str]:
    """--difficulty of a sweep or a tuning: levels, comma-separated, or 'all' (default: normal)."""
    from kiai.simcore.codes import LEVELS

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


def parse_lineup_mode(text: str | None) -> tuple[str, int | None]:
    """--lineups: 'all' (the default) or 'sample:K'."""
    if text is None or text.strip().lower() == "all":
        return "all", None
    mode, sep, k = text.strip().lower().partition(":")
    if mode == "sample" and sep:
        try:
            k = int(k)
        except ValueError:
            k = 0
        if k >= 1:
            return "sample", k
    fail(f"--lineups expects 'all' or 'sample:K' with K at least 1, got '{text}'")


def sample_notes(counts: list[int], k: int) -> list[str]:
    """What `--lineups sample:K` says when a team size has K line-ups or fewer: it plays them all."""
    notes = []
    for n in counts:
        c = math.comb(7, n)
        if k >= c:
            notes.append(f"note: --lineups sample:{k}: there {'is' if c == 1 else 'are'} only "
                         f"{plural(c, 'line-up')} of {n} samurai; playing {'it' if c == 1 else 'all of them'}")  # fmt: skip
    return notes


def parse_given_lineups(values: list[str]) -> list[tuple[str, ...]]:
    """--lineup (repeatable): line-ups played in the seat order given."""
    from kiai.simcore.seatings import as_names

    out = []
    for text in values:
        names = parse_samurai(text, "--lineup")
        try:
            out.append(as_names(names))
        except ValueError as e:
            fail(f"--lineup {text}: {e}")
    return out


def parse_param_grid(values: list[str] | None) -> dict[str, list[float]]:
    """--param NAME=VALUE[,VALUE...] (repeatable): each parameter's values."""
    grid: dict[str, list[float]] = {}
    for item in values or []:
        name, sep, raw = item.partition("=")
        name = name.strip()
        if not sep or not name or not raw.strip():
            fail(f"--param expects NAME=VALUE (or NAME=V1,V2,...), got '{item}'")
        vals = [_param_value(name, r) for r in split(raw, f"--param {name}", "value")]
        if name in grid:
            fail(f"--param {name} is given twice; list its values as {name}=V1,V2")
        grid[name] = once(vals, f"--param {name}")
    return grid


# ---------------------------------------------------------------------------- a comparison's arms


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


def _strategy_items(text: str) -> list[str]:
    """--strategies' items: commas inside a strategy's brackets (judge[samples=8,race=0]) part none."""
    import re

    items = [t.strip() for t in re.split(r",(?![^\[]*\])", text)]
    if any(items) and not all(items):
        fail(f"--strategies '{text}' has an empty name; give the strategies separated by single commas")
    return [t for t in items if t]


def parse_strategy_params(strategies: str, param: list[str] | None,
                          params_files: list[str] | None) -> list[tuple[str, str, dict]]:
    """(label, name, overrides) for each strategy of --strategies: NAME, or NAME[P=V,...] with
    parameters of its own, so that one strategy may be compared with itself (judge[samples=8],judge);
    more from --params-file and STRATEGY.NAME=VALUE where the strategy is listed once."""
    import re

    from kiai.strategies import registry
    from kiai.strategies.base import said

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
    twice = sorted({x for x in labels if labels.count(x) > 1})
    if twice:
        fail(f"--strategies lists '{twice[0]}' twice; each plays once (the games are the same): "
             f"give one of them other parameters in brackets, e.g. {twice[0].split('[')[0]}[samples=8]")
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
    return arms
