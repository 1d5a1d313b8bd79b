"""Pirateer's rule constants, scenario parameters and the kernel's state layout.

Board geometry is not here: it is data (``boards/default.txt``, parsed by ``board.py``,
turned into kernel tables by ``geometry.py``).
"""

from __future__ import annotations

from ...seating import seating_params
from ..base import Param

VERSION = "1.1.0"

MAX_SEATS = 4  # four harbors on the published board
MAX_SHIPS_PER_SEAT = 3  # "the 3 spaces next to the anchor flag"
MAX_SHIPS = MAX_SEATS * MAX_SHIPS_PER_SEAT
DIE_SIDES = 6

# Directions (index -> (dx, dy)); x grows right, y grows down.  0..3 orthogonal ("with the
# lines of the board"), 4..5 diagonal along a tradewind band.
DIR_NAMES = ("E", "W", "S", "N", "NE", "SW")
DX = (1, -1, 0, 0, 1, -1)
DY = (0, 0, 1, -1, -1, 1)
N_DIRS = 6
N_ORTHO = 4

# square kinds in the kernel's node table
SEA, WIND, STRAIT = 0, 1, 2

# A play: int32 row [ship1, dir1, die1, take1, ship2, dir2, die2, take2]; ship2 = -1 when
# the play is one move.  At most 3 ships x 6 directions x 2 (take or not) moves per die,
# squared, for both orders of the dice.
PLAY_WIDTH = 8
MAX_PLAYS = 2 * (MAX_SHIPS_PER_SEAT * N_DIRS * 2) ** 2

END_REASONS = ("treasure_home", "last_ship_captured", "truncated")
END_HOME, END_CAPTURE, END_TRUNCATED = 0, 1, 2
HOLD_END_LABELS = ("held_at_end", "home", "captured")  # how the first treasure holding ended
HOLD_OPEN, HOLD_HOME, HOLD_CAPTURED = 0, 1, 2

# --- state: one int32 vector per game ---------------------------------------------------
G_TURN = 0  # turns played so far
G_SEAT = 1  # seat to move
G_TREASURE = 2  # -1 on Skull Island, else the ship carrying it
G_WINNER = 3
G_END = 4  # END_* index, -1 while playing
G_EVENTS = 5  # events written so far
G_FIRST_SEAT = 6
G_FIRST_PICKUP = 7  # turn of the first pick-up from Skull Island, -1 never
G_CHANGES = 8  # times the treasure changed hands by capture
G_HOLD_END = 9  # HOLD_* of the first holding
G_HOLD_TURNS = 10  # game turns from the first pick-up to its end (home, capture or game end)
G_EXTRA = 11  # extra rolls in a row granted by doubles
G_PLAYS = 12  # legal plays offered in the last roll (trace)
G_SCR_LEN = 13  # tests: scripted plays (strategy "scripted")
G_SCR_POS = 14
G_SCR_FAIL = 15  # 1 when a scripted play was not legal
G_GAME = 16  # game index (seating)
G_DICE = 17  # dice rolled (first-player rolls included)
G_ROLL = 19  # the roll of the turn in play, d1 * 8 + d2 (the doubles rule reads it when the turn ends)
G_SCR = 20  # [MAX_SCRIPT * PLAY_WIDTH]
MAX_SCRIPT = 16
SEATS_BASE = G_SCR + MAX_SCRIPT * PLAY_WIDTH
# per-seat words at SEATS_BASE + seat * SEAT_WORDS
S_HARBOR = 0  # harbor number on the board
S_ENTRY = 1  # [[seats]] entry playing this seat (strategy table row)
S_SHIPS = 2  # ships left
S_CAPTURES = 3
S_LOST = 4
S_TREASURE_TURNS = 5  # own turns begun holding the treasure
S_PICKUPS = 6  # treasure taken (from Skull Island or by capture)
S_LOSSES = 7  # treasure ship captured
S_SAILED = 8  # squares sailed (a strait counts as one square)
S_PASSED = 9  # turns with no legal play
S_ANCHOR = 10  # node of the harbor anchor
SEAT_WORDS = 12
SHIPS_BASE = SEATS_BASE + MAX_SEATS * SEAT_WORDS
# per ship: node, -1 once captured; the owner is ship // ships_per_seat
OCC_BASE = SHIPS_BASE + MAX_SHIPS  # [n_nodes]: ship on the node, -1 empty

# events: int32 rows [turn, seat, kind, a, b, c]
EV_FIRST, EV_ROLL, EV_MOVE, EV_CAPTURE, EV_TAKE, EV_PASS, EV_WIN, EV_TRUNC, EV_EXTRA = range(9)
EVENT_WIDTH = 6

PARAMS: tuple[Param, ...] = (
    Param("turn_cap", 2000, "int", "turns (one seat's roll each) before a game is marked truncated", 10, 1_000_000),
    Param("board", "", "str", "layout file of another board, relative to the working directory (same format as the bundled "
          "pirate_sim/games/pirateer/boards/default.txt); empty = the bundled reading of the published board"),
    Param("harbors", [], "int_list", "harbor number of each seat, listed clockwise; empty = "
          "the rulebook's seating: 4 players 1,2,3,4; 3 players 1,2,3; 2 players facing each other 1,3",
          1, 4),
    Param("ships_per_player", 3, "int", "ships each player starts with on the squares nearest its "
          "anchor (rulebook: 3)", 1, 3),
    Param("single_die", "either", "choice", "when no play uses both dice, which die may move alone "
          "(rulebook: 'one die may be used', either; 'larger' = the larger when it can, as in backgammon)",
          choices=("either", "larger")),
    Param("doubles_extra_roll", False, "bool", "doubles give the same player another roll "
          "(not in the rulebook; a designer's variant)"),
    Param("max_extra_rolls", 3, "int", "most extra rolls in a row from doubles", 0, 100),
) + seating_params("rule", "highest total of two dice, ties re-roll, then clockwise")
