"""Setup, the round loop, the end-of-round steps, next-round decks and the game (sections 2, 9,
10, 11; R-2, R-3, R-9, R-9b, R-9c, R-14..R-18, R-16a)."""

from numba import njit

from simcore.codes import (
    BOSS,
    FAM_ADD_BARRICADE,
    FAM_HEAL_RANDOM,
    FAM_INTRUDER_TO_DISCARD,
    LIEUTENANT,
    OUT_WIN,
    PLUNDERER,
    SYM_DOLL,
)
from simcore.invariants import check
from simcore.layout import (
    K_TRACE,
    ACTING,
    BARR,
    C_FLAME,
    C_RANK,
    C_SYM,
    DISCARD_N,
    EV_BONUS,
    EV_EOR_STEP,
    EV_FLAME,
    EV_GAME_END,
    EV_ROUND_END,
    EV_ROUND_START,
    EV_STALL,
    FAM_BONUS,
    FAM_MASK,
    FAM_TAB,
    FAMS,
    FAMS_TOTAL,
    GAME_OVER,
    IN_ROUND_END,
    HAND,
    H_SC,
    SC_STRIDE,
    ABSENT_AVAIL,
    ABSENT_ON,
    BARR_MAX,
    FARM_ALIVE,
    FARM_PEN,
    FARMS,
    FARMS_TOTAL,
    KIAI_TAB,
    S_KIAI,
    S_SAM,
    S_WOUND,
    EV_SETUP,
    INTRUDER,
    INTRUDER_N,
    K_CHECK,
    K_DOLL_CHECK,
    K_END_ROUND,
    K_ROUND_LOGGED,
    K_ROUNDS_ENDED,
    K_FIRST,
    K_FIRST_SEAT,
    K_FROM_STATE,
    K_LEVEL_BO,
    K_LEVEL_LT,
    K_LEVEL_PL,
    K_SCRIPT_ROUNDS,
    K_STALLED,
    K_STOP_ROUND_END,
    K_STOP_TURNS,
    K_TURNS,
    KNOWN_N,
    LAST_ACTIVE,
    N,
    N_CARDS,
    OUTCOME,
    OUTP,
    RAIDER,
    RAIDER_N,
    ROUND,
    S_ABSENT,
    S_DEF,
    S_HOLDER,
    S_LINE_N,
    S_PASSED,
    S_PENDING,
    S_TOTAL,
    SCRATCH,
    STALLED,
    TURN_NO,
)
from simcore.obs import sb
from simcore.rng import rand_below, shuffle_range
from simcore.turn import play_turn
from simcore.unseen import clear_unseen, mark_unseen
from simcore.village import add_barricade, destroy_barricade, destroy_farmsteads, heal, lose_family, wound
from simcore.zones import discard_push, intruder_pop, log

MAX_TURNS_PER_ROUND = 1000  # R-9b
STOPPED = 2  # play_round's answer when a test asked to stop after some turns


@njit(cache=True)
def _set_stack(g, m):
    """H[SCRATCH:SCRATCH+m] becomes the raider stack (last = top); every other card is out of
    play unless already in a zone."""
    P = g[0]
    H = g[1]
    for i in range(m):
        c = H[SCRATCH + i]
        H[RAIDER + i] = c
        mark_unseen(P, c)
        P[OUTP + c] = 0
    P[RAIDER_N] = m
    P[KNOWN_N] = 0


@njit(cache=True)
def _scripted(g, r):
    """R-16a: the script's cards (top first) form the stack; all others are out of play."""
    P = g[0]
    H = g[1]
    _clear_zones(g)
    clear_unseen(P)
    for c in range(P[N_CARDS]):
        P[OUTP + c] = 1
    sc = H_SC + (r - 1) * SC_STRIDE
    m = H[sc]
    for i in range(m):
        H[SCRATCH + m - 1 - i] = H[sc + 1 + i]
    _set_stack(g, m)


