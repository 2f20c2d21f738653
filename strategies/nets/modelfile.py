"""Model files: a network's weight arrays and a JSON header, in one compressed .npz file.

One format for the three kinds of network kiai plays (Kind): `learned`'s two scoring networks
(strategies.nets.features), the value of the table at a turn's start that `judge` plays by
(strategies.nets.table_value), and the value of an answer's afterstate that `selfplay` plays by
(strategies.nets.afterstate). The header says what the file is (format, kind, feature_schema: the
layout of the inputs it reads) and how it was made (components_sha256: the component file's bytes;
components_data_sha256: the component data its inputs read, simcore.components.read_data;
kiai_version, date, the training's own record). save() writes atomically (a temporary file, then a
rename), as float32 without subnormal numbers; load() checks a file and refuses, with one line
(ModelError), one that is not a kiai model, one of another kind or input layout, one whose arrays do
not fit, and component data its inputs cannot hold. A model plays wherever it can read the game:
other cards or Kiai values than it was made for (other_components) are the caller's to mark, or to
refuse (--strict). Files written before this format (value files with the header as bytes, format
"kiai-value") are read too.
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from kiai.outputs import atomic_write
from kiai.states import StateError, check
from kiai.strategies.nets import afterstate, features, table_value
from kiai.strategies.nets.dense import MAX_HIDDEN

FORMAT = "kiai-model"
LEGACY_VALUE_FORMAT = "kiai-value"  # value files of earlier versions: read, never written
DATA = Path(__file__).resolve().parent.parent / "data"  # the shipped files (package data)

# learned's networks: two heads of (features -> hidden -> hidden -> slots), averaged over 1 or 2 members
HEADS = {"action": features.N_ACTION, "card": features.N_CARD}
MAX_MEMBERS = 2  # a second network, computed beside the first, adds about a fifth to their time
# a value network: inputs -> h1 (ReLU) -> h2 (ReLU) -> logit
VALUE_SHAPES = {"w1": ("h1", "inputs"), "b1": ("h1",), "w2": ("h2", "h1"), "b2": ("h2",), "w3": (1, "h2"), "b3": (1,)}


class ModelError(ValueError):
    """A model file that cannot be played; the message is one line."""


@dataclass(frozen=True)
class Kind:
    """What a model file holds: who plays it, the layout of its inputs, its shipped file's name,
    the command that trains it, and the check of its arrays (which raises ModelError)."""

    name: str  # as the header's "kind" says it
    what: str  # in messages: "judge's value", "a model of learned"
    noun: str  # how messages name a file of it: "model", "value file"
    file: str  # what such a file is: "model file", "value file"
    schema: object
    inputs: int
    shipped: str
    train: str
    check: Callable[[str, dict, dict], None]
    max_h1: int = 0  # a value's widest layers (its player's record holds no wider)
    max_h2: int = 0


def shapes(hidden: int) -> dict[str, tuple[int, ...]]:
    """One member of learned's networks: its arrays, by name, and their shapes."""
    out = {}
    for head, slots in HEADS.items():
        out |= {f"{head}_w1": (hidden, features.N_FEATURES), f"{head}_b1": (hidden,), f"{head}_w2": (hidden, hidden),
                f"{head}_b2": (hidden,), f"{head}_w3": (slots, hidden), f"{head}_b3": (slots,)}
    return out


NAMES = tuple(shapes(1))  # one member's arrays


def member_prefix(j: int) -> str:
    """The array names' prefix of member j: none for the first (a one-member file is the plain
    layout), "m1_" for the second."""
    return f"m{j}_" if j else ""


def _check_learned(where: str, header: dict, arrays: dict) -> None:
    arch = header.get("architecture") if isinstance(header.get("architecture"), dict) else {}
    hidden, inputs, members = arch.get("hidden"), arch.get("inputs"), arch.get("members", 1)
    if not (isinstance(hidden, int) and 1 <= hidden <= MAX_HIDDEN and inputs == features.N_FEATURES
            and isinstance(members, int) and 1 <= members <= MAX_MEMBERS):
        raise ModelError(f"{where}: architecture {arch} does not fit (hidden 1..{MAX_HIDDEN}, {features.N_FEATURES} "
                         f"inputs, 1..{MAX_MEMBERS} members)")
    for j in range(members):
        for name, shape in shapes(hidden).items():
            a = arrays.get(member_prefix(j) + name)
            if a is None or a.shape != shape or a.dtype.kind not in "fiu" or not np.all(np.isfinite(a)):
                raise ModelError(f"{where}: array {member_prefix(j) + name} is missing, misshapen or not finite")


