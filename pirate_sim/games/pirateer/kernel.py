"""The numba kernel of Pirateer: its drivers (the entry points the plug-in calls).

Every function of the kernel is ``@njit(cache=True)`` over the state vector ``st`` (int32,
layout in ``rules.py`` and ``state.py``), the event log ``ev`` (int32 ``[capacity, 6]``;
capacity 0 in bulk runs), the game's rng, the rules NamedTuple ``P`` and the board tables of
``geometry.py``:

* ``nb`` int32[n, 6] neighbour node per direction, ``kind`` int32[n], ``is_anchor`` int32[n];
* ``dist`` int16[n, n], ``dist_island`` int16[n], ``seat_home`` int16[n_seats, n]
  (treasure-ship steps to the seat's anchor), ``seat_allowed`` int32[n_seats, 6],
  ``seat_anchor`` int32[n_seats], ``seat_start`` int32[n_seats, 3];
* ``strat`` int32[entries], ``sp`` float64[entries, N_SP]: per-seat players.

The generator (``moves.gen_plays_nb``) writes every legal play into ``plays`` (int32
``[MAX_PLAYS, 8]``) and returns their count; every player, random included, picks a row.
``reference.py`` lists the same set in plain Python.

A turn is three pieces (``whole_game.step_nb``): ``turn.begin_turn_nb`` rolls (the roll kept
in ``G_ROLL``) and lists the plays, the chooser hook ``whole_game.choose_nb`` picks one
(``players.policy_nb`` for the scripted players, ``search_player.search_nb`` for ``search``),
``turn.finish_turn_nb`` makes it and ends the turn (doubles, next seat), so a copy of ``st`` is
the whole game and a rollout can resume from any decision.  The rows of ``strat``/``sp`` after
the ``[[seats]]`` entries are the scripted strategies' defaults (``N_ROLLOUT_ROWS``), which the
search's rollouts and prior use.

This module holds the drivers only: the block scratch (``block_scratch_nb``), the games of one
block (``play_games_nb``), the bulk chunk (``play_chunk_nb``, parallel over blocks split by
``kernel_base.block_nb``), the traced game, the heat-map chunk (serial: it adds into one
``heat``), the capture odds' Monte Carlo and the search bench.  May import every other kernel
module of the game (``state``, ``moves``, ``players``, ``turn``, ``search_player``,
``whole_game``, ``user_view``); ``user_kernel.py`` imports it.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ...rng import RNG_WORDS, roll_die_nb, seed_game_nb
from ...search import derive_stream_nb
from ..kernel_base import block_nb
from .moves import gen_plays_nb, play_captures_nb
from .rules import DIE_SIDES, EVENT_WIDTH, G_END, G_EVENTS, G_ROLL, G_SEAT, G_TURN, MAX_PLAYS, MAX_SHIPS, PLAY_WIDTH, S_ENTRY
from .search_player import playout_nb, reward_nb, search_nb, search_scratch_nb
from .state import BLOCK, N_ROLLOUT_ROWS, ST_SEARCH, sb_nb
from .players import policy_nb
from .turn import begin_turn_nb, finish_turn_nb
from .user_view import USR_ERR
from .whole_game import play_one_game_nb, setup_nb


@njit(cache=True, error_model="numpy")
def scratch_nb(P):
    """Per-block scratch: (plays, reach, union, hits, the search's scratch)."""
    plays = np.zeros((MAX_PLAYS, PLAY_WIDTH), np.int32)
    reach = np.zeros((MAX_SHIPS, DIE_SIDES + 1, DIE_SIDES + 1, P.bit_words), np.uint64)
    union = np.zeros((P.n_seats, DIE_SIDES + 1, DIE_SIDES + 1, P.bit_words), np.uint64)
    hits = np.zeros((P.n_seats, P.n_nodes), np.int32)
    return plays, reach, union, hits, search_scratch_nb(P)


@njit(cache=True, error_model="numpy")
def block_size_nb(strat):
    """Games per parallel block: BLOCK, or 1 when a seat searches (a search game costs about
    as much as thousands of scripted ones, so blocks of 64 would leave threads idle)."""
    for e in range(strat.shape[0]):
        if strat[e] == ST_SEARCH:
            return 1
    return BLOCK


@njit(cache=True, error_model="numpy")
def n_blocks_nb(n, strat):
    """Parallel blocks of a chunk of ``n`` games (``kernel_base.block_nb`` splits them): blocks of
    at most ``block_size_nb`` games."""
    bs = block_size_nb(strat)
    return (n + bs - 1) // bs


@njit(cache=True, error_model="numpy")
def block_scratch_nb(P):
    """What a driver allocates once per block and reuses for every game of it: (state, stream,
    plays, reach, union, hits, the search's scratch)."""
    st = np.zeros(P.state_words, np.int32)
    rng = np.zeros(RNG_WORDS, np.uint64)
    plays, reach, union, hits, ss = scratch_nb(P)
    return st, rng, plays, reach, union, hits, ss


@njit(cache=True, error_model="numpy")
def play_games_nb(seed, first, lo, hi, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed,
                  seat_harbor, seat_anchor, seat_start, strat, sp, ev, heat, scratch, search, out_g, out_s):
    """Games ``first + lo .. first + hi - 1`` one after another on one block's ``scratch``
    (``block_scratch_nb``), each on its own stream; outputs into rows ``lo .. hi - 1``.
    ``search``: :func:`searches` of ``strat`` (None: numba compiles no search code)."""
    st, rng, plays, reach, union, hits, ss = scratch
    for i in range(lo, hi):
        seed_game_nb(rng, seed, first + i)
        play_one_game_nb(st, ev, rng, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed,
                         seat_harbor, seat_anchor, seat_start, strat, sp, plays, reach, union, hits, ss, heat,
                         search, first + i, out_g[i], out_s[i])


@njit(cache=True, parallel=True, nogil=True, error_model="numpy")
def play_chunk_nb(seed, first, n, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed,
                  seat_harbor, seat_anchor, seat_start, strat, sp, search, out_g, out_s):
    """Games ``first .. first + n - 1``: blocks of about BLOCK games in parallel, scratch per block
    (``search``: :func:`searches` of ``strat``)."""
    n_blocks = n_blocks_nb(n, strat)
    for blk in prange(n_blocks):
        lo, hi = block_nb(n, n_blocks, blk)
        play_games_nb(seed, first, lo, hi, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed,
                      seat_harbor, seat_anchor, seat_start, strat, sp, np.zeros((0, EVENT_WIDTH), np.int32),
                      np.zeros((2, 0), np.int64), block_scratch_nb(P), search, out_g, out_s)


@njit(cache=True, error_model="numpy")
def play_traced_nb(seed, k, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed, seat_harbor,
                   seat_anchor, seat_start, strat, sp, ev, heat, search, out_g, out_s):
    """Game ``k`` with the event log (and optionally the heat map) on: same code as bulk runs."""
    st, rng, plays, reach, union, hits, ss = block_scratch_nb(P)
    seed_game_nb(rng, seed, k)
    play_one_game_nb(st, ev, rng, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed,
                     seat_harbor, seat_anchor, seat_start, strat, sp, plays, reach, union, hits, ss, heat, search, k,
                     out_g, out_s)
    return st[G_EVENTS]


@njit(cache=True, error_model="numpy")
def heat_chunk_nb(seed, first, n, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed,
                  seat_harbor, seat_anchor, seat_start, strat, sp, heat, search, out_g, out_s):
    """Games ``first ..`` one after another, adding captures and treasure losses per node to ``heat``."""
    play_games_nb(seed, first, 0, n, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed,
                  seat_harbor, seat_anchor, seat_start, strat, sp, np.zeros((0, EVENT_WIDTH), np.int32), heat,
                  block_scratch_nb(P), search, out_g, out_s)


def searches(strat):
    """The drivers' ``search`` argument for strategy codes ``strat``: True where an entry
    searches, None where none does (numba then compiles the drivers without the search player:
    a first scripted run about a quarter faster)."""
    return True if (np.asarray(strat) == ST_SEARCH).any() else None


@njit(cache=True, error_model="numpy")
def capture_mc_nb(seed, samples, P, nb, kind, is_anchor, seat_allowed, st, seat, target, plays):
    """Monte Carlo: of ``samples`` rolls, how many give ``seat`` a legal play capturing ``target``."""
    rng = np.zeros(RNG_WORDS, np.uint64)
    seed_game_nb(rng, seed, 0)
    hits = 0
    for _ in range(samples):
        d1 = roll_die_nb(rng, DIE_SIDES)
        d2 = roll_die_nb(rng, DIE_SIDES)
        n = gen_plays_nb(st, P, nb, kind, is_anchor, seat_allowed, seat, d1, d2, plays)
        for k in range(n):
            if play_captures_nb(st, P.ships_per_seat, nb, kind, seat, plays[k], target):
                hits += 1
                break
    return hits



# ------------------------------------------------------------------ search bench (Game.search_bench)
@njit(cache=True, error_model="numpy")
def bench_point_nb(st, point, entry, P, nb, kind, is_anchor, seat_allowed, plays):
    """Load the decision point ``point`` (a state after its roll) into ``st``, the seat to move
    played by entry ``entry`` when ``entry`` >= 0, and list its plays for the recorded roll:
    (seat, plays listed)."""
    st[:] = point
    seat = st[G_SEAT]
    if entry >= 0:
        st[sb_nb(seat) + S_ENTRY] = entry
    roll = st[G_ROLL]
    return seat, gen_plays_nb(st, P, nb, kind, is_anchor, seat_allowed, seat, roll // 8, roll % 8, plays)


@njit(cache=True, error_model="numpy")
def bench_points_nb(seed, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed, seat_harbor,
                    seat_anchor, seat_start, strat, sp, row, spacing, out_st, out_rng):
    """Decision points for the bench: games ``0, 1, ..`` of rollout row ``row`` in every seat; every
    ``spacing``-th turn with more than one legal play, the state after the roll and the
    game's stream are recorded, until ``out_st`` is full.  Returns the games played."""
    st, rng, plays, reach, union, hits, ss = block_scratch_nb(P)
    pass_row, ev0, heat0 = ss[0], ss[12], ss[13]
    code = strat[strat.shape[0] - N_ROLLOUT_ROWS + row]
    w = sp[strat.shape[0] - N_ROLLOUT_ROWS + row]
    got = 0
    g = 0
    while got < out_st.shape[0]:
        seed_game_nb(rng, seed, g)
        setup_nb(st, ev0, rng, P, seat_harbor, seat_anchor, seat_start, g)
        while st[G_END] < 0 and st[G_TURN] < P.turn_cap and got < out_st.shape[0]:
            st[G_TURN] += 1
            n = begin_turn_nb(st, ev0, rng, P, nb, kind, is_anchor, seat_allowed, plays)
            if n > 1 and st[G_TURN] % spacing == 0:
                out_st[got] = st
                out_rng[got] = rng[:RNG_WORDS]
                got += 1
            if n == 0:
                finish_turn_nb(st, ev0, P, nb, kind, pass_row[0], heat0)
            else:
                k = policy_nb(st, rng, P, nb, kind, seat_allowed, dist, dist_island, seat_home, code, w, st[G_SEAT],
                              plays, n, reach, union, hits)
                finish_turn_nb(st, ev0, P, nb, kind, plays[k], heat0)
        g += 1
    return g


@njit(cache=True, error_model="numpy")
def bench_search_nb(points_st, points_rng, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed, strat,
                    sp, entry, out_rollouts, usr):
    """The search decision (entry ``entry``'s parameters) at every point; rollouts per point
    into ``out_rollouts``; returns the turns played in all rollouts.  ``usr``: None, or the
    strategy file the rollouts play (``search_nb``; user_kernel.user_bench_search_nb), whose
    illegal answer stops the bench."""
    turns = 0
    st, _rng, plays, reach, union, hits, ss = block_scratch_nb(P)
    for i in range(points_st.shape[0]):
        seat, n = bench_point_nb(st, points_st[i], entry, P, nb, kind, is_anchor, seat_allowed, plays)
        _k, r, t = search_nb(st, points_rng[i], P, nb, kind, is_anchor, seat_allowed, dist, dist_island,
                             seat_home, strat, sp, seat, plays, n, reach, union, hits, ss, usr)
        out_rollouts[i] = r
        turns += t
        if usr is not None and usr[USR_ERR][0] != 0:
            break
    return turns


@njit(cache=True, error_model="numpy")
def bench_playout_nb(points_st, points_rng, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed, strat,
                     sp, row, reward, rollouts):
    """Plain games of rollout row ``row`` from the same points, as many as the search played there
    (the same derived streams, no merging, prior or halving); returns (summed reward, turns
    played)."""
    st, _rng, plays, reach, union, hits, ss = block_scratch_nb(P)
    pass_row, st2, plays2, rng2, ev0, heat0 = ss[0], ss[1], ss[2], ss[3], ss[12], ss[13]
    code = strat[strat.shape[0] - N_ROLLOUT_ROWS + row]
    w = sp[strat.shape[0] - N_ROLLOUT_ROWS + row]
    total = 0.0
    turns = 0
    for i in range(points_st.shape[0]):
        seat, n = bench_point_nb(st, points_st[i], -1, P, nb, kind, is_anchor, seat_allowed, plays)
        for j in range(rollouts[i]):
            st2[:] = st
            derive_stream_nb(rng2, points_rng[i], st[G_TURN], j)
            k = policy_nb(st2, rng2, P, nb, kind, seat_allowed, dist, dist_island, seat_home, code, w, seat, plays, n,
                          reach, union, hits)
            finish_turn_nb(st2, ev0, P, nb, kind, plays[k], heat0)
            playout_nb(st2, ev0, rng2, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed, code, w,
                       plays2, reach, union, hits, heat0, pass_row[0], P.turn_cap, None)
            total += reward_nb(st2, P, seat, reward)
            turns += st2[G_TURN] - st[G_TURN]
    return total, turns
