"""Ice Pirates kernel, part 7 of 7: the drivers, the entry points ``game.py`` calls: a chunk of
games in parallel blocks (``play_chunk_nb``), one traced game (``play_traced_nb``), and the
same for scenarios with a search seat (``search_chunk_nb``, ``search_traced_nb``: entry
points of their own, so that a run without a search player never compiles it) and the
search player's benchmark (``search_bench_nb``).  Each allocates a game's scratch with
``play.game_scratch_nb`` and splits a chunk with ``kernel_base.block_nb``.

Imports ``play`` and ``searcher`` (and ``games.kernel_base``); see ``state.py`` for the order of
the kernel's modules.
"""

from __future__ import annotations

from numba import njit, prange

from ...rng import seed_game_nb
from ..kernel_base import block_nb
from .play import game_scratch_nb, play_one_game_nb, setup_nb
from .rules import G_EVENTS
from .searcher import search_game_nb, search_one_game_nb
from .state import BLOCK, FS_KEY_TURN


@njit(cache=True, parallel=True, nogil=True)
def play_chunk_nb(seed, first, n, P, geo, rel, cum_w, costs, deck, port_upg, strat, sp, out_g, out_s):
    """Games ``first .. first + n - 1``: blocks of at most BLOCK games in parallel, scratch per block."""
    n_blocks = (n + BLOCK - 1) // BLOCK
    for blk in prange(n_blocks):
        st, ev, rng, fs, perm = game_scratch_nb()
        lo, hi = block_nb(n, n_blocks, blk)
        for i in range(lo, hi):
            seed_game_nb(rng, seed, first + i)
            play_one_game_nb(st, ev, rng, P, geo, rel, cum_w, costs, deck, port_upg, strat, sp, fs,
                             perm, out_g[i], out_s[i], first + i)


@njit(cache=True)
def play_traced_nb(seed, k, P, geo, rel, cum_w, costs, deck, port_upg, strat, sp, ev, out_g, out_s):
    """Game ``k`` with the event log on (same code path as the bulk run)."""
    st, _, rng, fs, perm = game_scratch_nb()
    seed_game_nb(rng, seed, k)
    play_one_game_nb(st, ev, rng, P, geo, rel, cum_w, costs, deck, port_upg, strat, sp, fs, perm,
                     out_g, out_s, k)
    return st[G_EVENTS]


@njit(cache=True, parallel=True, nogil=True)
def search_chunk_nb(seed, first, n, P, geo, rel, cum_w, costs, deck, port_upg, strat, sp, out_g, out_s):
    """play_chunk_nb for scenarios with a search seat: one game per parallel item (a search
    game is long: blocks of 64 would leave threads idle at a chunk's end)."""
    for i in prange(n):
        st, ev, rng, fs, perm = game_scratch_nb()
        seed_game_nb(rng, seed, first + i)
        search_one_game_nb(st, ev, rng, P, geo, rel, cum_w, costs, deck, port_upg, strat, sp, fs,
                           perm, out_g[i], out_s[i], first + i)


@njit(cache=True)
def search_traced_nb(seed, k, P, geo, rel, cum_w, costs, deck, port_upg, strat, sp, ev, out_g, out_s):
    """play_traced_nb for scenarios with a search seat (the event log shows each turn once:
    a replayed turn rewinds the log with the state)."""
    st, _, rng, fs, perm = game_scratch_nb()
    seed_game_nb(rng, seed, k)
    search_one_game_nb(st, ev, rng, P, geo, rel, cum_w, costs, deck, port_upg, strat, sp, fs, perm,
                       out_g, out_s, k)
    return st[G_EVENTS]


@njit(cache=True)
def search_bench_nb(seed, first, max_decisions, P, geo, rel, cum_w, costs, deck, port_upg, strat, sp, pts, pts_rng,
                    tally):
    """Search games from ``first`` on until ``max_decisions`` searched choices were made."""
    st, ev, rng, fs, perm = game_scratch_nb()
    k = first
    while tally[1] < max_decisions:
        seed_game_nb(rng, seed, k)
        setup_nb(st, ev, rng, P, geo, cum_w, deck, port_upg, perm, k)
        fs[FS_KEY_TURN] = -1
        search_game_nb(st, ev, rng, P, geo, rel, cum_w, costs, strat, sp, fs, tally, max_decisions, pts, pts_rng)
        k += 1
    return k - first
