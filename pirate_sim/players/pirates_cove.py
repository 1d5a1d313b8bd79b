"""Pirate's Cove's ``learned`` player: the seat's secret island each round by a linear value
of each island over features of the seat's view (docs/learned.md).

This file is a strategy file (docs/strategies.md): it sees only ``view`` (what the seat may
know at its island choice, pirate_sim.games.pirates_cove.user_view), the islands it may sail
to (1..6), its weights and the read-only public tables (``board``); the seat's other choices
(fights, purchases, burying, cards) are its ``base`` strategy's, ``expert`` by default.
``pirate-sim learn`` fits the weights; a weights file (``.npz``) fills ``params`` in
``PARAMS`` order.

Value of an island: ``w . phi(view, island)``, one weight vector shared by the six islands;
the best value is played, ties to the earlier island.  Features ``phi`` (scaled so a typical
value is about 1; "me" is the deciding seat, "the card" the island's face-up Treasure card,
0 on Treasure Island; "others" the other seats; "a black ship" one that fights, not a barge;
"power" dice x the weakest section, as the built-in players reckon it):

     0  Treasure Island (0/1)                  11  Treasure Island x rounds finished / rounds
     1  the Tavern (0/1)                       12  a black ship there (0/1)
     2  the card's gold / 3                    13  a black ship there x my chance against it
     3  the card's chests my hold has room         (my power / (mine + its))
        for / 2                                14  a black ship there x its fame / 4
     4  the card's fame / 2                    15  a treasure barge's fame there / 2
     5  the card's Tavern cards                16  others expected there (each a softmax,
     6  an upgrade there I want and can pay        temperature 0.5, of its greedy value of
        for (0/1; islands 2-5, the expert's        the islands, as the built-in players
        targets 3/4/4/5)                           predict one another)
     7  Tavern cards I can buy there / 2       17  the same, each other weighted by my edge
     8  Treasure Island x my chests x fame         (2 x my power / (mine + its) - 1)
        per chest / 4                          18  others that sailed there last round / 2
     9  Treasure Island x fame my gold buys /2 19  not Treasure Island x my chests / 4
    10  the last round x the card's gold and   20  my fame - the best other's, / 10, x
        chests (worthless then) / 3                (features 12 + 16: a likely fight)
                                               21  levels my section there lacks to the
                                                   expert's target / 3 (islands 2-5)
"""

import numpy as np

from pirate_sim.games.pirates_cove.rules import BONES, CANNONS, CREW, HULL, SILVER, TAVERN, TREASURE_ISLAND
from pirate_sim.games.pirates_cove.user_view import (BK_BARGE, BK_CRIPPLED, BK_FAME, BK_ISLAND, BK_SEC,
                                                     BLACK_FIELDS, CARD_CHESTS, CARD_FAME, CARD_GOLD, CARD_TAVERN,
                                                     RU_CHEST_FAME, RU_CHESTS_PER_LEVEL, RU_GOLD_PER_FAME,
                                                     RU_MAX_BUYS, RU_PRICE, SEAT_FIELDS, SV_CHESTS, SV_CHOSE,
                                                     SV_FAME, SV_GOLD, SV_PARROT, SV_SEC, V_BLACK, V_CARD,
                                                     V_N_BLACK, V_N_SEATS, V_ROUND, V_ROUNDS, V_SEAT, V_SEATS)

N_FEATURES = 22
FEATURES = ("treasure_island", "tavern", "card_gold", "card_chests", "card_fame", "card_tavern", "upgrade",
            "tavern_buys", "bury_chests", "bury_gold", "last_round_loot", "late_treasure_island", "black",
            "black_odds", "black_fame", "barge", "crowd", "crowd_edge", "crowd_last", "chests_at_risk",
            "fame_lead_risk", "section_gap")
PARAMS = {"learned": {
    "treasure_island": 0.0, "tavern": 0.0, "card_gold": 0.0, "card_chests": 0.0, "card_fame": 0.0,
    "card_tavern": 0.0, "upgrade": 0.0, "tavern_buys": 0.0, "bury_chests": 0.0, "bury_gold": 0.0,
    "last_round_loot": 0.0, "late_treasure_island": 0.0, "black": 0.0, "black_odds": 0.0, "black_fame": 0.0,
    "barge": 0.0, "crowd": 0.0, "crowd_edge": 0.0, "crowd_last": 0.0, "chests_at_risk": 0.0,
    "fame_lead_risk": 0.0, "section_gap": 0.0,
}}

