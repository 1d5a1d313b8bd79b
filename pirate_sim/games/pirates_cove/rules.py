"""Pirate's Cove: rule constants, card data, the state layout and the scenario parameters.

The rulebook reference and the argument behind every default are in
docs/rules/pirates_cove.md.  Map of the sea (islands are numbered as on the board)::

    1 Tavern (buy Tavern cards)     2 Hull       3 Sails      4 Cannons     5 Crew
    6 Treasure Island (bury, no combat)          0 Pirate's Cove (repair, consolation)

Black ships sail the route 1 -> 2 -> 3 -> 4 -> 5 -> 1 (never Treasure Island).

A ship has four sections, each a level on its own track (lowest level 1; a hit that
pushes a section below 1 cripples the ship).  Combat units: seats are units
``0..MAX_SEATS-1``, black ship ``b`` is unit ``MAX_SEATS + b``.
"""

from __future__ import annotations

from ..base import Param
from ...seating import seating_params

VERSION = "1.3.0"

DEFAULT_ROUNDS = 12  # the `rounds` parameter's default; rulebook: "Flest poäng efter den 12:e och sista spelrundan"
ROUNDS = DEFAULT_ROUNDS  # the default's old name (report pages read the first ROUNDS rounds' columns)
MAX_ROUNDS = 20  # most rounds the state's round log (and the round_NN columns) has room for
N_ISLANDS = 6  # islands 1..6; 0 is Pirate's Cove, never chosen
COVE = 0
TAVERN = 1
TREASURE_ISLAND = 6
N_CARD_ISLANDS = 5  # islands 1..5 hold a Treasure card stack
ISLAND_NAMES = ("Pirate's Cove", "Tavern", "Hull Island", "Sails Island", "Cannons Island",
                "Crew Island", "Treasure Island")

# --- ship sections: island 2 + k upgrades section k ------------------------------------
HULL, SAILS, CANNONS, CREW = 0, 1, 2, 3
N_SECTIONS = 4
SECTION_NAMES = ("hull", "sails", "cannons", "crew")
MAX_LEVEL = 12  # longest section track the state has room for (costs list length <= 11)

# --- Tavern cards: a code per card; Fame cards carry their value in code // 16 ------------
FLINT, SILVER, BONES, TRELAWNEY, MASTERCRAFT, BATTLE, VOLLEY, EVENT, FAME = range(9)
N_CARD_TYPES = 9
CARD_NAMES = ("Parrot Flint", "Parrot Long John Silver", "Parrot Billy Bones", "Parrot Trelawney",
              "Mastercraft", "Battle", "Volley", "Event (Fog Bank)", "Fame")
# the six groups the report compares (parrots counted together)
CARD_GROUPS = ("parrot", "mastercraft", "battle", "volley", "event", "fame")
N_GROUPS = 6


def card_group(t: int) -> int:
    return 0 if t <= TRELAWNEY else t - MASTERCRAFT + 1


MAX_TAVERN = 64  # largest Tavern deck the state holds

# --- Treasure cards: gold, chests, fame, Tavern cards ------------------------------------
REWARD_TOKENS = "gcft"  # "2g 1c" = 2 gold and 1 chest; f fame, t Tavern cards
MAX_TREASURE = 24  # most Treasure cards one island's stack may hold
DEFAULT_TREASURE = {
    # Tavern: small rewards (the island's own action is buying Tavern cards)
    1: ["2g", "2g", "3g", "1t", "1t 1g", "2g 1f", "1f", "3g", "1t", "2g", "1c", "1f 1g"],
    # Hull: the chests island (a big hull carries them)
    2: ["1c", "1c 1g", "2c", "1c", "2g", "1c 1f", "3g", "1c", "2c", "1f", "1c 2g", "2c 1f"],
    # Sails: the gold island
    3: ["3g", "2g", "4g", "2g 1f", "1c", "3g", "2g 1t", "4g", "1f", "3g 1c", "2g", "5g"],
    # Cannons: the fame island
    4: ["1f", "2f", "1f 1g", "1f", "2g", "1c", "2f", "1f 1t", "3g", "1f 1c", "2f", "1f"],
    # Crew: the Tavern-card island
    5: ["1t", "1t 1g", "2g", "1c", "1f", "1t 1f", "2g", "1t", "1c 1g", "1f", "3g", "1t 2g"],
}