def _value_check(inputs: int, max_h1: int, max_h2: int):
    def check(where: str, header: dict, arrays: dict) -> None:
        if not all(isinstance(header.get(k, {}), dict) for k in ("settings", "play")):
            raise ModelError(f"{where}: its header is damaged (settings, play)")
        if set(arrays) != set(VALUE_SHAPES):
            raise ModelError(f"{where}: arrays {sorted(arrays)}, expected {sorted(VALUE_SHAPES)}")
        h1, h2 = (arrays[k].shape[0] if arrays[k].ndim else 0 for k in ("b1", "b2"))
        if not (1 <= h1 <= max_h1 and 1 <= h2 <= max_h2):
            raise ModelError(f"{where}: layers of {h1} and {h2} units (at most {max_h1} and {max_h2})")
        dims = {"h1": h1, "h2": h2, "inputs": inputs}
        for name, shape in VALUE_SHAPES.items():
            want = tuple(dims.get(d, d) for d in shape)
            a = arrays[name]
            if a.shape != want or a.dtype.kind not in "fiu" or not np.all(np.isfinite(a)):
                raise ModelError(f"{where}: array {name} is not {want} finite numbers")

    return check


LEARNED = Kind("learned", "a model of learned", "model", "model file", features.SCHEMA, features.N_FEATURES,
               "learned.npz", "kiai train learned", _check_learned)
TABLE = Kind("table-value", "judge's value", "value file", "value file", table_value.SCHEMA,
             table_value.N_VALUE_FEATURES, "value.npz", "kiai train value",
             _value_check(table_value.N_VALUE_FEATURES, table_value.MAX_H1, table_value.MAX_H2),
             table_value.MAX_H1, table_value.MAX_H2)
AFTER = Kind("afterstate-value", "selfplay's value", "value file", "value file", afterstate.SCHEMA, afterstate.N_AFTER,
             "selfplay.npz", "kiai train value",
             _value_check(afterstate.N_AFTER, afterstate.H1, afterstate.H2), afterstate.H1, afterstate.H2)
KINDS = (LEARNED, TABLE, AFTER)

# The header's fields this kiai reads, of the types it writes them (save(), training/): a header
# edited by hand is refused in one line naming the field (check_header), never a TypeError where
# one is read. Other fields are kept as they are.
_TEXT = {"type": "string"}
_WHOLE = {"type": "integer"}
_MADE = {"type": "object", "properties": {  # how a value was made, and the value it started from
    "settings": {"type": "object", "properties": {"family": _TEXT, "table": _TEXT, "base": _TEXT, "hold_out": _WHOLE,
                                                  "seed": _WHOLE, "questions": _WHOLE}},
    "started_from": {"$ref": "#/$defs/made"}}}
HEADER = {"type": "object", "$defs": {"made": _MADE}, "allOf": [{"$ref": "#/$defs/made"}], "properties": {
    "format": _TEXT, "kind": _TEXT, "feature_schema": {"type": ["string", "integer"]},
    "architecture": {"type": "object", "properties": {k: _WHOLE for k in ("hidden", "inputs", "members", "h1", "h2")}},
    "play": {"type": "object"}, "positions": _WHOLE, "date": _TEXT, "kiai_version": _TEXT,
    "components_sha256": _TEXT, "components_data_sha256": _TEXT, "play_added_to": _TEXT, "converted_from": _TEXT,
    "replaces": {"type": "array", "items": _TEXT}, "member_sha256": {"type": "array", "items": _TEXT},
    "training": {"type": "object"}}}
# learned's files were of this format before it named kinds; a file of any other kind names its own
NAMED_HEADER = {**HEADER, "if": {"properties": {"format": {"const": FORMAT}}}, "then": {"required": ["kind"]}}


@dataclass(frozen=True)
class ModelFile:
    """A checked model file: its path, the SHA-256 of its bytes, its header and its arrays
    (read-only: shared by every load of the same bytes)."""

    path: str
    sha256: str
    header: dict
    arrays: dict
    kind: Kind

    @property
    def hidden(self) -> int:
        """learned's: units in each hidden layer."""
        return int(self.header["architecture"]["hidden"])

    @property
    def members(self) -> int:
        """learned's: how many pairs of networks the model averages (architecture "members", default 1)."""
        return int(self.header["architecture"].get("members", 1))

    def member(self, j: int) -> dict:
        """learned's member j's arrays under the single-network names ({head}_w1, ...)."""
        return {name: self.arrays[member_prefix(j) + name] for name in NAMES}

    def pack(self, rec, prefix: str = "v") -> None:
        """A value's weights into a player's record (fields named prefix + h1, w1, ...: judge's
        "v", selfplay's none), transposed (inputs x outputs), zero-padded."""
        a = self.arrays
        h1, h2 = a["w1"].shape[0], a["w2"].shape[0]
        rec[prefix + "h1"], rec[prefix + "h2"] = h1, h2
        rec[prefix + "w1"][:, :h1] = a["w1"].T
        rec[prefix + "b1"][:h1] = a["b1"]
        rec[prefix + "w2"][:h1, :h2] = a["w2"].T
        rec[prefix + "b2"][:h2] = a["b2"]
        rec[prefix + "w3"][:h2] = a["w3"][0]
        rec[prefix + "b3"][0] = a["b3"][0]


