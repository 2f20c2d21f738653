"""`lookahead`: before each turn, sample hidden card orders consistent with the public table,
play every candidate action (Fight, Pass, Support to each samurai) forward with a base
heuristic on each sample, and take the action whose rollouts end best.

The engine calls plan() between turns (simcore.gateway, cfg.plan); it plays its rollouts on
copies of the state, never inside the engine's call stack. Honesty (R-19): before a rollout
every hidden part of the copy is replaced by a sample drawn from public information only: the
unseen cards not made known by Katsushiro are dealt at random over the unknown part of the
raider stack and the intruder stack, the public multiset of the standing farmsteads' backs is
dealt over the standing tokens, and the game's future random events come from a stream derived
from the strategy's own. The same plan() plays the cheating yardsticks (cfg.plan_variant):
`foresight` without the sampling, `peek` with samples that keep the true next raider card on
top (keep_next_card).

Parameters: samples, base (the heuristic that plays the rest, BASES), horizon (0: to the end
of the round, then a value of the village; 1: to the end of the game), support (consider
Support actions), the village value's weights (farm, family, wound, scarce), value (0 those
weights, 1 the fitted chance to win from the village, WIN_FIT), and margin (how sure the
honest planner must be before it overrides its base); follow (weigh every answer, but play the
default's: a teacher on the default's own positions, strategies.helpers.follow) and salt (other
samples for the same questions).
"""

import numpy as np
from numba import njit

from kiai.simcore.codes import OUT_WIN
from kiai.simcore.obs import turn_key
from kiai.simcore.questions import ACT_FIGHT, ACT_PASS, ACT_SUPPORT, Q_ACTION, Q_CARD, Q_FIGHT_AGAIN
from kiai.simcore.resume import from_action, from_card, from_fight_again
from kiai.simcore.rng import mix64, stream_below
from kiai.simcore.gateway import call_decide
from kiai.simcore.rounds import play_game
from kiai.simcore.state import (
    BOOK,
    BOOK_SIZE,
    CFG,
    CFG_SIZE,
    HIDDEN,
    HIDDEN_SIZE,
    MEM,
    MEM_HEAD,
    TABLE,
    TABLE_DYNAMIC,
    TABLE_SIZE,
    copy_record,
    data_pointer,
    int_to_voidptr,
    keep_alive,
)
from kiai.strategies import keeper
from kiai.strategies.helpers.race import MAX_DF, drop, t_quantiles
from kiai.strategies.helpers.collect import LABELS, TEACH, collecting, next_row, room
from kiai.strategies.helpers.follow import FOLLOW_DATA, FOLLOWED_QUESTIONS, follow_params, followed, salted
from kiai.strategies.nets.afterstate import teach_rows
from kiai.strategies.base import Param, Strategy
from kiai.strategies.nets.features import LABEL_WIDTH, N_ACTION, N_FEATURES, action_slot, fill

HONEST, FORESIGHT, PEEK = 0, 1, 2  # cfg.plan_variant (a module's VARIANT)
WEIGHED_QUESTIONS = (1 << Q_ACTION) | (1 << Q_CARD) | (1 << Q_FIGHT_AGAIN)  # what `decisions` 1 weighs
BASES = ("counter", "kiai", "team", "risk", "keeper", "learned")  # the `base` parameter's values
MAX_CANDIDATES = 9


