"""Training `learned` (kiai train learned): expert iteration on labels from the lookahead.

Each iteration
1. plays games with the teacher: the lookahead weighing every question as it is asked
   (strategies.lookahead, `decisions` 1) over the current model (iteration 0: over keeper);
   each weighed question becomes a label: its features and what each option was worth by
   rollouts (strategies.run.games.label_games);
2. fits the two networks (strategies.nets.modelfile) to all labels so far: for each question, the
   network's scores of the legal options are regressed on their rollout values, both taken
   relative to keeper's answer (what matters is which option is better); with `fits`
   above 1, several fits from different seeds play the same deals and the best is kept;
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
import shutil
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from kiai.outputs import atomic_write
from kiai.simcore.questions import Q_CARD
from kiai.strategies.nets.features import N_ACTION, N_CARD, N_FEATURES, NAMES
from kiai.strategies.nets.modelfile import HEADS, LEARNED, MAX_HIDDEN, MAX_MEMBERS, load, made_for_header, save, shapes
from kiai.states import load_json
from kiai.training.common import (EVAL_TABLES, KEEP_OUT, Stages, TrainError, read_settings, require, seed_of,
                                  write_json, write_npy)

LEVEL_WEIGHTS = {"easy": 1, "normal": 2, "hard": 1, "heroic": 1}
SIZE_WEIGHTS = {2: 1, 3: 3, 4: 4, 5: 3, 6: 1, 7: 1}  # team sizes: the analyser's usual tables weigh most


def keeper_model() -> tuple[dict, dict]:
    """Iteration 0: networks that score every answer 0 above keeper's, so `learned` never
    leaves keeper's answer and plays exactly as keeper does."""
    hidden = 8
    arrays = {name: np.zeros(shape, dtype=np.float32) for name, shape in shapes(hidden).items()}
    header = {"architecture": architecture(hidden), "positions": 0,
              "teacher": "none: keeper's own answers (iteration 0)", "seeds": []}
    return arrays, header


def architecture(hidden: int) -> dict:
    return {"kind": "mlp", "layers": "features -> hidden (ReLU) -> hidden (ReLU) -> slots", "hidden": hidden, "inputs": N_FEATURES,
            "heads": dict(HEADS)}


