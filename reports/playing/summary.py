"""From per-game result rows (simcore.results.OUT_NAMES) to the figures kiai reports.

Rows are summarised block by block into a Tally (counts and integer sums only), so memory does
not grow with the number of games; summarize() turns a Tally into kiai's result format."""

from __future__ import annotations

import numpy as np

from kiai.simcore.stats import proportion_ci
from kiai.words import plural
from kiai.simcore import results as L
from kiai.simcore.version import kiai_version
from kiai.strategies.run.config import GameConfig
from kiai.strategies.run.games import grade
from kiai.simcore.codes import OUTCOMES

MAX_SCORE = 10  # 6 farmsteads + 3 families + 1 for no wound token


def absent_tokens_unused(config: GameConfig) -> bool:
    """True when absent tokens are on but the strategy never uses one (R-18; `reference`,
    docs/reference-strategy.md step 1): the option then changes nothing."""
    return bool(config.absent_on and not config.strategy_info.absent_tokens)


def rules_label(rules: dict | None) -> str:
    """The header's words for the rule readings: '' for the rules' own, else ', rules heal=wounded,...'."""
    from kiai.simcore.readings import label

    text = label(rules or {})
    return "" if text == "default" else f", rules {text}"


def absent_label(on: bool, unused: bool) -> str:
    """The header's words for the absent-token option ('' when off)."""
    if not on:
        return ""
    return ", absent tokens on" + (" (this strategy never uses them: no effect)" if unused else "")


# the columns a Tally sums: (its name, the row column)
SUMMED = (
    ("barricades", L.O_BARR),
    ("farmsteads", L.O_FARMS),
    ("families", L.O_FAMS),
    ("wound_steps", L.O_WOUND_SUM),
    ("kiai", L.O_KIAI),
    ("confronted", L.O_CONFRONTED),
    ("defended", L.O_DEFENDED),
    ("turns", L.O_TURNS),
    ("stalled", L.O_STALLED),
    ("illegal", L.O_ILLEGAL),
)
_SUM_COLS = [col for _, col in SUMMED]
ROUNDS = (1, 2, 3)


class Tally:
    """What summarize() needs from a batch of games, in counts and integer sums only: games;
    games by outcome (OUTCOMES order; wins are outcome 0); games ended in round 1, 2, 3, and
    those of them lost; wins by score 0..MAX_SCORE; and the sums of the SUMMED columns. add()
    takes a block of rows, merge() another Tally; both add counts, so the result does not
    depend on how the games were cut into blocks or in which order they came."""

    __slots__ = ("games", "outcomes", "ended", "lost", "scores", "sums", "won")
    _COUNTED = __slots__[:-1]

    def __init__(self):
        self.won = None  # per-game wins in the order add() met them: a block's, for a paired race
        self.games = 0
        self.outcomes = np.zeros(len(OUTCOMES), np.int64)
        self.ended = np.zeros(len(ROUNDS), np.int64)
        self.lost = np.zeros(len(ROUNDS), np.int64)
        self.scores = np.zeros(MAX_SCORE + 1, np.int64)
        self.sums = np.zeros(len(SUMMED), np.int64)

    @classmethod
    def of(cls, rows: np.ndarray) -> Tally:
        return cls().add(rows)

    @property
    def wins(self) -> int:
        return int(self.outcomes[0])

    def sum(self, name: str) -> int:
        """The sum of a SUMMED column over the games (e.g. "kiai")."""
        return int(self.sums[[n for n, _ in SUMMED].index(name)])

    def add(self, rows: np.ndarray) -> Tally:
        """Count a block of per-game rows in; returns self."""
        rows = np.asarray(rows)
        if rows.ndim != 2 or rows.shape[1] != L.N_OUT:
            raise ValueError(f"expected rows of {L.N_OUT} columns, got shape {rows.shape}")
        outcome = rows[:, L.O_OUTCOME]
        end_round = rows[:, L.O_END_ROUND]
        lost = outcome > 0
        scores = rows[outcome == 0, L.O_SCORE]
        if scores.size and (scores.min() < 0 or scores.max() > MAX_SCORE):
            raise ValueError(f"a win scored outside 0..{MAX_SCORE}")
        self.games += int(rows.shape[0])
        self.won = outcome == 0 if self.won is None else np.concatenate([self.won, outcome == 0])
        self.outcomes += [int((outcome == i).sum()) for i in range(len(OUTCOMES))]
        self.ended += [int((end_round == r).sum()) for r in ROUNDS]
        self.lost += [int(((end_round == r) & lost).sum()) for r in ROUNDS]
        self.scores += np.bincount(scores, minlength=MAX_SCORE + 1)
        self.sums += rows[:, _SUM_COLS].sum(axis=0, dtype=np.int64)
        return self

    def merge(self, other: Tally) -> Tally:
        """Add another Tally's games in; returns self. Its per-game wins are not kept (merged
        blocks may come in any order: racing.Race places each block's by its game indices)."""
        self.games += other.games
        for name in self._COUNTED[1:]:
            getattr(self, name)[...] += getattr(other, name)
        self.won = None
        return self

    def counts(self) -> dict:
        """The counts and sums (what a resumed sweep keeps of an unfinished configuration)."""
        return {name: getattr(self, name) for name in self._COUNTED}

    def __getstate__(self):  # pickled whole: a Dask worker's block comes back with its wins
        return {**self.counts(), "won": self.won}

    def __setstate__(self, state):
        self.won = None
        for name, value in state.items():
            setattr(self, name, value)

    def __eq__(self, other):
        if not isinstance(other, Tally):
            return NotImplemented
        return self.games == other.games and all(  # the counts: a block's own wins are not the tally's
            np.array_equal(getattr(self, n), getattr(other, n)) for n in self._COUNTED[1:])

    def __repr__(self):
        return f"Tally(games={self.games}, wins={self.wins})"


