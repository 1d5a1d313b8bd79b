"""Pirate's Cove kernel, part 4: a game's set-up (``setup_nb``) and its outputs row
(``write_outputs_nb``, every column written by its code in ``columns.py``).

Conventions: ``actions.py``'s docstring.  May import: ``actions``, ``rounds``, ``columns``,
``rules``, ``ship``, ``policies`` of this game, ``games/base.py``, ``pirate_sim.rng`` and
``pirate_sim.seating``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .. import base as B
from ..kernel_base import copy_words_nb
from ...rng import dice_rolled_nb, rand_below_nb, shuffle_nb
from ...seating import FP_RULE, entry_of_seat_nb, first_seat_nb
from .actions import draw_card_nb, log_nb, raise_nb
from .columns import (GAME_COLUMNS, N_ISLAND_VISITS, OG_BLACK_SUNK, OG_DICE_ROLLED, OG_FIGHTS, OG_RESHUFFLES, OG_ROUND,
                      OG_STALEMATES, OG_TIE_COMBAT, OG_TIE_DICE, OG_TIE_HITS, OG_TIE_VOLLEYS, OG_VOLLEYS, OS_CARDS_WON,
                      OS_CHESTS, OS_CHESTS_BURIED, OS_CHESTS_LOST, OS_CHESTS_TAKEN, OS_COVE_GOLD, OS_CRIPPLED,
                      OS_CRIPPLES_MADE, OS_FAME, OS_FAME_BARGE, OS_FAME_BLACK, OS_FAME_CARDS, OS_FAME_CARD_VALUE,
                      OS_FAME_CHESTS, OS_FAME_COMBAT, OS_FAME_GOLD, OS_FAME_LOST_MUTINY, OS_FAME_TRACK,
                      OS_FAME_TREASURE, OS_FIGHTS, OS_FLIGHTS, OS_GOLD, OS_GOLD_BURIED, OS_GOLD_LOST, OS_GOLD_SPENT,
                      OS_GOLD_TAKEN, OS_HELD, OS_HITS, OS_LEGEND_FIGHTS, OS_LEGEND_WINS, OS_LEVEL, OS_MUTINIES,
                      OS_NAVY_FIGHTS, OS_NAVY_LOSSES, OS_NAVY_WINS, OS_SEAT_WON, OS_SETUP, OS_TAVERN_BOUGHT,
                      OS_TAVERN_COVE, OS_TAVERN_DRAWN, OS_TAVERN_PLAYED, OS_UPG, OS_VISITS, OS_VOLLEYS, SEAT_COLUMNS)
from .policies import setup_section_nb
from .rounds import restore_black_nb
from .rules import (B_BARGE, B_FAME, B_ISLAND, B_LEGEND, EV_FIRST, EV_SETUP, G_BLACK_SUNK, G_DECK_N, G_END, G_FIGHTS,
                    G_FIRST, G_GAME, G_N_BLACK, G_RESHUFFLES, G_ROUND, G_ROUND_LOG, G_STALEMATES, G_SUPPLY_CHESTS,
                    G_SUPPLY_GOLD, G_TDECK, G_TIE, G_TIE_DICE, G_TIE_HITS, G_TIE_VOLLEYS, G_TPERM, G_VOLLEYS, G_WINNER,
                    MAX_ROUNDS, MAX_TREASURE, N_CARD_ISLANDS, N_GROUPS, N_SECTIONS, S_BOUGHT, S_BURIED_CHESTS,
                    S_BURIED_GOLD, S_CARDS_WON, S_CHESTS, S_CHESTS_TAKEN, S_COVE_CARDS, S_COVE_GOLD, S_CRIPPLED,
                    S_CRIPPLES, S_DRAWN, S_ENTRY, S_FAME, S_FAME_CARDS, S_FIGHTS, S_FLIGHTS, S_F_BARGE, S_F_BLACK,
                    S_F_CARDS, S_F_CHESTS, S_F_COMBAT, S_F_GOLD, S_F_MUTINY, S_F_TREASURE, S_GOLD, S_GOLD_TAKEN,
                    S_HELD, S_HITS, S_LEGEND_FIGHTS, S_LEGEND_WINS, S_LOST_CHESTS, S_LOST_GOLD, S_MUTINIES,
                    S_NAVY_FIGHTS, S_NAVY_LOSSES, S_NAVY_WINS, S_PLAYED, S_SEC, S_SEC0, S_SPENT, S_UPG, S_VISITS,
                    S_VOLLEYS)
from .ship import bb_nb, sb_nb


# ------------------------------------------------------------------ set-up, the end, whole games
@njit(cache=True)
def setup_nb(st, ev, rng, P, tr, ncards, tavern, legends, strat, sp, game_index):
    """Shuffle the stacks and the Tavern deck, place the black ships, deal gold and Tavern
    cards, choose the first player, and let every seat spend its set-up gold."""
    for i in range(st.shape[0]):
        st[i] = 0
    st[G_WINNER] = -1
    st[G_END] = -1
    st[G_GAME] = game_index % 1_000_000_007
    st[G_SUPPLY_GOLD] = P.supply_gold
    st[G_SUPPLY_CHESTS] = P.supply_chests
    nt = tavern.shape[0]
    for i in range(nt):
        st[G_TDECK + i] = tavern[i]
    st[G_DECK_N] = nt
    shuffle_nb(rng, st[G_TDECK:G_TDECK + nt])
    for i in range(N_CARD_ISLANDS):
        m = ncards[i]
        for j in range(m):
            st[G_TPERM + i * MAX_TREASURE + j] = j
        shuffle_nb(rng, st[G_TPERM + i * MAX_TREASURE:G_TPERM + i * MAX_TREASURE + m])
    nb = P.n_black
    st[G_N_BLACK] = nb
    nl = legends.shape[0]
    used = 0
    for b in range(nb):
        bb = bb_nb(b)
        st[bb + B_ISLAND] = P.black_start0 if b == 0 else (P.black_start1 if b == 1 else P.black_start2)
        if b == 0:
            st[bb + B_LEGEND] = -1
            st[bb + B_FAME] = P.navy_fame
        else:  # a Legendary Pirate drawn at random from the rest
            r = rand_below_nb(rng, nl - (b - 1))
            lg = -1
            for i in range(nl):
                if (used >> i) & 1:
                    continue
                if r == 0:
                    lg = i
                    break
                r -= 1
            used |= 1 << lg
            st[bb + B_LEGEND] = lg
            st[bb + B_FAME] = legends[lg, 4]
            st[bb + B_BARGE] = 1 if legends[lg, 0] == 0 else 0
        restore_black_nb(st, P, legends, b)
    n = P.n_seats
    rule_seat = rand_below_nb(rng, n) if P.first_player == FP_RULE else 0  # the die roll for first player
    first = first_seat_nb(P.first_player, rule_seat, game_index, n, rng)
    st[G_FIRST] = first
    log_nb(st, ev, first, EV_FIRST, first, 0, 0)
    for s in range(n):
        b = sb_nb(s)
        st[b + S_ENTRY] = entry_of_seat_nb(s, game_index, n, P.rotate)
        for k in range(N_SECTIONS):
            st[b + S_SEC + k] = tr[k, 0]
        st[b + S_GOLD] = P.setup_gold
    for j in range(n):
        s = (first + j) % n
        for _ in range(P.setup_cards):
            draw_card_nb(st, ev, rng, P, s)
    for s in range(n):  # set-up spending: each ship on its own sheet
        b = sb_nb(s)
        bought = 0
        while True:
            k = setup_section_nb(st, rng, P, tr, strat, sp, s, bought)
            if k < 0 or raise_nb(st, ev, tr, s, k, 1, 1, 0) == 0:
                break
            bought += 1
        for k in range(N_SECTIONS):
            st[b + S_SEC0 + k] = st[b + S_SEC + k]
        log_nb(st, ev, s, EV_SETUP, st[b + S_SEC0] * 4096 + st[b + S_SEC0 + 1] * 256
               + st[b + S_SEC0 + 2] * 16 + st[b + S_SEC0 + 3], st[b + S_GOLD], 0)


# The outputs columns that copy one state word, as (column code, word) pairs: the game's row
# (words G_*) and each seat's row (words S_* of its seat block); a run of columns written in a
# loop stands as one pair an item.  The rest are computed in write_outputs_nb.
GAME_COPIES = np.array((
    (B.G_WINNER, G_WINNER), (B.G_END, G_END), (B.G_FIRST_SEAT, G_FIRST),
    (OG_FIGHTS, G_FIGHTS), (OG_VOLLEYS, G_VOLLEYS), (OG_BLACK_SUNK, G_BLACK_SUNK), (OG_STALEMATES, G_STALEMATES),
    (OG_RESHUFFLES, G_RESHUFFLES),
    (OG_TIE_COMBAT, G_TIE), (OG_TIE_VOLLEYS, G_TIE_VOLLEYS), (OG_TIE_HITS, G_TIE_HITS), (OG_TIE_DICE, G_TIE_DICE),
    *((OG_ROUND + r, G_ROUND_LOG + r) for r in range(MAX_ROUNDS)),
), np.int64)
SEAT_COPIES = np.array((
    (OS_FAME, S_FAME), (OS_FAME_CHESTS, S_F_CHESTS), (OS_FAME_GOLD, S_F_GOLD), (OS_FAME_COMBAT, S_F_COMBAT),
    (OS_FAME_BLACK, S_F_BLACK), (OS_FAME_TREASURE, S_F_TREASURE), (OS_FAME_CARDS, S_F_CARDS),
    (OS_FAME_LOST_MUTINY, S_F_MUTINY), (OS_FAME_BARGE, S_F_BARGE),
    (OS_GOLD, S_GOLD), (OS_CHESTS, S_CHESTS), (OS_CHESTS_BURIED, S_BURIED_CHESTS), (OS_GOLD_BURIED, S_BURIED_GOLD),
    *((OS_UPG + k, S_UPG + k) for k in range(N_SECTIONS)),
    *((OS_SETUP + k, S_SEC0 + k) for k in range(N_SECTIONS)),
    *((OS_LEVEL + k, S_SEC + k) for k in range(N_SECTIONS)),
    (OS_FIGHTS, S_FIGHTS), (OS_FLIGHTS, S_FLIGHTS), (OS_MUTINIES, S_MUTINIES), (OS_CRIPPLED, S_CRIPPLED),
    (OS_CRIPPLES_MADE, S_CRIPPLES), (OS_VOLLEYS, S_VOLLEYS), (OS_HITS, S_HITS),
    (OS_TAVERN_BOUGHT, S_BOUGHT), (OS_TAVERN_COVE, S_COVE_CARDS), (OS_TAVERN_PLAYED, S_PLAYED),
    (OS_TAVERN_DRAWN, S_DRAWN), (OS_FAME_CARD_VALUE, S_FAME_CARDS),
    *((OS_HELD + g, S_HELD + g) for g in range(N_GROUPS)),
    (OS_NAVY_FIGHTS, S_NAVY_FIGHTS), (OS_NAVY_WINS, S_NAVY_WINS), (OS_NAVY_LOSSES, S_NAVY_LOSSES),
    (OS_LEGEND_FIGHTS, S_LEGEND_FIGHTS), (OS_LEGEND_WINS, S_LEGEND_WINS), (OS_CARDS_WON, S_CARDS_WON),
    *((OS_VISITS + i, S_VISITS + i) for i in range(N_ISLAND_VISITS)),  # Pirate's Cove, then islands 1..6
    (OS_COVE_GOLD, S_COVE_GOLD), (OS_GOLD_LOST, S_LOST_GOLD), (OS_CHESTS_LOST, S_LOST_CHESTS),
    (OS_GOLD_SPENT, S_SPENT), (OS_GOLD_TAKEN, S_GOLD_TAKEN), (OS_CHESTS_TAKEN, S_CHESTS_TAKEN),
), np.int64)
# with the computed ones, every column is written exactly once
assert sorted(GAME_COPIES[:, 0].tolist() + [B.G_TURNS, B.G_TRUNCATED, OG_DICE_ROLLED]) \
    == list(range(B.N_STD_GAME_COLUMNS + len(GAME_COLUMNS)))
assert sorted(SEAT_COPIES[:, 0].tolist() + [OS_SEAT_WON, OS_FAME_TRACK]) == list(range(len(SEAT_COLUMNS)))


@njit(cache=True)
def write_outputs_nb(st, rng, P, out_g, out_s):
    """The game's outputs row and its seats' rows, every column by its code (columns.py)."""
    copy_words_nb(out_g, st, 0, GAME_COPIES)
    out_g[B.G_TURNS] = st[G_ROUND] * P.n_seats  # turns: one seat's round each
    out_g[B.G_TRUNCATED] = 0  # every game is `rounds` rounds: never truncated
    out_g[OG_DICE_ROLLED] = dice_rolled_nb(rng) - st[G_TIE_DICE]
    for s in range(P.n_seats):
        b = sb_nb(s)
        o = out_s[s]
        copy_words_nb(o, st, b, SEAT_COPIES)
        o[OS_SEAT_WON] = 1 if st[G_WINNER] == s else 0
        o[OS_FAME_TRACK] = st[b + S_FAME] - st[b + S_F_CARDS]