def planning_params(base: int, value: int, margin: float) -> tuple[Param, ...]:
    """The planners' parameters after `samples`; `base`, `value` and `margin` defaults differ:
    the honest lookahead plays best (of what was measured) over `keeper`, with the fitted
    chance to win, overriding `keeper` only when two standard errors sure; foresight over
    `counter` with the weights."""
    return (
        Param("base", base, 0, len(BASES) - 1, True, "base heuristic: " + ", ".join(f"{i} {b}" for i, b in enumerate(BASES))),
        Param("horizon", 0, 0, 1, True, "rollouts run to 0: the end of the round (then value the village), 1: the end of the game"),
        Param("support", 1, 0, 1, True, "1: also try Support to each samurai still in", expert=True),
        Param("farm", 2.0, 0.0, 20.0, False, "end-of-round value of a farmstead (a barricade is 1)", expert=True),
        Param("family", 5.0, 0.0, 20.0, False, "end-of-round value of a family", expert=True),
        Param("wound", 1.0, 0.0, 10.0, False, "scale of the end-of-round cost of wounds (steeper near death)", expert=True),
        Param("scarce", 0.0, 0.0, 50.0, False, "barrier cost as the last farmstead, family or life comes near", expert=True),
        Param("value", value, 0, 1, True, "end-of-round value: 0 the weights above, 1 the fitted chance to win from there (training/village_fit.py)", expert=True),
        Param("margin", margin, 0.0, 5.0, False, "honest planner: override the base's own choice only when the best action beats it by this many standard errors (0: always take the best)", expert=True),
        Param("decisions", 0, 0, 1, True, "0: plan each turn's action at its start; 1: weigh the action, every card in hand and Kikuchiyo's second fight when asked"),
    )


# the lookahead's parameters and defaults, shared by `peek` so that the two differ only by the
# card peek sees
LOOKAHEAD_PARAMS = (
    Param("samples", 16, 1, 64, True, "hidden orders sampled per candidate action"),
    *planning_params(base=4, value=1, margin=2.0),
    # a race inside each weighing (strategies.helpers.race), as judge's: samples go where answers are close
    Param("race", 0.0, 0.0, 0.5, False, "an answer stops sampling once a paired t bound at this one-sided error rate shows it behind the best; the base's own answer plays on (0: every answer plays all `samples`)"),
    Param("first", 4, 2, 64, True, "samples every answer plays before the race may drop one", expert=True),
    # learned's answers are worth most where they are played, keeper's rollouts cost a sixth of learned's
    Param("rollouts", 0, 0, 1, True, "who plays the rollouts: 0 the base, 1 keeper (the base still answers in the game itself)"),
)

STRATEGY = Strategy(
    "lookahead",
    "Before each turn, samples hidden card orders consistent with what is public and plays every action forward with a base heuristic; takes the best.",
    # a teacher on the default's own positions (training.teacher, DAgger): it weighs the questions
    # as `decisions` 1 does, the games are the default's (not peek's: it measures one card)
    LOOKAHEAD_PARAMS + follow_params("the lookahead"),
    planner=True,
    bases=BASES,
    # the race's t quantiles, from `race`, and keeper's address where it plays the rollouts (plan_record);
    # with `follow`, the followed default's decide() and its record, by address (the run layer's)
    data=(("race_t", np.float64, (MAX_DF,)), ("keeper_at", np.int64), *FOLLOW_DATA),
)
params = STRATEGY.reader()
VARIANT = HONEST


@njit(cache=True)
def plan_key(pub):
    """Names the next turn: the plan is used only in the turn it was made for."""
    return turn_key(pub) + 1  # planned between turns, before play_turn counts the next one


