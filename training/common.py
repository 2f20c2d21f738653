"""What the training runs share: their error, how they report progress, their folders' files,
the evaluation tables and the checks of their settings."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from kiai.outputs import atomic_write
from kiai.states import check, load_json

KEEP_OUT = ("format", "kind", "feature_schema")  # a header's keys that save() writes anew
# the experts that teach selfplay's value (training.teacher) and how each teaches: judge as it plays
# by default; the lookahead over learned that weighs every question (the stronger of the two with
# five samurai and more)
# judge teaches as it played before its race: every answer on all its samples, over learned
TEACHERS = {"judge": {"race": 0, "base": 1, "samples": 8, "turns": 2, "first": 2}, "lookahead": {"base": 5, "decisions": 1}}

# the evaluation tables when none are given (a 4-, a 3- and a 5-samurai table at Normal, Normal
# and Easy): `kiai train learned` never draws them for training, so they also measure line-ups the
# model did not see
EVAL_TABLES = (
    (("gorobei", "kyuzo", "daisuke", "katsushiro"), "normal"),
    (("kanbei", "heihachi", "kikuchiyo"), "normal"),
    (("heihachi", "daisuke", "gorobei", "kanbei", "katsushiro"), "easy"),
)


class TrainError(ValueError):
    """Bad training settings or a training folder that cannot be resumed; one line."""


class Stages:
    """What a run reports as it goes (the CLI draws progress bars): `stage` starts a step of
    `total` units (games, or `unit`), `advance` moves it, `note` prints a line."""

    def stage(self, description: str, total: int, unit: str = "games") -> None: ...

    def advance(self, k: int = 1) -> None: ...

    def note(self, line: str) -> None: ...


def read_settings(path: Path) -> dict:
    """A run's settings.json, read back to resume it: a JSON object (kiai.states), else one line
    naming the file (a field of another value is the run's own message: other settings)."""
    return check(load_json(path.read_bytes(), path, "training settings"), _SETTINGS, path, "training settings")


_SETTINGS = {"type": "object"}  # its fields are compared with the run's: one of another value is "other settings"


def require(settings, bounds) -> None:
    """Refuse, in one line naming the option, a setting outside its bounds: `bounds` holds
    (name, low, high) with high None for no upper bound."""
    for name, lo, hi in bounds:
        v = getattr(settings, name)
        if v < lo or (hi is not None and v > hi):
            option = "--" + name.replace("_", "-")
            raise TrainError(f"{option} must be at least {lo}, got {v}" if hi is None
                             else f"{option} must be in [{lo}, {hi}], got {v}")


def write_json(path: Path, data) -> None:
    """Write JSON atomically (this run's temporary file, then a rename): a killed run leaves no half file."""
    text = json.dumps(data, indent=1, sort_keys=True)
    atomic_write(path, lambda tmp: tmp.write_text(text))


def write_npy(path: Path, rows: np.ndarray) -> None:
    """np.save, atomically."""
    atomic_write(path, lambda tmp: save_to(tmp, np.save, rows))


def save_to(tmp: Path, save, *args, **arrays) -> None:
    """numpy's save, savez... into the file `tmp` as named (given a name, they add a suffix)."""
    with open(tmp, "wb") as f:
        save(f, *args, **arrays)


def seed_of(*key: int) -> int:
    """A seed for one step of a run, drawn from the run's seed and the step's numbers."""
    return int(np.random.default_rng(list(key)).integers(0, 2**62))
