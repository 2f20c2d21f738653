"""`lookahead`: before each turn, sample hidden card orders consistent with the public
observation, play every candidate action (Fight, Pass, Support to each samurai) forward with a
base heuristic on each sample, and take the action whose rollouts end best.

It runs inside numba, between turns (simcore.kernel.play_planned), on copies of the state: it
never plays inside the engine's call stack. Honesty (R-19): before a rollout every hidden part
of the copy is replaced by a sample drawn from public information only: the unseen cards not
made known by Katsushiro are dealt at random over the unknown part of the raider stack and the
intruder stack, the backs of the standing farmsteads are shuffled among them, and the game's
future random events come from a stream derived from the strategy's own public stream. The
cheating `foresight` reuses this planner without the sampling, and the cheating `peek` with
samples that keep the true next raider card on top (keep_next_card).

Parameters (pprm): samples, base (0 counter, 1 kiai, 2 team, 3 risk), horizon (0: to the end
of the round, then a value of the village; 1: to the end of the game), support (consider
Support actions), the village value's weights (farm, family, wound, scarce), and value (0 those
weights, 1 the fitted chance to win from the village, WIN_FIT), and margin (how sure the honest
planner must be before it overrides its base).
"""

import numpy as np
from numba import njit

from simcore.layout import (
    ACT_FIGHT,
    ACT_PASS,
    ACT_SUPPORT,
    ACTING,
    BARR,
    FAMS,
    FARM_ALIVE,
    FARM_BACK,
    FARMS,
    GAME_OVER,
    H_FR,
    INTRUDER,
    INTRUDER_N,
    K_CHECK,
    K_FD_N,
    K_FR_N,
    K_FROM_STATE,
    K_RNG,
    K_SCRAMBLE,
    K_STOP_ROUND_END,
    K_STOP_TURNS,
    K_TRACE,
    KNOWN,
    KNOWN_N,
    N,
    N_CARDS,
    OUTCOME,
    RAIDER,
    RAIDER_N,
    ROUND,
    S_HOLDER,
    S_KIAI,
    S_PASSED,
    S_PLAN,
    S_PLAN_AT,
    S_TOTAL,
    S_WOUND,
    SCRATCH,
    SRNG,
    UNSEEN,
)
from simcore.codes import OUT_WIN
from simcore.obs import sb, turn_key
from simcore.rng import mix64, stream_below
from simcore.rounds import play_game

MAX_CANDIDATES = 9


@njit(cache=True)
def plan_key(P):
    """Names the next turn: the plan is used only in the turn it was made for."""
    return turn_key(P) + 1  # planned between turns, before play_turn counts the next one


@njit(cache=True)
def resample(P, H, R):
    """Replace every hidden part of H by a random arrangement consistent with P (R-19)."""
    known = P[KNOWN_N]
    m = 0
    for c in range(P[N_CARDS]):
        if P[UNSEEN + c]:
            is_known = False
            for i in range(known):
                if P[KNOWN + i] == c:
                    is_known = True
            if not is_known:
                H[SCRATCH + m] = c
                m += 1
    for i in range(m - 1, 0, -1):
        j = stream_below(R, 0, i + 1)
        H[SCRATCH + i], H[SCRATCH + j] = H[SCRATCH + j], H[SCRATCH + i]
    unknown = P[RAIDER_N] - known
    for i in range(unknown):  # bottom part of the raider stack
        H[RAIDER + i] = H[SCRATCH + i]
    for i in range(known):  # the known top cards, top last
        H[RAIDER + P[RAIDER_N] - 1 - i] = P[KNOWN + i]
    for i in range(P[INTRUDER_N]):
        H[INTRUDER + i] = H[SCRATCH + unknown + i]
    # the backs of the standing farmsteads: their multiset is public (fallen ones were
    # revealed), so sort it, then deal it at random over the standing tokens
    f = P[FARMS]
    backs = np.empty(f, dtype=np.int64)
    for i in range(f):
        backs[i] = H[FARM_BACK + H[FARM_ALIVE + i]]
    backs.sort()
    for i in range(f - 1, 0, -1):
        j = stream_below(R, 0, i + 1)
        backs[i], backs[j] = backs[j], backs[i]
    for i in range(f):
        H[FARM_BACK + H[FARM_ALIVE + i]] = backs[i]


