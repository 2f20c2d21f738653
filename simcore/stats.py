"""Confidence intervals and tests for win rates (pure arithmetic on counts: no game knowledge).

The intervals and tests are statsmodels' (scipy's for Clopper-Pearson); this module chooses the
method and checks input. They live here, below strategies and reports, because both use them
(training compares models, reports summarise results).

statsmodels and scipy are imported inside the functions that use them: together they take most
of a second to import. proportion_ci, which summarises every `kiai simulate`, computes the Wilson
interval itself with statsmodels' formula (scipy.stats' beta distribution is imported only near
the edges, where Clopper-Pearson takes over); tests/test_stats.py checks it bit for bit
against statsmodels.
"""

from __future__ import annotations

import numbers

import numpy as np

# Wilson is poor when wins are within this many of 0 or of n (its coverage dips below the
# nominal level at the edges), so Clopper-Pearson takes over there.
EDGE = 5
# Below this many discordant pairs the chi-square approximation to McNemar is unreliable.
MCNEMAR_EXACT_BELOW = 25
# scipy.stats.norm.isf((1 - 0.95) / 2): the normal quantile of the 95% interval that every
# summary shows, written out so that a summary needs no scipy (tests/test_stats.py
# checks it against scipy's, bit for bit); other levels ask scipy.special
Z_95 = 1.959963984540054


def _check_level(level: float) -> None:
    if not 0.0 < level < 1.0:
        raise ValueError(f"confidence level must be strictly between 0 and 1, got {level!r}")


