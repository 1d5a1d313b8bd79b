"""What a Pirateer strategy of one's own sees (pirate_sim.user_strategy; docs/strategies.md).

The board is open in Pirateer, so the view is the whole position, copied out of the state
into a fresh int32 vector at every decision (the function never gets the state itself):

    V_SEAT            the seat to move (the function's own)
    V_N_SEATS         seats at the table
    V_SHIPS_PER_SEAT  ships each seat started with; ship i belongs to seat i // this
    V_TURN            turns played, this one included
    V_DIE1, V_DIE2    the roll to play
    V_TREASURE        the ship carrying the treasure, -1 while it lies on Skull Island
    V_EXTRA           extra rolls from doubles already taken in a row (the variant)
    V_TURN_CAP        turns after which the game is truncated
    V_N_NODES         squares of the board (the board tables' first dimension)
    V_SHIPS + i       square of ship i (0 <= i < MAX_SHIPS), -1 captured or not in play
    V_SEATS + 4*s + k for seat s (0 <= s < MAX_SEATS; zeros beyond the table): k = 0 its
                      harbor number, 1 its anchor square, 2 ships afloat, 3 captures made

The board (the function's fifth argument) holds read-only copies of the geometry tables
(see kernel.py): ``nb`` [n, 6] neighbour per direction (-1 none), ``kind`` [n] (0 sea,
1 tradewind, 2 strait), ``is_anchor`` [n], ``dist`` [n, n] steps, ``dist_island`` [n]
steps to a treasure anchor square, ``seat_home`` [seats, n] treasure-ship steps home,
``seat_allowed`` [seats, 6] directions a treasure ship of the seat may sail.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from .rules import (G_EXTRA, G_ROLL, G_SEAT, G_TREASURE, G_TURN, MAX_SEATS, MAX_SHIPS, S_ANCHOR,
                    S_CAPTURES, S_HARBOR, S_SHIPS, SEAT_WORDS, SEATS_BASE, SHIPS_BASE)

V_SEAT = 0
V_N_SEATS = 1
V_SHIPS_PER_SEAT = 2
V_TURN = 3
V_DIE1 = 4
V_DIE2 = 5
V_TREASURE = 6
V_EXTRA = 7
V_TURN_CAP = 8
V_N_NODES = 9
V_SHIPS = 10
V_SEATS = V_SHIPS + MAX_SHIPS
SEAT_FIELDS = 4  # harbor, anchor, ships afloat, captures made
VIEW_LEN = V_SEATS + SEAT_FIELDS * MAX_SEATS
Board = namedtuple("Board", ["nb", "kind", "is_anchor", "dist", "dist_island", "seat_home", "seat_allowed"])


def board_of(arrays) -> Board:
    """Read-only copies of the compiled scenario's geometry tables (``Compiled.arrays`` order)."""
    from ...user_strategy import readonly

    return Board(*(readonly(a) for a in arrays[:7]))


@njit(cache=True, error_model="numpy")
def fill_view_nb(st, P, view):
    """Copy the public position out of the state ``st`` into ``view`` (layout above)."""
    view[:] = 0
    view[V_SEAT] = st[G_SEAT]
    view[V_N_SEATS] = P.n_seats
    view[V_SHIPS_PER_SEAT] = P.ships_per_seat
    view[V_TURN] = st[G_TURN]
    view[V_DIE1] = st[G_ROLL] // 8
    view[V_DIE2] = st[G_ROLL] % 8
    view[V_TREASURE] = st[G_TREASURE]
    view[V_EXTRA] = st[G_EXTRA]
    view[V_TURN_CAP] = P.turn_cap
    view[V_N_NODES] = P.n_nodes
    for i in range(MAX_SHIPS):
        view[V_SHIPS + i] = st[SHIPS_BASE + i] if i < P.n_seats * P.ships_per_seat else -1
    for s in range(P.n_seats):
        b = SEATS_BASE + s * SEAT_WORDS
        view[V_SEATS + SEAT_FIELDS * s] = st[b + S_HARBOR]
        view[V_SEATS + SEAT_FIELDS * s + 1] = st[b + S_ANCHOR]
        view[V_SEATS + SEAT_FIELDS * s + 2] = st[b + S_SHIPS]
        view[V_SEATS + SEAT_FIELDS * s + 3] = st[b + S_CAPTURES]


def example_view(n_nodes: int = 1) -> np.ndarray:
    return np.zeros(VIEW_LEN, np.int32)
