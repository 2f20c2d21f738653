"""The value file of `judge` (strategies.table_value): the network's weights and a JSON header,
in one .npz file. A file made for another feature schema, or not a value file at all, is
refused with one line (ValueModelError)."""

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

from kiai.strategies.table_value import MAX_H1, MAX_H2, N_VALUE_FEATURES, SCHEMA

FORMAT = "kiai-value"
ENV = "KIAI_VALUE_MODEL"  # another value file for judge to play (the shipped one otherwise)
SHAPES = {"w1": ("h1", N_VALUE_FEATURES), "b1": ("h1",), "w2": ("h2", "h1"), "b2": ("h2",), "w3": (1, "h2"), "b3": (1,)}


class ValueModelError(ValueError):
    """A value file that cannot be played; the message is one line."""


@dataclass(frozen=True)
class ValueModel:
    arrays: dict
    header: dict
    path: str
    sha256: str

    def pack(self, rec) -> None:
        """Write the weights into judge's record, transposed (inputs x outputs), zero-padded."""
        a = self.arrays
        h1, h2 = a["w1"].shape[0], a["w2"].shape[0]
        rec["vh1"], rec["vh2"] = h1, h2
        rec["vw1"][:, :h1] = a["w1"].T
        rec["vb1"][:h1] = a["b1"]
        rec["vw2"][:h1, :h2] = a["w2"].T
        rec["vb2"][:h2] = a["b2"]
        rec["vw3"][:h2] = a["w3"][0]
        rec["vb3"][0] = a["b3"][0]


def default_path() -> Path:
    return Path(os.environ.get(ENV) or Path(__file__).parent / "data" / "value.npz")


def save(path, arrays: dict, header: dict) -> None:
    header = {"format": FORMAT, "feature_schema": SCHEMA, **header}
    buf = io.BytesIO()
    np.savez(buf, header=np.frombuffer(json.dumps(header).encode(), dtype=np.uint8),
             **{k: np.asarray(v, dtype=np.float32) for k, v in arrays.items()})
    Path(path).write_bytes(buf.getvalue())


def load(path=None) -> ValueModel:
    """The value file at path (None: $KIAI_VALUE_MODEL, else the shipped one), checked. A judge
    configuration checks its file and plays it (strategies.run), and a sweep builds many: the
    bytes are read each time, but checked and unpacked once while they stay the same."""
    path = Path(path) if path else default_path()
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise ValueModelError(f"value file {path}: no such file") from None
    except OSError as e:
        raise ValueModelError(f"value file {path}: not a kiai value file ({type(e).__name__})") from None
    return _read(str(path), raw)


@functools.lru_cache(maxsize=8)
def _read(path_text: str, raw: bytes) -> ValueModel:
    """The checks of load() on the file's bytes."""
    path = Path(path_text)
    try:
        with np.load(io.BytesIO(raw)) as z:
            header = json.loads(bytes(z["header"]).decode())
            arrays = {k: z[k] for k in z.files if k != "header"}
    except (OSError, ValueError, KeyError, zipfile.BadZipFile, UnicodeDecodeError) as e:
        raise ValueModelError(f"value file {path}: not a kiai value file ({type(e).__name__})") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise ValueModelError(f"value file {path}: not a kiai value file")
    if header.get("feature_schema") != SCHEMA:
        raise ValueModelError(f"value file {path}: made for another feature schema than this kiai's")
    if set(arrays) != set(SHAPES):
        raise ValueModelError(f"value file {path}: arrays {sorted(arrays)}, expected {sorted(SHAPES)}")
    h1, h2 = arrays["b1"].shape[0], arrays["b2"].shape[0]
    if not (1 <= h1 <= MAX_H1 and 1 <= h2 <= MAX_H2):
        raise ValueModelError(f"value file {path}: layers of {h1} and {h2} units (at most {MAX_H1} and {MAX_H2})")
    dims = {"h1": h1, "h2": h2}
    for name, shape in SHAPES.items():
        want = tuple(dims.get(d, d) for d in shape)
        if arrays[name].shape != want or not np.all(np.isfinite(arrays[name])):
            raise ValueModelError(f"value file {path}: array {name} is not {want} finite numbers")
    for a in arrays.values():
        a.flags.writeable = False  # shared by every load of the same bytes
    return ValueModel(arrays, header, str(path), hashlib.sha256(raw).hexdigest())
