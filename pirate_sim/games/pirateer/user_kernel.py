"""Template of the kernel module generated for Pirateer strategies of one's own.

pirate_sim.user_strategy copies this file into its cache directory with the stub between
the dispatch markers replaced by calls of the user functions (numba cannot pass a jitted
function into a ``cache=True`` kernel).  Everything else is the bulk kernel's game loop
(kernel.step_nb, play_one_game_nb, play_chunk_nb) with one change: at a seat whose entry
has a user function (``ufn[entry] >= 0``) and more than one legal play, the function
chooses, from a fresh view (user_view.fill_view_nb), a copy of the plays, the seat's
read-only parameter row, a private stream and the read-only board.  An index outside the
plays stops the game (truncated) and is reported in ``err``; the caller raises.
Imports are absolute: the generated copy lives outside the package.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from pirate_sim.games.pirateer import kernel as K
from pirate_sim.games.pirateer.rules import END_TRUNCATED, EV_TRUNC, G_END, G_EVENTS, G_SEAT, G_TURN, PLAY_WIDTH, S_ENTRY
from pirate_sim.games.pirateer.user_view import USER_STREAM, VIEW_LEN, fill_view_nb
from pirate_sim.rng import RNG_WORDS, seed_game_nb
from pirate_sim.search import derive_stream_nb

# --- user dispatch: begin


@njit(cache=True)
def user_choose_nb(fi, view, options, params, rng, board):
    """Stub (the generated module calls user function ``fi`` here)."""
    return np.int64(0)


# --- user dispatch: end


@njit(cache=True, error_model="numpy")
def user_step_nb(st, ev, rng, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed, strat, sp, plays,
                 reach, union, hits, heat, ss, ufn, uparams, board, view, opts, urng, err):
    """kernel.step_nb with the user hook."""
    if st[G_END] >= 0:
        return
    if st[G_TURN] >= P.turn_cap:
        st[G_END] = END_TRUNCATED
        K.log_nb(st, ev, -1, EV_TRUNC, 0, 0, 0)
        return
    st[G_TURN] += 1
    n = K.begin_turn_nb(st, ev, rng, P, nb, kind, is_anchor, seat_allowed, plays)
    if n == 0:
        K.finish_turn_nb(st, ev, P, nb, kind, ss[0][0], heat)
        return
    seat = st[G_SEAT]
    e = st[K.sb_nb(seat) + S_ENTRY]
    f = ufn[e]
    if f < 0:
        k = K.choose_nb(st, rng, P, nb, kind, is_anchor, seat_allowed, dist, dist_island, seat_home, strat, sp, seat,
                        plays, n, reach, union, hits, ss)
    elif n == 1:
        k = 0
    else:
        fill_view_nb(st, P, view)
        for i in range(n):
            for j in range(PLAY_WIDTH):
                opts[i, j] = plays[i, j]
        derive_stream_nb(urng, rng, st[G_TURN], USER_STREAM)
        k = user_choose_nb(f, view, opts[:n], uparams[e], urng, board)
        if k < 0 or k >= n:
            err[0] = f + 1
            err[1] = st[G_TURN]
            err[2] = k
            err[3] = n
            st[G_END] = END_TRUNCATED
            return
    K.finish_turn_nb(st, ev, P, nb, kind, plays[k], heat)


@njit(cache=True, error_model="numpy")
def user_play_one_game_nb(st, ev, rng, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed,
                          seat_harbor, seat_anchor, seat_start, strat, sp, plays, reach, union, hits, ss, heat,
                          game_index, out_g, out_s, ufn, uparams, board, view, opts, urng, err):
    K.setup_nb(st, ev, rng, P, seat_harbor, seat_anchor, seat_start, game_index)
    while st[G_END] < 0:
        user_step_nb(st, ev, rng, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed, strat, sp,
                     plays, reach, union, hits, heat, ss, ufn, uparams, board, view, opts, urng, err)
    K.write_outputs_nb(st, P, out_g, out_s)


@njit(cache=True, parallel=True, nogil=True, error_model="numpy")
def user_play_chunk_nb(seed, first, n, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed,
                       seat_harbor, seat_anchor, seat_start, strat, sp, ufn, uparams, board, err, out_g, out_s):
    """kernel.play_chunk_nb with user seats; ``err`` int64[n, 4] per game (0: fine)."""
    bs = K.block_size_nb(strat)
    n_blocks = (n + bs - 1) // bs
    for blk in prange(n_blocks):
        st = np.zeros(P.state_words, np.int32)
        ev = np.zeros((0, 6), np.int32)
        heat = np.zeros((2, 0), np.int64)
        rng = np.zeros(RNG_WORDS, np.uint64)
        plays, reach, union, hits, ss = K.scratch_nb(P)
        view = np.zeros(VIEW_LEN, np.int32)
        opts = np.zeros_like(plays)
        urng = np.zeros(RNG_WORDS, np.uint64)
        hi = min(n, (blk + 1) * bs)
        for i in range(blk * bs, hi):
            seed_game_nb(rng, seed, first + i)
            user_play_one_game_nb(st, ev, rng, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed,
                                  seat_harbor, seat_anchor, seat_start, strat, sp, plays, reach, union, hits, ss,
                                  heat, first + i, out_g[i], out_s[i], ufn, uparams, board, view, opts, urng, err[i])


@njit(cache=True, error_model="numpy")
def user_play_traced_nb(seed, k, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed, seat_harbor,
                        seat_anchor, seat_start, strat, sp, ev, heat, out_g, out_s, ufn, uparams, board, err):
    """kernel.play_traced_nb with user seats."""
    st = np.zeros(P.state_words, np.int32)
    rng = np.zeros(RNG_WORDS, np.uint64)
    plays, reach, union, hits, ss = K.scratch_nb(P)
    view = np.zeros(VIEW_LEN, np.int32)
    opts = np.zeros_like(plays)
    urng = np.zeros(RNG_WORDS, np.uint64)
    seed_game_nb(rng, seed, k)
    user_play_one_game_nb(st, ev, rng, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed,
                          seat_harbor, seat_anchor, seat_start, strat, sp, plays, reach, union, hits, ss, heat, k,
                          out_g, out_s, ufn, uparams, board, view, opts, urng, err)
    return st[G_EVENTS]


@njit(cache=True, error_model="numpy")
def user_heat_chunk_nb(seed, first, n, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed,
                       seat_harbor, seat_anchor, seat_start, strat, sp, heat, out_g, out_s, ufn, uparams, board, err):
    """kernel.heat_chunk_nb with user seats."""
    st = np.zeros(P.state_words, np.int32)
    rng = np.zeros(RNG_WORDS, np.uint64)
    ev = np.zeros((0, 6), np.int32)
    plays, reach, union, hits, ss = K.scratch_nb(P)
    view = np.zeros(VIEW_LEN, np.int32)
    opts = np.zeros_like(plays)
    urng = np.zeros(RNG_WORDS, np.uint64)
    for i in range(n):
        seed_game_nb(rng, seed, first + i)
        user_play_one_game_nb(st, ev, rng, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed,
                              seat_harbor, seat_anchor, seat_start, strat, sp, plays, reach, union, hits, ss, heat,
                              first + i, out_g[i], out_s[i], ufn, uparams, board, view, opts, urng, err[i])
