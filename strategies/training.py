"""Training `learned` (kiai train): expert iteration on labels from the lookahead.

Each iteration
1. plays games with the teacher: the lookahead weighing every question as it is asked
   (strategies.lookahead, `decisions` 1) over the current model (iteration 0: over keeper);
   each weighed question becomes a label: its features and what each option was worth by
   rollouts (strategies.run.label_games);
2. fits the two networks (strategies.model) to all labels so far: for each question, the
   network's scores of the legal options are regressed on their rollout values, both taken
   relative to the question's mean (what matters is which option is better);
3. plays the new model, the previous one and the teacher on the same deals and compares them
   (McNemar on the deals only one of each pair won).
Every step is saved in the output folder as it finishes, so a killed run resumes where it
stopped, and every random choice comes from the seed, so a run is reproducible.

PyTorch does the fitting, on the CPU (the optional extra `kiai[train]`): small dense networks
on a few hundred thousand rows, masked per-row losses and Adam are a few lines there, and its
CPU build needs no GPU. Playing needs none of it.
"""

from __future__ import annotations

import datetime
import json
import shutil
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from simcore.questions import Q_CARD
from strategies.features import N_ACTION, N_CARD, N_FEATURES, NAMES
from strategies.lookahead import LABEL_WIDTH
from strategies.model import HEADS, MAX_HIDDEN, save

LEVEL_WEIGHTS = {"easy": 1, "normal": 2, "hard": 1, "heroic": 1}
SIZE_WEIGHTS = {2: 1, 3: 3, 4: 4, 5: 3, 6: 1, 7: 1}  # team sizes: the analyser's usual tables weigh most


class TrainError(ValueError):
    """Bad training settings or a training folder that cannot be resumed; one line."""


def keeper_model() -> tuple[dict, dict]:
    """Iteration 0: networks that score every answer 0 above keeper's, so `learned` never
    leaves keeper's answer and plays exactly as keeper does."""
    hidden = 8
    arrays = {}
    for head, slots in HEADS.items():
        for k, shape in (("w1", (hidden, N_FEATURES)), ("b1", (hidden,)), ("w2", (hidden, hidden)), ("b2", (hidden,)),
                         ("w3", (slots, hidden)), ("b3", (slots,))):
            arrays[f"{head}_{k}"] = np.zeros(shape, dtype=np.float32)
    header = {"architecture": architecture(hidden), "positions": 0,
              "teacher": "none: keeper's own answers (iteration 0)", "seeds": []}
    return arrays, header


def architecture(hidden: int) -> dict:
    return {"kind": "mlp", "layers": "features -> hidden (ReLU) -> hidden (ReLU) -> slots", "hidden": hidden, "inputs": N_FEATURES,
            "heads": dict(HEADS)}


# ------------------------------------------------------------------------------------ fitting
def split(rows: np.ndarray) -> dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Label rows (strategies.lookahead._label) by head: (features, slot values with NaN where
    the slot was not an option, the slot the lookahead chose)."""
    q = rows[:, 0].astype(int)
    x = rows[:, 1 : 1 + N_FEATURES]
    v = rows[:, 1 + N_FEATURES : 1 + N_FEATURES + N_ACTION]
    chosen = rows[:, LABEL_WIDTH - 1].astype(int)
    card = q == Q_CARD
    return {"action": (x[~card], v[~card, :N_ACTION], chosen[~card]),
            "card": (x[card], v[card, :N_CARD], chosen[card])}


def fit(rows: np.ndarray, hidden: int, epochs: int, seed: int, on_epoch: Callable[[int, float], None] | None = None,
        threads: int = 1) -> tuple[dict, dict]:
    """Fit both heads to the label rows; returns the model's arrays (input scaling folded into
    the first layer) and the final training loss per head. Deterministic for a seed and a
    thread count."""
    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    torch.use_deterministic_algorithms(True)
    first = NAMES.index("keeper.slot0")
    arrays, losses = {}, {}
    for h, (head, (x, v, _chosen)) in enumerate(split(rows).items()):
        slots = v.shape[1]
        mean = x.mean(axis=0) if len(x) else np.zeros(N_FEATURES)
        scale = x.std(axis=0) if len(x) else np.ones(N_FEATURES)
        scale = np.where(scale > 1e-6, scale, 1.0)
        net = torch.nn.Sequential(torch.nn.Linear(N_FEATURES, hidden), torch.nn.ReLU(), torch.nn.Linear(hidden, hidden),
                                  torch.nn.ReLU(), torch.nn.Linear(hidden, slots))
        keeper = x[:, first : first + slots].argmax(axis=1)
        if len(x):
            losses[head] = _train(net, (x - mean) / scale, v, keeper, epochs, seed + 1000 * h,
                                  (lambda e, loss: on_epoch(e, loss)) if on_epoch else None)
        w1 = net[0].weight.detach().numpy().astype(np.float64)
        b1 = net[0].bias.detach().numpy().astype(np.float64)
        arrays[f"{head}_w1"] = (w1 / scale).astype(np.float32)  # folded: w1 @ ((x - mean) / scale)
        arrays[f"{head}_b1"] = (b1 - (w1 / scale) @ mean).astype(np.float32)
        for k, layer in (("2", net[2]), ("3", net[4])):
            arrays[f"{head}_w{k}"] = layer.weight.detach().numpy().astype(np.float32)
            arrays[f"{head}_b{k}"] = layer.bias.detach().numpy().astype(np.float32)
    return arrays, losses


def _train(net, x: np.ndarray, v: np.ndarray, keeper: np.ndarray, epochs: int, seed: int, on_epoch) -> float:
    """Regress each legal answer's score, taken above the score of keeper's answer, on the same
    difference of rollout values: what the answer is worth more than keeper's (the base's
    rollouts, common to both, make the difference far less noisy than either value). Played,
    learned leaves keeper's answer only for one scored `edge` above it (strategies.learned)."""
    import torch

    legal = ~np.isnan(v)
    adv = np.where(legal, v - v[np.arange(len(v)), keeper][:, None], 0.0)
    X = torch.tensor(x, dtype=torch.float32)
    A = torch.tensor(adv, dtype=torch.float32)
    M = torch.tensor(legal, dtype=torch.float32)
    Kp = torch.tensor(keeper, dtype=torch.int64)[:, None]
    opt = torch.optim.Adam(net.parameters(), lr=2e-3, weight_decay=1e-4)
    gen = torch.Generator().manual_seed(seed)
    batch = 1024
    loss_value = 0.0
    for epoch in range(epochs):
        order = torch.randperm(len(X), generator=gen)
        total, count = 0.0, 0
        for lo in range(0, len(X), batch):
            idx = order[lo : lo + batch]
            pred = net(X[idx])
            pred = pred - pred.gather(1, Kp[idx])
            loss = (((pred - A[idx]) ** 2) * M[idx]).sum() / M[idx].sum().clamp(min=1.0)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += float(loss.detach()) * len(idx)
            count += len(idx)
        loss_value = total / max(count, 1)
        if on_epoch is not None:
            on_epoch(epoch, loss_value)
    return loss_value


