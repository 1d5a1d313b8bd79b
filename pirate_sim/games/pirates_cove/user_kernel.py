"""The kernel of Pirate's Cove tables with strategies of one's own (compiled once, whatever the files).

User functions are called by address (pirate_sim/user_abi.py); ``calls`` holds the
addresses and the read-only board handed to them.  No rule is copied here: the game is
``rounds.advance_nb``, the same pausing loop the ``search`` player drives
(drivers.play_one_game_nb).  A user seat's entry is stored as its ``base`` strategy
with SP_SEARCH = 1 (game.user_compile), so ``advance_nb`` stops at each of its searched
decisions (rules.DEC_*), and the driver here answers:

* the secret island choice (DEC_ISLAND, options the islands 1..6): the user function, from
  a fresh view (user_view.fill_view_nb), a fresh copy of the options, its parameter row
  and its private stream (derived from the game's, which it does not advance);
* attack or flee, Tavern cards, levels bought alone, the Treasure Island upgrade: the base
  strategy's own answer (search_player.prior_nb with the game's stream, the very call the
  kernel makes for a built-in seat), so those choices are the base strategy's exactly;
* a ``search`` seat's decisions: search_player.search_decide_nb, as in a table without
  strategy files: its rollouts play every seat as its rollout strategy, user seats too;
  a search whose ``rollout`` names a strategy file or ``learned`` has every seat choose
  its islands in its rollouts by that function (row ``n + e`` of ``ufn`` / ``uparams``,
  user_strategy.plan_rollouts), its other decisions by its ``base``.

An index outside the options (or an exception, user_abi.RAISED) ends the game truncated
and is reported in ``err`` (1 + dispatch index, round, the answer, options; inside a
rollout ROLLOUT_ERR + 1 + dispatch index); the caller
raises (user_strategy.raise_errors).  Imports: the package's Cove kernel modules (``rounds``,
``whole_game``, ``search_player``, ``drivers``), rules and ship, ``games/kernel_base.py``,
pirate_sim.rng, pirate_sim.search and pirate_sim.user_abi.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from pirate_sim.games.base import G_TRUNCATED
from pirate_sim.games.kernel_base import block_nb
from pirate_sim.games.pirates_cove.drivers import BLOCK, game_scratch_nb
from pirate_sim.games.pirates_cove.rules import (DEC_ISLAND, DEC_NONE, END_TRUNCATED, FORCED_BIAS, G_DEC,
                                                 G_DEC_SEAT, G_END, G_EVENTS, G_FORCED, G_PHASE, G_WINNER, PH_DONE, S_ENTRY)
from pirate_sim.games.pirates_cove.rounds import advance_nb
from pirate_sim.games.pirates_cove.search_player import MAX_OPT, prior_nb, search_decide_nb, user_island_option_nb
from pirate_sim.games.pirates_cove.ship import sb_nb
from pirate_sim.games.pirates_cove.whole_game import setup_nb, write_outputs_nb
from pirate_sim.rng import RNG_WORDS, seed_game_nb


@njit(cache=True)
def user_game_nb(st, ev, rng, P, tr, cards, ncards, tavern, legends, strat, sp, rsp, fs, wk, scratch, search, ufn,
                 uparams, calls, view, opts, urng, err, game_index, out_g, out_s):
    """One whole game on a seeded ``rng`` (bulk runs and traces share it); ``sp``: the seat
    tables with SP_SEARCH = 1 at user entries, ``rsp`` the same with the search off;
    ``search``: drivers.searches of the table (None: numba compiles no search code)."""
    rst, rrng, rfs, rwk, ev0, si, sf = scratch
    usr = (ufn, uparams, calls, view, opts, urng, err)
    setup_nb(st, ev, rng, P, tr, ncards, tavern, legends, strat, sp, game_index)
    while advance_nb(st, ev, rng, P, tr, cards, legends, strat, sp, fs, wk, P.rounds + 1) != DEC_NONE:
        s = st[G_DEC_SEAT]
        e = st[sb_nb(s) + S_ENTRY]
        kind = st[G_DEC]
        if ufn[e] < 0:  # only a search entry or a user entry pauses the game (advance_nb)
            if search is None:
                raise AssertionError("a table without a search seat paused at a decision")
            search_decide_nb(st, ev, rng, P, tr, cards, ncards, legends, strat, sp, rsp, rst, rrng, rfs, rwk, ev0,
                             si, sf, usr)
        elif kind == DEC_ISLAND:
            x = user_island_option_nb(st, rng, P, tr, s, ufn[e], uparams[e], calls, view, opts, urng, err, ufn[e] + 1)
            if x >= 0:
                st[G_FORCED] = x + FORCED_BIAS
        else:
            st[G_FORCED] = prior_nb(st, rng, P, tr, strat, rsp, fs, kind, s) + FORCED_BIAS
        if err[0] != 0:  # an illegal answer, the seat's own or in a search's rollout
            st[G_WINNER] = -1
            st[G_END] = END_TRUNCATED
            st[G_PHASE] = PH_DONE
            break
    write_outputs_nb(st, rng, P, out_g, out_s)
    if err[0] != 0:
        out_g[G_TRUNCATED] = 1  # an illegal answer stopped it


@njit(cache=True)
def user_scratch_nb(view_len):
    """(view, opts, urng): one thread's scratch for the user calls, allocated once per block."""
    return np.zeros(view_len, np.int32), np.zeros(2 * MAX_OPT, np.int32), np.zeros(RNG_WORDS, np.uint64)


@njit(cache=True, parallel=True, nogil=True)
def user_play_chunk_nb(seed, first, n, P, tr, cards, ncards, tavern, legends, strat, sp, ufn, uparams, calls,
                       view_len, search, err, out_g, out_s):
    """Games ``first .. first + n - 1`` (drivers.play_chunk_nb with user seats): blocks of
    about BLOCK games in parallel, scratch per block; ``err`` int64[n, 4] (0: fine)."""
    n_blocks = (n + BLOCK - 1) // BLOCK
    for blk in prange(n_blocks):
        st, ev, rng, fs, wk, rsp, scratch = game_scratch_nb(sp)
        view, opts, urng = user_scratch_nb(view_len)
        lo, hi = block_nb(n, n_blocks, blk)
        for i in range(lo, hi):
            seed_game_nb(rng, seed, first + i)
            user_game_nb(st, ev, rng, P, tr, cards, ncards, tavern, legends, strat, sp, rsp, fs, wk, scratch, search,
                         ufn, uparams, calls, view, opts, urng, err[i], first + i, out_g[i], out_s[i])


@njit(cache=True)
def user_play_traced_nb(seed, k, P, tr, cards, ncards, tavern, legends, strat, sp, ev, ufn, uparams, calls,
                        view_len, search, err, out_g, out_s):
    """Game ``k`` with the event log on (the bulk run's code path); returns the events logged."""
    st, _, rng, fs, wk, rsp, scratch = game_scratch_nb(sp)
    view, opts, urng = user_scratch_nb(view_len)
    seed_game_nb(rng, seed, k)
    user_game_nb(st, ev, rng, P, tr, cards, ncards, tavern, legends, strat, sp, rsp, fs, wk, scratch, search, ufn,
                 uparams, calls, view, opts, urng, err, k, out_g, out_s)
    return st[G_EVENTS]
