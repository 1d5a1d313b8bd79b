"""The kernel of Pirateer tables with strategies of one's own (compiled once, whatever the files).

User functions are called by address (pirate_sim/user_abi.py: numba cannot pass a jitted
function into a ``cache=True`` kernel); ``calls`` holds the addresses and the read-only
board handed to them.  Everything else is the bulk kernel's game loop
(whole_game.step_nb, play_one_game_nb, kernel.play_chunk_nb) with one change: at a seat whose entry
has a user function (``ufn[entry] >= 0``) and more than one legal play, the function
chooses, from a fresh view (user_view.fill_view_nb), a copy of the plays, the seat's
read-only parameter row, a private stream and the read-only board.  An index outside the
plays stops the game (truncated) and is reported in ``err``; the caller raises.

``ufn`` and ``uparams`` have two rows per seat entry: row ``e`` the seat's own function,
row ``n_entries + e`` the function a ``search`` entry's rollouts play (its ``rollout`` a
strategy file).  Such a search is the package's ``search_player.search_nb`` with the file as its
``usr`` argument: its rollout turns call the function (user_view.user_pick_nb), as a seat's do.

The drivers share ``kernel.block_scratch_nb`` and ``kernel_base.block_nb`` with the package's;
``user_scratch_nb`` is the hook's own scratch, ``user_play_games_nb`` the games of one block.
Their ``search`` is the package drivers' (``kernel.searches``): None where no seat searches, so
that a table of strategy files and scripted seats compiles without the search player.
May import every kernel module of the game (``kernel`` included) and ``user_view``.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from pirate_sim.games.kernel_base import block_nb
from pirate_sim.games.pirateer.kernel import bench_search_nb, block_scratch_nb, n_blocks_nb
from pirate_sim.games.pirateer.rules import END_TRUNCATED, EVENT_WIDTH, G_END, G_EVENTS, G_SEAT, MAX_PLAYS, \
    PLAY_WIDTH, S_ENTRY
from pirate_sim.games.pirateer.search_player import search_nb
from pirate_sim.games.pirateer.state import ST_SEARCH, sb_nb
from pirate_sim.games.pirateer.turn import finish_turn_nb
from pirate_sim.games.pirateer.user_view import VIEW_LEN, user_pick_nb
from pirate_sim.games.pirateer.whole_game import choose_nb, setup_nb, step_start_nb, write_outputs_nb
from pirate_sim.rng import RNG_WORDS, seed_game_nb


@njit(cache=True, error_model="numpy")
def user_step_nb(st, ev, rng, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed, strat, sp, plays,
                 reach, union, hits, heat, ss, search, ufn, uparams, calls, view, opts, urng, err):
    """whole_game.step_nb with the user hook (a seat's own function, or a search's user rollouts)."""
    n = step_start_nb(st, ev, rng, P, nb, kind, is_anchor, seat_allowed, plays, heat, ss[0][0])
    if n == 0:
        return
    seat = st[G_SEAT]
    e = st[sb_nb(seat) + S_ENTRY]
    f = ufn[e]
    rf = ufn[ufn.shape[0] // 2 + e]
    if search is not None and f < 0 and rf >= 0 and strat[e] == ST_SEARCH:  # (pruned: no search seat)
        k = search_nb(st, rng, P, nb, kind, is_anchor, seat_allowed, dist, dist_island, seat_home, strat, sp, seat,
                      plays, n, reach, union, hits, ss, (rf, uparams[ufn.shape[0] // 2 + e], calls, view, opts, urng,
                                                         err))[0]
        if k < 0:
            st[G_END] = END_TRUNCATED
            return
    elif f < 0:
        k = choose_nb(st, rng, P, nb, kind, is_anchor, seat_allowed, dist, dist_island, seat_home, strat, sp, seat,
                        plays, n, reach, union, hits, ss, search)
    else:
        k = user_pick_nb(st, P, f, uparams[e], plays, n, rng, calls, view, opts, urng, err, f + 1)
        if k < 0:
            st[G_END] = END_TRUNCATED
            return
    finish_turn_nb(st, ev, P, nb, kind, plays[k], heat)


@njit(cache=True, error_model="numpy")
def user_play_one_game_nb(st, ev, rng, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed,
                          seat_harbor, seat_anchor, seat_start, strat, sp, plays, reach, union, hits, ss, heat,
                          search, game_index, out_g, out_s, ufn, uparams, calls, view, opts, urng, err):
    setup_nb(st, ev, rng, P, seat_harbor, seat_anchor, seat_start, game_index)
    while st[G_END] < 0:
        user_step_nb(st, ev, rng, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed, strat, sp,
                     plays, reach, union, hits, heat, ss, search, ufn, uparams, calls, view, opts, urng, err)
    write_outputs_nb(st, P, out_g, out_s)


@njit(cache=True, error_model="numpy")
def user_scratch_nb(plays):
    """The user hook's scratch beside kernel.block_scratch_nb's, once per block: (view, a copy of
    the plays, the user function's stream)."""
    view = np.zeros(VIEW_LEN, np.int32)
    opts = np.zeros_like(plays)
    urng = np.zeros(RNG_WORDS, np.uint64)
    return view, opts, urng


@njit(cache=True, error_model="numpy")
def user_play_games_nb(seed, first, lo, hi, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed,
                       seat_harbor, seat_anchor, seat_start, strat, sp, ev, heat, scratch, search, out_g, out_s, ufn,
                       uparams, calls, err):
    """kernel.play_games_nb with user seats: games ``first + lo .. first + hi - 1`` on one block's
    ``scratch``; ``err`` int64[n, 4] per game."""
    st, rng, plays, reach, union, hits, ss = scratch
    view, opts, urng = user_scratch_nb(plays)
    for i in range(lo, hi):
        seed_game_nb(rng, seed, first + i)
        user_play_one_game_nb(st, ev, rng, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed,
                              seat_harbor, seat_anchor, seat_start, strat, sp, plays, reach, union, hits, ss, heat,
                              search, first + i, out_g[i], out_s[i], ufn, uparams, calls, view, opts, urng, err[i])


@njit(cache=True, parallel=True, nogil=True, error_model="numpy")
def user_play_chunk_nb(seed, first, n, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed,
                       seat_harbor, seat_anchor, seat_start, strat, sp, search, ufn, uparams, calls, err, out_g, out_s):
    """kernel.play_chunk_nb with user seats; ``err`` int64[n, 4] per game (0: fine)."""
    n_blocks = n_blocks_nb(n, strat)
    for blk in prange(n_blocks):
        lo, hi = block_nb(n, n_blocks, blk)
        user_play_games_nb(seed, first, lo, hi, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed,
                           seat_harbor, seat_anchor, seat_start, strat, sp, np.zeros((0, EVENT_WIDTH), np.int32),
                           np.zeros((2, 0), np.int64), block_scratch_nb(P), search, out_g, out_s, ufn, uparams, calls,
                           err)


@njit(cache=True, error_model="numpy")
def user_play_traced_nb(seed, k, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed, seat_harbor,
                        seat_anchor, seat_start, strat, sp, ev, heat, search, out_g, out_s, ufn, uparams, calls, err):
    """kernel.play_traced_nb with user seats."""
    st, rng, plays, reach, union, hits, ss = block_scratch_nb(P)
    view, opts, urng = user_scratch_nb(plays)
    seed_game_nb(rng, seed, k)
    user_play_one_game_nb(st, ev, rng, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed,
                          seat_harbor, seat_anchor, seat_start, strat, sp, plays, reach, union, hits, ss, heat, search,
                          k, out_g, out_s, ufn, uparams, calls, view, opts, urng, err)
    return st[G_EVENTS]


@njit(cache=True, error_model="numpy")
def user_heat_chunk_nb(seed, first, n, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed,
                       seat_harbor, seat_anchor, seat_start, strat, sp, heat, search, out_g, out_s, ufn, uparams, calls,
                       err):
    """kernel.heat_chunk_nb with user seats."""
    user_play_games_nb(seed, first, 0, n, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed,
                       seat_harbor, seat_anchor, seat_start, strat, sp, np.zeros((0, EVENT_WIDTH), np.int32), heat,
                       block_scratch_nb(P), search, out_g, out_s, ufn, uparams, calls, err)


@njit(cache=True, error_model="numpy")
def user_bench_search_nb(points_st, points_rng, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed,
                         strat, sp, entry, ufn, uparams, calls, err, out_rollouts):
    """kernel.bench_search_nb for a search entry whose rollouts play a user function (the same points, ``bench_point_nb``)."""
    view, opts, urng = user_scratch_nb(np.zeros((MAX_PLAYS, PLAY_WIDTH), np.int32))
    half = ufn.shape[0] // 2
    return bench_search_nb(points_st, points_rng, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed,
                           strat, sp, entry, out_rollouts, (ufn[half + entry], uparams[half + entry], calls, view, opts,
                                                           urng, err))
