"""The Ice Pirates output columns, declared once: the games table's own columns and the seats
table's, with the kernel's index constants made from them by name.

``game.py`` hands these tuples to the engine (``game_columns`` / ``seat_columns``: the Parquet
names, dtypes, docs and order) and the kernel's outputs writer (``play.write_outputs_nb``)
writes every column through the ``GC_*`` / ``SC_*`` constants below; ``check_column_codes``
runs at import, so a column without a constant (or a constant without a column) fails at once.

Imports ``games.base`` and ``rules`` only (no numba).
"""

from __future__ import annotations

from ..base import N_STD_GAME_COLUMNS, Column, check_column_codes, column_code
from .rules import N_CELLS, UPGRADE_NAMES

SEAT_COLUMNS = (
    Column("maps_held", "int8", "map cards held at the end of the game", counter=False),
    Column("holds_treasure", "int8", "1 if the seat holds the treasure at the end", counter=False),
    Column("held_treasure", "int8", "1 if the seat ever held the treasure", counter=False),
    Column("raids_made", "int16", "raids this seat started"),
    Column("raids_won", "int16", "raids this seat started and won"),
    Column("raids_suffered", "int16", "raids against this seat"),
    Column("swashbuckles", "int16", "times this seat swashbuckled"),
    Column("crew_spent_rowing", "int16", "crew chips spent rowing into the wind"),
    Column("crew_spent_waves", "int16", "crew chips spent fighting the waves"),
    Column("crew_spent_upgrades", "int16", "crew chips spent on Port upgrades"),
    Column("crew_spent_swashbuckling", "int16", "crew chips spent swashbuckling"),
) + tuple(Column(f"upg_{u}", "int8", f"1 if the seat ever took the {u.replace('_', ' ')}",
                 counter=False) for u in UPGRADE_NAMES) + (
    Column("extra_crew", "int8", "Extra Crew upgrades taken at Shipwrecks"),
    Column("storms_hit", "int16", "turns ended in a storm"),
    Column("abandon_ships", "int16", "times this seat abandoned ship"),
    Column("turn_first_map", "int32", "turn of the first map card, -1 never", counter=False),
    Column("turn_all_maps", "int32", "turn it first held all three maps, -1 never", counter=False),
    Column("turn_treasure", "int32", "turn it first held the treasure, -1 never", counter=False),
    Column("treasure_changes", "int16", "times it took the treasure (digging or raiding)"),
    Column("lost_turns", "int16", "turns lost with no legal move"),
    Column("moves", "int16", "moves made (spaces entered)"),
    Column("rams", "int16", "rams into icebergs on newly flipped cards"),
    Column("crew_at_end", "int8", "crew chips (captain not counted) at the end", counter=False),
    Column("seat_won", "int8", "1 if this seat won (the kernel's own record; the engine adds `won`)", counter=False),
    Column("progress", "int8", "best progress reached: most map colours held at once (0-3), "
           "4 once it held the treasure", counter=False),
)

GAME_COLUMNS = (
    Column("dice_rolled", "int32", "dice rolled: raid dice plus wind rolls", counter=False),
    Column("wind_rolls", "int16", "wind rolls (setup, storms, lost turns)"),
    Column("walled_cards", "int8", "flips played without iceberg by the enclosed-area rule"),
    Column("rams", "int16", "rams into icebergs"),
    Column("treasure_turn", "int32", "turn the treasure was dug up, -1 never", counter=False),
) + tuple(Column(f"visits_cell_{c:02d}", "int32", f"ship entries into map cell {c} "
                 "(see hex_cells for its position)", counter=False) for c in range(N_CELLS))

# --- seat columns: index in a seat's output row (out_seats[game, seat, :]) --------------------
SC_MAPS_HELD = column_code(SEAT_COLUMNS, "maps_held")
SC_HOLDS_TREASURE = column_code(SEAT_COLUMNS, "holds_treasure")
SC_HELD_TREASURE = column_code(SEAT_COLUMNS, "held_treasure")
SC_RAIDS_MADE = column_code(SEAT_COLUMNS, "raids_made")
SC_RAIDS_WON = column_code(SEAT_COLUMNS, "raids_won")
SC_RAIDS_SUFFERED = column_code(SEAT_COLUMNS, "raids_suffered")
SC_SWASHBUCKLES = column_code(SEAT_COLUMNS, "swashbuckles")
SC_CREW_ROWING = column_code(SEAT_COLUMNS, "crew_spent_rowing")
SC_CREW_WAVES = column_code(SEAT_COLUMNS, "crew_spent_waves")
SC_CREW_UPGRADES = column_code(SEAT_COLUMNS, "crew_spent_upgrades")
SC_CREW_SWASH = column_code(SEAT_COLUMNS, "crew_spent_swashbuckling")
# upg_<name> for each upgrade in rules.UPGRADE_NAMES order: SC_UPG + upgrade id (a run of 6)
SC_UPG = column_code(SEAT_COLUMNS, f"upg_{UPGRADE_NAMES[0]}")
SC_EXTRA_CREW = column_code(SEAT_COLUMNS, "extra_crew")
SC_STORMS_HIT = column_code(SEAT_COLUMNS, "storms_hit")
SC_ABANDON_SHIPS = column_code(SEAT_COLUMNS, "abandon_ships")
SC_TURN_FIRST_MAP = column_code(SEAT_COLUMNS, "turn_first_map")
SC_TURN_ALL_MAPS = column_code(SEAT_COLUMNS, "turn_all_maps")
SC_TURN_TREASURE = column_code(SEAT_COLUMNS, "turn_treasure")
SC_TREASURE_CHANGES = column_code(SEAT_COLUMNS, "treasure_changes")
SC_LOST_TURNS = column_code(SEAT_COLUMNS, "lost_turns")
SC_MOVES = column_code(SEAT_COLUMNS, "moves")
SC_RAMS = column_code(SEAT_COLUMNS, "rams")
SC_CREW_AT_END = column_code(SEAT_COLUMNS, "crew_at_end")
SC_SEAT_WON = column_code(SEAT_COLUMNS, "seat_won")
SC_PROGRESS = column_code(SEAT_COLUMNS, "progress")
check_column_codes(globals(), "SC_", SEAT_COLUMNS, spans={"SC_UPG": len(UPGRADE_NAMES)})

# --- game columns: index in a game's output row (after base's standard columns) ---------------
GC_DICE_ROLLED = column_code(GAME_COLUMNS, "dice_rolled", N_STD_GAME_COLUMNS)
GC_WIND_ROLLS = column_code(GAME_COLUMNS, "wind_rolls", N_STD_GAME_COLUMNS)
GC_WALLED_CARDS = column_code(GAME_COLUMNS, "walled_cards", N_STD_GAME_COLUMNS)
GC_RAMS = column_code(GAME_COLUMNS, "rams", N_STD_GAME_COLUMNS)
GC_TREASURE_TURN = column_code(GAME_COLUMNS, "treasure_turn", N_STD_GAME_COLUMNS)
# visits_cell_NN for each map cell: GC_VISITS + cell (a run of N_CELLS)
GC_VISITS = column_code(GAME_COLUMNS, "visits_cell_00", N_STD_GAME_COLUMNS)
check_column_codes(globals(), "GC_", GAME_COLUMNS, first=N_STD_GAME_COLUMNS, spans={"GC_VISITS": N_CELLS})
