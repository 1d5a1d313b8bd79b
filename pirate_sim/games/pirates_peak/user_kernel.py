"""The kernel of Pirate's Peak tables with strategies of one's own (compiled once, whatever the files).

User functions are called by address (pirate_sim/user_abi.py); ``calls`` holds the
addresses and the read-only board handed to them.  The rest is the bulk
kernel's game loop (whole_game.play_rest_nb, play_game_nb, kernel.play_chunk_nb) with one change: at
the declaration of a seat whose entry has a user function, with more than one legal
declaration, the function picks among them (the options listed as the search player lists
them) from a fresh view (user_view.fill_view_nb); every other choice of that seat is its
base strategy's (its row of ``sd``).  An index outside the options ends the game
(truncated) and is reported in ``err``; the caller raises.  A table that also seats
``search`` plays search_player.play_search_game_nb's loop with the same hook
(``user_search_chunk_nb``; its own entry point, so that a table without search never
compiles the search player).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from pirate_sim.games.pirates_peak.kernel import N_BLOCKS, block_of_chunk_nb
from pirate_sim.games.pirates_peak.mechanics import end_game_nb
from pirate_sim.games.pirates_peak.rules import (ACT_FIRE, ACT_SAIL, ACT_SEARCH, END_TRUNCATED, G_N_EV, G_OVER,
                                                 G_TURNS, ROW_ST, RU_STRATEGY_SEATING, RU_TURN_CAP, SD_RULES, SD_SP,
                                                 SP_SEARCH)
from pirate_sim.games.pirates_peak.sea import can_fire_nb
from pirate_sim.games.pirates_peak.search_player import (MAX_OPTIONS, search_declare_nb, search_move_nb,
                                                         search_scratch_nb)
from pirate_sim.games.pirates_peak.turn import can_search_nb, scripted_declare_nb, turn_act_nb, turn_begin_nb, \
    turn_steps_nb
from pirate_sim.games.pirates_peak.user_view import USER_STREAM, fill_view_nb
from pirate_sim.games.pirates_peak.whole_game import finish_move_nb, finish_nb, setup_game_nb, start_game_nb
from pirate_sim.rng import RNG_WORDS
from pirate_sim.user_abi import call_user_nb
from pirate_sim.search import derive_stream_nb
from pirate_sim.seating import entry_of_seat_nb


@njit(cache=True)
def user_choose_nb(fi, view, options, params, rng, calls):
    """What user function ``fi`` answers (pirate_sim/user_abi.py: a call by address)."""
    return call_user_nb(calls, fi, view, options, params, rng)


@njit(cache=True, _nrt=False)
def user_declare_nb(sd, rng, w, cur, f, params, calls, view, opts, urng, err):
    """User seat ``cur``'s declaration (function ``f``, parameters ``params``): with more than
    one legal declaration, the function's pick from a fresh view; an ACT_*, or -1 after an
    illegal answer (``err`` set, the game ended truncated)."""
    can_search = can_search_nb(w, cur)
    can_fire = 1 if can_fire_nb(sd, w, cur) else 0
    n = 1
    opts[0] = ACT_SAIL
    if can_search != 0:
        opts[n] = ACT_SEARCH
        n += 1
    if can_fire != 0:
        opts[n] = ACT_FIRE
        n += 1
    if n == 1:
        return ACT_SAIL
    fill_view_nb(w, cur, can_search, can_fire, view)
    derive_stream_nb(urng, rng, w[ROW_ST, G_TURNS], USER_STREAM)
    for i in range(n):  # the function gets its own copy of the options
        opts[MAX_OPTIONS + i] = opts[i]
    c = user_choose_nb(f, view, opts[MAX_OPTIONS:MAX_OPTIONS + n], params, urng, calls)
    if c < 0 or c >= n:
        err[0] = f + 1
        err[1] = w[ROW_ST, G_TURNS]
        err[2] = c
        err[3] = n
        end_game_nb(w, END_TRUNCATED, -1)
        return -1
    return opts[c]


@njit(cache=True, _nrt=False)
def user_play_rest_nb(sd, rng, w, cur, ufn, uparams, ent, calls, view, opts, urng, err):
    """whole_game.play_rest_nb to the end of the game, with the user seats' declarations;
    ``ent[s]``: the entry playing seat s in this game."""
    while w[ROW_ST, G_OVER] == 0:
        if w[ROW_ST, G_TURNS] >= sd[SD_RULES, RU_TURN_CAP]:
            end_game_nb(w, END_TRUNCATED, -1)
            break
        e = ent[cur]
        f = ufn[e]
        if f < 0:
            steps = turn_steps_nb(sd, rng, w, cur)
        else:
            steps = turn_begin_nb(sd, rng, w, cur)
            if steps < 0:
                act = user_declare_nb(sd, rng, w, cur, f, uparams[e], calls, view, opts, urng, err)
                if act < 0:
                    break
                steps = turn_act_nb(sd, rng, w, cur, act)
        finish_move_nb(sd, rng, w, cur, steps)
        cur = 1 - cur


@njit(cache=True, _nrt=False)
def user_play_game_nb(sd, rng, w, deck_order, out_games, out_seats, k, game_index, ufn, uparams, calls, view, opts,
                      urng, err, ent):
    """whole_game.play_game_nb with user seats (``ent``: scratch for the entry of each seat).
    Like the package's game kernels it runs without reference counting (it allocates
    nothing): with it, every call of a non-inlined kernel inside the turn counts references
    to its arrays, which more than halved the games per second here."""
    rotate = sd[SD_RULES, RU_STRATEGY_SEATING] != 0
    for s in range(2):
        ent[s] = entry_of_seat_nb(s, game_index, 2, rotate)
    cur = setup_game_nb(sd, rng, w, deck_order, game_index)
    user_play_rest_nb(sd, rng, w, cur, ufn, uparams, ent, calls, view, opts, urng, err)
    finish_nb(rng, w, out_games, out_seats, k)


@njit(cache=True)
def user_scratch_nb(view_len):
    """(view, opts, urng, ent): a user game's scratch (the view handed to the functions, the
    options and their copy, the function's stream, the entry of each seat)."""
    return (np.zeros(view_len, np.int32), np.zeros(2 * MAX_OPTIONS, np.int32), np.zeros(RNG_WORDS, np.uint64),
            np.zeros(2, np.int64))


