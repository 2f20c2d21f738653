"""Expert iteration for selfplay's value (`kiai train-value --player selfplay --teacher judge`): the
strong tier teaches the default.

The expert, `judge` as it plays by default (or the lookahead over learned that weighs every
question), plays games of the run's training tables and weighs every legal answer of each
question it meets (judge: two turns on over the value of the table, exact over a Fight's next
card; the lookahead: rollouts to the round's end). As a teacher (what a run collects: TEACH,
strategies.helpers.collect) it writes, for each answer, the afterstate selfplay reads and its own
estimate of that answer (strategies.nets.afterstate.teach_rows). The apprentice,
selfplay's value, is then fitted (training.value.fit) to every answer of those questions, not
only to the one played.

The positions come from the expert's own games: the states a stronger apprentice heads for, and
each question's rows cover every legal answer, so the afterstates of the apprentice's own
mistakes are labelled too (the drift DAgger guards against is one answer deep here).

The targets. The expert's estimates run low on one family's tables (its value of the table was
learned on all of them), and their differences carry the expert's knowledge. So the target of
answer a, in logits, mixes the previous value's own view of a with the expert's view placed on
the previous value's level:

    (1 - share) logit V(a) + share (logit V(c) + slope (logit E(a) - logit E(c)))

with V the value the iteration starts from (trained on game outcomes: the level stays a chance to
win), E the expert's estimates, c the answer the expert gave, and `slope` the calibration of the
expert's logits against its games' outcomes (calibration). A share of 1 copies the expert's
differences, 0 keeps the value as it was; the pilot (docs/training.md) played best at one half.
"""

from __future__ import annotations

import datetime
import json
from pathlib import Path

import numpy as np

from kiai.outputs import atomic_write
from kiai.strategies.helpers.collect import TEACH
from kiai.strategies.nets import modelfile as M
from kiai.strategies.registry import RACED_LOOKAHEAD
from kiai.strategies.nets.afterstate import CHOSEN_BEST, CHOSEN_PLAYED, T_CHOSEN, T_ESTIMATE, T_QUESTION, T_RANK, TEACH_WIDTH
from kiai.training import value as V
from kiai.training import within as W
from kiai.training.common import TEACHERS, TrainError, save_to

CHUNK = 200  # the expert's games per batch (its rows fill a buffer sized for them)
PER_GAME = 250  # room for a game's rows per samurai, every answer of every weighed question: about twice a 4-samurai game's
FEATURES = T_ESTIMATE + 1  # a row's first feature (the game's index is column 0)


class TeacherError(TrainError):
    """Bad settings, or labels that did not fit their buffer; one line."""


def expert_params(teacher: str = "judge") -> dict:
    """The expert's parameters as it teaches (TEACHERS), writing its rows."""
    return dict(TEACHERS[teacher])


def collect_labels(config, games: int, seed: int, game_offset: int = 0, per_game: int | None = None) -> dict:
    """Play games of config (an expert: judge, or the lookahead weighing every question), CHUNK at a
    time, collecting every weighed answer's afterstate with the expert's value (TEACH). Returns the
    rows' columns
    (strategies.nets.afterstate.T_*) by name, `x` the afterstates' features, `won` whether each row's
    game was won, and `out` the per-game result rows."""

    per_game = per_game or PER_GAME * len(config.samurai)
    rows, won, game, out = V.collect_afterstates(config, games, seed, game_offset, per_game, TEACH_WIDTH, CHUNK,
                                                what=TEACH)
    col = {name: rows[:, k - 1] for name, k in (("question", T_QUESTION), ("rank", T_RANK), ("chosen", T_CHOSEN),
                                                  ("estimate", T_ESTIMATE))}
    bits = col["chosen"].astype(np.int64)
    return {"game": game, "question": col["question"].astype(np.int64), "rank": col["rank"].astype(np.int64),
            "chosen": (bits & int(CHOSEN_BEST)) > 0, "played": (bits & int(CHOSEN_PLAYED)) > 0, "estimate": col["estimate"].astype(np.float64), "x": rows[:, FEATURES - 1:],
            "won": won, "out": out}


def question_ids(rank: np.ndarray) -> np.ndarray:
    """Each row's question, counted from 0: a question's rows come together, its base's answer
    (rank 0) first."""
    return np.cumsum(rank == 0) - 1


def logit(p: np.ndarray) -> np.ndarray:
    p = np.clip(p, 1e-4, 1 - 1e-4)  # an estimate of 0 or 1: the game ended within the rollouts
    return np.log(p / (1 - p))


