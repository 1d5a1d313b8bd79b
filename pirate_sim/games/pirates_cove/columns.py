"""Pirate's Cove's result columns, declared once: the plug-in's ``game_columns`` /
``seat_columns`` and the codes the kernel writes them through (``whole_game.write_outputs_nb``).

``OS_*`` is a seat column's place in a seat's output row, ``OG_*`` a game column's in the
game's row (after the standard columns, ``base.G_WINNER`` ..), each made by name with
``base.column_code``; ``base.check_column_codes`` at import fails at once when a column has no
code.  Runs written in a loop (per section, per card group, per island, per round) are named
by their first column (the ``spans`` of the checks).  Also the names both the plug-in and its
report read (``report.py`` reads them without importing the plug-in: ``game.py`` loads
``report.py`` for its pages, one direction only).

Imports numpy, ``games/base.py`` and ``rules.py`` only (no numba): every kernel module of the
game may import it.
"""

from __future__ import annotations

import numpy as np

from ..base import N_STD_GAME_COLUMNS, Column, check_column_codes, column_code
from . import rules as R

SECTIONS = R.SECTION_NAMES
FAME_SOURCES = ("fame_chests", "fame_gold", "fame_combat", "fame_black", "fame_treasure", "fame_cards")


def decode_round(code) -> tuple[np.ndarray, np.ndarray]:
    """(ships [..., 6], contested [..., 6]) from round_NN codes (int or array)."""
    c = np.asarray(code, np.int64)
    ships = np.stack([(c >> (3 * i)) & 7 for i in range(6)], axis=-1)
    contested = np.stack([(c >> (18 + i)) & 1 for i in range(6)], axis=-1)
    return ships, contested


SEAT_COLUMNS = (
    Column("fame", "int16", "final fame (the track plus Fame cards; mutiny losses taken off)", counter=False),
    Column("fame_chests", "int16", "fame from burying chests"),
    Column("fame_gold", "int16", "fame from burying gold"),
    Column("fame_combat", "int16", "fame for other ships that fled or sank in its fights"),
    Column("fame_black", "int16", "fame from crippling black ships and plundering the barge"),
    Column("fame_treasure", "int16", "fame printed on Treasure cards it took"),
    Column("fame_cards", "int16", "fame from Fame cards (scored at the end)"),
    Column("fame_lost_mutiny", "int16", "fame lost to mutinies"),
    Column("gold", "int16", "gold aboard at the end", counter=False),
    Column("chests", "int16", "chests aboard at the end (score nothing)", counter=False),
    Column("chests_buried", "int16", "chests buried"),
    Column("gold_buried", "int16", "gold buried"),
) + tuple(Column(f"upg_{k}", "int16", f"{k.capitalize()} levels bought (set-up included)") for k in SECTIONS) \
  + tuple(Column(f"setup_{k}", "int8", f"{k.capitalize()} level after set-up spending", counter=False)
          for k in SECTIONS) \
  + tuple(Column(f"level_{k}", "int8", f"{k.capitalize()} level at the end", counter=False) for k in SECTIONS) + (
    Column("fights", "int16", "combats fought"),
    Column("flights", "int16", "times it fled a fight"),
    Column("mutinies", "int16", "mutinies (flights that rolled the mutiny face)"),
    Column("crippled", "int16", "times it was crippled"),
    Column("cripples_made", "int16", "ships it crippled (black ships included)"),
    Column("volleys", "int16", "volleys fired"),
    Column("hits", "int16", "hits scored"),
    Column("tavern_bought", "int16", "Tavern cards bought on the Tavern"),
    Column("tavern_cove", "int16", "Tavern cards taken as consolation at Pirate's Cove"),
    Column("tavern_played", "int16", "Tavern cards played"),
    Column("tavern_drawn", "int16", "Tavern cards drawn in any way (set-up, Treasure cards, Tavern, Cove)"),
) + tuple(Column(f"held_{g}", "int8", f"1 if it ever held a {g} card", counter=False) for g in R.CARD_GROUPS) + (
    Column("navy_fights", "int16", "fights with the Royal Navy in them"),
    Column("navy_wins", "int16", "times it crippled the Royal Navy"),
    Column("navy_losses", "int16", "times it was crippled in, or fled, a fight with the Royal Navy"),
    Column("legend_fights", "int16", "fights with a Legendary Pirate in them"),
    Column("legend_wins", "int16", "Legendary Pirates it crippled"),
    Column("cards_won", "int16", "Treasure cards taken"),
    Column("cove_visits", "int16", "rounds ended in Pirate's Cove"),
) + tuple(Column(f"visits_island_{i}", "int16", f"rounds it sailed to island {i} ({R.ISLAND_NAMES[i]})")
          for i in range(1, 7)) + (
    Column("cove_gold", "int16", "consolation gold taken at Pirate's Cove"),
    Column("gold_lost", "int16", "gold lost to mutinies and crippling"),
    Column("chests_lost", "int16", "chests lost to mutinies, crippling and a damaged hull"),
    Column("gold_spent", "int16", "gold spent on upgrades and Tavern cards"),
    Column("gold_taken", "int16", "gold from Treasure cards"),
    Column("chests_taken", "int16", "chests from Treasure cards"),
    Column("fame_card_value", "int8", "value of the Fame cards held at the end", counter=False),
    Column("seat_won", "int8", "1 if this seat won (the kernel's own record; the engine adds `won`)", counter=False),
    Column("fame_track", "int16", "fame on the track at the end (before Fame cards)", counter=False),
    Column("fame_barge", "int16", "of fame_black: fame from plundering the treasure barge (ending a round alone, "
           "or last, on its island)"),
)

