"""The learned strategy's model file: plain weight arrays and a JSON header, in one .npz file.

A model is two small networks (two hidden layers, ReLU) over the features of strategies.features:
`action` scores the answers to the turn's action and to Kikuchiyo's second fight (N_ACTION
slots), `card` the answers about a card in hand (N_CARD slots). A score is what the answer is
worth (in chance to win) above keeper's own answer. The input scaling is folded into the first
layer, so playing needs only the arrays (strategies.learned reads them inside numba); no
machine-learning library is involved.

Arrays: {head}_w1 (hidden x features), {head}_b1, {head}_w2 (hidden x hidden), {head}_b2,
{head}_w3 (slots x hidden), {head}_b3 for head in HEADS, float32. A model may average the scores
of several such pairs of networks (architecture "members", at most MAX_MEMBERS): the second's
arrays are named m1_{head}_w1 and so on (strategies.model.ensemble). The header (JSON, the array `header`) says what the model is and how it
was made: format, feature_schema, architecture, positions (labelled positions it was trained
on), teacher, seeds, components_sha256, kiai_version, date, and the training's own record.

A file that is not such a model, or one made for another feature schema or other component
data, is refused with one line (ModelError).
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import zipfile
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np

from kiai.strategies.features import N_ACTION, N_CARD, N_FEATURES, SCHEMA

FORMAT = "kiai-model"
HEADS = {"action": N_ACTION, "card": N_CARD}
MAX_FEATURES = 160
MAX_HIDDEN = 64


def shapes(hidden: int) -> dict[str, tuple[int, ...]]:
    """One member's arrays, by name, and their shapes."""
    out = {}
    for head, slots in HEADS.items():
        out |= {f"{head}_w1": (hidden, N_FEATURES), f"{head}_b1": (hidden,), f"{head}_w2": (hidden, hidden),
                f"{head}_b2": (hidden,), f"{head}_w3": (slots, hidden), f"{head}_b3": (slots,)}
    return out


NAMES = tuple(shapes(1))  # one member's arrays
# networks a model may average (an ensemble); the second, computed beside the first, adds
# about a fifth to their time
MAX_MEMBERS = 2


class ModelError(ValueError):
    """A model file that cannot be played; the message is one line."""


@dataclass(frozen=True)
class Model:
    path: str
    sha256: str
    header: dict
    arrays: dict

    @property
    def hidden(self) -> int:
        return int(self.header["architecture"]["hidden"])

    @property
    def members(self) -> int:
        """How many pairs of networks the model averages (architecture "members", default 1)."""
        return int(self.header["architecture"].get("members", 1))

    def member(self, j: int) -> dict:
        """Member j's arrays under the single-network names ({head}_w1, ...)."""
        return {name: self.arrays[member_prefix(j) + name] for name in NAMES}


def member_prefix(j: int) -> str:
    """The array names' prefix of member j: none for the first (a one-member file is the plain
    layout), "m1_" for the second."""
    return f"m{j}_" if j else ""


def ensemble(models: list[Model], header: dict) -> tuple[dict, dict]:
    """The arrays and header of one model that averages the scores of `models` (all of one
    architecture): their arrays renamed by member_prefix, the header's architecture with
    "members" and "member_sha256" (each member file's hash, in order)."""
    if not 1 <= len(models) <= MAX_MEMBERS or len({m.hidden for m in models}) != 1:
        raise ModelError(f"an ensemble takes 1 to {MAX_MEMBERS} models of one architecture")
    arrays = {member_prefix(j) + k: v for j, m in enumerate(models) for k, v in m.member(0).items()}
    arch = {**models[0].header["architecture"], "members": len(models)}
    return arrays, {**header, "architecture": arch, "member_sha256": [m.sha256 for m in models]}


def default_path() -> Path:
    """The model shipped with kiai (package data)."""
    return Path(str(resources.files(__package__).joinpath("data").joinpath("learned.npz")))


def flush_subnormals(a: np.ndarray) -> np.ndarray:
    """a with its subnormal entries set to 0. Training leaves some (the weights of units that
    died decay towards 0): arithmetic on them costs some hundred cycles on x86, and a fifth of
    the shipped model's first-layer weights made its networks ten times slower. Next to the
    other terms of the sums they enter they are far below float32's resolution: the stored
    game digests show that no game changes."""
    return np.where(np.abs(a) < np.finfo(a.dtype).tiny, np.zeros_like(a), a)


