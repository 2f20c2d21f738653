"""Perfect-information search of one deal: can any sequence of decisions win it?

With event-keyed outcomes (cfg.event_keyed, simcore.rng.event) every random event of a deal is
fixed in advance, whatever is played, and no samurai holds a private card: the game becomes a
deterministic puzzle for one planner who sees the true deal. solve_deal searches it exactly, depth
first, over every decision the engine asks (the turn's action, supports, the card in hand, Kiai,
talents, every question), and answers WON (with the winning line: the answers to every question
of more than one option, in the order asked), LOST (no line wins: proved) or UNKNOWN (the budget
of nodes ran out first).

How it walks the game. A node is the state at the start of a turn (a copy of pub and hid) and
the answers already fixed in that turn. The search plays the turn from its start on a copy, the
fixed answers fed as forced decisions (R-16a, cfg.fd_*), and is asked (cfg.plan with every
question's bit: question_hook) at the first question past them; there it branches over every legal
answer, the default strategy's own first (move ordering: cfg.decide is the default's), and plays
the turn again from its start with one answer more. The answer tried first is the default
strategy's, or (the solver's `order`) foresight's, whose rollouts read the true deal: the first
line searched is then about what foresight plays, and wins are found fast. A turn whose every question is fixed ends at
the next turn's start (cfg.stop_turns, across the end-of-round steps and the next round's deck),
a new node, or at the game's end. Replaying a turn from its start costs a turn per question, and
needs no way to pause the engine inside a turn.

Provable pruning only. The states already searched (a transposition table keyed on the whole
state at a turn's start: pub and hid up to their lengths, the turn counter and scratch left out)
are not searched again: the search is a depth-first walk of the graph of states, which visits
every state reachable from the start, so LOST is exact (a state met again on the current path is
a cycle, which cannot help to win). Two 64-bit hashes name a state. A full table stops taking
new states (the walk then repeats work, never loses any).

Limits: absent support tokens (Q_ABSENT, whose answer is a set) are not searched: the run layer
refuses a table that has them. The 1000-turn stall (R-9b) is left out of the state's key.
"""

import numpy as np
from llvmlite import ir
from numba import carray, njit, types
from numba.extending import intrinsic

from kiai.simcore.codes import DAISUKE, FAM_INTRUDER_TO_DISCARD, KANBEI, OUT_WIN, PEN_DISCARD_TO_RAIDER
from kiai.simcore.gateway import call_decide, call_hook
from kiai.simcore.questions import Q_ACTION, Q_CARD, Q_FIGHT_AGAIN
from kiai.simcore.kernel import load_readings, load_tables
from kiai.simcore.rng import seed_streams
from kiai.simcore.rounds import play_game, setup
from kiai.simcore.unseen import recount_unseen
from kiai.simcore.state import (
    BOOK,
    BOOK_SIZE,
    HIDDEN,
    HIDDEN_SIZE,
    MEM,
    MEM_HEAD,
    TABLE,
    TABLE_DYNAMIC,
    TABLE_SIZE,
    clear_record,
    copy_record,
    data_pointer,
    int_to_pointer,
    int_to_voidptr,
    keep_alive,
)

WON, LOST, UNKNOWN, FAILED = 0, 1, 2, 3  # solve_deal's answers (FAILED: the engine reported an error)
STATUS = ("won", "lost", "unknown", "failed")
MAX_TURNS = 512  # turns on one line of play (slots)
MAX_ASKED = 96  # questions past the fixed ones in one turn
MAX_FRAMES = 16384
# question_hook's record: asked, q, seat, a, b, legal, the answer tried first, the ordering planner's
# address (0: none) and the address of that planner's own record (its cfg.pdata)
QBUF = 9
# stats_out's fields
S_NODES, S_TURNS, S_STATES, S_DEPTH, S_TT_FULL = range(5)
N_STATS = 8

_H1 = np.uint64(0x9E3779B97F4A7C15)
_H2 = np.uint64(0xC2B2AE3D27D4EB4F)
_K1 = np.uint64(0xFF51AFD7ED558CCD)
_K2 = np.uint64(0xC4CEB9FE1A85EC53)
# the transposition table's key (solve_deal's layout[2]; today's when layout has two words):
# KEY_FULL, the whole state (state_hash), or KEY_RB, the canonical form (canon_hash)
KEY_FULL, KEY_RB = 0, 1
KEY_DEFAULT = KEY_FULL
# words of TABLE's scalar part that canon_hash reads in its own way
_W_DISCARD_N = TABLE.fields["discard_n"][1] // 8
_W_KNOWN_N = TABLE.fields["known_n"][1] // 8
_W_INTRUDER_N = TABLE.fields["intruder_n"][1] // 8
_W_DEFENCE = TABLE.fields["defence"][1] // 8
_W_DEFENCE_END = _W_DEFENCE + TABLE.fields["defence"][0].itemsize // 8
_CLASS = np.uint64(1 << 40)  # canon_hash's line-card classes, apart from card ids


