"""The run summary as a table: what `run` prints and writes as summary.txt, and what
``Results.summary()`` shows in a notebook (one definition for all three)."""

from __future__ import annotations

import os

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from . import metrics
from .metrics import Accumulator, summary_rows

SUMMARY_TXT_WIDTH = 100  # characters: summary.txt reads the same on every terminal


def fmt_value(v: float, name: str) -> str:
    """A metric value as the summary prints it (proportions in %)."""
    if v != v:  # nan
        return "-"
    if metrics.is_proportion(name):
        return f"{100 * v:.2f}%"
    return f"{v:.3f}" if abs(v) < 100 else f"{v:.1f}"


def summary_table(acc: Accumulator, title: str = "") -> tuple[Table, str]:
    """The summary table (metric, value, 95% CI) and the "never happened in N games" line ("" if none)."""
    est = metrics.compute(acc)
    t = Table(title=escape(title) if title else None, title_justify="left")
    t.add_column("metric")
    t.add_column("value", justify="right")
    t.add_column("95% CI", justify="right")
    for name, label in summary_rows(acc.game, est):
        e = est[name]
        t.add_row(escape(label), fmt_value(e.value, name), f"{fmt_value(e.lo, name)} .. {fmt_value(e.hi, name)}")
    never = metrics.never_happened(est)
    never_line = f"never happened in {acc.n:,} games: " + ", ".join(never) if never else ""
    return t, never_line


def summary_text(acc: Accumulator, title: str = "") -> str:
    """The plain text of summary.txt: the table, the never-happened line, how many games a target needs."""
    t, never_line = summary_table(acc, title)
    with open(os.devnull, "w") as sink:
        # never Jupyter's display: inside a notebook rich would show the table instead of recording it
        rec = Console(record=True, width=SUMMARY_TXT_WIDTH, file=sink, force_jupyter=False, force_terminal=False,
                      color_system=None, emoji=False, highlight=False)
        rec.print(t)
        if never_line:
            rec.print(escape(never_line))
        truncated = metrics.truncation_warning(acc)
        if truncated:
            rec.print(f"warning: {escape(truncated)}")
        rec.print(metrics.games_needed_note(acc))
        return rec.export_text()


def run_title(s, games: int) -> str:
    """The summary's title for a run of ``games`` games of scenario ``s``."""
    return f"{s.title}: {games:,} games, seed {s.seed}"
