"""Learning a value by self-play (`kiai train value`): the value of the table at a turn's start
that `judge` plays by (strategies.nets.table_value), or the value of an answer's afterstate that
`selfplay` plays by (strategies.nets.afterstate), as the setting `player` says.

For judge, iteration 0 plays `learned` and labels each position (the table at a turn's start)
with its game's outcome; each later iteration plays `judge` over the previous value. For
selfplay, iteration 0 plays selfplay over a value of zeros (keeper's answers) and labels the
afterstate of every answer it gives, a share of them given at random (`explore`); each later
iteration plays selfplay over the previous value. Past iteration 0 a position's label is its
TD(lambda) return: the outcome mixed with the previous value of the positions that followed it in
the same game, which has far less noise than the outcome alone. The value is then fitted
(logistic loss, PyTorch on the CPU) to the positions of this iteration and the one before it.

With a teacher (settings.teacher), the positions and their labels come from the expert instead
(training.teacher: expert iteration).

Every step is saved in the run's folder as it finishes (positions-I.npz, value-I.npz), so a killed
run resumes where it stopped; an iteration's positions are removed once no later iteration fits on
them. Every random choice comes from the seed.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from kiai.outputs import atomic_write
from kiai.simcore.codes import OUT_WIN, SAMURAI
from kiai.simcore.results import N_OUT, O_OUTCOME
from kiai.simcore.seatings import all_lineups
from kiai.strategies.base import VALUE_BASES as BASES
from kiai.strategies.base import WEIGHED
from kiai.strategies.helpers.collect import AFTERSTATES, TABLES, TABLES_BASE
from kiai.strategies.nets import modelfile as M
from kiai.training import families as F
from kiai.training.common import EVAL_TABLES, KEEP_OUT, TEACHERS, Stages, TrainError, read_settings, require, save_to

SIZES = (2, 3, 3, 4, 4, 4, 5, 5, 6, 7)  # team sizes drawn for training tables: the usual ones weigh most
LEVEL_DRAW = ("easy", "normal", "normal", "hard", "heroic")


LOOSE = ("iterations", "eval_games")  # settings a resumed run may change
EVAL_SEED = 31  # every iteration on the same deals
EVAL_ARMS = ("new", "previous", "learned", "lookahead")
PLAYERS = ("judge", "selfplay")  # whose value a run learns
LOSSES = ("share", "regret")  # what a value with a teacher learns (ValueSettings.loss)
CHUNK = 2000  # selfplay's games per batch while collecting (its rows fill a buffer sized for them)


@dataclass(frozen=True)
class ValueSettings:
    iterations: int = 3
    tables: int = 300
    games: int = 800  # per table and iteration
    keep: float = 0.1  # share of positions kept (neighbouring turns of a game say nearly the same)
    lam: float = 0.7
    samples: int = 2  # judge's samples per answer while it plays for the positions
    h1: int = 64
    h2: int = 32
    epochs: int = 6
    seed: int = 0
    # judge leaves the base's answer only for one whose tables are worth this much more while it
    # plays for the positions: each iteration's player stays near the last one, so the games keep
    # telling good tables from bad where a greedy step over a poor value would lose them all
    edge: float = 0.0
    start: str = ""  # sha256 of the value file iteration 0 starts from ("": learned's games)
    eval_games: int = 300  # per evaluation table and player, after each iteration (0: none)
    player: str = "judge"  # whose value: judge's (the table at a turn's start) or selfplay's (afterstates)
    explore: float = 0.05  # selfplay: share of the answers given at random while it plays for the positions
    base: str = "keeper"  # selfplay: whose answer stands unless the value finds one `edge` better (keeper, learned)
    questions: int = 7  # selfplay: which questions it weighs while it plays for the positions (its `weigh`, a bit-sum)
    table: str = ""  # "seating@level": train and evaluate on that one table only ("": tables drawn from the seed)
    family: str = ""  # "K@level": train on every seating of K samurai at that level (training.families)
    hold_out: int = 0  # with family: line-ups of it left out of training, drawn from the seed; the evaluation plays them
    # the seed of the games self-play plays, of the positions kept and of the fit (None: seed); the
    # held-out line-ups stay the seed's, so a family run continued from another (--start) keeps them
    # while it plays deals the run it continues never played
    deal_seed: int | None = None
    # expert iteration (training.teacher): the expert whose estimates of every answer selfplay's value
    # learns ("": self-play), and the share of the expert's differences between answers in the targets
    teacher: str = ""
    share: float = 0.5
    # with a teacher, what the value learns: "share" (targets mixing the teacher's values in, on its
    # games) or "regret" (training.within: each question's ranking, on the default's own games)
    loss: str = "share"
    tau: float = 0.05
    anchor: float = 0.1
    teacher_samples: int = 0  # the teacher's samples per answer (0: its own, training.teacher.teacher_params)

    @property
    def deals(self) -> int:
        return self.seed if self.deal_seed is None else self.deal_seed

    @property
    def kind(self):
        return M.AFTER if self.player == "selfplay" else M.TABLE

    def check(self) -> None:
        if self.player not in PLAYERS:
            raise TrainError(f"--player must be one of {', '.join(PLAYERS)}, got {self.player!r}")
        kind = self.kind
        require(self, (("iterations", 1, 50), ("tables", 1, 100_000), ("games", 1, 1_000_000), ("samples", 1, 64),
                       ("h1", 1, kind.max_h1), ("h2", 1, kind.max_h2), ("epochs", 1, 1000)))
        if not 0.0 < self.keep <= 1.0:
            raise TrainError(f"--keep must be in (0, 1], got {self.keep}")
        if not 0.0 <= self.lam <= 1.0:
            raise TrainError(f"--lambda must be in [0, 1], got {self.lam}")
        if not 0.0 <= self.edge < 1.0:
            raise TrainError(f"--edge must be in [0, 1), got {self.edge}")
        if not 0.0 <= self.explore <= 1.0:
            raise TrainError(f"--explore must be in [0, 1], got {self.explore}")
        if self.base not in BASES:
            raise TrainError(f"--base must be one of {', '.join(BASES)}, got {self.base!r}")
        if not 1 <= self.questions <= 7:
            raise TrainError(f"--weigh must name questions among {', '.join(WEIGHED)}, got {self.questions}")
        if self.questions != 7 and self.player != "selfplay":
            raise TrainError("--weigh is selfplay's: judge weighs every question")
        if not 0 <= self.eval_games <= 1_000_000:
            raise TrainError(f"--eval-games must be in [0, 1000000], got {self.eval_games}")
        if not 0 <= self.seed < 2**63:
            raise TrainError(f"--seed must be in [0, 2**63), got {self.seed}")
        if self.deal_seed is not None and not 0 <= self.deal_seed < 2**63:
            raise TrainError(f"--deal-seed must be in [0, 2**63), got {self.deal_seed}")
        if self.teacher:
            if self.teacher not in TEACHERS:
                raise TrainError(f"--teacher must be one of {', '.join(TEACHERS)}, got {self.teacher!r}")
            if self.player != "selfplay":
                raise TrainError("--teacher teaches selfplay's value: give --player selfplay")
            if not self.start:
                raise TrainError("--teacher improves a value: give --start FILE (or --size and -d of a "
                                      "family kiai ships a value for)")
        if not 0.0 <= self.share <= 1.0:
            raise TrainError(f"--share must be in [0, 1], got {self.share}")
        if self.loss not in LOSSES:
            raise TrainError(f"--loss must be one of {', '.join(LOSSES)}, got {self.loss!r}")
        if self.loss != "share" and not self.teacher:
            raise TrainError(f"--loss {self.loss} learns from a teacher: give --teacher judge or lookahead")
        require(self, (("teacher_samples", 0, 64),))
        if self.teacher_samples and not self.teacher:
            raise TrainError("--teacher-samples sets the teacher's samples per answer: give --teacher")
        if not 0.0 < self.tau <= 10.0:
            raise TrainError(f"--temperature must be in (0, 10], got {self.tau:g}")
        if not 0.0 <= self.anchor <= 100.0:
            raise TrainError(f"--anchor must be in [0, 100], got {self.anchor:g}")
        if self.family and self.table:
            raise TrainError("--size trains on a family of tables, --samurai on one: give one of them")
        if self.hold_out and not self.family:
            raise TrainError("--hold-out leaves line-ups of a family out: it needs --size")
        if self.family:
            size = F.parse(self.family)[0]
            lineups = len(all_lineups(size))
            if not 0 <= self.hold_out < lineups:
                raise TrainError(f"--hold-out must be in [0, {lineups - 1}] for {size} samurai "
                                      f"({lineups} line-ups), got {self.hold_out}")


def one_table(settings: ValueSettings) -> tuple[tuple[str, ...], str] | None:
    """The one table a run trains on (settings.table), or None."""
    if not settings.table:
        return None
    seating, level = settings.table.split("@")
    return tuple(seating.split(",")), level


def _family(settings: ValueSettings) -> F.Family | None:
    if not settings.family:
        return None
    size, level = F.parse(settings.family)
    return F.Family(size, level, settings.hold_out, settings.seed)


def eval_tables(settings: ValueSettings):
    """The tables each iteration is evaluated on: the run's one table; a family's held-out
    line-ups (else three of its seatings); else EVAL_TABLES."""
    one = one_table(settings)
    if one:
        return (one,)
    family = _family(settings)
    return family.eval_tables() if family else EVAL_TABLES


def tables(settings: ValueSettings, iteration: int = 0) -> list[tuple[tuple[str, ...], str]]:
    """The training tables (seating, level) of an iteration: --tables copies of the run's one
    table (each plays its own games); a family's seatings, each as often as the others (a new
    draw each iteration where they outnumber the tables); or drawn from the seed: 2 to 7
    samurai, every level."""
    one = one_table(settings)
    if one:
        return [one] * settings.tables
    family = _family(settings)
    if family:
        return family.tables(settings.tables, iteration)
    rng = np.random.default_rng([settings.seed, 1])
    out = []
    for _ in range(settings.tables):
        size = int(rng.choice(SIZES))
        out.append((tuple(str(s) for s in rng.permutation(SAMURAI)[:size]), LEVEL_DRAW[int(rng.integers(len(LEVEL_DRAW)))]))
    return out


def collect(config, games: int, seed: int, game_offset: int = 0, per_game: int = 200, what: int = TABLES):
    """Play games of config (judge), collecting the table at every turn's start (`what`: TABLES
    with judge playing, TABLES_BASE with its base): the features there, whether its game was
    won, its game's index, and the per-game result rows."""
    from kiai.strategies.judge import ROW_WIDTH
    from kiai.strategies.run.games import Collect, kernel_config, play_batch

    out = np.zeros((games, N_OUT), dtype=np.int32)
    hook = Collect(what, ROW_WIDTH, per_game)
    _, rows = play_batch(kernel_config(config, collect=hook), seed, game_offset, out, collect=hook)
    game = np.cumsum(rows[:, 0] == 0) - 1  # a game's first position is its turn 0
    if len(rows) == 0 or game[-1] != games - 1:
        raise TrainError("a game's positions overflowed their buffer")
    won = (out[game, O_OUTCOME] == OUT_WIN).astype(np.float32)
    return rows[:, 1:], won, game, out