@intrinsic
def record_address(typingctx, rec):
    """The address of a record (to read its int64 fields as one array of words)."""

    def codegen(context, builder, sig, args):
        return builder.ptrtoint(args[0], ir.IntType(64))

    return types.int64(rec), codegen


@njit(cache=True)
def question_hook(pub, hid, book, cfg, mem):
    """The engine's planner hook at every question (simcore.gateway): the first question of a
    run past the forced answers is written into the search's record (cfg.pdata), with the
    answer to try first, which is played: the ordering planner's (foresight's, when the record
    names one and the question is one it weighs) or else the strategy's (cfg.decide). Later
    questions of the run are left to the strategy."""
    buf = carray(int_to_pointer(cfg.pdata), QBUF)
    if buf[0] == 0:
        q = mem.q
        c = -1
        if buf[7] != 0 and (q == Q_ACTION or q == Q_CARD or q == Q_FIGHT_AGAIN):
            # ordered by a planner (foresight: rollouts on the true deal), which writes mem.answer
            mem.answer = -1
            here = cfg.pdata
            cfg.pdata = buf[8]  # the planner reads its own record there, not the search's
            call_hook(buf[7], pub, hid, book, cfg, mem)
            cfg.pdata = here
            c = mem.answer
        if c < 0 or (mem.legal >> c) & 1 == 0:
            prm = int_to_voidptr(cfg.prm_at) if cfg.prm_at else data_pointer(cfg.prm)
            c = call_decide(cfg.decide, prm, pub, mem, q, mem.seat, mem.a, mem.b, mem.legal)
        buf[0] = 1
        buf[1] = mem.q
        buf[2] = mem.seat
        buf[3] = mem.a
        buf[4] = mem.b
        buf[5] = mem.legal
        buf[6] = c
        mem.answer = c
    else:
        mem.answer = -1
    return 0


@njit(cache=True, inline="always")
def _mix(h, w, k):
    return (h ^ (np.uint64(w) * k)) * _K2 + _H1


@njit(cache=True)
def _village_and_finish(h1, h2, pub, hid):
    """The end of both keys: the farmsteads left and the events drawn, then the final mix."""
    for i in range(pub.farmsteads):
        h1 = _mix(h1, hid.farm_alive[i] * 4 + hid.farm_back[hid.farm_alive[i]] + 11000, _K1)
        h2 = _mix(h2, (hid.farm_alive[i] * 4 + hid.farm_back[hid.farm_alive[i]]) ^ 0xB000, _K2)
    for k in range(hid.ev_n.shape[0]):
        h1 = _mix(h1, hid.ev_n[k] + (k << 16) + 13000, _K1)
        h2 = _mix(h2, hid.ev_n[k] ^ (k << 24), _K2)
    h1 ^= h1 >> np.uint64(29)
    h2 ^= h2 >> np.uint64(31)
    if h1 == 0:
        h1 = np.uint64(1)
    return h1, h2


@njit(cache=True)
def state_hash(pub, hid, scalars, skip):
    """Two 64-bit hashes of the state at a turn's start: pub's fields before its zones (words
    0..scalars, word `skip`, the turn counter, left out), then every zone up to its length, and
    hid's stacks, standing farmsteads, backs and event counts."""
    words = carray(int_to_pointer(record_address(pub)), scalars)
    h1 = _H1
    h2 = _H2
    for i in range(scalars):
        if i != skip:
            h1 = _mix(h1, words[i] + i, _K1)
            h2 = _mix(h2, words[i] ^ (i << 20), _K2)
    for s in range(pub.n):
        for i in range(pub.line_n[s]):
            h1 = _mix(h1, pub.line[s, i] + (s << 8), _K1)
            h2 = _mix(h2, pub.line[s, i] ^ (s << 12), _K2)
    for i in range(pub.discard_n):
        h1 = _mix(h1, pub.discard[i] + 1000, _K1)
        h2 = _mix(h2, pub.discard[i] + 3000, _K2)
    for i in range(pub.known_n):
        h1 = _mix(h1, pub.known[i] + 2000, _K1)
        h2 = _mix(h2, pub.known[i] + 5000, _K2)
    for c in range(pub.n_cards):
        v = pub.unseen[c] + 2 * pub.out_of_play[c]
        h1 = _mix(h1, v + (c << 4), _K1)
        h2 = _mix(h2, v ^ (c << 9), _K2)
    for i in range(pub.raider_n):
        h1 = _mix(h1, hid.raider[i] + 7000, _K1)
        h2 = _mix(h2, hid.raider[i] ^ 0x7000, _K2)
    for i in range(pub.intruder_n):
        h1 = _mix(h1, hid.intruder[i] + 9000, _K1)
        h2 = _mix(h2, hid.intruder[i] ^ 0x9000, _K2)
    return _village_and_finish(h1, h2, pub, hid)


