"""Who sits where and who moves first: the one definition every game shares.

A balance figure "seat 0 wins more" mixes two effects: the position (moving first) and
the player sitting there (its strategy).  To measure them apart a scenario chooses

* ``rules.first_player``: ``rule`` (the rulebook's own way, e.g. a dice roll),
  ``rotate`` (game k starts with seat ``k mod n``), or ``random`` (uniform, drawn from the
  game's own RNG stream);
* ``rules.strategy_seating``: ``fixed`` (the scenario's ``[[seats]]`` entry j always plays
  seat j) or ``rotate`` (in game k entry j plays seat ``(j + k) mod n``, so every player
  sits in every position equally often).

Games declare both parameters with :func:`seating_params` and apply them in their kernel
with :func:`entry_of_seat_nb` / :func:`first_seat_nb`; the engine labels the ``strategy``
column of the results with :func:`entries_of_seats`, the same formula in numpy.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .games.base import Param
from .rng import rand_below_nb

FIRST_PLAYER_MODES = ("rule", "rotate", "random")
FP_RULE, FP_ROTATE, FP_RANDOM = 0, 1, 2  # kernel codes, in FIRST_PLAYER_MODES order
SEATING_MODES = ("fixed", "rotate")


def seating_params(first_player_default: str = "rule", rule_means: str = "the rulebook's rule") -> tuple[Param, Param]:
    """The two seating parameters, to include in a game's ``params``."""
    if first_player_default not in FIRST_PLAYER_MODES:
        raise ValueError(first_player_default)
    return (
        Param("first_player", first_player_default, "choice",
              f"who moves first: 'rule' = {rule_means}; 'rotate' = game k starts with seat k mod n "
              "(every seat starts equally often); 'random' = a uniformly random seat",
              choices=FIRST_PLAYER_MODES),
        Param("strategy_seating", "fixed", "choice",
              "which player sits where: 'fixed' = seats entry j always plays seat j; 'rotate' = in game k "
              "entry j plays seat (j + k) mod n, so position and strategy effects can be measured apart",
              choices=SEATING_MODES),
    )


def first_player_code(rules: dict) -> int:
    """Kernel code of ``rules['first_player']`` (default 'rule' for games without it)."""
    return FIRST_PLAYER_MODES.index(rules.get("first_player", "rule"))


def rotates(rules: dict) -> bool:
    """Whether strategies rotate over seats from game to game."""
    return rules.get("strategy_seating", "fixed") == "rotate"


@njit(cache=True, inline="always")
def entry_of_seat_nb(seat, game_index, n_seats, rotate):
    """Index of the ``[[seats]]`` entry that plays ``seat`` in game ``game_index``."""
    if not rotate:
        return seat
    return (seat - game_index % n_seats + n_seats) % n_seats


@njit(cache=True)
def first_seat_nb(mode, rule_seat, game_index, n_seats, rng):
    """The seat that moves first; ``rule_seat`` is what the game's own rule chose
    (pass anything when ``mode`` is not FP_RULE). Draws from ``rng`` only for 'random'."""
    if mode == FP_ROTATE:
        return game_index % n_seats
    if mode == FP_RANDOM:
        return rand_below_nb(rng, n_seats)
    return rule_seat


def entries_of_seats(game_indices: np.ndarray, n_seats: int, rotate: bool) -> np.ndarray:
    """``[n_games, n_seats]`` entry index per seat, same formula as the kernel."""
    seats = np.arange(n_seats, dtype=np.int64)[None, :]
    if not rotate:
        return np.broadcast_to(seats, (len(game_indices), n_seats)).copy()
    g = np.asarray(game_indices, dtype=np.int64)[:, None] % n_seats
    return (seats - g + n_seats) % n_seats
