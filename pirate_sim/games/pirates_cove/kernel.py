"""The numba kernel of Pirate's Cove: set-up, the round, islands, combat, Pirate's Cove.

Every function is ``@njit(cache=True)`` and takes the state vector ``st`` (int32, layout
in ``rules.py``), the event log ``ev`` (int32 ``[capacity, 6]``; capacity 0 in bulk
runs), the game's rng, the rules NamedTuple ``P`` and plain arrays:

* ``tr``  int32[4, 2 + MAX_LEVEL]: section tracks (see ``ship.py``).
* ``cards`` int32[5, MAX_TREASURE, 4]: Treasure cards (gold, chests, fame, Tavern cards)
  of islands 1..5; ``ncards`` int32[5] how many each stack has.
* ``tavern`` int32[n]: the Tavern deck's card codes (type, Fame value * 16).
* ``legends`` int32[m, 5]: Legendary Pirates (hull, sails, cannons, crew, fame).
* ``strat`` int32[entries] strategy codes, ``sp`` float64[entries, N_SP] their params.
* ``fs`` float64[FS_SIZE]: the policies' public model and predictions (policies.FS_*); ``wk`` int64[64] scratch.

One round (``play_round_nb``): the black ships sail on (if they move at the start), the
top Treasure card of islands 1-5 turns up, every seat chooses an island from what it
could know (all choices are computed before any is revealed: a joint action), the
choices are revealed, islands 1..6 resolve in order, Pirate's Cove repairs and consoles,
unclaimed cards are discarded and the black ships sail on (if they move at the end).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...rng import RNG_WORDS, dice_rolled_nb, rand_below_nb, roll_die_nb, seed_game_nb, shuffle_nb
from ...seating import FP_RULE, entry_of_seat_nb, first_seat_nb
from .policies import (FS_READY, SP_SEARCH, bury_gold_nb, choose_island_nb, choose_target_nb, cove_card_nb,
                       decide_flee_nb,
                       play_battle_nb, play_fog_nb, play_mastercraft_nb, play_volley_nb, setup_section_nb,
                       tavern_buys_nb, treasure_upgrade_nb, upgrade_levels_nb)
from .rules import (DEC_BUY, DEC_FLEE, DEC_ISLAND, DEC_NONE, DEC_TI, DEC_UPGRADE, FORCED_BIAS, F_POS, F_VOL,
                    G_ACTOR, G_CONTESTED, G_CUR, G_DEC, G_DEC_SEAT, G_FORCED, G_FREE, G_PEND, G_PHASE, G_SUB,
                    PH_CHOOSE, PH_DONE, PH_END, PH_ISLAND, PH_START, PH_TI, S_F_BARGE, S_FAMEV, B_BARGE, B_CRIPPLED, B_FAME, B_ISLAND, B_LEGEND, B_SEC, BATTLE, COVE, EV_BLACK,
                    EV_BUY, EV_BURY, EV_CHOICE, EV_COVE, EV_CRIPPLE, EV_DRAW, EV_END, EV_FIGHT, EV_FIRST,
                    EV_FLEE, EV_ORDER, EV_OVERBOARD, EV_PLAY, EV_PLUNDER, EV_RESHUFFLE, EV_ROUND,
                    EV_SETUP, EV_TAKE, EV_TIE, EV_UPGRADE, EV_VOLLEY, EVENT, F_ACTIVE, F_BONUS, F_N,
                    F_TB, F_TURNS, F_UNITS, FAME, G_BLACK_SUNK, G_BURIED_CHESTS, G_BURIED_GOLD, G_CARD,
                    G_CARD_LIVE, G_CHOICE, G_DECK_N, G_DISC_N, G_END, G_EVENTS, G_FIGHT, G_FIGHTS,
                    G_FIRST, G_GAME, G_N_BLACK, G_RESHUFFLES, G_ROUND, G_ROUND_LOG, G_STALEMATES,
                    G_SUPPLY_CHESTS, G_SUPPLY_GOLD, G_TDECK, G_TDISC, G_TIE, G_TIE_DICE, G_TIE_HITS, G_TIE_VOLLEYS, G_TPERM, G_VOLLEYS, G_WINNER,
                    HULL, MASTERCRAFT, MAX_SEATS, MAX_TREASURE, N_CARD_ISLANDS, N_SECTIONS,
                    MAX_ROUNDS, S_BOUGHT, S_BURIED_CHESTS, S_BURIED_GOLD, S_CARDS_WON, S_CHESTS, S_CHESTS_TAKEN,
                    S_COVE_CARDS, S_COVE_GOLD, S_CRIPPLED, S_CRIPPLES, S_DRAWN, S_ENTRY, S_F_BLACK,
                    S_F_CARDS, S_F_CHESTS, S_F_COMBAT, S_F_GOLD, S_F_MUTINY, S_F_TREASURE, S_FAME,
                    S_FAME_CARDS, S_FIGHTS, S_FLIGHTS, S_GOLD, S_GOLD_TAKEN, S_HAND, S_HELD, S_HITS,
                    S_LEGEND_FIGHTS, S_LEGEND_WINS, S_LOST_CHESTS, S_LOST_GOLD, S_MUTINIES, S_NAVY_FIGHTS,
                    S_NAVY_LOSSES, S_NAVY_WINS, S_PLAYED, S_SEC, S_SEC0, S_SPENT, S_UPG, S_VISITS,
                    S_VOLLEYS, S_WHERE, STATE_WORDS, TAVERN, TREASURE_ISLAND, TRELAWNEY, VOLLEY,
                    END_MOST_FAME, END_TIE_COMBAT, END_TIE_UNRESOLVED, MAX_LEVEL, MAX_UNITS)
from .ship import (base_dice_nb, bb_nb, black_at_nb, capacity_nb, level_cost_nb, level_nb, room_nb, sb_nb,
                   set_level_nb, speed_nb)

WK_SIZE = 64
N_SEAT_COLUMNS = 64
N_GAME_EXTRA = 10 + MAX_ROUNDS  # dice, fights, volleys, black sunk, stalemates, reshuffles, tie, the final
# combat's volleys, hits and dice, round codes
CRIPPLED_KEEPS, CRIPPLED_LOSES_CHESTS, CRIPPLED_LOSES_ALL = 0, 1, 2
# G_SUB: the step within an island (or a Treasure Island turn) where play resumes
SUB_START, SUB_FIGHT, SUB_TAKE, SUB_SPEND, SUB_LEVELS = range(5)
FIGHT_PENDING = -2  # fight_run_nb: a search seat's attack-or-flee decision is pending


# ------------------------------------------------------------------ small helpers
@njit(cache=True, inline="always")
def log_nb(st, ev, seat, kind, a, b, c):
    n = st[G_EVENTS]
    if n < ev.shape[0]:
        ev[n, 0] = st[G_ROUND] + 1
        ev[n, 1] = seat
        ev[n, 2] = kind
        ev[n, 3] = a
        ev[n, 4] = b
        ev[n, 5] = c
        st[G_EVENTS] = n + 1


@njit(cache=True, inline="always")
def gain_fame_nb(st, s, n, source):
    """Fame from a named source (the word of S_F_*)."""
    b = sb_nb(s)
    st[b + S_FAME] += n
    st[b + source] += n


@njit(cache=True, inline="always")
def pay_nb(st, s, gold):
    """Gold from a seat to the bank."""
    b = sb_nb(s)
    st[b + S_GOLD] -= gold
    st[b + S_SPENT] += gold
    st[G_SUPPLY_GOLD] += gold


@njit(cache=True)
def overboard_nb(st, ev, P, s):
    """Chests beyond the Hull's capacity go back to the bank (after a Hull hit or a lost Parrot)."""
    b = sb_nb(s)
    extra = st[b + S_CHESTS] - capacity_nb(st, P, s)
    if extra > 0:
        st[b + S_CHESTS] -= extra
        st[G_SUPPLY_CHESTS] += extra
        st[b + S_LOST_CHESTS] += extra
        log_nb(st, ev, s, EV_OVERBOARD, extra, 0, 0)


