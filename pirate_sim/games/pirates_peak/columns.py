"""Pirate's Peak's output columns: declared once here, written by name.

``SEAT_COLUMNS`` (out_seats[g, seat, C_*]) and ``GAME_COLUMNS`` (out_games[g, GC_*], after the
standard columns of ``games/base.py``) are what ``game.py`` hands the engine (Parquet names,
dtypes, docs and order) and what the kernel writes: every index constant below is looked up
by name with ``base.column_code`` and checked at import (``base.check_column_codes``), so a
column without a constant, or a constant without a column, fails at once.

May import ``base`` and ``rules`` only (no numba): the kernel modules, ``game.py`` and the tests
read it.
"""

from __future__ import annotations

from ..base import N_STD_GAME_COLUMNS, Column, check_column_codes, column_code
from .rules import TREASURE_LABELS

# Seat columns: out_seats[g, seat, C_*], counted during the game in w[ROW_CNT + seat, C_*]
SEAT_COLUMNS = (
    Column('final_gold', 'int32', 'Gold at the end (after the first ship back sells its crew)', counter=False),
    Column('life_points_left', 'int8', 'Life points left at the end', counter=False),
    Column('crew_left', 'int8', 'Crewmen aboard at the end (0 after selling them at the dock)', counter=False),
    Column('cannonballs_left', 'int8', 'Cannonballs aboard at the end', counter=False),
    Column('peak_treasure', 'int8', "Pirate's Peak treasure taken", labels=TREASURE_LABELS, counter=False),
    Column('peak_order', 'int8', 'Order of arrival at the Peak: 0 never, 1 first, 2 second', counter=False),
    Column('docked_first', 'int8', '1 if this ship docked first', counter=False),
    Column('squid_encounters', 'int16', 'Times stopped by the Giant Squid', counter=True),
    Column('squid_attempts', 'int16', 'Three-dice attempts against the squid', counter=True),
    Column('squid_escapes', 'int16', 'Attempts with a total at or above squid.escape_total', counter=True),
    Column('squid_instant', 'int16', 'Attempts with the instant total (moves on at once)', counter=True),
    Column('squid_life_losses', 'int16', 'Life points lost to the squid', counter=True),
    Column('squid_sacrifices', 'int16', 'Crewmen sacrificed to pass the squid', counter=True),
    Column('whirlpool_encounters', 'int16', 'Times sucked into a whirlpool', counter=True),
    Column('whirlpool_attempts', 'int16', 'Rolls inside a whirlpool', counter=True),
    Column('whirlpool_escapes', 'int16', 'Escapes from a whirlpool by rolling the escape face', counter=True),
    Column('whirlpool_spits', 'int16', 'Times spat out after the attempt limit (a life point lost)', counter=True),
    Column('ghost_summons', 'int16', 'Ghost Ships summoned', counter=True),
    Column('ghost_fights', 'int16', 'Fights against the Ghost Ship', counter=True),
    Column('gold_to_sea_bank', 'int16', 'Gold lost to the Ghost Ship (into the Sea Bank)', counter=True),
    Column('ship_fights', 'int16', "Collisions with the other player's ship", counter=True),
    Column('fight_gold_won', 'int16', 'Net gold won in ship-to-ship fights (negative: lost)', counter=False),
    Column('cannon_shots', 'int16', 'Cannonballs fired (at the ship or to interrupt)', counter=True),
    Column('cannon_hits', 'int16', 'Shots that cost the opponent a life point', counter=True),
    Column('interrupts_fired', 'int16', 'Cannonballs fired to interrupt a search', counter=True),
    Column('searches', 'int16', 'Treasure searches made', counter=True),
    Column('search_gold', 'int16', 'Gold found by searching', counter=True),
    Column('searches_interrupted', 'int16', 'Own searches interrupted by a cannonball', counter=True),
    Column('mermaid_losses', 'int16', 'Crewmen lured away by mermaids', counter=True),
    Column('fog_turns', 'int16', 'Turns spent guessing in the fog', counter=True),
    Column('fog_escapes', 'int16', 'Successful fog guesses', counter=True),
    Column('castaways', 'int16', 'Castaways rescued', counter=True),
    Column('gusts', 'int16', 'Gusts of wind caught', counter=True),
    Column('shortcuts_taken', 'int16', 'Short routes taken', counter=True),
    Column('crew_bought', 'int16', 'Crewmen bought (setup and islands)', counter=True),
    Column('cannonballs_bought', 'int16', 'Cannonballs bought (setup and islands)', counter=True),
    Column('island_stops', 'int16', 'Stops at an island', counter=True),
    Column('life_lost', 'int16', 'Life points lost (any cause)', counter=True),
    Column('turns_skipped', 'int16', 'Turns spent because of an interrupting shot', counter=True),
    Column('overshoots', 'int16', 'Sailing rolls lost because they overshot the dock', counter=True),
    Column('unpaid_gold', 'int16', 'Gold owed to this seat that the empty supply could not pay', counter=True),
)
C_FINAL_GOLD = column_code(SEAT_COLUMNS, "final_gold")
C_LIFE = column_code(SEAT_COLUMNS, "life_points_left")
C_CREW = column_code(SEAT_COLUMNS, "crew_left")
C_BALLS = column_code(SEAT_COLUMNS, "cannonballs_left")
C_TREASURE = column_code(SEAT_COLUMNS, "peak_treasure")
C_PEAK_ORDER = column_code(SEAT_COLUMNS, "peak_order")
C_DOCKED_FIRST = column_code(SEAT_COLUMNS, "docked_first")
C_SQUID_ENC = column_code(SEAT_COLUMNS, "squid_encounters")
C_SQUID_ATT = column_code(SEAT_COLUMNS, "squid_attempts")
C_SQUID_ESC = column_code(SEAT_COLUMNS, "squid_escapes")
C_SQUID_INSTANT = column_code(SEAT_COLUMNS, "squid_instant")
C_SQUID_LIFE = column_code(SEAT_COLUMNS, "squid_life_losses")
C_SQUID_SAC = column_code(SEAT_COLUMNS, "squid_sacrifices")
C_WHIRL_ENC = column_code(SEAT_COLUMNS, "whirlpool_encounters")
C_WHIRL_ATT = column_code(SEAT_COLUMNS, "whirlpool_attempts")
C_WHIRL_ESC = column_code(SEAT_COLUMNS, "whirlpool_escapes")
C_WHIRL_SPIT = column_code(SEAT_COLUMNS, "whirlpool_spits")
C_GHOST_SUMMONS = column_code(SEAT_COLUMNS, "ghost_summons")
C_GHOST_FIGHTS = column_code(SEAT_COLUMNS, "ghost_fights")
C_SEA_BANK_LOSS = column_code(SEAT_COLUMNS, "gold_to_sea_bank")
C_SHIP_FIGHTS = column_code(SEAT_COLUMNS, "ship_fights")
C_FIGHT_GOLD = column_code(SEAT_COLUMNS, "fight_gold_won")
C_SHOTS = column_code(SEAT_COLUMNS, "cannon_shots")
C_HITS = column_code(SEAT_COLUMNS, "cannon_hits")
C_INTERRUPTS = column_code(SEAT_COLUMNS, "interrupts_fired")
C_SEARCHES = column_code(SEAT_COLUMNS, "searches")
C_SEARCH_GOLD = column_code(SEAT_COLUMNS, "search_gold")
C_INTERRUPTED = column_code(SEAT_COLUMNS, "searches_interrupted")
C_MERMAID = column_code(SEAT_COLUMNS, "mermaid_losses")
C_FOG_TURNS = column_code(SEAT_COLUMNS, "fog_turns")
C_FOG_ESC = column_code(SEAT_COLUMNS, "fog_escapes")
C_CASTAWAYS = column_code(SEAT_COLUMNS, "castaways")
C_GUSTS = column_code(SEAT_COLUMNS, "gusts")
C_SHORTCUTS = column_code(SEAT_COLUMNS, "shortcuts_taken")
C_CREW_BOUGHT = column_code(SEAT_COLUMNS, "crew_bought")
C_BALLS_BOUGHT = column_code(SEAT_COLUMNS, "cannonballs_bought")
C_ISLAND_STOPS = column_code(SEAT_COLUMNS, "island_stops")
C_LIFE_LOST = column_code(SEAT_COLUMNS, "life_lost")
C_SKIPPED = column_code(SEAT_COLUMNS, "turns_skipped")
C_OVERSHOOTS = column_code(SEAT_COLUMNS, "overshoots")
C_UNPAID = column_code(SEAT_COLUMNS, "unpaid_gold")
N_SEAT_COLS = len(SEAT_COLUMNS)
check_column_codes(globals(), "C_", SEAT_COLUMNS)

