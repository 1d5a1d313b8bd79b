"""Pirateer (2-4 players): race for Skull Island's treasure and bring it home, or sink
every rival ship; two dice a turn, tradewinds and straits on a 20 x 20 board."""

from .game import GAME, Pirateer

__all__ = ["GAME", "Pirateer"]
