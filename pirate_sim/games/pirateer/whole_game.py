"""Pirateer's kernel: a game's two ends.  The set-up (``setup_nb``) and the outputs writer
(``write_outputs_nb``: every column of ``columns.py`` through its ``GC_*`` / ``SC_*`` code); the
turns between them are the protocol's (``protocol.py``: ``turn.py`` behind its names).

May import ``rules``, ``columns`` and ``state``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...rng import roll_die_nb
from ...seating import FP_RULE, entry_of_seat_nb, first_seat_nb
from .. import base
from ..kernel_base import copy_words_nb
from .columns import (GAME_COLUMNS, GC_DICE_ROLLED, GC_FIRST_HOLD_END, GC_FIRST_HOLD_TURNS, GC_FIRST_PICKUP_TURN,
                      GC_TREASURE_CHANGES, SEAT_COLUMNS, SC_CAPTURES_MADE, SC_CAPTURES_SUFFERED, SC_HARBOR, SC_SEAT_WON,
                      SC_SHIPS_LEFT, SC_SQUARES_SAILED, SC_TREASURE_LOSSES, SC_TREASURE_PICKUPS, SC_TREASURE_TURNS,
                      SC_TURNS_PASSED)
from .rules import (DIE_SIDES, END_TRUNCATED, EV_FIRST, G_CHANGES, G_DICE, G_END, G_FIRST_PICKUP,
                    G_FIRST_SEAT, G_GAME, G_HOLD_END, G_HOLD_TURNS, G_SEAT, G_TREASURE, G_TURN, G_WINNER, MAX_SHIPS,
                    OCC_BASE, SHIPS_BASE, S_ANCHOR, S_CAPTURES, S_ENTRY, S_HARBOR, S_LOSSES, S_LOST, S_PASSED,
                    S_PICKUPS, S_SAILED, S_SHIPS, S_TREASURE_TURNS)
from .state import G_HOLD_START, HOLD_NEVER, HOLD_OPEN, log_nb, sb_nb


@njit(cache=True, error_model="numpy")
def setup_nb(st, ev, rng, P, seat_harbor, seat_anchor, seat_start, game_index):
    """Ships on their starting squares, the treasure on Skull Island, the first player."""
    st[:] = 0
    st[OCC_BASE:OCC_BASE + P.n_nodes] = -1
    st[SHIPS_BASE:SHIPS_BASE + MAX_SHIPS] = -1
    st[G_TREASURE] = -1
    st[G_WINNER] = -1
    st[G_END] = -1
    st[G_FIRST_PICKUP] = -1
    st[G_HOLD_END] = HOLD_NEVER
    st[G_GAME] = game_index
    sps = P.ships_per_seat
    for s in range(P.n_seats):
        b = sb_nb(s)
        st[b + S_HARBOR] = seat_harbor[s]
        st[b + S_ANCHOR] = seat_anchor[s]
        st[b + S_ENTRY] = entry_of_seat_nb(s, game_index, P.n_seats, P.rotate)
        st[b + S_SHIPS] = sps
        for k in range(sps):
            ship = s * sps + k
            st[SHIPS_BASE + ship] = seat_start[s, k]
            st[OCC_BASE + seat_start[s, k]] = ship
    rule_seat = 0
    best = 0
    if P.first_player == FP_RULE:
        # "roll dice for highest total": every seat rolls two dice, the tied highest re-roll
        contenders = (1 << P.n_seats) - 1
        while True:
            best = -1
            tied = 0
            for s in range(P.n_seats):
                if (contenders >> s) & 1:
                    r = roll_die_nb(rng, DIE_SIDES) + roll_die_nb(rng, DIE_SIDES)
                    st[G_DICE] += 2
                    if r > best:
                        best = r
                        tied = 1 << s
                        rule_seat = s
                    elif r == best:
                        tied |= 1 << s
            if tied == (1 << rule_seat):
                break
            contenders = tied
    first = first_seat_nb(P.first_player, rule_seat, game_index, P.n_seats, rng)
    st[G_SEAT] = first
    st[G_FIRST_SEAT] = first
    log_nb(st, ev, first, EV_FIRST, best, 0, 0)



# The outputs columns that copy one state word, as (column code, word) pairs: the game's row
# (words G_*) and each seat's row (words S_* of its seat block); the rest are computed in
# write_outputs_nb (the layout of pirates_cove/whole_game.py).
GAME_COPIES = np.array((
    (base.G_WINNER, G_WINNER), (base.G_TURNS, G_TURN), (base.G_END, G_END), (base.G_FIRST_SEAT, G_FIRST_SEAT),
    (GC_DICE_ROLLED, G_DICE), (GC_TREASURE_CHANGES, G_CHANGES), (GC_FIRST_PICKUP_TURN, G_FIRST_PICKUP),
    (GC_FIRST_HOLD_END, G_HOLD_END),
), np.int64)
SEAT_COPIES = np.array((
    (SC_HARBOR, S_HARBOR), (SC_SHIPS_LEFT, S_SHIPS), (SC_CAPTURES_MADE, S_CAPTURES), (SC_CAPTURES_SUFFERED, S_LOST),
    (SC_TREASURE_TURNS, S_TREASURE_TURNS), (SC_TREASURE_PICKUPS, S_PICKUPS), (SC_TREASURE_LOSSES, S_LOSSES),
    (SC_SQUARES_SAILED, S_SAILED), (SC_TURNS_PASSED, S_PASSED),
), np.int64)
# with the computed ones, every column is written exactly once
assert sorted(GAME_COPIES[:, 0].tolist() + [base.G_TRUNCATED, GC_FIRST_HOLD_TURNS]) \
    == list(range(base.N_STD_GAME_COLUMNS + len(GAME_COLUMNS)))
assert sorted(SEAT_COPIES[:, 0].tolist() + [SC_SEAT_WON]) == list(range(len(SEAT_COLUMNS)))


@njit(cache=True, error_model="numpy")
def write_outputs_nb(st, P, out_g, out_s):
    """The game's outputs row and its seats' rows, every column by its code (columns.py)."""
    if st[G_HOLD_END] == HOLD_OPEN:
        st[G_HOLD_TURNS] = st[G_TURN] - st[G_HOLD_START]
    copy_words_nb(out_g, st, 0, GAME_COPIES)
    out_g[base.G_TRUNCATED] = 1 if st[G_END] == END_TRUNCATED else 0
    out_g[GC_FIRST_HOLD_TURNS] = st[G_HOLD_TURNS] if st[G_HOLD_END] != HOLD_NEVER else -1
    for s in range(P.n_seats):
        copy_words_nb(out_s[s], st, sb_nb(s), SEAT_COPIES)
        out_s[s, SC_SEAT_WON] = 1 if st[G_WINNER] == s else 0
