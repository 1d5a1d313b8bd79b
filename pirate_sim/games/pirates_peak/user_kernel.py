"""The kernels of Pirate's Peak tables with strategies of one's own (compiled once, whatever the files).

User functions are called by address (pirate_sim/user_abi.py); ``calls`` holds the
addresses and the read-only board handed to them.  The rest is the bulk
kernel's game loop (whole_game.play_rest_nb, play_game_nb, kernel.play_block_nb) with one change: at
the declaration of a seat whose entry has a user function, with more than one legal
declaration, the function picks among them (the options listed as the search player lists
them) from a fresh view (user_turn.user_declare_nb); every other choice of that seat is its
base strategy's (its row of ``sd``).  An index outside the options ends the game
(truncated) and is reported in ``err``; the caller raises.  A table that also seats
``search`` plays search_player.play_search_game_nb with the user arguments (the drivers'
``search`` argument, kernel_base.search_switch: a table without search never compiles the
search player, nor one with search the game loop without it); a search whose ``rollout`` is a strategy file (or a learned player) rolls
out with it there.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from pirate_sim.blocks import run_blocks
from pirate_sim.games.pirates_peak.kernel import block_tables_nb
from pirate_sim.games.pirates_peak.rules import G_N_EV, ROW_ST, RU_STRATEGY_SEATING, SD_RULES
from pirate_sim.games.pirates_peak.search_player import play_search_game_nb, search_scratch_nb
from pirate_sim.games.pirates_peak.user_turn import user_play_rest_nb, user_scratch_nb
from pirate_sim.games.pirates_peak.whole_game import NO_LIMIT, finish_nb, setup_game_nb, start_game_nb
from pirate_sim.seating import entry_of_seat_nb


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
    user_play_rest_nb(sd, rng, w, cur, np.int64(NO_LIMIT), ufn, uparams, ent, calls, view, opts, urng, err)  # as whole_game
    finish_nb(rng, w, out_games, out_seats, k)


@njit(cache=True, nogil=True, error_model="numpy")  # as the prange body it replaces
def user_play_block_nb(sd, seed, first_game, lo, hi, ufn, uparams, calls, view_len, err, out_games, out_seats,
                       search):
    """kernel.play_block_nb with user seats (games first_game + lo .. first_game + hi - 1, rows
    lo .. hi - 1); ``err`` int64[n, 4] per game (0: fine).  ``search`` (kernel_base.search_switch):
    ``()`` no entry searches; ``(1,)``: every game is search_player.play_search_game_nb with the
    user arguments (kernel.play_search_block_nb's).  numba compiles only the branch a table plays."""
    rng, w, sd_block, order, rotate = block_tables_nb(sd)
    view, uopts, urng, ent, rent = user_scratch_nb(view_len)
    if len(search) > 0:
        ss = search_scratch_nb(sd, w.shape[1], 0, 0)
    for k in range(lo, hi):
        start_game_nb(sd, sd_block, rng, seed, first_game + k, rotate)
        if len(search) == 0:
            user_play_game_nb(sd_block, rng, w, order, out_games, out_seats, k, first_game + k, ufn, uparams,
                              calls, view, uopts, urng, err[k], ent)
        else:
            user_search_game_nb(sd_block, rng, w, order, out_games, out_seats, k, first_game + k, ufn, uparams,
                                calls, view, uopts, urng, err[k], ent, rent, ss)


def user_play_chunk(sd, seed, first_game, ufn, uparams, calls, view_len, err, out_games, out_seats, search):
    """:func:`user_play_block_nb` over a chunk on the run's threads (pirate_sim/blocks.py)."""
    run_blocks(lambda lo, hi: user_play_block_nb(sd, seed, first_game, np.int64(lo), np.int64(hi), ufn, uparams,
                                                 calls, view_len, err, out_games, out_seats, search),
               out_games.shape[0])


@njit(cache=True)
def user_play_one_nb(sd, rng, w, deck_order, out_games, out_seats, game_index, ufn, uparams, calls, view_len, err,
                     search):
    """One game on a given work array ``w`` (a trace's, with room for events); ``search`` as
    :func:`user_play_block_nb`'s."""
    view, uopts, urng, ent, rent = user_scratch_nb(view_len)
    if len(search) == 0:
        user_play_game_nb(sd, rng, w, deck_order, out_games, out_seats, 0, game_index, ufn, uparams, calls, view,
                          uopts, urng, err, ent)
    else:
        user_search_game_nb(sd, rng, w, deck_order, out_games, out_seats, 0, game_index, ufn, uparams, calls, view,
                            uopts, urng, err, ent, rent, search_scratch_nb(sd, w.shape[1], 0, 0))
    return w[ROW_ST, G_N_EV]


@njit(cache=True, inline="always")
def user_search_game_nb(sd, rng, w, deck_order, out_games, out_seats, k, game_index, ufn, uparams, calls, view, uopts,
                        urng, err, ent, rent, ss):
    """search_player.play_search_game_nb with the user arguments and the search scratch ``ss``
    (search_player.search_scratch_nb)."""
    (sd_roll, w2, rng2, opts, alive, sums, counts, scores, rec, cnt, snap_w, snap_rng, snap_i) = ss
    play_search_game_nb(sd, rng, w, deck_order, out_games, out_seats, k, game_index, sd_roll, w2, rng2, opts, alive,
                        sums, counts, scores, rec, cnt, snap_w, snap_rng, snap_i, ufn, uparams, calls, view, uopts,
                        urng, err, ent, rent)