@njit(cache=True)
def _clear_zones(g):
    P = g[0]
    for s in range(P[N]):
        b = sb(s)
        P[b + S_LINE_N] = 0
        P[b + S_TOTAL] = 0
        for slot in range(3):
            P[b + S_DEF + slot] = -1
    P[DISCARD_N] = 0
    P[RAIDER_N] = 0
    P[INTRUDER_N] = 0
    P[KNOWN_N] = 0


@njit(cache=True)
def _draw_rank(g, rank, count, m):
    """Append `count` cards of `rank` drawn at random among those out of play to the scratch
    list of length m (R-16: lieutenants and bosses come at random from their seven)."""
    P = g[0]
    H = g[1]
    lo = m
    for c in range(P[N_CARDS]):
        if P[OUTP + c] == 1 and P[C_RANK + c] == rank:
            H[SCRATCH + m] = c
            m += 1
    for i in range(count):  # partial Fisher-Yates over the candidates
        j = lo + i + rand_below(g, m - lo - i)
        t = H[SCRATCH + lo + i]
        H[SCRATCH + lo + i] = H[SCRATCH + j]
        H[SCRATCH + j] = t
    return lo + count


@njit(cache=True)
def build_round_one(g):
    """Setup's raider stack: p x n plunderers at random; the rest leave the game unseen.
    R-17: with the doll check, redraw fresh blocks until one shows the doll at least twice."""
    P = g[0]
    H = g[1]
    K = g[2]
    clear_unseen(P)
    for c in range(P[N_CARDS]):
        P[OUTP + c] = 1
    if K[K_SCRIPT_ROUNDS] & 1:
        _scripted(g, 1)
        return
    need = K[K_LEVEL_PL] * P[N]
    m = 0
    for c in range(P[N_CARDS]):
        if P[C_RANK + c] == PLUNDERER:
            H[SCRATCH + m] = c
            m += 1
    shuffle_range(g, H, SCRATCH, SCRATCH + m)
    start = 0
    while K[K_DOLL_CHECK]:
        if start + need > m:  # too few left: reshuffle all plunderers and start again
            shuffle_range(g, H, SCRATCH, SCRATCH + m)
            start = 0
        dolls = 0
        for i in range(start, start + need):
            if P[C_SYM + H[SCRATCH + i]] == SYM_DOLL:
                dolls += 1
        if dolls >= 2:
            break
        start += need
    for i in range(need):
        H[SCRATCH + i] = H[SCRATCH + start + i]
    _set_stack(g, need)


@njit(cache=True)
def build_next_round(g, r):
    """R-16: gather every card in play, add the level's lieutenants (round 2) or bosses
    (round 3) at random, shuffle."""
    P = g[0]
    H = g[1]
    K = g[2]
    if K[K_SCRIPT_ROUNDS] & (1 << (r - 1)):
        _scripted(g, r)
        return
    m = 0
    for c in range(P[N_CARDS]):
        if P[OUTP + c] == 0:
            H[SCRATCH + m] = c
            m += 1
    _clear_zones(g)
    if r == 2:
        m = _draw_rank(g, LIEUTENANT, K[K_LEVEL_LT], m)
    else:
        m = _draw_rank(g, BOSS, K[K_LEVEL_BO], m)
    shuffle_range(g, H, SCRATCH, SCRATCH + m)
    _set_stack(g, m)


@njit(cache=True)
def _new_round_state(P):
    """Totals back to 0 (the lines are empty), tokens home, nobody passed (R-16, R-20)."""
    for s in range(P[N]):
        b = sb(s)
        P[b + S_PASSED] = 0
        P[b + S_PENDING] = 0
        P[b + S_HOLDER] = s
        P[b + S_ABSENT] = 0
    P[TURN_NO] = 0
    P[STALLED] = 0


