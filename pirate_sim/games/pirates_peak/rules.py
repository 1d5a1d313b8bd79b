"""Pirate's Peak: rule constants, the state layout and the scenario parameters.

Everything the kernel needs to know about the board and a ship is an integer code
defined here, so ``kernel.py``, ``strategies.py`` and ``odds.py`` share one vocabulary.
See docs/rules/pirates_peak.md for the rulebook reference behind every number.
"""

from __future__ import annotations

from collections import namedtuple

from ...seating import seating_params
from ..base import Param

VERSION = "1.3.0"

# ----------------------------------------------------------------- board spaces
# A journey card is a row of spaces; the legend maps scenario characters to codes.
OPEN = 0  # "." open sea
TREASURE_X = 1  # "X" buried treasure: search here (2 x die + crewmen gold)
ISLAND = 2  # "I" island: stop early to buy crew and cannonballs; no attacks
WHIRLPOOL = 3  # "W" whirlpool: sucks in every passing ship; a 6 escapes
MERMAIDS = 4  # "M" mermaids: landing exactly loses a crewman
SQUID = 5  # "Q" giant squid: cannot pass without a fight (3 dice)
FOG = 6  # "F" fog: must stop; next turn guess the die within 1
CASTAWAY = 7  # "C" castaway: stop to gain a crewman if there is room
GUST = 8  # "G" gust of wind: landing exactly doubles the next move
SHORTCUT = 9  # "K" shortcut: landing exactly lets the next move take the short route
PEAK = 10  # the Pirate's Peak card's single turning space (not a deck character)

LEGEND = {
    ".": OPEN,
    "X": TREASURE_X,
    "I": ISLAND,
    "W": WHIRLPOOL,
    "M": MERMAIDS,
    "Q": SQUID,
    "F": FOG,
    "C": CASTAWAY,
    "G": GUST,
    "K": SHORTCUT,
}
SPACE_NAMES = {v: k for k, v in LEGEND.items()}
SPACE_NAMES[PEAK] = "P"
SPACE_WORDS = {
    OPEN: "open sea",
    TREASURE_X: "X",
    ISLAND: "island",
    WHIRLPOOL: "whirlpool",
    MERMAIDS: "mermaids",
    SQUID: "giant squid",
    FOG: "fog",
    CASTAWAY: "castaway",
    GUST: "gust of wind",
    SHORTCUT: "shortcut",
    PEAK: "Pirate's Peak",
}
LEGEND_TEXT = ", ".join(f"{k} {SPACE_WORDS[v]}" for k, v in LEGEND.items())
MAX_CARD_SPACES = 16

# Default deck: 10 journey cards, 8 spaces each, using every encounter of the rulebook.
DEFAULT_DECK = (
    ". X . I . . X .",
    ". . W . X . . .",
    ". M . X . C . .",
    ". . Q . . X . .",
    ". F . . X . I .",
    ". X . G . . . .",
    ". . K . X . M .",
    ". I . . F . X .",
    ". X . . C . . .",
    ". . X . G . K .",
)

# ----------------------------------------------------------------- treasures
NO_TREASURE = 0
MIGHTY_SAIL = 1
GOLDEN_CUTLASS = 2
STEEL_CANNON = 3
TREASURE_LABELS = ("none", "mighty_sail", "golden_cutlass", "steel_cannon")

# ----------------------------------------------------------------- actions
ACT_SAIL = 0
ACT_SEARCH = 1
ACT_FIRE = 2
ACTION_NAMES = ("SAIL", "SEARCH", "FIRE")