def parse_reward(text: str) -> tuple[int, int, int, int]:
    """'2g 1c' -> (gold, chests, fame, tavern); ValueError on anything else."""
    out = [0, 0, 0, 0]
    for tok in text.split():
        n, kind = tok[:-1], tok[-1:]
        if kind not in REWARD_TOKENS or not n.isdigit():
            raise ValueError(f"bad reward {tok!r} in {text!r} (use e.g. '2g 1c 1f 1t')")
        out[REWARD_TOKENS.index(kind)] += int(n)
    return tuple(out)


# --- black ships -------------------------------------------------------------------------
MAX_BLACK = 3
DEFAULT_LEGENDS = [  # name hull sails cannons crew fame; all four sections 0 = a barge that never fights
    "Blackbeard 4 4 5 5 5",
    "Anne_Bonny 3 5 3 4 3",
    "Captain_Kidd 4 3 4 3 3",
    "Henry_Morgan 5 3 4 4 4",
    "Jean_Lafitte 3 4 3 3 3",
    "Treasure_Barge 0 0 0 0 2",
]


def parse_legend(text: str) -> tuple[str, list[int]]:
    """'Name h s c k fame' -> (name, [hull, sails, cannons, crew, fame])."""
    parts = text.split()
    if len(parts) != 6 or not all(p.isdigit() for p in parts[1:]):
        raise ValueError(f"bad Legendary Pirate {text!r} (use 'Name hull sails cannons crew fame')")
    v = [int(p) for p in parts[1:]]
    if any(v[:4]) and not all(v[:4]):
        raise ValueError(f"{text!r}: every section at least 1, or all 0 for a barge")
    return parts[0], v


# --- end reasons --------------------------------------------------------------------------
END_REASONS = ("most_fame", "tie_combat", "tie_unresolved", "truncated")
END_MOST_FAME, END_TIE_COMBAT, END_TIE_UNRESOLVED, END_TRUNCATED = range(4)

