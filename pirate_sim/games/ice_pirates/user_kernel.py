"""The kernel of Ice Pirates tables with strategies of one's own (compiled once, whatever the files).

User functions are called by address (pirate_sim/user_abi.py); ``calls`` holds the
addresses and the read-only board handed to them.  A user seat's turn runs on the search
player's machinery (searcher.py: ``search_game_nb``): the turn is played from its start
with the seat's choices so far forced (T_FORCED) until it pauses at its next choice of a
heading, of fighting the waves or of a raid (T_PEND); with more than one option the
function chooses from a fresh view (user_view.fill_view_nb), a copy of the options, its
read-only parameter row and a private stream, and the turn is replayed with that choice
forced too.  The game's own stream thus draws exactly what the turn of those choices
draws.  Every other choice of the seat is its base strategy's (its kernel row; the
seat's ``sp`` row carries SP_SEARCH = 1 so that policies.forced_nb pauses at its choices).
An index outside the options ends the game (truncated) and is reported in ``err``; the
caller raises.  Other seats' turns are play.turn_nb, or, at a table that also seats
``search``, searcher.search_turn_nb for a searching seat (the drivers' ``search`` argument,
kernel_base.search_switch: numba compiles only the branch a table plays).

A user seat's turn is user_turn.user_turn_nb, the replay the search's rollouts also play
when they roll out a strategy file.  Imports play.py (set-up, the turn, outputs, a game's
scratch), searcher.py (the search's turn), user_turn.py, state.py, user_view.py,
games.kernel_base (block_nb) and pirate_sim.rng.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from pirate_sim.games.ice_pirates.play import game_scratch_nb, setup_nb, turn_nb, write_outputs_nb
from pirate_sim.games.ice_pirates.rules import (G_END, G_ENTRY, G_EVENTS, G_SEAT, G_TURN, STATE_WORDS)
from pirate_sim.games.ice_pirates.searcher import search_scratch_nb, search_turn_nb
from pirate_sim.games.ice_pirates.user_turn import MAX_OPTIONS, user_turn_nb
from pirate_sim.games.ice_pirates.state import BLOCK, FS_KEY_TURN, SP_SEARCH
from pirate_sim.games.ice_pirates.user_view import VIEW_LEN
from pirate_sim.games.kernel_base import block_nb
from pirate_sim.rng import RNG_WORDS, seed_game_nb


@njit(cache=True)
def user_game_nb(st, ev, rng, P, geo, rel, cum_w, costs, strat, sp, fs, ufn, uparams, calls, st0, rng0, view, opts,
                 uopts, urng, err, search):
    """play.run_game_nb with user seats (``ufn[entry] >= 0``): a user seat's turn is
    user_turn_nb, a searching seat's searcher.search_turn_nb (``search`` ``(1,)``: the table
    seats ``search``; numba compiles this branch and its scratch only then), any other
    play.turn_nb.  The search's rollouts play every seat as its rollout strategy, or, when the
    search's ``rollout`` is a strategy file or ``learned`` (row ``n + e`` of ``ufn``), every turn
    as user_turn_nb of that function (searcher.rollout_nb)."""
    if len(search) > 0:
        tally = np.zeros(2, np.int64)
        no_pts, no_rng = np.zeros((0, 0), np.int32), np.zeros((0, 0), np.uint64)
        scr = search_scratch_nb(st, rng, P, sp)
        usr = (ufn, uparams, calls, st0, rng0, view, opts, uopts, urng, err)  # a rollout's user turns: this scratch
    while st[G_END] < 0:
        s = st[G_SEAT]
        e = st[G_ENTRY + s]
        f = ufn[e]
        if st[G_TURN] >= P.turn_cap or (f < 0 and sp[e, SP_SEARCH] == 0):
            turn_nb(st, ev, rng, P, geo, rel, cum_w, costs, strat, sp, fs)
        elif f >= 0:
            if not user_turn_nb(st, ev, rng, P, geo, rel, cum_w, costs, strat, sp, fs, f, uparams[e], calls, st0,
                                rng0, view, opts, uopts, urng, err, 0, f + 1):
                return
        elif len(search) > 0:
            if not search_turn_nb(st, ev, rng, P, geo, rel, cum_w, costs, strat, sp, fs, s, e, tally, 0, no_pts,
                                  no_rng, scr, usr):
                return


@njit(cache=True)
def user_one_game_nb(st, ev, rng, P, geo, rel, cum_w, costs, deck, port_upg, strat, sp, fs, perm, out_g, out_s,
                     game_index, ufn, uparams, calls, st0, rng0, view, opts, uopts, urng, err, search):
    """play.play_one_game_nb with user seats, on an already seeded ``rng``; ``search`` as
    :func:`user_play_chunk_nb`'s."""
    setup_nb(st, ev, rng, P, geo, cum_w, deck, port_upg, perm, game_index)
    fs[FS_KEY_TURN] = -1  # no plan of an earlier game is reused
    user_game_nb(st, ev, rng, P, geo, rel, cum_w, costs, strat, sp, fs, ufn, uparams, calls, st0, rng0, view, opts,
                 uopts, urng, err, search)
    write_outputs_nb(st, rng, P, out_g, out_s)


