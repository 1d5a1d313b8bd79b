"""Balance analytics on top of the one metrics vocabulary: compare, sweep, check.

Nothing here is game-specific: every function works from a :class:`~pirate_sim.scenario.Scenario`
and the kernel output layout of :mod:`pirate_sim.games.base`.
"""

from __future__ import annotations

from .. import metrics, stats
from ..stats import Estimate


def compute_at(acc: metrics.Accumulator, confidence: float = stats.CONFIDENCE) -> dict[str, Estimate]:
    """metrics.compute(acc) with intervals at ``confidence`` (check splits its error budget)."""
    return metrics.compute(acc, confidence)
