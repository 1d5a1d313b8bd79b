"""Toy games with known meta-game answers, for the skill ladder and the tournament.

* ``luck`` (2-4 seats, tests/toy_luck.py, written on the decision protocol: its search is
  the contract's): the winner is one uniform draw; nothing any player does matters.  Its
  ``search`` player searches (rollouts on derived streams) but every option is worth the
  same, so every ladder step sits at the fair share 1/n, the skill trace is near 0 and the
  skill depth 0.
* ``best_move`` (2-4 seats, tests/toy_best_move.py, on the decision protocol: its search is
  the contract's): each seat picks one of ``len(quality)`` options, blind to the others'
  picks; the seat whose option has the highest quality wins (ties: a die among the tied).
  The ``search`` player's rollouts score an option by a coin of its quality, so search
  estimates each option's quality from ``budget`` Bernoulli rollouts (sequential halving)
  and its strength rises with its budget until it finds the best option every time;
  scripted ``random`` picks uniformly and ``first`` always takes option 0.
* ``rps`` (2 seats, tests/toy_rps.py, on the decision protocol): rock, paper, scissors and
  ``dud``; ``beats`` is the chance the row strategy wins against the column one (row-major
  4x4).  With the default table dud wins
  40% against each of the three, so it is strictly dominated by the uniform mix of the
  three (which wins 50% against each of them and 60% against dud): the equilibrium is
  (1/3, 1/3, 1/3, 0).

Registered for tests in the same way as ``toy_game`` (tests/conftest.py): see
:func:`register`.
"""

from __future__ import annotations

import toy_best_move
import toy_luck
import toy_rps

GAMES = {"luck": toy_luck.GAME, "best_move": toy_best_move.GAME, "rps": toy_rps.GAME}


def register() -> None:
    """Add the toy games to the engine's registry (tests only): the registry imports one
    module per game and reads its ``GAME``, so each game gets a small module object."""
    import sys
    import types

    from pirate_sim.games import GAME_MODULES

    for name, game in GAMES.items():
        mod = f"toy_meta_{name}"
        if mod not in sys.modules:
            m = types.ModuleType(mod)
            m.GAME = game
            sys.modules[mod] = m
        GAME_MODULES.setdefault(name, mod)


register()