@njit(cache=True, inline="always")
def user_scratch_nb():
    """A user game's scratch beside play.game_scratch_nb's, allocated once per block (or traced
    game): (the turn's start state and stream, the view, the options, the function's copy of
    them, its stream)."""
    return (np.zeros(STATE_WORDS, np.int32), np.zeros(RNG_WORDS, np.uint64), np.zeros(VIEW_LEN, np.int32),
            np.zeros(MAX_OPTIONS, np.int32), np.zeros(MAX_OPTIONS, np.int32), np.zeros(RNG_WORDS, np.uint64))


@njit(cache=True, parallel=True, nogil=True)
def user_play_chunk_nb(seed, first, n, P, geo, rel, cum_w, costs, deck, port_upg, strat, sp, ufn, uparams, calls,
                       err, search, out_g, out_s):
    """kernel.play_chunk_nb with user seats (``sp``: the rows with SP_SEARCH set on user
    entries); ``err`` int64[n, 4] per game (0: fine).  ``search`` (kernel_base.search_switch):
    ``()`` no seat searches; ``(1,)`` a seat does, one game a block, as kernel.play_chunk_nb."""
    per = BLOCK if len(search) == 0 else 1
    n_blocks = (n + per - 1) // per
    for blk in prange(n_blocks):
        st, ev, rng, fs, perm = game_scratch_nb()
        st0, rng0, view, opts, uopts, urng = user_scratch_nb()
        lo, hi = block_nb(n, n_blocks, blk)
        for i in range(lo, hi):
            seed_game_nb(rng, seed, first + i)
            user_one_game_nb(st, ev, rng, P, geo, rel, cum_w, costs, deck, port_upg, strat, sp, fs, perm, out_g[i],
                             out_s[i], first + i, ufn, uparams, calls, st0, rng0, view, opts, uopts, urng, err[i],
                             search)


@njit(cache=True)
def user_play_traced_nb(seed, k, P, geo, rel, cum_w, costs, deck, port_upg, strat, sp, ev, ufn, uparams, calls, err,
                        search, out_g, out_s):
    """kernel.play_traced_nb with user seats (a replayed turn rewinds the log with the state,
    so each turn shows once); returns the events logged."""
    st, _, rng, fs, perm = game_scratch_nb()
    st0, rng0, view, opts, uopts, urng = user_scratch_nb()
    seed_game_nb(rng, seed, k)
    user_one_game_nb(st, ev, rng, P, geo, rel, cum_w, costs, deck, port_upg, strat, sp, fs, perm, out_g, out_s, k,
                     ufn, uparams, calls, st0, rng0, view, opts, uopts, urng, err, search)
    return st[G_EVENTS]
