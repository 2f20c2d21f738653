"""The one compiled entry point: play a batch of games in parallel.

Simulation, tracing, scripted tests and fuzzing all call play_batch, so one kernel is compiled
(and cached) per process. Games are split into chunks, each chunk reusing one set of state
arrays; game i's random streams depend only on (seed, game0 + i), so results do not depend on
the thread count or on how the batch is cut.
"""

import numpy as np
from numba import njit, prange

from simcore.layout import (
    BARR,
    C_FLAME,
    C_PEN1,
    C_PEN2,
    C_RANK,
    C_SYM,
    C_VALUE,
    FAM_TAB,
    FAMS,
    FARM_BACK,
    FARMS,
    GAME_OVER,
    H_FD,
    H_FR,
    H_SC,
    H_SIZE,
    H_TR,
    K_FD_N,
    K_FR_N,
    K_TR_CAP,
    K_TR_N,
    SC_STRIDE,
    K_CHECK,
    K_CONFRONTED,
    K_DECISIONS,
    K_DEFENDED,
    K_DOLL_CHECK,
    K_END_ROUND,
    K_ERR,
    K_FIRST,
    K_FIRST_SEAT,
    K_FROM_STATE,
    K_ROUNDS_ENDED,
    K_ILLEGAL,
    K_KIAI,
    K_LEVEL_BO,
    K_LEVEL_LT,
    K_LEVEL_PL,
    K_SCRAMBLE,
    K_SCRIPT_ROUNDS,
    K_SID,
    K_SIZE,
    K_STALLED,
    K_STOP_ROUND_END,
    K_STOP_TURNS,
    K_TRACE,
    K_TURNS,
    KIAI_TAB,
    N,
    N_CARDS,
    O_BARR,
    O_CONFRONTED,
    O_DECISIONS,
    O_DEFENDED,
    O_END_ROUND,
    O_ERR,
    O_FAMS,
    O_FARMS,
    O_FIRST_SEAT,
    O_ILLEGAL,
    O_KIAI,
    O_OUTCOME,
    O_SCORE,
    O_STALLED,
    O_TURNS,
    O_WOUND_SUM,
    OUTCOME,
    P_SIZE,
    S_WOUND,
    TR_COLS,
)
from simcore.codes import OUT_WIN
from simcore.obs import sb
from simcore.rng import seed_streams
from simcore.rounds import play_game, setup
from simcore.unseen import recount_unseen
from strategies.planners import plan

# cfg vector handed to the kernel
CFG_SID = 0
CFG_CHECK = 1
CFG_TRACE = 2
CFG_SCRAMBLE = 3
CFG_FIRST_SEAT = 4
CFG_STOP_TURNS = 5
CFG_STOP_ROUND_END = 6
CFG_FROM_STATE = 7
CFG_SCRIPT_ROUNDS = 8
CFG_PLUNDERERS = 9  # per samurai
CFG_LIEUTENANTS = 10  # added in round 2
CFG_BOSSES = 11  # added in round 3
CFG_DOLL_CHECK = 12
CFG_BARRICADES = 13
CFG_FARM_PEN = 14
CFG_FAM_BONUS = 15
CFG_ABSENT = 16
CFG_PLANNER = 17  # 0, or the planner that picks each turn's action (strategies/planners.py)
CFG_SIZE = 18

MAX_CHUNKS = 512


@njit(cache=True)
def _load_tables(P, H, cval, csym, cpen, cflame, crank, kiai, farm_backs, fam_bonus):
    nc = cval.shape[0]
    P[N_CARDS] = nc
    for c in range(nc):
        P[C_VALUE + c] = cval[c]
        P[C_SYM + c] = csym[c]
        P[C_PEN1 + c] = cpen[c, 0]
        P[C_PEN2 + c] = cpen[c, 1]
        P[C_FLAME + c] = cflame[c]
        P[C_RANK + c] = crank[c]
    for i in range(kiai.shape[0]):
        P[KIAI_TAB + 2 * i] = kiai[i, 0]
        P[KIAI_TAB + 2 * i + 1] = kiai[i, 1]
    for i in range(farm_backs.shape[0]):
        H[FARM_BACK + i] = farm_backs[i]
    for i in range(fam_bonus.shape[0]):
        H[FAM_TAB + i] = fam_bonus[i]


@njit(cache=True)
def _record(P, K, row):
    n = P[N]
    row[O_OUTCOME] = P[OUTCOME] if P[GAME_OVER] else -1
    row[O_END_ROUND] = K[K_END_ROUND]
    row[O_BARR] = P[BARR]
    row[O_FARMS] = P[FARMS]
    row[O_FAMS] = P[FAMS]
    wounds = 0
    token = 0
    for s in range(n):
        w = P[sb(s) + S_WOUND]
        wounds += w
        if w == 1 or w == 3:
            token = 1
    row[O_WOUND_SUM] = wounds
    row[O_KIAI] = K[K_KIAI]
    row[O_CONFRONTED] = K[K_CONFRONTED]
    row[O_DEFENDED] = K[K_DEFENDED]
    row[O_STALLED] = K[K_STALLED]
    # rulebook scoring: farmsteads + families + 1 if no samurai holds a wound token
    row[O_SCORE] = P[FARMS] + P[FAMS] + (1 - token) if P[GAME_OVER] and P[OUTCOME] == OUT_WIN else -1
    row[O_TURNS] = K[K_TURNS]
    row[O_ERR] = K[K_ERR]
    row[O_ILLEGAL] = K[K_ILLEGAL]
    row[O_FIRST_SEAT] = K[K_FIRST]
    row[O_DECISIONS] = K[K_DECISIONS]


