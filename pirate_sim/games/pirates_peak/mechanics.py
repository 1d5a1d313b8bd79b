"""Pirate's Peak kernels, part 1: the dice mechanics (``odds.py`` samples these very
functions) and the small state helpers every rule uses: the event log, flipping Sea cards,
ending the game, life points, the gold supply, buying.

Arguments ``sd`` (static table), ``rng`` (the game's stream) and ``w`` (work array), the
``_nrt=False`` and the plain-Python run: see kernel.py's docstring.

May import the game's ``rules``, ``columns``, ``strategies`` and ``board`` (and ``games/kernel_base.py``);
no other kernel module (the kernel modules import in the order mechanics -> sea -> turn ->
whole_game -> search_player -> kernel).
"""

from __future__ import annotations

from numba import njit

from ...rng import rand_below_nb, roll_die_nb
from ..kernel_base import append_event_nb
from .columns import C_BALLS_BOUGHT, C_CREW_BOUGHT, C_LIFE_LOST, C_UNPAID
from .rules import (END_SUNK, EV_BUY, EV_END, EV_FLIP, EV_LIFE, EV_RETURN_PEAK, G_DECK_PTR, G_END, G_FLIPPED, G_ISLANDS,
                    G_N_EV, G_N_LAID, G_OUT_CARDS, G_OVER, G_PEAK_X, G_RESHUFFLES, G_SEA_BANK, G_SUPPLY, G_SUPPLY_DRY,
                    G_TURNS, G_WINNER, ISLAND, ROW_CARD, ROW_CNT, ROW_DECK, ROW_EV, ROW_SHIP, ROW_ST, ROW_TRACK,
                    RU_CANNONBALL_PRICE, RU_CREWMAN_PRICE, RU_GOLD_SUPPLY, RU_MAX_CANNONBALLS, RU_MAX_CREW,
                    RU_N_JOURNEY, RU_PEAK_CARD, RU_PEAK_EARLIEST_FLIP, SD_CARD0, SD_LEN, SD_RULES, SH_BALLS, SH_CREW,
                    SH_GOLD, SH_LIFE)


# ================================================================ mechanics (odds too)


@njit(cache=True, _nrt=False)
def squid_attempt_nb(rng, n_dice):
    """One attempt against the Giant Squid: the total of ``n_dice`` dice."""
    total = 0
    for _ in range(n_dice):
        total += roll_die_nb(rng, 6)
    return total


@njit(cache=True, _nrt=False)
def whirlpool_attempt_nb(rng, escape_roll):
    """One roll inside a whirlpool: (die, escaped)."""
    r = roll_die_nb(rng, 6)
    return r, r >= escape_roll


@njit(cache=True, _nrt=False)
def fog_attempt_nb(rng, guess, tolerance):
    """Roll in the fog after calling ``guess``: (die, within tolerance)."""
    r = roll_die_nb(rng, 6)
    return r, abs(r - guess) <= tolerance


@njit(cache=True, _nrt=False)
def interrupt_roll_nb(rng, partial_multiplier):
    """Searcher rolls, then attacker: (searcher, attacker, gold found, outcome).

    outcome 0: equal, no gold; 1: attacker higher, no gold and a life point; 2: partial.
    """
    s = roll_die_nb(rng, 6)
    a = roll_die_nb(rng, 6)
    if a == s:
        return s, a, 0, 0
    if a > s:
        return s, a, 0, 1
    return s, a, (s - a) * partial_multiplier, 2


@njit(cache=True, _nrt=False)
def ship_attack_roll_nb(rng):
    """Attacker rolls, then defender: (attacker, defender, hit) with hit on attacker > defender."""
    a = roll_die_nb(rng, 6)
    d = roll_die_nb(rng, 6)
    return a, d, a > d


# ================================================================ small helpers


@njit(cache=True, inline="always", _nrt=False)
def log_nb(w, code, seat, a, b, c, d):
    """Append one event row when the log has room (no event rows in bulk runs): the log is
    ``w``'s rows from ROW_EV on (``kernel_base.append_event_nb`` writes it)."""
    n = w[ROW_ST, G_N_EV]
    if append_event_nb(w, ROW_EV + n, code, seat, a, b, c, d):
        w[ROW_ST, G_N_EV] = n + 1


@njit(cache=True, _nrt=False)
def flip_nb(sd, rng, w):
    """Flip the next Sea card onto the end of the track (the Peak may not come too early)."""
    n_deck = sd[SD_RULES, RU_N_JOURNEY] + 1
    while True:
        ptr = w[ROW_ST, G_DECK_PTR]
        if ptr >= n_deck:
            return
        c = w[ROW_DECK, ptr]
        if (
            c == sd[SD_RULES, RU_PEAK_CARD]
            and w[ROW_ST, G_FLIPPED] + 1 < sd[SD_RULES, RU_PEAK_EARLIEST_FLIP]
        ):
            # rulebook: return it to the Sea Deck, shuffle, flip a new card
            w[ROW_ST, G_RESHUFFLES] += 1
            log_nb(w, EV_RETURN_PEAK, -1, w[ROW_ST, G_FLIPPED] + 1, 0, 0, 0)
            for i in range(n_deck - 1, ptr, -1):
                j = ptr + rand_below_nb(rng, i - ptr + 1)
                tmp = w[ROW_DECK, i]
                w[ROW_DECK, i] = w[ROW_DECK, j]
                w[ROW_DECK, j] = tmp
            continue
        w[ROW_ST, G_DECK_PTR] = ptr + 1
        w[ROW_ST, G_FLIPPED] += 1
        n = w[ROW_ST, G_N_LAID]
        length = sd[SD_CARD0 + c, SD_LEN]
        for k in range(length):
            w[ROW_TRACK, n + k] = sd[SD_CARD0 + c, k]
            w[ROW_CARD, n + k] = w[ROW_ST, G_FLIPPED]
            if sd[SD_CARD0 + c, k] == ISLAND:
                w[ROW_ST, G_ISLANDS] += 1
        w[ROW_ST, G_N_LAID] = n + length
        if c == sd[SD_RULES, RU_PEAK_CARD]:
            w[ROW_ST, G_PEAK_X] = n + length - 1
            w[ROW_ST, G_OUT_CARDS] = w[ROW_ST, G_FLIPPED] - 1
        log_nb(w, EV_FLIP, -1, c, w[ROW_ST, G_FLIPPED], n, length)
        return