@njit(cache=True, parallel=True, nogil=True)
def user_play_chunk_nb(sd, seed, first_game, ufn, uparams, calls, view_len, err, out_games, out_seats):
    """kernel.play_chunk_nb with user seats; ``err`` int64[n, 4] per game (0: fine)."""
    n = out_games.shape[0]
    for b in prange(min(N_BLOCKS, n)):
        lo, hi, rng, w, sd_block, order, rotate = block_of_chunk_nb(sd, n, b)
        view, opts, urng, ent = user_scratch_nb(view_len)
        for k in range(lo, hi):
            start_game_nb(sd, sd_block, rng, seed, first_game + k, rotate)
            user_play_game_nb(sd_block, rng, w, order, out_games, out_seats, k, first_game + k, ufn, uparams, calls,
                              view, opts, urng, err[k], ent)


@njit(cache=True)
def user_play_one_nb(sd, rng, w, deck_order, out_games, out_seats, game_index, ufn, uparams, calls, view_len, err):
    """One game on a given work array ``w`` (a trace's, with room for events)."""
    view, opts, urng, ent = user_scratch_nb(view_len)
    user_play_game_nb(sd, rng, w, deck_order, out_games, out_seats, 0, game_index, ufn, uparams, calls, view, opts,
                      urng, err, ent)
    return w[ROW_ST, G_N_EV]


