"""Pirateer's kernel: what its ``search`` needs of the rules.  What a finished (or cut-off) rollout
is worth to a seat (``reward_nb``) and the position a play leaves (``play_key_nb``: plays that
leave the same position are merged before the rollouts).  The search itself is the engine's
(``pirate_sim/engine_template.py``), with this game's work before it in
``protocol.search_prepare_nb``.

May import ``rules``, ``state`` and ``moves``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...search import REWARD_RANK, REWARD_WIN
from .rules import G_TREASURE, G_WINNER, SHIPS_BASE, S_SHIPS
from .state import MARGIN_WEIGHT, sb_nb
from .moves import do_step_nb, undo_step_nb, walk_nb, wins_nb


@njit(cache=True, error_model="numpy")
def reward_nb(st, P, seat, reward):
    """What a finished (or stopped) rollout is worth to ``seat``: ``win`` 1/0 (a game not won
    shared equally among the seats still afloat); ``rank`` 1 for the winner down to 0 for
    the last by ships left (ties share); ``margin`` the win plus 0.01 x (its ships - the most
    ships of another seat) / ships per seat."""
    own = st[sb_nb(seat) + S_SHIPS]
    w = st[G_WINNER]
    if w >= 0:
        win = 1.0 if w == seat else 0.0
    else:
        afloat = 0
        for s in range(P.n_seats):
            if st[sb_nb(s) + S_SHIPS] > 0:
                afloat += 1
        win = 1.0 / afloat if own > 0 else 0.0
    if reward == REWARD_WIN or P.n_seats < 2:
        return win
    if reward == REWARD_RANK:
        if w == seat:
            return 1.0
        above = 0.0  # seats ranked above it: the winner, more ships left; half of each tie
        for s in range(P.n_seats):
            if s == seat:
                continue
            o = st[sb_nb(s) + S_SHIPS]
            if s == w or o > own:
                above += 1.0
            elif o == own:
                above += 0.5
        return 1.0 - above / (P.n_seats - 1)
    most = 0
    for s in range(P.n_seats):
        if s != seat and st[sb_nb(s) + S_SHIPS] > most:
            most = st[sb_nb(s) + S_SHIPS]
    return win + MARGIN_WEIGHT * (own - most) / P.ships_per_seat


@njit(cache=True, error_model="numpy")
def play_key_nb(st, P, nb, kind, seat, play, key):
    """Write the position ``play`` leaves (every ship's node, the treasure) into ``key``;
    return (its hash, whether the play wins).  The state is left as it was."""
    sps = P.ships_per_seat
    dest1 = walk_nb(st, sps, nb, kind, st[SHIPS_BASE + play[0]], play[1], play[2], seat)
    v1, p1, t1 = do_step_nb(st, sps, play[0], dest1, play[3])
    two = play[4] >= 0
    dest2 = 0
    v2 = -1
    p2 = 0
    t2 = 0
    if two:
        dest2 = walk_nb(st, sps, nb, kind, st[SHIPS_BASE + play[4]], play[5], play[6], seat)
        v2, p2, t2 = do_step_nb(st, sps, play[4], dest2, play[7])
    win = wins_nb(st, P.n_seats, sps, seat)
    h = np.int64(st[G_TREASURE]) + 2
    for i in range(P.n_seats * sps):
        key[i] = st[SHIPS_BASE + i]
        h = h * np.int64(1000003) + st[SHIPS_BASE + i] + 1
    key[P.n_seats * sps] = st[G_TREASURE]
    if two:
        undo_step_nb(st, sps, play[4], dest2, v2, p2, t2)
    undo_step_nb(st, sps, play[0], dest1, v1, p1, t1)
    return h, win
