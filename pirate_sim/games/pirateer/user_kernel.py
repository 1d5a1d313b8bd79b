"""The kernel of Pirateer tables with strategies of one's own (compiled once, whatever the files).

User functions are called by address (pirate_sim/user_abi.py: numba cannot pass a jitted
function into a ``cache=True`` kernel); ``calls`` holds the addresses and the read-only
board handed to them.  Everything else is the bulk kernel's game loop
(kernel.step_nb, play_one_game_nb, play_chunk_nb) with one change: at a seat whose entry
has a user function (``ufn[entry] >= 0``) and more than one legal play, the function
chooses, from a fresh view (user_view.fill_view_nb), a copy of the plays, the seat's
read-only parameter row, a private stream and the read-only board.  An index outside the
plays stops the game (truncated) and is reported in ``err``; the caller raises.

``ufn`` and ``uparams`` have two rows per seat entry: row ``e`` the seat's own function,
row ``n_entries + e`` the function a ``search`` entry's rollouts play (its ``rollout`` a
strategy file).  Such a search shares kernel.search_prepare_nb (merging, win, prior,
top_k) and the halving helpers with the package's ``search_nb``; only its rollout turns
(``user_playout_nb``) call the user function, with the same hook as a seat.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from pirate_sim.games.pirateer import kernel as K
from pirate_sim.games.pirateer.rules import END_TRUNCATED, EV_TRUNC, G_END, G_EVENTS, G_SEAT, G_TURN, PLAY_WIDTH, S_ENTRY
from pirate_sim.games.pirateer.user_view import USER_STREAM, VIEW_LEN, fill_view_nb
from pirate_sim.rng import RNG_WORDS, seed_game_nb
from pirate_sim.user_abi import call_user_nb
from pirate_sim.search import H_INDEX, H_OPT, H_SIZE, derive_stream_nb, halving_best_nb, halving_next_nb, halving_start_nb
from pirate_sim.user_strategy import ROLLOUT_ERR

@njit(cache=True)
def user_choose_nb(fi, view, options, params, rng, calls):
    """What user function ``fi`` answers (pirate_sim/user_abi.py: a call by address)."""
    return call_user_nb(calls, fi, view, options, params, rng)


@njit(cache=True, error_model="numpy")
def user_pick_nb(st, P, f, params, plays, n, rng, calls, view, opts, urng):
    """What user function ``f`` answers at the seat to move among the ``n`` (> 1) plays: a
    fresh view, a copy of the plays, its private stream derived from ``rng`` (the game's
    stream at a seat, the rollout's in a rollout) at the turn, without advancing it."""
    fill_view_nb(st, P, view)
    for i in range(n):
        for j in range(PLAY_WIDTH):
            opts[i, j] = plays[i, j]
    derive_stream_nb(urng, rng, st[G_TURN], USER_STREAM)
    return user_choose_nb(f, view, opts[:n], params, urng, calls)


@njit(cache=True, error_model="numpy")
def user_playout_nb(st, ev, rng, P, nb, kind, is_anchor, seat_allowed, f, params, plays, pass_row, heat, limit,
                    calls, view, opts, urng, err):
    """kernel.playout_nb with every seat playing user function ``f`` (parameters ``params``);
    an illegal index is reported in ``err`` and ends the playout."""
    while st[G_END] < 0:
        if st[G_TURN] >= limit:
            if limit >= P.turn_cap:
                st[G_END] = END_TRUNCATED
            return
        st[G_TURN] += 1
        n = K.begin_turn_nb(st, ev, rng, P, nb, kind, is_anchor, seat_allowed, plays)
        if n == 0:
            K.finish_turn_nb(st, ev, P, nb, kind, pass_row, heat)
            continue
        k = 0
        if n > 1:
            k = user_pick_nb(st, P, f, params, plays, n, rng, calls, view, opts, urng)
            if k < 0 or k >= n:
                err[0] = ROLLOUT_ERR + f + 1
                err[1] = st[G_TURN]
                err[2] = k
                err[3] = n
                return
        K.finish_turn_nb(st, ev, P, nb, kind, plays[k], heat)


@njit(cache=True, error_model="numpy")
def user_rollout_nb(st, rng, P, nb, kind, is_anchor, seat_allowed, seat, play, decision, j, f, params, reward, limit,
                    ss, calls, view, opts, urng, err):
    """kernel.rollout_nb with the user playout: the same copy, derived stream and reward."""
    pass_row, st2, plays2, rng2 = ss[0], ss[1], ss[2], ss[3]
    ev0, heat0 = ss[12], ss[13]
    st2[:] = st
    derive_stream_nb(rng2, rng, decision, j)
    K.finish_turn_nb(st2, ev0, P, nb, kind, play, heat0)
    user_playout_nb(st2, ev0, rng2, P, nb, kind, is_anchor, seat_allowed, f, params, plays2, pass_row[0], heat0,
                    limit, calls, view, opts, urng, err)
    return K.reward_nb(st2, P, seat, reward)


@njit(cache=True, error_model="numpy")
def user_search_nb(st, rng, P, nb, kind, is_anchor, seat_allowed, dist, dist_island, seat_home, strat, sp, seat,
                   plays, n, reach, union, hits, ss, f, params, calls, view, opts, urng, err):
    """kernel.search_nb with rollouts of user function ``f``: (index, rollouts, turns); index
    -1 when a rollout's answer was illegal (``err`` set)."""
    k0, m = K.search_prepare_nb(st, P, nb, kind, seat_allowed, dist, dist_island, seat_home, strat, sp, seat, plays,
                                n, reach, union, hits, ss)
    if k0 >= 0:
        return k0, 0, 0
    w = sp[st[K.sb_nb(seat) + S_ENTRY]]
    budget = int(w[K.SP_BUDGET])
    reward = int(w[K.SP_REWARD])
    alive, sums, counts, st2 = ss[9], ss[10], ss[11], ss[1]
    limit = K.search_limit_nb(st, P, w)
    decision = st[G_TURN]
    total = 0
    turns = 0
    h = np.empty(H_SIZE, np.int64)  # the search loop (pirate_sim.search: halving_*)
    halving_start_nb(h, m, budget)
    while halving_next_nb(h, alive, sums, counts):
        o = h[H_OPT]
        sums[o] += user_rollout_nb(st, rng, P, nb, kind, is_anchor, seat_allowed, seat, plays[K.search_play_of_nb(ss, o)],
                                   decision, h[H_INDEX], f, params, reward, limit, ss, calls, view, opts, urng, err)
        if err[0] != 0:
            return -1, total, turns
        turns += st2[G_TURN] - decision
        counts[o] += 1
        total += 1
    return K.search_play_of_nb(ss, halving_best_nb(h, alive, sums, counts)), total, turns


@njit(cache=True, error_model="numpy")
def user_step_nb(st, ev, rng, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed, strat, sp, plays,
                 reach, union, hits, heat, ss, ufn, uparams, calls, view, opts, urng, err):
    """kernel.step_nb with the user hook (a seat's own function, or a search's user rollouts)."""
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
    rf = ufn[ufn.shape[0] // 2 + e]
    if f < 0 and rf >= 0 and strat[e] == K.ST_SEARCH:
        k = user_search_nb(st, rng, P, nb, kind, is_anchor, seat_allowed, dist, dist_island, seat_home, strat, sp,
                           seat, plays, n, reach, union, hits, ss, rf, uparams[ufn.shape[0] // 2 + e], calls, view,
                           opts, urng, err)[0]
        if k < 0:
            st[G_END] = END_TRUNCATED
            return
    elif f < 0:
        k = K.choose_nb(st, rng, P, nb, kind, is_anchor, seat_allowed, dist, dist_island, seat_home, strat, sp, seat,
                        plays, n, reach, union, hits, ss)
    elif n == 1:
        k = 0
    else:
        k = user_pick_nb(st, P, f, uparams[e], plays, n, rng, calls, view, opts, urng)
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
                          game_index, out_g, out_s, ufn, uparams, calls, view, opts, urng, err):
    K.setup_nb(st, ev, rng, P, seat_harbor, seat_anchor, seat_start, game_index)
    while st[G_END] < 0:
        user_step_nb(st, ev, rng, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed, strat, sp,
                     plays, reach, union, hits, heat, ss, ufn, uparams, calls, view, opts, urng, err)
    K.write_outputs_nb(st, P, out_g, out_s)


@njit(cache=True, parallel=True, nogil=True, error_model="numpy")
def user_play_chunk_nb(seed, first, n, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed,
                       seat_harbor, seat_anchor, seat_start, strat, sp, ufn, uparams, calls, err, out_g, out_s):
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
                                  heat, first + i, out_g[i], out_s[i], ufn, uparams, calls, view, opts, urng, err[i])


@njit(cache=True, error_model="numpy")
def user_play_traced_nb(seed, k, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed, seat_harbor,
                        seat_anchor, seat_start, strat, sp, ev, heat, out_g, out_s, ufn, uparams, calls, err):
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
                          out_g, out_s, ufn, uparams, calls, view, opts, urng, err)
    return st[G_EVENTS]