# ------------------------------------------------------------------ Tavern cards
@njit(cache=True)
def discard_nb(st, code):
    st[G_TDISC + st[G_DISC_N]] = code
    st[G_DISC_N] += 1


@njit(cache=True)
def draw_card_nb(st, ev, rng, P, s):
    """Seat ``s`` draws the top Tavern card (the discards are reshuffled when the deck is
    empty); a Parrot acts at once.  Returns the card's type, -1 if no card is left."""
    if st[G_DECK_N] == 0:
        n = st[G_DISC_N]
        if n == 0:
            return -1
        for i in range(n):
            st[G_TDECK + i] = st[G_TDISC + i]
        st[G_DECK_N] = n
        st[G_DISC_N] = 0
        shuffle_nb(rng, st[G_TDECK:G_TDECK + n])
        st[G_RESHUFFLES] += 1
        log_nb(st, ev, -1, EV_RESHUFFLE, n, 0, 0)
    st[G_DECK_N] -= 1
    code = st[G_TDECK + st[G_DECK_N]]
    t = code % 16
    b = sb_nb(s)
    st[b + S_HAND + t] += 1
    if t == FAME:
        st[b + S_FAME_CARDS] += code // 16
        st[b + S_FAMEV + code // 16] += 1
    st[b + S_HELD + (0 if t <= TRELAWNEY else t - MASTERCRAFT + 1)] = 1
    st[b + S_DRAWN] += 1
    log_nb(st, ev, s, EV_DRAW, t, code // 16, 0)
    return t


@njit(cache=True)
def play_card_nb(st, ev, s, t, a):
    """Seat ``s`` plays (discards) one card of type ``t``; ``a`` is logged with it."""
    st[sb_nb(s) + S_HAND + t] -= 1
    st[sb_nb(s) + S_PLAYED] += 1
    discard_nb(st, t)
    log_nb(st, ev, s, EV_PLAY, t, a, 0)


@njit(cache=True)
def lose_parrots_nb(st, ev, P, s):
    """Parrots fly off when the ship goes to Pirate's Cove (unless they stay all game)."""
    if P.parrot_game == 1:
        return
    b = sb_nb(s)
    for t in range(TRELAWNEY + 1):
        while st[b + S_HAND + t] > 0:
            st[b + S_HAND + t] -= 1
            discard_nb(st, t)
    overboard_nb(st, ev, P, s)  # Flint gone: the Hull limit is back


# ------------------------------------------------------------------ treasure and upgrades
@njit(cache=True)
def take_card_nb(st, ev, rng, P, s, island):
    """Seat ``s`` takes the face-up Treasure card of ``island`` (1..5)."""
    c = G_CARD + (island - 1) * 4
    b = sb_nb(s)
    g = min(st[c], st[G_SUPPLY_GOLD])
    st[G_SUPPLY_GOLD] -= g
    st[b + S_GOLD] += g
    st[b + S_GOLD_TAKEN] += g
    ch = min(st[c + 1], st[G_SUPPLY_CHESTS], room_nb(st, P, s))
    st[G_SUPPLY_CHESTS] -= ch
    st[b + S_CHESTS] += ch
    st[b + S_CHESTS_TAKEN] += ch
    if st[c + 2] > 0:
        gain_fame_nb(st, s, st[c + 2], S_F_TREASURE)
    st[b + S_CARDS_WON] += 1
    st[G_CARD_LIVE + island - 1] = 0
    log_nb(st, ev, s, EV_TAKE, island, g * 16 + ch, st[c + 2] * 16 + st[c + 3])
    for _ in range(st[c + 3]):
        draw_card_nb(st, ev, rng, P, s)


@njit(cache=True)
def raise_nb(st, ev, tr, s, k, levels, factor, free):
    """Raise section ``k`` by up to ``levels`` levels, paying ``factor`` x each cost (the
    first ``free`` levels cost nothing); stops at the top or when gold runs out."""
    b = sb_nb(s)
    paid = 0
    n = 0
    while n < levels:
        lvl = st[b + S_SEC + k]
        c = level_cost_nb(tr, k, lvl)
        if c < 0:
            break
        c *= factor
        if n < free:
            c = 0
        if c > st[b + S_GOLD]:
            break
        pay_nb(st, s, c)
        paid += c
        st[b + S_SEC + k] = lvl + 1
        st[b + S_UPG + k] += 1
        n += 1
    if n > 0:
        log_nb(st, ev, s, EV_UPGRADE, k, n, paid)
    return n


@njit(cache=True)
def alone_take_nb(st, ev, rng, P, s, island):
    """A ship alone on ``island`` 1..5 (or the last standing): the card, then a barge's fame."""
    if st[G_CARD_LIVE + island - 1] == 1:
        take_card_nb(st, ev, rng, P, s, island)
    barge = black_at_nb(st, island, False)
    if barge >= 0:
        f = st[bb_nb(barge) + B_FAME]
        gain_fame_nb(st, s, f, S_F_BLACK)
        st[sb_nb(s) + S_F_BARGE] += f
        log_nb(st, ev, s, EV_PLUNDER, barge, f, 0)


@njit(cache=True, inline="always")
def searches_nb(st, sp, s):
    """Does seat ``s`` search its decisions (a ``search`` entry; never inside a rollout)?"""
    return sp[st[sb_nb(s) + S_ENTRY], SP_SEARCH] >= 0.5


@njit(cache=True, inline="always")
def pend_nb(st, kind, s):
    """Stop at seat ``s``'s decision ``kind``: the search answers in G_FORCED."""
    st[G_DEC] = kind
    st[G_DEC_SEAT] = s
    return kind


@njit(cache=True, inline="always")
def has_forced_nb(st, kind, s):
    """Is the answer to seat ``s``'s decision ``kind`` waiting in G_FORCED?  (The search's
    answer, or a rollout's forced option: a rollout plays the seat with the search off.)"""
    return st[G_FORCED] != 0 and st[G_DEC] == kind and st[G_DEC_SEAT] == s


@njit(cache=True, inline="always")
def forced_nb(st):
    """The search's answer to the pending decision (consumed)."""
    v = st[G_FORCED] - FORCED_BIAS
    st[G_FORCED] = 0
    st[G_DEC] = DEC_NONE
    return v


@njit(cache=True)
def buy_cards_nb(st, ev, rng, P, s, n):
    b = sb_nb(s)
    bought = 0
    for _ in range(min(n, P.max_buys)):
        if st[b + S_GOLD] < P.price:
            break
        if st[G_DECK_N] == 0 and st[G_DISC_N] == 0:
            break
        pay_nb(st, s, P.price)
        draw_card_nb(st, ev, rng, P, s)
        st[b + S_BOUGHT] += 1
        bought += 1
    if bought > 0:
        log_nb(st, ev, s, EV_BUY, bought, bought * P.price, 0)


@njit(cache=True)
def alone_spend_nb(st, ev, rng, P, tr, strat, sp, s, island):
    """The island's action for the ship alone (after the card): Tavern cards, or the
    island's section (a Mastercraft first).  Returns a DEC_* kind if a search seat's
    decision is pending (G_SUB tells where to resume), DEC_NONE when done."""
    if island == TAVERN:
        if has_forced_nb(st, DEC_BUY, s):
            n = forced_nb(st)
        elif searches_nb(st, sp, s):
            return pend_nb(st, DEC_BUY, s)
        else:
            n = tavern_buys_nb(st, rng, P, strat, sp, s)
        buy_cards_nb(st, ev, rng, P, s, n)
        return DEC_NONE
    k = island - 2
    if st[G_SUB] == SUB_SPEND:
        free = 0
        if play_mastercraft_nb(st, rng, P, tr, strat, sp, s, k):
            play_card_nb(st, ev, s, MASTERCRAFT, k)
            free = P.mc_levels
        st[G_FREE] = free
        st[G_SUB] = SUB_LEVELS
    free = st[G_FREE]
    if has_forced_nb(st, DEC_UPGRADE, s):
        n = forced_nb(st)
    elif searches_nb(st, sp, s):
        return pend_nb(st, DEC_UPGRADE, s)
    else:
        n = upgrade_levels_nb(st, rng, P, tr, strat, sp, s, k, free)
    if n > 0:
        raise_nb(st, ev, tr, s, k, n, 1, free)
    return DEC_NONE


@njit(cache=True)
def bury_nb(st, ev, rng, P, strat, sp, s):
    """Treasure Island: bury every chest (1 fame each) and some gold (3 gold per fame)."""
    b = sb_nb(s)
    ch = st[b + S_CHESTS]
    g = bury_gold_nb(st, rng, P, strat, sp, s)
    g = min(g, st[b + S_GOLD])
    g -= g % P.gold_per_fame
    if ch > 0:
        st[b + S_CHESTS] = 0
        st[b + S_BURIED_CHESTS] += ch
        st[G_BURIED_CHESTS] += ch
        gain_fame_nb(st, s, ch * P.chest_fame, S_F_CHESTS)
    if g > 0:
        st[b + S_GOLD] -= g
        st[b + S_BURIED_GOLD] += g
        st[G_BURIED_GOLD] += g
        gain_fame_nb(st, s, g // P.gold_per_fame, S_F_GOLD)
    if ch > 0 or g > 0:
        log_nb(st, ev, s, EV_BURY, ch, g, ch * P.chest_fame + g // P.gold_per_fame)


@njit(cache=True)
def treasure_island_nb(st, ev, rng, P, tr, strat, sp, s):
    """Bury, then one upgrade at double cost (G_SUB: SUB_START before burying); returns a
    DEC_* kind if a search seat's upgrade is pending."""
    if st[G_SUB] == SUB_START:
        bury_nb(st, ev, rng, P, strat, sp, s)
        st[G_SUB] = SUB_LEVELS
    if has_forced_nb(st, DEC_TI, s):
        k = forced_nb(st)
    elif searches_nb(st, sp, s):
        return pend_nb(st, DEC_TI, s)
    else:
        k = treasure_upgrade_nb(st, rng, P, tr, strat, sp, s)
    if k >= 0:
        raise_nb(st, ev, tr, s, k, 1, P.ti_factor, 0)
    return DEC_NONE


# ------------------------------------------------------------------ combat
@njit(cache=True)
def fight_setup_nb(st, ev, rng, P, island, units, n):
    """Order the ``n`` units by speed (Sails; ties by a die roll, rolled again while tied)."""
    base = G_FIGHT
    st[base + F_N] = n
    for j in range(n):
        st[base + F_UNITS + j] = units[j]
        st[base + F_ACTIVE + j] = 1
        st[base + F_TURNS + j] = 0
        st[base + F_BONUS + j] = 0
        st[base + F_TB + j] = 0
    # Tie-break rolls compare like words, roll by roll: every ship's key takes a digit each
    # round of rolls (the roll if it was still tied, 0 if not), so a ship that won outright
    # on an earlier roll stays ahead of the re-rollers it beat; keys are then replaced by
    # their rank among the ships of equal speed, so they never grow past 8 * 7.
    for _ in range(50):  # a guard: ties outlast 50 rolls with probability 6**-50
        tied = 0
        for j in range(n):
            for i in range(n):
                if i != j and speed_nb(st, P, units[i]) == speed_nb(st, P, units[j]) \
                        and st[base + F_TB + i] == st[base + F_TB + j]:
                    tied |= 1 << j
        if tied == 0:
            break
        for j in range(n):
            st[base + F_TB + j] = st[base + F_TB + j] * 7 + (roll_die_nb(rng, 6) if (tied >> j) & 1 else 0)
        for j in range(n):  # dense rank among equal speeds (uses F_BONUS, zero here, as scratch)
            r = 0
            for i in range(n):
                if speed_nb(st, P, units[i]) == speed_nb(st, P, units[j]) \
                        and st[base + F_TB + i] < st[base + F_TB + j]:
                    distinct = True
                    for m in range(i):
                        if speed_nb(st, P, units[m]) == speed_nb(st, P, units[j]) \
                                and st[base + F_TB + m] == st[base + F_TB + i]:
                            distinct = False
                            break
                    if distinct:
                        r += 1
            st[base + F_BONUS + j] = r
        for j in range(n):
            st[base + F_TB + j] = st[base + F_BONUS + j]
            st[base + F_BONUS + j] = 0
    # insertion sort by (speed, tie-break) descending
    for j in range(1, n):
        u = st[base + F_UNITS + j]
        tb = st[base + F_TB + j]
        i = j - 1
        while i >= 0:
            v = st[base + F_UNITS + i]
            sv, su = speed_nb(st, P, v), speed_nb(st, P, u)
            if sv > su or (sv == su and st[base + F_TB + i] >= tb):
                break
            st[base + F_UNITS + i + 1] = v
            st[base + F_TB + i + 1] = st[base + F_TB + i]
            i -= 1
        st[base + F_UNITS + i + 1] = u
        st[base + F_TB + i + 1] = tb
    code = 0
    for j in range(n):
        code = code * 16 + st[base + F_UNITS + j]
    log_nb(st, ev, -1, EV_ORDER, island, n, code)


@njit(cache=True)
def others_gain_nb(st, P, loser):
    """Every other player ship still in the fight gains fame for a ship that fled or sank."""
    base = G_FIGHT
    for j in range(st[base + F_N]):
        v = st[base + F_UNITS + j]
        if v != loser and v < MAX_SEATS and st[base + F_ACTIVE + j] == 1:
            gain_fame_nb(st, v, P.fame_per_loser, S_F_COMBAT)


@njit(cache=True)
def has_navy_nb(st):
    """Is the Royal Navy in the current fight?"""
    base = G_FIGHT
    for j in range(st[base + F_N]):
        u = st[base + F_UNITS + j]
        if u >= MAX_SEATS and st[bb_nb(u - MAX_SEATS) + B_LEGEND] < 0:
            return True
    return False


@njit(cache=True)
def to_cove_nb(st, ev, P, s):
    st[sb_nb(s) + S_WHERE] = COVE
    lose_parrots_nb(st, ev, P, s)


@njit(cache=True)
def cripple_nb(st, ev, P, t, by, final):
    """Unit ``t`` is crippled by unit ``by``."""
    base = G_FIGHT
    for j in range(st[base + F_N]):
        if st[base + F_UNITS + j] == t:
            st[base + F_ACTIVE + j] = 0
    log_nb(st, ev, t if t < MAX_SEATS else -1, EV_CRIPPLE, t, by, 0)
    if final:
        return
    if t >= MAX_SEATS:
        bb = bb_nb(t - MAX_SEATS)
        st[bb + B_CRIPPLED] = 1
        st[G_BLACK_SUNK] += 1
        if by < MAX_SEATS:
            gain_fame_nb(st, by, st[bb + B_FAME], S_F_BLACK)
            if st[bb + B_LEGEND] < 0:
                st[sb_nb(by) + S_NAVY_WINS] += 1
            else:
                st[sb_nb(by) + S_LEGEND_WINS] += 1
            st[sb_nb(by) + S_CRIPPLES] += 1
        return
    b = sb_nb(t)
    st[b + S_CRIPPLED] += 1
    if by < MAX_SEATS:
        st[sb_nb(by) + S_CRIPPLES] += 1
    if has_navy_nb(st):
        st[b + S_NAVY_LOSSES] += 1
    others_gain_nb(st, P, t)
    if P.crippled_loses >= CRIPPLED_LOSES_CHESTS:
        st[G_SUPPLY_CHESTS] += st[b + S_CHESTS]
        st[b + S_LOST_CHESTS] += st[b + S_CHESTS]
        st[b + S_CHESTS] = 0
    if P.crippled_loses == CRIPPLED_LOSES_ALL:
        st[G_SUPPLY_GOLD] += st[b + S_GOLD]
        st[b + S_LOST_GOLD] += st[b + S_GOLD]
        st[b + S_GOLD] = 0
    to_cove_nb(st, ev, P, t)


@njit(cache=True)
def flee_nb(st, ev, rng, P, s, j):
    """Seat ``s`` (fight position ``j``) flees to Pirate's Cove; a die roll of
    ``mutiny_max`` or less is a mutiny: gold and chests aboard and 2 fame are lost."""
    base = G_FIGHT
    st[base + F_ACTIVE + j] = 0
    b = sb_nb(s)
    st[b + S_FLIGHTS] += 1
    if has_navy_nb(st):
        st[b + S_NAVY_LOSSES] += 1
    r = roll_die_nb(rng, 6)
    mutiny = r <= P.mutiny_max
    if mutiny:
        st[b + S_MUTINIES] += 1
        st[G_SUPPLY_GOLD] += st[b + S_GOLD]
        st[b + S_LOST_GOLD] += st[b + S_GOLD]
        st[b + S_GOLD] = 0
        st[G_SUPPLY_CHESTS] += st[b + S_CHESTS]
        st[b + S_LOST_CHESTS] += st[b + S_CHESTS]
        st[b + S_CHESTS] = 0
        lost = min(P.mutiny_fame, st[b + S_FAME])  # the fame track stops at 0
        st[b + S_FAME] -= lost
        st[b + S_F_MUTINY] += lost
    log_nb(st, ev, s, EV_FLEE, r, 1 if mutiny else 0, 0)
    others_gain_nb(st, P, s)
    to_cove_nb(st, ev, P, s)


@njit(cache=True)
def volley_nb(st, ev, rng, P, strat, sp, j, final):
    """The unit at fight position ``j`` fires one volley."""
    base = G_FIGHT
    u = st[base + F_UNITS + j]
    t, k = choose_target_nb(st, rng, P, strat, sp, u)
    dice = base_dice_nb(st, P, u) + st[base + F_BONUS + j]
    lvl = level_nb(st, t, k)
    if u < MAX_SEATS and not final and play_volley_nb(st, rng, P, strat, sp, u, dice, lvl):
        play_card_nb(st, ev, u, VOLLEY, t)
        dice += P.volley_dice
    hits = 0
    for _ in range(dice):
        if roll_die_nb(rng, 6) >= P.hit_min:
            hits += 1
    st[G_VOLLEYS] += 1
    if u < MAX_SEATS:
        st[sb_nb(u) + S_VOLLEYS] += 1
        st[sb_nb(u) + S_HITS] += hits
    fog = 0
    if t < MAX_SEATS and not final and hits >= lvl and play_fog_nb(st, rng, P, strat, sp, t):
        fog = 1
    log_nb(st, ev, u if u < MAX_SEATS else -1, EV_VOLLEY, t * 16 + k, dice * 16 + hits, u * 2 + fog)
    if fog:
        play_card_nb(st, ev, t, EVENT, u)
        hits = 0
    if hits == 0:
        return
    new = lvl - hits
    set_level_nb(st, t, k, new if new > 0 else 0)
    if t < MAX_SEATS and k == HULL and new > 0:
        overboard_nb(st, ev, P, t)
    if new <= 0:
        cripple_nb(st, ev, P, t, u, final)


@njit(cache=True)
def fight_start_nb(st, ev, rng, P, strat, sp, island, units, n, final):
    """Set up a combat among ``n`` units: speed order, counters, Battle cards."""
    base = G_FIGHT
    fight_setup_nb(st, ev, rng, P, island, units, n)
    st[base + F_POS] = 0
    st[base + F_VOL] = 0
    if not final:
        st[G_FIGHTS] += 1
        navy = has_navy_nb(st)
        legend = False
        for j in range(n):
            u = st[base + F_UNITS + j]
            if u >= MAX_SEATS and st[bb_nb(u - MAX_SEATS) + B_LEGEND] >= 0:
                legend = True
        for j in range(n):
            u = st[base + F_UNITS + j]
            if u < MAX_SEATS:
                b = sb_nb(u)
                st[b + S_FIGHTS] += 1
                if navy:
                    st[b + S_NAVY_FIGHTS] += 1
                if legend:
                    st[b + S_LEGEND_FIGHTS] += 1
        for j in range(n):  # Battle cards, in speed order
            u = st[base + F_UNITS + j]
            if u < MAX_SEATS and play_battle_nb(st, rng, P, strat, sp, u):
                play_card_nb(st, ev, u, BATTLE, island)
                st[base + F_BONUS + j] += P.battle_dice
    log_nb(st, ev, -1, EV_FIGHT, island, n, 1 if final else 0)


@njit(cache=True)
def fight_run_nb(st, ev, rng, P, strat, sp, final):
    """Play the combat on from its position (F_POS, F_VOL); returns the last unit
    standing, -1 if stopped at ``max_volleys``, FIGHT_PENDING when a search seat's
    attack-or-flee decision is pending (the position is kept)."""
    base = G_FIGHT
    n = st[base + F_N]
    j = st[base + F_POS]
    volleys = st[base + F_VOL]
    active = 0
    for i in range(n):
        active += st[base + F_ACTIVE + i]
    while active > 1:
        if volleys >= P.max_volleys:
            st[G_STALEMATES] += 1
            return -1
        if st[base + F_ACTIVE + j] == 1:
            u = st[base + F_UNITS + j]
            turns = st[base + F_TURNS + j] + 1
            flee = False
            if u < MAX_SEATS and volleys > 0 and not final:
                if has_forced_nb(st, DEC_FLEE, u):
                    st[base + F_TURNS + j] = turns
                    flee = forced_nb(st) == 1
                elif searches_nb(st, sp, u):
                    st[base + F_POS] = j
                    st[base + F_VOL] = volleys
                    pend_nb(st, DEC_FLEE, u)
                    return FIGHT_PENDING
                else:
                    st[base + F_TURNS + j] = turns
                    flee = decide_flee_nb(st, rng, P, strat, sp, u, turns)
            else:
                st[base + F_TURNS + j] = turns
            if flee:
                flee_nb(st, ev, rng, P, u, j)
            else:
                volley_nb(st, ev, rng, P, strat, sp, j, final)
                volleys += 1
            active = 0
            for i in range(n):
                active += st[base + F_ACTIVE + i]
        j = (j + 1) % n
    st[base + F_POS] = j
    st[base + F_VOL] = volleys
    for i in range(n):
        if st[base + F_ACTIVE + i] == 1:
            return st[base + F_UNITS + i]
    return -1


@njit(cache=True)
def fight_nb(st, ev, rng, P, strat, sp, island, units, n, final):
    """A whole combat among ``n`` units with no search seat in it (the final combat, odds);
    returns the last unit standing, -1 if stopped at ``max_volleys``.  ``final``: the
    end-of-game tie-break (no fleeing, no cards, no fame, nothing lost)."""
    fight_start_nb(st, ev, rng, P, strat, sp, island, units, n, final)
    return fight_run_nb(st, ev, rng, P, strat, sp, final)


# ------------------------------------------------------------------ islands and the round
@njit(cache=True)
def round_code_nb(ships, contested):
    """Per-round game column: 3 bits of player ships per island 1..6 (bits 3(i-1)..),
    then a contest flag per island (bit 18 + i - 1)."""
    c = 0
    for i in range(6):
        c |= min(ships[i], 7) << (3 * i)
        c |= contested[i] << (18 + i)
    return c


@njit(cache=True)
def island_step_nb(st, ev, rng, P, tr, strat, sp, island, wk):
    """Resolve ``island`` (1..5) from step G_SUB: alone, or a combat and its winner's
    action.  Returns a DEC_* kind if a search seat's decision is pending, else DEC_NONE."""
    if st[G_SUB] == SUB_START:
        units = wk[0:MAX_UNITS]
        n = 0
        for s in range(P.n_seats):
            if st[sb_nb(s) + S_WHERE] == island:
                units[n] = s
                n += 1
        if n == 0:
            return DEC_NONE
        bk = black_at_nb(st, island, True)
        if bk >= 0:
            units[n] = MAX_SEATS + bk
            n += 1
        if n == 1:
            st[G_ACTOR] = units[0]
            st[G_SUB] = SUB_TAKE
        else:
            st[G_CONTESTED] |= 1 << (island - 1)
            fight_start_nb(st, ev, rng, P, strat, sp, island, units, n, False)
            st[G_SUB] = SUB_FIGHT
    if st[G_SUB] == SUB_FIGHT:
        w = fight_run_nb(st, ev, rng, P, strat, sp, False)
        if w == FIGHT_PENDING:
            return DEC_FLEE
        if not 0 <= w < MAX_SEATS:
            return DEC_NONE
        st[G_ACTOR] = w
        st[G_SUB] = SUB_TAKE
    if st[G_SUB] == SUB_TAKE:
        alone_take_nb(st, ev, rng, P, st[G_ACTOR], island)
        st[G_SUB] = SUB_SPEND
    return alone_spend_nb(st, ev, rng, P, tr, strat, sp, st[G_ACTOR], island)


@njit(cache=True)
def cove_nb(st, ev, rng, P, strat, sp, s):
    """Pirate's Cove: crippled sections repaired, then a consolation (gold or a Tavern card)."""
    b = sb_nb(s)
    st[b + S_VISITS + COVE] += 1
    rep = 0
    for k in range(N_SECTIONS):
        if st[b + S_SEC + k] == 0:  # crippled (a damaged section that still floats stays as it is)
            rep |= 1 << k
            st[b + S_SEC + k] = P.repair_to
    card = cove_card_nb(st, rng, P, strat, sp, s)
    if card and (st[G_DECK_N] > 0 or st[G_DISC_N] > 0):
        draw_card_nb(st, ev, rng, P, s)
        st[b + S_COVE_CARDS] += 1
        log_nb(st, ev, s, EV_COVE, rep, 1, 0)
    else:
        g = min(P.cove_gold, st[G_SUPPLY_GOLD])
        st[G_SUPPLY_GOLD] -= g
        st[b + S_GOLD] += g
        st[b + S_COVE_GOLD] += g
        log_nb(st, ev, s, EV_COVE, rep, 0, g)


@njit(cache=True)
def restore_black_nb(st, P, legends, b):
    """A black ship's sections as printed on its card."""
    bb = bb_nb(b)
    lg = st[bb + B_LEGEND]
    for k in range(N_SECTIONS):
        if lg < 0:
            v = P.navy_hull if k == 0 else (P.navy_sails if k == 1 else (P.navy_cannons if k == 2 else P.navy_crew))
        else:
            v = legends[lg, k]
        st[bb + B_SEC + k] = v
    st[bb + B_CRIPPLED] = 0


@njit(cache=True)
def move_black_nb(st, ev, P, legends):
    """Every black ship sails to the next island (1 -> 2 -> ... -> 5 -> 1), repaired."""
    for b in range(st[G_N_BLACK]):
        bb = bb_nb(b)
        st[bb + B_ISLAND] = st[bb + B_ISLAND] % N_CARD_ISLANDS + 1
        restore_black_nb(st, P, legends, b)
        log_nb(st, ev, -1, EV_BLACK, b, st[bb + B_ISLAND], 0)


@njit(cache=True)
def begin_round_nb(st, ev, P, cards, legends):
    """The top Treasure cards turn up."""
    r = st[G_ROUND]
    for i in range(N_CARD_ISLANDS):
        idx = st[G_TPERM + i * MAX_TREASURE + r]
        for f in range(4):
            st[G_CARD + i * 4 + f] = cards[i, idx, f]
        st[G_CARD_LIVE + i] = 1
    log_nb(st, ev, -1, EV_ROUND, r + 1, 0, 0)


@njit(cache=True)
def reveal_nb(st, ev, P):
    """Every seat's secret island (G_PEND) is revealed at once."""
    for s in range(P.n_seats):
        i = st[G_PEND + s]
        st[G_CHOICE + s] = i
        b = sb_nb(s)
        st[b + S_WHERE] = i
        st[b + S_VISITS + i] += 1
        log_nb(st, ev, s, EV_CHOICE, i, 0, 0)
    st[G_CONTESTED] = 0


@njit(cache=True)
def end_round_nb(st, ev, rng, P, legends, strat, sp, wk):
    """Pirate's Cove, the round's log, unclaimed cards discarded, black ships sail on."""
    n = P.n_seats
    r = st[G_ROUND]
    for j in range(n):
        s = (st[G_FIRST] + j) % n
        if st[sb_nb(s) + S_WHERE] == COVE:
            cove_nb(st, ev, rng, P, strat, sp, s)
    ships = wk[16:22]
    contested = wk[24:30]
    for i in range(6):
        ships[i] = 0
        contested[i] = (st[G_CONTESTED] >> i) & 1
    for s in range(n):
        ships[st[G_CHOICE + s] - 1] += 1
    st[G_ROUND_LOG + r] = round_code_nb(ships, contested)
    for i in range(N_CARD_ISLANDS):
        st[G_CARD_LIVE + i] = 0  # unclaimed cards are discarded
    move_black_nb(st, ev, P, legends)
    st[G_ROUND] = r + 1


@njit(cache=True)
def advance_nb(st, ev, rng, P, tr, cards, legends, strat, sp, fs, wk, stop_round):
    """Play on from where the state stands (G_PHASE, G_CUR, G_SUB) until a search seat's
    decision is pending (returns its DEC_* kind; answer it in G_FORCED and call again),
    or the round ``stop_round`` is about to begin (returns DEC_NONE; ``stop_round`` >=
    rounds: the game is played to its end and scored).

    The round: its Treasure cards turn up; every seat chooses an island from what it could
    know, all before any is revealed (a joint action: a search seat's rollouts never see
    the others' real choices); the choices are revealed; islands 1..5 resolve in order,
    then Treasure Island in turn order, then Pirate's Cove; unclaimed cards are discarded
    and the black ships sail on."""
    n = P.n_seats
    while True:
        ph = st[G_PHASE]
        if ph == PH_START:
            if st[G_ROUND] >= stop_round:
                return DEC_NONE
            if st[G_ROUND] >= P.rounds:
                finish_nb(st, ev, rng, P, strat, sp, wk)
                st[G_PHASE] = PH_DONE
                return DEC_NONE
            begin_round_nb(st, ev, P, cards, legends)
            st[G_PHASE] = PH_CHOOSE
            st[G_CUR] = 0
            fs[FS_READY] = 0.0  # the public model is computed afresh for this round
        elif ph == PH_CHOOSE:
            s = st[G_CUR]
            if s < n:
                if has_forced_nb(st, DEC_ISLAND, s):
                    st[G_PEND + s] = forced_nb(st)
                elif searches_nb(st, sp, s):
                    return pend_nb(st, DEC_ISLAND, s)
                else:
                    st[G_PEND + s] = choose_island_nb(st, rng, P, tr, strat, sp, fs, s)
                st[G_CUR] = s + 1
            else:
                reveal_nb(st, ev, P)
                st[G_PHASE] = PH_ISLAND
                st[G_CUR] = 1
                st[G_SUB] = SUB_START
        elif ph == PH_ISLAND:
            island = st[G_CUR]
            if island >= TREASURE_ISLAND:
                st[G_PHASE] = PH_TI
                st[G_CUR] = 0
                st[G_SUB] = SUB_START
                continue
            d = island_step_nb(st, ev, rng, P, tr, strat, sp, island, wk)
            if d != DEC_NONE:
                return d
            st[G_CUR] = island + 1
            st[G_SUB] = SUB_START
        elif ph == PH_TI:
            j = st[G_CUR]
            if j >= n:
                st[G_PHASE] = PH_END
                continue
            s = (st[G_FIRST] + j) % n
            if st[sb_nb(s) + S_WHERE] == TREASURE_ISLAND:
                d = treasure_island_nb(st, ev, rng, P, tr, strat, sp, s)
                if d != DEC_NONE:
                    return d
            st[G_CUR] = j + 1
            st[G_SUB] = SUB_START
        elif ph == PH_END:
            end_round_nb(st, ev, rng, P, legends, strat, sp, wk)
            st[G_PHASE] = PH_START
        else:
            return DEC_NONE


@njit(cache=True)
def play_round_nb(st, ev, rng, P, tr, cards, legends, strat, sp, fs, wk):
    """One round of a table without a search seat."""
    st[G_PHASE] = PH_START
    advance_nb(st, ev, rng, P, tr, cards, legends, strat, sp, fs, wk, st[G_ROUND] + 1)


@njit(cache=True)
def rest_of_round_nb(st, ev, rng, P, tr, legends, strat, sp, fs, wk):
    """The round after its cards turned up, for tables without a search seat (tests):
    choose, reveal, resolve, Cove, black ships."""
    st[G_PHASE] = PH_CHOOSE
    st[G_CUR] = 0
    fs[FS_READY] = 0.0
    no_cards = np.zeros((0, 0, 4), np.int32)  # the next round's cards: never reached (stop_round)
    advance_nb(st, ev, rng, P, tr, no_cards, legends, strat, sp, fs, wk, st[G_ROUND] + 1)


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


@njit(cache=True)
def finish_nb(st, ev, rng, P, strat, sp, wk):
    """Fame cards score; most fame wins; a tie is settled by a final combat."""
    n = P.n_seats
    best = -1
    for s in range(n):
        b = sb_nb(s)
        f = st[b + S_FAME_CARDS]
        st[b + S_F_CARDS] = f
        st[b + S_FAME] += f
        if st[b + S_FAME] > best:
            best = st[b + S_FAME]
    units = wk[0:MAX_UNITS]
    m = 0
    for s in range(n):
        if st[sb_nb(s) + S_FAME] == best:
            units[m] = s
            m += 1
    if m == 1:
        st[G_WINNER] = units[0]
        st[G_END] = END_MOST_FAME
    else:
        log_nb(st, ev, -1, EV_TIE, m, best, 0)
        keep = wk[32:32 + MAX_SEATS * N_SECTIONS]  # the tie-break costs nothing: levels restored
        for s in range(n):
            for k in range(N_SECTIONS):
                keep[s * N_SECTIONS + k] = st[sb_nb(s) + S_SEC + k]
        # its volleys, hits and dice are counted apart (G_TIE_*), not in the game's own
        # volleys / hits / dice_rolled, which count the 12 rounds' play as `fights` does
        v0 = st[G_VOLLEYS]
        d0 = dice_rolled_nb(rng)
        hv = wk[52:52 + MAX_SEATS]
        for s in range(n):
            hv[s] = st[sb_nb(s) + S_VOLLEYS] * 65536 + st[sb_nb(s) + S_HITS]
        w = fight_nb(st, ev, rng, P, strat, sp, 0, units, m, True)
        st[G_TIE_VOLLEYS] = st[G_VOLLEYS] - v0
        st[G_VOLLEYS] = v0
        st[G_TIE_DICE] = dice_rolled_nb(rng) - d0
        for s in range(n):
            b = sb_nb(s)
            st[G_TIE_HITS] += st[b + S_HITS] - hv[s] % 65536
            st[b + S_VOLLEYS] = hv[s] // 65536
            st[b + S_HITS] = hv[s] % 65536
            for k in range(N_SECTIONS):
                st[b + S_SEC + k] = keep[s * N_SECTIONS + k]
        st[G_TIE] = 1
        st[G_WINNER] = w
        st[G_END] = END_TIE_COMBAT if w >= 0 else END_TIE_UNRESOLVED
    log_nb(st, ev, st[G_WINNER], EV_END, st[G_WINNER], st[G_END], best)


@njit(cache=True)
def write_outputs_nb(st, rng, P, out_g, out_s):
    out_g[0] = st[G_WINNER]
    out_g[1] = st[G_ROUND] * P.n_seats  # turns: one seat's round each
    out_g[2] = st[G_END]
    out_g[3] = 0  # every game is `rounds` rounds: never truncated
    out_g[4] = st[G_FIRST]
    out_g[5] = dice_rolled_nb(rng) - st[G_TIE_DICE]
    out_g[6] = st[G_FIGHTS]
    out_g[7] = st[G_VOLLEYS]
    out_g[8] = st[G_BLACK_SUNK]
    out_g[9] = st[G_STALEMATES]
    out_g[10] = st[G_RESHUFFLES]
    out_g[11] = st[G_TIE]
    out_g[12] = st[G_TIE_VOLLEYS]
    out_g[13] = st[G_TIE_HITS]
    out_g[14] = st[G_TIE_DICE]
    for r in range(MAX_ROUNDS):
        out_g[15 + r] = st[G_ROUND_LOG + r]
    for s in range(P.n_seats):
        b = sb_nb(s)
        o = out_s[s]
        o[0] = st[b + S_FAME]
        o[1] = st[b + S_F_CHESTS]
        o[2] = st[b + S_F_GOLD]
        o[3] = st[b + S_F_COMBAT]
        o[4] = st[b + S_F_BLACK]
        o[5] = st[b + S_F_TREASURE]
        o[6] = st[b + S_F_CARDS]
        o[7] = st[b + S_F_MUTINY]
        o[8] = st[b + S_GOLD]
        o[9] = st[b + S_CHESTS]
        o[10] = st[b + S_BURIED_CHESTS]
        o[11] = st[b + S_BURIED_GOLD]
        for k in range(N_SECTIONS):
            o[12 + k] = st[b + S_UPG + k]
            o[16 + k] = st[b + S_SEC0 + k]
            o[20 + k] = st[b + S_SEC + k]
        o[24] = st[b + S_FIGHTS]
        o[25] = st[b + S_FLIGHTS]
        o[26] = st[b + S_MUTINIES]
        o[27] = st[b + S_CRIPPLED]
        o[28] = st[b + S_CRIPPLES]
        o[29] = st[b + S_VOLLEYS]
        o[30] = st[b + S_HITS]
        o[31] = st[b + S_BOUGHT]
        o[32] = st[b + S_COVE_CARDS]
        o[33] = st[b + S_PLAYED]
        o[34] = st[b + S_DRAWN]
        for g in range(6):
            o[35 + g] = st[b + S_HELD + g]
        o[41] = st[b + S_NAVY_FIGHTS]
        o[42] = st[b + S_NAVY_WINS]
        o[43] = st[b + S_NAVY_LOSSES]
        o[44] = st[b + S_LEGEND_FIGHTS]
        o[45] = st[b + S_LEGEND_WINS]
        o[46] = st[b + S_CARDS_WON]
        for i in range(7):
            o[47 + i] = st[b + S_VISITS + i]
        o[54] = st[b + S_COVE_GOLD]
        o[55] = st[b + S_LOST_GOLD]
        o[56] = st[b + S_LOST_CHESTS]
        o[57] = st[b + S_SPENT]
        o[58] = st[b + S_GOLD_TAKEN]
        o[59] = st[b + S_CHESTS_TAKEN]
        o[60] = st[b + S_FAME_CARDS]
        o[61] = 1 if st[G_WINNER] == s else 0
        o[62] = st[b + S_FAME] - st[b + S_F_CARDS]
        o[63] = st[b + S_F_BARGE]


# ------------------------------------------------------------------ odds: the kernel's own combat
@njit(cache=True)
def volley_hits_mc_nb(seed, samples, dice, hit_min, counts):
    """counts[h] += volleys of ``dice`` dice with ``h`` hits (the kernel's roll loop)."""
    rng = np.zeros(RNG_WORDS, np.uint64)
    seed_game_nb(rng, seed, 0)
    for _ in range(samples):
        hits = 0
        for _ in range(dice):
            if roll_die_nb(rng, 6) >= hit_min:
                hits += 1
        counts[hits] += 1


@njit(cache=True)
def bombard_mc_nb(seed, samples, P, strat, sp, dice, level, counts):
    """Volleys of ``dice`` dice (the kernel's ``volley_nb``, planned shooter) at a ship whose
    weakest section has ``level``: counts[v] += samples crippled at volley v (1..), counts[0]
    += samples still afloat after len(counts) - 1 volleys."""
    st = np.zeros(STATE_WORDS, np.int32)
    ev = np.zeros((0, 6), np.int32)
    rng = np.zeros(RNG_WORDS, np.uint64)
    seed_game_nb(rng, seed, 0)
    max_v = counts.shape[0] - 1
    base = G_FIGHT
    for _ in range(samples):
        for k in range(N_SECTIONS):
            st[sb_nb(0) + S_SEC + k] = dice
            st[sb_nb(1) + S_SEC + k] = MAX_LEVEL
        st[sb_nb(1) + S_SEC + HULL] = level
        st[sb_nb(0) + S_ENTRY] = 0
        st[sb_nb(1) + S_ENTRY] = 1
        st[base + F_N] = 2
        st[base + F_UNITS] = 0
        st[base + F_UNITS + 1] = 1
        st[base + F_ACTIVE] = 1
        st[base + F_ACTIVE + 1] = 1
        st[base + F_BONUS] = 0
        done = 0
        for v in range(1, max_v + 1):
            volley_nb(st, ev, rng, P, strat, sp, 0, True)
            if st[base + F_ACTIVE + 1] == 0:
                done = v
                break
        counts[done] += 1


@njit(cache=True)
def duel_mc_nb(seed, samples, P, strat, sp, a_sec, b_sec, out):
    """Fights of seat 0 (sections ``a_sec``) against seat 1 (``b_sec``) with the kernel's
    own ``fight_nb`` (planned shooters, nobody flees, no cards): out[0] += seat 0 wins,
    out[1] += volleys fired."""
    st = np.zeros(STATE_WORDS, np.int32)
    ev = np.zeros((0, 6), np.int32)
    rng = np.zeros(RNG_WORDS, np.uint64)
    wk = np.zeros(WK_SIZE, np.int64)
    seed_game_nb(rng, seed, 0)
    for _ in range(samples):
        for k in range(N_SECTIONS):
            st[sb_nb(0) + S_SEC + k] = a_sec[k]
            st[sb_nb(1) + S_SEC + k] = b_sec[k]
        st[sb_nb(0) + S_ENTRY] = 0
        st[sb_nb(1) + S_ENTRY] = 1
        wk[0] = 0
        wk[1] = 1
        v0 = st[G_VOLLEYS]
        w = fight_nb(st, ev, rng, P, strat, sp, 2, wk, 2, True)
        out[0] += 1 if w == 0 else 0
        out[1] += st[G_VOLLEYS] - v0
