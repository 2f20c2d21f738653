"""From per-game result rows (simcore.results.OUT_NAMES) to the figures kiai reports."""

from __future__ import annotations

from importlib import metadata

import numpy as np

from reports.stats import proportion_ci
from simcore import results as L
from strategies.run import GameConfig, grade
from simcore.codes import OUTCOMES

MAX_SCORE = 10  # 6 farmsteads + 3 families + 1 for no wound token


def kiai_version() -> str:
    try:
        return metadata.version("kiai")
    except metadata.PackageNotFoundError:  # running from a source tree
        return "0+unknown"


def absent_tokens_unused(config: GameConfig) -> bool:
    """True when absent tokens are on but the strategy never uses one (R-18; `reference`,
    REFERENCE_STRATEGY.md step 1): the option then changes nothing."""
    return bool(config.absent_on and not config.strategy_info.absent_tokens)


def absent_label(on: bool, unused: bool) -> str:
    """The header's words for the absent-token option ('' when off)."""
    if not on:
        return ""
    return ", absent tokens on" + (" (this strategy never uses them: no effect)" if unused else "")


def summarize(out: np.ndarray, config: GameConfig, seed: int, seconds: float | None = None,
              threads: int | None = None) -> dict:
    """The summary of a batch; the keys are kiai's stable result format (see README)."""
    games = int(out.shape[0])
    outcome = out[:, L.O_OUTCOME]
    wins = int((outcome == 0).sum())
    lo, hi, method = proportion_ci(wins, games)
    n = config.n
    end_round = out[:, L.O_END_ROUND]
    lost = outcome > 0
    scores = out[outcome == 0, L.O_SCORE]
    score_counts = np.bincount(scores, minlength=MAX_SCORE + 1) if wins else np.zeros(MAX_SCORE + 1, int)
    pluses = config.level_pluses
    summary = {
        "games": games,
        "wins": wins,
        "win_rate": wins / games,
        "ci95": [lo, hi],
        "ci_method": method,
        "outcomes": {name: int((outcome == i).sum()) for i, name in enumerate(OUTCOMES)},
        "ended_in_round": {str(r): int((end_round == r).sum()) for r in (1, 2, 3)},
        "lost_in_round": {str(r): int(((end_round == r) & lost).sum()) for r in (1, 2, 3)},
        "scores": {str(s): int(c) for s, c in enumerate(score_counts) if c},
        "grades": {grade(s, pluses): int(c) for s, c in enumerate(score_counts) if c},
        "mean_barricades_left": float(out[:, L.O_BARR].mean()),
        "mean_farmsteads_left": float(out[:, L.O_FARMS].mean()),
        "mean_families_left": float(out[:, L.O_FAMS].mean()),
        "mean_wound_steps": float(out[:, L.O_WOUND_SUM].mean() / n),
        "kiai_activations_per_game": float(out[:, L.O_KIAI].mean()),
        "cards_confronted_per_game": float(out[:, L.O_CONFRONTED].mean()),
        "cards_defended_per_game": float(out[:, L.O_DEFENDED].mean()),
        "turns_per_game": float(out[:, L.O_TURNS].mean()),
        "stalled_games": int(out[:, L.O_STALLED].sum()),
        "illegal_choices": int(out[:, L.O_ILLEGAL].sum()),
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


def format_summary(s: dict) -> str:
    """The readable text `kiai simulate` prints."""
    g = s["games"]
    pct = lambda k: 100.0 * k / g  # noqa: E731
    lines = [
        f"{', '.join(s['samurai'])} at {s['difficulty']}, strategy {s['strategy']}"
        + (f" {s['params']}" if s["params"] else "")
        + ("" if s["honest"] else " (cheating)")
        + absent_label(s["absent_tokens"], s["absent_tokens_unused"]),
        f"games {g:,}   seed {s['seed']}   components {s['components_sha256'][:12]}",
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
        lines.append(f"speed   {s['games_per_second']:,.0f} games/s on {s.get('threads', '?')} threads")
    return "\n".join(lines)