def collect_afterstates(config, games: int, seed: int, game_offset: int = 0, per_game: int = 400, width: int = 0,
                        chunk: int = CHUNK, explore: float = 0.0, what: int = AFTERSTATES):
    """Play games of config, `chunk` at a time, collecting afterstates (`what`: AFTERSTATES,
    selfplay's own answers, `explore` of them at random): the features of the afterstate of every
    answer it weighed, whether its game was won, its game's index, and the per-game result rows.
    Other rows that start with their game's index (`width` floats each: a teacher's, TEACH,
    training.teacher) come back the same way, all but that index."""
    from kiai.strategies.run.games import Collect, kernel_config, play_batch
    from kiai.strategies.selfplay import ROW_WIDTH

    out = np.zeros((games, N_OUT), dtype=np.int32)
    hook = Collect(what, width or ROW_WIDTH, per_game, explore)
    cfgs = kernel_config(config, collect=hook)
    parts = []
    for lo in range(0, games, chunk):
        hi = min(games, lo + chunk)
        _, rows = play_batch(cfgs, seed, game_offset + lo, out[lo:hi], collect=hook)
        parts.append(rows)
    rows = np.concatenate(parts)
    game = rows[:, 0].astype(np.int64) - game_offset
    if len(rows) and (np.diff(game) < 0).any():
        raise TrainError("the positions came back out of game order")
    full = np.bincount(game, minlength=games)
    if len(rows) == 0 or (full == 0).any():
        raise TrainError("a game's positions overflowed their buffer")
    won = (out[game, O_OUTCOME] == OUT_WIN).astype(np.float32)
    return rows[:, 1:], won, game, out