# ----------------------------------------------------------------- ship state
# ship: int32[2, N_SHIP]; one row per seat.  Position is *progress* d along the
# out-and-back route: d = 0 .. peak_x on the way out, peak_x+1 .. 2*peak_x on the way
# back; the physical space is x = d (out) or 2*peak_x - d (back), see phys_nb.
SH_POS = 0  # progress d (0 = the first dash of the Starting Dock)
SH_GOLD = 1  # gold in the stash (never negative)
SH_CREW = 2  # crewmen 0..max_crew (captain not counted)
SH_BALLS = 3  # cannonballs 0..max_cannonballs
SH_LIFE = 4  # life points left 0..life_points
SH_TREASURE = 5  # NO_TREASURE / MIGHTY_SAIL / GOLDEN_CUTLASS / STEEL_CANNON
SH_TRAP = 6  # TRAP_NONE / TRAP_WHIRLPOOL / TRAP_SQUID / TRAP_FOG
SH_TRAP_COUNT = 7  # failed attempts in the current whirlpool / squid
SH_GUST = 8  # 1: the next turn's move is multiplied (gust of wind)
SH_SHORTCUT = 9  # 1: the next turn may take the short route
SH_LAST_SEARCH = 10  # physical space searched on this ship's previous turn, -1 none
SH_SKIP = 11  # 1: the next turn is spent (it fired to interrupt a search)
SH_DOCKED = 12  # 1 once docked
SH_DIG_X = 13  # physical space of the current dig site, -1 none
SH_DIGS = 14  # searches made at SH_DIG_X
# This turn's copies of the three one-turn flags above (SH_LAST_SEARCH, SH_GUST,
# SH_SHORTCUT), set at the turn's start and read until its end: they keep the turn in the
# state, so that one copy of the work array is the whole game (the search player's rollouts).
SH_T_PREV_SEARCH = 15  # the space searched on the previous turn (-1 none)
SH_T_GUST = 16  # 1: this turn's move is multiplied
SH_T_SHORTCUT = 17  # 1: this turn's move may take the short route
N_SHIP = 18

TRAP_NONE = 0
TRAP_WHIRLPOOL = 1
TRAP_SQUID = 2
TRAP_FOG = 3

# ----------------------------------------------------------------- game state
# st: int32[N_ST]
G_TURNS = 0  # turns played
G_OVER = 1  # 1 once the game has ended
G_WINNER = 2  # -1 or seat
G_END = 3  # index into END_REASONS
G_N_LAID = 4  # spaces laid on the table (track length so far)
G_PEAK_X = 5  # physical index of the Peak space, -1 until the Peak card is flipped
G_FLIPPED = 6  # sea cards flipped (the Peak card counts when it is laid)
G_DECK_PTR = 7  # next card of `deck` to flip
G_GHOST_X = 8  # physical space of the Ghost Ship, -1 none
G_SEA_BANK = 9  # gold in the Sea Bank (ghost losses; pays searches first)
G_SUPPLY = 10  # net gold the supply took (purchases in, payouts out); see gold.supply
G_PEAK_MASK = 11  # bit t set: treasure t taken
G_PEAK_ARRIVALS = 12  # ships that have stopped at the Peak
G_N_EV = 13  # events written to the log
G_FIRST = 14  # seat that moved first
G_RESHUFFLES = 15  # times the Peak card came too early and went back
G_OUT_CARDS = 16  # journey cards on the outward leg (set when the Peak is laid)
G_ISLANDS = 17  # island spaces laid so far (bounds the homeward overshoot scan)
G_SUPPLY_DRY = 18  # turn the box's supply first could not pay in full (0: never)
# The search player (kernel "search"): a decision pending for a searching seat, and a move
# paused at a stop-early question (the sail loop's locals), so that a rollout can resume it.
G_N_DEC = 19  # searched decisions made so far in the game (the rollout streams' decision index)
G_PEND = 20  # PEND_*: the decision pending (0: none)
G_PEND_SEAT = 21  # the seat it is pending for
G_PEND_CODE = 22  # PEND_STOP: the space code asked about
G_MV_STEPS = 23  # PEND_STOP: the move's steps, then its progress at the start of the asking step:
G_MV_D = 24  # d,
G_MV_DPATH = 25  # the last progress on its path,
G_MV_TAKEN = 26  # steps taken,
G_MV_X0 = 27  # the space the move started from,
G_MV_XO = 28  # the other ship's space
# The decision protocol (protocol.py): where the game stands between the engine's calls
G_STEP = 29  # STEP_*: 0 between turns, or a pending decision answered / a turn's start asked
G_ANS = 30  # STEP_ANSWERED: the option taken at the pending decision (G_PEND)
G_ROLL = 31  # non-zero: a search's rollout (its seats play the rollout's rows; protocol.ROLL_*)
G_ASK = 32  # 1: each turn's start is a decision of one option (a rollout with a horizon)
N_ST = 33