# ------------------------------------------------------------------------------------ fitting
def split(rows: np.ndarray) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Label rows (strategies.lookahead._label) by head: (features, slot values with NaN where
    the slot was not an option). The row's last column, the slot the lookahead chose, is not
    fitted: the values say more than the choice."""
    q = rows[:, 0].astype(int)
    x = rows[:, 1 : 1 + N_FEATURES]
    v = rows[:, 1 + N_FEATURES : 1 + N_FEATURES + N_ACTION]
    card = q == Q_CARD
    return {"action": (x[~card], v[~card, :N_ACTION]), "card": (x[card], v[card, :N_CARD])}


def fit(rows: np.ndarray, hidden: int, epochs: int, seed: int, on_epoch: Callable[[str, int, float], None] | None = None,
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
    for h, (head, (x, v)) in enumerate(split(rows).items()):
        slots = v.shape[1]
        mean = x.mean(axis=0) if len(x) else np.zeros(N_FEATURES)
        scale = x.std(axis=0) if len(x) else np.ones(N_FEATURES)
        scale = np.where(scale > 1e-6, scale, 1.0)
        net = torch.nn.Sequential(torch.nn.Linear(N_FEATURES, hidden), torch.nn.ReLU(), torch.nn.Linear(hidden, hidden),
                                  torch.nn.ReLU(), torch.nn.Linear(hidden, slots))
        keeper = x[:, first : first + slots].argmax(axis=1)
        if len(x):
            losses[head] = _train(net, (x - mean) / scale, v, keeper, epochs, seed + 1000 * h,
                                  (lambda e, loss, head=head: on_epoch(head, e, loss)) if on_epoch else None)
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
    learned leaves keeper's answer only for one scored `edge` above it (strategies.learned).
    The step size decays to 0 along a cosine: the targets are noisy (16 rollouts an answer),
    and a constant step leaves the weights wandering on that noise; the decay averages it out
    and, on the same labels, doubled what `learned` wins over keeper."""
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
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=max(1, epochs * ((len(X) + batch - 1) // batch)))
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
            schedule.step()
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

    iterations: int = 2
    games: int = 30_000  # teacher games per iteration, spread evenly over the training tables
    tables: int = 300  # training tables (line-up and level) drawn from the seed
    samples: int = 16  # the teacher's hidden orders sampled per option
    hidden: int = 16
    epochs: int = 10
    fits: int = 1  # networks fitted from different seeds; the one that plays best on `select_games` is kept
    select_games: int = 40_000  # deals over the training tables that choose among the fits
    eval_games: int = 4000  # deals per evaluation table for the models
    teacher_games: int = 300  # deals per evaluation table for the teacher (about 100 times slower)
    seed: int = 0
    members: int = 1  # the final model averages the networks of the best iteration and those before it
    components_sha256: str = ""
    eval_tables: list = field(default_factory=list)  # [[lineup, level], ...]

    def check(self) -> None:
        require(self, [(name, lo, None) for name, lo in (
            ("iterations", 1), ("games", 1), ("tables", 1), ("samples", 1), ("hidden", 1), ("epochs", 1), ("fits", 1),
            ("select_games", 1), ("eval_games", 1), ("teacher_games", 0))])
        if self.hidden > MAX_HIDDEN:
            raise TrainError(f"--hidden must be at most {MAX_HIDDEN}, got {self.hidden}")
        if self.samples > 64:
            raise TrainError(f"--samples must be at most 64, got {self.samples}")
        if self.tables > self.games:
            raise TrainError(f"--tables ({self.tables}) must not exceed --games ({self.games}): each table plays a game")
        if not 1 <= self.members <= MAX_MEMBERS:
            raise TrainError(f"--members must be 1 to {MAX_MEMBERS}, got {self.members}")
        if self.teacher_games > self.eval_games:
            raise TrainError(f"--teacher-games ({self.teacher_games}) must not exceed --eval-games ({self.eval_games})")


def training_tables(rng: np.random.Generator, count: int, held_out: Sequence[tuple[str, ...]] = ()) -> list:
    """`count` (line-up, level) pairs drawn with weights on team size and level, seat order
    random, none of them a held-out line-up (as a set) so the evaluation can tell whether the
    model plays line-ups it never saw."""
    from kiai.simcore.codes import SAMURAI

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
    """A training run's folder: settings.json, one folder per iteration (labels.npy,
    curve.json, model.npz, eval.json), the report (training.csv, curve.csv, training.png) and
    the best model, model.npz. A step is done when its file exists: a killed run resumes at
    the first missing one."""

    def __init__(self, path: Path):
        self.path = Path(path)

    def iteration(self, k: int) -> Path:
        return self.path / f"iteration-{k}"

    def model(self, k: int) -> Path:
        """The model iteration k's teacher plays over: the previous iteration's (for iteration
        0, keeper's own answers: start.npz, the zero model)."""
        return self.path / "start.npz" if k == 0 else self.iteration(k - 1) / "model.npz"

    def write_json(self, name: Path, data) -> None:
        write_json(name, data)

    def read_json(self, name: Path):
        return load_json(name.read_bytes(), name, "training state")


def header_for(settings: Settings, k: int, positions: int, losses: dict, command: str) -> dict:
    from kiai.simcore.version import kiai_version

    return {
        "architecture": architecture(settings.hidden),
        "positions": positions,
        "teacher": f"lookahead weighing every question as asked (decisions=1, samples={settings.samples}) over the "
                   f"previous model (iteration 0: over keeper); iteration {k} of expert iteration",
        "seeds": [settings.seed],
        "components_sha256": settings.components_sha256,
        "kiai_version": kiai_version(),
        "date": datetime.date.today().isoformat(),
        "training": {"command": command, "settings": asdict(settings), "iteration": k, "loss": losses},
    }


def _tables(settings: Settings) -> list:
    rng = np.random.default_rng([settings.seed, 0x7A1])
    return training_tables(rng, settings.tables, held_out=[t[0] for t in settings.eval_tables])


def _configs(lineup, level, components, strategy: str, model: Path | None, params: dict | None = None):
    from kiai.strategies.run.config import GameConfig

    return GameConfig(tuple(lineup), level, strategy, params=params or {}, components=components,
                      model=str(model) if model is not None else None)


def teacher(settings: Settings, lineup, level, components, model: Path, k: int):
    """The lookahead weighing each question, over keeper (iteration 0) or the model `model`."""
    from kiai.strategies.lookahead import BASES

    base = "keeper" if k == 0 else "learned"
    return _configs(lineup, level, components, "lookahead",
                    model if base == "learned" else None,
                    {"decisions": 1, "samples": settings.samples, "base": BASES.index(base)})


def label(folder: Folder, settings: Settings, k: int, components, stages: Stages) -> np.ndarray:
    """Step 1: the teacher plays `games` games over the training tables; its weighed questions
    are the labels (iteration-k/labels.npy)."""
    from kiai.strategies.run.games import label_games

    path = folder.iteration(k) / "labels.npy"
    if path.exists():
        return np.load(path, mmap_mode="r")
    tables = _tables(settings)
    per = [settings.games // len(tables) + (i < settings.games % len(tables)) for i in range(len(tables))]
    stages.stage(f"iteration {k}: teacher games", settings.games)
    parts, first = [], 0
    for (lineup, level), n in zip(tables, per):
        _, rows = label_games(teacher(settings, lineup, level, components, folder.model(k), k), n,
                              seed=_seed(settings, k, 1), game_offset=first)
        parts.append(rows)
        first += n
        stages.advance(n)
    rows = np.concatenate(parts)
    path.parent.mkdir(exist_ok=True)
    write_npy(path, rows)
    return rows


def _seed(settings: Settings, k: int, step: int) -> int:
    return seed_of(settings.seed, k, step)


def learn(folder: Folder, settings: Settings, k: int, stages: Stages, command: str, components=None) -> dict:
    """Step 2: fit the networks to the labels of every iteration so far (iteration-k/model.npz).
    With `fits` above 1, that many fits from different seeds play the same deals of the training
    tables and the one that wins most is kept: fits of the same labels differ by up to 0.7 points
    of win rate (the decisions turn on small differences of noisy values), and which plays best
    shows only in play."""
    path = folder.iteration(k) / "model.npz"
    curve_path = folder.iteration(k) / "curve.json"
    if path.exists() and curve_path.exists():
        return folder.read_json(curve_path)
    rows = np.concatenate([np.load(folder.iteration(j) / "labels.npy") for j in range(k + 1)])
    stages.stage(f"iteration {k}: fitting {len(rows):,} positions" + (f", {settings.fits} fits" if settings.fits > 1 else ""),
                 2 * settings.epochs * settings.fits, unit="epochs")
    fits = []
    for f in range(settings.fits):
        curve = []

        def on_epoch(head, epoch, loss, curve=curve):
            curve.append({"iteration": k, "head": head, "epoch": epoch + 1, "loss": loss})
            stages.advance(1)

        arrays, losses = fit(rows, settings.hidden, settings.epochs, _seed(settings, k, 2) + f, on_epoch=on_epoch,
                             threads=_threads())
        fits.append((arrays, losses, curve))
    header = header_for(settings, k, len(rows), fits[0][1], command)
    if components is not None:  # which component data the model reads (simcore.components.read_data)
        header.update(made_for_header(components))
    best = 0
    if settings.fits > 1:
        wins = select(folder, settings, k, [a for a, _, _ in fits], header, components, stages)
        best = int(np.argmax(wins))
        stages.note(f"iteration {k}: the fits won {', '.join(f'{w:,}' for w in wins)} of {settings.select_games:,} "
                    f"deals; keeping fit {best}")
        header["training"]["selection"] = {"games": settings.select_games, "wins": wins, "kept": best}
    arrays, losses, curve = fits[best]
    header["training"]["loss"] = losses
    save(path, arrays, header, LEARNED)
    folder.write_json(curve_path, curve)
    return curve


def select(folder: Folder, settings: Settings, k: int, candidates: list, header: dict, components, stages: Stages) -> list:
    """Wins of each candidate model on the same `select_games` deals spread over the training
    tables (never the evaluation's, which stay a fair test of the kept model)."""
    from kiai.simcore.results import O_OUTCOME
    from kiai.strategies.run.games import run_games

    tables = _tables(settings)
    per = [settings.select_games // len(tables) + (i < settings.select_games % len(tables)) for i in range(len(tables))]
    seed = _seed(settings, k, 4)
    stages.stage(f"iteration {k}: choosing among {len(candidates)} fits", len(candidates) * settings.select_games)
    wins = []
    for f, arrays in enumerate(candidates):
        path = folder.iteration(k) / f".fit-{f}.npz"
        save(path, arrays, header, LEARNED)
        won, first = 0, 0
        for (lineup, level), n in zip(tables, per):
            if n:
                out = run_games(_configs(lineup, level, components, "learned", path), n, seed, game_offset=first)
                won += int((out[:, O_OUTCOME] == 0).sum())
            first += n
            stages.advance(n)
        path.unlink()
        wins.append(won)
    return wins


def _threads() -> int:
    from kiai.strategies.run.games import set_threads

    return set_threads(None)


def evaluate(folder: Folder, settings: Settings, k: int, components, stages: Stages) -> dict:
    """Step 3: the new model, the previous one and the teacher on the same deals of every
    evaluation table (iteration-k/eval.json); the teacher on the first `teacher_games` only."""
    from kiai.simcore.stats import paired_test, proportion_ci
    from kiai.simcore.results import O_OUTCOME
    from kiai.strategies.run.games import run_games

    path = folder.iteration(k) / "eval.json"
    if path.exists():
        return folder.read_json(path)
    seed = _seed(settings, 0, 3)  # every iteration on the same deals
    arms = {"new": ("learned", folder.iteration(k) / "model.npz"),
            "previous": ("keeper", None) if k == 0 else ("learned", folder.model(k))}
    n_tables = len(settings.eval_tables)
    stages.stage(f"iteration {k}: evaluation", n_tables * (2 * settings.eval_games + settings.teacher_games))
    won = {name: [] for name in (*arms, "teacher")}
    tables = []
    for lineup, level in settings.eval_tables:
        row = {"lineup": ",".join(lineup), "level": level}
        for name, (strategy, model) in arms.items():
            w = run_games(_configs(lineup, level, components, strategy, model), settings.eval_games, seed)[:, O_OUTCOME] == 0
            won[name].append(w)
            row[name] = int(w.sum())
            stages.advance(settings.eval_games)
        if settings.teacher_games:
            w = run_games(teacher(settings, lineup, level, components, folder.model(k), k), settings.teacher_games,
                          seed)[:, O_OUTCOME] == 0
            won["teacher"].append(w)
            row["teacher"] = int(w.sum())
            stages.advance(settings.teacher_games)
        tables.append(row)
    doc = {"iteration": k, "games": settings.eval_games, "teacher_games": settings.teacher_games, "tables": tables}
    for name, parts in won.items():
        if parts:
            w = np.concatenate(parts)
            lo, hi, method = proportion_ci(int(w.sum()), len(w))
            doc[name] = {"wins": int(w.sum()), "games": len(w), "win_rate": float(w.mean()), "ci95": [lo, hi]}
    new, prev = np.concatenate(won["new"]), np.concatenate(won["previous"])
    doc["new_vs_previous"] = paired_test(new, prev)
    if settings.teacher_games:
        head = np.concatenate([w[: settings.teacher_games] for w in won["new"]])
        doc["new_vs_teacher"] = paired_test(head, np.concatenate(won["teacher"]))
    folder.write_json(path, doc)
    return doc


def train(folder: Folder, settings: Settings, components, stages: Stages, command: str = "") -> dict:
    """The whole run, resumed from whatever the folder holds: each iteration labels, fits and
    evaluates; it goes on while the new model wins more of the evaluation deals than the
    previous one did (at most `iterations`). The best model is copied to folder/model.npz.
    Returns {"best": k, "history": [eval docs]}."""
    folder.path.mkdir(parents=True, exist_ok=True)
    settings_path = folder.path / "settings.json"
    mine = asdict(settings)
    mine["eval_tables"] = [[list(t[0]), t[1]] for t in settings.eval_tables]
    if settings_path.exists():
        theirs = read_settings(settings_path)
        # --iterations is a limit and --members says what the final model is made of, neither
        # part of what an iteration is: a run may be cut short, extended or finished otherwise
        # by running it again with other values
        changed = sorted(k for k in set(mine) | set(theirs)
                         if k not in ("iterations", "members") and mine.get(k) != theirs.get(k))
        if changed:
            raise TrainError(f"{folder.path} holds a run with other settings ({', '.join(changed)}); "
                             "give the same settings to resume it, or another folder")
    folder.write_json(settings_path, mine)
    if not folder.model(0).exists():
        arrays, header = keeper_model()
        made = made_for_header(components) if components is not None else {"components_sha256": settings.components_sha256}
        save(folder.model(0), arrays, {**header, **made}, LEARNED)
    history, best = [], None
    for k in range(settings.iterations):
        label(folder, settings, k, components, stages)
        learn(folder, settings, k, stages, command, components)
        doc = evaluate(folder, settings, k, components, stages)
        history.append(doc)
        gained = doc["new"]["wins"] > doc["previous"]["wins"]
        stages.note(f"iteration {k}: learned {doc['new']['win_rate']:.2%}, previous {doc['previous']['win_rate']:.2%}"
                    + (f", teacher {doc['teacher']['win_rate']:.2%} (on {doc['teacher']['games']:,} deals)"
                       if "teacher" in doc else "")
                    + ("" if gained else "; no gain, stopping"))
        if not gained:
            break
        best = k
    final = folder.path / "model.npz"
    if best is None:
        copy_model(folder.model(0), final)
    else:  # the best iteration's model, its header telling how it played on the evaluation deals
        m = load(folder.iteration(best) / "model.npz", LEARNED)
        doc = history[best]
        evaluation = {"tables": doc["tables"], "games": doc["games"], "teacher_games": doc["teacher_games"],
                      **{k: doc[k] for k in ("new", "previous", "teacher", "new_vs_previous", "new_vs_teacher") if k in doc}}
        header = {k: v for k, v in m.header.items() if k not in KEEP_OUT}
        save(final, m.arrays, {**header, "evaluation": evaluation}, LEARNED)
        if settings.members > 1 and best > 0:
            ensemble = finish_ensemble(folder, settings, best, components, stages, command)
            return {"best": best, "history": history, "ensemble": ensemble}
    return {"best": best, "history": history}


def finish_ensemble(folder: Folder, settings: Settings, best: int, components, stages: Stages, command: str = "") -> dict:
    """The ensemble of the best iteration's model and the `members` - 1 before it against the
    best model alone, on the evaluation deals (ensemble.json, kept for a rerun). The ensemble
    replaces folder/model.npz when it wins more of them; its header then says of which
    iterations it is made and how the two played."""
    from kiai.simcore.stats import paired_test, proportion_ci
    from kiai.simcore.results import O_OUTCOME
    from kiai.strategies.nets.modelfile import ensemble, load
    from kiai.strategies.run.games import run_games

    its = list(range(max(0, best - settings.members + 1), best + 1))
    single = folder.iteration(best) / "model.npz"
    members = [load(folder.iteration(k) / "model.npz", LEARNED) for k in its]  # the best last
    header = {k: v for k, v in members[-1].header.items() if k not in KEEP_OUT}
    arrays, header = ensemble(members, {**header, "ensemble_of_iterations": its, "ensemble_command": command})
    path = folder.path / "ensemble.json"
    doc = folder.read_json(path) if path.exists() else None
    if doc is None or doc["iterations"] != its:
        candidate = folder.path / ".ensemble.npz"
        save(candidate, arrays, header, LEARNED)
        seed = _seed(settings, 0, 3)  # the evaluation's deals
        stages.stage(f"ensemble of iterations {', '.join(map(str, its))}: evaluation",
                     2 * len(settings.eval_tables) * settings.eval_games)
        won = {"ensemble": [], "best": []}
        for lineup, level in settings.eval_tables:
            for name, model in (("ensemble", candidate), ("best", single)):
                out = run_games(_configs(lineup, level, components, "learned", model), settings.eval_games, seed)
                won[name].append(out[:, O_OUTCOME] == 0)
                stages.advance(settings.eval_games)
        candidate.unlink()
        doc = {"iterations": its, "best": best, "games": settings.eval_games}
        for name, parts in won.items():
            w = np.concatenate(parts)
            lo, hi, _ = proportion_ci(int(w.sum()), len(w))
            doc[name] = {"wins": int(w.sum()), "games": len(w), "win_rate": float(w.mean()), "ci95": [lo, hi]}
        doc["ensemble_vs_best"] = paired_test(np.concatenate(won["ensemble"]), np.concatenate(won["best"]))
        doc["kept"] = doc["ensemble"]["wins"] > doc["best"]["wins"]
        folder.write_json(path, doc)
    if doc["kept"]:
        evaluation = {k: doc[k] for k in ("iterations", "games", "ensemble", "best", "ensemble_vs_best")}
        save(folder.path / "model.npz", arrays, {**header, "evaluation": evaluation}, LEARNED)
    stages.note(f"ensemble of iterations {', '.join(map(str, its))}: {doc['ensemble']['win_rate']:.2%} against "
                f"iteration {best}'s {doc['best']['win_rate']:.2%} (p = {doc['ensemble_vs_best']['pvalue']:.2g}); "
                + ("model.npz is the ensemble" if doc["kept"] else f"model.npz stays iteration {best}'s"))
    return doc


def copy_model(src: Path, dst: Path) -> None:
    atomic_write(dst, lambda tmp: shutil.copyfile(src, tmp))


__all__ = ["EVAL_TABLES", "Folder", "Settings", "Stages", "TrainError", "copy_model", "evaluate", "finish_ensemble", "fit",
           "header_for", "keeper_model", "label", "learn", "split", "train", "training_tables"]