@njit(cache=True)
def resample(pub, hid, R):
    """Replace every hidden part of hid by a random arrangement consistent with pub (R-19)."""
    known = pub.known_n
    scratch = hid.scratch
    m = 0
    for c in range(pub.n_cards):
        if pub.unseen[c]:
            is_known = False
            for i in range(known):
                if pub.known[i] == c:
                    is_known = True
            if not is_known:
                scratch[m] = c
                m += 1
    for i in range(m - 1, 0, -1):
        j = stream_below(R, 0, i + 1)
        scratch[i], scratch[j] = scratch[j], scratch[i]
    unknown = pub.raider_n - known
    for i in range(unknown):  # bottom part of the raider stack
        hid.raider[i] = scratch[i]
    for i in range(known):  # the known top cards, top last
        hid.raider[pub.raider_n - 1 - i] = pub.known[i]
    for i in range(pub.intruder_n):
        hid.intruder[i] = scratch[unknown + i]
    # the backs of the standing farmsteads: their multiset is public (fallen ones were
    # revealed, R-12), sorted, then dealt at random over the standing tokens
    f = pub.farmsteads
    backs = np.empty(f, dtype=np.int64)
    i = 0
    for kind in range(4):
        for _ in range(pub.backs_left[kind]):
            backs[i] = kind
            i += 1
    for i in range(f - 1, 0, -1):
        j = stream_below(R, 0, i + 1)
        backs[i], backs[j] = backs[j], backs[i]
    for i in range(f):
        hid.farm_back[hid.farm_alive[i]] = backs[i]


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
def village_value(pub, p):
    """How well the samurai stand: what the rollouts compare. Weights: a farmstead, a family,
    the wound table's scale, and `scarce`, a barrier that grows as the last farmstead, family
    or wound before death comes near (the game is lost at the first of them)."""
    if pub.game_over:
        if pub.outcome == OUT_WIN:
            return 1000.0 + 10.0 * (pub.farmsteads + pub.families)
        return -60.0 + 20.0 * pub.round_no
    v = 1.0 * pub.barricades + p.farm * pub.farmsteads + p.family * pub.families + 40.0 * pub.round_no
    v -= p.scarce * (1.0 / pub.farmsteads + 1.0 / pub.families)
    for s in range(pub.n):
        w = pub.wound[s]
        v -= p.wound * _wound_value(w) + p.scarce / (4 - w)
    return v


@njit(cache=True)
def candidates(pub, s, support, out):
    """The actions the acting samurai may choose at this turn, as far as is known before its
    battle penalty (section 3): Fight, Pass, and Support to each samurai still in."""
    if pub.raider_n == 0 or pub.total[s] > pub.kiai[s] or pub.passed[s]:
        return 0
    out[0] = ACT_FIGHT
    out[1] = ACT_PASS
    k = 2
    if support and pub.holder[s] == s:
        for t in range(pub.n):
            if t != s and pub.passed[t] == 0:
                out[k] = ACT_SUPPORT + t
                k += 1
    return k


# The chance to win from the village at the end of round 1 or 2: a logistic model, fitted by
# training/village_fit.py (statsmodels Logit on 200,000 `risk` games, Normal, four samurai,
# three line-ups). Terms: constant, barricades, farmsteads, families, and the number of
# samurai at each wound state past the first (1 human+token, 2 animal, 3 animal+token).
WIN_FIT = (
    (-10.755, 0.592, 0.483, 0.640, -0.300, -0.802, -8.0),
    (-7.934, 0.567, 0.714, 0.361, -0.062, -0.322, -4.247),
)


@njit(cache=True)
def win_chance(pub):
    """The fitted chance to win from pub at the end of a round (WIN_FIT); exact once the game
    is over or the last round is done."""
    if pub.game_over:
        return 1.0 if pub.outcome == OUT_WIN else 0.0
    r = pub.round_no
    if r >= 3:
        return 1.0
    cf = WIN_FIT[r - 1]
    eta = cf[0] + cf[1] * pub.barricades + cf[2] * pub.farmsteads + cf[3] * pub.families
    for s in range(pub.n):
        w = pub.wound[s]
        if w >= 1:
            eta += cf[3 + w]
    return 1.0 / (1.0 + np.exp(-eta))


@njit(cache=True)
def keep_next_card(pub, hid, sample):
    """CHEATING (`peek`): put the true next raider card hid holds on top of the sample,
    swapping it with the card there, so the sample is uniform among the orders with that card
    next. A card Katsushiro made known (R-19) is on top already."""
    if pub.raider_n == 0 or pub.known_n > 0:
        return
    put_on_top(pub, sample, hid.raider[pub.raider_n - 1])


@njit(cache=True)
def put_on_top(pub, sample, c):
    """Put unseen card c on top of the sample's raider stack, swapping it with the card there:
    the sample is then uniform among the orders with c next."""
    top = pub.raider_n - 1
    for i in range(pub.raider_n):
        if sample.raider[i] == c:
            sample.raider[i], sample.raider[top] = sample.raider[top], sample.raider[i]
            return
    for i in range(pub.intruder_n):
        if sample.intruder[i] == c:
            sample.intruder[i], sample.raider[top] = sample.raider[top], sample.intruder[i]
            return