PEND_NONE = 0
PEND_DECLARE = 1  # sail / search / fire (options: ACT_*)
PEND_STOP = 2  # stop early on the space G_PEND_CODE (options: 0 sail on, 1 stop)
PEND_TREASURE = 3  # the Peak treasure (options: treasure codes not taken)
PEND_NAMES = ("none", "declare", "stop_early", "treasure")

END_REASONS = ("most_gold", "tie_on_gold", "ship_sunk", "truncated")
END_MOST_GOLD = 0
END_TIE = 1
END_SUNK = 2
END_TRUNCATED = 3

# ----------------------------------------------------------------- events (trace)
# ev: int32[cap, 6] rows (code, seat, a, b, c, d); capacity 0 in bulk runs.
EV_SETUP = 0  # seat, crew bought, balls bought, gold left
EV_FIRST = 1  # seat first, roll seat0, roll seat1
EV_TURN = 2  # seat, turn number
EV_DECLARE = 3  # seat, action
EV_ROLL = 4  # seat, die, steps
EV_MOVE = 5  # seat, from x, to x, progress
EV_FLIP = 6  # -, card id, flip number, first space
EV_RETURN_PEAK = 7  # -, flip number (Peak came too early, reshuffled)
EV_SEARCH = 8  # seat, roll, gold
EV_INTERRUPT = 9  # searcher, searcher roll, attacker roll, gold
EV_FIRE = 10  # attacker, attacker roll, defender roll, hit
EV_SHIP_FIGHT = 11  # mover, net mover, net other, winner seat
EV_GHOST_FIGHT = 12  # seat, net gold, ghost x
EV_SUMMON = 13  # seat, second roll, ghost x (-1 if failed)
EV_WHIRLPOOL = 14  # seat, roll, attempts, escaped
EV_SQUID = 15  # seat, total, attempts, result (0 fail, 1 escape, 2 instant, 3 life)
EV_SACRIFICE = 16  # seat, crew left
EV_FOG = 17  # seat, guess, roll, success
EV_MERMAID = 18  # seat, crew left
EV_CASTAWAY = 19  # seat, crew
EV_GUST = 20  # seat
EV_SHORTCUT = 21  # seat, taken(1)/landed(0)
EV_TREASURE = 22  # seat, treasure, order
EV_BUY = 23  # seat, crew bought, balls bought, gold left
EV_DOCK = 24  # seat, crew sold, gold
EV_LIFE = 25  # seat, life left
EV_END = 26  # -, reason, winner
EV_SKIP = 27  # seat
EV_ENTER = 28  # seat, space code, x (whirlpool/squid/fog trap entered)
EV_ADVANCE = 29  # seat, from x, to x
EV_OVERSHOOT = 30  # seat, steps, countable distance to the dock
EV_STOP_EARLY = 31  # seat, space code, x

# ----------------------------------------------------------------- strategies
STRAT_RANDOM = 0
STRAT_DIGGER = 1
STRAT_RACER = 2
STRAT_GUNNER = 3
STRAT_EXPERT = 4
STRAT_SEARCH = 5  # never in the kernel's SD_CODES: a search seat plays as its rollout strategy
N_SCRIPTED = 5  # scripted strategies (codes 0..4): the rollout strategies

