"""Ice Pirates: a turn replayed from its start with its choices forced, and a strategy file's turn
on it (pirate_sim.user_strategy; docs/strategies.md).

The search player (searcher.py) and a strategy file (user_kernel.py) pause a turn at a
seat's choice the same way: the turn is played from its start with the choices made so far
forced (T_FORCED) until it pauses at the next one (T_PEND), and ``options_nb`` lists that
choice's options.  ``user_turn_nb`` is a strategy file's whole turn on that replay: the
real game's (user_kernel.py) and, in a search that rolls out a strategy file or a learned
player, each turn of its rollouts (searcher.rollout_nb).  A table without strategy files
passes None for the user arguments, and numba prunes every branch that could call one.

Imports play.py (the turn), rules.py, state.py, user_view.py, .search
(derive_stream_nb) and .user_abi; searcher.py and user_kernel.py import it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from pirate_sim.games.ice_pirates.play import turn_nb
from pirate_sim.games.ice_pirates.rules import (END_TRUNCATED, G_END, G_SEAT, G_TURN, MAX_FORCED, PEND_DIR,
                                                PEND_FIGHT, T_FORCED, T_FPOS, T_FSEAT, T_NF, T_PAUSE,
                                                T_PEND, T_PMASK, T_PSTOP)
from pirate_sim.games.ice_pirates.state import FS_KEY_TURN
from pirate_sim.games.ice_pirates.user_view import USER_STREAM, fill_view_nb
from pirate_sim.search import derive_stream_nb
from pirate_sim.user_abi import call_user_nb

ROLLOUT_ERR = 1 << 20  # pirate_sim.user_strategy.ROLLOUT_ERR: err[0] above it, the answer came in a rollout

MAX_OPTIONS = 8  # a direction choice: 6 directions + stop; a raid: no raid + 5 seats


@njit(cache=True, _nrt=False)
def options_nb(st, P, opts):
    """The options of the paused choice in ``st`` into ``opts`` (headings then -1 to stop;
    1 fight, 0 not; -1 no raid then seats); their number.  The search player's and a
    strategy file's (user_kernel.py) one list of a choice's options."""
    kind = st[T_PEND]
    n = 0
    if kind == PEND_DIR:
        mask = st[T_PMASK]
        for d in range(6):
            if (mask >> d) & 1:
                opts[n] = d
                n += 1
        if st[T_PSTOP] == 1:
            opts[n] = -1
            n += 1
    elif kind == PEND_FIGHT:
        opts[0] = 1
        opts[1] = 0
        n = 2
    else:
        opts[0] = -1
        n = 1
        cand = st[T_PMASK]
        for o in range(P.n_seats):
            if (cand >> o) & 1:
                opts[n] = o
                n += 1
    return n


@njit(cache=True)
def replay_turn_nb(st, ev, rng, P, geo, rel, cum_w, costs, strat, sp, fs, st0, rng0, s, nf):
    """Seat ``s``'s turn replayed from its start (``st0``, ``rng0``) with its first ``nf``
    choices forced (``st0``'s T_FORCED words), up to its next choice: True if the turn paused
    there (T_PEND), False if it ended.  The search player's and a strategy file's
    (user_kernel.user_turn_nb) one replay of a turn."""
    st[:] = st0
    rng[:] = rng0
    st[T_FSEAT] = s
    st[T_NF] = nf
    st[T_FPOS] = 0
    st[T_PAUSE] = 1 if nf < MAX_FORCED - 1 else 0  # (never reached: a turn has fewer choices)
    st[T_PEND] = 0
    fs[FS_KEY_TURN] = -1  # no plan of an earlier replay is reused
    turn_nb(st, ev, rng, P, geo, rel, cum_w, costs, strat, sp, fs)
    return st[T_PEND] != 0


@njit(cache=True)
def user_choose_nb(fi, view, options, params, rng, calls):
    """What user function ``fi`` answers (pirate_sim/user_abi.py: a call by address)."""
    return call_user_nb(calls, fi, view, options, params, rng)


@njit(cache=True)
def user_turn_nb(st, ev, rng, P, geo, rel, cum_w, costs, strat, sp, fs, f, params, calls, st0, rng0, view, opts,
                 uopts, urng, err, nf0, code):
    """One turn of user seat ``st[G_SEAT]`` (function ``f``, parameters ``params``) from the
    turn's start in ``st``, its first ``nf0`` choices forced (``st``'s T_FORCED words: a
    rollout's searched option): replayed from its start after each of the function's choices
    (see above).  False if the function answered an illegal index (``err`` set to ``code``
    and the rest, the first one only; the game ended truncated)."""
    s = st[G_SEAT]
    st0[:] = st
    rng0[:] = rng
    nf = nf0
    while True:
        if not replay_turn_nb(st, ev, rng, P, geo, rel, cum_w, costs, strat, sp, fs, st0, rng0, s, nf):
            break
        n = options_nb(st, P, opts)
        c = 0
        if n > 1:
            fill_view_nb(st, st0, P, view)
            for i in range(n):  # the function gets its own copy of the options
                uopts[i] = opts[i]
            derive_stream_nb(urng, rng0, np.int64(st0[G_TURN]) * MAX_FORCED + nf, USER_STREAM)
            c = user_choose_nb(f, view, uopts[:n], params, urng, calls)
            if c < 0 or c >= n:
                if err[0] == 0:
                    err[0] = code
                    err[1] = st[G_TURN]
                    err[2] = c
                    err[3] = n
                return end_replay_nb(st, True)
        st0[T_FORCED + nf] = opts[c]
        nf += 1
    return end_replay_nb(st, False)


@njit(cache=True)
def end_replay_nb(st, truncated):
    """A replayed turn is over: its forcing and pausing words cleared; ``truncated`` (an
    illegal answer) also ends the game there.  Returns True if the game goes on."""
    st[T_NF] = 0
    st[T_FPOS] = 0
    st[T_PAUSE] = 0
    if truncated:
        st[T_PEND] = 0
        st[G_END] = END_TRUNCATED
    return not truncated
