"""What a Pirate's Cove strategy of one's own sees at its secret island choice
(pirate_sim.user_strategy; docs/strategies.md).

The function chooses the seat's island (1-6) each round; every other choice of the seat is
its ``base`` strategy's (protocol.py).  The view is copied out of the state into a fresh
int32 vector at every choice and holds only what the seat could know at the table:

Hidden, never in the view: the other seats' islands of this round (chosen in secret, all
revealed at once: a seat choosing after another must not see its choice, ``G_PEND``), the
other seats' Tavern cards by type and their Fame cards' values (held in hand; only how
many cards each holds is public, and its Parrots, which act the moment they are drawn),
the order of the Tavern draw pile and of the Treasure stacks, and the bookkeeping words
(events, dice counters, test scripts, the search's counters).

    V_SEAT          the seat choosing (the function's own)
    V_N_SEATS       seats at the table (rows 0..V_N_SEATS-1 of V_SEATS are used)
    V_ROUND         rounds finished (the round being chosen is V_ROUND + 1 of V_ROUNDS)
    V_ROUNDS        rounds in the game
    V_FIRST         the first player (Treasure Island and Pirate's Cove order)
    V_SUPPLY_GOLD   gold left in the bank
    V_SUPPLY_CHESTS chests left in the bank
    V_DECK_N        Tavern cards in the draw pile
    V_DISC_N        Tavern cards in the discard pile
    V_N_BLACK       black ships in play (rows 0..V_N_BLACK-1 of V_BLACK are used)
    V_CARD + 4*(i-1) + c   the face-up Treasure card of island i (1..5): c = CARD_GOLD,
                    CARD_CHESTS, CARD_FAME, CARD_TAVERN (how many of each it gives)
    V_BLACK + BLACK_FIELDS*b + BK_*   black ship b: island, hull, sails, cannons, crew,
                    fame for crippling it, 1 a barge (never fights), Legendary Pirate row
                    of board.legends (-1 the Royal Navy), 1 crippled
    V_ROUND_LOG + r the round code of finished round r (ships per island and fights; decode
                    with pirates_cove.columns.decode_round), 0 for rounds not played
    V_SEATS + SEAT_FIELDS*s + SV_*   seat s: where it ended last round (0 Pirate's Cove),
                    the island it chose last round (0 before the first), its four section
                    levels, gold, chests, fame track, Tavern cards held (Parrots apart), its
                    active Parrots (Flint, Silver, Bones, Trelawney), then - its own seat
                    only, -1 for the others - its Mastercraft, Battle, Volley, Event and
                    Fame cards and the Fame cards' total value; chests and gold buried,
                    times crippled, ships it crippled

The board (the fifth argument) holds read-only public tables: ``tracks`` (int32[4, 2 +
MAX_LEVEL], ship.py's track table: [k, 0] set-up level, [k, 1] top level, [k, 2 + l] gold
from level l to l + 1), ``rules`` (int32, the RU_* rules below), ``legends`` (int32[m, 5]
the Legendary Pirate cards: hull, sails, cannons, crew, fame), ``treasure`` (int32[5,
MAX_TREASURE, 4] every island's Treasure cards, in the scenario's order, not the shuffled
one) and ``n_treasure`` (int32[5] cards per island).  Options: the islands 1..6.
"""

from __future__ import annotations

from collections import namedtuple

from numba import njit

from .rules import (B_BARGE, B_CRIPPLED, B_FAME, B_ISLAND, B_LEGEND, B_SEC, BATTLE, BONES, EVENT, FAME, FLINT,
                    G_CARD, G_CHOICE, G_DECK_N, G_DISC_N, G_FIRST, G_N_BLACK, G_ROUND, G_ROUND_LOG,
                    G_SUPPLY_CHESTS, G_SUPPLY_GOLD, MASTERCRAFT, MAX_BLACK, MAX_ROUNDS, MAX_SEATS, N_CARD_ISLANDS,
                    N_SECTIONS, S_BURIED_CHESTS, S_BURIED_GOLD, S_CHESTS, S_CRIPPLED, S_CRIPPLES, S_FAME,
                    S_FAME_CARDS, S_GOLD, S_HAND, S_SEC, S_WHERE, SILVER, TRELAWNEY, VOLLEY)
