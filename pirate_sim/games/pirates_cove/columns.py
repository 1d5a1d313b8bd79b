"""Names and codes of Pirate's Cove's result columns that both the plug-in and its report read.

Kept apart from ``game.py`` so that ``report.py`` reads them without importing the
plug-in (``game.py`` loads ``report.py`` for its pages: one direction only).
"""

from __future__ import annotations

import numpy as np

from . import rules as R

SECTIONS = R.SECTION_NAMES
FAME_SOURCES = ("fame_chests", "fame_gold", "fame_combat", "fame_black", "fame_treasure", "fame_cards")


def decode_round(code) -> tuple[np.ndarray, np.ndarray]:
    """(ships [..., 6], contested [..., 6]) from round_NN codes (int or array)."""
    c = np.asarray(code, np.int64)
    ships = np.stack([(c >> (3 * i)) & 7 for i in range(6)], axis=-1)
    contested = np.stack([(c >> (18 + i)) & 1 for i in range(6)], axis=-1)
    return ships, contested
