"""Ice Pirates of Harbour Grace (2-6 players): sail the frozen bay, copy three maps,
dig up the Pirate Admiral's treasure and bring it to Harbour Grace or open water."""

from .game import GAME, IcePirates

__all__ = ["GAME", "IcePirates"]
