"""A game's state, as named records.

One game is five numpy records (structured dtypes), bundled in the tuple
``g = (pub, hid, book, cfg, mem)``; numba passes each record as one pointer and counts no
references, so a call costs five machine words whatever the state holds.

    pub   TABLE    everything face up (docs/rules.md section 12): the observation strategies see (R-19)
    hid   HIDDEN   what no honest player may read: the stacks' order, the farmstead backs, and
                   the game's random stream
    book  BOOK     bookkeeping: counters for the results, script cursors, the first error
    cfg   CFG      how the batch is played: level numbers, run flags, the strategy, test scripts
    mem   MEM      the strategy's own memory: its random stream and a planner's planned action

Seats are numbered 0..n-1 clockwise (R-2); per-seat fields are arrays of MAX_SEATS indexed by
seat (``pub.total[s]``). Cards are integers indexing the card tables at the end of TABLE
(``pub.value[c]``), in the component file's order. A stack is stored bottom first, so its top
card is the last one (``hid.raider[pub.raider_n - 1]``).

TABLE keeps the fields that change during a game first and the card tables (constant for a
batch) last, so a planner's rollout copies only the first TABLE_DYNAMIC bytes.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from kiai.simcore.codes import CARD_CAP, MAX_SEATS

U_BINS = 7 * 4  # unseen-card bins: value (0..6) * 4 + symbol (R-19a)
N_PARAMS = 16  # floats a strategy's (or a planner's) parameters may use
SEATS = MAX_SEATS
CAP = CARD_CAP


def _field(name, f):
    # (name,) is a scalar int64; (name, shape) an int64 array; (name, dtype, shape) any
    if not f:
        return (name, np.int64)
    if len(f) == 1:
        return (name, np.int64, f[0])
    return (name, f[0], f[1])


TABLE = np.dtype([_field(name, f) for name, *f in (
    # ---- the village and the round
    ("n",),  # samurai in the game
    ("round_no",),  # 1..3
    ("acting",),  # seat whose turn is in progress
    ("turn_no",),  # turns played in this round (R-9b)
    ("last_active",),  # whose turn was in progress when the round ended / who passed last
    ("barricades",),
    ("barricades_max",),  # placed at setup: the ceiling of R-11
    ("farmsteads",),
    ("farmsteads_total",),
    ("families",),
    ("families_total",),
    ("family_mask",),  # bit f: family f (component order) still in the village
    ("backs_left", (4,)),  # standing farmsteads by back (codes.FB_*): a public multiset
    ("game_over",),
    ("outcome",),  # codes.OUT_*
    ("round_end_steps",),  # the end-of-round steps are running: no Kiai triggers
    # ---- the turn in progress (penalty flags bind the acting samurai only)
    ("no_defend",),
    ("no_support",),
    ("must_pass",),
    ("no_talent",),
    ("fought",),  # the acting samurai chose Fight
    ("extra_fight",),  # Kikuchiyo's extra fight used (R-7b)
    ("hand",),  # the revealed card being handled, not yet placed, or -1
    ("redrawn",),  # seat mask: redrew during the current fight (R-7a)
    ("chain",),  # seat mask: handled the card in hand in this chain of gives (R-7, R-7a)
    ("drawn_out",),  # the raider stack was emptied by drawing its last card (V-3 `drawn`)
    ("pen_given", (2,)),  # card bits: gave its battle penalty since entering its line (V-2 `once`)
    # ---- absent support tokens (section 11, R-18)
    ("absent_on",),
    ("absent_avail",),  # samurai-id mask of absent tokens not yet used in this game
    ("farm_penalties",),  # the level applies farmstead backs (Hard, Heroic)
    ("family_bonuses",),  # the level gives family bonuses (all but Heroic)
    # ---- stacks: sizes public, order hidden
    ("raider_n",),
    ("intruder_n",),
    ("discard_n",),
    ("known_n",),  # top raider cards made public by Katsushiro's Kiai
    # ---- seats
    ("samurai", (SEATS,)),  # samurai id (codes.SAMURAI) of each seat
    ("wound", (SEATS,)),  # 0 human, 1 human+token, 2 animal, 3 animal+token, 4 dead (section 6)
    ("kiai", (SEATS,)),  # current Kiai value (side dependent)
    ("total", (SEATS,)),  # combat total = sum of the combat line
    ("passed", (SEATS,)),
    ("line_n", (SEATS,)),
    ("holder", (SEATS,)),  # seat holding this seat's support token (itself when at home)
    ("lent", (SEATS,)),  # talent mask lent by absent tokens for this round (R-20a)
    ("pending", (SEATS,)),  # a Kiai trigger waits to be resolved
    ("defence", (SEATS, 3)),  # by symbol - 1 (hat, farm, doll): card id or -1
    # ---- zones
    ("line", (SEATS, CAP)),  # combat lines, oldest card first
    ("discard", (CAP,)),  # bottom first
    ("known", (4,)),  # known[0] is the top card of the raider stack
    ("unseen", (CAP,)),  # 1: the card lies in the raider or intruder stack (R-19a)
    ("out_of_play", (CAP,)),  # 1: out of play this round
    # Section 12 counting, kept in step by simcore/unseen.py when cfg.counting is set: the unseen
    # cards by bin (value * 4 + symbol), and per bin how often each penalty code appears on them,
    # packed 8 bits a code in two words (word code // 8, field code % 8). A field never exceeds
    # the number of cards, so the words of several bins add up without carries.
    ("bin_n", (U_BINS,)),
    ("bin_pens", (U_BINS, 2)),
    ("bin_flames",),  # unseen cards with the flame mark (R-19a)
    # ---- the card tables: constant for a batch (copied from the components)
    ("n_cards",),
    ("value", (CAP,)),
    ("symbol", (CAP,)),
    ("pen1", (CAP,)),
    ("pen2", (CAP,)),
    ("flame", (CAP,)),
    ("rank", (CAP,)),
    ("kiai_value", (SEATS, 2)),  # [samurai id, side]: human, animal
    ("family_kind", (16,)),  # bonus of family f (codes.FAM_*); families lie face up
    # the rule readings played (simcore.readings, docs/rules.md section 14): 0 is docs/rules.md's
    ("heal_wounded",),  # V-1
    ("penalty_once",),  # V-2
    ("round_end_drawn",),  # V-3
    ("end_kiai",),  # V-4
    ("second_fight_always",),  # V-5
)])
TABLE_DYNAMIC = TABLE.fields["n_cards"][1]  # bytes of TABLE that change during a game

HIDDEN = np.dtype([_field(name, f) for name, *f in (
    ("raider", (CAP,)),  # bottom first: the top card is raider[pub.raider_n - 1]
    ("intruder", (CAP,)),  # bottom first
    ("farm_alive", (16,)),  # farmstead tokens still standing, in no particular order
    ("farm_back", (16,)),  # back of each token (codes.FB_*)
    ("scratch", (CAP,)),  # work space for gathering and shuffling
    ("rng", (1,)),  # the game's random stream (SplitMix64 state as int64 bits; rng.py)
    # event-keyed outcomes (cfg.event_keyed, rng.event): the deal's key and, per kind of random
    # event, how many have happened; each event's stream is a function of these alone
    ("ev_base",),
    ("ev_n", (8,)),
)])

BOOK = np.dtype([_field(name, f) for name, *f in (
    ("kiai",),  # Kiai activations
    ("confronted",),
    ("defended",),
    ("stalled",),  # a round of this game stalled (R-9b)
    ("turns",),
    ("decisions",),
    ("end_round",),
    ("first",),  # the first player of round 1 as played
    ("rounds_ended",),  # end-of-round steps done (a stop point for tests)
    ("err",),  # first invariant violation (invariants.ERR_*), 0 if none
    ("err_where",),  # the decision count when err was set
    ("illegal",),  # answers a strategy gave outside the legal set
    ("fr_pos",),  # cursor in the forced random outcomes (cfg.fr_addr)
    ("fd_pos",),  # cursor in the forced decisions (cfg.fd_addr)
    ("trace_n",),  # events logged
)])

MEM = np.dtype([_field(name, f) for name, *f in (
    ("stream", (1,)),  # the strategy's own random stream, independent of the game's (rng.py)
    ("plan",),  # the answer a planner chose for the next Q_ACTION ...
    ("plan_at",),  # ... and the turn it is for (obs.turn_key; 0: no plan)
    # a question handed to a planner as it is asked (cfg.plan_questions, simcore.gateway) ...
    ("q",),  # 0: the turn's start (no question)
    ("seat",),
    ("a",),
    ("b",),
    ("legal",),
    ("answer",),  # ... and its answer (-1: let the strategy answer)
    ("collect",),  # training's one hook: the address of what a run collects from its games, or 0 (strategies.helpers.collect)
    ("game",),  # the game's index in its batch (a row a run collects names its game by it)
    ("own", np.float64, ()),  # a strategy's own number for the game, -1 at each game's start (selfplay: the value it last saw)
    ("work", np.float32, (2560,)),  # scratch for the strategy's own computations (one per thread) ...
    ("nz_at", np.int64, (640,)),  # ... and a list of positions in it (strategies.learned._scores)
)])
MEM_HEAD = MEM.fields["q"][1]  # bytes of MEM a rollout copies: the stream and the plan

CFG = np.dtype([_field(name, f) for name, *f in (
    # ---- the table: who sits where, the level's numbers (docs/rules.md section 10)
    ("n",),
    ("seats", (SEATS,)),  # samurai id of each seat
    ("plunderers",),  # per samurai
    ("lieutenants",),  # added in round 2
    ("bosses",),  # added in round 3
    ("barricades",),
    ("farm_penalties",),
    ("family_bonuses",),
    ("doll_check",),  # two samurai only
    ("absent_on",),
    ("n_cards",),
    ("value", (CAP,)),
    ("symbol", (CAP,)),
    ("pen1", (CAP,)),
    ("pen2", (CAP,)),
    ("flame", (CAP,)),
    ("rank", (CAP,)),
    ("kiai_value", (SEATS, 2)),
    ("n_farms",),
    ("farm_backs", (16,)),
    ("n_families",),
    ("family_kinds", (16,)),
    ("readings", (8,)),  # the rule readings, in simcore.readings.READINGS's order (TABLE's heal_wounded...)
    # ---- the strategy: its compiled decide() and parameters, and a planner's
    ("decide",),  # address of the strategy's decide (simcore.gateway)
    ("prm", np.float64, (N_PARAMS,)),
    ("counting",),  # keep the unseen-card bins in step (the strategy reads them, R-19a)
    ("prm_at",),  # address of the parameters when they are more than prm holds (a model), or 0
    ("plan",),  # address of a planner (strategies.lookahead), or 0 ...
    ("plan_turns",),  # ... called before every turn ...
    ("plan_questions",),  # ... and at the questions whose bit (1 << q) is set ...
    ("plan_variant",),  # ... which of its variants is played (a planner module's own numbering) ...
    ("pprm", np.float64, (N_PARAMS,)),  # ... and its parameters ...
    ("pdata",),  # ... or the address of its record of parameters and data (a value's weights), or 0
    # ---- how to play: tests, fuzzing, tracing
    ("check",),  # address of the invariant checker called at every decision (fuzzing), or 0
    ("tracing",),
    ("recording",),  # the trace also holds decisions, random outcomes and states (kiai record)
    ("trace_addr",),  # the event log's buffer (int64 rows of events.TR_COLS) ...
    ("trace_cap",),  # ... and its rows
    ("scramble",),  # planners see a scrambled hidden state (the R-19 test)
    ("first_seat",),  # -1: drawn at random
    ("stop_turns",),  # stop before this many turns have been played (-1: play on)
    ("stop_round_end",),  # stop after the first end-of-round steps
    ("from_state",),  # start from a given pub and hid instead of a setup
    ("script_rounds",),  # bit r-1: round r's raider stack is scripted (R-16a)
    ("deck", (3, CAP + 1)),  # scripted stacks: count, then the cards top first
    # forced random outcomes and decisions, consumed in order (R-16a; kiai replay): int64
    # buffers held by the caller, by address
    ("fr_addr",),
    ("fr_n",),
    ("fr_values",),  # 1: a forced outcome is the element drawn (a card, a token), not its index
    ("fd_addr",),
    ("fd_n",),
    # 1: every random event of a game draws from a stream keyed on the deal and the event itself
    # (round r's deck, the k-th farmstead pick, ...; rng.event), not from one shared stream, so
    # that no sequence of decisions can steer a later outcome (the perfect-information solver,
    # simcore.solve). 0: the default
    ("event_keyed",),
)])

TABLE_T = numba.from_dtype(TABLE)
HIDDEN_T = numba.from_dtype(HIDDEN)
BOOK_T = numba.from_dtype(BOOK)
CFG_T = numba.from_dtype(CFG)
MEM_T = numba.from_dtype(MEM)
# The numba type of g. Functions called with constant arguments at many call sites (ask, log)
# are compiled for this one signature: numba otherwise compiles a copy per literal argument.
G_TYPE = types.Tuple((TABLE_T, HIDDEN_T, BOOK_T, CFG_T, MEM_T))

TABLE_SIZE = TABLE.itemsize
HIDDEN_SIZE = HIDDEN.itemsize
BOOK_SIZE = BOOK.itemsize
CFG_SIZE = CFG.itemsize


@numba.njit(cache=True)
def keep_alive(a, b, c, d):
    """A record taken from an array (``pubs[0]``) does not hold the array: numba frees an
    array after its last use, so a function that works on such records calls this with the
    arrays after its last use of the records."""


def new(dtype: np.dtype) -> np.recarray:
    """A zeroed one-record array (np.recarray, so fields read as attributes: ``a.total[2]``)."""
    return np.zeros(1, dtype=dtype).view(np.recarray)


@intrinsic
def copy_record(typingctx, dst, src, nbytes):
    """Copy the first nbytes of record src into record dst (records of the same dtype)."""

    def codegen(context, builder, sig, args):
        d = builder.bitcast(args[0], cgutils.voidptr_t)
        s = builder.bitcast(args[1], cgutils.voidptr_t)
        cgutils.raw_memcpy(builder, d, s, args[2], 1)

    return types.void(dst, src, types.intp), codegen


@intrinsic
def clear_record(typingctx, rec, nbytes):
    """Set the first nbytes of record rec to zero: every field 0, without naming each."""

    def codegen(context, builder, sig, args):
        cgutils.memset(builder, builder.bitcast(args[0], cgutils.voidptr_t), args[1], 0)

    return types.void(rec, types.intp), codegen


@intrinsic
def data_pointer(typingctx, arr):
    """The address of an array's data, as handed to a strategy for its parameters."""

    def codegen(context, builder, sig, args):
        ary = cgutils.create_struct_proxy(sig.args[0])(context, builder, value=args[0])
        return builder.bitcast(ary.data, cgutils.voidptr_t)

    return types.voidptr(arr), codegen


@intrinsic
def int_to_voidptr(typingctx, address):
    """An address kept as an int64 (cfg.prm_at) as a pointer."""

    def codegen(context, builder, sig, args):
        return builder.inttoptr(args[0], cgutils.voidptr_t)

    return types.voidptr(types.int64), codegen


def _typed_pointer(dtype):
    ptr = types.CPointer(dtype)

    @intrinsic
    def to_pointer(typingctx, address):
        def codegen(context, builder, sig, args):
            return builder.inttoptr(args[0], context.get_value_type(ptr))

        return ptr(types.int64), codegen

    return to_pointer


# a buffer's address kept as an int64 (cfg.trace_addr, cfg.fd_addr, cfg.fr_addr; a strategy's
# collected rows) as a typed pointer, for numba.carray
int_to_pointer = _typed_pointer(types.int64)
int_to_float32_pointer = _typed_pointer(types.float32)


def record_view(rec_type):
    """An intrinsic that reads a pointer as a record of rec_type (a strategy's parameters)."""

    @intrinsic
    def view(typingctx, ptr):
        def codegen(context, builder, sig, args):
            return builder.bitcast(args[0], context.get_value_type(rec_type))

        return rec_type(types.voidptr), codegen

    return view