@njit(cache=True)
def key_flags(pub):
    """What canon_hash keeps of a turn's start, from the rules that can still read it (R-B,
    docs/strategies.md): (pile, lines, symbols, flames). pile: the discard pile is read again, as
    a card in play this round shuffles a discard back (discard_to_raider, boss 63 in round 3, R-5's
    empty-pile wound); the pile, the defence cards and the lines are then kept card by card (Kiai
    and Kikuchiyo discard line cards, lose_defence defence cards, onto it). lines: keep each line
    card's identity (also under V-2 `once`, whose pen_given marks cards). symbols: keep a line
    card's symbol beside its value and penalties (Daisuke's Kiai may move it to a defence side).
    flames: keep only the intruder stack's flames (no Kanbei, whose Kiai discards its top cards,
    and no family C bonus, which discards its top card: step 4 reads the flames alone)."""
    pile = False
    for c in range(pub.n_cards):
        if pub.out_of_play[c] == 0 and (pub.pen1[c] == PEN_DISCARD_TO_RAIDER or pub.pen2[c] == PEN_DISCARD_TO_RAIDER):
            pile = True
            break
    daisuke = False
    kanbei = False
    for s in range(pub.n):
        daisuke |= pub.samurai[s] == DAISUKE
        kanbei |= pub.samurai[s] == KANBEI
    family_c = False
    if pub.family_bonuses:
        for f in range(pub.families_total):
            if (pub.family_mask >> f) & 1 and pub.family_kind[f] == FAM_INTRUDER_TO_DISCARD:
                family_c = True
    return pile, pile or pub.penalty_once != 0, daisuke, not kanbei and not family_c


@njit(cache=True)
def canon_hash(pub, hid, scalars, skip):
    """R-B: state_hash of the state's canonical form, which drops what no rule reads again
    (key_flags says what is kept)."""
    pile, lines, symbols, flames = key_flags(pub)
    return canon_hash_with(pub, hid, scalars, skip, pile, lines, symbols, flames)


# long: one pass over the state's parts in state_hash's order, each kept whole or in its canonical form
@njit(cache=True)
def canon_hash_with(pub, hid, scalars, skip, pile, lines, symbols, flames):
    """canon_hash with what is kept given (key_flags's fields; a test plants a wrong one). Left
    out: Katsushiro's known cards (R-19: strategies only) and the unseen flags (derived from the
    stacks); without `pile`, the discard pile and its size, and of a defence slot only whether it
    is filled (its index is the card's symbol); without `lines`, a line card as its value and
    penalties (and symbol, with `symbols`); with `flames`, the intruder stack as its flame count.
    Kept whole: every other scalar, the raider stack, the cards out of play (fixed in a deal's
    round), the standing farmsteads and backs, the event counts."""
    words = carray(int_to_pointer(record_address(pub)), scalars)
    h1 = _H1
    h2 = _H2
    for i in range(scalars):
        if i == skip or i == _W_KNOWN_N or (i == _W_DISCARD_N and not pile) or (i == _W_INTRUDER_N and flames):
            continue
        w = words[i]
        if _W_DEFENCE <= i < _W_DEFENCE_END and not pile:
            w = 1 if w >= 0 else -1
        h1 = _mix(h1, w + i, _K1)
        h2 = _mix(h2, w ^ (i << 20), _K2)
    for s in range(pub.n):
        for i in range(pub.line_n[s]):
            c = pub.line[s, i]
            v = np.int64(c)
            if not lines:
                v = (pub.value[c] * 1000 + pub.pen1[c] * 20 + pub.pen2[c]) * 4 + (pub.symbol[c] if symbols else 0)
                v += np.int64(_CLASS)
            h1 = _mix(h1, v + (s << 8), _K1)
            h2 = _mix(h2, v ^ (s << 12), _K2)
    if pile:
        for i in range(pub.discard_n):
            h1 = _mix(h1, pub.discard[i] + 1000, _K1)
            h2 = _mix(h2, pub.discard[i] + 3000, _K2)
    for c in range(pub.n_cards):
        h1 = _mix(h1, pub.out_of_play[c] + (c << 4), _K1)
        h2 = _mix(h2, pub.out_of_play[c] ^ (c << 9), _K2)
    for i in range(pub.raider_n):
        h1 = _mix(h1, hid.raider[i] + 7000, _K1)
        h2 = _mix(h2, hid.raider[i] ^ 0x7000, _K2)
    if flames:
        k = 0
        for i in range(pub.intruder_n):
            k += pub.flame[hid.intruder[i]]
        h1 = _mix(h1, k + 9000, _K1)
        h2 = _mix(h2, k ^ 0x9000, _K2)
    else:
        for i in range(pub.intruder_n):
            h1 = _mix(h1, hid.intruder[i] + 9000, _K1)
            h2 = _mix(h2, hid.intruder[i] ^ 0x9000, _K2)
    return _village_and_finish(h1, h2, pub, hid)


