"""Pirate's Peak kernels, part 4: one whole game of scripted players: reset, the seats'
strategies for a game index, set-up (the deck, purchases, the first player), the game loop
and the outputs writer (``finish_nb``: every output column by name, ``columns.py``).

Arguments ``sd`` (static table), ``rng`` (the game's stream) and ``w`` (work array), the
``_nrt=False`` and the plain-Python run: see kernel.py's docstring.

May import ``rules``, ``columns``, ``strategies``, ``board``, ``mechanics``, ``sea`` and ``turn``
(and ``games/base.py`` for the standard game columns).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...rng import dice_rolled_nb, rand_below_nb, roll_die_nb
from ...seating import FP_RULE, entry_of_seat_nb, first_seat_nb
from .. import base
from .columns import (C_BALLS, C_CREW, C_FINAL_GOLD, C_LIFE, C_TREASURE, GC_DICE, GC_OUT_CARDS, GC_RESHUFFLES,
                      GC_SEA_BANK, GC_SUPPLY, GC_SUPPLY_DRY)
from .mechanics import buy_nb, end_game_nb, log_nb
from .rules import (END_TRUNCATED, EV_FIRST, EV_SETUP, G_END, G_FIRST, G_GHOST_X, G_N_LAID, G_OUT_CARDS, G_OVER,
                    G_PEAK_MASK, G_PEAK_X, G_RESHUFFLES, G_SEA_BANK, G_SUPPLY, G_SUPPLY_DRY, G_TURNS, G_WINNER, OPEN,
                    ROW_CARD, ROW_CNT, ROW_DECK, ROW_SHIP, ROW_ST, ROW_TRACK, RU_DOCK_SPACES, RU_FIRST_PLAYER,
                    RU_LIFE_POINTS, RU_N_JOURNEY, RU_PEAK_TAKEN_MASK, RU_START_GOLD, RU_STRATEGY_SEATING, RU_TURN_CAP,
                    SD_CODES, SD_RULES, SD_SP, SH_BALLS, SH_CREW, SH_DIG_X, SH_GOLD, SH_LAST_SEARCH,
                    SH_LIFE, SH_TREASURE)
from .sea import sail_nb
from .strategies import policy_buy_nb
from .turn import arrival_attempt_nb, turn_steps_nb


# ================================================================ one game


@njit(cache=True, _nrt=False)
def reset_nb(sd, w):
    """A fresh table: ships at the first dash of the dock with the starting gold."""
    for i in range(w.shape[1]):
        w[ROW_ST, i] = 0
    w[ROW_ST, G_WINNER] = -1
    w[ROW_ST, G_PEAK_X] = -1
    w[ROW_ST, G_GHOST_X] = -1
    w[ROW_ST, G_PEAK_MASK] = sd[SD_RULES, RU_PEAK_TAKEN_MASK]  # treasures not offered
    for s in range(2):
        for i in range(w.shape[1]):
            w[ROW_SHIP + s, i] = 0
        for i in range(w.shape[1]):
            w[ROW_CNT + s, i] = 0
        w[ROW_SHIP + s, SH_GOLD] = sd[SD_RULES, RU_START_GOLD]
        w[ROW_SHIP + s, SH_LIFE] = sd[SD_RULES, RU_LIFE_POINTS]
        w[ROW_SHIP + s, SH_LAST_SEARCH] = -1
        w[ROW_SHIP + s, SH_DIG_X] = -1
    for x in range(sd[SD_RULES, RU_DOCK_SPACES]):
        w[ROW_TRACK, x] = OPEN
        w[ROW_CARD, x] = 0
    w[ROW_ST, G_N_LAID] = sd[SD_RULES, RU_DOCK_SPACES]


@njit(cache=True, _nrt=False)
def seat_strategies_nb(sd_src, sd, game_index):
    """Copy into ``sd`` the strategy code and policy row each seat plays in game
    ``game_index`` (``rules.strategy_seating``: entry j of ``sd_src`` plays seat j, or the
    entries rotate over the seats from game to game)."""
    rotate = sd_src[SD_RULES, RU_STRATEGY_SEATING] != 0
    for s in range(2):
        e = entry_of_seat_nb(s, game_index, 2, rotate)
        sd[SD_CODES, s] = sd_src[SD_CODES, e]
        for i in range(sd.shape[1]):
            sd[SD_SP + s, i] = sd_src[SD_SP + e, i]


@njit(cache=True, _nrt=False)
def setup_game_nb(sd, rng, w, deck_order, game_index):
    """Reset, shuffle the Sea Deck (or use ``deck_order``), buy, choose the first player
    (``rules.first_player``: the rulebook's roll-off, rotation by game index, or random)."""
    reset_nb(sd, w)
    n = sd[SD_RULES, RU_N_JOURNEY] + 1
    if deck_order.shape[0] == n:
        for i in range(n):
            w[ROW_DECK, i] = deck_order[i]
    else:
        for i in range(n):
            w[ROW_DECK, i] = i
        for i in range(n - 1, 0, -1):  # Fisher-Yates, as rng.shuffle_nb
            j = rand_below_nb(rng, i + 1)
            tmp = w[ROW_DECK, i]
            w[ROW_DECK, i] = w[ROW_DECK, j]
            w[ROW_DECK, j] = tmp
    for s in range(2):
        nc, nb = policy_buy_nb(sd, rng, w, s, False)
        buy_nb(sd, w, s, nc, nb)
        log_nb(
            w,
            EV_SETUP,
            s,
            w[ROW_SHIP + s, SH_CREW],
            w[ROW_SHIP + s, SH_BALLS],
            w[ROW_SHIP + s, SH_GOLD],
            0,
        )
    mode = sd[SD_RULES, RU_FIRST_PLAYER]
    r0 = 0
    r1 = 0
    if mode == FP_RULE:
        while True:  # both roll, the higher goes first, ties roll again
            r0 = roll_die_nb(rng, 6)
            r1 = roll_die_nb(rng, 6)
            if r0 != r1:
                break
    first = first_seat_nb(mode, 0 if r0 > r1 else 1, game_index, 2, rng)
    w[ROW_ST, G_FIRST] = first
    log_nb(w, EV_FIRST, first, r0, r1, 0, 0)
    return first


@njit(cache=True, _nrt=False)
def finish_nb(rng, w, out_games, out_seats, k):
    """Write game k's standard and game columns and its seat rows (columns.py: every column by
    name).  A seat's columns are counted during the game in its row w[ROW_CNT + s, C_*] (the
    C_* codes of columns.py), which gets its end-of-game columns here and is copied whole."""
    for s in range(2):
        w[ROW_CNT + s, C_FINAL_GOLD] = w[ROW_SHIP + s, SH_GOLD]
        w[ROW_CNT + s, C_LIFE] = w[ROW_SHIP + s, SH_LIFE]
        w[ROW_CNT + s, C_CREW] = w[ROW_SHIP + s, SH_CREW]
        w[ROW_CNT + s, C_BALLS] = w[ROW_SHIP + s, SH_BALLS]
        w[ROW_CNT + s, C_TREASURE] = w[ROW_SHIP + s, SH_TREASURE]
        for c in range(out_seats.shape[2]):
            out_seats[k, s, c] = w[ROW_CNT + s, c]
    out_games[k, base.G_WINNER] = w[ROW_ST, G_WINNER]
    out_games[k, base.G_TURNS] = w[ROW_ST, G_TURNS]
    out_games[k, base.G_END] = w[ROW_ST, G_END]
    out_games[k, base.G_TRUNCATED] = 1 if w[ROW_ST, G_END] == END_TRUNCATED else 0
    out_games[k, base.G_FIRST_SEAT] = w[ROW_ST, G_FIRST]
    out_games[k, GC_DICE] = dice_rolled_nb(rng)
    out_games[k, GC_OUT_CARDS] = w[ROW_ST, G_OUT_CARDS]
    out_games[k, GC_RESHUFFLES] = w[ROW_ST, G_RESHUFFLES]
    out_games[k, GC_SEA_BANK] = w[ROW_ST, G_SEA_BANK]
    out_games[k, GC_SUPPLY] = w[ROW_ST, G_SUPPLY]
    out_games[k, GC_SUPPLY_DRY] = w[ROW_ST, G_SUPPLY_DRY]


@njit(cache=True, inline="always", _nrt=False)
def finish_move_nb(sd, rng, w, s, steps):
    """The rest of seat s's turn after its declaration or trap attempt: sail ``steps``
    spaces, then any at-once squid attempt (squid.first_attempt = arrival) and its move."""
    while steps > 0:
        sail_nb(sd, rng, w, s, steps)
        steps = arrival_attempt_nb(sd, rng, w, s)


@njit(cache=True, _nrt=False)
def more_turns_nb(sd, w, last_turn):
    """Is another turn played?  Not once the game is over or ``last_turn`` turns are played;
    at the turn cap the game ends there, truncated.  (Every loop over a game's turns.)"""
    if w[ROW_ST, G_OVER] != 0:
        return False
    if w[ROW_ST, G_TURNS] >= sd[SD_RULES, RU_TURN_CAP]:
        end_game_nb(w, END_TRUNCATED, -1)
        return False
    return w[ROW_ST, G_TURNS] < last_turn


@njit(cache=True, _nrt=False)
def play_rest_nb(sd, rng, w, cur, last_turn):
    """Play from the start of seat ``cur``'s turn to the end of the game (every seat by its
    strategy), or until ``last_turn`` turns have been played."""
    while more_turns_nb(sd, w, last_turn):
        steps = turn_steps_nb(sd, rng, w, cur)
        finish_move_nb(sd, rng, w, cur, steps)
        cur = 1 - cur


NO_LIMIT = 1 << 30  # a turn count no game reaches (play_rest_nb's last_turn: to the end)


@njit(cache=True, _nrt=False)
def play_game_nb(sd, rng, w, deck_order, out_games, out_seats, k, game_index):
    """Play game ``game_index`` on a seeded ``rng`` and write it as row k of the outputs
    (``sd`` already holds the seats' strategies for this game: :func:`seat_strategies_nb`;
    nobody is asked: protocol.next_decision_nb calls :func:`play_rest_nb` so where nobody is)."""
    cur = setup_game_nb(sd, rng, w, deck_order, game_index)
    # int64, not the constant's literal type: the search's rollouts call play_rest_nb with an
    # int64 turn limit, so they load this compiled version instead of compiling their own (20 s)
    play_rest_nb(sd, rng, w, cur, np.int64(NO_LIMIT))
    finish_nb(rng, w, out_games, out_seats, k)