# Per-seat policy parameter slots (float64[n_seats, N_SP]); each strategy exposes some
# of them as its own Params and fixes the rest (see strategies.py).
SP_BUY_CREW = 0  # crewmen to own after setup purchases
SP_BUY_BALLS = 1  # cannonballs to own after setup purchases
SP_ISLAND_CREW = 2  # crewmen to own after an island stop
SP_ISLAND_BALLS = 3  # cannonballs to own after an island stop
SP_GOLD_RESERVE = 4  # gold never spent at islands
SP_STOP_ON_X = 5  # 1: stop early on an X to dig next turn
SP_DIG_REPEATS = 6  # searches at one X before sailing on
SP_SEARCH_ON_LANDING = 7  # 1: search at once when landing exactly on an X
SP_FIRE_AT_SHIP = 8  # 1: fire at the opponent whenever in range
SP_INTERRUPT = 9  # 1: fire to interrupt the opponent's searches
SP_SUMMON = 10  # 0 never, 1 when the opponent is behind, 2 always
SP_SACRIFICE = 11  # 1: sacrifice a crewman to the squid when allowed
SP_FOG_GUESS = 12  # number called out in the fog, 1..6
SP_TREASURE_FIRST = 13  # preferred Peak treasure (1..3), then the next ones in order
SP_SHORTCUT = 14  # 1: take the short route
SP_STOP_CASTAWAY = 15  # 1: stop early at a castaway when there is room
SP_LEAD_TO_RACE = 16  # gold lead over the opponent from which the ship races home (no digging)
SP_FIRE_OPP_LIFE = 17  # fire at the opponent in range once it has at most this many life points
SP_FIRE_BEHIND = 18  # fire at the opponent in range when trailing it by at least this much gold
SP_BALL_RESERVE = 19  # cannonballs kept for interrupts: declared shots only above this
SP_CAUTION_LIFE = 20  # at or below this life, no search the opponent's cannon can interrupt
SP_RACE_LIFE = 21  # at or below this life, race home whenever ahead in gold
SP_HOLD_BEHIND = 22  # trailing by this much near the dock: search or fire rather than sail home
# the search player (0 in every scripted row: SP_SEARCH = 0 plays the row's own strategy)
SP_SEARCH = 23  # 1: the seat searches its decisions (its other choices: the rollout strategy)
SP_BUDGET = 24  # rollouts per searched decision
SP_ROLLOUT = 25  # the rollout strategy's code (every seat plays it inside a rollout)
SP_TOP_K = 26  # options searched (the rollout strategy's favourite first; 0: all)
SP_REWARD = 27  # search.REWARD_*
SP_HORIZON = 28  # turns a rollout plays (0: to the end)
N_SP = 29
# slots of the static table's seat rows only (sd[SD_SP + seat, SP_ASK]; the decision protocol's, set
# by protocol.engine_tables from the table's strategy files, 0 in every strategy's own row)
SP_ASK = 29  # 1: the seat's declarations are asked (a strategy file's seat, or any seat of a file's rollout)
SP_ROLL_FILE = 30  # 1: the search of this seat rolls out a strategy file (its rollouts' seats: SP_ASK)
NEVER = 1_000_000  # a gold threshold no game reaches (the rule is off)

