"""The ``rps`` toy of tests/toy_meta.py (rock, paper, scissors, dud), written on the decision
protocol (pirate_sim/contract.py): its rules only; the driver and the trace are the contract's,
and its state, set-up, picks and outputs are the ``luck`` toy's (tests/toy_luck.py).

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
from pirate_sim.games.base import Column, Param, Strategy, column_code
from pirate_sim.games.kernel_base import log_event_nb
from pirate_sim.rng import rand_below_nb, rand_float_nb
from pirate_sim.seating import seating_params
# luck's state layout and the functions of one pick per seat in turn (the engine reads them
# as this module's): only the draw, the options, the throws and what seat 1 cannot see differ
from toy_luck import (EV_WIN, SC_PICK, ST_EVENTS, ST_NEXT, ST_PICK, ST_WINNER, apply_nb,  # noqa: F401
                      n_events_nb, new_state_nb, outputs_nb, reward_nb, setup_nb, turn_nb)

RpsRules = namedtuple("RpsRules", ["n_seats"])
MAX_OPTIONS = 4  # rock, paper, scissors, dud
SIGNS = ("rock", "paper", "scissors", "dud")
# chance that the row throw beats the column one (rock, paper, scissors, dud): dud wins 40%
# against each of the three, so the uniform mix of the three dominates it
DEFAULT_BEATS = [0.5, 0.0, 1.0, 0.6,
                 1.0, 0.5, 0.0, 0.6,
                 0.0, 1.0, 0.5, 0.6,
                 0.4, 0.4, 0.4, 0.5]

SEAT_COLUMNS = (Column("throw", "int8", "strategy code thrown", counter=False),)
# luck's outputs_nb writes each seat's pick to luck's one seat column: it must be this one
assert column_code(SEAT_COLUMNS, "throw") == SC_PICK


@njit(cache=True)
def next_decision_nb(st, ev, rng, P, T):
    if st[ST_NEXT] < 2:
        return st[ST_NEXT]
    if st[ST_WINNER] < 0:  # both have thrown: the draw
        beats = T[0]
        st[ST_WINNER] = 0 if rand_float_nb(rng) < beats[st[ST_PICK] * 4 + st[ST_PICK + 1]] else 1
        log_event_nb(st, ev, ST_EVENTS, 1, st[ST_WINNER], EV_WIN, 0, 0, 0)
    return -1


@njit(cache=True)
def options_nb(st, P, T, opts):
    for k in range(MAX_OPTIONS):
        opts[k] = k
    return MAX_OPTIONS


@njit(cache=True)
def policy_nb(st, rng, P, T, seat, code, prm, opts, n, scores):
    for i in range(n):
        scores[i] = 1.0 if opts[i] == code else 0.0
    return code  # each strategy throws its own sign (options are listed in code order)


@njit(cache=True)
def determinise_nb(st, truth, rng, P, T, seat):
    st[:] = truth
    if seat == 1 and truth[ST_NEXT] >= 1:  # seat 1 never sees seat 0's throw
        st[ST_PICK] = rand_below_nb(rng, MAX_OPTIONS)


# a seat's view: only its seat and the table's size (throws are blind: no seat sees another's)
VIEW_LEN = 2


@njit(cache=True)
def view_nb(st, P, T, seat, view):
    view[0] = seat
    view[1] = P.n_seats


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