def zero_value(settings: "ValueSettings") -> dict:
    """A value of zeros, in the shapes a value file of the run's kind holds: every answer is worth
    the same, so selfplay gives its base's answers."""

    dims = {"h1": settings.h1, "h2": settings.h2, "inputs": settings.kind.inputs}
    return {name: np.zeros(tuple(dims.get(d, d) for d in shape), np.float32) for name, shape in M.VALUE_SHAPES.items()}


def predict(arrays: dict, x: np.ndarray) -> np.ndarray:
    """The value of feature rows x (numpy; the same network judge computes in numba)."""
    h = np.maximum(x @ arrays["w1"].T + arrays["b1"], 0)
    h = np.maximum(h @ arrays["w2"].T + arrays["b2"], 0)
    z = (h @ arrays["w3"].T + arrays["b3"])[:, 0]
    return 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))


def td_returns(won: np.ndarray, game: np.ndarray, v: np.ndarray | None, lam: float) -> np.ndarray:
    """Each position's lambda-return, backwards within its game: G = (1 - lam) V(next) + lam G(next),
    the outcome at a game's last position (v None: the outcome everywhere)."""
    if v is None:
        return won.astype(np.float32)
    out = np.empty(len(won), dtype=np.float32)
    last = np.r_[game[1:] != game[:-1], True]
    g = 0.0
    for i in range(len(won) - 1, -1, -1):
        g = won[i] if last[i] else (1.0 - lam) * v[i + 1] + lam * g
        out[i] = g
    return out


