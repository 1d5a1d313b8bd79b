"""What a Pirate's Peak strategy of one's own sees at its declaration (pirate_sim.user_strategy;
docs/strategies.md).

The function decides the seat's declaration (sail / search / fire); the seat's other
choices are its ``base`` strategy's.  Hidden in the game is the order of the unflipped Sea
cards; the view holds what both players see on the table, copied out of the work array
into a fresh int32 vector at every decision:

    V_SEAT        the seat to move (the function's own); the opponent is 1 - it
    V_TURNS       turns played, this one included
    V_FIRST       the seat that moved first
    V_PEAK_X      physical space of the Peak, -1 until its card is laid
    V_GHOST_X     space of the Ghost Ship, -1 none
    V_SEA_BANK    gold in the Sea Bank
    V_PEAK_MASK   bit t set: Peak treasure t taken (1 mighty sail, 2 golden cutlass, 3 steel cannon)
    V_N_LAID      spaces laid on the table (the track's length so far)
    V_FLIPPED     Sea cards flipped
    V_CAN_SEARCH  1: searching is legal now
    V_CAN_FIRE    1: firing is legal now
    V_SHIP + N_SHIP * s + SH_*  ship s's row (rules.SH_*: progress, gold, crew, cannonballs, life,
                  treasure, trap, trap attempts, gust, shortcut, last search, skip, docked, dig
                  site, digs there, this turn's copies of the one-turn flags), s = 0, 1
    V_TRACK + x   space code of physical space x (rules: OPEN, TREASURE_X, ISLAND, ...), -1 not laid

The board (the fifth argument) is a read-only copy of the rules row ``rules`` (rules.RU_*:
prices, ranges, limits, as the scenario set them).  Options are the ACT_* codes legal now.
"""

from __future__ import annotations

from collections import namedtuple

from numba import njit

from .rules import (G_FIRST, G_FLIPPED, G_GHOST_X, G_N_LAID, G_PEAK_MASK, G_PEAK_X, G_SEA_BANK, G_TURNS, N_SHIP,
                    ROW_SHIP, ROW_ST, ROW_TRACK)

V_SEAT = 0
V_TURNS = 1
V_FIRST = 2
V_PEAK_X = 3
V_GHOST_X = 4
V_SEA_BANK = 5
V_PEAK_MASK = 6
V_N_LAID = 7
V_FLIPPED = 8
V_CAN_SEARCH = 9
V_CAN_FIRE = 10
V_SHIP = 16
V_TRACK = V_SHIP + 2 * N_SHIP
USER_STREAM = 0x7FFFFFFE  # the private stream's rollout index (the search's PRIOR_STREAM is 0x7FFFFFFF)

Board = namedtuple("Board", ["rules"])


def view_len(max_track: int) -> int:
    return V_TRACK + int(max_track)


@njit(cache=True, error_model="numpy")
def fill_view_nb(w, s, can_search, can_fire, view):
    """Copy the table's public state into ``view`` (layout above)."""
    view[:] = 0
    view[V_SEAT] = s
    view[V_TURNS] = w[ROW_ST, G_TURNS]
    view[V_FIRST] = w[ROW_ST, G_FIRST]
    view[V_PEAK_X] = w[ROW_ST, G_PEAK_X]
    view[V_GHOST_X] = w[ROW_ST, G_GHOST_X]
    view[V_SEA_BANK] = w[ROW_ST, G_SEA_BANK]
    view[V_PEAK_MASK] = w[ROW_ST, G_PEAK_MASK]
    view[V_N_LAID] = w[ROW_ST, G_N_LAID]
    view[V_FLIPPED] = w[ROW_ST, G_FLIPPED]
    view[V_CAN_SEARCH] = can_search
    view[V_CAN_FIRE] = can_fire
    for j in range(2):
        for i in range(N_SHIP):
            view[V_SHIP + N_SHIP * j + i] = w[ROW_SHIP + j, i]
    laid = w[ROW_ST, G_N_LAID]
    for x in range(view.shape[0] - V_TRACK):
        view[V_TRACK + x] = w[ROW_TRACK, x] if x < laid else -1
