"""Pirateer's output columns, declared once: ``game.py`` (``game_columns`` / ``seat_columns``,
the Parquet schema) and the kernel's outputs writer (``whole_game.write_outputs_nb``) both read
this declaration; the writer writes every column through the ``GC_*`` / ``SC_*`` codes below.

May import ``games/base.py`` only (no numba): the plug-in imports it without the kernel.
"""

from __future__ import annotations

from ..base import N_STD_GAME_COLUMNS, Column, check_column_codes, column_code

SEAT_COLUMNS = (
    Column("harbor", "int8", "harbor number the seat sails from (1-4 on the board)", counter=False),
    Column("ships_left", "int8", "ships afloat at the end", counter=False),
    Column("captures_made", "int16", "opposing ships this seat captured"),
    Column("captures_suffered", "int16", "ships of this seat captured"),
    Column("treasure_turns", "int16", "own turns begun holding the treasure"),
    Column("treasure_pickups", "int16", "times it took the treasure (from Skull Island or by capture)"),
    Column("treasure_losses", "int16", "times its treasure ship was captured"),
    Column("squares_sailed", "int32", "squares sailed by all its ships (a strait counts as one)"),
    Column("turns_passed", "int16", "turns passed for lack of a legal move"),
    Column("seat_won", "int8", "1 if this seat won (the kernel's own record; the engine adds `won`)",
           counter=False),
)

GAME_COLUMNS = (
    Column("dice_rolled", "int32", "dice rolled, first-player rolls included", counter=False),
    Column("treasure_changes", "int16", "times the treasure changed hands by capturing its ship"),
    Column("first_pickup_turn", "int32", "turn the treasure was first taken from Skull Island, -1 never",
           counter=False),
    Column("first_hold_turns", "int32", "game turns from the first pick-up until that ship brought it home, "
           "was captured or the game ended; -1 never taken", counter=False),
    Column("first_hold_end", "int8", "how the first holding ended", labels=("never_taken", "held_at_end",
                                                                             "home", "captured"),
           counter=False),
)

# where each column sits in the kernel's rows: out_seats[game, seat, SC_*], out_games[game, GC_*]
# (the game's own columns come after the standard ones, base.G_WINNER .. base.G_FIRST_SEAT)
SC_HARBOR = column_code(SEAT_COLUMNS, "harbor")
SC_SHIPS_LEFT = column_code(SEAT_COLUMNS, "ships_left")
SC_CAPTURES_MADE = column_code(SEAT_COLUMNS, "captures_made")
SC_CAPTURES_SUFFERED = column_code(SEAT_COLUMNS, "captures_suffered")
SC_TREASURE_TURNS = column_code(SEAT_COLUMNS, "treasure_turns")
SC_TREASURE_PICKUPS = column_code(SEAT_COLUMNS, "treasure_pickups")
SC_TREASURE_LOSSES = column_code(SEAT_COLUMNS, "treasure_losses")
SC_SQUARES_SAILED = column_code(SEAT_COLUMNS, "squares_sailed")
SC_TURNS_PASSED = column_code(SEAT_COLUMNS, "turns_passed")
SC_SEAT_WON = column_code(SEAT_COLUMNS, "seat_won")

GC_DICE_ROLLED = column_code(GAME_COLUMNS, "dice_rolled", first=N_STD_GAME_COLUMNS)
GC_TREASURE_CHANGES = column_code(GAME_COLUMNS, "treasure_changes", first=N_STD_GAME_COLUMNS)
GC_FIRST_PICKUP_TURN = column_code(GAME_COLUMNS, "first_pickup_turn", first=N_STD_GAME_COLUMNS)
GC_FIRST_HOLD_TURNS = column_code(GAME_COLUMNS, "first_hold_turns", first=N_STD_GAME_COLUMNS)
GC_FIRST_HOLD_END = column_code(GAME_COLUMNS, "first_hold_end", first=N_STD_GAME_COLUMNS)

check_column_codes(globals(), "SC_", SEAT_COLUMNS)
check_column_codes(globals(), "GC_", GAME_COLUMNS, first=N_STD_GAME_COLUMNS)
