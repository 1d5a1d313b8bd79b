"""Pirate's Peak (2 players): race to the Peak and back, digging, fighting and shooting for gold.

``GAME`` is the plug-in; rules in docs/rules/pirates_peak.md.
"""

from .game import GAME, PiratesPeak

__all__ = ["GAME", "PiratesPeak"]
