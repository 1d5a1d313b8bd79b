"""Balance analytics on top of the one metrics vocabulary: compare, sweep, check.

Nothing here is game-specific: every function works from a :class:`~pirate_sim.scenario.Scenario`
and the kernel output layout of :mod:`pirate_sim.games.base`.
"""

from __future__ import annotations

import contextlib
import threading

from .. import metrics, stats
from ..stats import Estimate

_CONF_LOCK = threading.RLock()


@contextlib.contextmanager
def confidence_level(confidence: float):
    """Make every interval in :func:`metrics.compute` use ``confidence`` instead of 95%.

    metrics.compute() takes no confidence argument, but each interval function reads its
    default ``confidence`` at call time, so we swap the defaults for the duration.  The
    bootstrap gets enough replicates for its tail quantiles at small error rates.
    """
    if abs(confidence - stats.CONFIDENCE) < 1e-15:
        yield
        return
    with _CONF_LOCK:
        saved = {f: f.__defaults__ for f in (stats.wilson, stats.mean_ci, stats.quantile_from_hist,
                                             stats.max_gap_bootstrap)}
        alpha = 1.0 - confidence
        try:
            stats.wilson.__defaults__ = (confidence,)
            stats.mean_ci.__defaults__ = (confidence,)
            stats.quantile_from_hist.__defaults__ = (confidence,)
            stats.max_gap_bootstrap.__defaults__ = (confidence, int(min(max(2000, 40 / alpha), 400_000)), 0)
            yield
        finally:
            for f, d in saved.items():
                f.__defaults__ = d


def compute_at(acc: metrics.Accumulator, confidence: float = stats.CONFIDENCE) -> dict[str, Estimate]:
    """metrics.compute(acc) with intervals at ``confidence``."""
    with confidence_level(confidence):
        return metrics.compute(acc)