def _as_count(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        if isinstance(value, numbers.Real) and float(value).is_integer():
            return int(value)
        raise ValueError(f"{name} must be a whole number, got {value!r}")
    return int(value)


def proportion_ci(wins, n, level: float = 0.95) -> tuple[float, float, str]:
    """Interval for a win rate wins/n: (lo, hi, method), method "wilson" or "clopper-pearson"."""
    wins = _as_count(wins, "wins")
    n = _as_count(n, "n")
    _check_level(level)
    if n <= 0:
        raise ValueError(f"n must be positive, got {n}")
    if not 0 <= wins <= n:
        raise ValueError(f"wins must be within 0..n ({n}), got {wins}")
    near_edge = wins <= EDGE or n - wins <= EDGE
    alpha = (1.0 - level) / 2.0  # each side (statsmodels' proportion_confint, two-sided)
    if near_edge:
        lo, hi = _clopper_pearson(wins, n, alpha)
    else:
        lo, hi = _wilson(wins, n, alpha)
    return float(lo), float(hi), "clopper-pearson" if near_edge else "wilson"


def _wilson(wins: int, n: int, alpha: float) -> tuple[float, float]:
    """statsmodels' proportion_confint(method="wilson"), the same operations on the same types."""
    count, nobs = np.asarray(wins), np.asarray(n)
    q = count / nobs
    crit = np.float64(Z_95 if alpha == (1.0 - 0.95) / 2.0 else _normal_isf(alpha))  # scipy.stats.norm.isf(alpha)
    crit2 = crit**2
    denom = 1 + crit2 / nobs
    center = (q + crit2 / (2 * nobs)) / denom
    dist = crit * np.sqrt(q * (1.0 - q) / nobs + crit2 / (4.0 * nobs**2))
    dist /= denom
    return np.clip(center - dist, 0, 1), np.clip(center + dist, 0, 1)


def _normal_isf(alpha: float) -> float:
    """scipy.stats.norm.isf(alpha), without importing scipy.stats."""
    from scipy.special import ndtri

    return float(-ndtri(alpha))


def clopper_pearson(wins, n, level: float = 0.95) -> tuple[float, float]:
    """The exact (Clopper-Pearson) interval for wins/n, two-sided at `level`."""
    wins, n = _as_count(wins, "wins"), _as_count(n, "n")
    _check_level(level)
    if n <= 0 or not 0 <= wins <= n:
        raise ValueError(f"need 0 <= wins <= n and n > 0, got {wins} of {n}")
    lo, hi = _clopper_pearson(wins, n, (1.0 - level) / 2.0)
    return float(lo), float(hi)


def _clopper_pearson(wins: int, n: int, alpha: float) -> tuple[float, float]:
    """statsmodels' proportion_confint(method="beta"): scipy's beta quantiles, 0 and 1 at the ends."""
    from scipy.stats import beta

    lo = 0.0 if wins == 0 else beta.ppf(alpha, wins, n - wins + 1)
    hi = 1.0 if wins == n else beta.isf(alpha, wins + 1, n - wins)
    return lo, hi


def difference_ci(w1, n1, w2, n2) -> tuple[float, float, float]:
    """(p1 - p2, lo, hi): Newcombe's 95% interval for a difference of two independent proportions
    (statsmodels' hybrid score interval)."""
    from statsmodels.stats.proportion import confint_proportions_2indep

    lo, hi = confint_proportions_2indep(float(w1), float(n1), float(w2), float(n2), method="newcomb",
                                        compare="diff")
    return w1 / n1 - w2 / n2, float(lo), float(hi)


def deal_parts(outcomes, ones, deals=None) -> list[tuple[np.ndarray, np.ndarray]]:
    """paired_difference's groups from one list of configurations: `outcomes` holds each one's wins,
    game by game; `ones` which are side a (the others side b); `deals` which met the same deals
    (equal values, e.g. their seeds; all the same deals where None). Groups in order of first
    appearance."""
    deals = [0] * len(outcomes) if deals is None else list(deals)
    ones = [bool(o) for o in ones]
    parts = []
    for key in dict.fromkeys(deals):
        mine = [i for i, d in enumerate(deals) if d == key]
        n = len(outcomes[mine[0]])
        a = [outcomes[i] for i in mine if ones[i]]
        b = [outcomes[i] for i in mine if not ones[i]]
        parts.append((np.array(a, dtype=bool).reshape(len(a), n), np.array(b, dtype=bool).reshape(len(b), n)))
    return parts


def paired_difference(parts, level: float = 0.95) -> tuple[float, float, float]:
    """(mean rate of side a - mean rate of side b, lo, hi) where the configurations of both sides
    played deals in groups: `parts` holds, per group of deals, (a_g, b_g), the win arrays
    (configurations x games, True = win) of each side's configurations that played those deals,
    game i the same deal in every row of a group. Each side's rate is the mean of its
    configurations' rates.

    The deal is the unit: on deal i of group g, X_gi = a_g[:, i].sum() / |a| - b_g[:, i].sum() / |b|
    (|a|, |b|: each side's configurations in all), so the difference is the sum over groups of the
    mean of X_g, and its variance the sum of var(X_g) / n_g, the groups' deals being independent of
    each other. Reading deals, not games, as the unit keeps what they share: the luck of a deal
    cancels in X (what is left is what the sides do differently), and the games that configurations
    of one side played on one deal are not taken as independent. Agresti and Min's adjustment for
    paired proportions adds, to each group, half a deal each of X = +c and -c and one of X = 0 (c:
    one configuration's weight), so that deals on which the sides never differ still give an
    interval of some width. A normal interval, clipped to [-1, 1]."""
    _check_level(level)
    parts = [(np.atleast_2d(np.asarray(a, dtype=float)), np.atleast_2d(np.asarray(b, dtype=float))) for a, b in parts]
    if not parts or any(a.ndim != 2 or b.ndim != 2 or a.shape[1] != b.shape[1] or a.shape[1] == 0 for a, b in parts):
        raise ValueError("each group of deals must hold the same games on both sides, at least one")
    size_a, size_b = sum(a.shape[0] for a, _ in parts), sum(b.shape[0] for _, b in parts)
    if size_a == 0 or size_b == 0:
        raise ValueError("a side holds no configuration")
    diff = var = 0.0
    for a, b in parts:
        x = a.sum(axis=0) / size_a - b.sum(axis=0) / size_b
        c = max(a.shape[0] / size_a, b.shape[0] / size_b)
        values = np.concatenate([x, [c, -c, 0.0]])
        weights = np.concatenate([np.ones(x.size), [0.5, 0.5, 1.0]])
        mean = np.average(values, weights=weights)
        var += np.average((values - mean) ** 2, weights=weights) / weights.sum()
        diff += float(x.mean())
    z = Z_95 if level == 0.95 else _normal_isf((1.0 - level) / 2)
    half = z * float(np.sqrt(var))
    return diff, max(diff - half, -1.0), min(diff + half, 1.0)


def proportion_ci_arrays(wins, n, level: float = 0.95) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """proportion_ci over arrays (e.g. DataFrame columns): (lo, hi, method) arrays."""
    _check_level(level)
    wins = np.asarray(wins)
    n = np.asarray(n)
    if wins.shape != n.shape:
        raise ValueError(f"wins and n differ in shape: {wins.shape} vs {n.shape}")
    if wins.size == 0:
        empty = np.empty(0, dtype=float)
        return empty, empty.copy(), np.empty(0, dtype=object)
    if not (np.all(np.mod(wins, 1) == 0) and np.all(np.mod(n, 1) == 0)):
        raise ValueError("wins and n must be whole numbers")
    if np.any(n <= 0):
        raise ValueError("every n must be positive")
    if np.any((wins < 0) | (wins > n)):
        raise ValueError("every wins must be within 0..n")
    wins = wins.astype(float)
    n = n.astype(float)
    alpha = 1.0 - level
    near_edge = (wins <= EDGE) | (n - wins <= EDGE)
    from statsmodels.stats.proportion import proportion_confint

    w_lo, w_hi = proportion_confint(wins, n, alpha=alpha, method="wilson")
    b_lo, b_hi = proportion_confint(wins, n, alpha=alpha, method="beta")
    lo = np.where(near_edge, b_lo, w_lo).astype(float)
    hi = np.where(near_edge, b_hi, w_hi).astype(float)
    method = np.where(near_edge, "clopper-pearson", "wilson").astype(object)
    return lo, hi, method


def paired_test(a, b, level: float = 0.95) -> dict:
    """McNemar test of two configurations played on the same seeds.

    a[i] and b[i] are the results (True = win) of game i, which shares its deal in both. The
    games are counted (paired_counts) and tested by paired_test_counts, which says what comes
    back."""
    a = np.asarray(a)
    b = np.asarray(b)
    if a.ndim != 1 or b.ndim != 1:
        raise ValueError("a and b must be one-dimensional")
    if a.size != b.size:
        raise ValueError(f"a and b must have equal lengths, got {a.size} and {b.size}")
    if a.size == 0:
        raise ValueError("a and b are empty")
    return paired_test_counts(*paired_counts(a, b), level=level)


def paired_counts(a, b) -> tuple[int, int, int, int]:
    """(n, both, a_only, b_only) of two equally long win vectors: games, games both won, games
    only a won, games only b won. Counts of consecutive blocks of games add up."""
    a = np.asarray(a, dtype=bool)
    b = np.asarray(b, dtype=bool)
    return int(a.size), int(np.sum(a & b)), int(np.sum(a & ~b)), int(np.sum(~a & b))


def paired_test_counts(n, both, a_only, b_only, level: float = 0.95) -> dict:
    """McNemar test of two configurations played on the same n games, from their counts: games
    both won, games only a won, games only b won (the others neither won).

    The test is exact (binomial) when fewer than 25 games are discordant, else the chi-square
    version with continuity correction.

    diff is (a_only - b_only) / n, the difference of the win rates. diff_ci is the Wald
    z-interval for the mean of the per-game differences a[i] - b[i] (statsmodels
    DescrStatsW.zconfint_mean, here on the values -1, 0, 1 weighted by how many games give
    each). This is the Wald interval for the difference of paired proportions, except that the
    variance uses n - 1 rather than n, widening it by sqrt(n / (n - 1)). It is clipped to
    [-1, 1]; it is (0, 0) when no game is discordant and (nan, nan) for a single game.
    """
    _check_level(level)
    n, both = _as_count(n, "n"), _as_count(both, "both")
    a_only, b_only = _as_count(a_only, "a_only"), _as_count(b_only, "b_only")
    if n <= 0:
        raise ValueError(f"n must be positive, got {n}")
    if min(both, a_only, b_only) < 0 or both + a_only + b_only > n:
        raise ValueError(f"both, a_only and b_only must be counts of the {n} games, got {both}, {a_only}, {b_only}")
    from statsmodels.stats.contingency_tables import mcnemar
    from statsmodels.stats.weightstats import DescrStatsW

    neither = n - both - a_only - b_only
    exact = a_only + b_only < MCNEMAR_EXACT_BELOW
    result = mcnemar([[both, a_only], [b_only, neither]], exact=exact, correction=True)

    diff = (a_only - b_only) / n
    if n < 2:
        diff_ci = (float("nan"), float("nan"))
    else:
        d = DescrStatsW(np.array([-1.0, 0.0, 1.0]), weights=[b_only, n - a_only - b_only, a_only])
        lo, hi = d.zconfint_mean(alpha=1.0 - level)
        diff_ci = (float(max(lo, -1.0)), float(min(hi, 1.0)))
    return {
        "n": n,
        "a_only": a_only,
        "b_only": b_only,
        "diff": float(diff),
        "diff_ci": diff_ci,
        "statistic": float(result.statistic),
        "pvalue": float(result.pvalue),
        "exact": bool(exact),
    }


def holm(pvalues) -> np.ndarray:
    """Holm-adjusted p-values, same order as given; NaN entries stay NaN and are not counted."""
    from statsmodels.stats.multitest import multipletests

    p = np.asarray(pvalues, dtype=float).ravel()
    out = np.full(p.shape, np.nan)
    finite = ~np.isnan(p)
    if np.any((p[finite] < 0) | (p[finite] > 1)):
        raise ValueError("p-values must lie within 0..1")
    if finite.any():
        out[finite] = multipletests(p[finite], method="holm")[1]
    return out


# The chi-square approximation to a test of homogeneity needs about this many expected wins and
# losses in every cell; below it the test is simulated instead.
MIN_EXPECTED = 5
# Simulated tests: draws, and a fixed seed, so that a report reads the same p each time.
SIMULATED_DRAWS = 2000
SIMULATED_SEED = 20_240_070


def _null_wins(games: np.ndarray, rate: float, draws: int, seed: int) -> np.ndarray:
    """(draws, groups) wins when every group wins at the pooled `rate`, each with its own games."""
    return np.random.default_rng(seed).binomial(_whole(games).astype(np.int64), rate, size=(draws, len(games)))


def _whole(games: np.ndarray) -> np.ndarray:
    """Games as whole numbers, at least 1, for a simulated draw (pooled counts may be fractional)."""
    return np.maximum(np.rint(games), 1)


def _pearson(wins: np.ndarray, games: np.ndarray) -> np.ndarray:
    """Pearson's chi-square statistic of the wins-and-losses table, one per row of `wins`."""
    pooled = wins.sum(axis=-1, keepdims=True) / games.sum()
    var = games * pooled * (1 - pooled)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(var > 0, (wins - games * pooled) ** 2 / np.where(var > 0, var, 1), 0.0)
    return terms.sum(axis=-1)


def _counts(wins, games) -> tuple[np.ndarray, np.ndarray]:
    """Wins and games (pooled counts may be fractional), groups without games left out."""
    wins, games = np.asarray(wins, dtype=float).ravel(), np.asarray(games, dtype=float).ravel()
    if wins.shape != games.shape or np.any((wins < 0) | (wins > games)):
        raise ValueError("wins and games must pair up, with 0 <= wins <= games")
    played = games > 0
    return wins[played], games[played]


def homogeneity_p(wins, games, draws: int = SIMULATED_DRAWS, seed: int = SIMULATED_SEED,
                  min_expected: float = MIN_EXPECTED) -> float:
    """p of the test that every group (line-up, seating) wins equally often: scipy's chi-square
    test of the wins-and-losses table where every expected count is at least `min_expected`;
    otherwise the same statistic against its distribution simulated from the pooled rate, each
    group with its own games (`draws` draws, fixed `seed`). 1 when nothing varies (fewer than two
    groups, or no wins, or no losses)."""
    wins, games = _counts(wins, games)
    total = wins.sum()
    if len(wins) < 2 or total == 0 or total == games.sum():
        return 1.0
    rate = total / games.sum()
    if min(rate, 1 - rate) * games.min() >= min_expected:
        from scipy.stats import chi2_contingency

        return float(chi2_contingency(np.column_stack([wins, games - wins])).pvalue)
    observed = _pearson(wins, games)
    null = _pearson(_null_wins(games, rate, draws, seed).astype(float), _whole(games))
    return float((1 + np.sum(null >= observed * (1 - 1e-12))) / (draws + 1))


def extremes_p(wins, games, draws: int = SIMULATED_DRAWS, seed: int = SIMULATED_SEED) -> float:
    """Selection-aware p of the gap between the highest and the lowest rate of several groups:
    how often a gap as wide arises when every group wins at the pooled rate, each with its own
    games (`draws` draws, fixed `seed`). Choosing the best and the worst of many noisy rates widens
    their gap by itself; this p counts that, where a test of two groups named in advance does not.
    1 when nothing varies."""
    wins, games = _counts(wins, games)
    total = wins.sum()
    if len(wins) < 2 or total == 0 or total == games.sum():
        return 1.0
    rates = wins / games
    observed = rates.max() - rates.min()
    null = _null_wins(games, total / games.sum(), draws, seed) / _whole(games)
    gaps = null.max(axis=1) - null.min(axis=1)
    return float((1 + np.sum(gaps >= observed - 1e-12)) / (draws + 1))
