"""Pirate's Peak: a strategy file's turn (pirate_sim.user_strategy; docs/strategies.md).

The pieces every kernel with strategy files plays: the declaration a user function takes
(``user_declare_nb``), the rest of a game with user seats (``user_play_rest_nb``: the real
game in user_kernel.py, and the rollouts of a search that rolls out a strategy file in
search_player.py), the scratch they work in, and the stand-ins a kernel without strategy
files passes (``no_user_nb``).  User functions are called by address (pirate_sim/user_abi.py).

May import ``rules``, ``mechanics``, ``sea``, ``turn``, ``whole_game``, ``user_view``; search_player.py
and user_kernel.py import it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...rng import RNG_WORDS
from ...search import derive_stream_nb
from ...user_abi import call_user_nb
from .mechanics import end_game_nb
from .rules import ACT_FIRE, ACT_SAIL, ACT_SEARCH, END_TRUNCATED, G_TURNS, ROW_ST
from .sea import can_fire_nb
from .turn import can_search_nb, turn_act_nb, turn_begin_nb, turn_steps_nb
from .user_view import USER_STREAM, fill_view_nb
from .whole_game import finish_move_nb, more_turns_nb

MAX_OPTIONS = 8  # scratch length of a decision's options (at most 3 in Pirate's Peak; search_player's too)
ROLLOUT_ERR = 1 << 20  # pirate_sim.user_strategy.ROLLOUT_ERR: err[0] above it, the answer came in a rollout


@njit(cache=True)
def user_choose_nb(fi, view, options, params, rng, calls):
    """What user function ``fi`` answers (pirate_sim/user_abi.py: a call by address)."""
    return call_user_nb(calls, fi, view, options, params, rng)


@njit(cache=True, inline="always", _nrt=False)
def declare_options_nb(sd, w, cur, opts):
    """Seat ``cur``'s legal declarations into ``opts`` (sail; search, fire where it may), as a
    strategy file and the search player get them; how many."""
    n = 1
    opts[0] = ACT_SAIL
    if can_search_nb(w, cur) != 0:
        opts[n] = ACT_SEARCH
        n += 1
    if can_fire_nb(sd, w, cur):
        opts[n] = ACT_FIRE
        n += 1
    return n


@njit(cache=True, _nrt=False)
def user_declare_nb(sd, rng, w, cur, f, params, calls, view, opts, urng, err):
    """User seat ``cur``'s declaration (function ``f``, parameters ``params``): with more than
    one legal declaration, the function's pick from a fresh view; an ACT_*, or -1 after an
    illegal answer (``err`` set, the game ended truncated)."""
    n = declare_options_nb(sd, w, cur, opts)
    if n == 1:
        return ACT_SAIL
    fill_view_nb(w, cur, 1 if opts[1] == ACT_SEARCH else 0, 1 if opts[n - 1] == ACT_FIRE else 0, view)
    derive_stream_nb(urng, rng, w[ROW_ST, G_TURNS], USER_STREAM)
    for i in range(n):  # the function gets its own copy of the options
        opts[MAX_OPTIONS + i] = opts[i]
    c = user_choose_nb(f, view, opts[MAX_OPTIONS:MAX_OPTIONS + n], params, urng, calls)
    if c < 0 or c >= n:
        err[0] = f + 1
        err[1] = w[ROW_ST, G_TURNS]
        err[2] = c
        err[3] = n
        end_game_nb(w, END_TRUNCATED, -1)
        return -1
    return opts[c]


@njit(cache=True, _nrt=False)
def user_play_rest_nb(sd, rng, w, cur, last_turn, ufn, uparams, ent, calls, view, opts, urng, err):
    """whole_game.play_rest_nb (to the end, or until ``last_turn`` turns are played) with the
    user seats' declarations; ``ent[s]``: the row of ``ufn`` / ``uparams`` playing seat s."""
    while more_turns_nb(sd, w, last_turn):
        e = ent[cur]
        f = ufn[e]
        if f < 0:
            steps = turn_steps_nb(sd, rng, w, cur)
        else:
            steps = turn_begin_nb(sd, rng, w, cur)
            if steps < 0:
                act = user_declare_nb(sd, rng, w, cur, f, uparams[e], calls, view, opts, urng, err)
                if act < 0:
                    break
                steps = turn_act_nb(sd, rng, w, cur, act)
        finish_move_nb(sd, rng, w, cur, steps)
        cur = 1 - cur


@njit(cache=True)
def user_scratch_nb(view_len):
    """(view, opts, urng, ent, rent): a user game's scratch (the view handed to the functions,
    the options and their copy, the function's stream, the entry of each seat, the row each
    seat plays in a rollout)."""
    return (np.zeros(view_len, np.int32), np.zeros(2 * MAX_OPTIONS, np.int32), np.zeros(RNG_WORDS, np.uint64),
            np.zeros(2, np.int64), np.zeros(2, np.int64))


@njit(cache=True)
def no_user_nb(n_seats):
    """The user arguments of a table without strategy files: (ufn, uparams, calls, view, uopts,
    urng, err, ent, rent) with ``ufn`` None, so that numba prunes every strategy-file branch
    (``if ufn is None``) from the kernels that take these: a plain search kernel compiles no
    strategy-file game loop (Pirate's Peak's first search seat: 160 s -> 105 s cold)."""
    return (None, np.zeros((2 * n_seats, 1)), (np.zeros(1, np.int64),),
            np.zeros(1, np.int32), np.zeros(2 * MAX_OPTIONS, np.int32), np.zeros(RNG_WORDS, np.uint64),
            np.zeros(4, np.int64), np.zeros(2, np.int64), np.zeros(2, np.int64))
