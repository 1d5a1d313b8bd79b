"""Pirateer's kernels beside the engine: the capture odds' Monte Carlo and the search bench's
decision points.

Bulk runs, traces, the heat map, strategy files and ``search`` are the decision protocol's
engine (``pirate_sim/engine_template.py``) over ``protocol.py``; the kernel modules below it hold
the rules (``state``, ``moves``, ``players``, ``turn``, ``whole_game``) and the search's pieces
of this game (``search_player``).  May import every kernel module of the game.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...rng import RNG_WORDS, roll_die_nb, seed_game_nb
from .moves import gen_plays_nb, play_captures_nb
from .protocol import (MAX_OPTIONS, apply_nb, new_state_nb, next_decision_nb, options_nb, policy_nb, setup_nb,
                       thread_tables_nb)
from .rules import DIE_SIDES, G_TURN


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


@njit(cache=True, error_model="numpy")
def bench_points_nb(seed, P, T, code, w, spacing, out_st, out_rng):
    """Decision points for the search bench: games ``0, 1, ..`` with every seat playing scripted
    strategy ``code`` (weights ``w``); at every ``spacing``-th turn with more than one legal play
    the state (the turn waiting) and the game's stream are recorded, until ``out_st`` is full.
    Returns the games played."""
    TT = thread_tables_nb(P, T)
    st = new_state_nb(P)
    rng = np.zeros(RNG_WORDS, np.uint64)
    ev = np.zeros((0, 6), np.int32)
    opts = np.zeros(MAX_OPTIONS, np.int64)
    scores = np.zeros(MAX_OPTIONS)
    got = 0
    g = 0
    while got < out_st.shape[0]:
        seed_game_nb(rng, seed, g)
        setup_nb(st, ev, rng, P, TT, g)
        while got < out_st.shape[0]:
            s = next_decision_nb(st, ev, rng, P, TT)
            if s < 0:
                break
            n = options_nb(st, P, TT, opts)
            if n > 1 and st[G_TURN] % spacing == 0:
                out_st[got] = st
                out_rng[got] = rng[:RNG_WORDS]
                got += 1
            apply_nb(st, ev, rng, P, TT, opts[policy_nb(st, rng, P, TT, s, code, w, opts, n, scores)])
        g += 1
    return g