# --- state layout: one int32 vector per game ------------------------------------------------
MAX_SEATS = 5
MAX_UNITS = MAX_SEATS + MAX_BLACK
G_ROUND = 0  # rounds finished so far (0..rounds)
G_FIRST = 1  # first player (set-up draws, Treasure Island and Pirate's Cove order)
G_WINNER = 2
G_END = 3  # end reason, -1 while playing
G_SUPPLY_GOLD = 4  # the bank on Treasure Island
G_SUPPLY_CHESTS = 5
G_BURIED_GOLD = 6  # buried piles (out of play, counted as fame)
G_BURIED_CHESTS = 7
G_DECK_N = 8  # Tavern cards left in the draw pile (top = last)
G_DISC_N = 9  # Tavern cards in the discard pile
G_N_BLACK = 10  # black ships in play
G_EVENTS = 11  # events written so far
G_FIGHTS = 12  # combats fought
G_VOLLEYS = 13
G_STALEMATES = 14  # combats stopped at combat.max_volleys
G_RESHUFFLES = 15
G_GAME = 16  # game index (strategy seating rotation)
G_BLACK_SUNK = 17
G_TIE = 18  # 1: the winner came out of a final combat
G_TIE_VOLLEYS = 19  # the final combat's volleys, hits and dice, counted apart from the game's
G_TIE_HITS = 20
G_TIE_DICE = 21
# where the game stands (rounds.advance_nb resumes from here: a copy of the state is the whole game)
G_PHASE = 22  # PH_* below
G_CUR = 23  # the phase's position: the next seat to choose, the island resolving, the Treasure Island turn
G_SUB = 24  # the step within an island or a Treasure Island turn (SUB_* in actions.py)
G_ACTOR = 25  # the seat acting alone on the island
G_FORCED = 26  # a pending decision's option + FORCED_BIAS (0: none; the search writes it)
G_DEC = 27  # the pending decision (DEC_* below) of seat G_DEC_SEAT
G_DEC_SEAT = 28
G_FREE = 29  # free levels (Mastercraft) of the pending upgrade
G_DECISIONS = 30  # searched decisions so far (their rollout streams' index)
G_CONTESTED = 31  # bit i - 1: a fight on island i this round
G_PEND = 32  # [5] the islands chosen this round, not yet revealed
# the decision protocol's words (protocol.py; the rules never read them): G_STEP where the engine
# stands (protocol.STEP_*: a round's start asked or taken, a rollout's first option to come),
# G_RECHOOSE bit o: seat o still chooses its island again in a strategy file's rollout
G_STEP = 37
G_RECHOOSE = 38
G_ROUND_LOG = 40  # [MAX_ROUNDS] visits and contests per round, see encode in rounds.round_code_nb
G_CARD = G_ROUND_LOG + MAX_ROUNDS  # [5 x 4] the face-up Treasure card of islands 1..5 (g, c, f, t)
G_CARD_LIVE = G_CARD + N_CARD_ISLANDS * 4  # [5] 1 while the face-up card is still there
G_CHOICE = G_CARD_LIVE + N_CARD_ISLANDS  # [5] island each seat revealed this round
G_SCRIPT = G_CHOICE + MAX_SEATS  # scripted-policy words (tests), see SC_* below
SC_ISLANDS = 0  # [5 seats x MAX_ROUNDS rounds] islands; 0 = ask the seat's own strategy
SC_SETUP = SC_ISLANDS + MAX_SEATS * MAX_ROUNDS  # [5 x 4] set-up levels to buy per section
SC_UPGRADE = SC_SETUP + MAX_SEATS * N_SECTIONS  # [5] levels to buy when alone on islands 2-5
SC_BUYS = SC_UPGRADE + MAX_SEATS  # [5] Tavern cards to buy when alone on the Tavern
SC_FLEE = SC_BUYS + MAX_SEATS  # [5] flee at the seat's n-th own turn in a fight (0 never)
SC_SECTION = SC_FLEE + MAX_SEATS  # [5] section to shoot
SC_BURY_GOLD = SC_SECTION + MAX_SEATS  # [5] 1 buries gold too
SC_COVE_CARD = SC_BURY_GOLD + MAX_SEATS  # [5] 1 takes a Tavern card at Pirate's Cove, 0 gold
SC_PLAY = SC_COVE_CARD + MAX_SEATS  # [5] 1 plays every Tavern card it can
SC_TI_SECTION = SC_PLAY + MAX_SEATS  # [5] Treasure Island upgrade: section + 1, 0 none
SC_WORDS = SC_TI_SECTION + MAX_SEATS
G_TDECK = G_SCRIPT + SC_WORDS  # [64] Tavern draw pile (codes)
G_TDISC = G_TDECK + MAX_TAVERN  # [64] Tavern discard pile
G_TPERM = G_TDISC + MAX_TAVERN  # [5 x 24] shuffled order of each island's Treasure stack
G_FIGHT = G_TPERM + N_CARD_ISLANDS * MAX_TREASURE  # combat scratch, see F_* below
F_UNITS = 0  # [8] units in speed order
F_ACTIVE = F_UNITS + MAX_UNITS  # [8] 1 still fighting (by position in F_UNITS)
F_TURNS = F_ACTIVE + MAX_UNITS  # [8] own turns taken
F_BONUS = F_TURNS + MAX_UNITS  # [8] Battle-card dice this fight
F_TB = F_BONUS + MAX_UNITS  # [8] tie-break rolls
F_N = F_TB + MAX_UNITS
F_POS = F_N + 1  # the fight position whose turn it is
F_VOL = F_N + 2  # volleys fired so far
F_WORDS = F_N + 3
BLACK_BASE = G_FIGHT + F_WORDS
B_ISLAND = 0
B_SEC = 1  # [4]
B_FAME = 5
B_BARGE = 6
B_LEGEND = 7  # -1 the Royal Navy, else its row in the Legendary Pirate table
B_CRIPPLED = 8
B_WORDS = 10
SEATS_BASE = BLACK_BASE + MAX_BLACK * B_WORDS

