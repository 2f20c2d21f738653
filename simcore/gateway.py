"""The decision gateway: every choice of docs/rules.md section 13 passes through ask().

This is the engine's one link to strategies, and it is an address, not an import: the run layer
(strategies.run.compiling) compiles the strategy's decide() on its own and puts its address in cfg.decide;
ask() calls it through that address. So the engine compiles once, whatever the strategies, a
strategy compiles on its own, and a command compiles only the strategies it plays. Nothing is
passed to numba as a function, so numba's on-disk cache keeps every piece.

A strategy's decide has one signature, DECIDE_ARGS:

    decide(prm, pub, mem, q, seat, a, b, legal) -> answer

prm is the address of its parameters (strategies.base reads it as a record), pub the public
table (R-19: the hidden state is never passed, so an honest strategy cannot read it), mem its
own memory, then the question (simcore.questions). ask() also checks invariants when fuzzing,
answers questions with a single legal option without consulting anyone, replays forced
decisions (scripted tests, R-16a; kiai replay), records every decision of a recorded game, and
plays a planner's action for the turn it was made for. An answer outside the legal set is
counted and replaced by the lowest legal option, so a faulty strategy cannot break the rules.

A planner (strategies.lookahead) is called the same way before every turn (cfg.plan), and so is
the invariant checker at every decision when fuzzing (cfg.check): both are hooks of signature
HOOK_ARGS. Kept out of the code that calls them, they cost no compile time where unused.
"""

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from kiai.simcore.events import EV_DECISION, record_row
from kiai.simcore.invariants import ERR_FORCED
from kiai.simcore.obs import lowbit, turn_key
from kiai.simcore.questions import Q_ABSENT, Q_ACTION
from kiai.simcore.rng import mix64
from kiai.simcore.state import BOOK_T, CFG_T, G_TYPE, HIDDEN_T, MEM_T, TABLE_T, data_pointer, int_to_pointer, int_to_voidptr

DECIDE_ARGS = (types.voidptr, TABLE_T, MEM_T, types.int64, types.int64, types.int64, types.int64, types.int64)
HOOK_ARGS = (TABLE_T, HIDDEN_T, BOOK_T, CFG_T, MEM_T)


def _call(context, builder, argtypes, llargs):
    """Call the numba-compiled function of signature int64(*argtypes) whose address is
    llargs[0], with numba's own calling convention (the callee was compiled by njit)."""
    cc = context.call_conv
    fnty = cc.get_function_type(types.int64, argtypes)
    fn = builder.inttoptr(llargs[0], fnty.as_pointer())
    ret = cgutils.alloca_once_value(builder, ir.Constant(ir.IntType(64), 0))
    exc = cgutils.alloca_once(builder, fnty.args[1].pointee)
    packed = cc._get_arg_packer(argtypes).as_arguments(builder, llargs[1:])
    builder.call(fn, [ret, exc, *packed])
    return builder.load(ret)


@intrinsic
def call_decide(typingctx, address, prm, pub, mem, q, seat, a, b, legal):
    sig = types.int64(types.int64, *DECIDE_ARGS)
    return sig, lambda context, builder, sig, args: _call(context, builder, DECIDE_ARGS, args)


@intrinsic
def call_hook(typingctx, address, pub, hid, book, cfg, mem):
    sig = types.int64(types.int64, *HOOK_ARGS)
    return sig, lambda context, builder, sig, args: _call(context, builder, HOOK_ARGS, args)


def address(dispatcher, argtypes) -> int:
    """Compile (or load from the cache) dispatcher for argtypes; the address ask() calls."""
    dispatcher.compile(argtypes)
    cres = dispatcher.overloads[argtypes]
    return cres.library.get_pointer_to_function(cres.fndesc.llvm_func_name)


@njit(cache=True)
def _swap_at(key, i):
    """The partner of position i in a Fisher-Yates pass keyed by `key`: computed from (key, i)
    alone, so the pass can be undone by running it backwards."""
    return np.int64((np.uint64(mix64(key + np.uint64(i)) >> np.uint64(32)) * np.uint64(i + 1)) >> np.uint64(32))


