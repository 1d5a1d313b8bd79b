"""Matplotlib, set up once for every chart (report, compare, sweep).

No display (Agg).  Text is drawn literally: titles, paths and --set values come from
the user, and mathtext would crash on a backslash or silently drop the ``$`` of
``$5 bounty``.  A glyph missing from the font (CJK, emoji) is drawn as a box without a
warning per character.
"""

from __future__ import annotations

import warnings

import matplotlib


def setup() -> None:
    matplotlib.use("Agg")
    matplotlib.rcParams["text.parse_math"] = False
    warnings.filterwarnings("ignore", message=r"Glyph \d+ .*missing from", category=UserWarning)
