"""pirate-sim: Monte Carlo game-balance analytics for pirate board games."""

__version__ = "0.1.0"
