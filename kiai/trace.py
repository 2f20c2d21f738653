"""One game, turn by turn, in plain words (`kiai trace`)."""

from __future__ import annotations

from collections.abc import Callable

from kiai.inputs.checks import items_of
from kiai.inputs.configs import make_config
from kiai.inputs.counts import check_game_index, check_seed
from kiai.reports.playing.summary import absent_label, absent_tokens_unused, rules_label
from kiai.simcore.codes import OUT_WIN
from kiai.simcore.trace import LEGEND, describe, outcome_words
from kiai.strategies.run import games  # its functions looked up at each call (tests replace them)
from kiai.strategies.run.warm import warm_engine


def trace(samurai, level: str = "normal", *, seed: int = 0, game_index: int = 0, strategy: str | None = None,
          params=None, params_file=None, absent_tokens: str = "auto", components=None, model: str | None = None,
          rules=None, strict: bool = False, note: Callable[[str], None] | None = None) -> list[str]:
    """Play game `game_index` of `seed` and return it as the lines `kiai trace` prints: a header, a
    legend of the card notation, every turn in words with the village and the wounds after it, and
    the outcome. The same seed and game index are the game kiai.simulate played; kiai.records gives
    it as a record. note(line) hears what the checks and the compiler say (None: nothing). The
    other arguments are kiai.simulate's."""
    check_seed(seed)
    check_game_index(game_index)
    config = make_config(samurai, level, strategy, items_of(params, "--param"), absent_tokens, components,
                         params_file=params_file, model=model, rules=items_of(rules, "--rule"), note=note,
                         strict=strict)  # fmt: skip
    warm_engine(config, note=note)
    run = games.run_one(config, seed, game_index, trace=True, check=True)
    seats = ", ".join(f"seat {i}: {s}" for i, s in enumerate(config.samurai))
    played = f" {config.played_params()}" if config.params else ""
    absent = absent_label(config.absent_on, absent_tokens_unused(config))
    lines = [f"Game {game_index} of seed {seed}: {seats}; {config.difficulty}; strategy {config.strategy}{played}"
             f"{absent}{rules_label(config.rules)}.", *LEGEND, *describe(run.events, config.samurai, config.components)]
    outcome = run.result("outcome")
    if outcome == OUT_WIN:
        lines.append(f"The samurai win. Score {games.grade(run.result('score'), config.level_pluses)}.")
    else:
        lines.append(f"The samurai lose in round {run.result('end_round')}: {outcome_words(outcome)}.")
    if run.book.err:
        lines.append(f"warning: an invariant failed during this game (code {int(run.book.err)})")
    return lines
