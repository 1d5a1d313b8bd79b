"""The ``rps`` toy of tests/toy_meta.py (rock, paper, scissors, dud), written on the decision
protocol (pirate_sim/contract.py): its rules only; the driver and the trace are the contract's.

Seat 0 throws, then seat 1, without seeing seat 0's throw; one draw then decides: seat 0 wins
with chance ``beats[a * 4 + b]`` (a, b: the two throws).  Each scripted strategy always throws
its own sign, so a strategy's code is its throw.  A one-shot game of simultaneous throws has
nothing to search (``searchable = False``): the meta-game's known answer is the equilibrium
of the ``beats`` table (tests/test_meta_known.py).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from pirate_sim.contract import ProtocolGame
from pirate_sim.games.base import G_END, G_FIRST_SEAT, G_TRUNCATED, G_TURNS, G_WINNER, Column, Param, \
    Strategy, column_code
from pirate_sim.games.kernel_base import append_event_nb
from pirate_sim.rng import rand_below_nb, rand_float_nb
from pirate_sim.seating import seating_params

RpsRules = namedtuple("RpsRules", ["n_seats"])
ST_NEXT = 0  # the seat to throw next (2: both have thrown)
ST_WINNER = 1  # the drawn winner (-1 before the draw)
ST_EVENTS = 2  # event rows logged
ST_THROW = 3  # ST_THROW + s: seat s's throw
STATE_WORDS = ST_THROW + 2
MAX_OPTIONS = 4  # rock, paper, scissors, dud
SIGNS = ("rock", "paper", "scissors", "dud")
EV_THROW, EV_WIN = 0, 1
# chance that the row throw beats the column one (rock, paper, scissors, dud): dud wins 40%
# against each of the three, so the uniform mix of the three dominates it
DEFAULT_BEATS = [0.5, 0.0, 1.0, 0.6,
                 1.0, 0.5, 0.0, 0.6,
                 0.0, 1.0, 0.5, 0.6,
                 0.4, 0.4, 0.4, 0.5]

SEAT_COLUMNS = (Column("throw", "int8", "strategy code thrown", counter=False),)
SC_THROW = column_code(SEAT_COLUMNS, "throw")


@njit(cache=True)
def new_state_nb(P):
    return np.zeros(STATE_WORDS, np.int64)


@njit(cache=True)
def setup_nb(st, ev, rng, P, T, k):
    st[:] = 0
    st[ST_WINNER] = -1


@njit(cache=True)
def next_decision_nb(st, ev, rng, P, T):
    if st[ST_NEXT] < 2:
        return st[ST_NEXT]
    if st[ST_WINNER] < 0:  # both have thrown: the draw
        beats = T[0]
        st[ST_WINNER] = 0 if rand_float_nb(rng) < beats[st[ST_THROW] * 4 + st[ST_THROW + 1]] else 1
        if append_event_nb(ev, st[ST_EVENTS], 1, st[ST_WINNER], EV_WIN, 0, 0, 0):
            st[ST_EVENTS] += 1
    return -1


@njit(cache=True)
def options_nb(st, P, T, opts):
    for k in range(MAX_OPTIONS):
        opts[k] = k
    return MAX_OPTIONS


@njit(cache=True)
def apply_nb(st, ev, rng, P, T, opt):
    s = st[ST_NEXT]
    st[ST_THROW + s] = opt
    if append_event_nb(ev, st[ST_EVENTS], 1, s, EV_THROW, opt, 0, 0):
        st[ST_EVENTS] += 1
    st[ST_NEXT] += 1


@njit(cache=True)
def policy_nb(st, rng, P, T, seat, code, prm, opts, n, scores):
    for i in range(n):
        scores[i] = 1.0 if opts[i] == code else 0.0
    return code  # each strategy throws its own sign (options are listed in code order)


@njit(cache=True)
def determinise_nb(st, truth, rng, P, T, seat):
    st[:] = truth
    if seat == 1 and truth[ST_NEXT] >= 1:  # seat 1 never sees seat 0's throw
        st[ST_THROW] = rand_below_nb(rng, MAX_OPTIONS)


@njit(cache=True)
def reward_nb(st, P, T, seat, kind):
    return 1.0 if st[ST_WINNER] == seat else 0.0


@njit(cache=True)
def turn_nb(st):
    return st[ST_NEXT]


@njit(cache=True)
def n_events_nb(st):
    return st[ST_EVENTS]


@njit(cache=True)
def outputs_nb(st, rng, P, T, out_g, out_s):
    out_g[G_WINNER] = st[ST_WINNER]
    out_g[G_TURNS] = 1
    out_g[G_END] = 0
    out_g[G_TRUNCATED] = 0
    out_g[G_FIRST_SEAT] = 0
    for s in range(2):
        out_s[s, SC_THROW] = st[ST_THROW + s]


class RPS(ProtocolGame):
    name = "rps"
    title = "Rock, paper, scissors, dud (test game)"
    version = "2"
    protocol = "toy_rps"
    searchable = False
    params = (Param("beats", DEFAULT_BEATS, "float_list", "chance the row strategy beats the column one "
                    "(rock, paper, scissors, dud; row-major)", 0.0, 1.0, length=16),) + seating_params(
        rule_means="seat 0")
    strategies = tuple(Strategy(s, c, "wins 40% against each of the others" if s == "dud" else s)
                       for c, s in enumerate(SIGNS))
    default_seats = ("rock", "paper")
    end_reasons = ("thrown", "truncated")
    seat_columns = SEAT_COLUMNS

    def rules_tuple(self, rules, n_seats):
        return RpsRules(int(n_seats))

    def tables(self, rules):
        beats = np.array(rules["beats"], np.float64)
        m = beats.reshape(4, 4)
        if not np.allclose(m + m.T, 1.0):
            raise ValueError("beats: beats[a][b] + beats[b][a] must be 1")
        return (beats,)

    def event_text(self, row):
        s, kind = int(row[1]), int(row[2])
        return f"seat {s} wins the draw" if kind == EV_WIN else f"seat {s} throws {SIGNS[int(row[3])]}"


GAME = RPS()
