"""Ice Pirates of Harbour Grace: named constants, the hex map, the state layout and the Params.

Map (37 cards: Bell Island, six Ports, 30 Bay cards) as a hexagon of radius 3 with
flat-topped hexes in columns, north up.  Cell indices (axial ``q`` = column - 3,
``r`` = row within the column, north to south)::

                       15  <- 1 N  Port De Verde (Jib)
                 09          22
           04          16          28
  6 NW 00          10          23          33  2 NE Pouch Cove (Telescope)
 Harbour   05          17          29
  Grace    01          11          24          34
 (Cannon)        06          18          30        <- 18 Bell Island
     02          12          25          35
           07          19          31
  5 SW 03          13          26          36  3 SE Portugal Cove (Grappling Hook)
 Cupid's   08          20          32
 Harbour         14          27
 (Ice Breaker)         21  <- 4 S  Harbour Main (Main Sail)

Directions (index = Port number - 1): 0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW.  A neighbour in
direction ``d`` is ``(q + DQ[d], r + DR[d])``.  Open water (the Atlantic) lies north of
the edge 15-22-28-33 between Port De Verde and Pouch Cove.

The wind "blows from" a Port number ``w``: moving in direction ``w`` is rowing into the
wind, the two directions beside it are tacking, the other three are with the wind.
"""

from __future__ import annotations

import numpy as np

from ...seating import seating_params
from ..base import Param

VERSION = "1.2.0"

RADIUS = 3
N_CELLS = 37
N_BAY = 30
N_DIRS = 6
DIR_NAMES = ("N", "NE", "SE", "S", "SW", "NW")
DQ = (0, 1, 1, 0, -1, -1)
DR = (-1, -1, 0, 1, 1, 0)
PORT_NAMES = ("Port De Verde", "Pouch Cove", "Portugal Cove", "Harbour Main",
              "Cupid's Harbour", "Harbour Grace")


def _cells() -> list[tuple[int, int]]:
    out = []
    for q in range(-RADIUS, RADIUS + 1):
        for r in range(max(-RADIUS, -RADIUS - q), min(RADIUS, RADIUS - q) + 1):
            out.append((q, r))
    return out


CELLS = _cells()  # index -> (q, r)
CELL_INDEX = {c: i for i, c in enumerate(CELLS)}
BELL_CELL = CELL_INDEX[(0, 0)]  # 18
CORNER_CELLS = tuple(CELL_INDEX[(RADIUS * DQ[k], RADIUS * DR[k])] for k in range(6))  # (15,33,36,21,3,0)


def neighbour_table() -> np.ndarray:
    """int32[37, 6]: the neighbour of each cell in each direction, -1 off the map."""
    nb = np.full((N_CELLS, N_DIRS), -1, np.int32)
    for i, (q, r) in enumerate(CELLS):
        for d in range(N_DIRS):
            nb[i, d] = CELL_INDEX.get((q + DQ[d], r + DR[d]), -1)
    return nb