def fit(x: np.ndarray, y: np.ndarray, settings: ValueSettings, seed: int, threads: int = 1,
        on_epoch: Callable[[int, float], None] | None = None, batch: int = 4096, lr: float = 3e-3,
        init: dict | None = None) -> dict:
    """Fit the network to targets y in [0, 1] (logistic loss); the arrays of a value file (strategies.nets.modelfile), with
    the input scaling folded into the first layer. x is scaled in place. `init`: a value's arrays
    (of settings' widths) to start from instead of random weights."""
    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    X, net, mean, scale = scaled_net(x, settings.h1, settings.h2, init)
    Y = torch.from_numpy(np.ascontiguousarray(y, dtype=np.float32))
    opt = torch.optim.Adam(net.parameters(), lr=lr)
    n = len(X)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, max(1, settings.epochs * -(-n // batch)))
    loss_fn = torch.nn.BCEWithLogitsLoss()
    gen = torch.Generator().manual_seed(seed)
    for e in range(settings.epochs):
        perm = torch.randperm(n, generator=gen)
        total = 0.0
        for b in range(0, n, batch):
            idx = perm[b : b + batch]
            opt.zero_grad()
            loss = loss_fn(net(X[idx])[:, 0], Y[idx])
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(idx)
        if on_epoch:
            on_epoch(e, total / max(n, 1))
    return folded_arrays(net, mean, scale)


def scaled_net(x: np.ndarray, h1: int, h2: int, init: dict | None = None):
    """The value's network over standardised inputs: (X, net, mean, scale), x scaled in place (in
    float32: millions of rows of 300 features) and X its tensor; `init`, a value's arrays, whose
    first layer reads unscaled features, starts the network as the same function."""
    import torch

    mean = x.mean(axis=0, dtype=np.float64)
    scale = x.std(axis=0, dtype=np.float64)
    scale = np.where(scale > 1e-6, scale, 1.0)
    x -= mean.astype(np.float32)
    x /= scale.astype(np.float32)
    net = torch.nn.Sequential(torch.nn.Linear(x.shape[1], h1), torch.nn.ReLU(), torch.nn.Linear(h1, h2),
                              torch.nn.ReLU(), torch.nn.Linear(h2, 1))
    if init is not None:  # unfold the scaling into its first layer
        w1 = init["w1"].astype(np.float64) * scale
        start = [w1, init["b1"] + init["w1"].astype(np.float64) @ mean, init["w2"], init["b2"], init["w3"], init["b3"]]
        with torch.no_grad():
            for p, a in zip(net.parameters(), start):
                p.copy_(torch.from_numpy(np.array(a, dtype=np.float32)))  # a copy: a loaded value is read-only
    return torch.from_numpy(x), net, mean, scale


def folded_arrays(net, mean: np.ndarray, scale: np.ndarray) -> dict:
    """A fitted scaled_net's arrays as a value file holds them, the input scaling folded into the first layer."""
    w1 = net[0].weight.detach().numpy().astype(np.float64)
    b1 = net[0].bias.detach().numpy().astype(np.float64)
    return {"w1": (w1 / scale).astype(np.float32), "b1": (b1 - (w1 / scale) @ mean).astype(np.float32),
            "w2": net[2].weight.detach().numpy(), "b2": net[2].bias.detach().numpy(),
            "w3": net[4].weight.detach().numpy(), "b3": net[4].bias.detach().numpy()}


def check_start(settings: ValueSettings, header: dict) -> None:
    """A run that holds line-ups out starts from a value that never played them either: else its
    held-out evaluation, and every later claim about line-ups it never saw, would be false."""
    family = _family(settings)
    if family is None or not family.hold_out:
        return
    never = set(F.never_played(header, family.size))
    played = [lineup for lineup in family.held() if lineup not in never]
    if played:
        raise TrainError(f"--start: its value (or one it started from) played {', '.join(map(','.join, played))}, "
                              f"which this run holds out: hold out line-ups it never played (the --seed and "
                              f"--hold-out it was trained with)")


def train_value(folder: Path, settings: ValueSettings, components, stages: Stages | None = None,
                command: str = "", threads: int = 1, start: Path | None = None, iterate=None) -> Path:
    """Run (or resume) the iterations in folder; returns the last value file (value-I.npz).
    With `start` (a value file whose sha256 settings.start holds), iteration 0 already plays
    judge over it instead of learned. `iterate` plays and fits the iterations (self-play by
    default; a run with a teacher passes training.teacher.train), the same arguments as _iterate."""

    stages = stages or Stages()
    settings.check()
    if start is not None:
        check_start(settings, M.load(start, settings.kind).header)
    folder.mkdir(exist_ok=True)
    stored = folder / "settings.json"
    mine = {**asdict(settings), "components_sha256": components.sha256}
    # a run may be resumed with more (or fewer) iterations; everything else must be the same
    if stored.exists():
        held = {**asdict(ValueSettings()), **read_settings(stored)}  # a run from before a setting existed
        # the evaluation does not change the values: its size may change too
        if {k: v for k, v in held.items() if k not in LOOSE} != {k: v for k, v in mine.items() if k not in LOOSE}:
            raise TrainError(f"{folder} holds a run with other settings; give another folder")
    stored.write_text(json.dumps(mine, indent=1))
    mine = {k: v for k, v in mine.items() if k != "eval_games"}  # the values' headers: how they were made
    (iterate or _iterate)(folder, settings, components, stages, command, threads, mine, start)
    previous = start
    for it in range(settings.iterations):
        value = folder / f"value-{it}.npz"
        evaluate(folder, it, value, previous, settings, components, stages)
        previous = value
    return folder / f"value-{settings.iterations - 1}.npz"


def _iterate(folder, settings, components, stages, command, threads, mine, start) -> None:
    """Each iteration: positions of games over the previous value (_positions), a fit on them,
    the value written (_save_value); a finished iteration's files are kept and skipped."""
    after = settings.player == "selfplay"
    previous = start
    if after and previous is None:  # selfplay's iteration 0 plays over a value of zeros: keeper's answers
        previous = folder / "value-zero.npz"
        if not previous.exists():
            M.save(previous, zero_value(settings), {"components_sha256": components.sha256,
                                                    "method": "zeros: every answer worth the same"}, settings.kind)
    for it in range(settings.iterations):
        positions, value = folder / f"positions-{it}.npz", folder / f"value-{it}.npz"
        if value.exists():
            previous = value
            continue
        if not positions.exists():
            _positions(positions, settings, components, stages, it, previous, start)
        x, y = _load_positions(folder, it)
        stages.stage(f"iteration {it}: fit on {len(x):,} positions", settings.epochs, unit="epochs")
        curve = []

        def on_epoch(e, loss, it=it, curve=curve):
            curve.append({"iteration": it, "head": "value", "epoch": e, "loss": loss})
            stages.advance()
            stages.note(f"epoch {e}: loss {loss:.5f}")

        arrays = fit(x, y, settings, seed=settings.deals + it, threads=threads, on_epoch=on_epoch)
        (folder / f"curve-{it}.json").write_text(json.dumps(curve))
        _save_value(value, arrays, settings, components, it, len(x), command, mine, start)
        previous = value
        # the positions no later iteration fits on (gigabytes each): the next one fits on its own
        # and this one's
        (folder / f"positions-{it - 1}.npz").unlink(missing_ok=True)


def _positions(positions: Path, settings, components, stages, it: int, previous, start) -> None:
    """Iteration `it`'s positions and their TD(lambda) returns, from games played over `previous`
    (selfplay's afterstates, or judge's tables), written to `positions`."""
    from kiai.strategies.run.config import GameConfig

    after = settings.player == "selfplay"
    fresh = previous is None or (after and it == 0 and not start)  # outcomes, not returns
    prev_arrays = None if fresh else M.load(previous, settings.kind).arrays
    rng = np.random.default_rng([settings.deals, 2, it])
    xs, ys = [], []
    drawn = tables(settings, it)
    who = "learned" if previous is None else settings.player
    stages.stage(f"iteration {it}: self-play of {who}", len(drawn) * settings.games)
    for t, (seating, level) in enumerate(drawn):
        game_seed = settings.deals + 1_000_003 * it + t
        if after:
            cfg = GameConfig(seating, level, "selfplay",
                             {"edge": settings.edge, "base": BASES.index(settings.base), "weigh": settings.questions},
                             components=components, model=str(previous))
            x, won, game, _ = collect_afterstates(cfg, settings.games, game_seed, explore=settings.explore)
        else:
            # self-play weighs each answer to the next turn only (`turns` 0), a sampled
            # card for a Fight: it needs many games, not the strong tier's depth
            # over learned, every answer on its samples (no race): as self-play always played
            fixed = {"base": 1, "race": 0}
            params = fixed if previous is None else {**fixed, "samples": settings.samples, "chance": 0,
                                                     "edge": settings.edge, "turns": 0}
            # judge plays the previous value (its --model); the first iteration plays learned's games
            cfg = GameConfig(seating, level, "judge", params, components=components,
                             model=None if previous is None else str(previous))
            x, won, game, _ = collect(cfg, settings.games, game_seed, what=TABLES_BASE if previous is None else TABLES)
        y = td_returns(won, game, predict(prev_arrays, x) if prev_arrays else None, settings.lam)
        keep = rng.random(len(x)) < settings.keep
        xs.append(x[keep])  # a copy: x itself can go
        ys.append(y[keep])
        del x
        stages.advance(settings.games)
    # written under another name, then renamed: a run killed while writing leaves no half a file
    # for its resumption to read
    atomic_write(positions, lambda tmp: save_to(tmp, np.savez, x=np.concatenate(xs), y=np.concatenate(ys)))


def _save_value(value: Path, arrays: dict, settings, components, it: int, n_positions: int, command: str, mine: dict,
                start) -> None:
    """Write iteration `it`'s value with the header that says how it was made."""
    from kiai.simcore.version import kiai_version

    after = settings.player == "selfplay"
    first = (f"iteration 0: outcomes of selfplay's games over a value of zeros ({settings.base}'s answers, "
             f"{settings.explore:g} of them at random); then " if after else
             "iteration 0: outcomes of learned's games; then ")
    M.save(value, arrays, {
        "architecture": {"kind": "mlp", "layers": "features -> h1 (ReLU) -> h2 (ReLU) -> logit",
                         "h1": settings.h1, "h2": settings.h2},
        "iteration": it, "positions": int(n_positions), "games": settings.tables * settings.games * (it + 1),
        "method": (first if not start else "continued from the value whose sha256 settings.start holds: ")
                  + f"{settings.player}'s games, TD(lambda) returns",
        "settings": mine, **M.made_for_header(components), "kiai_version": kiai_version(),
        "date": datetime.date.today().isoformat(), "command": command,
        # how the value this run started from was made, so the file tells its whole history
        **({"started_from": {k: v for k, v in M.load(start, settings.kind).header.items() if k not in KEEP_OUT}}
           if start else {})}, settings.kind)


def evaluate(folder: Path, it: int, value: Path, previous: Path | None, settings: ValueSettings, components,
             stages: Stages) -> dict | None:
    """After iteration `it`: the strong tier (judge, its defaults) over this value and over the
    previous one (learned where there is none), learned and the lookahead, on the same deals of
    every evaluation table (evaluation-I.json, kept: a resumed run does not replay it)."""
    from kiai.simcore.stats import paired_test, proportion_ci
    from kiai.strategies.run.config import GameConfig
    from kiai.strategies.run.games import run_games

    path = folder / f"evaluation-{it}.json"
    if settings.eval_games == 0:
        return None
    if path.exists():
        return json.loads(path.read_text())
    n = settings.eval_games
    player = settings.player
    first = "learned" if player == "judge" else settings.base  # what iteration 0 played
    arms = {"new": (player, value), "previous": (player, previous) if previous else (first, None),
            "learned": ("learned", None), "lookahead": ("lookahead", None)}
    # a teacher's values play as their headers say (as the value they started from did)
    params = {"base": BASES.index(settings.base), "weigh": settings.questions} \
        if player == "selfplay" and not settings.teacher else {}
    stages.stage(f"iteration {it}: evaluation", len(eval_tables(settings)) * len(arms) * n)
    won = {name: [] for name in arms}
    rows = []
    for lineup, level in eval_tables(settings):
        row = {"lineup": ",".join(lineup), "level": level}
        for name, (strategy, file) in arms.items():
            model = None if file is None else str(file)  # selfplay's value, or judge's
            w = run_games(GameConfig(lineup, level, strategy, params if strategy == player else {},
                                     components=components, model=model), n, EVAL_SEED)[:, O_OUTCOME] == 0
            won[name].append(w)
            row[name] = int(w.sum())
            stages.advance(n)
        rows.append(row)
    doc = {"iteration": it, "games": n, "seed": EVAL_SEED, "players": {k: v[0] for k, v in arms.items()},
           "tables": rows}
    for name, parts in won.items():
        w = np.concatenate(parts)
        lo, hi, _ = proportion_ci(int(w.sum()), len(w))
        doc[name] = {"wins": int(w.sum()), "games": len(w), "win_rate": float(w.mean()), "ci95": [lo, hi]}
    new = np.concatenate(won["new"])
    for other in EVAL_ARMS[1:]:
        doc[f"new_vs_{other}"] = paired_test(new, np.concatenate(won[other]))
    path.write_text(json.dumps(doc, indent=1))
    return doc


def _load_positions(folder: Path, it: int) -> tuple[np.ndarray, np.ndarray]:
    """This iteration's positions and the one before it's (judge's own games only)."""
    parts = [it] if it <= 1 else [it, it - 1]
    xs, ys = [], []
    for k in parts:
        with np.load(folder / f"positions-{k}.npz") as z:
            xs.append(z["x"])
            ys.append(z["y"])
    return np.concatenate(xs), np.concatenate(ys)
