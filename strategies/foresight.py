"""`foresight`: CHEATING yardstick. The lookahead without sampling: its rollouts see the true
stacks and the game's future shuffles, so the gap between it and the best honest strategy is
what luck of the deal is worth (strategies.lookahead plays it)."""

from kiai.strategies.base import Param, Strategy
from kiai.strategies.lookahead import BASES, FORESIGHT, hooks, plan, plan_record, planning_params  # noqa: F401  (hooks, plan, plan_record: the run layer reads them)

STRATEGY = Strategy(
    "foresight",
    "CHEATING yardstick: the lookahead without sampling; its rollouts see the true stacks and the game's future shuffles (a lower bound on what perfect information wins, not a bound on play).",
    (Param("samples", 1, 1, 1, True, "always 1: the true hidden state is the only sample"), *planning_params(base=0, value=0, margin=0.0)),
    honest=False,
    planner=True,
    bases=BASES,
)
VARIANT = FORESIGHT