@njit(cache=True)
def play_round(g, first):
    """Turns clockwise until the raider stack is empty (R-9) or all have passed. Returns 0
    (stack empty), 1 (all passed), 3 (stalled, R-9b) or STOPPED."""
    P = g[0]
    K = g[2]
    n = P[N]
    seat = first
    while True:
        if P[RAIDER_N] == 0:
            return 0
        alive = 0
        for s in range(n):
            if P[sb(s) + S_PASSED] == 0:
                alive += 1
        if alive == 0:
            return 1
        if P[TURN_NO] >= MAX_TURNS_PER_ROUND:
            # R-9b: everyone still in passes; R-9c: the last active is whose turn ran last
            for s in range(n):
                P[sb(s) + S_PASSED] = 1
            P[STALLED] = 1
            K[K_STALLED] = 1
            if g[2][K_TRACE]:
                log(g, EV_STALL, 0, 0, 0, 0)
            return 3
        if P[sb(seat) + S_PASSED]:
            seat = (seat + 1) % n
            continue
        if K[K_STOP_TURNS] >= 0 and K[K_TURNS] >= K[K_STOP_TURNS]:
            P[ACTING] = seat
            return STOPPED
        play_turn(g, seat)
        P[LAST_ACTIVE] = seat  # whose turn was in progress, or who passed last
        if K[K_CHECK] and P[GAME_OVER] == 0:
            check(g)
        if P[GAME_OVER]:
            return 0
        seat = (seat + 1) % n


@njit(cache=True)
def end_of_round(g):
    """Section 9's four steps, each for every samurai in seat order before the next."""
    P = g[0]
    H = g[1]
    n = P[N]
    P[IN_ROUND_END] = 1  # nothing triggers Kiai now
    for s in range(n):
        P[sb(s) + S_PENDING] = 0
    if g[2][K_TRACE]:
        log(g, EV_EOR_STEP, 1, 0, 0, 0)
    for s in range(n):
        if P[sb(s) + S_DEF + 0] < 0:
            wound(g, s)
            if P[GAME_OVER]:
                return
    if g[2][K_TRACE]:
        log(g, EV_EOR_STEP, 2, 0, 0, 0)
    for s in range(n):
        if P[sb(s) + S_DEF + 1] < 0:
            destroy_farmsteads(g, 1)
            if P[GAME_OVER]:
                return
    if g[2][K_TRACE]:
        log(g, EV_EOR_STEP, 3, 0, 0, 0)
    for s in range(n):
        if P[sb(s) + S_DEF + 2] < 0:
            lose_family(g)
            if P[GAME_OVER]:
                return
    if P[FAM_BONUS]:  # skipped at Heroic; in the component file's order
        for f in range(P[FAMS_TOTAL]):
            if (P[FAM_MASK] >> f) & 1 == 0:
                continue
            bonus = H[FAM_TAB + f]
            if bonus == FAM_HEAL_RANDOM:
                t = rand_below(g, n)  # among all samurai; nothing if no token
                if g[2][K_TRACE]:
                    log(g, EV_BONUS, f, bonus, t, 0)
                heal(g, t)
            elif bonus == FAM_ADD_BARRICADE:
                if g[2][K_TRACE]:
                    log(g, EV_BONUS, f, bonus, -1, 0)
                add_barricade(g)
            elif bonus == FAM_INTRUDER_TO_DISCARD:
                if g[2][K_TRACE]:
                    log(g, EV_BONUS, f, bonus, -1, 0)
                if P[INTRUDER_N] > 0:
                    discard_push(P, intruder_pop(g))
    if g[2][K_TRACE]:
        log(g, EV_EOR_STEP, 4, 0, 0, 0)
    while P[INTRUDER_N] > 0:
        c = intruder_pop(g)
        discard_push(P, c)
        if g[2][K_TRACE]:
            log(g, EV_FLAME, c, P[C_FLAME + c], 0, 0)
        if P[C_FLAME + c]:
            destroy_barricade(g)
            if P[GAME_OVER]:
                return
    P[IN_ROUND_END] = 0



