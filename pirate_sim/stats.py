"""Confidence intervals and tests used by every metric.

Wilson intervals for proportions (good coverage down to a handful of successes),
normal intervals for means of many games (the central limit theorem is safe at the
sample sizes a simulation produces), distribution-free order-statistic intervals for
quantiles, and simultaneous (Bonferroni) intervals of pairwise differences for the
largest gap between seats' win rates.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

CONFIDENCE = 0.95  # default confidence level of every interval


@functools.lru_cache(maxsize=64)
def z_value(confidence: float = CONFIDENCE) -> float:
    """Two-sided normal quantile (stdlib: importing scipy.stats would cost a second per command)."""
    return NormalDist().inv_cdf(0.5 + confidence / 2)


@dataclass(frozen=True)
class Estimate:
    """A point estimate with its confidence interval and how it was made."""

    value: float
    lo: float
    hi: float
    n: int
    method: str

    def __post_init__(self):
        for k in ("value", "lo", "hi"):
            object.__setattr__(self, k, float(getattr(self, k)))
        object.__setattr__(self, "n", int(self.n))

    @property
    def half_width(self) -> float:
        return (self.hi - self.lo) / 2

    def as_dict(self) -> dict:
        return {"value": self.value, "lo": self.lo, "hi": self.hi, "n": self.n, "method": self.method}


NAN_ESTIMATE = Estimate(float("nan"), float("nan"), float("nan"), 0, "none")


def wilson(successes: float, n: float, confidence: float = CONFIDENCE) -> Estimate:
    """Wilson score interval for a binomial proportion."""
    if n <= 0:
        return Estimate(float("nan"), 0.0, 1.0, 0, "wilson")
    z = z_value(confidence)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo, hi = max(0.0, centre - half), min(1.0, centre + half)
    return Estimate(p, min(lo, p), max(hi, p), int(n), "wilson")  # guard rounding at p = 0 or 1


def mean_ci(total: float, total_sq: float, n: float, confidence: float = CONFIDENCE,
            floor: float = -math.inf) -> Estimate:
    """Normal interval for a mean from its running sums (sum, sum of squares, count).

    ``floor``: the smallest value the quantity can take (0 for counts): the interval is
    cut there, never reaching below what is possible.  One game gives a value but no
    interval (NaN bounds: no spread to estimate).
    """
    if n <= 0:
        return Estimate(float("nan"), float("nan"), float("nan"), 0, "normal")
    mean = total / n
    if n < 2:
        return Estimate(mean, float("nan"), float("nan"), int(n), "normal")
    var = max(total_sq / n - mean * mean, 0.0) * (n / (n - 1))
    half = z_value(confidence) * math.sqrt(var / n)
    return Estimate(mean, max(mean - half, floor), mean + half, int(n), "normal")


def ratio_ci(s_num: float, s_den: float, s_num2: float, s_den2: float, s_numden: float, n: float,
             confidence: float = CONFIDENCE, floor: float = -math.inf) -> Estimate:
    """Ratio of two per-game totals, sum(x)/sum(y), with a delta-method normal interval.

    Games are the independent units, so ``var(R) = var(x - R y) / (n mean(y)^2)``.
    """
    if s_den <= 0:
        return Estimate(float("nan"), float("nan"), float("nan"), int(n), "delta")
    r = s_num / s_den
    if n < 2:
        return Estimate(r, float("nan"), float("nan"), int(n), "delta")
    my = s_den / n
    # sample variance of the residual x - r y from its running sums
    ss = s_num2 - 2 * r * s_numden + r * r * s_den2
    var = max(ss / (n - 1), 0.0) / (n * my * my)
    half = z_value(confidence) * math.sqrt(var)
    return Estimate(r, max(r - half, floor), r + half, int(n), "delta")


def quantile_from_hist(hist: np.ndarray, q: float, confidence: float = CONFIDENCE) -> Estimate:
    """Quantile of an integer-valued sample given as a histogram (bin i = value i).

    The interval is the distribution-free one from binomial order statistics: ranks
    n q ± z sqrt(n q (1-q)), read back through the histogram.
    """
    hist = np.asarray(hist, dtype=np.float64)
    n = hist.sum()
    if n <= 0:
        return Estimate(float("nan"), float("nan"), float("nan"), 0, "order-statistic")
    cum = np.cumsum(hist)

    def value_at_rank(rank: float) -> float:
        rank = min(max(rank, 1.0), n)
        return float(np.searchsorted(cum, rank, side="left"))

    z = z_value(confidence)
    half = z * math.sqrt(n * q * (1 - q))
    return Estimate(value_at_rank(math.ceil(n * q)), value_at_rank(math.floor(n * q - half)),
                    value_at_rank(math.ceil(n * q + half)), int(n), "order-statistic")


def max_gap_simultaneous(counts: np.ndarray, n: int, confidence: float = CONFIDENCE) -> Estimate:
    """Largest gap between per-seat proportions, max_ij |p_i - p_j|, with an interval from
    simultaneous intervals of every pairwise difference.

    ``counts[i]`` is how many of ``n`` games seat i won (at most one winner per game, so
    the counts are one multinomial draw and p_i - p_j has variance
    (p_i + p_j - (p_i - p_j)^2) / n).  Each of the K = k(k-1)/2 differences gets an
    adjusted Wald interval at level 1 - (1 - confidence)/K (Bonferroni), with one win
    added to each of the two cells and two games to n (Bonett & Price's adjustment for a
    difference of multinomial cells: sensible from a single game on).  If every pairwise
    interval holds, which happens with probability at least ``confidence``, the largest
    gap lies between the largest distance from 0 to a pairwise interval and the largest
    |endpoint|: so the interval covers the true gap at least that often, at 0 (perfect
    balance) included, where a bootstrap of the maximum does not.
    """
    counts = np.asarray(counts, dtype=np.float64)
    k = counts.size
    if n <= 0 or k < 2:
        return Estimate(float("nan"), float("nan"), float("nan"), 0, "simultaneous")
    p = counts / n
    gap = float(p.max() - p.min())
    i, j = np.triu_indices(k, 1)
    z = z_value(1 - (1 - confidence) / i.size)
    pi, pj = (counts[i] + 1) / (n + 2), (counts[j] + 1) / (n + 2)
    d = np.abs(pi - pj)
    half = z * np.sqrt(np.maximum(pi + pj - (pi - pj) ** 2, 0.0) / (n + 2))
    half += 1.0 / (n + 2)  # continuity correction: the counts move in whole games
    lo = float(np.max(np.maximum(d - half, 0.0)))
    hi = float(min(np.max(d + half), 1.0))
    return Estimate(gap, min(lo, gap), max(hi, gap), int(n), "simultaneous")


def proportion_diff(k1: float, n1: float, k2: float, n2: float, confidence: float = CONFIDENCE) -> Estimate:
    """Difference of two independent proportions (Newcombe's hybrid Wilson interval)."""
    a, b = wilson(k1, n1, confidence), wilson(k2, n2, confidence)
    d = a.value - b.value
    lo = d - math.sqrt((a.value - a.lo) ** 2 + (b.hi - b.value) ** 2)
    hi = d + math.sqrt((a.hi - a.value) ** 2 + (b.value - b.lo) ** 2)
    return Estimate(d, lo, hi, int(min(n1, n2)), "newcombe")


def games_for_half_width(p: float, half_width: float, confidence: float = CONFIDENCE) -> int:
    """Games needed so a proportion near ``p`` has a CI half-width of ``half_width``."""
    p = min(max(p, 0.0), 1.0)
    z = z_value(confidence)
    return int(math.ceil(z * z * max(p * (1 - p), 1e-12) / (half_width * half_width)))


# ------------------------------------------------------------- many metrics tested at once
# Here, not in analysis.compare, so that the compare charts can use them without importing
# compare (which imports the charts).
ADJUSTMENT = "Holm"  # family-wise error control over all the metrics compared at once
ALPHA = 1 - CONFIDENCE


def adjust_holm(rows: list[dict], alpha: float = ALPHA) -> None:
    """Holm's step-down adjustment over every row: ``p_holm`` and ``significant_holm`` (the
    chance of any false "significant" among all metrics stays below ``alpha``)."""
    idx = sorted((i for i, r in enumerate(rows) if r["p_value"] == r["p_value"]), key=lambda i: rows[i]["p_value"])
    m = len(idx)
    running = 0.0
    for rank, i in enumerate(idx):
        running = max(running, min(1.0, (m - rank) * rows[i]["p_value"]))
        rows[i]["p_holm"] = running
    for r in rows:
        r.setdefault("p_holm", math.nan)
        r["significant_holm"] = bool(r["p_holm"] <= alpha)


def chance_differences(rows: list[dict], alpha: float = ALPHA) -> float:
    """Metrics expected to read 'significant' at 95% by chance alone were nothing changed."""
    return alpha * sum(1 for r in rows if r["p_value"] == r["p_value"])
