"""The report's wording of numbers: rates in percent with the digits they need, win counts where
wins are few, intervals, differences in percentage points and p-values. Every section, chart
and finding of the report says its numbers through these."""

from __future__ import annotations

import numpy as np


def _decimals(pct: float) -> int:
    """Decimals of a percentage: one from 1% up, two below (0.45%, 0.03%)."""
    return 1 if pct >= 1 else 2


def fmt_pct(rate: float) -> str:
    """A rate (0..1) in percent with the digits it needs: '45.4%', '3.2%', '0.45%', '0.03%',
    '< 0.01%' for a positive rate below that, '0%' for none."""
    if rate is None or not np.isfinite(rate):
        return "n/a"
    pct = 100 * float(rate)
    if pct <= 0:
        return "0%"
    if pct < 0.01:
        return "< 0.01%"
    return f"{pct:.{_decimals(pct)}f}%"


def fmt_rate(wins: int, games: int) -> str:
    """A win rate as the report prints it: the rate (fmt_pct), or the counts where wins are few
    ('3 of 175,000'; '0 of 5,000'), so that no rate reads 0.0% when games were won."""
    wins, games = round(float(wins)), round(float(games))  # pooled counts may be effective ones (pooling)
    if games <= 0:
        return "not played"
    if wins < 10:
        return f"{wins:,} of {games:,}"
    return fmt_pct(wins / games)


def fmt_ci(lo: float, hi: float) -> str:
    """A 95% interval of a rate in percent: '80.5 to 83.3%', '0 to 0.07%'."""
    return f"{fmt_pct(lo).removesuffix('%')} to {fmt_pct(hi)}"


def fmt_pp(diff: float, signed: bool = True) -> str:
    """A difference of rates (0..1) in percentage points: '+9.5 pp', '-0.04 pp'."""
    pp = 100 * float(diff)
    size = abs(pp)
    digits = 1 if size >= 1 or size == 0 else 2
    return f"{pp:+.{digits}f} pp" if signed else f"{size:.{digits}f} pp"


def fmt_pp_ci(lo: float, hi: float) -> str:
    return f"{fmt_pp(lo)[:-3]} to {fmt_pp(hi)[:-3]} pp"


def fmt_p(p: float) -> str:
    """A p-value: '< 0.0001' below that, else two significant digits at most ('0.0003', '0.012', '0.46', '1')."""
    if p is None or not np.isfinite(p):
        return "n/a"
    p = float(p)
    if p < 1e-4:
        return "< 0.0001"
    if p < 0.001:
        return f"{p:.4f}"
    if p < 0.1:
        return f"{p:.3f}"
    text = f"{p:.2f}"
    return "1" if text == "1.00" else text


def p_is(p: float) -> str:
    """'p = 0.03', or 'p < 0.0001' below that."""
    text = fmt_p(p)
    return f"p {text}" if text.startswith("<") else f"p = {text}"