@njit(cache=True)
def setup(g, seats, barricades, n_farms, n_fams, farm_pen, fam_bonus, absent_on):
    """Section 2: the village, the boards (human side, no wound, own token), empty zones."""
    P = g[0]
    H = g[1]
    n = seats.shape[0]
    P[N] = n
    P[ROUND] = 1
    P[ACTING] = 0
    P[BARR] = barricades
    P[BARR_MAX] = barricades
    P[FARMS] = n_farms
    P[FARMS_TOTAL] = n_farms
    P[FAMS] = n_fams
    P[FAMS_TOTAL] = n_fams
    P[FAM_MASK] = (1 << n_fams) - 1
    P[FARM_PEN] = farm_pen
    P[FAM_BONUS] = fam_bonus
    P[GAME_OVER] = 0
    P[OUTCOME] = 0
    P[IN_ROUND_END] = 0
    P[LAST_ACTIVE] = 0
    P[HAND] = -1
    P[ABSENT_ON] = absent_on
    present = 0
    for s in range(n):
        present |= 1 << seats[s]
    P[ABSENT_AVAIL] = (127 & ~present) if absent_on else 0
    for f in range(n_farms):
        H[FARM_ALIVE + f] = f
    for s in range(n):
        b = sb(s)
        P[b + S_SAM] = seats[s]
        P[b + S_WOUND] = 0
        P[b + S_KIAI] = P[KIAI_TAB + 2 * seats[s]]
    _clear_zones(g)
    _new_round_state(P)


@njit(cache=True)
def _all_passed_to_intruder(g):
    """When all have passed, the raider stack goes on the intruder stack in its order: its top
    card becomes the intruder stack's top card (section 9)."""
    P = g[0]
    H = g[1]
    for i in range(P[RAIDER_N]):
        H[INTRUDER + P[INTRUDER_N] + i] = H[RAIDER + i]
    P[INTRUDER_N] += P[RAIDER_N]
    P[RAIDER_N] = 0
    P[KNOWN_N] = 0


@njit(cache=True)
def play_game(g):
    """Rounds 1-3 from setup (or from a given state, K_FROM_STATE), until the game is won or
    lost (R-15) or a test's stop point is reached."""
    P = g[0]
    K = g[2]
    n = P[N]
    if K[K_FROM_STATE] == 0:
        build_round_one(g)
        first = K[K_FIRST_SEAT] if K[K_FIRST_SEAT] >= 0 else rand_below(g, n)
        K[K_FIRST] = first
        if g[2][K_TRACE]:
            log(g, EV_SETUP, n, P[BARR], P[RAIDER_N], 0)
    else:
        first = P[ACTING]
    r = P[ROUND]
    while True:
        if g[2][K_TRACE] and K[K_ROUND_LOGGED] != r:
            K[K_ROUND_LOGGED] = r  # resumed play (planners) does not log the start again
            log(g, EV_ROUND_START, first, P[RAIDER_N], 0, 0)
        res = play_round(g, first)
        if res == STOPPED:
            return
        if P[GAME_OVER] == 0:
            if res != 0:
                _all_passed_to_intruder(g)
            if g[2][K_TRACE]:
                log(g, EV_ROUND_END, res, P[LAST_ACTIVE], 0, 0)
            end_of_round(g)
            K[K_ROUNDS_ENDED] += 1
        if P[GAME_OVER]:
            break
        if K[K_STOP_ROUND_END]:
            return
        if r == 3:
            P[GAME_OVER] = 1
            P[OUTCOME] = OUT_WIN
            break
        first = (P[LAST_ACTIVE] + 1) % n
        r += 1
        P[ROUND] = r
        build_next_round(g, r)
        _new_round_state(P)
    K[K_END_ROUND] = r
    if g[2][K_TRACE]:
        log(g, EV_GAME_END, P[OUTCOME], 0, 0, 0)
