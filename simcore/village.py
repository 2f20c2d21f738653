"""The village and the samurai boards: barricades, farmsteads, families, wounds.

Game over (R-15) is declared here, at the moment the last farmstead or family falls or a samurai
dies; callers check pub.game_over and unwind.
"""

from numba import njit

from kiai.simcore.codes import (
    FB_LOSE_BARRICADE,
    FB_LOSE_FAMILY,
    FB_LOSE_FARMSTEAD,
    FB_RANDOM_WOUND,
    OUT_DEATH,
    OUT_FAMILIES,
    OUT_FARMSTEADS,
)
from kiai.simcore.events import (
    EV_BARR_ADDED,
    EV_BARR_LOST,
    EV_FAMILY_LOST,
    EV_FARM_LOST,
    EV_HEAL,
    EV_RANDOM,
    EV_WOUND,
    RND_FAMILY,
    RND_FARMSTEAD,
    RND_WOUND,
    log,
    record_row,
)
from kiai.simcore.rng import EVK_FAMILY, EVK_FARM, EVK_WOUND, event, pick_index, rand_below


@njit(cache=True, inline="always")
def end_game(pub, outcome):
    """R-15: the first cause in time classifies the loss."""
    if pub.game_over == 0:
        pub.game_over = 1
        pub.outcome = outcome


@njit(cache=True, inline="always")
def trigger_check(pub, s):
    """Kiai triggers when the total becomes exactly the Kiai value, for a samurai still in the
    round, and never during the end-of-round steps (section 5, R-10)."""
    if pub.round_end_steps == 0 and pub.passed[s] == 0 and pub.total[s] == pub.kiai[s]:
        pub.pending[s] = 1


@njit(cache=True, inline="always")
def add_barricade(g):
    """Never above the number placed at setup (R-11)."""
    pub = g[0]
    if pub.barricades < pub.barricades_max:
        pub.barricades += 1
        log(g, EV_BARR_ADDED, pub.barricades, 0, 0, 0)


@njit(cache=True, inline="always")
def wound(g, s):
    """Section 6: human -> human+token -> animal -> animal+token -> dead (game lost)."""
    pub = g[0]
    if pub.game_over:
        return
    st = pub.wound[s] + 1
    pub.wound[s] = st
    log(g, EV_WOUND, s, st, 0, 0)
    if st == 2:
        # Turning animal keeps the cards and may land the total on the animal Kiai.
        pub.kiai[s] = pub.kiai_value[pub.samurai[s], 1]
        trigger_check(pub, s)
        if pub.round_end_steps and pub.end_kiai and pub.total[s] == pub.kiai[s]:
            pub.pending[s] = 1  # V-4 `on`: passed or not (simcore.rounds.end_of_round resolves it)
    elif st >= 4:
        end_game(pub, OUT_DEATH)


@njit(cache=True, inline="always")
def heal(g, s):
    """Healing removes the wound token only; an animal never turns back (section 6)."""
    pub = g[0]
    st = pub.wound[s]
    if st == 1 or st == 3:
        pub.wound[s] = st - 1
        log(g, EV_HEAL, s, st - 1, 0, 0)


@njit(cache=True)
def lose_family(g):
    """R-13: the lost family is drawn uniformly among those left."""
    pub = g[0]
    if pub.game_over or pub.families == 0:
        return
    scratch = g[1].scratch  # free outside the building of a stack
    k = 0
    for i in range(pub.families_total):
        if (pub.family_mask >> i) & 1:
            scratch[k] = i
            k += 1
    event(g, EVK_FAMILY)
    f = scratch[pick_index(g, scratch, 0, k)]
    record_row(g, EV_RANDOM, RND_FAMILY, f, 0, 0, 0, 0)
    pub.family_mask &= ~(1 << f)
    pub.families -= 1
    log(g, EV_FAMILY_LOST, f, pub.families, 0, 0)
    if pub.families == 0:
        end_game(pub, OUT_FAMILIES)


@njit(cache=True, inline="always")
def _lose_barricade(g):
    pub = g[0]
    pub.barricades -= 1
    log(g, EV_BARR_LOST, pub.barricades, 0, 0, 0)


@njit(cache=True)
def destroy_farmsteads(g, k):
    """R-12: each destroyed farmstead is drawn at random among those standing; at Hard and
    Heroic its hidden back applies at once. Chains (B, or C without barricades) are iterative."""
    pub = g[0]
    hid = g[1]
    pending = k
    while pending > 0 and pub.game_over == 0:
        pending -= 1
        left = pub.farmsteads
        event(g, EVK_FARM)
        i = pick_index(g, hid.farm_alive, 0, left)
        tok = hid.farm_alive[i]
        record_row(g, EV_RANDOM, RND_FARMSTEAD, tok, 0, 0, 0, 0)
        hid.farm_alive[i] = hid.farm_alive[left - 1]
        hid.farm_alive[left - 1] = tok
        pub.farmsteads = left - 1
        back = hid.farm_back[tok]
        pub.backs_left[back] -= 1
        log(g, EV_FARM_LOST, back if pub.farm_penalties else -1, left - 1, 0, 0)
        if left - 1 == 0:
            end_game(pub, OUT_FARMSTEADS)
            return
        if pub.farm_penalties == 0:
            continue
        if back == FB_LOSE_FAMILY:
            lose_family(g)
        elif back == FB_LOSE_FARMSTEAD:
            pending += 1
        elif back == FB_LOSE_BARRICADE:
            if pub.barricades > 0:
                _lose_barricade(g)
            else:
                pending += 1
        elif back == FB_RANDOM_WOUND:
            # R-12 D: uniformly among all n samurai, passed or not
            event(g, EVK_WOUND)
            t = rand_below(g, pub.n)
            record_row(g, EV_RANDOM, RND_WOUND, t, 0, 0, 0, 0)
            wound(g, t)


@njit(cache=True)
def destroy_barricade(g):
    """R-8: a barricade, or a farmstead when none is left."""
    pub = g[0]
    if pub.game_over:
        return
    if pub.barricades > 0:
        _lose_barricade(g)
    else:
        destroy_farmsteads(g, 1)
