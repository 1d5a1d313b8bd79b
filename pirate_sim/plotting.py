"""Matplotlib, set up once for every chart (report, compare, sweep).

No display (Agg).  Text is drawn literally: titles, paths and --set values come from
the user, and mathtext would crash on a backslash or silently drop the ``$`` of
``$5 bounty``.  A glyph missing from the font (CJK, emoji) is drawn as a box without a
warning per character.
"""

from __future__ import annotations

import warnings

GLYPH_WARNING = r"Glyph \d+ .*missing from"  # matplotlib's warning for a character its font lacks


def setup() -> None:
    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams["text.parse_math"] = False
    warnings.filterwarnings("ignore", message=GLYPH_WARNING, category=UserWarning)