def summarize(out: Tally | np.ndarray, config: GameConfig, seed: int, seconds: float | None = None,
              threads: int | None = None) -> dict:
    """The summary of a batch (a Tally, or per-game rows); the keys are kiai's stable result
    format (docs/commands.md). Means are integer sums over games: the same floats as numpy's mean of
    the rows' integer columns, whose float64 sums are exact below 2**53."""
    t = out if isinstance(out, Tally) else Tally.of(out)
    games = t.games
    wins = t.wins
    lo, hi, method = proportion_ci(wins, games)
    n = config.n
    pluses = config.level_pluses
    mean = lambda name: t.sum(name) / games  # noqa: E731
    summary = {
        "games": games,
        "wins": wins,
        "win_rate": wins / games,
        "ci95": [lo, hi],
        "ci_method": method,
        "outcomes": {name: int(t.outcomes[i]) for i, name in enumerate(OUTCOMES)},
        "ended_in_round": {str(r): int(t.ended[i]) for i, r in enumerate(ROUNDS)},
        "lost_in_round": {str(r): int(t.lost[i]) for i, r in enumerate(ROUNDS)},
        "scores": {str(s): int(c) for s, c in enumerate(t.scores) if c},
        "grades": {grade(s, pluses): int(c) for s, c in enumerate(t.scores) if c},
        "mean_barricades_left": mean("barricades"),
        "mean_farmsteads_left": mean("farmsteads"),
        "mean_families_left": mean("families"),
        "mean_wound_steps": mean("wound_steps") / n,
        "kiai_activations_per_game": mean("kiai"),
        "cards_confronted_per_game": mean("confronted"),
        "cards_defended_per_game": mean("defended"),
        "turns_per_game": mean("turns"),
        "stalled_games": t.sum("stalled"),
        "illegal_choices": t.sum("illegal"),
        "seed": int(seed),
        **config.describe(),
        "absent_tokens_unused": absent_tokens_unused(config),
        "kiai_version": kiai_version(),
    }
    if seconds is not None:
        summary["seconds"] = seconds
        summary["games_per_second"] = games / seconds if seconds > 0 else float("inf")
    if threads is not None:
        summary["threads"] = threads
    return summary


def played_as(d: dict) -> str:
    """What played, in one line (GameConfig.played_as; the parameters as played are in --json
    and the results table): a summary's or a description's `played_as`, else its strategy and
    parameters."""
    return d.get("played_as") or (d["strategy"] + (f" {d['params']}" if d.get("params") else ""))


def format_summary(s: dict) -> str:
    """The readable text `kiai simulate` prints."""
    g = s["games"]
    pct = lambda k: 100.0 * k / g  # noqa: E731
    lines = [
        f"{', '.join(s['samurai'])} at {s['difficulty']}, strategy {played_as(s)}"
        + ("" if s["honest"] else " (cheating)")
        + absent_label(s["absent_tokens"], s["absent_tokens_unused"])
        + rules_label(s.get("rules")),
        f"games {g:,}   seed {s['seed']}   components {s['components_sha256'][:12]}"
        + "".join(f"   ({s['model'][k]})" for k in ("note", "mark") if s.get("model", {}).get(k)),
        "",
        f"win rate   {100 * s['win_rate']:.3f}%   95% CI [{100 * s['ci95'][0]:.3f}%, {100 * s['ci95'][1]:.3f}%]"
        f" ({s['ci_method']})",
        "outcomes   " + "   ".join(f"{k} {v:,} ({pct(v):.1f}%)" for k, v in s["outcomes"].items()),
        "losses by round   " + "   ".join(f"round {r}: {v:,}" for r, v in s["lost_in_round"].items()),
    ]
    if s["grades"]:
        lines.append("grades of wins   " + "   ".join(f"{k}: {v:,}" for k, v in s["grades"].items()))
    lines += [
        f"at game end (means)   barricades {s['mean_barricades_left']:.2f}   farmsteads "
        f"{s['mean_farmsteads_left']:.2f}   families {s['mean_families_left']:.2f}   wound steps per samurai "
        f"{s['mean_wound_steps']:.2f}",
        f"per game   Kiai {s['kiai_activations_per_game']:.2f}   confronted {s['cards_confronted_per_game']:.1f}"
        f"   defended {s['cards_defended_per_game']:.1f}   turns {s['turns_per_game']:.1f}",
        f"stalled games {s['stalled_games']}",
    ]
    if "games_per_second" in s:
        threads = plural(s["threads"], "thread") if "threads" in s else "? threads"
        lines.append(f"speed   {s['games_per_second']:,.0f} games/s on {threads}")
    return "\n".join(lines)