# ----------------------------------------------------------------- parameters
# Rulebook values are the defaults.  Keys are relative to the scenario's [rules] table.
BOX_GOLD = 100  # the rulebook's box: "100 gold pieces (in total value)"
PARAMS: tuple[Param, ...] = (
    Param(
        "turn_cap",
        400,
        "int",
        "Turns (both seats together) after which a game ends as truncated.",
        10,
        100000,
    ),
    Param("start.gold", 10, "int", "Gold each player starts with (rulebook: 10).", 0, 1000),
    Param(
        "gold.supply",
        BOX_GOLD,
        "int",
        "Gold in the box, the starting gold included (rulebook: 100); payouts stop when it "
        "is empty (-1: unlimited).",
        -1,
        1_000_000,
    ),
    Param("shop.cannonball_price", 2, "int", "Gold per cannonball (setup and islands).", 0, 100),
    Param("shop.crewman_price", 3, "int", "Gold per crewman (setup and islands).", 0, 100),
    Param("ship.max_cannonballs", 3, "int", "Cannonballs a ship can hold.", 0, 20),
    Param("ship.max_crew", 4, "int", "Crewmen a ship can carry (captain not counted).", 0, 20),
    Param("ship.life_points", 5, "int", "Life points; losing the last one loses the game.", 1, 20),
    Param("dock.spaces", 3, "int", "Spaces on the Starting Dock card (assumption).", 1, 16),
    Param(
        "deck.cards",
        list(DEFAULT_DECK),
        "str_list",
        f"Journey cards, each a string of space codes separated by blanks ({LEGEND_TEXT}).",
        min_length=1,
    ),
    Param(
        "deck.peak_earliest_flip",
        6,
        "int",
        "The Pirate's Peak card may not be flipped before this flip "
        "(rulebook: not among the first five).",
        1,
        50,
    ),
    Param("search.multiplier", 2, "int", "Search gold = multiplier x die + crewmen.", 0, 20),
    Param(
        "cannon.range",
        1,
        "int",
        "Cards apart a regular cannon reaches (1: same or next card).",
        0,
        50,
    ),
    Param(
        "cannon.partial_multiplier",
        2,
        "int",
        "A partly interrupted search finds (searcher - attacker) x this gold.",
        0,
        20,
    ),
    Param(
        "cannon.interrupt_costs_turn",
        True,
        "bool",
        "Firing to interrupt a search uses up the attacker's next turn "
        "(firing always counts as a turn).",
    ),
    Param(
        "treasure.mighty_sail_bonus",
        1,
        "int",
        "Extra spaces per sailing move with the Mighty Sail.",
        0,
        6,
    ),
    Param(
        "treasure.cutlass_bonus",
        1,
        "int",
        "Added to each crewman's fight roll with the Golden Cutlass.",
        0,
        6,
    ),
    Param(
        "ghost.summon_face",
        1,
        "int",
        "Die face that offers a Ghost Ship summoning (rulebook: 1).",
        1,
        6,
    ),
    Param(
        "ghost.crew_roll",
        6,
        "int",
        "What each Ghost Ship crewman always rolls (rulebook: 6).",
        1,
        12,
    ),
    Param(
        "whirlpool.escape_roll",
        6,
        "int",
        "Lowest die that escapes a whirlpool (rulebook: a 6).",
        1,
        7,
    ),
    Param("whirlpool.escape_move", 6, "int", "Spaces an escaping ship moves (rulebook: 6).", 0, 20),
    Param(
        "whirlpool.max_attempts",
        5,
        "int",
        "Failed attempts after which the ship is spat out (rulebook: 5).",
        1,
        50,
    ),
    Param(
        "whirlpool.spit_spaces",
        1,
        "int",
        "Spaces a spat-out ship moves (rulebook: one space).",
        0,
        20,
    ),
    Param(
        "squid.dice",
        3,
        "int",
        "Dice rolled per attempt against the Giant Squid (rulebook: 3).",
        1,
        6,
    ),
    Param(
        "squid.escape_total",
        12,
        "int",
        "Total that escapes the squid; sail on next turn (rulebook: 12).",
        1,
        36,
    ),
    Param(
        "squid.instant_total",
        18,
        "int",
        "Total that moves the ship on at once (rulebook: 18).",
        1,
        37,
    ),
    Param(
        "squid.instant_move",
        6,
        "int",
        "Spaces moved at once on the instant total (rulebook: 6).",
        0,
        20,
    ),
    Param(
        "squid.life_loss_total",
        6,
        "int",
        "A total at or below this costs a life point (sentence lost in the rulebook; assumption).",
        0,
        36,
    ),
    Param(
        "squid.sacrifice_after",
        3,
        "int",
        "Failed attempts after which a crewman may be sacrificed to pass (rulebook: 3).",
        1,
        50,
    ),
    Param(
        "fog.tolerance",
        1,
        "int",
        "A fog guess within this many pips of the roll escapes (rulebook: 1).",
        0,
        5,
    ),
    Param(
        "gust.multiplier",
        2,
        "int",
        "Move multiplier on the turn after a gust of wind (rulebook: twice).",
        1,
        6,
    ),
    Param(
        "shortcut.spaces", 2, "int", "Spaces saved by taking the short route (assumption).", 0, 20
    ),
    Param(
        "end.crew_sale_price",
        1,
        "int",
        "Gold per crewman the first ship back sells (rulebook: 1).",
        0,
        20,
    ),
    Param(
        "fight.overtake",
        False,
        "bool",
        "Passing the other ship on the same leg is a collision too "
        "(default: only landing on its spot; assumption).",
    ),
    Param(
        "search.gold_per_crewman",
        1,
        "int",
        "Gold each crewman adds to a search (rulebook: +1 per crewman).",
        0,
        20,
    ),
    Param(
        "cannon.hit_life_loss",
        1,
        "int",
        "Life points a cannonball hit on the ship takes off (rulebook: 1).",
        0,
        20,
    ),
    Param(
        "cannon.interrupt_life_loss",
        1,
        "int",
        "Life points the searcher loses when the attacker rolls higher (rulebook: 1).",
        0,
        20,
    ),
    Param(
        "whirlpool.spit_life_loss",
        1,
        "int",
        "Life points lost when spat out of a whirlpool (rulebook: 1).",
        0,
        20,
    ),
    Param(
        "squid.low_roll_life_loss",
        1,
        "int",
        "Life points a squid total at or below squid.life_loss_total costs (assumption: 1).",
        0,
        20,
    ),
    Param(
        "mermaids.crew_lost",
        1,
        "int",
        "Crewmen lured away when landing on the mermaids (rulebook: 1).",
        0,
        20,
    ),
    Param(
        "castaway.crew_gained",
        1,
        "int",
        "Crewmen gained from a castaway, up to ship.max_crew (rulebook: 1).",
        0,
        20,
    ),
    Param(
        "squid.sacrifice_crew",
        1,
        "int",
        "Crewmen a squid sacrifice costs; a ship needs that many aboard (rulebook: 1).",
        0,
        20,
    ),
    Param(
        "ghost.summon_needs_second",
        True,
        "bool",
        "A summoning needs a second roll of the summon face (rulebook); false: the first "
        "summon face summons at once, then the ship rolls to move.",
    ),
    Param(
        "ghost.crew",
        -1,
        "int",
        "Ghost Ship crewmen (-1: as many as its attacker, rulebook); unmatched crewmen "
        "of either side take their roll, as in a ship fight.",
        -1,
        20,
    ),
    Param(
        "peak.treasures",
        list(TREASURE_LABELS[1:]),
        "str_list",
        "Treasures laid on the Pirate's Peak (rulebook: all three); the first ship there "
        "picks from them all, the second from the rest.",
    ),
    Param(
        "treasure.steel_cannon_range",
        -1,
        "int",
        "Cards apart the Steel Cannon reaches (-1: no limit, rulebook).",
        -1,
        50,
    ),
    Param(
        "dock.exact_roll",
        True,
        "bool",
        "Docking needs the exact roll (rulebook); false: any roll reaching the dock docks.",
    ),
    Param(
        "squid.first_attempt",
        "next_turn",
        "choice",
        "When a ship caught by the Giant Squid makes its first attempt: on its next turn "
        "(assumption) or at once on arrival, in the turn it is caught.",
        choices=("next_turn", "arrival"),
    ),
    Param(
        "cannon.whirlpool_fire",
        False,
        "bool",
        "Cannons may fire from or into a whirlpool (default: no, like fog; assumption, "
        "the rulebook forbids fighting there).",
    ),
    *seating_params("rule", "both roll a die, the higher moves first, ties roll again (rulebook)"),
)

