"""The ``luck`` toy of tests/toy_meta.py, written on the decision protocol (pirate_sim/contract.py).

Each seat in turn picks one of six options, which count for nothing; then one uniform draw names
the winner.  Whatever a player does, it wins its fair share 1/n, so every step of the skill
ladder sits at 1/n and the skill depth is 0 (tests/test_meta_known.py).  Its ``search`` (the
contract's: determinised rollouts, sequential halving) searches options that are all worth the
same.  No driver, search or chunk code here: only the rules.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from pirate_sim.contract import ProtocolGame
from pirate_sim.games.base import G_END, G_FIRST_SEAT, G_TRUNCATED, G_TURNS, G_WINNER, Column, Strategy, \
    column_code
from pirate_sim.games.kernel_base import log_event_nb
from pirate_sim.rng import rand_below_nb
from pirate_sim.seating import seating_params

LuckRules = namedtuple("LuckRules", ["n_seats"])
ST_NEXT = 0  # the seat to pick next (n_seats: every seat has picked)
ST_WINNER = 1  # the drawn winner (-1 before the draw)
ST_EVENTS = 2  # event rows logged
ST_PICK = 3  # ST_PICK + s: seat s's pick
STATE_WORDS = 3 + 4
MAX_OPTIONS = 6
RANDOM = 0  # the one scripted strategy
EV_PICK, EV_WIN = 0, 1

SEAT_COLUMNS = (Column("pick", "int8", "the option picked (it counts for nothing)", counter=False),)
SC_PICK = column_code(SEAT_COLUMNS, "pick")


@njit(cache=True)
def new_state_nb(P):
    return np.zeros(STATE_WORDS, np.int64)


@njit(cache=True)
def setup_nb(st, ev, rng, P, T, k):
    st[:] = 0
    st[ST_WINNER] = -1


@njit(cache=True)
def next_decision_nb(st, ev, rng, P, T):
    if st[ST_NEXT] < P.n_seats:
        return st[ST_NEXT]
    if st[ST_WINNER] < 0:  # every seat has picked: the draw
        st[ST_WINNER] = rand_below_nb(rng, P.n_seats)
        log_event_nb(st, ev, ST_EVENTS, 1, st[ST_WINNER], EV_WIN, 0, 0, 0)
    return -1


@njit(cache=True)
def options_nb(st, P, T, opts):
    for k in range(MAX_OPTIONS):
        opts[k] = k
    return MAX_OPTIONS


@njit(cache=True)
def apply_nb(st, ev, rng, P, T, opt):
    s = st[ST_NEXT]
    st[ST_PICK + s] = opt
    log_event_nb(st, ev, ST_EVENTS, 1, s, EV_PICK, opt, 0, 0)
    st[ST_NEXT] += 1


@njit(cache=True)
def policy_nb(st, rng, P, T, seat, code, prm, opts, n, scores):
    for i in range(n):
        scores[i] = 0.0
    return rand_below_nb(rng, n)


@njit(cache=True)
def determinise_nb(st, truth, rng, P, T, seat):
    st[:] = truth  # nothing is hidden that could matter


@njit(cache=True)
def reward_nb(st, P, T, seat, kind):
    return 1.0 if st[ST_WINNER] == seat else 0.0


@njit(cache=True)
def turn_nb(st):
    return st[ST_NEXT]


@njit(cache=True)
def n_events_nb(st):
    return st[ST_EVENTS]


# a seat's view (a strategy file's): V_SEAT, V_N_SEATS, then V_PICKS + s each pick made so far (-1 not yet)
V_SEAT, V_N_SEATS, V_PICKS = 0, 1, 2
VIEW_LEN = V_PICKS + 4


@njit(cache=True)
def view_nb(st, P, T, seat, view):
    view[V_SEAT] = seat
    view[V_N_SEATS] = P.n_seats
    for s in range(P.n_seats):
        view[V_PICKS + s] = st[ST_PICK + s] if s < st[ST_NEXT] else -1  # picks are made in the open


@njit(cache=True)
def outputs_nb(st, rng, P, T, out_g, out_s):
    out_g[G_WINNER] = st[ST_WINNER]
    out_g[G_TURNS] = 1
    out_g[G_END] = 0
    out_g[G_TRUNCATED] = 0
    out_g[G_FIRST_SEAT] = 0
    for s in range(P.n_seats):
        out_s[s, SC_PICK] = st[ST_PICK + s]


class Luck(ProtocolGame):
    name = "luck"
    title = "Luck (test game on the decision protocol)"
    version = "2"
    protocol = "toy_luck"
    min_seats, max_seats = 2, 4
    params = seating_params(rule_means="seat 0")
    strategies = (Strategy("random", RANDOM, "picks at random (it does nothing that matters)"),)
    search_defaults = {"default_rollout": "random", "default_budget": 8}
    default_seats = ("random", "random")
    end_reasons = ("rolled", "truncated")
    seat_columns = SEAT_COLUMNS

    def rules_tuple(self, rules, n_seats):
        return LuckRules(int(n_seats))

    def event_text(self, row):
        t, s, kind = (int(x) for x in row[:3])
        return f"seat {s} wins the draw" if kind == EV_WIN else f"seat {s} picks option {int(row[3])}"


GAME = Luck()
