"""Ice Pirates kernel, part 5 of 7: whole games: set-up (``setup_nb``), the turns (``step_nb``, and
``play_on_nb``, the kernel's one compiled copy of a turn, through which ``protocol.py`` plays
every turn) and the outputs writer (``write_outputs_nb``, every column by its name in
``columns.py``).

Imports ``state``, ``board`` and ``turn`` (and ``columns``); see ``state.py`` for the order of
the kernel's modules.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...seating import entry_of_seat_nb, first_seat_nb
from ...rng import dice_rolled_nb, rand_below_nb, shuffle_nb
from .. import base
from ..kernel_base import copy_words_nb
from .columns import (GAME_COLUMNS, GC_DICE_ROLLED, GC_RAMS, GC_TREASURE_TURN, GC_VISITS, GC_WALLED_CARDS,
                      GC_WIND_ROLLS, SEAT_COLUMNS, SC_ABANDON_SHIPS, SC_CREW_AT_END, SC_CREW_ROWING, SC_CREW_SWASH,
                      SC_CREW_UPGRADES, SC_CREW_WAVES, SC_EXTRA_CREW, SC_HELD_TREASURE, SC_HOLDS_TREASURE,
                      SC_LOST_TURNS, SC_MAPS_HELD, SC_MOVES, SC_PROGRESS, SC_RAIDS_MADE, SC_RAIDS_SUFFERED,
                      SC_RAIDS_WON, SC_RAMS, SC_SEAT_WON, SC_STORMS_HIT, SC_SWASHBUCKLES, SC_TREASURE_CHANGES,
                      SC_TURN_ALL_MAPS, SC_TURN_FIRST_MAP, SC_TURN_TREASURE, SC_UPG)
from .rules import (BELL, C_CARD, C_COLOUR, C_COPIES, C_MASK, C_PORT_UPG, C_REVEALED, C_VISITS, C_WRECK, END_TRUNCATED,
                    EV_TRUNC, G_END, G_ENTRY, G_FIRST, G_MAPS_LEFT, G_RAMS, G_SEAT, G_SUPPLY, G_TREASURE,
                    G_TREASURE_TURN, G_TURN, G_UNUSED, G_WALLED, G_WIND_ROLLS, G_WINNER, N_BAY, N_CELLS, PORT,
                    S_ABANDONS, S_CREW, S_CREW_ROW, S_CREW_SWASH, S_CREW_UPG, S_CREW_WAVES, S_EXTRA_EVER,
                    S_HELD_TREASURE, S_LOST_TURNS, S_MAPS, S_MOVES, S_POS, S_PROGRESS, S_RAIDS_MADE, S_RAIDS_SUFFERED,
                    S_RAIDS_WON, S_RAMS, S_STORMS, S_SWASH, S_TREASURE_CHANGES, S_T_ALL_MAPS, S_T_FIRST_MAP,
                    S_T_TREASURE, S_UPG_EVER, T_PEND, WRECK)
from .state import SP_SEARCH, log_nb, popcount_nb, roll_wind_nb, sb_nb
from .board import refresh_all_nb
from .turn import play_turn_nb


# ------------------------------------------------------------------ setup and whole games
@njit(cache=True, _nrt=False, inline="always")
def draw_mask_nb(rng, sides, two_adjacent):
    """The iceberg side mask of a card with ``sides`` (0-2) icebergs: one side uniformly, or
    two (adjacent ones when ``two_adjacent`` is 1, the rulebook's cards).  Set-up and the
    search's re-deal (determinise_nb) both draw with it, so a re-dealt card is drawn as dealt."""
    if sides == 1:
        return np.int64(1) << rand_below_nb(rng, 6)
    if sides == 2:
        a = rand_below_nb(rng, 6)
        if two_adjacent == 1:
            b = (a + 1) % 6
        else:
            b = (a + 1 + rand_below_nb(rng, 5)) % 6
        return (np.int64(1) << a) | (np.int64(1) << b)
    return np.int64(0)


@njit(cache=True, _nrt=False)
def setup_nb(st, ev, rng, P, geo, cum_w, deck, port_upg, perm, game_index):
    """Deal the Bay, place the ships on Bell Island, give crew, roll the first wind, then
    seat the players (rules.strategy_seating) and choose who moves first (rules.first_player;
    the rule's own choice is seat 0)."""
    for i in range(st.shape[0]):
        st[i] = 0
    st[G_TREASURE] = -1
    st[G_WINNER] = -1
    st[G_END] = -1
    st[G_TREASURE_TURN] = -1
    st[G_SUPPLY] = P.crew_supply
    st[G_UNUSED] = P.crew_total - P.n_seats * P.crew_per_ship - P.crew_supply
    for c in range(3):
        st[G_MAPS_LEFT + c] = P.maps_per_colour
    for c in range(N_CELLS):
        st[C_WRECK + c] = -2
        st[C_COLOUR + c] = -1
        st[C_PORT_UPG + c] = -1
    st[C_CARD + P.bell_cell] = BELL
    st[C_REVEALED + P.bell_cell] = 1
    for k in range(6):
        c = P.corner0 if k == 0 else (P.corner1 if k == 1 else (P.corner2 if k == 2 else (
            P.corner3 if k == 3 else (P.corner4 if k == 4 else P.corner5))))
        st[C_CARD + c] = PORT
        st[C_REVEALED + c] = 1
        st[C_PORT_UPG + c] = port_upg[k]
        st[C_COPIES + c] = P.upg_copies
    for i in range(N_BAY):
        perm[i] = i
    shuffle_nb(rng, perm)
    i = 0
    for c in range(N_CELLS):
        if geo[c, 7] != 1:
            continue
        t = deck[perm[i], 0]
        sides = deck[perm[i], 1]
        st[C_CARD + c] = t
        st[C_COLOUR + c] = deck[perm[i], 2]
        if t == WRECK:
            st[C_WRECK + c] = -1
        st[C_MASK + c] = draw_mask_nb(rng, sides, P.two_adjacent)
        i += 1
    for s in range(P.n_seats):
        b = sb_nb(s)
        st[b + S_POS] = P.bell_cell
        st[b + S_CREW] = P.crew_per_ship
        st[b + S_T_FIRST_MAP] = -1
        st[b + S_T_ALL_MAPS] = -1
        st[b + S_T_TREASURE] = -1
    st[C_VISITS + P.bell_cell] += P.n_seats
    refresh_all_nb(st, geo)
    roll_wind_nb(st, ev, rng, cum_w, -1)
    for s in range(P.n_seats):
        st[G_ENTRY + s] = entry_of_seat_nb(s, game_index, P.n_seats, P.rotate_seats == 1)
    st[G_SEAT] = first_seat_nb(P.first_player, 0, game_index, P.n_seats, rng)
    st[G_FIRST] = st[G_SEAT]


@njit(cache=True, _nrt=False, inline="always")
def step_nb(st, ev, rng, P, geo, rel, cum_w, costs, strat, sp, fs):
    """One turn of the seat to move (or truncation at the turn cap); next seat after it."""
    if st[G_END] >= 0:
        return
    if st[G_TURN] >= P.turn_cap:
        st[G_END] = END_TRUNCATED
        log_nb(st, ev, -1, EV_TRUNC, 0, 0, 0)
        return
    st[G_TURN] += 1
    play_turn_nb(st, ev, rng, P, geo, rel, cum_w, costs, strat, sp, fs)
    if st[G_END] < 0 and st[T_PEND] == 0:  # (a paused turn is replayed, not ended)
        st[G_SEAT] = (st[G_SEAT] + 1) % P.n_seats


# The outputs columns that copy one state word, as (column code, word) pairs: the game's row
# (words G_*, the visits' cell words) and each seat's row (words S_* of its seat block); a run
# of columns stands as one pair an item.  The rest are computed in write_outputs_nb (the
# layout of pirates_cove/whole_game.py).
GAME_COPIES = np.array((
    (base.G_WINNER, G_WINNER), (base.G_TURNS, G_TURN), (base.G_END, G_END), (base.G_FIRST_SEAT, G_FIRST),
    (GC_WIND_ROLLS, G_WIND_ROLLS), (GC_WALLED_CARDS, G_WALLED), (GC_RAMS, G_RAMS), (GC_TREASURE_TURN, G_TREASURE_TURN),
    *((GC_VISITS + c, C_VISITS + c) for c in range(N_CELLS)),  # visits_cell_NN: a run of N_CELLS columns
), np.int64)
SEAT_COPIES = np.array((
    (SC_HELD_TREASURE, S_HELD_TREASURE), (SC_RAIDS_MADE, S_RAIDS_MADE), (SC_RAIDS_WON, S_RAIDS_WON),
    (SC_RAIDS_SUFFERED, S_RAIDS_SUFFERED), (SC_SWASHBUCKLES, S_SWASH), (SC_CREW_ROWING, S_CREW_ROW),
    (SC_CREW_WAVES, S_CREW_WAVES), (SC_CREW_UPGRADES, S_CREW_UPG), (SC_CREW_SWASH, S_CREW_SWASH),
    (SC_EXTRA_CREW, S_EXTRA_EVER), (SC_STORMS_HIT, S_STORMS), (SC_ABANDON_SHIPS, S_ABANDONS),
    (SC_TURN_FIRST_MAP, S_T_FIRST_MAP), (SC_TURN_ALL_MAPS, S_T_ALL_MAPS), (SC_TURN_TREASURE, S_T_TREASURE),
    (SC_TREASURE_CHANGES, S_TREASURE_CHANGES), (SC_LOST_TURNS, S_LOST_TURNS), (SC_MOVES, S_MOVES),
    (SC_RAMS, S_RAMS), (SC_CREW_AT_END, S_CREW), (SC_PROGRESS, S_PROGRESS),
), np.int64)
# with the computed ones, every column is written exactly once
assert sorted(GAME_COPIES[:, 0].tolist() + [base.G_TRUNCATED, GC_DICE_ROLLED]) \
    == list(range(base.N_STD_GAME_COLUMNS + len(GAME_COLUMNS)))
assert sorted(SEAT_COPIES[:, 0].tolist() + [SC_MAPS_HELD, SC_HOLDS_TREASURE, SC_SEAT_WON,
                                            *(SC_UPG + u for u in range(6))]) == list(range(len(SEAT_COLUMNS)))


@njit(cache=True, _nrt=False)
def write_outputs_nb(st, rng, P, out_g, out_s):
    """The game's row of the games table and its seats' rows: every column by its code
    (base.G_* for the standard columns, columns.GC_* / SC_* for the game's own)."""
    copy_words_nb(out_g, st, 0, GAME_COPIES)
    out_g[base.G_TRUNCATED] = 1 if st[G_END] == END_TRUNCATED else 0
    out_g[GC_DICE_ROLLED] = dice_rolled_nb(rng) + st[G_WIND_ROLLS]
    for s in range(P.n_seats):
        b = sb_nb(s)
        o = out_s[s]
        copy_words_nb(o, st, b, SEAT_COPIES)
        o[SC_MAPS_HELD] = popcount_nb(st[b + S_MAPS])
        o[SC_HOLDS_TREASURE] = 1 if st[G_TREASURE] == s else 0
        for u in range(6):
            o[SC_UPG + u] = (st[b + S_UPG_EVER] >> u) & 1  # upg_<name>: a run of 6, rules.UPGRADE_NAMES order
        o[SC_SEAT_WON] = 1 if st[G_WINNER] == s else 0


@njit(cache=True, _nrt=False)
def play_on_nb(st, ev, rng, P, geo, rel, cum_w, costs, strat, sp, fs, one):
    """Turns from the current state: the first whatever it is (an asked seat's turn, played or
    replayed from its start), then on until the game ends or the seat to move is asked (its
    entry row's SP_SEARCH, below the turn cap); only the first if ``one`` is 1; a paused turn
    stops it (T_PEND).  The kernel's one copy of the turn (each copy of the turn costs half a
    minute of cold compile): the protocol (``protocol.py``) plays every turn through it, and
    every caller passes ``one`` as a run-time int64 (``np.int64(...)``), never a literal, which
    numba would compile as a second copy (measured: 25 s and 27 s for two)."""
    first = True
    while st[G_END] < 0:
        if not first and st[G_TURN] < P.turn_cap and sp[st[G_ENTRY + st[G_SEAT]], SP_SEARCH] > 0:
            return
        first = False
        step_nb(st, ev, rng, P, geo, rel, cum_w, costs, strat, sp, fs)
        if one == 1 or st[T_PEND] != 0:
            return


@njit(cache=True, _nrt=False)
def turn_nb(st, ev, rng, P, geo, rel, cum_w, costs, strat, sp, fs):
    """One turn (``step_nb``) through :func:`play_on_nb` (tests and notebooks)."""
    play_on_nb(st, ev, rng, P, geo, rel, cum_w, costs, strat, sp, fs, np.int64(1))
