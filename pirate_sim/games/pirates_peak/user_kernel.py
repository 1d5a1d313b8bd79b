"""The kernel of Pirate's Peak tables with strategies of one's own (compiled once, whatever the files).

User functions are called by address (pirate_sim/user_abi.py); ``calls`` holds the
addresses and the read-only board handed to them.  The rest is the bulk
kernel's game loop (kernel.play_rest_nb, play_game_nb, play_chunk_nb) with one change: at
the declaration of a seat whose entry has a user function, with more than one legal
declaration, the function picks among them (the options listed as the search player lists
them) from a fresh view (user_view.fill_view_nb); every other choice of that seat is its
base strategy's (its row of ``sd``).  An index outside the options ends the game
(truncated) and is reported in ``err``; the caller raises.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from pirate_sim.games.pirates_peak import kernel as K
from pirate_sim.games.pirates_peak.rules import (ACT_FIRE, ACT_SAIL, ACT_SEARCH, END_TRUNCATED, G_N_EV, G_OVER,
                                                 G_TURNS, ROW_EV, ROW_ST, RU_STRATEGY_SEATING, RU_TURN_CAP,
                                                 RU_WORK_WIDTH, SD_RULES)
from pirate_sim.games.pirates_peak.user_view import USER_STREAM, fill_view_nb
from pirate_sim.rng import RNG_WORDS, seed_game_nb
from pirate_sim.user_abi import call_user_nb
from pirate_sim.search import derive_stream_nb
from pirate_sim.seating import entry_of_seat_nb

@njit(cache=True)
def user_choose_nb(fi, view, options, params, rng, calls):
    """What user function ``fi`` answers (pirate_sim/user_abi.py: a call by address)."""
    return call_user_nb(calls, fi, view, options, params, rng)


@njit(cache=True, _nrt=False)
def user_play_rest_nb(sd, rng, w, cur, ufn, uparams, ent, calls, view, opts, urng, err):
    """kernel.play_rest_nb to the end of the game, with the user seats' declarations;
    ``ent[s]``: the entry playing seat s in this game."""
    while w[ROW_ST, G_OVER] == 0:
        if w[ROW_ST, G_TURNS] >= sd[SD_RULES, RU_TURN_CAP]:
            K.end_game_nb(w, END_TRUNCATED, -1)
            break
        e = ent[cur]
        f = ufn[e]
        if f < 0:
            steps = K.turn_steps_nb(sd, rng, w, cur)
        else:
            steps = K.turn_begin_nb(sd, rng, w, cur)
            if steps < 0:
                can_search = K.can_search_nb(w, cur)
                can_fire = 1 if K.can_fire_nb(sd, w, cur) else 0
                n = 1
                opts[0] = ACT_SAIL
                if can_search != 0:
                    opts[n] = ACT_SEARCH
                    n += 1
                if can_fire != 0:
                    opts[n] = ACT_FIRE
                    n += 1
                act = ACT_SAIL
                if n > 1:
                    fill_view_nb(w, cur, can_search, can_fire, view)
                    derive_stream_nb(urng, rng, w[ROW_ST, G_TURNS], USER_STREAM)
                    for i in range(n):  # the function gets its own copy of the options
                        opts[K.MAX_OPTIONS + i] = opts[i]
                    c = user_choose_nb(f, view, opts[K.MAX_OPTIONS:K.MAX_OPTIONS + n], uparams[e], urng, calls)
                    if c < 0 or c >= n:
                        err[0] = f + 1
                        err[1] = w[ROW_ST, G_TURNS]
                        err[2] = c
                        err[3] = n
                        K.end_game_nb(w, END_TRUNCATED, -1)
                        break
                    act = opts[c]
                steps = K.turn_act_nb(sd, rng, w, cur, act)
        K.finish_move_nb(sd, rng, w, cur, steps)
        cur = 1 - cur


@njit(cache=True, _nrt=False)
def user_play_game_nb(sd, rng, w, deck_order, out_games, out_seats, k, game_index, ufn, uparams, calls, view, opts,
                      urng, err, ent):
    """kernel.play_game_nb with user seats (``ent``: scratch for the entry of each seat).
    Like the package's game kernels it runs without reference counting (it allocates
    nothing): with it, every call of a non-inlined kernel inside the turn counts references
    to its arrays, which more than halved the games per second here."""
    rotate = sd[SD_RULES, RU_STRATEGY_SEATING] != 0
    for s in range(2):
        ent[s] = entry_of_seat_nb(s, game_index, 2, rotate)
    cur = K.setup_game_nb(sd, rng, w, deck_order, game_index)
    user_play_rest_nb(sd, rng, w, cur, ufn, uparams, ent, calls, view, opts, urng, err)
    K.finish_nb(rng, w, out_games, out_seats, k)


@njit(cache=True, parallel=True, nogil=True)
def user_play_chunk_nb(sd, seed, first_game, ufn, uparams, calls, view_len, err, out_games, out_seats):
    """kernel.play_chunk_nb with user seats; ``err`` int64[n, 4] per game (0: fine)."""
    n = out_games.shape[0]
    n_blocks = min(K.N_BLOCKS, n)
    for b in prange(n_blocks):
        lo = (n * b) // n_blocks
        hi = (n * (b + 1)) // n_blocks
        rng = np.zeros(RNG_WORDS, dtype=np.uint64)
        w = np.zeros((ROW_EV, sd[SD_RULES, RU_WORK_WIDTH]), dtype=np.int32)
        sd_block = sd.copy()
        order = np.zeros(0, dtype=np.int32)
        rotate = sd[SD_RULES, RU_STRATEGY_SEATING] != 0
        view = np.zeros(view_len, np.int32)
        opts = np.zeros(2 * K.MAX_OPTIONS, np.int32)
        urng = np.zeros(RNG_WORDS, np.uint64)
        ent = np.zeros(2, np.int64)
        for k in range(lo, hi):
            seed_game_nb(rng, seed, first_game + k)
            if rotate:
                K.seat_strategies_nb(sd, sd_block, first_game + k)
            user_play_game_nb(sd_block, rng, w, order, out_games, out_seats, k, first_game + k, ufn, uparams, calls,
                              view, opts, urng, err[k], ent)


@njit(cache=True)
def user_play_one_nb(sd, rng, w, deck_order, out_games, out_seats, game_index, ufn, uparams, calls, view_len, err):
    """One game on a given work array ``w`` (a trace's, with room for events)."""
    view = np.zeros(view_len, np.int32)
    opts = np.zeros(2 * K.MAX_OPTIONS, np.int32)
    urng = np.zeros(RNG_WORDS, np.uint64)
    ent = np.zeros(2, np.int64)
    user_play_game_nb(sd, rng, w, deck_order, out_games, out_seats, 0, game_index, ufn, uparams, calls, view, opts,
                      urng, err, ent)
    return w[ROW_ST, G_N_EV]