def shipped_path(kind: Kind) -> Path:
    """The file of `kind` shipped with kiai."""
    return DATA / kind.shipped


def family_file(size, level, folder=None) -> Path:
    """Where selfplay's value of the family of `size` samurai at `level` lies among the shipped
    values (folder: strategies/data)."""
    return Path(folder or DATA) / f"selfplay-{size}-{level}.npz"


def family_path(size: int, level: str) -> Path | None:
    """The shipped selfplay value of the family of `size` samurai at `level`, if kiai ships one."""
    path = family_file(size, level)
    return path if path.exists() else None


def shipped_families() -> tuple[int, str]:
    """How many family values kiai ships, and one short hash of them all (the SHA-256 of their
    names and bytes, in name order): what `kiai --version` says selfplay plays."""
    h = hashlib.sha256()
    files = sorted(DATA.glob("selfplay-*-*.npz"))
    for f in files:
        h.update(f.name.encode() + hashlib.sha256(f.read_bytes()).digest())
    return len(files), h.hexdigest()[:12]


def flush_subnormals(a: np.ndarray) -> np.ndarray:
    """a with its subnormal entries set to 0. Training leaves some (the weights of units that
    died decay towards 0): arithmetic on them costs some hundred cycles on x86, and a fifth of
    the first shipped model's first-layer weights made its networks ten times slower. Next to the
    other terms of the sums they enter they are far below float32's resolution."""
    return np.where(np.abs(a) < np.finfo(a.dtype).tiny, np.zeros_like(a), a)


def save(path: str | Path, arrays: dict, header: dict, kind: Kind) -> None:
    """Write a model file of `kind` (atomically: a temporary file in the same folder, then a
    rename), its weights as float32 without subnormal numbers."""
    path = Path(path)
    header = {"format": FORMAT, "kind": kind.name, "feature_schema": kind.schema, **header}

    def write(tmp: Path) -> None:  # this run's temporary file (kiai.outputs), given a handle: numpy adds no suffix
        with open(tmp, "wb") as f:
            np.savez_compressed(f, header=np.array(json.dumps(header)),
                                **{k: flush_subnormals(np.asarray(v, dtype=np.float32)) for k, v in arrays.items()})

    atomic_write(path, write)


def ways_out(kind: Kind) -> str:
    """How to go on from a file made for other component data: retrain it, or play a strategy
    that needs no model."""
    return f"retrain it with `{kind.train} --components`, or play a strategy without a model (--strategy keeper)"


def made_for_header(components) -> dict:
    """The header entries that say which component data a model is made for."""
    return {"components_sha256": components.sha256, "components_data_sha256": components.data_sha256}


def made_for(header: dict, *known) -> str | None:
    """The component data (Components.data_sha256) a model was made for: its header's
    components_data_sha256; in a file from before that entry, the data of the component file
    (among `known`, Components: this game's, kiai's packaged one) its components_sha256 names;
    else None (not known)."""
    if header.get("components_data_sha256"):
        return str(header["components_data_sha256"])
    made = header.get("components_sha256")
    return next((comp.data_sha256 for comp in known if comp is not None and comp.sha256 == made), None)


def other_components(model: ModelFile, components, *known) -> bool:
    """Whether `model` was made for other component data than `components` (other cards, Kiai
    values, farmstead backs, family bonuses or level switches; made_for with `components` and
    `known`): it plays, but its results say so."""
    return made_for(model.header, components, *known) != components.data_sha256


def other_data_error(model: ModelFile, components, *known) -> ModelError:
    """The one line refusing `model` on other component data (--strict)."""
    made = made_for(model.header, components, *known)
    return ModelError(f"{model.kind.noun} {model.path}: made for other component data (data {str(made or 'unnamed')[:12]}, "
                      f"this game {components.data_sha256[:12]}: other cards or Kiai values) and --strict refuses "
                      f"it; {ways_out(model.kind)}")