# the trainer's settings for this game (pirate_sim.learned.training_defaults): a Cove game costs
# about 6x a Pirate's Peak one, so fewer and smaller generations; on 2 cores beside other work
# these reached 0.338 [0.333, 0.343] against three experts in 220 s (the defaults: 0.344 in 683 s)
TRAINING = {"generations": 20, "population": 16, "elite": 4, "games": 2000, "held_out": 10000, "final_games": 40000}
# distillation's settings for this game (pirate_sim.distill.DEFAULTS otherwise): a position's
# rollouts cost more than Pirate's Peak's, and half the positions at half the rollouts measured
# 0.353 [0.348, 0.358] against three experts in 55 s (docs/learned.md, "Distillation")
DISTILL = {"decisions": 10000, "rollouts": 16}
WANT = (3, 4, 4, 5)  # the expert's target levels (hull, sails, cannons, crew): its upgrades stop there
SILVER_DICE = 6  # dice Long John Silver rolls (rulebook; not in board.rules)
FLINT_HOLD = 1000  # the Flint parrot lifts the Hull's limit on chests
TEMPERATURE = 0.5  # the expert's spread when it predicts the others (fame units)
BLACK_SHUN = 0.3  # the others' greedy value of an island with a fighting black ship, times this
# what things are worth to the others' greedy value (fame), as the built-in players' public model
GOLD_WORTH = 0.4
CHEST_WORTH = 0.8
CARD_WORTH = 0.8
LEVEL_WORTH = 0.6


def power(view, row):
    """Dice (the lower of Crew and Cannons) x the weakest section of the ship whose four
    sections (hull, sails, cannons, crew) start at ``row``."""
    hull = view[row + HULL]
    tough = hull
    for k in range(1, 4):
        if view[row + k] < tough:
            tough = view[row + k]
    dice = min(view[row + CREW], view[row + CANNONS])
    return float(dice * tough)


def seat_power(view, o):
    """A seat's power, its Parrots counted (Silver's dice, Bones' cannons)."""
    b = V_SEATS + SEAT_FIELDS * o
    p = power(view, b + SV_SEC)
    tough = view[b + SV_SEC]
    for k in range(1, 4):
        if view[b + SV_SEC + k] < tough:
            tough = view[b + SV_SEC + k]
    if view[b + SV_PARROT + SILVER] > 0:
        p = float(SILVER_DICE * tough)
    elif view[b + SV_PARROT + BONES] > 0:
        p = float(view[b + SV_SEC + CANNONS] * tough)
    return p


def room(view, board, o):
    b = V_SEATS + SEAT_FIELDS * o
    if view[b + SV_PARROT + 0] > 0:  # Flint
        return FLINT_HOLD
    r = view[b + SV_SEC + HULL] * board.rules[RU_CHESTS_PER_LEVEL] - view[b + SV_CHESTS]
    return r if r > 0 else 0


def level_cost(board, k, lvl):
    """Gold to raise section ``k`` from ``lvl``; -1 at the top of its track."""
    if lvl < 1 or lvl >= board.tracks[k, 1]:
        return -1
    return board.tracks[k, 2 + lvl]