from .ship import bb_nb, sb_nb

V_SEAT = 0
V_N_SEATS = 1
V_ROUND = 2
V_ROUNDS = 3
V_FIRST = 4
V_SUPPLY_GOLD = 5
V_SUPPLY_CHESTS = 6
V_DECK_N = 7
V_DISC_N = 8
V_N_BLACK = 9
V_CARD = 16  # [5 islands x 4] the face-up Treasure cards
CARD_GOLD, CARD_CHESTS, CARD_FAME, CARD_TAVERN = range(4)  # a Treasure card's fields (rules.REWARD_TOKENS order)
V_BLACK = V_CARD + 4 * N_CARD_ISLANDS  # [MAX_BLACK x BLACK_FIELDS] the black ships
BK_ISLAND = 0
BK_SEC = 1  # [4] hull, sails, cannons, crew
BK_FAME = 5
BK_BARGE = 6
BK_LEGEND = 7
BK_CRIPPLED = 8
BLACK_FIELDS = 9
V_ROUND_LOG = V_BLACK + BLACK_FIELDS * MAX_BLACK  # [MAX_ROUNDS] round codes of finished rounds
V_SEATS = V_ROUND_LOG + MAX_ROUNDS  # [MAX_SEATS x SEAT_FIELDS] the seats
SV_WHERE = 0
SV_CHOSE = 1
SV_SEC = 2  # [4] section levels (0 crippled)
SV_GOLD = 6
SV_CHESTS = 7
SV_FAME = 8
SV_CARDS = 9
SV_PARROT = 10  # [4] Flint, Silver, Bones, Trelawney
SV_HAND = 14  # [5] own only: Mastercraft, Battle, Volley, Event, Fame cards (-1 another seat's)
SV_FAME_CARDS = 19  # own only: total value of its Fame cards (-1 another seat's)
SV_BURIED_CHESTS = 20
SV_BURIED_GOLD = 21
SV_CRIPPLED = 22
SV_CRIPPLES = 23
SEAT_FIELDS = 24
VIEW_LEN = V_SEATS + SEAT_FIELDS * MAX_SEATS
HIDDEN = -1  # another seat's card counts by type
# The rollout index of a user function's private stream (derive_stream_nb of the game's stream
# at the choice): no search rollout index reaches it (budgets stop at 2**20).
USER_STREAM = 0x7FFFFFFE

# board.rules: the rules a player needs to value an island (indices into the row)
RU_HIT_MIN = 0  # least die face that hits
RU_CHEST_FAME = 1  # fame per chest buried
RU_GOLD_PER_FAME = 2  # gold buried per fame
RU_PRICE = 3  # gold per Tavern card
RU_MAX_BUYS = 4  # Tavern cards one visit may buy
RU_TI_FACTOR = 5  # Treasure Island upgrades cost this times the track's price
RU_COVE_GOLD = 6  # consolation gold at Pirate's Cove
RU_CHESTS_PER_LEVEL = 7  # chests a Hull level carries
RU_FAME_PER_LOSER = 8  # fame for each ship that flees or sinks in one's fight
RU_MAX_VOLLEYS = 9  # volleys after which a fight stops
RU_REPAIR_TO = 10  # Pirate's Cove repairs crippled sections to this level
RU_ROUNDS = 11
RULES_FIELDS = ("hit_min", "chest_fame", "gold_per_fame", "price", "max_buys", "ti_factor", "cove_gold",
                "chests_per_level", "fame_per_loser", "max_volleys", "repair_to", "rounds")

Board = namedtuple("Board", ["tracks", "rules", "legends", "treasure", "n_treasure"])