# Kernel rules: a NamedTuple of int64 scalars, field names as the designer says them.
Rules = namedtuple(
    "Rules",
    [
        "turn_cap",
        "start_gold",
        "cannonball_price",
        "crewman_price",
        "max_cannonballs",
        "max_crew",
        "life_points",
        "dock_spaces",
        "n_journey",
        "peak_card",
        "peak_earliest_flip",
        "max_track",
        "work_width",
        "search_multiplier",
        "cannon_range",
        "partial_multiplier",
        "interrupt_costs_turn",
        "mighty_sail_bonus",
        "cutlass_bonus",
        "ghost_summon_face",
        "ghost_crew_roll",
        "whirlpool_escape_roll",
        "whirlpool_escape_move",
        "whirlpool_max_attempts",
        "whirlpool_spit_spaces",
        "squid_dice",
        "squid_escape_total",
        "squid_instant_total",
        "squid_instant_move",
        "squid_life_loss_total",
        "squid_sacrifice_after",
        "fog_tolerance",
        "gust_multiplier",
        "shortcut_spaces",
        "crew_sale_price",
        "fight_overtake",
        "search_gold_per_crewman",
        "hit_life_loss",
        "interrupt_life_loss",
        "spit_life_loss",
        "squid_low_life_loss",
        "mermaid_crew_lost",
        "castaway_crew_gained",
        "squid_sacrifice_crew",
        "summon_needs_second",
        "ghost_crew",
        "peak_taken_mask",
        "steel_cannon_range",
        "exact_docking",
        "squid_on_arrival",
        "whirlpool_fire",
        "gold_supply",
        "first_player",  # seating.FP_* code
        "strategy_seating",  # 1: strategies rotate over seats from game to game
    ],
)

