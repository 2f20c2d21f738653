"""A race between the answers to one question: each answer plays samples in rounds, the same
samples for every answer, and leaves the race once a paired t bound shows it behind the leader.

Successive elimination (Even-Dar, Mannor and Mansour 2006) on common random numbers: after round
n (n >= `first`), the leader is the answer whose mean, with the base's `edge` added to answer 0,
is highest; another answer leaves when the leader's lead exceeds the one-sided t quantile of the
paired differences' spread (n - 1 degrees of freedom) times their standard error. Paired
differences of answers played on the same hidden orders vary far less than either answer's
value, so a clear best is seen after a few samples, while answers that stay close keep the whole
budget. The rule reads only the answers' results: never the clock, a thread count or the order in
which the answers of a round were played.

`drop` is the rule; `race_values` runs it on values given in advance (the tests' constructed
values); strategies.judge runs it on values it plays as the race asks for them.
"""

import functools

import numpy as np
from numba import njit

MAX_DF = 64  # t quantiles kept, for 1 to MAX_DF degrees of freedom (a race of at most 65 samples)


@functools.lru_cache(maxsize=8)  # asked for again by every block a sweep plays (judge.plan_record)
def t_quantiles(alpha: float) -> np.ndarray:
    """One-sided t quantiles at error rate alpha for 1..MAX_DF degrees of freedom (inf where
    alpha is 0: nothing ever leaves); read-only, since the cache hands out the same array."""
    if alpha <= 0:
        out = np.full(MAX_DF, np.inf)
    else:
        from scipy.stats import t

        out = t.ppf(1.0 - alpha, np.arange(1, MAX_DF + 1)).astype(np.float64)
    out.flags.writeable = False
    return out


@njit(cache=True)
def leader(mean, alive, edge):
    """The alive answer with the highest mean, answer 0 (the base's) counted `edge` higher;
    the first of equals."""
    best = -1
    bv = -np.inf
    for i in range(len(mean)):
        if alive[i]:
            v = mean[i] + (edge if i == 0 else 0.0)
            if v > bv:
                bv = v
                best = i
    return best


@njit(cache=True)
def drop(xs, mean, exact, alive, n, edge, tq):
    """After n rounds: the answers that leave the race (alive set to False), by the paired
    differences of their per-round values xs[:, :n] with the leader's; how many stay. An exact
    answer's value is known (nothing hidden was read, or every next card was played): two exact
    answers are compared as they are."""
    best = leader(mean, alive, edge)
    lead_v = mean[best] + (edge if best == 0 else 0.0)
    stay = 0
    for i in range(len(mean)):
        if not alive[i]:
            continue
        if i == best:
            stay += 1
            continue
        gap = lead_v - mean[i] - (edge if i == 0 else 0.0)
        if gap <= 0.0:
            stay += 1
            continue
        if exact[i] and exact[best]:
            alive[i] = False
            continue
        # the spread of the paired differences over the n rounds (n - 1 degrees of freedom)
        dm = 0.0
        for j in range(n):
            dm += xs[best, j] - xs[i, j]
        dm /= n
        ss = 0.0
        for j in range(n):
            d = xs[best, j] - xs[i, j] - dm
            ss += d * d
        se = np.sqrt(ss / (n - 1) / n)
        if gap > tq[min(n - 1, len(tq)) - 1] * se:
            alive[i] = False
        else:
            stay += 1
    return stay


@njit(cache=True)
def race_values(values, exact, first, edge, tq):
    """The race on values given in advance: values[i, j] is answer i's j-th sample (an exact
    answer's row holds its value throughout). (the answer chosen, samples each answer played)."""
    k, budget = values.shape
    xs = np.zeros((k, budget))
    mean = np.zeros(k)
    used = np.zeros(k, dtype=np.int64)
    alive = np.ones(k, dtype=np.bool_)
    stay = k
    n = 0
    while n < budget and stay > 1:
        for i in range(k):
            if alive[i]:
                xs[i, n] = values[i, n]
                if not exact[i] or used[i] == 0:
                    used[i] += 1
                mean[i] = xs[i, : n + 1].mean()
        n += 1
        if n >= first:
            stay = drop(xs, mean, exact, alive, n, edge, tq)
    return leader(mean, alive, edge), used