def edge_cells(corner_a: int, corner_b: int) -> list[int]:
    """Cells on the map's edge from corner ``corner_a`` to ``corner_b`` (0-based, adjacent)."""
    qa, ra = CELLS[CORNER_CELLS[corner_a]]
    qb, rb = CELLS[CORNER_CELLS[corner_b]]
    return [CELL_INDEX[(qa + (qb - qa) * t // RADIUS, ra + (rb - ra) * t // RADIUS)]
            for t in range(RADIUS + 1)]


# --- wind relations -------------------------------------------------------------------
WITH = 0  # away from the wind: the opposite direction and its two neighbours
TACK = 1  # the two directions beside the wind
INTO = 2  # the direction the wind blows from: rowing
REL_NAMES = ("with", "tack", "row")


def relation_table() -> np.ndarray:
    """int32[wind, direction] -> WITH / TACK / INTO."""
    rel = np.zeros((6, 6), np.int32)
    for w in range(6):
        for d in range(6):
            diff = (d - w) % 6
            rel[w, d] = INTO if diff == 0 else (TACK if diff in (1, 5) else WITH)
    return rel


# --- cards -------------------------------------------------------------------------------
OPEN = 0  # open sea, possibly with icebergs
STORM = 1
LOST_ISLAND = 2
KELLY = 3
WRECK = 4
BELL = 5
PORT = 6
CARD_NAMES = ("open sea", "storm", "lost island", "Kelly's Island", "shipwreck", "Bell Island", "port")
N_COLOURS = 3  # map colours = Lost Islands; "all three map pieces"
MAP_COLOUR_NAMES = ("red", "green", "yellow")

# --- upgrades ----------------------------------------------------------------------------
CANNON, GRAPPLING_HOOK, ICE_BREAKER, JIB, MAIN_SAIL, TELESCOPE = range(6)
UPGRADE_NAMES = ("cannon", "grappling_hook", "ice_breaker", "jib", "main_sail", "telescope")

# --- state layout: one int32 vector per game -------------------------------------------
# global words
G_WIND = 0  # direction index 0..5 the wind blows from (Port number - 1)
G_TURN = 1  # turns played so far
G_SEAT = 2  # seat to move
G_TREASURE = 3  # -1 beside the board, else the seat holding the treasure card
G_BELL_POOL = 4  # crew chips lying on Bell Island
G_SUPPLY = 5  # crew chips beside the board (the stack of four)
G_UNUSED = 6  # crew chips out of play (the box)
G_MAPS_LEFT = 7  # [3] map cards left in each colour's stack
G_WIND_ROLLS = 10  # wind rolls (setup, storms, lost turns)
G_WIND_SCR_LEN = 11  # tests: scripted winds (forced next winds), then weighted draws
G_WIND_SCR_POS = 12
G_WIND_SCR = 13  # [16]
G_DIR_SCR_LEN = 29  # tests: the "scripted" strategy's directions (-1 = stop, -2 = abandon)
G_DIR_SCR_POS = 30
G_DIR_SCR = 31  # [32]
G_SCR_FIGHT = 63  # scripted strategy: 1 fights the waves when allowed
G_SCR_UPGRADE = 64  # scripted strategy: 1 takes upgrades it can pay for
G_SCR_RAID = 65  # scripted strategy: seat to raid if it is a candidate, -1 any, -2 never
G_SCR_SWASH = 66  # scripted strategy: swashbuckle while chips > this reserve (large = never)
G_SCR_TELESCOPE = 67  # scripted strategy: 1 uses the Telescope
G_WINNER = 68
G_END = 69  # end reason index (see END_REASONS), -1 while playing
G_EVENTS = 70  # events written so far
G_WALLED = 71  # flips played without iceberg (enclosed-area rule)
G_RAMS = 72  # rams into icebergs
G_TREASURE_TURN = 73  # turn the treasure was first dug up, -1 never
G_VERSION = 74  # changes with anything a plan reads but the moving ship's place (flips, crew, collections)
G_ENTRY = 75  # [6] the scenario's [[seats]] entry (strategy row) that plays each seat this game
G_FIRST = 81  # the seat that moved first (rules.first_player), for the games table's first_seat
G_CELLS = 88
C_CARD = G_CELLS  # [37] card type (OPEN..PORT)
C_REVEALED = C_CARD + N_CELLS  # [37] 1 face up
C_MASK = C_REVEALED + N_CELLS  # [37] bitmask of blocked sides (bit d = direction d)
C_WALLED = C_MASK + N_CELLS  # [37] 1 if played as clear by the enclosed-area rule
C_COLOUR = C_WALLED + N_CELLS  # [37] Lost Island colour, -1 otherwise
C_WRECK = C_COLOUR + N_CELLS  # [37] shipwreck: -1 Extra Crew still there, seat that took it; -2 not a wreck
C_COPIES = C_WRECK + N_CELLS  # [37] Port: upgrade copies left; port upgrade id in C_PORT_UPG
C_PORT_UPG = C_COPIES + N_CELLS  # [37] Port: upgrade id, -1 otherwise
C_VISITS = C_PORT_UPG + N_CELLS  # [37] ship entries into the cell (moves, placements at Bell)
C_PASS = C_VISITS + N_CELLS  # [37] bit d: a ship may cross side d of the cell (neither card's
#                               known iceberg blocks it; off the map: only this card's side)
C_PASS_IB = C_PASS + N_CELLS  # [37] the same for a ship with an Ice Breaker
# Bitboards of the Bay for the planner: a set of cells is an int64 with cell (q, r) at bit
# BB_BITS * (q + 3) + (r + 3) (seven columns of eight bits, the eighth always empty, so
# that every direction's neighbour is one fixed shift: see state.BB_STEP).  Each is kept
# in two int32 words (low, high) and follows the cell words it is made of: refresh_all_nb
# builds them from scratch, flips and passage changes update them.
BB_BITS = 8
BB_PASS = C_PASS_IB + N_CELLS  # [6 x 2] cells whose side d a ship may cross (C_PASS bit d)
BB_PASS_IB = BB_PASS + 12  # [6 x 2] the same for an Ice Breaker (C_PASS_IB bit d)
BB_REVEALED = BB_PASS_IB + 12  # [2] face-up cards
BB_STORM = BB_REVEALED + 2  # [2] storm cards, face up or not (cards never move)
BB_KELLY = BB_STORM + 2  # [2] Kelly's Island
BB_LOST = BB_KELLY + 2  # [3 x 2] the Lost Island of each map colour
SEATS_BASE = BB_LOST + 6

# per-seat words at SEATS_BASE + seat * SEAT_WORDS + field
S_POS = 0  # cell, -1 off the board after abandoning ship
S_CREW = 1  # crew chips (captain not counted)
S_EXTRA = 2  # Extra Crew upgrades held
S_UPG = 3  # bitmask of Port upgrades held
S_MAPS = 4  # bitmask of map colours held
S_ABANDONED = 5  # 1: ship off the board, next turn it is placed on Bell Island
S_STUCK = 6  # consecutive turns without a legal move
S_RAIDS_MADE = 7
S_RAIDS_WON = 8
S_RAIDS_SUFFERED = 9
S_SWASH = 10
S_CREW_ROW = 11
S_CREW_WAVES = 12
S_CREW_UPG = 13
S_CREW_SWASH = 14
S_UPG_EVER = 15  # bitmask of Port upgrades ever taken
S_EXTRA_EVER = 16  # Extra Crew upgrades ever taken
S_STORMS = 17
S_ABANDONS = 18
S_T_FIRST_MAP = 19
S_T_ALL_MAPS = 20
S_T_TREASURE = 21
S_TREASURE_CHANGES = 22
S_HELD_TREASURE = 23
S_LOST_TURNS = 24
S_MOVES = 25
S_RAMS = 26
S_IDLE = 27  # turns since the seat last gained anything or flipped a card (strategies' patience)
S_PROGRESS = 28  # best progress: most map colours held at once (0..3), 4 once it held the treasure
S_STALL = 29  # turns since its best progress last rose (strategies: abandon a hopeless ship)
SEAT_WORDS = 30
MAX_SEATS = 6
# the turn words of an asked seat (protocol.py: a search or strategy-file seat): its turn is
# replayed from its start with the choices it has made so far forced, and pauses at its next choice
T_BASE = SEATS_BASE + MAX_SEATS * SEAT_WORDS
T_FSEAT = T_BASE  # the seat whose next choices are forced
T_NF = T_BASE + 1  # forced choices queued this turn (0: none)
T_FPOS = T_BASE + 2  # the next forced choice
T_PAUSE = T_BASE + 3  # 1: an asked seat's unforced choice pauses the turn (its row's SP_SEARCH)
T_PEND = T_BASE + 4  # the paused choice: 0 none, PEND_DIR, PEND_FIGHT, PEND_RAID
T_PMASK = T_BASE + 5  # its options: the legal directions, or the seats it may raid
T_PSTOP = T_BASE + 6  # a direction choice: 1 if the ship may stop instead
T_FORCED = T_BASE + 8  # [MAX_FORCED] the forced choices, in the order the turn meets them
MAX_FORCED = 40  # choices in one turn: at most 4 moves x (6 rams + 1) + 3 fights + 1 raid < 40
PEND_DIR, PEND_FIGHT, PEND_RAID = 1, 2, 3
STATE_WORDS = T_FORCED + MAX_FORCED

# events: int32 rows [turn, seat, kind, a, b, c]
EV_TURN, EV_MOVE, EV_FLIP, EV_RAM, EV_WALLED, EV_STORM, EV_FIGHT, EV_WIND, EV_NO_MOVE, \
    EV_ABANDON, EV_REENTER, EV_UPGRADE, EV_BELL, EV_MAP, EV_TREASURE, EV_WRECK, EV_RAID, \
    EV_SWASH, EV_WIN, EV_TELESCOPE, EV_STOP, EV_TRUNC, EV_VOID = range(23)
EVENT_WIDTH = 6

END_REASONS = ("harbour_grace", "open_water", "truncated")
END_HARBOUR_GRACE, END_OPEN_WATER, END_TRUNCATED = 0, 1, 2

DEFAULT_PORTS = ["jib", "telescope", "grappling_hook", "main_sail", "ice_breaker", "cannon"]

PARAMS: tuple[Param, ...] = (
    Param("turn_cap", 3000, "int", "turns (one seat's move each) before a game is marked truncated", 10, 1_000_000),
    Param("crew.per_ship", 3, "int", "crew chips each ship starts with and restores to at Bell Island "
          "(rulebook: three)", 0, 5),
    Param("crew.total", 22, "int", "crew chips in the box (rulebook: 22)", 1, 200),
    Param("crew.supply", 4, "int", "crew chips stacked beside the board at setup (rulebook: four); "
          "Shipwrecks pay their chip from it", 0, 100),
    Param("upgrades.copies", 3, "int", "copies of each Port upgrade (rulebook: three)", 0, 6),
    Param("upgrades.costs", [0, 1, 2], "int_list", "crew cost of a Port upgrade by how many copies "
          "were taken before (rulebook: free, one, two); length = upgrades.copies", 0, 10),
    Param("wind.weights", [1.0] * 6, "float_list", "relative chance that the wind blows from Port 1..6 "
          "(rulebook: a fair die)", 0.0, 1e6, length=6),
    Param("deck.clear", 6, "int", "open-sea Bay cards without icebergs (not in the rulebook; GAMES.md)", 0, 30),
    Param("deck.one_iceberg", 8, "int", "open-sea Bay cards with one blocked side (GAMES.md)", 0, 30),
    Param("deck.two_icebergs", 4, "int", "open-sea Bay cards with two blocked sides (GAMES.md)", 0, 30),
    Param("deck.storms", 5, "int", "Storm cards (rulebook: five)", 0, 30),
    Param("deck.shipwrecks", 3, "int", "Shipwreck cards, one Extra Crew upgrade each (rulebook: three)", 0, 30),
    Param("deck.two_iceberg_sides", "adjacent", "choice", "which two sides a large iceberg blocks: "
          "two adjacent sides, or any two", choices=("adjacent", "any")),
    Param("maps.per_colour", 6, "int", "map cards of each of the three colours (rulebook: 18 in all)", 1, 6),
    Param("raid.ties_to", "raider", "choice", "who wins a tied first exchange (rulebook: the raider)",
          choices=("raider", "defender")),
    Param("raid.swashbuckle_ties_to", "swashbuckler", "choice", "who wins a tie after a swashbuckle "
          "(rulebook: the swashbuckler)", choices=("swashbuckler", "other")),
    Param("raid.max_score", 6, "int", "highest raid score (rulebook: six)", 1, 12),
    Param("raid.cannon_dice", 2, "int", "dice a Cannon rolls, keeping the highest (rulebook: two)", 1, 4),
    Param("moves.with_wind", 2, "int", "moves in a turn that starts with the wind (rulebook: two)", 1, 3),
    Param("moves.main_sail", 3, "int", "moves with a Main Sail (rulebook: three)", 1, 4),
    Param("map.ports", list(DEFAULT_PORTS), "str_list", "the upgrade at the Port of each corner "
          "1 N .. 6 NW (GAMES.md)", length=6),
    Param("map.harbour_grace", 6, "int", "the corner (Port number) of Harbour Grace (GAMES.md: 6, NW)", 1, 6),
    Param("map.escape_corners", [1, 2], "int_list", "the two adjacent corners bounding the edge ships "
          "escape from (rulebook: Port De Verde and Pouch Cove)", 1, 6, length=2),
    Param("map.escape_directions", [1, 2], "int_list", "directions leading into open water "
          "(rulebook: N and NE)", 1, 6, min_length=1),
    Param("win.raid_at_harbour_grace", "must_leave", "choice", "a ship on Harbour Grace that takes the "
          "treasure there in a raid: 'must_leave' = it wins only by moving onto Harbour Grace again "
          "(the rulebook's 'moving her ship onto' the card), 'wins' = it wins at once",
          choices=("must_leave", "wins")),
    Param("raid.defender_cannon", "counts", "choice", "whether the defender's Cannon rolls two dice "
          "too (an assumption: the rulebook's Cannon text names no side)", choices=("counts", "ignored")),
) + seating_params("random", "seat 0, the first [[seats]] entry (the rulebook's 'most black "
                   "clothing' is arbitrary, so 'random' is the default)")