@njit(cache=True)
def rollout_config(cfg, rcfgs, stop_round_end):
    """The configuration rollouts are played under: the game's, with no planner, no scripts,
    trace or record, from a given state, stopping at the end of the round or not. A game played
    under the invariant checker checks its rollouts too (carry_error)."""
    rcfg = rcfgs[0]
    copy_record(rcfg, cfg, CFG_SIZE)
    rcfg.plan = 0
    rcfg.tracing = 0
    rcfg.recording = 0
    rcfg.scramble = 0
    rcfg.fd_n = 0
    rcfg.fr_n = 0
    rcfg.from_state = 1
    rcfg.stop_turns = -1
    rcfg.stop_round_end = stop_round_end
    return rcfg


@njit(cache=True)
def carry_error(g, r):
    """A rollout's first invariant violation, where the game is checked, becomes the game's: a
    rollout from an impossible state is a planner's bug."""
    if r[2].err != 0 and g[2].err == 0:
        g[2].err = r[2].err
        g[2].err_where = g[2].decisions


@njit(cache=True)
def rollout_records(pub):
    """The records rollouts play on, reused from one to the next: pub's card tables are copied
    here once, the rest of the state before each rollout (copy_state). The caller keeps the
    arrays alive while it uses views of their records."""
    pubs = np.zeros(1, dtype=TABLE)
    hids = np.zeros(1, dtype=HIDDEN)
    books = np.zeros(1, dtype=BOOK)
    mems = np.zeros(1, dtype=MEM)
    rcfgs = np.zeros(1, dtype=CFG)
    copy_record(pubs[0], pub, TABLE_SIZE)
    return pubs, hids, books, mems, rcfgs


@njit(cache=True)
def question_seed(g):
    """The samples' seed for the question in mem: the strategy's stream and the decision's count,
    so that every answer to one question meets the same samples."""
    return np.uint64(g[4].stream[0]) ^ np.uint64(mix64(np.uint64(g[2].decisions) ^ np.uint64(0xA0761D6478BD642F)))


@njit(cache=True)
def copy_state(g, r):
    """Copy the state g into the rollout's records r (the card tables were copied once)."""
    copy_record(r[0], g[0], TABLE_DYNAMIC)
    copy_record(r[1], g[1], HIDDEN_SIZE)
    copy_record(r[2], g[2], BOOK_SIZE)
    copy_record(r[4], g[4], MEM_HEAD)


@njit(cache=True)
def sample_hidden(g, r, sample_seed, peek):
    """Replace what is hidden in r by a sample drawn from public information (R-19), and give
    the rollout's future random events a stream of the sample's own."""
    R = np.empty(1, dtype=np.int64)
    R[0] = sample_seed
    resample(r[0], r[1], R)
    if peek:
        keep_next_card(g[0], g[1], r[1])
    r[1].rng[0] = np.int64(mix64(np.uint64(sample_seed) ^ np.uint64(0x5851F42D4C957F2D)))
    # event-keyed outcomes (simcore.rng.event): the rollout's future events keyed on the sample,
    # never on the deal's own key (unused, and so without effect, when outcomes are not keyed)
    r[1].ev_base = np.int64(mix64(np.uint64(sample_seed) ^ np.uint64(0x2F1B9C3AD7E64A51)))


@njit(cache=True)
def answer_question(r, mem, q, option):
    """Play on in r from the question in mem answered with option (simcore.resume)."""
    if q == Q_ACTION:
        from_action(r, mem.seat, option)
    elif q == Q_CARD:
        from_card(r, mem.seat, mem.a, option)
    else:
        from_fight_again(r, mem.seat, option)


@njit(cache=True)
def question_candidates(g, cand):
    """The legal answers to the question in mem, the base's own first (so that it wins ties:
    answers the rollouts cannot tell apart keep the sound default); how many."""
    pub, hid, book, cfg, mem = g
    prm = int_to_voidptr(cfg.prm_at) if cfg.prm_at else data_pointer(cfg.prm)
    own = call_decide(cfg.decide, prm, pub, mem, mem.q, mem.seat, mem.a, mem.b, mem.legal)
    cand[0] = own
    k = 1
    for option in range(63):
        if (mem.legal >> option) & 1 and option != own and k < MAX_CANDIDATES:
            cand[k] = option
            k += 1
    return k


