"""Pirate's Cove island choices of one's own (docs/strategies.md walks through ``island_planner``).

Name one in a scenario seat: ``strategy = "pirates_cove_players.py:island_planner"`` (and
``base``, the built-in strategy that makes the seat's other choices: fights, purchases,
burying).  Each function gets the view, the islands it may sail to (int32, 1..6), its
parameters in PARAMS order, a private random stream and the read-only public tables, and
returns an island's index among the options.
"""

from pirate_sim.games.pirates_cove.rules import COVE, HULL, TAVERN, TREASURE_ISLAND
from pirate_sim.games.pirates_cove.user_view import (BK_BARGE, BK_CRIPPLED, BK_FAME, BK_ISLAND, BLACK_FIELDS,
                                                     CARD_CHESTS, CARD_FAME, CARD_GOLD, CARD_TAVERN,
                                                     RU_CHEST_FAME, RU_CHESTS_PER_LEVEL, RU_GOLD_PER_FAME,
                                                     RU_MAX_BUYS, RU_PRICE, SEAT_FIELDS, SV_CHESTS, SV_CHOSE,
                                                     SV_GOLD, SV_PARROT, SV_SEC, V_BLACK, V_CARD, V_N_BLACK,
                                                     V_N_SEATS, V_ROUND, V_ROUNDS, V_SEAT, V_SEATS)
from pirate_sim.rng import rand_below_nb

PARAMS = {
    # defaults: the best of a 27-point grid (bury_at 2/3/5, black_fear 0.5/2.5/6, crowd 0/0.6/1.5), base
    # expert against the scripted mix, seed 555; the other ships seldom sail where they sailed last
    # round, so the crowd penalty is off by default
    "island_planner": {"bury_at": 5.0, "black_fear": 2.5, "crowd": 0.0},
    "uniform": {},
}

GOLD_WORTH = 0.35  # fame a gold coin is worth to it (a third when buried, more as upgrades)
CARD_WORTH = 0.8  # fame a Tavern card is worth (Fame cards, and help in fights)
LEVEL_WORTH = 0.7  # fame an affordable upgrade is worth
WANT_LEVEL = 4  # it buys sections up to this level
BARGE_WORTH = 0.5  # of a treasure barge's fame (it must end the round there alone to plunder it)
BIG_HOLD = 1000  # the Flint parrot lifts the Hull's limit on chests


def island_value(view, board, island, me, rounds_left, bury_at):
    """What sailing to ``island`` alone would bring this seat, in fame."""
    gold = view[me + SV_GOLD]
    chests = view[me + SV_CHESTS]
    if island == TREASURE_ISLAND:  # bury: chests now, gold as it goes (the base strategy decides)
        if chests >= bury_at or rounds_left <= 1:
            return chests * board.rules[RU_CHEST_FAME] + 1.0 + gold / board.rules[RU_GOLD_PER_FAME]
        return 0.5 * chests * board.rules[RU_CHEST_FAME]
    room = view[me + SV_SEC + HULL] * board.rules[RU_CHESTS_PER_LEVEL] - chests
    if view[me + SV_PARROT + 0] > 0:  # Flint
        room = BIG_HOLD
    card = V_CARD + 4 * (island - 1)
    v = (view[card + CARD_GOLD] * GOLD_WORTH + min(view[card + CARD_CHESTS], max(room, 0)) * board.rules[RU_CHEST_FAME]
         + view[card + CARD_FAME] + view[card + CARD_TAVERN] * CARD_WORTH)
    if rounds_left <= 1:
        return v  # the last round: whatever is not buried now is worth nothing
    if island == TAVERN:
        price = board.rules[RU_PRICE]
        can = board.rules[RU_MAX_BUYS] if price <= 0 else min(board.rules[RU_MAX_BUYS], gold // price)
        v += can * (CARD_WORTH - GOLD_WORTH * price)
    else:
        k = island - 2  # islands 2..5 upgrade hull, sails, cannons, crew
        lvl = view[me + SV_SEC + k]
        if lvl < WANT_LEVEL and lvl < board.tracks[k, 1] and board.tracks[k, 2 + lvl] <= gold:
            v += LEVEL_WORTH
    return v


def island_planner(view, options, params, rng, board):
    """Sail where the face-up card and the island's action are worth most to this ship:
    bury on Treasure Island once it carries ``bury_at`` chests (and in the last round),
    keep away from fighting black ships (``black_fear`` fame off) and from islands the
    other ships sailed to last round (``crowd`` fame off per ship); ties go to the first."""
    bury_at, black_fear, crowd = params[0], params[1], params[2]
    s = view[V_SEAT]
    me = V_SEATS + SEAT_FIELDS * s
    rounds_left = view[V_ROUNDS] - view[V_ROUND]
    best = 0
    best_v = -1e9
    for j in range(options.shape[0]):
        island = options[j]
        v = island_value(view, board, island, me, rounds_left, bury_at)
        for b in range(view[V_N_BLACK]):
            row = V_BLACK + BLACK_FIELDS * b
            if view[row + BK_ISLAND] == island and view[row + BK_CRIPPLED] == 0:
                if view[row + BK_BARGE] == 1:
                    v += BARGE_WORTH * view[row + BK_FAME]
                else:
                    v -= black_fear
        if island != TREASURE_ISLAND:  # Treasure Island has no combat
            for o in range(view[V_N_SEATS]):
                chose = view[V_SEATS + SEAT_FIELDS * o + SV_CHOSE]
                if o != s and chose == island and chose != COVE:
                    v -= crowd
        if v > best_v:
            best_v = v
            best = j
    return best


def uniform(view, options, params, rng):
    """Any island, uniformly (the built-in ``random``'s island choice, for speed comparisons)."""
    return rand_below_nb(rng, options.shape[0])