@njit(cache=True)
def play_planned(g, planner, pprm, Pr, Hr, Kr):
    """Play turn by turn; before each turn the planner chooses the acting samurai's action
    from rollouts on copies of the state (Pr, Hr, Kr). The game itself stops only where a
    test asked it to (K_STOP_TURNS, K_STOP_ROUND_END)."""
    P = g[0]
    K = g[2]
    stop_turns = K[K_STOP_TURNS]
    stop_eor = K[K_STOP_ROUND_END]
    K[K_STOP_TURNS] = K[K_TURNS]  # set up (or resume) and stop before the first turn
    play_game(g)
    K[K_FROM_STATE] = 1
    while P[GAME_OVER] == 0:
        if stop_turns >= 0 and K[K_TURNS] >= stop_turns:
            break
        if stop_eor and K[K_ROUNDS_ENDED] > 0:
            break
        plan(planner, pprm, g, Pr, Hr, Kr)
        K[K_STOP_TURNS] = K[K_TURNS] + 1
        play_game(g)
    K[K_STOP_TURNS] = stop_turns


@njit(cache=True)
def play_chunk(
    cfg, seats, cval, csym, cpen, cflame, crank, kiai, farm_backs, fam_bonus, prm, pprm,
    seed, game0, n_games, lo, hi, FR, FD, SC, P0, H0, out, TR, Pf, Hf, Kf,
):  # fmt: skip
    """Games lo..hi-1 of the batch, reusing one set of state arrays."""
    tr_rows = TR.shape[0] if n_games == 1 and cfg[CFG_TRACE] else 0
    P = np.zeros(P_SIZE, dtype=np.int64)
    H = np.zeros(H_SIZE + tr_rows * TR_COLS, dtype=np.int64)
    K = np.zeros(K_SIZE, dtype=np.int64)
    _load_tables(P, H, cval, csym, cpen, cflame, crank, kiai, farm_backs, fam_bonus)
    # test scripts (R-16a) live in H's tail; play only reads them, so they are written once
    H[H_FR : H_FR + FR.shape[0]] = FR
    H[H_FD : H_FD + FD.shape[0]] = FD
    for r in range(3):
        for j in range(SC.shape[1]):
            H[H_SC + r * SC_STRIDE + j] = SC[r, j]
    g = (P, H, K, prm)
    planner = cfg[CFG_PLANNER]
    Pr = np.zeros(P_SIZE if planner else 0, dtype=np.int64)  # rollout copies for the planner
    Hr = np.zeros(H_SIZE if planner else 0, dtype=np.int64)
    Kr = np.zeros(K_SIZE if planner else 0, dtype=np.int64)
    for i in range(lo, hi):
        K[:] = 0
        K[K_SID] = cfg[CFG_SID]
        K[K_CHECK] = cfg[CFG_CHECK]
        K[K_TRACE] = cfg[CFG_TRACE] if n_games == 1 else 0
        K[K_SCRAMBLE] = cfg[CFG_SCRAMBLE]
        K[K_FIRST_SEAT] = cfg[CFG_FIRST_SEAT]
        K[K_STOP_TURNS] = cfg[CFG_STOP_TURNS]
        K[K_STOP_ROUND_END] = cfg[CFG_STOP_ROUND_END]
        K[K_FROM_STATE] = cfg[CFG_FROM_STATE]
        K[K_SCRIPT_ROUNDS] = cfg[CFG_SCRIPT_ROUNDS]
        K[K_LEVEL_PL] = cfg[CFG_PLUNDERERS]
        K[K_LEVEL_LT] = cfg[CFG_LIEUTENANTS]
        K[K_LEVEL_BO] = cfg[CFG_BOSSES]
        K[K_DOLL_CHECK] = cfg[CFG_DOLL_CHECK]
        K[K_FIRST] = -1
        K[K_TR_CAP] = tr_rows
        K[K_FR_N] = FR.shape[0]
        K[K_FD_N] = FD.shape[0]
        if cfg[CFG_FROM_STATE]:
            P[:] = P0
            H[:H_FR] = H0[:H_FR]  # the game state only: this batch's scripts stay
            recount_unseen(P)  # a state edited by hand sets the per-card flags only
        seed_streams(P, K, seed, game0 + i)
        if not cfg[CFG_FROM_STATE]:
            setup(
                g, seats, cfg[CFG_BARRICADES], farm_backs.shape[0], fam_bonus.shape[0],
                cfg[CFG_FARM_PEN], cfg[CFG_FAM_BONUS], cfg[CFG_ABSENT],
            )  # fmt: skip
        if planner:
            play_planned(g, planner, pprm, Pr, Hr, Kr)
        else:
            play_game(g)
        _record(P, K, out[i])
        if n_games == 1:
            Pf[:] = P
            Hf[:] = H[:H_SIZE]
            Kf[:] = K
            for e in range(min(K[K_TR_N], tr_rows)):
                for j in range(TR_COLS):
                    TR[e, j] = H[H_TR + e * TR_COLS + j]


@njit(cache=True, parallel=True)
def play_batch(
    cfg, seats, cval, csym, cpen, cflame, crank, kiai, farm_backs, fam_bonus, prm, pprm,
    seed, game0, n_games, FR, FD, SC, P0, H0, out, TR, Pf, Hf, Kf,
):  # fmt: skip
    # The parallel loop stays tiny: its body is outlined and compiled again by numba.
    n_chunks = min(n_games, MAX_CHUNKS)
    for ch in prange(n_chunks):
        play_chunk(
            cfg, seats, cval, csym, cpen, cflame, crank, kiai, farm_backs, fam_bonus, prm, pprm,
            seed, game0, n_games, ch * n_games // n_chunks, (ch + 1) * n_games // n_chunks,
            FR, FD, SC, P0, H0, out, TR, Pf, Hf, Kf,
        )  # fmt: skip