def load(path: str | Path | None, kind: Kind, components=None) -> ModelFile:
    """Read and check a model file of `kind` (None: the shipped one); with `components` (a
    simcore Components), also that its inputs can hold that component data.

    A configuration checks its model, describes it and plays it (strategies.run.config, strategies.run.games), and a sweep
    builds hundreds of configurations: a file's bytes are read each time but checked and unpacked
    once while they stay the same. The bytes, not the modification time, key that: a file
    rewritten within the clock's tick (a training run's candidate fits) keeps its time but not its
    contents."""
    path = Path(path) if path else shipped_path(kind)
    where = f"{kind.noun} {path}"
    if path.is_dir():
        raise ModelError(f"{where} is a folder; give the file")
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise ModelError(f"{where}: no such file") from None
    except OSError as e:
        raise ModelError(f"{where}: cannot read it ({e.strerror or type(e).__name__})") from None
    model = _read(str(path), raw, kind)
    why = components.unreadable() if components is not None else None
    if why:
        raise ModelError(f"{where}: its inputs cannot hold the component data of {components.path} ({why}); "
                         f"play a strategy without a model (--strategy keeper)")
    return model


def kind_of(header: dict) -> Kind | None:
    """The kind a header says its file is (files of earlier versions: by their format and inputs)."""
    if header.get("format") == FORMAT and "kind" in header:
        return next((k for k in KINDS if k.name == header["kind"]), None)
    if header.get("format") == FORMAT:
        return LEARNED  # learned's files were the first of this format, before it named kinds
    schema = str(header.get("feature_schema", ""))
    if header.get("format") == LEGACY_VALUE_FORMAT:
        return TABLE if schema.startswith("table-") else AFTER if schema.startswith("after-") else None
    return None


def read_header(raw: bytes, file: str = "model file") -> tuple[dict, dict]:
    """The header and arrays of a model file's bytes; ModelError's text (without the file's name)
    when they are no kiai `file`."""
    try:
        with np.load(io.BytesIO(raw), allow_pickle=False) as z:
            h = z["header"]
            header = json.loads(str(h) if h.dtype.kind == "U" else bytes(h).decode())
            arrays = {k: z[k] for k in z.files if k != "header"}
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile, UnicodeDecodeError):
        raise ModelError(f"not a kiai {file} ({'empty' if not raw else 'unreadable or damaged'})") from None
    except RecursionError:  # a header is a few levels deep; JSON nested beyond Python's stack is none
        raise ModelError(f"not a kiai {file} (its header is nested too deeply)") from None
    if isinstance(header, dict) and header.get("format") not in (FORMAT, LEGACY_VALUE_FORMAT):
        raise ModelError(f"not a kiai {file}")
    return header, arrays  # a header that is no JSON object: check_header names it


def check_header(header, kind: Kind, where: str) -> None:
    """The header's schema step (kiai.states): a ModelError naming `where` and the field where it
    is no object, or a field this kiai reads is of another type than it writes."""
    try:
        check(header, HEADER if kind is LEARNED else NAMED_HEADER, where, "model header")
    except StateError as e:
        raise ModelError(str(e)) from None


@functools.lru_cache(maxsize=32)
def _read(path_text: str, raw: bytes, kind: Kind) -> ModelFile:
    """The checks of load() that depend on the file alone."""
    where = f"{kind.noun} {path_text}"
    try:
        header, arrays = read_header(raw, kind.file)
    except ModelError as e:
        raise ModelError(f"{where}: {e}") from None
    if not isinstance(header, dict) or Path(path_text).parent != DATA:  # the shipped files: checked by the tests
        check_header(header, kind, where)
    found = kind_of(header)
    if found is None:
        raise ModelError(f"{where}: not a kiai {kind.file} (of no kind this kiai knows)")
    if found is not kind:
        raise ModelError(f"{where}: this is {found.what}, not {kind.what}")
    if header.get("feature_schema") != kind.schema:
        raise ModelError(f"{where}: made for another feature schema than this kiai reads "
                         f"({header.get('feature_schema')!s:.20}); retrain it with `{kind.train}`")
    kind.check(where, header, arrays)
    for a in arrays.values():
        a.flags.writeable = False  # shared by every caller of the cached read
    return ModelFile(path_text, hashlib.sha256(raw).hexdigest(), header, arrays, kind)


def ensemble(models: list[ModelFile], header: dict) -> tuple[dict, dict]:
    """The arrays and header of one learned model that averages the scores of `models` (all of
    one architecture): their arrays renamed by member_prefix, the header's architecture with
    "members" and "member_sha256" (each member file's hash, in order)."""
    if not 1 <= len(models) <= MAX_MEMBERS or len({m.hidden for m in models}) != 1:
        raise ModelError(f"an ensemble takes 1 to {MAX_MEMBERS} models of one architecture")
    arrays = {member_prefix(j) + k: v for j, m in enumerate(models) for k, v in m.member(0).items()}
    arch = {**models[0].header["architecture"], "members": len(models)}
    return arrays, {**header, "architecture": arch, "member_sha256": [m.sha256 for m in models]}