S_ENTRY = 0  # the [[seats]] entry (strategy) playing this seat in this game
S_WHERE = 1  # island this round (1..6), 0 Pirate's Cove
S_SEC = 2  # [4] section levels (0 = crippled)
S_SEC0 = 6  # [4] levels after set-up spending
S_GOLD = 10
S_CHESTS = 11
S_FAME = 12  # the fame track (Fame cards are added at the end)
S_F_CHESTS = 13  # fame by source
S_F_GOLD = 14
S_F_COMBAT = 15
S_F_BLACK = 16
S_F_TREASURE = 17
S_F_CARDS = 18
S_F_MUTINY = 19  # fame lost to mutinies (>= 0)
S_BURIED_GOLD = 20
S_BURIED_CHESTS = 21
S_UPG = 22  # [4] levels bought per section (set-up included)
S_FIGHTS = 26
S_FLIGHTS = 27
S_MUTINIES = 28
S_CRIPPLED = 29  # times this ship was crippled
S_CRIPPLES = 30  # ships this ship crippled
S_VOLLEYS = 31
S_HITS = 32
S_BOUGHT = 33  # Tavern cards bought on the Tavern
S_COVE_CARDS = 34  # Tavern cards taken as consolation
S_PLAYED = 35  # Tavern cards played
S_DRAWN = 36  # Tavern cards drawn (any way)
S_HAND = 37  # [9] cards held by type (parrots: active parrots)
S_FAME_CARDS = 46  # total value of Fame cards held
S_HELD = 47  # [6] 1 if the seat ever held a card of the group
S_NAVY_FIGHTS = 53
S_NAVY_WINS = 54  # Royal Navy crippled by this ship
S_NAVY_LOSSES = 55  # crippled by, or fled from, a fight with the Royal Navy
S_LEGEND_FIGHTS = 56
S_LEGEND_WINS = 57
S_CARDS_WON = 58  # Treasure cards taken
S_VISITS = 59  # [7] rounds ended on island 0 (Cove) .. 6, choices 1..6 and Cove after a fight
S_COVE_GOLD = 66  # gold taken as consolation
S_LOST_GOLD = 67  # gold lost to mutinies
S_LOST_CHESTS = 68  # chests lost to mutinies, crippling and a damaged hull
S_SPENT = 69  # gold spent (upgrades and Tavern cards)
S_GOLD_TAKEN = 70  # gold from Treasure cards
S_CHESTS_TAKEN = 71
S_FOUGHT_ROUND = 72  # last round it fought (fame for fights in the round)
S_F_BARGE = 73  # of S_F_BLACK: fame from plundering the treasure barge
S_FAMEV = 76  # [11] Fame cards held by value (0..10): a hand can be re-dealt exactly
SEAT_WORDS = 88
STATE_WORDS = SEATS_BASE + MAX_SEATS * SEAT_WORDS

PH_START, PH_CHOOSE, PH_ISLAND, PH_TI, PH_END, PH_DONE = range(6)
# decisions the search player searches (rounds.advance_nb stops at them)
DEC_NONE, DEC_ISLAND, DEC_FLEE, DEC_BUY, DEC_UPGRADE, DEC_TI = range(6)
DEC_NAMES = ("", "island", "flee", "buy", "upgrade", "treasure_island")
FORCED_BIAS = 16  # G_FORCED = option + FORCED_BIAS (options are -1..12)
MAX_FAME_VALUE = 10

# events: int32 rows [round, seat or -1, kind, a, b, c]
(EV_ROUND, EV_CHOICE, EV_SETUP, EV_DRAW, EV_TAKE, EV_UPGRADE, EV_BUY, EV_BURY, EV_FIGHT, EV_VOLLEY,
 EV_CRIPPLE, EV_FLEE, EV_COVE, EV_BLACK, EV_PLAY, EV_END, EV_PLUNDER, EV_RESHUFFLE, EV_OVERBOARD,
 EV_TIE, EV_ORDER, EV_FIRST, EV_SEARCH) = range(23)