def save(path: str | Path, arrays: dict, header: dict) -> None:
    """Write a model file (atomically: a temporary file in the same folder, then a rename),
    its weights as float32 without subnormal numbers."""
    path = Path(path)
    header = {"format": FORMAT, "feature_schema": SCHEMA, **header}
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "wb") as f:
        np.savez_compressed(f, header=np.array(json.dumps(header, sort_keys=True)),
                            **{k: flush_subnormals(np.asarray(v, dtype=np.float32)) for k, v in arrays.items()})
    tmp.replace(path)


def load(path: str | Path | None = None, components_sha256: str | None = None) -> Model:
    """Read and check a model file (default: the shipped one). Refuses, with one line, a file
    that is not a kiai model, one of another feature schema, one whose arrays do not fit its
    architecture, and one made for other component data (when components_sha256 is given).

    A configuration checks its model, describes it and plays it (strategies.run), and a sweep
    builds hundreds of configurations: a file's bytes are read each time (a few kilobytes) but
    checked and unpacked once while they stay the same, and its arrays are shared read-only.
    The bytes, not the modification time, key that: a file rewritten within the clock's tick
    (a training run's candidate fits) keeps its time but not its contents."""
    path = Path(path) if path is not None else default_path()
    if path.is_dir():
        raise ModelError(f"model {path} is a folder; give the file")
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise ModelError(f"model {path}: no such file") from None
    except OSError as e:
        raise ModelError(f"model {path}: cannot read it ({e.strerror or e})") from None
    model = _read(str(path), raw)
    made_for = model.header.get("components_sha256")
    if components_sha256 is not None and made_for != components_sha256:
        raise ModelError(f"model {path}: trained for other component data (components "
                         f"{str(made_for or 'unnamed')[:12]}, this game {components_sha256[:12]}); "
                         f"{ways_out('kiai train')}")
    return model


def ways_out(train: str) -> str:
    """How to go on from a model file made for other component data: retrain it (`train`, the
    command that made it), or play a strategy that needs no model."""
    return f"retrain it with `{train} --components`, or play a strategy without a model (--strategy keeper)"


@functools.lru_cache(maxsize=16)
def _read(path_text: str, raw: bytes) -> Model:
    """The checks of load() that depend on the file alone."""
    path = Path(path_text)
    where = f"model {path}"
    try:
        with np.load(io.BytesIO(raw), allow_pickle=False) as z:
            text = z["header"]  # text here; bytes in value files (strategies.value_model)
            header = json.loads(str(text) if text.dtype.kind == "U" else bytes(text).decode())
            arrays = {k: z[k] for k in z.files if k != "header"}
    except (OSError, ValueError, KeyError, zipfile.BadZipFile, json.JSONDecodeError, EOFError, UnicodeDecodeError):
        raise ModelError(f"{where}: not a kiai model file (unreadable or damaged)") from None
    if isinstance(header, dict) and header.get("format") == "kiai-value":  # strategies.value_model.FORMAT
        from kiai.strategies.value_model import whose  # (it imports this module)

        who = whose(header)
        what = f"{who}'s value" if who else "a value file"
        raise ModelError(f"{where}: this is {what}, not a model of learned")
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise ModelError(f"{where}: not a kiai model file")
    if header.get("feature_schema") != SCHEMA:
        raise ModelError(f"{where}: made for feature schema {header.get('feature_schema')}, this kiai reads "
                         f"schema {SCHEMA}; retrain it with `kiai train`")
    arch = header.get("architecture") if isinstance(header.get("architecture"), dict) else {}
    hidden, inputs, members = arch.get("hidden"), arch.get("inputs"), arch.get("members", 1)
    if not (isinstance(hidden, int) and 1 <= hidden <= MAX_HIDDEN and inputs == N_FEATURES
            and isinstance(members, int) and 1 <= members <= MAX_MEMBERS):
        raise ModelError(f"{where}: architecture {arch} does not fit (hidden 1..{MAX_HIDDEN}, {N_FEATURES} inputs, "
                         f"1..{MAX_MEMBERS} members)")
    for j in range(members):
        for name, shape in shapes(hidden).items():
            a = arrays.get(member_prefix(j) + name)
            if a is None or a.shape != shape or a.dtype.kind not in "fiu" or not np.all(np.isfinite(a)):
                raise ModelError(f"{where}: array {member_prefix(j) + name} is missing, misshapen or not finite")
    for a in arrays.values():
        a.flags.writeable = False  # shared by every caller of the cached read
    return Model(str(path), hashlib.sha256(raw).hexdigest(), header, arrays)