# ---------------------------------------------------------------- with a searching seat too
@njit(cache=True, _nrt=False)
def user_search_game_nb(sd, rng, w, deck_order, out_games, out_seats, k, game_index, ufn, uparams, calls, view, uopts,
                        urng, err, ent, sd_roll, w2, rng2, opts, alive, sums, counts, scores, rec, cnt, snap_w,
                        snap_rng, snap_i):
    """search_player.play_search_game_nb with user seats: a searching seat's choices are the
    search's, a user seat's declaration its function's (its other choices its base
    strategy's), every other choice the scripted one.  The search's rollouts play every seat
    as its rollout strategy: the user function is never called inside a rollout."""
    rotate = sd[SD_RULES, RU_STRATEGY_SEATING] != 0
    for s in range(2):
        ent[s] = entry_of_seat_nb(s, game_index, 2, rotate)
    cur = np.int64(setup_game_nb(sd, rng, w, deck_order, game_index))
    while w[ROW_ST, G_OVER] == 0:
        if w[ROW_ST, G_TURNS] >= sd[SD_RULES, RU_TURN_CAP]:
            end_game_nb(w, END_TRUNCATED, -1)
            break
        steps = turn_begin_nb(sd, rng, w, cur)
        if steps < 0:
            f = ufn[ent[cur]]
            if sd[SD_SP + cur, SP_SEARCH] != 0:
                act = search_declare_nb(sd, rng, w, cur, sd_roll, w2, rng2, opts, alive, sums, counts, scores, rec,
                                        cnt, snap_w, snap_rng, snap_i)
            elif f >= 0:
                act = user_declare_nb(sd, rng, w, cur, f, uparams[ent[cur]], calls, view, uopts, urng, err)
                if act < 0:
                    break
            else:
                act = scripted_declare_nb(sd, rng, w, cur)
            steps = turn_act_nb(sd, rng, w, cur, act)
        search_move_nb(sd, rng, w, cur, steps, sd_roll, w2, rng2, opts, alive, sums, counts, scores, rec, cnt,
                       snap_w, snap_rng, snap_i)
        cur = 1 - cur
    finish_nb(rng, w, out_games, out_seats, k)


@njit(cache=True, parallel=True, nogil=True)
def user_search_chunk_nb(sd, seed, first_game, ufn, uparams, calls, view_len, err, out_games, out_seats):
    """user_play_chunk_nb for a table with a searching seat (kernel.play_search_chunk_nb's blocks)."""
    n = out_games.shape[0]
    for b in prange(min(N_BLOCKS, n)):
        lo, hi, rng, w, sd_block, order, rotate = block_of_chunk_nb(sd, n, b)
        view, uopts, urng, ent = user_scratch_nb(view_len)
        (sd_roll, w2, rng2, opts, alive, sums, counts, scores, rec, cnt, snap_w, snap_rng,
         snap_i) = search_scratch_nb(sd, w.shape[1], 0, 0)
        for k in range(lo, hi):
            start_game_nb(sd, sd_block, rng, seed, first_game + k, rotate)
            user_search_game_nb(sd_block, rng, w, order, out_games, out_seats, k, first_game + k, ufn, uparams,
                                calls, view, uopts, urng, err[k], ent, sd_roll, w2, rng2, opts, alive, sums, counts,
                                scores, rec, cnt, snap_w, snap_rng, snap_i)


@njit(cache=True)
def user_search_one_nb(sd, rng, w, deck_order, out_games, out_seats, game_index, ufn, uparams, calls, view_len, err):
    """user_play_one_nb for a table with a searching seat (a trace)."""
    view, uopts, urng, ent = user_scratch_nb(view_len)
    (sd_roll, w2, rng2, opts, alive, sums, counts, scores, rec, cnt, snap_w, snap_rng,
     snap_i) = search_scratch_nb(sd, w.shape[1], 0, 0)
    user_search_game_nb(sd, rng, w, deck_order, out_games, out_seats, 0, game_index, ufn, uparams, calls, view, uopts,
                        urng, err, ent, sd_roll, w2, rng2, opts, alive, sums, counts, scores, rec, cnt, snap_w,
                        snap_rng, snap_i)
    return w[ROW_ST, G_N_EV]