def calibration(estimate: np.ndarray, won: np.ndarray, chosen: np.ndarray) -> tuple[float, float]:
    """(a, b) of the logistic map won ~ a + b logit(estimate), fitted (statsmodels) on the answers
    the expert gave, whose games show what they were worth (Platt's scaling)."""
    import statsmodels.api as sm

    inner = chosen & (estimate > 0) & (estimate < 1)
    X = sm.add_constant(logit(estimate[inner]), has_constant="add")
    a, b = sm.Logit(won[inner].astype(np.float64), X).fit(disp=0).params
    return float(a), float(b)


def targets(estimate: np.ndarray, rank: np.ndarray, chosen: np.ndarray, own: np.ndarray, share: float,
            slope: float = 1.0) -> np.ndarray:
    """Each answer's target (the module's docstring): in logits, (1 - share) of the value's own
    `own` and `share` of the expert's differences from the answer it gave, on the value's level
    there."""
    q = question_ids(rank)
    given = np.flatnonzero(chosen)
    at = np.empty(q[-1] + 1 if len(q) else 0, dtype=np.int64)
    at[q[given]] = given  # each question's answer given
    lv, le = logit(own), logit(estimate)
    z = (1 - share) * lv + share * (lv[at[q]] + slope * (le - le[at[q]]))
    return (1.0 / (1.0 + np.exp(-z))).astype(np.float32)


# ------------------------------------------------------------------------------------ the run
# each teacher of `--loss regret`, following the default (strategies.helpers.follow): every answer on
# the same samples, no race (a raced answer that left is scored by its mean: weaker labels); the
# lookahead as the strongest player of 5 to 7 samurai plays (registry), but for the race; at 5 Easy, 32
# samples label hundreds of questions a second on 2 cores, and past them a second labelling agrees
# little more often (docs/training.md)
FOLLOWS = {"judge": {"race": 0, "samples": 48, "follow": 1},
           "lookahead": {**RACED_LOOKAHEAD[1], "race": 0, "samples": 32, "follow": 1}}
FOLLOW = FOLLOWS["judge"]


def teacher_params(settings) -> dict:
    """The expert's parameters as it labels: as it teaches (TEACHERS), or following the default
    with `--loss regret` (FOLLOWS); --teacher-samples' samples per answer where given."""
    params = dict(FOLLOWS[settings.teacher]) if settings.loss == "regret" else expert_params(settings.teacher)
    if settings.teacher_samples:
        params["samples"] = settings.teacher_samples
    return params


def label(path: Path, settings, components, stages, it: int, follows: str | None = None) -> None:
    """Iteration `it`'s labels: the expert's games on the iteration's training tables, a share
    `keep` of its questions (every answer of each), saved to path. With `--loss regret` the games
    are the default's, playing the value file `follows` (the iteration's start), and the teacher
    weighs every answer of its questions (FOLLOWS: DAgger)."""
    from kiai.strategies.run.config import GameConfig
    from kiai.strategies.run.games import following

    within = settings.loss == "regret"
    drawn = V.tables(settings, it)
    rng = np.random.default_rng([settings.deals, 2, it])
    played = "the default's games" if within else "labels every answer"
    stages.stage(f"iteration {it}: {settings.teacher} {played}", len(drawn) * settings.games)
    keys = ("x", "estimate", "rank", "chosen", "won")
    parts = {k: [] for k in keys}
    params = teacher_params(settings)
    for t, (seating, level) in enumerate(drawn):
        cfg = GameConfig(seating, level, settings.teacher, params, components=components)
        with following(follows if within else None):
            lab = collect_labels(cfg, settings.games, settings.deals + 1_000_003 * it + t)
        q = question_ids(lab["rank"])
        keep = (rng.random(q[-1] + 1) < settings.keep)[q]
        for k in keys:
            parts[k].append(lab[k][keep])  # a copy: the rows themselves can go
        del lab
        stages.advance(settings.games)
    # renamed once whole: a killed run, or a full disk, leaves no half a file
    atomic_write(path, lambda tmp: save_to(tmp, np.savez, **{k: np.concatenate(v) for k, v in parts.items()}))


def load_labels(folder: Path, it: int) -> dict:
    """This iteration's labels and the one before it's."""
    parts = [it] if it == 0 else [it - 1, it]
    out = {}
    for k in parts:
        with np.load(folder / f"positions-{k}.npz") as z:
            for name in z.files:
                out.setdefault(name, []).append(z[name])
    return {name: np.concatenate(v) for name, v in out.items()}