# The same rules as int32 slots of the static table's SD_RULES row (``sd[SD_RULES, RU_*]``),
# in Rules field order: the kernels read them there instead of taking the NamedTuple,
# because numba flattens a NamedTuple argument into one machine argument per field
# (36 here) on every call of a non-inlined function.
RU_TURN_CAP = 0
RU_START_GOLD = 1
RU_CANNONBALL_PRICE = 2
RU_CREWMAN_PRICE = 3
RU_MAX_CANNONBALLS = 4
RU_MAX_CREW = 5
RU_LIFE_POINTS = 6
RU_DOCK_SPACES = 7
RU_N_JOURNEY = 8
RU_PEAK_CARD = 9
RU_PEAK_EARLIEST_FLIP = 10
RU_MAX_TRACK = 11
RU_WORK_WIDTH = 12
RU_SEARCH_MULTIPLIER = 13
RU_CANNON_RANGE = 14
RU_PARTIAL_MULTIPLIER = 15
RU_INTERRUPT_COSTS_TURN = 16
RU_MIGHTY_SAIL_BONUS = 17
RU_CUTLASS_BONUS = 18
RU_GHOST_SUMMON_FACE = 19
RU_GHOST_CREW_ROLL = 20
RU_WHIRLPOOL_ESCAPE_ROLL = 21
RU_WHIRLPOOL_ESCAPE_MOVE = 22
RU_WHIRLPOOL_MAX_ATTEMPTS = 23
RU_WHIRLPOOL_SPIT_SPACES = 24
RU_SQUID_DICE = 25
RU_SQUID_ESCAPE_TOTAL = 26
RU_SQUID_INSTANT_TOTAL = 27
RU_SQUID_INSTANT_MOVE = 28
RU_SQUID_LIFE_LOSS_TOTAL = 29
RU_SQUID_SACRIFICE_AFTER = 30
RU_FOG_TOLERANCE = 31
RU_GUST_MULTIPLIER = 32
RU_SHORTCUT_SPACES = 33
RU_CREW_SALE_PRICE = 34
RU_FIGHT_OVERTAKE = 35
RU_SEARCH_GOLD_PER_CREWMAN = 36
RU_HIT_LIFE_LOSS = 37
RU_INTERRUPT_LIFE_LOSS = 38
RU_SPIT_LIFE_LOSS = 39
RU_SQUID_LOW_LIFE_LOSS = 40
RU_MERMAID_CREW_LOST = 41
RU_CASTAWAY_CREW_GAINED = 42
RU_SQUID_SACRIFICE_CREW = 43
RU_SUMMON_NEEDS_SECOND = 44
RU_GHOST_CREW = 45
RU_PEAK_TAKEN_MASK = 46
RU_STEEL_CANNON_RANGE = 47
RU_EXACT_DOCKING = 48
RU_SQUID_ON_ARRIVAL = 49
RU_WHIRLPOOL_FIRE = 50
RU_GOLD_SUPPLY = 51  # gold left in the box after the starting gold (-1: unlimited)
RU_FIRST_PLAYER = 52
RU_STRATEGY_SEATING = 53
N_RULES = len(Rules._fields)
assert all(globals()["RU_" + f.upper()] == i for i, f in enumerate(Rules._fields))