EVENT_WIDTH = 6


def _track(name: str, start: int, top: int, costs: list[int], why: str) -> tuple[Param, ...]:
    return (
        Param(f"sections.{name}.start", start, "int", f"{name.capitalize()} level at set-up (the ship sheet's "
              f"skull; not in the summary: {why})", 1, MAX_LEVEL),
        Param(f"sections.{name}.max", top, "int", f"highest {name.capitalize()} level", 1, MAX_LEVEL),
        Param(f"sections.{name}.costs", costs, "int_list", f"gold to climb each {name.capitalize()} level: item k "
              f"is the cost from level k+1 to k+2 (needs max - 1 items)", 0, 50, min_length=1),
    )


PARAMS: tuple[Param, ...] = seating_params(
    "rule", "a die roll among the players (uniform); it orders only set-up draws, Treasure Island and "
    "Pirate's Cove (islands are chosen at once, fights go by Sails)") + (
    Param("rounds", DEFAULT_ROUNDS, "int", "rounds in a game (rulebook: 12; every island's Treasure stack needs "
          "as many cards)", 1, MAX_ROUNDS),
    Param("setup.gold", 9, "int", "gold each player gets to spend on upgrades before round 1 (rulebook: 9)", 0, 100),
    Param("setup.tavern_cards", 1, "int", "Tavern cards each player draws at set-up (rulebook: 1)", 0, 5),
    *_track("hull", 2, 6, [1, 2, 2, 3, 3], "2 of 6, so a first hit does not sink"),
    *_track("sails", 2, 6, [1, 1, 2, 2, 3], "speed only orders a fight, so the cheapest track"),
    *_track("cannons", 2, 6, [1, 2, 2, 3, 4], "dice = min(Crew, Cannons): 2 dice at set-up"),
    *_track("crew", 2, 6, [1, 2, 2, 3, 4], "same track as Cannons, the two pair up"),
    Param("hull.chests_per_level", 1, "int", "treasure chests a ship carries per Hull level (rulebook: Hull "
          "limits the treasure; the amount is not given)", 0, 20),
    Param("supply.gold", 150, "int", "gold in the bank on Treasure Island after dealing set-up gold", 0, 10000),
    Param("supply.chests", 40, "int", "treasure chests in the bank", 0, 1000),
    Param("treasure.island1", DEFAULT_TREASURE[1], "str_list", "Tavern (island 1) Treasure stack, one card a "
          "string: '2g 1c 1f 1t' = 2 gold, 1 chest, 1 fame, 1 Tavern card (needs at least `rounds` cards)",
          min_length=1),
    Param("treasure.island2", DEFAULT_TREASURE[2], "str_list", "Hull Island (2) Treasure stack", min_length=1),
    Param("treasure.island3", DEFAULT_TREASURE[3], "str_list", "Sails Island (3) Treasure stack", min_length=1),
    Param("treasure.island4", DEFAULT_TREASURE[4], "str_list", "Cannons Island (4) Treasure stack",
          min_length=1),
    Param("treasure.island5", DEFAULT_TREASURE[5], "str_list", "Crew Island (5) Treasure stack", min_length=1),
    Param("combat.hit_min", 5, "int", "lowest die face that hits (rulebook: 5 or 6)", 1, 7),
    Param("combat.fame_per_loser", 1, "int", "fame each other ship on the island gains when a ship flees or "
          "sinks (rulebook: 1)", 0, 10),
    Param("combat.mutiny_max", 1, "int", "a fleeing ship mutinies when its die shows this or less "
          "(rulebook: a 1)", 0, 6),
    Param("combat.mutiny_fame", 2, "int", "fame lost to a mutiny (rulebook: 2)", 0, 10),
    Param("combat.crippled_loses", "chests", "choice", "what a crippled ship loses (not in the sources): "
          "nothing, its chests aboard, or chests and gold", choices=("nothing", "chests", "all")),
    Param("combat.max_volleys", 200, "int", "volleys after which a fight is stopped with no winner "
          "(a guard; not reached in the default game)", 2, 100000),
    Param("bury.chest_fame", 1, "int", "fame per buried chest (rulebook: 1)", 0, 10),
    Param("bury.gold_per_fame", 3, "int", "gold buried per fame (rulebook: 3)", 1, 100),
    Param("treasure_island.cost_factor", 2, "int", "Treasure Island upgrades one level at this multiple of "
          "its cost (rulebook: double)", 0, 10),
    Param("tavern.price", 2, "int", "gold per Tavern card bought on the Tavern (rulebook: 2)", 0, 50),
    Param("tavern.max_buys", 3, "int", "Tavern cards one visit may buy (rulebook: up to 3)", 0, 10),
    Param("tavern.parrots", 1, "int", "copies of each of the four Parrots (rulebook: 4 Parrots, one each)", 0, 2),
    Param("tavern.mastercraft", 7, "int", "Mastercraft cards (rulebook: 7)", 0, 20),
    Param("tavern.battle", 8, "int", "Battle cards (rulebook: 8)", 0, 20),
    Param("tavern.volley", 6, "int", "Volley cards (rulebook: 6)", 0, 20),
    Param("tavern.event", 8, "int", "Event cards, here Fog Bank (rulebook: 8 Events, texts unknown)", 0, 20),
    Param("tavern.fame", [1, 1, 1, 1, 1, 2, 2, 2, 3], "int_list", "values of the Fame cards (rulebook: five 1s, "
          "three 2s, one 3)", 1, 10),
    Param("tavern.mastercraft_levels", 1, "int", "levels a Mastercraft card makes free on islands 2-5", 0, 5),
    Param("tavern.battle_dice", 1, "int", "extra dice on each of your volleys for the fight a Battle card is "
          "played in", 0, 6),
    Param("tavern.volley_dice", 2, "int", "extra dice on the one volley a Volley card is played before", 0, 6),
    Param("tavern.silver_dice", 6, "int", "dice Long John Silver always rolls (rulebook: 6)", 1, 12),
    Param("tavern.trelawney_speed", 20, "int", "speed Trelawney adds to Sails (rulebook: +20)", 0, 100),
    Param("tavern.parrot_lasts", "until_cove", "choice", "how long a Parrot stays: until its ship next goes "
          "to Pirate's Cove, or the whole game (not in the sources)", choices=("until_cove", "game")),
    Param("cove.gold", 2, "int", "consolation gold at Pirate's Cove (the other choice: one Tavern card)", 0, 20),
    Param("cove.repair_to", 1, "int", "level a crippled section (one shot below its lowest level) is repaired "
          "to at Pirate's Cove; damaged sections that were not crippled stay as they are", 1, MAX_LEVEL),
    Param("black.ships", [2, 1, 1], "int_list", "black ships with 3, 4, 5 players (rulebook: 2 with 3 players; "
          "with 4-5 not given)", 0, MAX_BLACK, length=3),
    Param("black.start_islands", [1, 4, 2], "int_list", "start island of the Royal Navy and of the 2nd and 3rd "
          "black ship (rulebook: 1 and 4)", 1, 5, length=MAX_BLACK),
    Param("royal_navy.sections", [4, 3, 4, 4], "int_list", "Royal Navy hull, sails, cannons, crew", 1, MAX_LEVEL,
          length=4),
    Param("royal_navy.fame", 4, "int", "fame for crippling the Royal Navy (reported: 4)", 0, 20),
    Param("legendary.cards", DEFAULT_LEGENDS, "str_list", "Legendary Pirate cards, one drawn at random for each "
          "black ship after the Royal Navy: 'Name hull sails cannons crew fame'; all sections 0 = a barge that "
          "never fights and gives its fame to the ship that ends the round alone with it", min_length=1),
)