def greedy_value(view, board, o, island, last):
    """Another seat's value of ending the round alone on ``island`` (the built-in players'
    public model of one another: a greedy treasure hunter that shuns fighting black ships)."""
    b = V_SEATS + SEAT_FIELDS * o
    gold = view[b + SV_GOLD]
    gpf = max(board.rules[RU_GOLD_PER_FAME], 1)
    if island == TREASURE_ISLAND:
        g = gold if last else gold - int(0.5 * gold)
        return float(view[b + SV_CHESTS] * board.rules[RU_CHEST_FAME] + g // gpf)
    c = V_CARD + 4 * (island - 1)
    g = view[c + CARD_GOLD]
    v = float(view[c + CARD_FAME]) + CARD_WORTH * view[c + CARD_TAVERN]
    if not last:
        v += GOLD_WORTH * g + CHEST_WORTH * min(view[c + CARD_CHESTS], room(view, board, o))
        if island == TAVERN:
            if gold + g >= board.rules[RU_PRICE]:
                v += 0.5 * CARD_WORTH
        else:
            cost = level_cost(board, island - 2, view[b + SV_SEC + island - 2])
            if 0 <= cost <= gold + g:
                v += LEVEL_WORTH
    return v


def black_there(view, island, barge):
    """Index of the uncrippled black ship on ``island`` (a barge if ``barge``), -1 if none."""
    for k in range(view[V_N_BLACK]):
        row = V_BLACK + BLACK_FIELDS * k
        if view[row + BK_ISLAND] == island and view[row + BK_CRIPPLED] == 0 and (view[row + BK_BARGE] == 1) == barge:
            return k
    return -1


def crowd(view, board, s, last, expect, edge):
    """expect[i - 1]: others expected on island i; edge[i - 1]: the same, each weighted by
    my edge over it (2 x my power / (mine + its) - 1)."""
    vals = np.zeros(6)
    pm = seat_power(view, s)
    for o in range(view[V_N_SEATS]):
        if o == s:
            continue
        mx = -1e18
        for i in range(6):
            v = greedy_value(view, board, o, i + 1, last)
            if i + 1 != TREASURE_ISLAND and black_there(view, i + 1, False) >= 0:
                v *= BLACK_SHUN
            vals[i] = v
            if v > mx:
                mx = v
        tot = 0.0
        for i in range(6):
            vals[i] = np.exp((vals[i] - mx) / TEMPERATURE)
            tot += vals[i]
        po = seat_power(view, o)
        e = 2.0 * pm / (pm + po) - 1.0 if pm + po > 0.0 else 0.0
        for i in range(6):
            expect[i] += vals[i] / tot
            edge[i] += e * vals[i] / tot


def features(view, board, island, expect, edge, phi):
    """Fill ``phi`` (float64[N_FEATURES]) for sailing to ``island`` (layout in the docstring);
    ``expect`` and ``edge`` from :func:`crowd`."""
    s = view[V_SEAT]
    me = V_SEATS + SEAT_FIELDS * s
    gold = view[me + SV_GOLD]
    chests = view[me + SV_CHESTS]
    rounds = max(view[V_ROUNDS], 1)
    last = view[V_ROUND] >= view[V_ROUNDS] - 1
    ti = island == TREASURE_ISLAND
    for j in range(N_FEATURES):
        phi[j] = 0.0
    phi[0] = 1.0 if ti else 0.0
    phi[1] = 1.0 if island == TAVERN else 0.0
    if ti:
        phi[8] = chests * board.rules[RU_CHEST_FAME] / 4.0
        phi[9] = (gold // max(board.rules[RU_GOLD_PER_FAME], 1)) / 2.0
        phi[11] = view[V_ROUND] / rounds
        return
    c = V_CARD + 4 * (island - 1)
    g = view[c + CARD_GOLD]
    ch = view[c + CARD_CHESTS]
    phi[2] = g / 3.0
    phi[3] = min(ch, room(view, board, s)) / 2.0
    phi[4] = view[c + CARD_FAME] / 2.0
    phi[5] = float(view[c + CARD_TAVERN])
    if island == TAVERN:
        price = board.rules[RU_PRICE]
        can = board.rules[RU_MAX_BUYS] if price <= 0 else min(board.rules[RU_MAX_BUYS], (gold + g) // price)
        phi[7] = can / 2.0
    else:
        k = island - 2
        lvl = view[me + SV_SEC + k]
        cost = level_cost(board, k, lvl)
        if lvl < WANT[k] and 0 <= cost <= gold + g:
            phi[6] = 1.0
        if lvl < WANT[k]:
            phi[21] = (WANT[k] - lvl) / 3.0
    if last:
        phi[10] = (g + ch) / 3.0
    bk = black_there(view, island, False)
    if bk >= 0:
        row = V_BLACK + BLACK_FIELDS * bk
        pm = seat_power(view, s)
        pb = power(view, row + BK_SEC)
        phi[12] = 1.0
        phi[13] = pm / (pm + pb) if pm + pb > 0.0 else 0.0
        phi[14] = view[row + BK_FAME] / 4.0
    barge = black_there(view, island, True)
    if barge >= 0:
        phi[15] = view[V_BLACK + BLACK_FIELDS * barge + BK_FAME] / 2.0
    phi[16] = expect[island - 1]
    phi[17] = edge[island - 1]
    n_last = 0
    best = -1000000
    for o in range(view[V_N_SEATS]):
        if o == s:
            continue
        b = V_SEATS + SEAT_FIELDS * o
        if view[b + SV_CHOSE] == island:
            n_last += 1
        if view[b + SV_FAME] > best:
            best = view[b + SV_FAME]
    phi[18] = n_last / 2.0
    phi[19] = chests / 4.0
    phi[20] = (view[me + SV_FAME] - best) / 10.0 * (phi[12] + phi[16])


def others_expected(view, board):
    """(expect, edge) of every island: the features' prediction of the other seats (``crowd``)."""
    last = view[V_ROUND] >= view[V_ROUNDS] - 1
    expect = np.zeros(6)
    edge = np.zeros(6)
    crowd(view, board, view[V_SEAT], last, expect, edge)
    return expect, edge


def learned(view, options, params, rng, board):
    """The island of the best value (linear in the features, one weight vector for all)."""
    expect, edge = others_expected(view, board)
    phi = np.zeros(N_FEATURES)
    best = 0
    best_v = -1e300
    for i in range(options.shape[0]):
        features(view, board, options[i], expect, edge, phi)
        v = 0.0
        for j in range(N_FEATURES):
            v += params[j] * phi[j]
        if v > best_v:
            best_v = v
            best = i
    return best


def option_features(view, options, board, psi):
    """Fill ``psi`` (float64[len(options), N_FEATURES]) so that island i's value in
    :func:`learned` is ``params . psi[i]`` (``pirate-sim learn --method distill`` fits through it)."""
    expect, edge = others_expected(view, board)
    phi = np.zeros(N_FEATURES)
    for i in range(options.shape[0]):
        features(view, board, options[i], expect, edge, phi)
        for j in range(N_FEATURES):
            psi[i, j] = phi[j]