def board_of(compiled) -> Board:
    """Read-only copies of the compiled scenario's public tables."""
    import numpy as np

    from ...user_strategy import readonly

    tr, cards, ncards, _tavern, legends, _strat, _sp = compiled.arrays
    P = compiled.params
    rules = np.array([getattr(P, k) for k in RULES_FIELDS], np.int32)
    return Board(tracks=readonly(tr), rules=readonly(rules), legends=readonly(legends),
                 treasure=readonly(cards), n_treasure=readonly(ncards))


@njit(cache=True)
def fill_view_nb(st, P, s, view):
    """Copy what seat ``s`` may know at its island choice into ``view`` (layout above)."""
    view[:] = 0
    view[V_SEAT] = s
    view[V_N_SEATS] = P.n_seats
    view[V_ROUND] = st[G_ROUND]
    view[V_ROUNDS] = P.rounds
    view[V_FIRST] = st[G_FIRST]
    view[V_SUPPLY_GOLD] = st[G_SUPPLY_GOLD]
    view[V_SUPPLY_CHESTS] = st[G_SUPPLY_CHESTS]
    view[V_DECK_N] = st[G_DECK_N]
    view[V_DISC_N] = st[G_DISC_N]
    view[V_N_BLACK] = st[G_N_BLACK]
    for i in range(4 * N_CARD_ISLANDS):
        view[V_CARD + i] = st[G_CARD + i]
    for b in range(st[G_N_BLACK]):
        v = V_BLACK + BLACK_FIELDS * b
        bb = bb_nb(b)
        view[v + BK_ISLAND] = st[bb + B_ISLAND]
        for k in range(N_SECTIONS):
            view[v + BK_SEC + k] = st[bb + B_SEC + k]
        view[v + BK_FAME] = st[bb + B_FAME]
        view[v + BK_BARGE] = st[bb + B_BARGE]
        view[v + BK_LEGEND] = st[bb + B_LEGEND]
        view[v + BK_CRIPPLED] = st[bb + B_CRIPPLED]
    for r in range(min(st[G_ROUND], MAX_ROUNDS)):
        view[V_ROUND_LOG + r] = st[G_ROUND_LOG + r]
    for o in range(P.n_seats):
        v = V_SEATS + SEAT_FIELDS * o
        b = sb_nb(o)
        view[v + SV_WHERE] = st[b + S_WHERE]
        view[v + SV_CHOSE] = st[G_CHOICE + o]  # revealed last round (this round's are still secret)
        for k in range(N_SECTIONS):
            view[v + SV_SEC + k] = st[b + S_SEC + k]
        view[v + SV_GOLD] = st[b + S_GOLD]
        view[v + SV_CHESTS] = st[b + S_CHESTS]
        view[v + SV_FAME] = st[b + S_FAME]
        held = 0
        for t in range(MASTERCRAFT, FAME + 1):
            held += st[b + S_HAND + t]
        view[v + SV_CARDS] = held
        view[v + SV_PARROT + 0] = st[b + S_HAND + FLINT]
        view[v + SV_PARROT + 1] = st[b + S_HAND + SILVER]
        view[v + SV_PARROT + 2] = st[b + S_HAND + BONES]
        view[v + SV_PARROT + 3] = st[b + S_HAND + TRELAWNEY]
        own = o == s
        view[v + SV_HAND + 0] = st[b + S_HAND + MASTERCRAFT] if own else HIDDEN
        view[v + SV_HAND + 1] = st[b + S_HAND + BATTLE] if own else HIDDEN
        view[v + SV_HAND + 2] = st[b + S_HAND + VOLLEY] if own else HIDDEN
        view[v + SV_HAND + 3] = st[b + S_HAND + EVENT] if own else HIDDEN
        view[v + SV_HAND + 4] = st[b + S_HAND + FAME] if own else HIDDEN
        view[v + SV_FAME_CARDS] = st[b + S_FAME_CARDS] if own else HIDDEN
        view[v + SV_BURIED_CHESTS] = st[b + S_BURIED_CHESTS]
        view[v + SV_BURIED_GOLD] = st[b + S_BURIED_GOLD]
        view[v + SV_CRIPPLED] = st[b + S_CRIPPLED]
        view[v + SV_CRIPPLES] = st[b + S_CRIPPLES]
