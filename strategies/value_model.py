"""Value files: a network's weights and a JSON header, in one .npz file. Two kinds: the value of
the table at a turn's start that `judge` plays by (strategies.table_value), and the value of an
answer's afterstate that `selfplay` plays by (strategies.afterstate). A file made for another
feature schema, for other component data, or not a value file at all, is refused with one line
(ValueModelError)."""

from __future__ import annotations

import functools
import hashlib
import io
import json
import os
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from kiai.strategies import afterstate, selfplay, table_value
from kiai.strategies.model import ways_out
from kiai.strategies.table_value import MAX_H1, MAX_H2

FORMAT = "kiai-value"
ENV = "KIAI_VALUE_MODEL"  # another value file for judge to play (the shipped one otherwise)
SHAPES = {"w1": ("h1", "inputs"), "b1": ("h1",), "w2": ("h2", "h1"), "b2": ("h2",), "w3": (1, "h2"), "b3": (1,)}


@dataclass(frozen=True)
class Kind:
    """What a value file values: its feature schema, its inputs, the shipped file's name and the
    strategy that plays it."""

    schema: str
    inputs: int
    shipped: str
    max_h1: int  # the widest layers its player computes
    max_h2: int
    player: str


TABLE = Kind(table_value.SCHEMA, table_value.N_VALUE_FEATURES, "value.npz", MAX_H1, MAX_H2, "judge")
AFTER = Kind(afterstate.SCHEMA, afterstate.N_AFTER, "selfplay.npz", selfplay.H1, selfplay.H2, "selfplay")


def whose(header: dict) -> str | None:
    """The strategy a kiai model or value file is for, by its header (learned, judge, selfplay);
    None for another feature schema or another file."""
    if header.get("format") == "kiai-model":  # strategies.model.FORMAT
        return "learned"
    if header.get("format") == FORMAT:
        return next((k.player for k in (TABLE, AFTER) if k.schema == header.get("feature_schema")), None)
    return None


class ValueModelError(ValueError):
    """A value file that cannot be played; the message is one line."""


@dataclass(frozen=True)
class ValueModel:
    arrays: dict
    header: dict
    path: str
    sha256: str

    def pack(self, rec, prefix: str = "v") -> None:
        """Write the weights into a strategy's record (fields named prefix + h1, w1, ...: judge's
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


def default_path(kind: Kind = TABLE) -> Path:
    """The shipped file of a kind; judge's may be replaced by $KIAI_VALUE_MODEL."""
    shipped = Path(__file__).parent / "data" / kind.shipped
    return Path(os.environ.get(ENV) or shipped) if kind is TABLE else shipped


def _family_file(size, level, folder=None) -> Path:
    """Where the selfplay value of a family lies among the shipped values (folder: strategies/data)."""
    return Path(folder or Path(__file__).parent / "data") / f"selfplay-{size}-{level}.npz"


def family_path(size: int, level: str) -> Path | None:
    """The shipped selfplay value of the family of `size` samurai at `level`
    (strategies.families), if kiai ships one."""
    path = _family_file(size, level)
    return path if path.exists() else None


def shipped_families() -> tuple[int, str]:
    """How many family values kiai ships, and one short hash of them all (the SHA-256 of their
    names and bytes, in name order): what `kiai --version` says selfplay plays."""
    h = hashlib.sha256()
    files = sorted(_family_file(2, "easy").parent.glob("selfplay-*-*.npz"))
    for f in files:
        h.update(f.name.encode() + hashlib.sha256(f.read_bytes()).digest())
    return len(files), h.hexdigest()[:12]


def save(path, arrays: dict, header: dict, kind: Kind = TABLE) -> None:
    header = {"format": FORMAT, "feature_schema": kind.schema, **header}
    buf = io.BytesIO()
    np.savez(buf, header=np.frombuffer(json.dumps(header).encode(), dtype=np.uint8),
             **{k: np.asarray(v, dtype=np.float32) for k, v in arrays.items()})
    Path(path).write_bytes(buf.getvalue())


def load(path=None, kind: Kind = TABLE, components_sha256: str | None = None) -> ValueModel:
    """The value file of `kind` at path (None: the shipped one, or for judge $KIAI_VALUE_MODEL),
    checked; with components_sha256, also that it was made for those components. A configuration
    checks its file and plays it (strategies.run), and a sweep builds many: the bytes are read
    each time, but checked and unpacked once while they stay the same."""
    path = Path(path) if path else default_path(kind)
    if path.is_dir():
        raise ValueModelError(f"value file {path} is a folder; give the file")
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise ValueModelError(f"value file {path}: no such file") from None
    except OSError as e:
        raise ValueModelError(f"value file {path}: not a kiai value file ({type(e).__name__})") from None
    model = _read(str(path), raw, kind)
    made_for = model.header.get("components_sha256")
    if components_sha256 is not None and made_for != components_sha256:
        raise ValueModelError(f"value file {path}: made for other component data (components "
                              f"{str(made_for or 'unnamed')[:12]}, this game {components_sha256[:12]}); "
                              f"{ways_out('kiai train-value')}")
    return model