@njit(cache=True)
def _rollout(g, r, q, option, key, p, sampled, peek, sample_seed):
    """One rollout on the copies r = (pub, hid, book, cfg, mem) of the state g, with what is
    hidden resampled (when `sampled`). At the turn's start (q == 0) `option` is planned for
    the turn's action (-1: no plan); at a question (mem.q) `option` answers it (-1: the base
    does), and the turn goes on from there (simcore.resume)."""
    mem = g[4]
    rpub, rmem = r[0], r[4]
    copy_state(g, r)
    if sampled:
        sample_hidden(g, r, sample_seed, peek)
    if q == 0:
        rmem.plan = option
        rmem.plan_at = key if option >= 0 else 0
    else:
        answer_question(r, mem, q, option)
    if rpub.game_over == 0:
        play_game(r)
    carry_error(g, r)
    return win_chance(rpub) if int(p.value) == 1 else village_value(rpub, p)


@njit(cache=True)
def _settled(vals, alive, own, rows, n):
    """Whether every row still in played exactly what the base's own row played on each of the n
    samples (a settled game: every rollout ends alike, as a loss in the last round does)."""
    for i in range(rows):
        if alive[i] and i != own:
            for j in range(n):
                if vals[i, j] != vals[own, j]:
                    return False
    return True


@njit(cache=True)
def _raced(g, r, p, sampled, peek, q, cand, k, key, seed0, vals, rows, own, alive):
    """The rows raced (strategies.helpers.race): round n plays sample n of every row still in,
    and after `first` rounds the candidates shown behind the leader leave; the base's own row
    (`own`) plays on, since only the margin may overrule it (a race that let the base's own
    answer leave at its t bound lost a quarter of the lookahead's wins). The race ends when the
    base's own answer is the only candidate left, or at `samples`. A row that left has the rest
    of its columns filled with its mean (what a teacher's label reads); the samples played, and
    the rows still in (alive)."""
    samples = vals.shape[1]
    mean = np.zeros(rows)
    exact = np.zeros(k, dtype=np.bool_)
    n = 0
    while n < samples:
        seed = np.int64(mix64(seed0 + np.uint64(n)))  # the same samples for every candidate
        for i in range(rows):
            if alive[i]:
                vals[i, n] = _rollout(g, r, q, cand[i] if i < k else -1, key, p, sampled, peek, seed)
                mean[i] += (vals[i, n] - mean[i]) / (n + 1)
        n += 1
        if n >= int(p.first):
            if _settled(vals, alive, own, rows, n):
                break  # no row differs from the base's own on any sample: nothing to tell apart
            stay = drop(vals[:k], mean[:k], exact, alive[:k], n, 0.0, p.race_t)
            if own < k and not alive[own]:
                alive[own] = True  # the margin's yardstick stays in
                stay += 1
            if own < k and stay == 1:
                break  # at a question, only the base's own answer is left: it decides
    for i in range(rows):
        for j in range(n, samples):
            vals[i, j] = mean[i]
    return n


