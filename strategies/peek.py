"""`peek`: CHEATING yardstick. The lookahead with the same parameters, but every sample keeps
the true next raider card on top: it sees one card ahead and nothing more, so the gap between
it and `lookahead` is what that one card is worth (strategies.lookahead plays it)."""

from kiai.strategies.base import Strategy
from kiai.strategies.lookahead import BASES, LOOKAHEAD_PARAMS, PEEK, hooks, plan, plan_record  # noqa: F401  (hooks, plan, plan_record: the run layer reads them)

STRATEGY = Strategy(
    "peek",
    "CHEATING yardstick: the lookahead, but every sample keeps the true next raider card on top; what seeing one card ahead is worth.",
    LOOKAHEAD_PARAMS,  # the same parameters: peek measures the one card it sees
    honest=False,
    planner=True,
    bases=BASES,
)
VARIANT = PEEK