@njit(cache=True)
def state_key(pub, hid, scalars, skip, key):
    """The transposition table's key of a turn's start: state_hash (KEY_FULL) or canon_hash (KEY_RB)."""
    if key == KEY_RB:
        return canon_hash(pub, hid, scalars, skip)
    return state_hash(pub, hid, scalars, skip)


@njit(cache=True)
def tt_visit(tt1, tt2, h1, h2, stats):
    """Whether the state (h1, h2) was seen; if not, mark it seen (unless the table is full)."""
    mask = np.uint64(tt1.shape[0] - 1)
    i = h1 & mask
    while True:
        v = tt1[i]
        if v == 0:
            break
        if v == h1 and tt2[i] == h2:
            return True
        i = (i + np.uint64(1)) & mask
    if stats[S_STATES] * 4 < tt1.shape[0] * 3:
        tt1[i] = h1
        tt2[i] = h2
        stats[S_STATES] += 1
    else:
        stats[S_TT_FULL] = 1
    return False


@njit(cache=True, inline="always")
def _load(w, pubs, hids, mems, slot):
    copy_record(w[0], pubs[slot], TABLE_DYNAMIC)
    copy_record(w[1], hids[slot], HIDDEN_SIZE)
    copy_record(w[4], mems[slot], MEM_HEAD)


@njit(cache=True, inline="always")
def _save(w, pubs, hids, mems, slot):
    copy_record(pubs[slot], w[0], TABLE_DYNAMIC)
    copy_record(hids[slot], w[1], HIDDEN_SIZE)
    copy_record(mems[slot], w[4], MEM_HEAD)


@njit(cache=True)
def work_arrays():
    """The search's own arrays, made once for a table and reused deal after deal (solve_deal's
    `work`): a turn start's records by slot, the answers fixed in each turn, the frames of the
    stack, and a flag set once the card tables are copied into the slots."""
    return (np.zeros(MAX_TURNS, dtype=TABLE), np.zeros(MAX_TURNS, dtype=HIDDEN), np.zeros(MAX_TURNS, dtype=MEM),
            np.zeros((MAX_TURNS, MAX_ASKED), dtype=np.int64), np.zeros(MAX_TURNS, dtype=np.int64),
            np.zeros((MAX_FRAMES, 4), dtype=np.int64), np.zeros((MAX_FRAMES, 64), dtype=np.int64),
            np.zeros(1, dtype=np.int64))


