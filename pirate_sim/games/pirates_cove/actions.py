"""Pirate's Cove kernel, part 1: the event log, small helpers, Tavern cards, Treasure cards,
upgrades, an island's action for a ship alone, Treasure Island, and the search seats' pending
decisions (``pend_nb`` / ``forced_nb``).

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

The kernel's modules, each importing only those before it: ``actions.py`` (this one),
``combat.py``, ``rounds.py`` (islands, the round, the end, ``advance_nb``), ``whole_game.py``
(set-up and the outputs row), ``search_player.py`` (what the search knows of the game) and
``protocol.py`` (the game on the decision protocol: the engine plays whole games, chunks, traces,
strategy files and the search).

May import: ``rules``, ``ship``, ``policies`` of this game, ``pirate_sim.rng`` and
``games/kernel_base.py``.
"""

from __future__ import annotations

from numba import njit

from ..kernel_base import log_event_nb
from ...rng import shuffle_nb
from .policies import (SP_SEARCH, bury_gold_nb, play_mastercraft_nb, tavern_buys_nb, treasure_upgrade_nb,
                       upgrade_levels_nb)
from .rules import (B_FAME, DEC_BUY, DEC_NONE, DEC_TI, DEC_UPGRADE, EV_BURY, EV_BUY, EV_DRAW, EV_OVERBOARD, EV_PLAY,
                    EV_PLUNDER, EV_RESHUFFLE, EV_TAKE, EV_UPGRADE, FAME, FORCED_BIAS, G_BURIED_CHESTS, G_BURIED_GOLD,
                    G_CARD, G_CARD_LIVE, G_DEC, G_DECK_N, G_DEC_SEAT, G_DISC_N, G_EVENTS, G_FORCED, G_FREE,
                    G_RESHUFFLES, G_ROUND, G_SUB, G_SUPPLY_CHESTS, G_SUPPLY_GOLD, G_TDECK, G_TDISC, MASTERCRAFT,
                    S_BOUGHT, S_BURIED_CHESTS, S_BURIED_GOLD, S_CARDS_WON, S_CHESTS, S_CHESTS_TAKEN, S_DRAWN, S_ENTRY,
                    S_FAME, S_FAMEV, S_FAME_CARDS, S_F_BARGE, S_F_BLACK, S_F_CHESTS, S_F_GOLD, S_F_TREASURE, S_GOLD,
                    S_GOLD_TAKEN, S_HAND, S_HELD, S_LOST_CHESTS, S_PLAYED, S_SEC, S_SPENT, S_UPG, TAVERN, TRELAWNEY)
from .ship import bb_nb, black_at_nb, capacity_nb, level_cost_nb, room_nb, sb_nb

WK_SIZE = 64
# G_SUB: the step within an island (or a Treasure Island turn) where play resumes
SUB_START, SUB_FIGHT, SUB_TAKE, SUB_SPEND, SUB_LEVELS = range(5)


# ------------------------------------------------------------------ small helpers
@njit(cache=True, inline="always")
def log_nb(st, ev, seat, kind, a, b, c):
    log_event_nb(st, ev, G_EVENTS, st[G_ROUND] + 1, seat, kind, a, b, c)


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