@njit(cache=True)
def _wound_value(w):
    if w >= 4:
        return 30.0
    if w == 3:
        return 6.0
    if w == 2:
        return 2.0
    return 0.5 * w


@njit(cache=True)
def village_value(P, pprm):
    """How well the samurai stand: what the rollouts compare. Weights (pprm[4:]): a farmstead,
    a family, the wound table's scale, and `scarce`, a barrier that grows as the last
    farmstead, family or wound before death comes near (the game is lost at the first of them)."""
    if P[GAME_OVER]:
        if P[OUTCOME] == OUT_WIN:
            return 1000.0 + 10.0 * (P[FARMS] + P[FAMS])
        return -60.0 + 20.0 * P[ROUND]
    farm, family, wound, scarce = pprm[4], pprm[5], pprm[6], pprm[7]
    v = 1.0 * P[BARR] + farm * P[FARMS] + family * P[FAMS] + 40.0 * P[ROUND]
    v -= scarce * (1.0 / P[FARMS] + 1.0 / P[FAMS])
    for s in range(P[N]):
        w = P[sb(s) + S_WOUND]
        v -= wound * _wound_value(w) + scarce / (4 - w)
    return v


@njit(cache=True)
def candidates(P, s, support, out):
    """The actions the acting samurai may choose at this turn, as far as is known before its
    battle penalty (section 3): Fight, Pass, and Support to each samurai still in."""
    b = sb(s)
    if P[RAIDER_N] == 0 or P[b + S_TOTAL] > P[b + S_KIAI] or P[b + S_PASSED]:
        return 0
    out[0] = ACT_FIGHT
    out[1] = ACT_PASS
    k = 2
    if support and P[b + S_HOLDER] == s:
        for t in range(P[N]):
            if t != s and P[sb(t) + S_PASSED] == 0:
                out[k] = ACT_SUPPORT + t
                k += 1
    return k


# The chance to win from the village at the end of round 1 or 2: a logistic model, fitted by
# strategies/village_fit.py (statsmodels Logit on 200,000 `risk` games, Normal, four samurai,
# three line-ups). Terms: constant, barricades, farmsteads, families, and the number of
# samurai at each wound state past the first (1 human+token, 2 animal, 3 animal+token).
WIN_FIT = (
    (-10.755, 0.592, 0.483, 0.640, -0.300, -0.802, -8.0),
    (-7.934, 0.567, 0.714, 0.361, -0.062, -0.322, -4.247),
)


@njit(cache=True)
def win_chance(P):
    """The fitted chance to win from P at the end of a round (WIN_FIT); exact once the game
    is over or the last round is done."""
    if P[GAME_OVER]:
        return 1.0 if P[OUTCOME] == OUT_WIN else 0.0
    r = P[ROUND]
    if r >= 3:
        return 1.0
    cf = WIN_FIT[r - 1]
    eta = cf[0] + cf[1] * P[BARR] + cf[2] * P[FARMS] + cf[3] * P[FAMS]
    for s in range(P[N]):
        w = P[sb(s) + S_WOUND]
        if w >= 1:
            eta += cf[3 + w]
    return 1.0 / (1.0 + np.exp(-eta))