@njit(cache=True)
def scramble(g, key, undo):
    """Reorder, in place, the hidden parts of hid that no honest player may read: the unknown
    part of the raider stack, the intruder stack, and the backs of standing farmsteads (or,
    with `undo`, put them back). A planner that reads hid plans differently on the scrambled
    state; an honest one cannot notice (the R-19 test)."""
    pub = g[0]
    hid = g[1]
    parts = (pub.raider_n - pub.known_n, pub.intruder_n, pub.farmsteads)
    for part in range(3):
        n = parts[part]
        for step in range(1, n):
            i = step if undo else n - step
            j = _swap_at(key + np.uint64(part << 20), i)
            if part == 0:
                hid.raider[i], hid.raider[j] = hid.raider[j], hid.raider[i]
            elif part == 1:
                hid.intruder[i], hid.intruder[j] = hid.intruder[j], hid.intruder[i]
            else:
                ti = hid.farm_alive[i]
                tj = hid.farm_alive[j]
                hid.farm_back[ti], hid.farm_back[tj] = hid.farm_back[tj], hid.farm_back[ti]


@njit(cache=True)
def _call_planner(g):
    """Call the planner (cfg.plan). Under the R-19 test it plans on a scrambled hidden state,
    restored afterwards."""
    cfg = g[3]
    key = np.uint64(0)
    if cfg.scramble:
        key = mix64(np.uint64(g[1].rng[0]) ^ np.uint64(g[2].decisions))
        scramble(g, key, False)
    call_hook(cfg.plan, g[0], g[1], g[2], cfg, g[4])
    if cfg.scramble:
        scramble(g, key, True)


@njit(cache=True)
def plan(g):
    """Before each turn: a planner that plans turns (cfg.plan_turns) writes its action for the
    turn into mem."""
    if g[3].plan_turns:
        g[4].q = 0
        _call_planner(g)


@njit(cache=True)
def _planned_answer(g, q, seat, a, b, legal):
    """A planner weighs the question as it is asked (cfg.plan_questions); -1: it leaves it to
    the strategy."""
    mem = g[4]
    mem.q = q
    mem.seat = seat
    mem.a = a
    mem.b = b
    mem.legal = legal
    mem.answer = -1
    _call_planner(g)
    c = mem.answer
    return c if c >= 0 and (legal >> c) & 1 else -1


@njit(cache=True)
def check(g):
    """When fuzzing: the invariant checker (simcore.invariants.check_hook, by its address)."""
    cfg = g[3]
    if cfg.check:
        call_hook(cfg.check, g[0], g[1], g[2], cfg, g[4])


def checker_address() -> int:
    """The address of the invariant checker, for cfg.check."""
    from kiai.simcore.invariants import check_hook

    return address(check_hook, HOOK_ARGS)


@njit(cache=True, inline="always")
def _answer(g, q, seat, a, b, legal):
    pub = g[0]
    book = g[2]
    cfg = g[3]
    mem = g[4]
    book.decisions += 1
    check(g)
    if q != Q_ABSENT and legal & (legal - 1) == 0:
        return lowbit(legal)
    pos = book.fd_pos
    if pos < cfg.fd_n:
        book.fd_pos = pos + 1
        c = int_to_pointer(cfg.fd_addr)[pos]
        ok = (c & ~legal) == 0 if q == Q_ABSENT else (0 <= c < 63 and (legal >> c) & 1 == 1)
        if not ok:
            if book.err == 0:
                book.err = ERR_FORCED
            return 0 if q == Q_ABSENT else lowbit(legal)
        return c
    # a planner's action for this very turn, when still legal
    if q == Q_ACTION and mem.plan_at == turn_key(pub) and (legal >> mem.plan) & 1:
        return mem.plan
    if cfg.plan and (cfg.plan_questions >> q) & 1:
        c = _planned_answer(g, q, seat, a, b, legal)
        if c >= 0:
            return c
    prm = int_to_voidptr(cfg.prm_at) if cfg.prm_at else data_pointer(cfg.prm)
    c = call_decide(cfg.decide, prm, pub, mem, q, seat, a, b, legal)
    if q == Q_ABSENT:
        if c & ~legal:
            book.illegal += 1
            c &= legal
        return c
    if c < 0 or c > 62 or (legal >> c) & 1 == 0:
        book.illegal += 1
        c = lowbit(legal)
    return c


@njit(types.int64(G_TYPE, types.int64, types.int64, types.int64, types.int64, types.int64), cache=True)
def ask(g, q, seat, a, b, legal):
    c = _answer(g, q, seat, a, b, legal)
    if g[3].recording:
        record_row(g, EV_DECISION, q, seat, a, b, legal, c)
    return c