def fit_iteration(folder: Path, settings, previous, stages, threads: int, it: int) -> tuple[dict, dict]:
    """Fit iteration `it`'s value from the previous one (its weights, and its level in the
    targets); the arrays and what the header says of the fit."""

    d = load_labels(folder, it)
    own = V.predict(previous.arrays, d["x"])
    within = settings.loss == "regret"
    # the answers given carry their games' outcomes only where the expert played them
    a, b = (None, None) if within else calibration(d["estimate"], d["won"], d["chosen"])
    stages.stage(f"iteration {it}: fit on {len(own):,} answers", settings.epochs, unit="epochs")
    curve = []

    def on_epoch(e, loss):
        curve.append({"iteration": it, "head": "value", "epoch": e, "loss": loss})
        stages.advance()
        stages.note(f"epoch {e}: loss {loss:.5f}")

    if within:
        q = question_ids(d["rank"])
        arrays = W.fit(d["x"], q, W.regret(d["estimate"], q), logit(own), dict(previous.arrays), epochs=settings.epochs,
                       tau=settings.tau, anchor=settings.anchor, seed=settings.deals + it, threads=threads,
                       on_epoch=on_epoch)
    else:
        y = targets(d["estimate"], d["rank"], d["chosen"], own, settings.share, b)
        arrays = V.fit(d["x"], y, settings, seed=settings.deals + it, threads=threads, on_epoch=on_epoch,
                       init=dict(previous.arrays))
    (folder / f"curve-{it}.json").write_text(json.dumps(curve))
    questions = int(d["chosen"].sum())
    return arrays, {"positions": len(own), "questions": questions, **({} if within else {"calibration": [a, b]}),
                    "expert_left_base": float(np.mean(d["rank"][d["chosen"]] != 0))}


def method(settings) -> str:
    """How a run's value was made, for its header."""
    if settings.loss == "regret":
        return (f"expert iteration on the default's own positions (DAgger): {settings.teacher} weighs every answer "
                f"of the questions the default meets playing the previous value "
                f"({teacher_params(settings)['samples']} shared samples), "
                f"and the value learns the expected regret of a softmax over each question's answers "
                f"(temperature {settings.tau:g}, anchor {settings.anchor:g}), fitted from the previous value's weights")
    return (f"expert iteration: {settings.teacher}'s estimates of every answer of its games' questions, "
            f"a share {settings.share:g} of its differences in logits over the previous value "
            "(iteration 0: the value settings.start names), fitted from that value's weights")


def train(folder: Path, settings, components, stages, command: str, threads: int, mine: dict, start: Path) -> None:
    """The iterations of a run with a teacher (training.value.train_value hands them here): each labels,
    fits and saves value-I.npz; a step already in the folder is kept (a killed run resumes)."""
    from kiai.simcore.version import kiai_version
    from kiai.strategies.selfplay import value_params

    first = M.load(start, M.AFTER, components)
    if (first.arrays["b1"].shape[0], first.arrays["b2"].shape[0]) != (settings.h1, settings.h2):
        raise TeacherError(f"--start's value has layers of {first.arrays['b1'].shape[0]} and "
                           f"{first.arrays['b2'].shape[0]} units: the run fits from its weights, give those widths")
    previous = first
    for it in range(settings.iterations):
        positions, value = folder / f"positions-{it}.npz", folder / f"value-{it}.npz"
        if value.exists():
            previous = M.load(value, M.AFTER)
            continue
        if not positions.exists():
            label(positions, settings, components, stages, it, follows=str(previous.path))
        arrays, made = fit_iteration(folder, settings, previous, stages, threads, it)
        M.save(value, arrays, {
            "architecture": {"kind": "mlp", "layers": "features -> h1 (ReLU) -> h2 (ReLU) -> logit",
                             "h1": settings.h1, "h2": settings.h2},
            "iteration": it, "games": settings.tables * settings.games * (it + 1), **made,
            "method": method(settings),
            "settings": mine, **M.made_for_header(components), "kiai_version": kiai_version(),
            "date": datetime.date.today().isoformat(), "command": command,
            # it plays as the value it started from did (over whose answers, its edge and doubt)
            "play": value_params(first),
            "started_from": {k: v for k, v in first.header.items() if k not in ("format", "feature_schema")}},
               M.AFTER)
        previous = M.load(value, M.AFTER)
        (folder / f"positions-{it - 1}.npz").unlink(missing_ok=True)  # no later iteration fits on it