# ------------------------------------------------------------------------------------ the run
@dataclass
class Settings:
    """What a training run does; recorded in its folder and in the model's header."""

    iterations: int = 4
    games: int = 3000  # teacher games per iteration, spread over the training tables
    samples: int = 8  # the teacher's hidden orders sampled per option
    hidden: int = 32
    epochs: int = 12
    eval_games: int = 2000  # deals per evaluation table
    seed: int = 0
    components_sha256: str = ""
    tables: list = field(default_factory=list)  # [(lineup, level), ...] the teacher plays
    eval_tables: list = field(default_factory=list)  # [(lineup, level), ...] the comparisons use
    command: str = ""


def training_tables(rng: np.random.Generator, count: int, held_out: Sequence[tuple[str, ...]] = ()) -> list:
    """`count` (line-up, level) pairs drawn with weights on team size and level, seat order
    random, none of them a held-out line-up (as a set) so the evaluation can tell whether the
    model plays line-ups it never saw."""
    from simcore.codes import SAMURAI

    held = {frozenset(h) for h in held_out}
    sizes, sw = zip(*SIZE_WEIGHTS.items())
    levels, lw = zip(*LEVEL_WEIGHTS.items())
    out = []
    while len(out) < count:
        n = int(rng.choice(sizes, p=np.array(sw) / sum(sw)))
        lineup = tuple(str(s) for s in rng.permutation(SAMURAI)[:n])
        if frozenset(lineup) in held:
            continue
        out.append((lineup, str(rng.choice(levels, p=np.array(lw) / sum(lw)))))
    return out


class Folder:
    """A training run's folder: settings.json, one folder per iteration (labels.npz, model.npz,
    eval.json), report files, and the final model.npz. A step is done when its file exists."""

    def __init__(self, path: Path):
        self.path = Path(path)

    def iteration(self, k: int) -> Path:
        return self.path / f"iteration-{k}"

    def model(self, k: int) -> Path:
        """The model iteration k plays over (iteration 0: keeper's own answers)."""
        return self.path / "iteration-0" / "start.npz" if k == 0 else self.iteration(k - 1) / "model.npz"

    def write_json(self, name: Path, data) -> None:
        tmp = name.with_name(f".{name.name}.tmp")
        tmp.write_text(json.dumps(data, indent=1, sort_keys=True))
        tmp.replace(name)


def header_for(settings: Settings, k: int, positions: int, losses: dict, history: list) -> dict:
    from reports.summary import kiai_version

    return {
        "architecture": architecture(settings.hidden),
        "positions": positions,
        "teacher": f"lookahead, weighing every question as asked (decisions=1), {settings.samples} samples, "
                   f"over the previous model (iteration 0: over keeper); {k + 1} iteration(s) of expert iteration",
        "seeds": [settings.seed],
        "components_sha256": settings.components_sha256,
        "kiai_version": kiai_version(),
        "date": datetime.date.today().isoformat(),
        "training": {"settings": asdict(settings), "iteration": k, "loss": losses, "history": history},
    }


def copy_model(src: Path, dst: Path) -> None:
    tmp = dst.with_name(f".{dst.name}.tmp")
    shutil.copyfile(src, tmp)
    tmp.replace(dst)


__all__ = ["Folder", "Settings", "TrainError", "copy_model", "fit", "header_for", "keeper_model", "save", "split",
           "training_tables", "MAX_HIDDEN"]
