"""What every report page shares in its look: the page size, the colours, the footnote.
A module of its own so that page modules use it without importing the report package."""

from __future__ import annotations

PAGE = (11.0, 8.5)  # inches: every report page is landscape US Letter (792 x 612 points)
FIGSIZE = PAGE
COLOURS = ("#1f4e79", "#c0504d", "#9bbb59", "#8064a2", "#4bacc6", "#f79646")


def footnote(fig, text: str) -> None:
    """A page's small italic note along its bottom edge (how to read it, what it is not)."""
    fig.text(0.5, 0.01, text, ha="center", fontsize=7.5, style="italic")
