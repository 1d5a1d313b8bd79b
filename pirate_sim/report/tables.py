"""Which metrics the terminal summary and the report's first page show, with designer labels.

Defined in :mod:`pirate_sim.metrics` so that ``run`` prints its summary without importing
this package (matplotlib); re-exported here for the report.
"""

from __future__ import annotations

from ..metrics import SUMMARY_EVENT_ROWS, summary_rows  # noqa: F401
