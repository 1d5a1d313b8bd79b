"""What an Ice Pirates strategy of one's own sees at its choices (pirate_sim.user_strategy;
docs/strategies.md).

The function takes the choices the ``search`` player takes: each move's heading (or
stopping), fighting the waves in a storm, and whom to raid (or no one); the seat's other
choices (abandoning ship, the Telescope, Port upgrades, swashbuckling) are its ``base``
strategy's.  Hidden in the game are the face-down Bay cards (the deal: which card lies
where, its icebergs, a Lost Island's colour, a Shipwreck's Extra Crew); everything else is
on the table: ships, crew chips, upgrades, the map colours each ship holds (taken openly
from the stacks), the treasure card, the wind.  The view is copied out of the state into a
fresh int32 vector at every choice (the function never gets the state itself):

    V_SEAT          the seat to move (the function's own)
    V_N_SEATS       seats at the table
    V_TURN          turns played, this one included
    V_TURN_CAP      turns after which the game is truncated
    V_KIND          the choice: KIND_DIR a heading, KIND_FIGHT fight the waves, KIND_RAID a raid
    V_CAN_STOP      KIND_DIR: 1 if stopping (option -1) is among the options
    V_START         the cell the ship began this turn on
    V_MOVES         moves made this turn so far (rams not counted)
    V_CHOICES       choices the seat made this turn so far
    V_WIND          the wind blows from Port number V_WIND + 1 (direction index 0..5)
    V_TREASURE      the seat holding the treasure card, -1 while it lies beside the board
    V_BELL_POOL     crew chips lying on Bell Island
    V_SUPPLY        crew chips beside the board (Shipwrecks pay from it)
    V_MAPS_LEFT + k map cards left in colour k's stack (k = 0 red, 1 green, 2 yellow)
    V_FIRST         the seat that moved first
    V_SEATS + SEAT_FIELDS * s + F_*   seat s (0 <= s < MAX_SEATS; zeros beyond the table):
                    F_POS cell (-1 off the board), F_CREW crew chips (captain not counted),
                    F_EXTRA Extra Crew upgrades, F_UPG bitmask of Port upgrades (rules.CANNON..),
                    F_MAPS bitmask of map colours, F_ABANDONED 1 re-enters on Bell Island next turn
    V_CARD + c      card of cell c (rules.OPEN, STORM, LOST_ISLAND, KELLY, WRECK, BELL, PORT),
                    -1 face down
    V_ICE + c       face up: bitmask of the sides its icebergs block (bit d = direction d); 0 else
    V_COLOUR + c    a face-up Lost Island's map colour, -1 else
    V_WRECK + c     a face-up Shipwreck: -1 its Extra Crew still there, else the seat that took it;
                    -2 else
    V_COPIES + c    a Port: upgrade copies left (its upgrade: board.port_upg[c]); 0 else
    V_PLAN          the seat's plan, where its ship stands (KIND_DIR and KIND_FIGHT; -1 at a raid):
                    quarter moves from its cell to the goal of its ``base`` strategy's planner
                    (policies.plan_nb, the built-in expert's with base = "expert": home with the
                    treasure, Bell Island, the holder, Ports, a rich ship, Lost Islands, the
                    unknown), over the known icebergs only; -1 where no goal is reachable
    V_PLAN + 1 + d  the same from the neighbour in direction d (-1 off the map)
    V_PLAN_TARGET   the seat the plan chases (-1 none)

Options (int32[n]) are the search player's: KIND_DIR the legal headings 0..5 (N, NE, SE, S,
SW, NW) then -1 to stop when allowed; KIND_FIGHT 1 fight, 0 stay in the storm; KIND_RAID -1
no raid, then the seats it may raid.  The board (the fifth argument) is read-only:
``nb`` [37, 6] neighbour per direction (-1 off the map), ``escape`` [37] 1 on the edge
whence the headings in ``rules[R_ESC_MASK]`` reach open water, ``bay`` [37] 1 a Bay cell,
``rel`` [wind, direction] rules.WITH / TACK / INTO, ``costs`` [copies] crew cost of an
upgrade by copies taken before, ``deck`` [30, 3] the Bay cards in the box (type, iceberg
sides, colour; their order says nothing of the deal), ``port_upg`` [37] a Port's upgrade,
-1 else, ``wind_cum`` [6] cumulative wind weights, ``rules`` [R_LEN] the R_* numbers below.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from .policies import plan_nb, search_nb
from .rules import (C_CARD, C_COLOUR, C_COPIES, C_MASK, C_REVEALED, C_WRECK, G_BELL_POOL, G_FIRST, G_MAPS_LEFT,
                    G_SEAT, G_SUPPLY, G_TREASURE, G_TURN, G_WIND, MAX_SEATS, N_CELLS, N_COLOURS, PEND_DIR,
                    PEND_FIGHT, PEND_RAID, PORT, S_ABANDONED, S_CREW, S_EXTRA, S_MAPS, S_MOVES, S_POS, S_UPG,
                    SEAT_WORDS, SEATS_BASE, T_NF, T_PEND, T_PSTOP, WRECK)
from .state import BB_AROUND, FS_DIST, INF

KIND_DIR, KIND_FIGHT, KIND_RAID = PEND_DIR, PEND_FIGHT, PEND_RAID  # V_KIND: the choice being made

V_SEAT = 0
V_N_SEATS = 1
V_TURN = 2
V_TURN_CAP = 3
V_KIND = 4
V_CAN_STOP = 5
V_START = 6
V_MOVES = 7
V_CHOICES = 8
V_WIND = 9
V_TREASURE = 10
V_BELL_POOL = 11
V_SUPPLY = 12
V_MAPS_LEFT = 13  # [N_COLOURS]
V_FIRST = V_MAPS_LEFT + N_COLOURS
V_SEATS = 20  # (17..19 are zero, room for more table words)
F_POS, F_CREW, F_EXTRA, F_UPG, F_MAPS, F_ABANDONED = range(6)
SEAT_FIELDS = 6  # the F_* fields of one seat
V_CARD = V_SEATS + SEAT_FIELDS * MAX_SEATS
V_ICE = V_CARD + N_CELLS
V_COLOUR = V_ICE + N_CELLS
V_WRECK = V_COLOUR + N_CELLS
V_COPIES = V_WRECK + N_CELLS
V_PLAN = V_COPIES + N_CELLS  # [7] the plan's distances: the ship's cell, then its neighbours by direction
V_PLAN_TARGET = V_PLAN + 7
VIEW_LEN = V_PLAN_TARGET + 1
FACE_DOWN = -1  # V_CARD of a face-down Bay card
NO_WRECK = -2  # V_WRECK of a cell that is no face-up Shipwreck
# The private stream's rollout index (derive_stream_nb of the turn's start stream at the
# search's decision number): search rollouts use 0..budget-1 and its prior 0x7FFFFFFF.
USER_STREAM = 0x7FFFFFFE

# board.rules: the scenario's numbers a player may want (IceParams fields)
R_HG_CELL = 0  # cell of Harbour Grace
R_ESC_MASK = 1  # bit d: heading d from an escape cell leads into open water
R_WIND_MOVES = 2  # moves of a turn that starts with the wind
R_SAIL_MOVES = 3  # moves with a Main Sail
R_CREW_PER_SHIP = 4  # crew a ship starts with and restores to at Bell Island
R_MAX_SCORE = 5  # highest raid score
R_CANNON_DICE = 6  # dice a Cannon rolls, keeping the highest
R_TIES_RAIDER = 7  # 1: a tied first exchange goes to the raider
R_BELL_CELL = 8  # cell of Bell Island
R_MAPS_PER_COLOUR = 9  # map cards of each colour
R_LEN = 10

Board = namedtuple("Board", ["nb", "escape", "bay", "rel", "costs", "deck", "port_upg", "wind_cum", "rules"])


def board_of(P, arrays) -> Board:
    """Read-only copies of the compiled scenario's public tables (``Compiled.arrays`` order:
    geo, rel, cum_w, costs, deck, port_upg, ...)."""
    from ...user_strategy import readonly
    from .rules import CORNER_CELLS

    geo, rel, cum_w, costs, deck, port_upg = arrays[:6]
    per_cell = np.full(N_CELLS, -1, np.int32)
    for k, c in enumerate(CORNER_CELLS):
        per_cell[c] = port_upg[k]
    rules = np.zeros(R_LEN, np.int32)
    rules[R_HG_CELL] = P.hg_cell
    rules[R_ESC_MASK] = P.esc_mask
    rules[R_WIND_MOVES] = P.wind_moves
    rules[R_SAIL_MOVES] = P.sail_moves
    rules[R_CREW_PER_SHIP] = P.crew_per_ship
    rules[R_MAX_SCORE] = P.max_score
    rules[R_CANNON_DICE] = P.cannon_dice
    rules[R_TIES_RAIDER] = P.ties_raider
    rules[R_BELL_CELL] = P.bell_cell
    rules[R_MAPS_PER_COLOUR] = P.maps_per_colour
    costs = costs if len(costs) else np.zeros(1, np.int32)  # (an empty table would type as a 1-d array still)
    return Board(readonly(geo[:, :6]), readonly(geo[:, 6]), readonly(geo[:, 7]), readonly(rel), readonly(costs),
                 readonly(deck), readonly(per_cell), readonly(cum_w), readonly(rules))


@njit(cache=True, _nrt=False)
def fill_view_nb(st, st0, P, view):
    """Copy what the seat to move may know out of the paused state ``st`` (its turn began in
    ``st0``) into ``view`` (layout above).  Reads no face-down card."""
    view[:] = 0
    s = st[G_SEAT]
    view[V_SEAT] = s
    view[V_N_SEATS] = P.n_seats
    view[V_TURN] = st[G_TURN]
    view[V_TURN_CAP] = P.turn_cap
    view[V_KIND] = st[T_PEND]
    view[V_CAN_STOP] = st[T_PSTOP] if st[T_PEND] == PEND_DIR else 0
    b = SEATS_BASE + s * SEAT_WORDS
    view[V_START] = st0[b + S_POS]
    view[V_MOVES] = st[b + S_MOVES] - st0[b + S_MOVES]
    view[V_CHOICES] = st[T_NF]
    view[V_WIND] = st[G_WIND]
    view[V_TREASURE] = st[G_TREASURE]
    view[V_BELL_POOL] = st[G_BELL_POOL]
    view[V_SUPPLY] = st[G_SUPPLY]
    for k in range(N_COLOURS):
        view[V_MAPS_LEFT + k] = st[G_MAPS_LEFT + k]
    view[V_FIRST] = st[G_FIRST]
    for o in range(P.n_seats):
        b = SEATS_BASE + o * SEAT_WORDS
        v = V_SEATS + SEAT_FIELDS * o
        view[v + F_POS] = st[b + S_POS]
        view[v + F_CREW] = st[b + S_CREW]
        view[v + F_EXTRA] = st[b + S_EXTRA]
        view[v + F_UPG] = st[b + S_UPG]
        view[v + F_MAPS] = st[b + S_MAPS]
        view[v + F_ABANDONED] = st[b + S_ABANDONED]
    for c in range(N_CELLS):
        up = st[C_REVEALED + c] == 1
        card = st[C_CARD + c]
        view[V_CARD + c] = card if up else FACE_DOWN
        view[V_ICE + c] = st[C_MASK + c] if up else 0
        view[V_COLOUR + c] = st[C_COLOUR + c] if up else -1
        view[V_WRECK + c] = st[C_WRECK + c] if (up and card == WRECK) else NO_WRECK
        view[V_COPIES + c] = st[C_COPIES + c] if card == PORT else 0  # Ports lie face up from the start


@njit(cache=True, _nrt=False)
def fill_plan_nb(st, st0, P, geo, rel, costs, strat, sp, fs, view):
    """The plan words of ``view`` (V_PLAN..): the planner of the seat's entry row (``strat``,
    ``sp``: the rows its turn is played with), run in the work space ``fs`` as far as the
    ship's cell and its neighbours.  The planner reads known icebergs and face-up cards only
    (tests/test_user_ice_pirates.py re-deals the face-down cards under it)."""
    for k in range(8):
        view[V_PLAN + k] = -1
    s = st[G_SEAT]
    pos = st[SEATS_BASE + s * SEAT_WORDS + S_POS]
    if st[T_PEND] == PEND_RAID or pos < 0:
        return
    target = plan_nb(st, P, geo, rel, costs, strat, sp, s, st0[G_TREASURE] == s, fs)
    search_nb(fs, BB_AROUND[pos])
    x = fs[FS_DIST + pos]
    view[V_PLAN] = x if x < INF else -1
    for d in range(6):
        w = geo[pos, d]
        if w >= 0:
            x = fs[FS_DIST + w]
            view[V_PLAN + 1 + d] = x if x < INF else -1
    view[V_PLAN_TARGET] = target
