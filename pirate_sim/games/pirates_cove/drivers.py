"""Pirate's Cove's drivers: whole games, and the kernels the plug-in calls (``game.py``).

* ``play_one_game_nb``: one game on a seeded stream, its search seats' decisions answered by
  ``search_player.search_decide_nb`` (every driver's game: bulk runs and traces alike);
* ``game_scratch_nb``: one thread's state and scratch, allocated once per parallel block;
* ``play_chunk_nb``: games ``first .. first + n - 1`` in parallel blocks (``Game.play``; with
  a ``played`` array, also the rollouts each game played: ``docs/pirates_cove_search.py``);
* ``play_traced_nb``: one game with the event log on (``Game.trace``);
* ``collect_decisions_nb``, ``bench_search_nb``, ``bench_playout_nb``: the search's cost
  (``Game.search_bench``).

Tables with strategy files have their own drivers (``user_kernel.py``, which calls
``game_scratch_nb``).  A table without a search seat runs ``play_chunk_nb`` too, with ``search``
None (:func:`searches`): numba then compiles a version without the search player (a first
scripted run compiles about a quarter faster), and its games are the scripted players' alone.

May import: ``actions``, ``rounds``, ``whole_game``, ``search_player``, ``policies``,
``rules``, ``ship``, ``user_turn`` of this game, ``games/kernel_base.py``, ``pirate_sim.rng`` and
``pirate_sim.search``.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ...rng import RNG_WORDS, seed_game_nb
from ...search import derive_stream_nb
from ..kernel_base import block_nb
from .actions import WK_SIZE
from .policies import FS_SIZE, SP_SEARCH
from .rules import (DEC_NONE, EVENT_WIDTH, FORCED_BIAS, G_DEC, G_DEC_SEAT, G_DECISIONS, G_EVENTS, G_FORCED,
                    G_WINNER, S_ENTRY, STATE_WORDS)
from .rounds import advance_nb
from .search_player import PRIOR_STREAM, new_scratch_nb, prior_nb, rollout_tables_nb, search_decide_nb
from .ship import sb_nb
from .whole_game import setup_nb, write_outputs_nb

BLOCK = 64  # games per parallel block (about: block_nb splits a chunk evenly)


@njit(cache=True)
def play_one_game_nb(st, ev, rng, P, tr, cards, ncards, tavern, legends, strat, sp, rsp, fs, wk, rst, rrng, rfs,
                     rwk, ev0, si, sf, search, game_index, out_g, out_s):
    """One whole game on an already seeded ``rng`` (bulk runs and traces share it);
    returns the rollouts its search seats played.  ``search`` None: no entry searches
    (:func:`searches`), and numba compiles no search code.  No strategy files here
    (user_kernel.py has them): the search gets None for their arguments."""
    setup_nb(st, ev, rng, P, tr, ncards, tavern, legends, strat, sp, game_index)
    played = 0
    usr = None
    while advance_nb(st, ev, rng, P, tr, cards, legends, strat, sp, fs, wk, P.rounds + 1) != DEC_NONE:
        if search is None:  # only a searching entry pauses the game (advance_nb)
            raise AssertionError("a table without a search seat paused at a decision")
        played += search_decide_nb(st, ev, rng, P, tr, cards, ncards, legends, strat, sp, rsp, rst, rrng, rfs, rwk,
                                   ev0, si, sf, usr)
    write_outputs_nb(st, rng, P, out_g, out_s)
    return played


@njit(cache=True)
def game_scratch_nb(sp):
    """(st, ev, rng, fs, wk, rsp, scratch): one thread's state vector, an event log with no
    rows (bulk runs log nothing), the game's stream, the public model, the work space, the
    rollout tables (``rollout_tables_nb``) and the search scratch (``new_scratch_nb``)."""
    return (np.zeros(STATE_WORDS, np.int32), np.zeros((0, EVENT_WIDTH), np.int32), np.zeros(RNG_WORDS, np.uint64),
            np.zeros(FS_SIZE, np.float64), np.zeros(WK_SIZE, np.int64), rollout_tables_nb(sp), new_scratch_nb())


@njit(cache=True, parallel=True, nogil=True)
def play_chunk_nb(seed, first, n, P, tr, cards, ncards, tavern, legends, strat, sp, out_g, out_s, played, search):
    """Games ``first .. first + n - 1``: blocks of about BLOCK games in parallel, scratch per
    block.  ``played``: int64[n], each game's rollouts (measurements), or no rows (``Game.play``);
    ``search``: :func:`searches` of ``sp``."""
    n_blocks = (n + BLOCK - 1) // BLOCK
    for blk in prange(n_blocks):
        st, ev, rng, fs, wk, rsp, scratch = game_scratch_nb(sp)
        rst, rrng, rfs, rwk, ev0, si, sf = scratch
        lo, hi = block_nb(n, n_blocks, blk)
        for i in range(lo, hi):
            seed_game_nb(rng, seed, first + i)
            r = play_one_game_nb(st, ev, rng, P, tr, cards, ncards, tavern, legends, strat, sp, rsp, fs, wk, rst,
                                 rrng, rfs, rwk, ev0, si, sf, search, first + i, out_g[i], out_s[i])
            if played.shape[0] > 0:
                played[i] = r


@njit(cache=True)
def play_traced_nb(seed, k, P, tr, cards, ncards, tavern, legends, strat, sp, ev, search, out_g, out_s):
    """Game ``k`` with the event log on (same code path as the bulk run; ``search``: :func:`searches`)."""
    st, _, rng, fs, wk, rsp, scratch = game_scratch_nb(sp)
    rst, rrng, rfs, rwk, ev0, si, sf = scratch
    seed_game_nb(rng, seed, k)
    play_one_game_nb(st, ev, rng, P, tr, cards, ncards, tavern, legends, strat, sp, rsp, fs, wk, rst, rrng, rfs, rwk,
                     ev0, si, sf, search, k, out_g, out_s)
    return st[G_EVENTS]


def searches(sp):
    """The drivers' ``search`` argument for seat tables ``sp``: True where an entry searches,
    None where none does (numba then compiles the drivers without the search player)."""
    return True if (np.asarray(sp)[:, SP_SEARCH] != 0).any() else None


# ------------------------------------------------------------------ bench: the search's cost
@njit(cache=True)
def collect_decisions_nb(seed, n_games, P, tr, cards, ncards, tavern, legends, strat, sp, out_st, out_rng):
    """Play games (each pending decision answered by the rollout strategy's own choice)
    and keep the state and stream at up to len(out_st) searched decisions; returns how many."""
    st, ev, rng, fs, wk, rsp, scratch = game_scratch_nb(sp)
    rrng, rfs = scratch[1], scratch[2]  # the prior's stream and public model
    got = 0
    for g in range(n_games):
        seed_game_nb(rng, seed, g)
        setup_nb(st, ev, rng, P, tr, ncards, tavern, legends, strat, sp, g)
        while advance_nb(st, ev, rng, P, tr, cards, legends, strat, sp, fs, wk, P.rounds + 1) != DEC_NONE:
            if got < out_st.shape[0]:
                out_st[got] = st
                out_rng[got] = rng
                got += 1
            s = st[G_DEC_SEAT]
            derive_stream_nb(rrng, rng, st[G_DECISIONS], PRIOR_STREAM)
            st[G_FORCED] = prior_nb(st, rrng, P, tr, strat, rsp, rfs, st[G_DEC], s) + FORCED_BIAS
            st[G_DECISIONS] += 1
        if got >= out_st.shape[0]:
            break
    return got


@njit(cache=True)
def bench_search_nb(states, rngs, m, P, tr, cards, ncards, legends, strat, sp):
    """Search each of the first ``m`` collected decisions; returns the rollouts played."""
    st, ev, rng, fs, wk, rsp, scratch = game_scratch_nb(sp)
    rst, rrng, rfs, rwk, ev0, si, sf = scratch
    usr = None
    played = 0
    for d in range(m):
        st[:] = states[d]
        played += search_decide_nb(st, ev, rngs[d], P, tr, cards, ncards, legends, strat, sp, rsp, rst, rrng, rfs,
                                   rwk, ev0, si, sf, usr)
    return played


@njit(cache=True)
def bench_playout_nb(states, rngs, m, reps, P, tr, cards, legends, strat, sp):
    """``reps[d]`` plain playouts from each collected decision: a copy of the state played
    to the end by the rollout strategy in every seat, the decision its own, no re-dealing,
    no forced option, no choosing (the same streams as the rollouts: derived per playout)."""
    st, ev, rng, fs, wk, rsp, scratch = game_scratch_nb(sp)
    rst, rrng, rfs, rwk, ev0, si, sf = scratch  # the playouts use a rollout's own scratch
    total = 0
    for d in range(m):
        s = states[d][G_DEC_SEAT]
        for j in range(reps[d]):
            rst[:] = states[d]
            derive_stream_nb(rrng, rngs[d], states[d][G_DECISIONS], j)
            e = rst[sb_nb(s) + S_ENTRY]
            for o in range(P.n_seats):
                rst[sb_nb(o) + S_ENTRY] = e
            rst[G_DEC] = DEC_NONE
            advance_nb(rst, ev0, rrng, P, tr, cards, legends, strat, rsp, rfs, rwk, P.rounds + 1)
            total += rst[G_WINNER] + 1
    return total
