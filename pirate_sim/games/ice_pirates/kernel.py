"""Ice Pirates kernel, part 7 of 7: the drivers, the entry points ``game.py`` calls: a chunk of
games in parallel blocks (``play_chunk_nb``), one traced game (``play_traced_nb``), each with
a ``search`` argument (kernel_base.search_switch: numba compiles only the branch a table
plays, so a run without a search seat never compiles the search player), and the search player's benchmark
(``search_bench_nb``).  Each allocates a game's scratch with
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
def play_chunk_nb(seed, first, n, P, geo, rel, cum_w, costs, deck, port_upg, strat, sp, search, out_g, out_s):
    """Games ``first .. first + n - 1`` in parallel blocks, scratch per block.  ``search``
    (kernel_base.search_switch): ``()`` where no seat searches, blocks of at most BLOCK games;
    ``(1,)``: searcher.search_one_game_nb, one game a block (a search game is long: blocks of 64
    would leave threads idle at a chunk's end).  numba keeps only the branch a table plays."""
    per = BLOCK if len(search) == 0 else 1
    n_blocks = (n + per - 1) // per
    for blk in prange(n_blocks):
        st, ev, rng, fs, perm = game_scratch_nb()
        lo, hi = block_nb(n, n_blocks, blk)
        for i in range(lo, hi):
            seed_game_nb(rng, seed, first + i)
            if len(search) == 0:
                play_one_game_nb(st, ev, rng, P, geo, rel, cum_w, costs, deck, port_upg, strat, sp, fs, perm, out_g[i],
                                 out_s[i], first + i)
            else:
                search_one_game_nb(st, ev, rng, P, geo, rel, cum_w, costs, deck, port_upg, strat, sp, fs, perm,
                                   out_g[i], out_s[i], first + i)


@njit(cache=True)
def play_traced_nb(seed, k, P, geo, rel, cum_w, costs, deck, port_upg, strat, sp, ev, search, out_g, out_s):
    """Game ``k`` with the event log on (same code path as the bulk run; a search table's
    replayed turn rewinds the log with the state, so each turn shows once)."""
    st, _, rng, fs, perm = game_scratch_nb()
    seed_game_nb(rng, seed, k)
    if len(search) == 0:
        play_one_game_nb(st, ev, rng, P, geo, rel, cum_w, costs, deck, port_upg, strat, sp, fs, perm, out_g, out_s, k)
    else:
        search_one_game_nb(st, ev, rng, P, geo, rel, cum_w, costs, deck, port_upg, strat, sp, fs, perm, out_g, out_s,
                           k)
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