@njit(cache=True)
def weigh(g, p, sampled, peek, q, cand, k, key, seed0, vals):
    """Play every candidate cand[:k] (row i of vals), and at a turn's start the base's own choice
    (row k: no plan), on the same samples (vals has a column per sample); answer the best
    candidate's index, or -1 when the base should decide. At a question the base's own answer is
    cand[0] (question_candidates). The sampling planner overrides its base only when the best
    beats it by `margin` standard errors of the paired difference: a few noisy samples should not
    overrule a sound base. With `race` the candidates race (_raced)."""
    pub, hid, book, cfg, mem = g
    samples = vals.shape[1]
    margin = p.margin if sampled else 0.0
    pubs, hids, books, mems, rcfgs = rollout_records(pub)
    r = (pubs[0], hids[0], books[0], rollout_config(cfg, rcfgs, 1 if int(p.horizon) == 0 else 0), mems[0])
    if p.keeper_at != 0:
        r[3].decide = p.keeper_at  # keeper plays the rollouts (`rollouts` 1)
    own = k if q == 0 else 0
    rows = k + 1 if margin > 0.0 and q == 0 else k
    played = samples
    alive = np.ones(rows, dtype=np.bool_)  # the rows still in: every row unless they race
    if p.race > 0.0 and samples > 1:
        played = _raced(g, r, p, sampled, peek, q, cand, k, key, seed0, vals, rows, own, alive)
    else:
        for i in range(rows):
            option = cand[i] if i < k else -1
            for j in range(samples):
                seed = np.int64(mix64(seed0 + np.uint64(j)))  # the same samples for every candidate
                vals[i, j] = _rollout(g, r, q, option, key, p, sampled, peek, seed)
    best = -1
    bv = -1e18
    for i in range(k):
        if not alive[i]:
            continue  # left the race: its later columns are its mean, not samples
        tot = 0.0
        for j in range(samples):
            tot += vals[i, j]
        if tot > bv:
            bv = tot
            best = i
    keep_alive(pubs, hids, books, mems)
    keep_alive(rcfgs, rcfgs, rcfgs, rcfgs)
    if best < 0:
        return -1  # no candidate is left (a turn's start): the base decides
    if margin > 0.0:
        d = vals[best, :played] - vals[own, :played]
        gain = d.mean()
        se = d.std() / np.sqrt(max(played - 1, 1))
        if gain <= 0.0 or gain <= margin * se:
            return -1  # the base heuristic decides
    return best


@njit(cache=True)
def plan_turn(g, p, sampled, peek):
    """Choose the next turn's action by rollouts and write it into the strategy memory.
    `sampled`: the rollouts play on samples of the hidden state (the honest lookahead; with
    `peek` the samples keep the true next card, which cheats); otherwise on the true state
    (foresight, cheating)."""
    pub, hid, book, cfg, mem = g
    key = plan_key(pub)
    mem.plan_at = 0
    cand = np.empty(MAX_CANDIDATES, dtype=np.int64)
    k = candidates(pub, pub.acting, int(p.support), cand)
    if k < 2:
        return
    vals = np.empty((k + 1, int(p.samples) if sampled else 1))
    seed0 = salted(np.uint64(mem.stream[0]) ^ np.uint64(key * 0x9E3779B97F4A7C15), p.salt)
    best = weigh(g, p, sampled, peek, 0, cand, k, key, seed0, vals)
    if best >= 0:
        mem.plan = cand[best]
        mem.plan_at = key


@njit(cache=True)
def write_label(g, cand, k, vals):
    """Write the question in mem, weighed, as a training row (training.learned): the
    question, its features as `learned` sees them, each option's mean rollout value in the
    option's slot (NaN: not an option), and the slot of the answer the lookahead chose (the
    base's own unless the rollouts beat it by the margin). The base must be keeper or learned,
    whose parameter record starts with keeper's (the features hold keeper's own answer)."""
    pub, hid, book, cfg, mem = g
    row = next_row(mem, LABEL_WIDTH)
    q, seat, a, legal = mem.q, mem.seat, mem.a, mem.legal
    prm = int_to_voidptr(cfg.prm_at) if cfg.prm_at else data_pointer(cfg.prm)
    mine = keeper.decide(prm, pub, mem, q, seat, a, mem.b, legal)
    row[0] = q
    fill(keeper.params(prm), pub, q, seat, a, legal, mine if q != Q_ACTION else action_slot(pub, seat, mine), row[1:])
    for j in range(N_ACTION):
        row[1 + N_FEATURES + j] = np.nan
    for i in range(k):
        slot = cand[i] if q != Q_ACTION else action_slot(pub, seat, cand[i])
        row[1 + N_FEATURES + slot] = vals[i].mean()
    chosen = mem.answer if mem.answer >= 0 else cand[0]  # cand[0]: the base's own answer
    row[1 + N_FEATURES + N_ACTION] = chosen if q != Q_ACTION else action_slot(pub, seat, chosen)


