"""The event log of a traced game (`kiai trace`, the rules tests): codes and the one writer.

An event is a row of TR_COLS int64: code, round, then up to four arguments (a, b, c, d) as the
comment of each code says; the last two columns are spare zeros.
"""

from numba import carray, njit, types

from simcore.state import G_TYPE, int_to_pointer

TR_COLS = 8  # code, round, a, b, c, d and two spare zeros (rows of H from H_TR)
EV_ROUND_START = 1  # first seat, raider count
EV_TURN = 2  # seat
EV_ABSENT = 3  # seat, mask
EV_PENALTY = 4  # seat, card, penalty
EV_PEN_IGNORED = 5  # seat, card, penalty
EV_PEN_UNABLE = 6  # seat, penalty
EV_PASS = 7  # seat, forced (1 over Kiai, 2 must pass)
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
EV_INTRUDER_TO_DISCARD = 29  # card (Kanbei, family bonus C)
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


@njit(types.void(G_TYPE, types.int64, types.int64, types.int64, types.int64, types.int64), cache=True)
def log(g, code, a, b, c, d):
    """Append an event when the game is traced (cfg.tracing); the rows past the buffer's end are
    counted but not written."""
    cfg = g[3]
    if cfg.tracing == 0:
        return
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
    book.trace_n = i + 1
