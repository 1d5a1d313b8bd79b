"""Pirate's Peak's ``learned`` player: the seat's declaration (sail / search / fire) by a
linear value of each option over features of the seat's view (docs/learned.md).

This file is a strategy file (docs/strategies.md): it sees only ``view`` (what both players
see on the table, pirate_sim.games.pirates_peak.user_view), the legal declarations and its
weights; the seat's other choices are its ``base`` strategy's.  ``pirate-sim learn`` fits the
weights; a weights file (``.npz``) fills ``params`` in ``PARAMS`` order.

Value of an option: sail 0 (the reference), search ``w_search . phi``, fire ``w_fire . phi``;
the best value is played, ties to the earlier option (sail first).  Features ``phi`` (scaled
so a typical value is about 1; "me" is the deciding seat):

    0  bias (1)                         8  my progress - the opponent's, / 10
    1  my gold - the opponent's, / 10   9  my progress / 20
    2  my gold / 10                    10  turns played / 50
    3  my life points / 3              11  the Peak is laid (0/1)
    4  the opponent's life points / 3  12  gold in the Sea Bank / 10
    5  my cannonballs / 3              13  searches at my dig site / 3
    6  my crewmen / 3                  14  I hold a Peak treasure (0/1)
    7  the opponent's crewmen / 3      15  I am docked, or trapped (0/1)
"""

import numpy as np

from pirate_sim.games.pirates_peak.rules import (ACT_FIRE, ACT_SEARCH, N_SHIP, SH_BALLS, SH_CREW, SH_DIGS, SH_DOCKED,
                                                 SH_GOLD, SH_LIFE, SH_POS, SH_TRAP, SH_TREASURE)
from pirate_sim.games.pirates_peak.user_view import V_PEAK_X, V_SEA_BANK, V_SEAT, V_SHIP, V_TURNS

N_FEATURES = 16
FEATURES = ("bias", "gold_lead", "gold", "life", "opponent_life", "cannonballs", "crew", "opponent_crew",
            "progress_lead", "progress", "turns", "peak_laid", "sea_bank", "digs_here", "peak_treasure",
            "docked_or_trapped")
OPTIONS = ("search", "fire")  # the options with weights (sail is the reference, value 0)
PARAMS = {"learned": {
    "search_bias": 0.0, "search_gold_lead": 0.0, "search_gold": 0.0, "search_life": 0.0,
    "search_opponent_life": 0.0, "search_cannonballs": 0.0, "search_crew": 0.0, "search_opponent_crew": 0.0,
    "search_progress_lead": 0.0, "search_progress": 0.0, "search_turns": 0.0, "search_peak_laid": 0.0,
    "search_sea_bank": 0.0, "search_digs_here": 0.0, "search_peak_treasure": 0.0, "search_docked_or_trapped": 0.0,
    "fire_bias": 0.0, "fire_gold_lead": 0.0, "fire_gold": 0.0, "fire_life": 0.0,
    "fire_opponent_life": 0.0, "fire_cannonballs": 0.0, "fire_crew": 0.0, "fire_opponent_crew": 0.0,
    "fire_progress_lead": 0.0, "fire_progress": 0.0, "fire_turns": 0.0, "fire_peak_laid": 0.0,
    "fire_sea_bank": 0.0, "fire_digs_here": 0.0, "fire_peak_treasure": 0.0, "fire_docked_or_trapped": 0.0,
}}


def features(view, phi):
    """Fill ``phi`` (float64[N_FEATURES]) from the seat's view (layout in the docstring)."""
    s = view[V_SEAT]
    me = V_SHIP + N_SHIP * s
    op = V_SHIP + N_SHIP * (1 - s)
    phi[0] = 1.0
    phi[1] = (view[me + SH_GOLD] - view[op + SH_GOLD]) / 10.0
    phi[2] = view[me + SH_GOLD] / 10.0
    phi[3] = view[me + SH_LIFE] / 3.0
    phi[4] = view[op + SH_LIFE] / 3.0
    phi[5] = view[me + SH_BALLS] / 3.0
    phi[6] = view[me + SH_CREW] / 3.0
    phi[7] = view[op + SH_CREW] / 3.0
    phi[8] = (view[me + SH_POS] - view[op + SH_POS]) / 10.0
    phi[9] = view[me + SH_POS] / 20.0
    phi[10] = view[V_TURNS] / 50.0
    phi[11] = 1.0 if view[V_PEAK_X] >= 0 else 0.0
    phi[12] = view[V_SEA_BANK] / 10.0
    phi[13] = view[me + SH_DIGS] / 3.0
    phi[14] = 1.0 if view[me + SH_TREASURE] != 0 else 0.0
    phi[15] = 1.0 if view[me + SH_DOCKED] != 0 or view[me + SH_TRAP] != 0 else 0.0


def learned(view, options, params):
    """The option of the best value (sail 0, search and fire linear in the features)."""
    phi = np.zeros(N_FEATURES)
    features(view, phi)
    best = 0
    best_v = 0.0
    for i in range(options.shape[0]):
        a = options[i]
        off = -1
        if a == ACT_SEARCH:
            off = 0
        elif a == ACT_FIRE:
            off = N_FEATURES
        if off < 0:
            continue
        v = 0.0
        for j in range(N_FEATURES):
            v += params[off + j] * phi[j]
        if v > best_v:
            best_v = v
            best = i
    return best


def option_features(view, options, board, psi):
    """Fill ``psi`` (float64[len(options), 32]) so that option i's value in :func:`learned` is
    ``params . psi[i]``: sail none (0), search the features in the search weights' slots, fire in
    the fire weights' (``pirate-sim learn --method distill`` fits the weights through it)."""
    phi = np.zeros(N_FEATURES)
    features(view, phi)
    for i in range(options.shape[0]):
        for j in range(2 * N_FEATURES):
            psi[i, j] = 0.0
        off = -1
        if options[i] == ACT_SEARCH:
            off = 0
        elif options[i] == ACT_FIRE:
            off = N_FEATURES
        if off >= 0:
            for j in range(N_FEATURES):
                psi[i, off + j] = phi[j]