@njit(cache=True)
def keep_next_card(P, H, Hs):
    """CHEATING (`peek`): put the true next raider card H holds on top of the sample Hs,
    swapping it with the card there, so the sample is uniform among the orders with that card
    next. A card Katsushiro made known (R-19) is on top already."""
    if P[RAIDER_N] == 0 or P[KNOWN_N] > 0:
        return
    top = RAIDER + P[RAIDER_N] - 1
    c = H[top]
    for i in range(P[RAIDER_N]):
        if Hs[RAIDER + i] == c:
            Hs[RAIDER + i], Hs[top] = Hs[top], Hs[RAIDER + i]
            return
    for i in range(P[INTRUDER_N]):
        if Hs[INTRUDER + i] == c:
            Hs[INTRUDER + i], Hs[top] = Hs[top], Hs[INTRUDER + i]
            return


@njit(cache=True)
def _rollout(g, Pr, Hr, Kr, action, key, pprm, sampled, peek, sample_seed):
    P = g[0]
    H = g[1]
    K = g[2]
    Pr[:] = P
    Hr[:H_FR] = H[:H_FR]
    Kr[:] = K
    if sampled:
        R = np.empty(1, dtype=np.int64)
        R[0] = sample_seed
        resample(Pr, Hr, R)
        if peek:
            keep_next_card(P, H, Hr)
        Kr[K_RNG] = np.int64(mix64(np.uint64(sample_seed) ^ np.uint64(0x5851F42D4C957F2D)))
    Kr[K_TRACE] = 0
    Kr[K_CHECK] = 0
    Kr[K_SCRAMBLE] = 0
    Kr[K_FD_N] = 0
    Kr[K_FR_N] = 0
    Kr[K_FROM_STATE] = 1
    Kr[K_STOP_TURNS] = -1
    Kr[K_STOP_ROUND_END] = 1 if int(pprm[2]) == 0 else 0
    Pr[SRNG + S_PLAN] = action
    Pr[SRNG + S_PLAN_AT] = key if action >= 0 else 0  # -1: no plan, the base decides
    play_game((Pr, Hr, Kr, g[3]))
    return win_chance(Pr) if int(pprm[8]) == 1 else village_value(Pr, pprm)


@njit(cache=True)
def plan_turn(pprm, g, Pr, Hr, Kr, sampled, peek):
    """Choose the next turn's action by rollouts and write it into the strategy memory.
    `sampled`: the rollouts play on samples of the hidden state (the honest lookahead; with
    `peek` the samples keep the true next card, which cheats); otherwise on the true state
    (foresight, cheating). The sampling planner also plays each sample with no plan at all
    (the base heuristic's own choice) and overrides the base only when the best action beats
    it by `margin` standard errors of the paired difference: a few noisy samples should not
    overrule a sound base."""
    P = g[0]
    s = P[ACTING]
    key = plan_key(P)
    P[SRNG + S_PLAN_AT] = 0
    samples = int(pprm[0]) if sampled else 1
    margin = pprm[9] if sampled else 0.0
    cand = np.empty(MAX_CANDIDATES, dtype=np.int64)
    k = candidates(P, s, int(pprm[3]), cand)
    if k < 2:
        return
    base = np.uint64(P[SRNG]) ^ np.uint64(key * 0x9E3779B97F4A7C15)
    vals = np.empty((k + 1, samples))
    rows = k + 1 if margin > 0.0 else k  # row k: no plan, the base decides
    best = 0
    bv = -1e18
    for i in range(rows):
        action = cand[i] if i < k else -1
        tot = 0.0
        for j in range(samples):
            seed = np.int64(mix64(base + np.uint64(j)))  # the same samples for every candidate
            vals[i, j] = _rollout(g, Pr, Hr, Kr, action, key, pprm, sampled, peek, seed)
            tot += vals[i, j]
        if i < k and tot > bv:
            bv = tot
            best = i
    if margin > 0.0:
        d = vals[best] - vals[k]
        gain = d.mean()
        se = d.std() / np.sqrt(max(samples - 1, 1))
        if gain <= 0.0 or gain <= margin * se:
            return  # the base heuristic decides
    P[SRNG + S_PLAN] = cand[best]
    P[SRNG + S_PLAN_AT] = key