@njit(cache=True)
def plan_question(g, p, sampled, peek):
    """Weigh the question in mem (the action, a card in hand or Kikuchiyo's second fight) by
    rollouts from this moment; write the answer into mem (-1: the base answers)."""
    pub, hid, book, cfg, mem = g
    cand = np.empty(MAX_CANDIDATES, dtype=np.int64)
    k = question_candidates(g, cand)
    if k < 2:
        return
    vals = np.empty((k + 1, int(p.samples) if sampled else 1))
    seed0 = salted(question_seed(g), p.salt)
    best = weigh(g, p, sampled, peek, mem.q, cand, k, 0, seed0, vals)
    mem.answer = cand[best] if best >= 0 else -1
    mine = max(best, 0)  # -1: the base's own, cand[0]
    played = cand[mine] if p.follow_fn == 0 else followed(p.follow_fn, p.follow_at, pub, mem)
    if collecting(mem, TEACH):  # a teacher of selfplay's value (training.teacher): every answer's afterstate
        est = np.empty(k)
        for i in range(k):
            est[i] = vals[i].mean()
        teach_rows(pub, mem, book.decisions, cand, k, est, mine, played)
    elif collecting(mem, LABELS) and room(mem, 1):
        write_label(g, cand, k, vals)
    if p.follow_fn != 0:
        mem.answer = played


@njit(cache=True)
def plan(pub, hid, book, cfg, mem):
    """The engine's hook (simcore.gateway.HOOK_ARGS): at a turn's start (mem.q == 0), or at a
    question."""
    p = params(int_to_voidptr(cfg.pdata))
    v = cfg.plan_variant
    g = (pub, hid, book, cfg, mem)
    if mem.q == 0:
        plan_turn(g, p, v != FORESIGHT, v == PEEK)
    elif p.follow_fn != 0 and not (WEIGHED_QUESTIONS >> mem.q) & 1:
        mem.answer = followed(p.follow_fn, p.follow_at, pub, mem)  # a question it does not weigh: the default's
    else:
        plan_question(g, p, v != FORESIGHT, v == PEEK)
        if p.follow_fn != 0 and mem.answer < 0:  # one legal answer: the default's
            mem.answer = followed(p.follow_fn, p.follow_at, pub, mem)
    return 0


def plan_record(config) -> np.ndarray:
    """The planner's record (lookahead, peek and foresight alike): the parameters by name (those a
    strategy lacks stay 0: no race, the base's rollouts, no `follow`), then the race's t quantiles
    and keeper's address where it plays the rollouts; with `follow`, the run layer points
    follow_fn and follow_at at the default (strategies.run.games.follow_default)."""
    rec = STRATEGY.new_record()
    for name, value in config.strategy_info.param_dict(config.params).items():
        rec[0][name] = value
    rec[0]["race_t"] = t_quantiles(float(rec[0]["race"]))
    if int(rec[0]["rollouts"]) == 1:
        from kiai.simcore.gateway import DECIDE_ARGS, address

        # compiling.decide_address does this, but a compiled module may not import the plain
        # compiling (sources.PLAIN); keeper reads the head of learned's record too
        rec[0]["keeper_at"] = address(keeper.decide, DECIDE_ARGS)
    return rec


def hooks(prm: dict, collects: int = 0) -> tuple[int, int]:
    """(plan_turns, plan_questions) for the run layer: the lookahead plans each turn's action
    at the turn's start; with `decisions` 1 it weighs instead the action, every card in hand
    and Kikuchiyo's second fight as they are asked, after the battle penalty and with every
    card revealed so far in view (what a run collects, `collects`, changes neither). Following
    the default (`follow`), it weighs those as `decisions` 1 does and is asked every other
    question but the absent tokens' too, so that the default answers them all."""
    if int(prm.get("follow", 0)):
        return 0, FOLLOWED_QUESTIONS
    if int(prm.get("decisions", 0)) == 0:
        return 1, 0
    return 0, WEIGHED_QUESTIONS
