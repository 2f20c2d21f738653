"""make report's first stage: the engine, every strategy its stages play and the solver, compiled
before the first game, side by side on the cores (strategies.run.warm.warm_all).

Each stage compiles what it plays on its first run, and numba compiles one function at a time in a
process: the default sweep compiles the engine beside selfplay (the shorter waits for the longer),
the agreement stage judge beside the lookahead, the solve stage its search alone. Compiled here,
from one queue taken by two processes, the pieces fill both cores until the last one ends, and
every stage then loads them from numba's cache. Nothing is played; a second run finds everything
in the cache and ends at once.
"""

from __future__ import annotations

import sys

from kiai.reports.playing.presets import DEFAULT_STRATEGY, LADDER_STRATEGIES, PLANNER_STRATEGIES
from kiai.strategies.registry import strongest
from kiai.strategies.run.config import GameConfig

TABLE = ("kyuzo", "kikuchiyo")  # the pieces are the same whatever the table: any one serves


def report_configs() -> list[GameConfig]:
    """One configuration of every strategy (and parameters naming its base) that make report's
    stages play: the default, the ladder's, the planners' and each team size's strongest."""
    plays = [(name, {}) for name in dict.fromkeys((DEFAULT_STRATEGY, *LADDER_STRATEGIES, *PLANNER_STRATEGIES))]
    plays += [strongest(n, "easy") for n in range(2, 8)]
    return [GameConfig(TABLE, "easy", name, params) for name, params in plays]


def main(argv: list[str] | None = None) -> int:
    """`python -m kiai.reports.playing.compile_stage`: compile what make report plays; its notes go
    to standard error. Exit 0 even where a piece failed: the stage that plays it says why."""
    from kiai.strategies.run.warm import warm_all

    if argv if argv is not None else sys.argv[1:]:
        print("compile_stage: takes no arguments", file=sys.stderr)
        return 2
    warm_all(report_configs(), solver=True, note=lambda line: print(line, file=sys.stderr, flush=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