GAME_COLUMNS = (
    Column("dice_rolled", "int32", "dice rolled in the rounds: volleys, speed tie-breaks, flight rolls (the final "
           "combat's are tie_dice)", counter=False),
    Column("fights", "int16", "combats fought"),
    Column("volleys", "int16", "volleys fired"),
    Column("black_sunk", "int16", "black ships crippled"),
    Column("stalemates", "int16", "fights stopped at combat.max_volleys"),
    Column("reshuffles", "int16", "Tavern deck reshuffles"),
    Column("tie_combat", "int8", "1 if a final combat settled a tie for most fame", counter=False),
    Column("tie_volleys", "int16", "volleys of the final combat (not in volleys, as it is not in fights)"),
    Column("tie_hits", "int16", "hits of the final combat (not in the seats' hits)"),
    Column("tie_dice", "int16", "dice of the final combat (not in dice_rolled)"),
) + tuple(Column(f"round_{r:02d}", "int32", f"round {r}: player ships per island and contests, bits 3(i-1).."
                 "3(i-1)+2 = ships on island i (1-6), bit 18+(i-1) = a fight on island i "
                 "(decode with pirates_cove.game.decode_round); 0 beyond the game's rounds", counter=False)
          for r in range(1, R.MAX_ROUNDS + 1))


def _os(name: str) -> int:
    return column_code(SEAT_COLUMNS, name)


def _og(name: str) -> int:
    return column_code(GAME_COLUMNS, name, first=N_STD_GAME_COLUMNS)


# seat columns: the place in out_seats[game, seat]
OS_FAME = _os("fame")
OS_FAME_CHESTS = _os("fame_chests")
OS_FAME_GOLD = _os("fame_gold")
OS_FAME_COMBAT = _os("fame_combat")
OS_FAME_BLACK = _os("fame_black")
OS_FAME_TREASURE = _os("fame_treasure")
OS_FAME_CARDS = _os("fame_cards")
OS_FAME_LOST_MUTINY = _os("fame_lost_mutiny")
OS_GOLD = _os("gold")
OS_CHESTS = _os("chests")
OS_CHESTS_BURIED = _os("chests_buried")
OS_GOLD_BURIED = _os("gold_buried")
OS_UPG = _os("upg_hull")  # [N_SECTIONS] upg_<section>: OS_UPG + k
OS_SETUP = _os("setup_hull")  # [N_SECTIONS] setup_<section>: OS_SETUP + k
OS_LEVEL = _os("level_hull")  # [N_SECTIONS] level_<section>: OS_LEVEL + k
OS_FIGHTS = _os("fights")
OS_FLIGHTS = _os("flights")
OS_MUTINIES = _os("mutinies")
OS_CRIPPLED = _os("crippled")
OS_CRIPPLES_MADE = _os("cripples_made")
OS_VOLLEYS = _os("volleys")
OS_HITS = _os("hits")
OS_TAVERN_BOUGHT = _os("tavern_bought")
OS_TAVERN_COVE = _os("tavern_cove")
OS_TAVERN_PLAYED = _os("tavern_played")
OS_TAVERN_DRAWN = _os("tavern_drawn")
OS_HELD = _os("held_parrot")  # [N_GROUPS] held_<group>: OS_HELD + g
OS_NAVY_FIGHTS = _os("navy_fights")
OS_NAVY_WINS = _os("navy_wins")
OS_NAVY_LOSSES = _os("navy_losses")
OS_LEGEND_FIGHTS = _os("legend_fights")
OS_LEGEND_WINS = _os("legend_wins")
OS_CARDS_WON = _os("cards_won")
# [7] cove_visits, then visits_island_1 .. visits_island_6: OS_VISITS + island (0 = Pirate's Cove)
OS_VISITS = _os("cove_visits")
OS_COVE_GOLD = _os("cove_gold")
OS_GOLD_LOST = _os("gold_lost")
OS_CHESTS_LOST = _os("chests_lost")
OS_GOLD_SPENT = _os("gold_spent")
OS_GOLD_TAKEN = _os("gold_taken")
OS_CHESTS_TAKEN = _os("chests_taken")
OS_FAME_CARD_VALUE = _os("fame_card_value")
OS_SEAT_WON = _os("seat_won")
OS_FAME_TRACK = _os("fame_track")
OS_FAME_BARGE = _os("fame_barge")
N_ISLAND_VISITS = R.N_ISLANDS + 1  # the run OS_VISITS: Pirate's Cove and islands 1..6
assert column_code(SEAT_COLUMNS, f"visits_island_{R.N_ISLANDS}") == OS_VISITS + R.N_ISLANDS
check_column_codes(globals(), "OS_", SEAT_COLUMNS,
                   spans={"OS_UPG": R.N_SECTIONS, "OS_SETUP": R.N_SECTIONS, "OS_LEVEL": R.N_SECTIONS,
                          "OS_HELD": R.N_GROUPS, "OS_VISITS": N_ISLAND_VISITS})

# game columns: the place in out_games[game] (after the standard columns, base.G_WINNER ..)
OG_DICE_ROLLED = _og("dice_rolled")
OG_FIGHTS = _og("fights")
OG_VOLLEYS = _og("volleys")
OG_BLACK_SUNK = _og("black_sunk")
OG_STALEMATES = _og("stalemates")
OG_RESHUFFLES = _og("reshuffles")
OG_TIE_COMBAT = _og("tie_combat")
OG_TIE_VOLLEYS = _og("tie_volleys")
OG_TIE_HITS = _og("tie_hits")
OG_TIE_DICE = _og("tie_dice")
OG_ROUND = _og("round_01")  # [MAX_ROUNDS] round_<r + 1>: OG_ROUND + r
check_column_codes(globals(), "OG_", GAME_COLUMNS, first=N_STD_GAME_COLUMNS, spans={"OG_ROUND": R.MAX_ROUNDS})
