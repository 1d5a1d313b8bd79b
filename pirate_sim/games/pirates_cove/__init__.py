"""Pirate's Cove (3-5 players): choose an island in secret each of 12 rounds, take its
Treasure card alone or fight for it, upgrade your ship and bury treasure for fame."""

from .game import GAME, PiratesCove

__all__ = ["GAME", "PiratesCove"]
