"""One row of results per game: what the kernel writes and every summary reads."""

from numba import njit

from kiai.simcore.codes import OUT_WIN

O_OUTCOME = 0  # codes.OUT_*, or -1 if the game stopped early (a test's stop point)
O_END_ROUND = 1
O_BARR = 2  # the village and the boards at the moment the game ended
O_FARMS = 3
O_FAMS = 4
O_WOUND_SUM = 5
O_KIAI = 6  # Kiai activations
O_CONFRONTED = 7
O_DEFENDED = 8
O_STALLED = 9  # a round stalled (R-9b)
O_SCORE = 10  # the rulebook's score of a win, -1 otherwise
O_TURNS = 11
O_ERR = 12  # first invariant violation (invariants.ERR_*), 0 if none
O_ILLEGAL = 13  # answers outside the legal set
O_FIRST_SEAT = 14
O_DECISIONS = 15
N_OUT = 16
OUT_NAMES = (
    "outcome",
    "end_round",
    "barricades",
    "farmsteads",
    "families",
    "wound_steps",
    "kiai",
    "confronted",
    "defended",
    "stalled",
    "score",
    "turns",
    "error",
    "illegal",
    "first_seat",
    "decisions",
)


@njit(cache=True, inline="always")
def record(g, row):
    pub = g[0]
    book = g[2]
    row[O_OUTCOME] = pub.outcome if pub.game_over else -1
    row[O_END_ROUND] = book.end_round
    row[O_BARR] = pub.barricades
    row[O_FARMS] = pub.farmsteads
    row[O_FAMS] = pub.families
    wounds = 0
    token = 0
    for s in range(pub.n):
        w = pub.wound[s]
        wounds += w
        if w == 1 or w == 3:
            token = 1
    row[O_WOUND_SUM] = wounds
    row[O_KIAI] = book.kiai
    row[O_CONFRONTED] = book.confronted
    row[O_DEFENDED] = book.defended
    row[O_STALLED] = book.stalled
    # rulebook scoring: farmsteads + families + 1 if no samurai holds a wound token
    row[O_SCORE] = pub.farmsteads + pub.families + (1 - token) if pub.game_over and pub.outcome == OUT_WIN else -1
    row[O_TURNS] = book.turns
    row[O_ERR] = book.err
    row[O_ILLEGAL] = book.illegal
    row[O_FIRST_SEAT] = book.first
    row[O_DECISIONS] = book.decisions
