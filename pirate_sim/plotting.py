"""Matplotlib, set up once for every chart (report, compare, sweep).

No display (Agg), except inside a Jupyter kernel: there the notebook's inline backend
(which draws to PNG, no window either) stays, or a designer's own charts would vanish
once a command had drawn its files.  Text is drawn literally: titles, paths and --set values come from
the user, and mathtext would crash on a backslash or silently drop the ``$`` of
``$5 bounty``.  A glyph missing from the font (CJK, emoji) is drawn as a box without a
warning per character.
"""

from __future__ import annotations

import sys
import warnings

GLYPH_WARNING = r"Glyph \d+ .*missing from"  # matplotlib's warning for a character its font lacks


def setup() -> None:
    import matplotlib

    if "ipykernel" not in sys.modules:
        matplotlib.use("Agg")
    matplotlib.rcParams["text.parse_math"] = False
    warnings.filterwarnings("ignore", message=GLYPH_WARNING, category=UserWarning)