# Game columns: out_games[g, GC_*], after the 5 standard ones (base.G_WINNER .. base.G_FIRST_SEAT)
GAME_COLUMNS = (
    Column('dice_rolled', 'int32', 'Dice rolled in the game (setup included)', counter=False),
    Column('outward_cards', 'int8', 'Journey cards on the outward leg (0: the Peak was never flipped)', counter=False),
    Column('peak_reshuffles', 'int8', 'Times the Peak card came too early and was shuffled back', counter=True),
    Column('sea_bank_gold', 'int32', 'Gold in the Sea Bank at the end', counter=False),
    Column('supply_gold', 'int32', 'Net gold the supply gained (negative: paid out)', counter=False),
    Column('supply_dry_turn', 'int16',
           "Turn the box's gold supply first could not pay in full (0: it never ran dry)", counter=False),
)
GC_DICE = column_code(GAME_COLUMNS, "dice_rolled", first=N_STD_GAME_COLUMNS)
GC_OUT_CARDS = column_code(GAME_COLUMNS, "outward_cards", first=N_STD_GAME_COLUMNS)
GC_RESHUFFLES = column_code(GAME_COLUMNS, "peak_reshuffles", first=N_STD_GAME_COLUMNS)
GC_SEA_BANK = column_code(GAME_COLUMNS, "sea_bank_gold", first=N_STD_GAME_COLUMNS)
GC_SUPPLY = column_code(GAME_COLUMNS, "supply_gold", first=N_STD_GAME_COLUMNS)
GC_SUPPLY_DRY = column_code(GAME_COLUMNS, "supply_dry_turn", first=N_STD_GAME_COLUMNS)
N_GAME_COLS = N_STD_GAME_COLUMNS + len(GAME_COLUMNS)  # width of out_games
check_column_codes(globals(), "GC_", GAME_COLUMNS, first=N_STD_GAME_COLUMNS)
