import math

import numpy as np
import pytest
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.proportion import proportion_confint
from statsmodels.stats.weightstats import DescrStatsW

from kiai.simcore.stats import (
    MCNEMAR_EXACT_BELOW,
    difference_ci,
    extremes_p,
    holm,
    homogeneity_p,
    paired_counts,
    paired_test,
    paired_test_counts,
    proportion_ci,
    proportion_ci_arrays,
)


def test_wilson_12_of_100_matches_literature():
    # Wilson 95% interval for 12/100: 0.0700 to 0.1981 (Newcombe 1998 style worked value)
    lo, hi, method = proportion_ci(12, 100)
    assert method == "wilson"
    assert lo == pytest.approx(0.069994, abs=1e-5)
    assert hi == pytest.approx(0.198121, abs=1e-5)


def test_wilson_for_a_million_games_is_tight_and_matches_statsmodels():
    lo, hi, method = proportion_ci(123_456, 1_000_000)
    assert method == "wilson"
    ref = proportion_confint(123_456, 1_000_000, method="wilson")
    assert (lo, hi) == pytest.approx(ref, rel=1e-12)
    # half-width is 1.96 * sqrt(p(1-p)/n), about 0.000645
    assert hi - lo == pytest.approx(2 * 1.959964 * np.sqrt(0.123456 * 0.876544 / 1e6), rel=1e-3)


