"""Confidence intervals and tests for win rates: simcore.stats, where the layers below reports
(training, in strategies) reach them too. Imported here under the names reports has always used."""

from kiai.simcore.stats import (  # noqa: F401
    EDGE,
    MCNEMAR_EXACT_BELOW,
    holm,
    paired_counts,
    paired_test,
    paired_test_counts,
    proportion_ci,
    proportion_ci_arrays,
)