@njit(cache=True, error_model="numpy")
def user_heat_chunk_nb(seed, first, n, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed,
                       seat_harbor, seat_anchor, seat_start, strat, sp, heat, out_g, out_s, ufn, uparams, calls, err):
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
                              first + i, out_g[i], out_s[i], ufn, uparams, calls, view, opts, urng, err[i])


@njit(cache=True, error_model="numpy")
def user_bench_search_nb(points_st, points_rng, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed,
                         strat, sp, entry, ufn, uparams, calls, err, out_rollouts):
    """kernel.bench_search_nb for a search entry whose rollouts play a user function."""
    turns = 0
    plays, reach, union, hits, ss = K.scratch_nb(P)
    view = np.zeros(VIEW_LEN, np.int32)
    opts = np.zeros_like(plays)
    urng = np.zeros(RNG_WORDS, np.uint64)
    st = np.zeros(P.state_words, np.int32)
    half = ufn.shape[0] // 2
    for i in range(points_st.shape[0]):
        st[:] = points_st[i]
        seat = st[G_SEAT]
        st[K.sb_nb(seat) + S_ENTRY] = entry
        roll = st[K.G_ROLL]
        n = K.gen_plays_nb(st, P, nb, kind, is_anchor, seat_allowed, seat, roll // 8, roll % 8, plays)
        _k, r, t = user_search_nb(st, points_rng[i], P, nb, kind, is_anchor, seat_allowed, dist, dist_island,
                                  seat_home, strat, sp, seat, plays, n, reach, union, hits, ss, ufn[half + entry],
                                  uparams[half + entry], calls, view, opts, urng, err)
        out_rollouts[i] = r
        turns += t
        if err[0] != 0:
            break
    return turns
