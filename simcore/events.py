"""The event log of a traced game (`kiai trace`, `kiai record`, the rules tests): codes and writers.

An event is a row of TR_COLS int64: code, round, then up to six arguments (a .. f) as the comment
of each code says. The codes from EV_DECISION on are written only when a game is recorded
(cfg.recording): every decision, every random outcome as its result, and the public state after
each turn and end-of-round step (reports.records.game turns them into JSON).
"""

import numpy as np
from numba import carray, njit

from kiai.simcore.state import int_to_pointer

TR_COLS = 8  # code, round, then the arguments a .. f (zeros where an event has fewer)
EV_ROUND_START = 1  # first seat, raider count
EV_TURN = 2  # seat
EV_ABSENT = 3  # seat, mask
EV_PENALTY = 4  # seat, card, penalty
EV_PEN_IGNORED = 5  # seat, card, penalty
EV_PEN_UNABLE = 6  # seat, penalty
EV_PASS = 7  # seat, forced (1 over Kiai, 2 must pass, 3 empty raider stack under V-3 `drawn`)
EV_FIGHT = 8  # seat
EV_SUPPORT = 9  # seat, receiver, card moved to intruder
EV_REVEAL = 10  # seat, card
EV_REDRAW = 11  # seat, card put under
EV_KYUZO_DISCARD = 12  # seat, card
EV_GIVE = 13  # from, to, card
EV_CONFRONT = 14  # seat, card, total, kiai
EV_DEFEND = 15  # seat, card
EV_OVERCOME = 16  # seat, total, kiai
EV_BARR_LOST = 17  # barricades left
EV_BARR_ADDED = 18  # barricades now
EV_FARM_LOST = 19  # token back, farmsteads left
EV_FAMILY_LOST = 20  # family index, families left
EV_WOUND = 21  # seat, new state
EV_HEAL = 22  # seat, new state
EV_KIAI = 23  # seat, choice (KIAI_*)
EV_KIAI_SHED = 24  # seat, card, total
EV_DAISUKE = 25  # source, receiver, card
EV_KIKU = 26  # target seat, card
EV_KYUZO_TOKEN = 27  # giver, receiver
EV_TOP_TO_DISCARD = 28  # card (Gorobei)
EV_INTRUDER_TO_DISCARD = 29  # card (Kanbei; family bonus C in recorded games only)
EV_KATSU = 30  # count, c0, c1, c2 (new order, top first)
EV_PEN_DRAW = 31  # seat drawing, card (the confront event that follows has the total)
EV_TO_INTRUDER = 32  # card (unseen)
EV_DISCARD_TO_RAIDER = 33  # card
EV_LOSE_DEFENCE = 34  # seat, card
EV_ROUND_END = 35  # reason: 0 stack empty, 1 all passed, 3 stalled (R-9b); last active seat
EV_EOR_STEP = 36  # step 1..4
EV_FLAME = 37  # card, flame
EV_BONUS = 38  # family index, bonus, target seat (-1)
EV_GAME_END = 39  # outcome
EV_TOKEN_RETURN = 40  # owner, holder
EV_FIGHT_AGAIN = 41  # seat
EV_STALL = 42
EV_SETUP = 43  # samurai count, barricades, raider count
EV_TRIGGER_SKIPPED = 44  # seat (declined Kiai)
# ---- recorded games only
EV_DECISION = 45  # question, seat, a, b, legal, answer (simcore.gateway.ask)
EV_RANDOM = 46  # RND_* kind, outcome
EV_STACK = 47  # STK_* kind, count; then EV_CARDS rows: the new raider stack, top card first
EV_CARDS = 48  # up to six cards (-1 pads): the cards of the row before
EV_STATE = 49  # barricades, farmsteads, families, raider, intruder, discard sizes; then per seat:
EV_SEAT = 50  # seat, total, Kiai value, wound state, passed, holder of his token
EV_SIDE = 51  # seat, hat, farm, doll (card or -1), line length; then EV_CARDS: the line, oldest first