@pytest.mark.parametrize("level", [0.95, 0.9, 0.99, 0.5])
def test_proportion_ci_is_statsmodels_bit_for_bit(level):
    """proportion_ci computes statsmodels' intervals without importing it: the same numbers,
    to the last bit, at every level, at and near the edges and far from them."""
    cases = [(w, n) for n in range(1, 60) for w in range(n + 1)]
    cases += [(w, n) for n in (999, 1000, 123_457, 10**6, 10**8)
              for w in (0, 1, 5, 6, 7, n // 3, n // 2, n - 7, n - 6, n - 5, n - 1, n)]
    for wins, n in cases:
        edge = wins <= 5 or n - wins <= 5
        lo, hi, method = proportion_ci(wins, n, level)
        ref = proportion_confint(wins, n, alpha=1 - level, method="beta" if edge else "wilson")
        assert (lo, hi, method) == (float(ref[0]), float(ref[1]), "clopper-pearson" if edge else "wilson"), (wins, n)


def test_the_written_out_normal_quantile_is_scipys():
    from scipy.stats import norm

    from kiai.simcore.stats import Z_95

    assert Z_95 == float(norm.isf((1.0 - 0.95) / 2.0))


def test_clopper_pearson_at_zero_wins():
    lo, hi, method = proportion_ci(0, 50)
    assert method == "clopper-pearson"
    assert lo == 0.0
    assert hi == pytest.approx(0.0711, abs=1e-4)


@pytest.mark.parametrize("wins, n, method", [(5, 100, "clopper-pearson"), (6, 100, "wilson"),
                                             (94, 100, "wilson"), (95, 100, "clopper-pearson"),
                                             (100, 100, "clopper-pearson")])
def test_method_switches_within_five_of_the_edges(wins, n, method):
    assert proportion_ci(wins, n)[2] == method


def test_level_changes_width():
    narrow = proportion_ci(40, 100, level=0.80)
    wide = proportion_ci(40, 100, level=0.99)
    assert wide[1] - wide[0] > narrow[1] - narrow[0]


@pytest.mark.parametrize("wins, n", [(1, 0), (0, -3), (-1, 10), (11, 10), (1.5, 10)])
def test_bad_counts_raise(wins, n):
    with pytest.raises(ValueError):
        proportion_ci(wins, n)


def test_array_variant_agrees_with_scalar():
    wins = np.array([0, 3, 12, 50, 97, 100])
    n = np.array([50, 100, 100, 100, 100, 100])
    lo, hi, method = proportion_ci_arrays(wins, n)
    for i in range(len(wins)):
        s_lo, s_hi, s_method = proportion_ci(int(wins[i]), int(n[i]))
        assert lo[i] == pytest.approx(s_lo)
        assert hi[i] == pytest.approx(s_hi)
        assert method[i] == s_method


def test_array_variant_rejects_bad_input():
    with pytest.raises(ValueError):
        proportion_ci_arrays([5, 11], [10, 10])
    with pytest.raises(ValueError):
        proportion_ci_arrays([0], [0])


def _paired(both, a_only, b_only, neither):
    a = [True] * both + [True] * a_only + [False] * b_only + [False] * neither
    b = [True] * both + [False] * a_only + [True] * b_only + [False] * neither
    return np.array(a), np.array(b)


def test_mcnemar_exact_for_small_discordant_counts():
    a, b = _paired(both=10, a_only=0, b_only=6, neither=4)
    r = paired_test(a, b)
    assert r["exact"] is True
    assert (r["n"], r["a_only"], r["b_only"]) == (20, 0, 6)
    assert r["pvalue"] == pytest.approx(0.03125)  # 2 * 0.5**6
    assert r["diff"] == pytest.approx(-6 / 20)
    lo, hi = r["diff_ci"]
    assert lo < r["diff"] < hi


def test_mcnemar_chi_square_for_many_discordant_games():
    a, b = _paired(both=50, a_only=20, b_only=10, neither=20)
    r = paired_test(a, b)
    assert r["exact"] is False
    # (|20 - 10| - 1)^2 / 30 = 2.7
    assert r["statistic"] == pytest.approx(2.7)
    assert r["pvalue"] == pytest.approx(0.100348, abs=1e-5)
    assert r["diff"] == pytest.approx(0.1)


def test_paired_interval_is_zero_width_without_discordant_games():
    a, b = _paired(both=5, a_only=0, b_only=0, neither=5)
    r = paired_test(a, b)
    assert r["pvalue"] == pytest.approx(1.0)
    assert r["diff_ci"] == (0.0, 0.0)


def test_paired_test_rejects_bad_input():
    with pytest.raises(ValueError):
        paired_test([True, False], [True])
    with pytest.raises(ValueError):
        paired_test([], [])


def _paired_test_on_vectors(a, b, level=0.95):
    """paired_test as it was before it worked from counts: the interval from the per-game
    differences themselves (kept here as the reference)."""
    a = np.asarray(a).astype(bool)
    b = np.asarray(b).astype(bool)
    n = int(a.size)
    both, a_only, b_only = int(np.sum(a & b)), int(np.sum(a & ~b)), int(np.sum(~a & b))
    exact = a_only + b_only < MCNEMAR_EXACT_BELOW
    result = mcnemar([[both, a_only], [b_only, n - both - a_only - b_only]], exact=exact, correction=True)
    if n < 2:
        diff_ci = (float("nan"), float("nan"))
    else:
        lo, hi = DescrStatsW(a.astype(float) - b.astype(float)).zconfint_mean(alpha=1.0 - level)
        diff_ci = (float(max(lo, -1.0)), float(min(hi, 1.0)))
    return {"n": n, "a_only": a_only, "b_only": b_only, "diff": float((a_only - b_only) / n), "diff_ci": diff_ci,
            "statistic": float(result.statistic), "pvalue": float(result.pvalue), "exact": bool(exact)}


def _random_pairs(count, seed=20240611):
    rng = np.random.default_rng(seed)
    for t in range(count):
        n = int(rng.choice([1, 2, 3, 10, 40])) if t % 5 == 0 else int(rng.integers(2, 20_000))
        pa, pb, rho = rng.uniform(0, 1, 3)
        a = rng.random(n) < pa
        b = np.where(rng.random(n) < rho, a, rng.random(n) < pb)  # correlated, as paired games are
        yield a, b
    yield np.ones(50, bool), np.ones(50, bool)  # no discordant game
    yield np.ones(50, bool), np.zeros(50, bool)  # every game discordant, one way
    yield np.array([True]), np.array([False])  # a single game: no interval


def test_paired_test_from_counts_is_the_test_on_the_vectors():
    """paired_test_counts(n, both, a_only, b_only) gives what the test on the per-game vectors
    gave. Every figure is equal (==) but the interval's bounds: the vectors' version sums n
    squared deviations one by one (in BLAS's order, so its last bits even depend on the order of
    the games), the counts' version weights the three possible values by their counts; the two
    round differently, by a few units in the last place of the bounds (which lie in [-1, 1]),
    hence isclose with rel_tol=1e-12 (and abs_tol=1e-15 for a bound next to 0)."""
    bits_equal = 0
    for a, b in _random_pairs(600):
        old = _paired_test_on_vectors(a, b)
        new = paired_test_counts(*paired_counts(a, b))
        assert repr(new) == repr(paired_test(a, b))  # the wrapper counts and calls it (repr: nan == nan)
        for key in ("n", "a_only", "b_only", "diff", "statistic", "pvalue", "exact"):
            assert new[key] == old[key] or (math.isnan(new[key]) and math.isnan(old[key])), key
        for x, y in zip(new["diff_ci"], old["diff_ci"]):
            assert math.isclose(x, y, rel_tol=1e-12, abs_tol=1e-15) or (math.isnan(x) and math.isnan(y)), (x, y)
        bits_equal += new["diff_ci"] == old["diff_ci"]
    assert bits_equal > 0  # many agree to the bit (those with few games, or without discordant ones)


def test_paired_counts_add_up_over_blocks():
    rng = np.random.default_rng(3)
    a, b = rng.random(10_000) < 0.3, rng.random(10_000) < 0.4
    cuts = [0, 16, 80, 1000, 6000, 10_000]
    parts = [paired_counts(a[i:j], b[i:j]) for i, j in zip(cuts, cuts[1:])]
    assert tuple(map(sum, zip(*parts))) == paired_counts(a, b)
    n, both, a_only, b_only = paired_counts(a, b)
    assert both == int((a & b).sum()) and a_only + both == int(a.sum()) and b_only + both == int(b.sum())


def test_paired_test_counts_rejects_bad_counts():
    with pytest.raises(ValueError):
        paired_test_counts(0, 0, 0, 0)
    with pytest.raises(ValueError):
        paired_test_counts(10, 5, 4, 3)  # more games than played
    with pytest.raises(ValueError):
        paired_test_counts(10, 5, -1, 3)


def test_holm_hand_checked():
    # sorted p: 0.01, 0.02, 0.04, 0.30 -> 4*0.01=0.04, 3*0.02=0.06, max(0.06, 2*0.04)=0.08, 0.30
    adjusted = holm([0.04, 0.01, 0.30, 0.02])
    np.testing.assert_allclose(adjusted, [0.08, 0.04, 0.30, 0.06])


def test_holm_leaves_nan_alone():
    adjusted = holm([0.01, np.nan, 0.04])
    assert np.isnan(adjusted[1])
    np.testing.assert_allclose(adjusted[[0, 2]], [0.02, 0.04])


def test_shared_deals_difference_reads_the_deals_as_pairs():
    from kiai.simcore.stats import paired_difference

    rng = np.random.default_rng(7)
    deal = rng.random(4000)
    a, b = deal < 0.35, deal < 0.30  # b wins a subset of a's deals: they differ on 5% of them
    d, lo, hi = paired_difference([(a[None], b[None])])
    assert d == pytest.approx(a.mean() - b.mean())
    paired = paired_test(a, b)  # one configuration a side: McNemar's Wald interval, nearly
    assert (lo, hi) == pytest.approx(paired["diff_ci"], abs=0.002)
    _, nlo, nhi = difference_ci(a.sum(), a.size, b.sum(), b.size)
    assert hi - lo < (nhi - nlo) / 2  # Newcombe's takes the sides as independent
    # two line-ups a side on the same deals: the mean of their rates, the deal the unit
    d2, lo2, hi2 = paired_difference([(np.stack([a, deal < 0.45]), np.stack([b, deal < 0.40]))])
    assert d2 == pytest.approx(0.05, abs=0.01) and lo2 < d2 < hi2
    # sides that never differ still get an interval of some width (Agresti and Min's half deals)
    same = paired_difference([(b[None], b[None])])
    assert same[0] == 0 and same[1] < 0 < same[2]


@pytest.mark.parametrize("a, b", [(np.zeros((1, 5)), np.zeros((1, 6))), (np.zeros((1, 0)), np.zeros((1, 0))),
                                  (np.zeros((0, 5)), np.zeros((1, 5)))])
def test_shared_deals_difference_refuses_sides_of_other_games(a, b):
    from kiai.simcore.stats import paired_difference

    with pytest.raises(ValueError):
        paired_difference([(a, b)])


def test_homogeneity_is_simulated_where_the_chi_square_approximation_fails():
    from scipy.stats import chi2_contingency

    # 720 seatings at 250 games, about 4 wins each: the approximation does not hold
    games = np.full(720, 250)
    wins = np.random.default_rng(7).binomial(250, 0.016, size=720)
    chi2 = chi2_contingency(np.column_stack([wins, games - wins])).pvalue
    p = homogeneity_p(wins, games)
    assert p == homogeneity_p(wins, games, min_expected=np.inf)  # the simulated test
    assert p != pytest.approx(chi2, abs=1e-6)
    assert p == homogeneity_p(wins, games)  # a fixed seed: the same p every time


def test_simulated_homogeneity_agrees_with_chi_square_where_counts_are_large():
    from scipy.stats import chi2_contingency

    games = np.full(12, 1000)
    for seed in range(4):
        wins = np.random.default_rng(seed).binomial(1000, 0.3, size=12) + np.arange(12) * (seed % 2) * 4
        chi2 = chi2_contingency(np.column_stack([wins, games - wins])).pvalue
        assert homogeneity_p(wins, games) == pytest.approx(chi2, abs=1e-12)  # chi-square where it holds
        assert homogeneity_p(wins, games, min_expected=np.inf) == pytest.approx(chi2, abs=0.03)
    assert homogeneity_p([0, 0], [10, 10]) == homogeneity_p([10, 10], [10, 10]) == 1.0


def test_the_gap_between_extremes_is_tested_as_chosen():
    # 120 groups of one rate: the widest gap is wide, and no surprise
    games = np.full(120, 250)
    wins = np.random.default_rng(30).binomial(250, 0.3, size=120)
    assert (wins.max() - wins.min()) / 250 > 0.1 and extremes_p(wins, games) > 0.05
    wins[0] = 125
    assert extremes_p(wins, games) < 0.01
    assert extremes_p([3, 3], [10, 10]) == 1.0