# long: one search loop over an explicit stack (numba compiles no recursion over these records); its steps share
# every local, and helpers would pass them all back and forth
@njit(cache=True)
def solve_deal(cfg, seed, game, budget, tt1, tt2, qbuf, layout, line, stats, start_pub, start_hid, work):
    """Search deal `game` of `seed` (or, where start_pub holds one, the position start_pub[0],
    start_hid[0]: a turn's start, built by hand as tests build them, R-16a; its later events keyed
    on the deal) under cfg (event-keyed, the default's decide, question_hook as its planner at
    every question but Q_ABSENT, cfg.pdata = qbuf's address) for at most
    `budget` turn plays (nodes). Returns (answer, the winning line's length); WON writes the line
    into `line`, and stats gets the nodes, turns played through, states kept and deepest turn."""
    pubs, hids, mems, pre, slen, fr, f_opts, ready = work
    f_slot, f_plen, f_k, f_i = fr[:, 0], fr[:, 1], fr[:, 2], fr[:, 3]
    wpubs = np.zeros(1, dtype=TABLE)
    whids = np.zeros(1, dtype=HIDDEN)
    books = np.zeros(1, dtype=BOOK)
    wmems = np.zeros(1, dtype=MEM)
    pub, hid, book, mem = wpubs[0], whids[0], books[0], wmems[0]
    w = (pub, hid, book, cfg, mem)
    scalars, skip = layout[0], layout[1]
    key = layout[2] if layout.shape[0] > 2 else KEY_DEFAULT
    tt1[:] = 0
    tt2[:] = 0
    for i in range(N_STATS):
        stats[i] = 0

    # the deal's start: setup, round 1's deck and the first player, stopped before the first turn
    load_tables(pub, cfg)
    clear_record(book, BOOK_SIZE)
    book.first = -1
    mem.plan = 0
    mem.plan_at = 0
    mem.own = -1.0
    given = start_pub.shape[0] > 0
    if given:
        copy_record(pub, start_pub[0], TABLE_SIZE)
        copy_record(hid, start_hid[0], HIDDEN_SIZE)
        load_readings(pub, cfg)
        recount_unseen(pub)
    seed_streams(hid, mem, seed, game)
    mem.game = game
    cfg.from_state = 0
    cfg.stop_turns = 0
    cfg.fd_n = 0
    qbuf[0] = 0
    if not given:
        setup(w)
        play_game(w)
    if ready[0] == 0:  # the card tables once for the table (the slots' other fields are saved before read)
        for s in range(MAX_TURNS):
            copy_record(pubs[s], pub, TABLE_SIZE)
        ready[0] = 1
    _save(w, pubs, hids, mems, 0)
    h1, h2 = state_key(pub, hid, scalars, skip, key)
    tt_visit(tt1, tt2, h1, h2, stats)
    cfg.from_state = 1
    cfg.stop_turns = 1

    answer = LOST
    truncated = False
    frames = 0
    slot = 0
    plen = 0
    run = True
    while True:
        if run:
            if stats[S_NODES] >= budget:
                answer = UNKNOWN
                break
            stats[S_NODES] += 1
            _load(w, pubs, hids, mems, slot)
            clear_record(book, BOOK_SIZE)
            book.first = -1
            cfg.fd_addr = np.int64(pre[slot].ctypes.data)
            cfg.fd_n = plen
            qbuf[0] = 0
            play_game(w)
            if book.err != 0:
                answer = FAILED
                break
            if qbuf[0] != 0:
                legal = qbuf[5]
                if frames >= MAX_FRAMES or plen + 1 >= MAX_ASKED:
                    truncated = True
                    run = False
                    continue
                own = qbuf[6]
                k = 0
                if 0 <= own < 63 and (legal >> own) & 1:
                    f_opts[frames, 0] = own
                    k = 1
                for o in range(63):
                    if (legal >> o) & 1 and o != own:
                        f_opts[frames, k] = o
                        k += 1
                f_slot[frames] = slot
                f_plen[frames] = plen
                f_k[frames] = k
                f_i[frames] = 0
                frames += 1
                run = False
                continue
            stats[S_TURNS] += 1
            if pub.game_over:
                if pub.outcome == OUT_WIN:
                    slen[slot] = plen
                    answer = WON
                    break
                run = False
                continue
            h1, h2 = state_key(pub, hid, scalars, skip, key)
            if tt_visit(tt1, tt2, h1, h2, stats):
                run = False
                continue
            if slot + 1 >= MAX_TURNS:
                truncated = True
                run = False
                continue
            slen[slot] = plen
            slot += 1
            plen = 0
            _save(w, pubs, hids, mems, slot)
            if slot > stats[S_DEPTH]:
                stats[S_DEPTH] = slot
        else:
            if frames == 0:
                answer = UNKNOWN if truncated else LOST
                break
            f = frames - 1
            if f_i[f] < f_k[f]:
                slot = f_slot[f]
                plen = f_plen[f]
                pre[slot, plen] = f_opts[f, f_i[f]]
                f_i[f] += 1
                plen += 1
                run = True
            else:
                frames -= 1
    n = 0
    if answer == WON:
        for s in range(slot + 1):
            for i in range(slen[s]):
                if n < line.shape[0]:
                    line[n] = pre[s, i]
                n += 1
    keep_alive(pubs, hids, mems, pre)
    keep_alive(wpubs, whids, books, wmems)
    return answer, n