# (the first player, R-3, is the record's setup: EV_SETUP and book.first)
RND_FARMSTEAD = 0  # the farmstead destroyed: a token, indexing the component file's farmsteads
RND_FAMILY = 1  # the family lost: a family, in the component file's order
RND_WOUND = 2  # the samurai wounded by farmstead back D: a seat
RND_HEAL = 3  # the samurai drawn for family bonus A (R-14, V-1): a seat
RND_DISCARD = 4  # the discard card a boss shuffles back into the raider stack: a card
STK_ROUND = 0  # a round's raider stack
STK_BOSS = 1  # the raider stack shuffled by a boss's penalty


@njit(cache=True, inline="always")
def _append(g, code, a, b, c, d, e, f):
    """Append a row to the event log; the rows past the buffer's end are counted but not written."""
    cfg = g[3]
    book = g[2]
    i = book.trace_n
    if i < cfg.trace_cap:
        rows = carray(int_to_pointer(cfg.trace_addr), (cfg.trace_cap, TR_COLS))
        rows[i, 0] = code
        rows[i, 1] = g[0].round_no
        rows[i, 2] = a
        rows[i, 3] = b
        rows[i, 4] = c
        rows[i, 5] = d
        rows[i, 6] = e
        rows[i, 7] = f
    book.trace_n = i + 1


# log and record_row hand every argument on as an int64 to a function compiled once (a call with a
# literal 3 or a uint8 field would otherwise compile one of its own), and that function is compiled
# with the first engine function that calls it, not at import: the engine's cached code holds it,
# so a warm start never loads it.
@njit(cache=True, inline="always")
def log(g, code, a, b, c, d):
    """Append an event when the game is traced (cfg.tracing)."""
    _log(g, np.int64(code), np.int64(a), np.int64(b), np.int64(c), np.int64(d))


@njit(cache=True)
def _log(g, code, a, b, c, d):
    if g[3].tracing:
        _append(g, code, a, b, c, d, 0, 0)


@njit(cache=True, inline="always")
def record_row(g, code, a, b, c, d, e, f):
    """Append a recorded game's row (cfg.recording): six arguments."""
    _record_row(g, np.int64(code), np.int64(a), np.int64(b), np.int64(c), np.int64(d), np.int64(e), np.int64(f))


@njit(cache=True)
def _record_row(g, code, a, b, c, d, e, f):
    if g[3].recording:
        _append(g, code, a, b, c, d, e, f)


@njit(cache=True, inline="always")
def _card(cards, k, n):
    return cards[k] if k < n else -1


@njit(cache=True)
def record_cards(g, cards, n):
    """EV_CARDS rows holding cards[0:n], six a row (-1 pads the last)."""
    for i in range(0, n, 6):
        record_row(g, EV_CARDS, _card(cards, i, n), _card(cards, i + 1, n), _card(cards, i + 2, n),
                   _card(cards, i + 3, n), _card(cards, i + 4, n), _card(cards, i + 5, n))


@njit(cache=True)
def record_stack(g, kind):
    """The raider stack as it now lies, top card first (a new round's, or a boss's shuffle)."""
    pub = g[0]
    if g[3].recording == 0:
        return
    n = pub.raider_n
    record_row(g, EV_STACK, kind, n, 0, 0, 0, 0)
    record_cards(g, g[1].raider[:n][::-1], n)  # stored bottom first


@njit(cache=True)
def record_state(g):
    """The public state after a turn or an end-of-round step."""
    pub = g[0]
    if g[3].recording == 0:
        return
    record_row(g, EV_STATE, pub.barricades, pub.farmsteads, pub.families, pub.raider_n, pub.intruder_n,
               pub.discard_n)
    for s in range(pub.n):
        record_row(g, EV_SEAT, s, pub.total[s], pub.kiai[s], pub.wound[s], pub.passed[s], pub.holder[s])
        ln = pub.line_n[s]
        record_row(g, EV_SIDE, s, pub.defence[s, 0], pub.defence[s, 1], pub.defence[s, 2], ln, 0)
        record_cards(g, pub.line[s], ln)