def parse_card(index: int, text: str) -> list[int]:
    """Space codes of one journey card; ValueError names the card and the bad code."""
    tokens = text.split()
    if not tokens:
        raise ValueError(f"deck: card {index} is empty (legend: {LEGEND_TEXT})")
    if len(tokens) > MAX_CARD_SPACES:
        raise ValueError(f"deck: card {index} has {len(tokens)} spaces, at most {MAX_CARD_SPACES}")
    out = []
    for tok in tokens:
        if tok not in LEGEND:
            raise ValueError(
                f"deck: card {index} has unknown space code {tok!r} (legend: {LEGEND_TEXT})"
            )
        out.append(LEGEND[tok])
    return out


def defaults() -> dict:
    """The rulebook rules as a flat dotted-key dict (what the engine would pass)."""
    return {p.key: (list(p.default) if isinstance(p.default, list) else p.default) for p in PARAMS}


# ----------------------------------------------------------------- the work array
# All mutable state of a table is ONE int32[ROW_EV + ev_capacity, width] array ``w``
# (one array argument per kernel call keeps numba's reference counting cheap):
ROW_ST = 0  # w[ROW_ST, G_*]            game state
ROW_SHIP = 1  # w[ROW_SHIP + seat, SH_*] ship state, rows 1-2
ROW_CNT = 3  # w[ROW_CNT + seat, C_*]    seat output columns (C_*: columns.py), rows 3-4
ROW_TRACK = 5  # w[ROW_TRACK, x]         space code of physical space x
ROW_CARD = 6  # w[ROW_CARD, x]           card number of x (0 dock, then flip order)
ROW_DECK = 7  # w[ROW_DECK, i]           card index flipped i-th (deck order)
ROW_EV = 8  # w[ROW_EV + i, 0:6]        event i (code, seat, a, b, c, d); trace only
EV_WIDTH = 6
# Static data sd: int32[SD_CARD0 + n_journey + 1, SD_WIDTH], read-only during a game, so
# that a kernel call needs only three arrays (sd, rng, w):
SD_RULES = 0  # sd[SD_RULES, RU_*]       the rules (see RU_* above)
SD_SP = 1  # sd[SD_SP + seat, SP_*]      policy parameters of each seat (integers), rows 1-2
SD_CODES = 3  # sd[SD_CODES, seat]       strategy code of each seat
SD_CARD0 = 4  # sd[SD_CARD0 + c, k]      space code k of card c (c = n_journey: the Peak card)
SD_LEN = MAX_CARD_SPACES  # sd[SD_CARD0 + c, SD_LEN]  number of spaces of card c
# sd[sd.shape[0] - N_SCRIPTED + code]: the default policy row of scripted strategy ``code``
# (the last N_SCRIPTED rows), which every seat plays inside the search player's rollouts
SD_WIDTH = max(N_RULES, SP_ROLL_FILE + 1, MAX_CARD_SPACES + 1)


def static_table(R, cards, card_len, codes, sp, rollout_rows):
    """The kernels' static table ``sd`` (layout above) from the compiled rules and seats;
    ``codes`` are the kernel's codes (a search seat: its rollout strategy, see seat_row);
    ``rollout_rows`` the scripted strategies' default rows (``strategies.default_rows()``,
    passed in so that the rules module does not import the players)."""
    import numpy as np

    sd = np.zeros((SD_CARD0 + R.n_journey + 1 + N_SCRIPTED, SD_WIDTH), dtype=np.int32)
    sd[SD_RULES, :N_RULES] = np.asarray(R, dtype=np.int64)
    sd[SD_SP : SD_SP + 2, :N_SP] = np.asarray(sp, dtype=np.float64).astype(np.int32)
    sd[SD_CODES, :2] = codes
    sd[SD_CARD0 : SD_CARD0 + R.n_journey + 1, :MAX_CARD_SPACES] = cards
    sd[SD_CARD0 : SD_CARD0 + R.n_journey + 1, SD_LEN] = card_len
    sd[sd.shape[0] - N_SCRIPTED :, :N_SP] = np.asarray(rollout_rows).astype(np.int32)
    return sd