@njit(cache=True, _nrt=False)
def ensure_laid_nb(sd, rng, w, d):
    """Flip cards until progress ``d`` lies on the table (only before the Peak is laid)."""
    while (
        w[ROW_ST, G_PEAK_X] < 0
        and d >= w[ROW_ST, G_N_LAID]
        and w[ROW_ST, G_DECK_PTR] <= sd[SD_RULES, RU_N_JOURNEY]
    ):
        flip_nb(sd, rng, w)


@njit(cache=True, inline="always", _nrt=False)
def end_game_nb(w, reason, winner):
    if w[ROW_ST, G_OVER] == 0:
        w[ROW_ST, G_OVER] = 1
        w[ROW_ST, G_END] = reason
        w[ROW_ST, G_WINNER] = winner
        log_nb(w, EV_END, -1, reason, winner, 0, 0)


@njit(cache=True, inline="always", _nrt=False)
def lose_life_nb(w, s, n):
    """``n`` life points lost (none: nothing happens); the last one loses the game at once."""
    if n <= 0:
        return
    lost = min(n, w[ROW_SHIP + s, SH_LIFE])
    w[ROW_SHIP + s, SH_LIFE] -= lost
    w[ROW_CNT + s, C_LIFE_LOST] += lost
    log_nb(w, EV_LIFE, s, w[ROW_SHIP + s, SH_LIFE], 0, 0, 0)
    if w[ROW_SHIP + s, SH_LIFE] <= 0:
        end_game_nb(w, END_SUNK, 1 - s)


@njit(cache=True, inline="always", _nrt=False)
def from_supply_nb(sd, w, s, amount):
    """Take up to ``amount`` gold out of the supply for seat s; returns what it held.

    The box holds ``gold.supply`` gold (RU_GOLD_SUPPLY: what is left after the starting
    gold; -1 unlimited); G_SUPPLY is its net take.  An empty supply pays what it has left:
    the rest is not paid (counted as unpaid_gold, and the turn it first ran dry)."""
    box = sd[SD_RULES, RU_GOLD_SUPPLY]
    paid = amount
    if box >= 0:
        paid = max(0, min(amount, box + w[ROW_ST, G_SUPPLY]))
        if paid < amount:
            w[ROW_CNT + s, C_UNPAID] += amount - paid
            if w[ROW_ST, G_SUPPLY_DRY] == 0:
                w[ROW_ST, G_SUPPLY_DRY] = max(1, w[ROW_ST, G_TURNS])
    w[ROW_ST, G_SUPPLY] -= paid
    return paid


@njit(cache=True, inline="always", _nrt=False)
def pay_nb(sd, w, s, amount):
    """Pay ``amount`` gold to seat s: from the Sea Bank while it has gold, then the supply
    (while it has gold).  Returns the gold paid."""
    from_bank = min(amount, w[ROW_ST, G_SEA_BANK])
    w[ROW_ST, G_SEA_BANK] -= from_bank
    paid = from_bank
    if amount > from_bank:
        paid += from_supply_nb(sd, w, s, amount - from_bank)
    w[ROW_SHIP + s, SH_GOLD] += paid
    return paid


@njit(cache=True, _nrt=False)
def buy_nb(sd, w, s, n_crew, n_balls):
    """Buy crewmen and cannonballs (clamped to room and gold); the gold goes to the supply."""
    nc = 0
    while (
        nc < n_crew
        and w[ROW_SHIP + s, SH_CREW] < sd[SD_RULES, RU_MAX_CREW]
        and w[ROW_SHIP + s, SH_GOLD] >= sd[SD_RULES, RU_CREWMAN_PRICE]
    ):
        w[ROW_SHIP + s, SH_CREW] += 1
        w[ROW_SHIP + s, SH_GOLD] -= sd[SD_RULES, RU_CREWMAN_PRICE]
        w[ROW_ST, G_SUPPLY] += sd[SD_RULES, RU_CREWMAN_PRICE]
        nc += 1
    nb = 0
    while (
        nb < n_balls
        and w[ROW_SHIP + s, SH_BALLS] < sd[SD_RULES, RU_MAX_CANNONBALLS]
        and w[ROW_SHIP + s, SH_GOLD] >= sd[SD_RULES, RU_CANNONBALL_PRICE]
    ):
        w[ROW_SHIP + s, SH_BALLS] += 1
        w[ROW_SHIP + s, SH_GOLD] -= sd[SD_RULES, RU_CANNONBALL_PRICE]
        w[ROW_ST, G_SUPPLY] += sd[SD_RULES, RU_CANNONBALL_PRICE]
        nb += 1
    w[ROW_CNT + s, C_CREW_BOUGHT] += nc
    w[ROW_CNT + s, C_BALLS_BOUGHT] += nb
    log_nb(w, EV_BUY, s, nc, nb, w[ROW_SHIP + s, SH_GOLD], 0)