def load_after(path=None, components_sha256: str | None = None) -> ValueModel:
    """selfplay's value file (strategies.afterstate's features)."""
    return load(path, AFTER, components_sha256)


@functools.lru_cache(maxsize=8)
def _read(path_text: str, raw: bytes, kind: Kind) -> ValueModel:
    """The checks of load() on the file's bytes."""
    path = Path(path_text)
    try:
        with np.load(io.BytesIO(raw)) as z:
            text = z["header"]  # bytes here; text in learned's model files (strategies.model)
            header = json.loads(str(text) if text.dtype.kind == "U" else bytes(text).decode())
            arrays = {k: z[k] for k in z.files if k != "header"}
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile, UnicodeDecodeError):
        said = "empty" if not raw else "unreadable or damaged"
        raise ValueModelError(f"value file {path}: not a kiai value file ({said})") from None
    other = whose(header) if isinstance(header, dict) else None
    if other == "learned":
        raise ValueModelError(f"value file {path}: this is a model of learned, not {kind.player}'s value")
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise ValueModelError(f"value file {path}: not a kiai value file")
    if other is not None and other != kind.player:
        raise ValueModelError(f"value file {path}: this is {other}'s value, not {kind.player}'s")
    if header.get("feature_schema") != kind.schema:
        raise ValueModelError(f"value file {path}: made for another feature schema than this kiai's")
    if not all(isinstance(header.get(k, {}), dict) for k in ("settings", "play")):
        raise ValueModelError(f"value file {path}: its header is damaged (settings, play)")
    if set(arrays) != set(SHAPES):
        raise ValueModelError(f"value file {path}: arrays {sorted(arrays)}, expected {sorted(SHAPES)}")
    h1, h2 = (arrays[k].shape[0] if arrays[k].ndim else 0 for k in ("b1", "b2"))
    if not (1 <= h1 <= kind.max_h1 and 1 <= h2 <= kind.max_h2):
        raise ValueModelError(f"value file {path}: layers of {h1} and {h2} units (at most {kind.max_h1} and {kind.max_h2})")
    dims = {"h1": h1, "h2": h2, "inputs": kind.inputs}
    for name, shape in SHAPES.items():
        want = tuple(dims.get(d, d) for d in shape)
        a = arrays[name]
        if a.shape != want or a.dtype.kind not in "fiu" or not np.all(np.isfinite(a)):
            raise ValueModelError(f"value file {path}: array {name} is not {want} finite numbers")
    for a in arrays.values():
        a.flags.writeable = False  # shared by every load of the same bytes
    return ValueModel(arrays, header, str(path), hashlib.sha256(raw).hexdigest())


def ship(model: ValueModel, family: str, play: dict | None = None, why: str = "",
         folder=None) -> tuple[Path, ValueModel | None]:
    """Copy selfplay's value `model` (load_after) into the shipped values (folder: strategies/data) as the
    value of `family` ("K@LEVEL"), the one selfplay then plays on its tables. The header gains
    `replaces`: the shas of the family's file it replaces and of every file that one replaced
    (its bytes, and those training wrote where a play was added), so a value started from any of
    them still names its start. With `play` (selfplay's parameters) the header says how the value
    plays best, `why` says how that was chosen, and `play_added_to` keeps the sha training wrote.
    Returns the new file's path and the replaced value (None where the family had none)."""
    from kiai.strategies.selfplay import STRATEGY

    trained_on = model.header.get("settings", {}).get("family")
    if trained_on and trained_on != family:
        raise ValueModelError(f"value file {model.path}: trained on the family {trained_on}, not {family}")
    size, _, level = family.partition("@")
    dest = _family_file(size, level, folder)
    header = {k: v for k, v in model.header.items() if k not in ("format", "feature_schema")}
    old = load_after(dest) if dest.exists() else None
    if old is not None:
        earlier = [*header.get("replaces", []), old.sha256, old.header.get("play_added_to"), *old.header.get("replaces", [])]
        header["replaces"] = list(dict.fromkeys(s for s in earlier if s and s != model.sha256))
    if play:
        try:
            STRATEGY.param_vector(play)
        except (KeyError, ValueError) as e:
            raise ValueModelError(f"play: {e}") from None
        header["play_added_to"] = header.get("play_added_to", model.sha256)
        header["play"], header["play_chosen_by"] = dict(play), why
    save(dest, {k: model.arrays[k] for k in SHAPES}, header, AFTER)
    return dest, old
