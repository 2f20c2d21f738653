"""The village and the samurai boards: barricades, farmsteads, families, wounds.

Game over (R-15) is declared here, at the moment the last farmstead or family falls or a samurai
dies; callers check P[GAME_OVER] and unwind.
"""

from numba import njit

from simcore.codes import (
    FB_LOSE_BARRICADE,
    FB_LOSE_FAMILY,
    FB_LOSE_FARMSTEAD,
    FB_RANDOM_WOUND,
    OUT_DEATH,
    OUT_FAMILIES,
    OUT_FARMSTEADS,
)
from simcore.layout import (
    K_TRACE,
    BARR,
    BARR_MAX,
    EV_BARR_ADDED,
    EV_BARR_LOST,
    EV_FAMILY_LOST,
    EV_FARM_LOST,
    EV_HEAL,
    EV_WOUND,
    FAM_MASK,
    FAMS,
    FAMS_TOTAL,
    FARM_ALIVE,
    FARM_BACK,
    FARM_PEN,
    FARMS,
    GAME_OVER,
    IN_ROUND_END,
    KIAI_TAB,
    N,
    OUTCOME,
    S_KIAI,
    S_PASSED,
    S_PENDING,
    S_SAM,
    S_TOTAL,
    S_WOUND,
)
from simcore.obs import sb
from simcore.rng import rand_below
from simcore.zones import log


@njit(cache=True)
def end_game(P, outcome):
    """R-15: the first cause in time classifies the loss."""
    if P[GAME_OVER] == 0:
        P[GAME_OVER] = 1
        P[OUTCOME] = outcome


@njit(cache=True)
def trigger_check(P, s):
    """Kiai triggers when the total becomes exactly the Kiai value, for a samurai still in the
    round, and never during the end-of-round steps (section 5, R-10)."""
    b = sb(s)
    if P[IN_ROUND_END] == 0 and P[b + S_PASSED] == 0 and P[b + S_TOTAL] == P[b + S_KIAI]:
        P[b + S_PENDING] = 1


@njit(cache=True)
def add_barricade(g):
    """Never above the number placed at setup (R-11)."""
    P = g[0]
    if P[BARR] < P[BARR_MAX]:
        P[BARR] += 1
        if g[2][K_TRACE]:
            log(g, EV_BARR_ADDED, P[BARR], 0, 0, 0)


@njit(cache=True)
def wound(g, s):
    """Section 6: human -> human+token -> animal -> animal+token -> dead (game lost)."""
    P = g[0]
    if P[GAME_OVER]:
        return
    b = sb(s)
    st = P[b + S_WOUND] + 1
    P[b + S_WOUND] = st
    if g[2][K_TRACE]:
        log(g, EV_WOUND, s, st, 0, 0)
    if st == 2:
        # Turning animal keeps the cards and may land the total on the animal Kiai.
        P[b + S_KIAI] = P[KIAI_TAB + 2 * P[b + S_SAM] + 1]
        trigger_check(P, s)
    elif st >= 4:
        end_game(P, OUT_DEATH)


@njit(cache=True)
def heal(g, s):
    """Healing removes the wound token only; an animal never turns back (section 6)."""
    P = g[0]
    b = sb(s)
    st = P[b + S_WOUND]
    if st == 1 or st == 3:
        P[b + S_WOUND] = st - 1
        if g[2][K_TRACE]:
            log(g, EV_HEAL, s, st - 1, 0, 0)


@njit(cache=True)
def lose_family(g):
    """R-13: the lost family is drawn uniformly among those left."""
    P = g[0]
    if P[GAME_OVER] or P[FAMS] == 0:
        return
    k = rand_below(g, P[FAMS])
    f = 0
    for i in range(P[FAMS_TOTAL]):
        if (P[FAM_MASK] >> i) & 1:
            if k == 0:
                f = i
                break
            k -= 1
    P[FAM_MASK] &= ~(1 << f)
    P[FAMS] -= 1
    if g[2][K_TRACE]:
        log(g, EV_FAMILY_LOST, f, P[FAMS], 0, 0)
    if P[FAMS] == 0:
        end_game(P, OUT_FAMILIES)


@njit(cache=True)
def destroy_farmsteads(g, k):
    """R-12: each destroyed farmstead is drawn at random among those standing; at Hard and
    Heroic its hidden back applies at once. Chains (B, or C without barricades) are iterative."""
    P = g[0]
    H = g[1]
    pending = k
    while pending > 0 and P[GAME_OVER] == 0:
        pending -= 1
        left = P[FARMS]
        i = rand_below(g, left)
        tok = H[FARM_ALIVE + i]
        H[FARM_ALIVE + i] = H[FARM_ALIVE + left - 1]
        H[FARM_ALIVE + left - 1] = tok
        P[FARMS] = left - 1
        back = H[FARM_BACK + tok]
        if g[2][K_TRACE]:
            log(g, EV_FARM_LOST, back if P[FARM_PEN] else -1, left - 1, 0, 0)
        if left - 1 == 0:
            end_game(P, OUT_FARMSTEADS)
            return
        if P[FARM_PEN] == 0:
            continue
        if back == FB_LOSE_FAMILY:
            lose_family(g)
        elif back == FB_LOSE_FARMSTEAD:
            pending += 1
        elif back == FB_LOSE_BARRICADE:
            if P[BARR] > 0:
                P[BARR] -= 1
                if g[2][K_TRACE]:
                    log(g, EV_BARR_LOST, P[BARR], 0, 0, 0)
            else:
                pending += 1
        elif back == FB_RANDOM_WOUND:
            # R-12 D: uniformly among all n samurai, passed or not
            wound(g, rand_below(g, P[N]))


@njit(cache=True)
def destroy_barricade(g):
    """R-8: a barricade, or a farmstead when none is left."""
    P = g[0]
    if P[GAME_OVER]:
        return
    if P[BARR] > 0:
        P[BARR] -= 1
        if g[2][K_TRACE]:
            log(g, EV_BARR_LOST, P[BARR], 0, 0, 0)
    else:
        destroy_farmsteads(g, 1)
