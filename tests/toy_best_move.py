"""The ``best_move`` toy of tests/toy_meta.py, written on the decision protocol
(pirate_sim/contract.py): its rules only; the driver, the search, the trace and strategy files
are the contract's.

Each seat picks one of ``len(quality)`` options without seeing the others' picks (seats pick
in turn; a seat's view and its search's re-deal hide the picks made before it).  The seat whose
option has the highest quality wins; ties: a die among the tied.

What ``search`` estimates.  Inside a rollout of seat s (``determinise_nb`` marks it), the game's
end also flips s's coin: heads with chance ``quality[pick]``, and the rollout's reward is the
coin.  So search estimates each option's quality from Bernoulli rollouts and its strength rises
with its budget until it finds the best option every time (tests/test_meta_known.py).  The coin
is the ``pick``-th of ``len(quality)`` uniforms drawn at the same point of the rollout's stream,
so the engine's common random numbers (rollout j of every option on one stream) give every
option a coin of its own: independent, as separate draws of a noisy evaluation would be.
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
# luck's state layout and the functions of one pick per seat in turn (the engine reads them as
# this module's): the end, the options, the search's coin and what a seat cannot see differ
from toy_luck import (EV_WIN, SC_PICK, ST_EVENTS, ST_NEXT, ST_PICK, ST_WINNER, apply_nb,  # noqa: F401
                      n_events_nb, outputs_nb, setup_nb, turn_nb)

BestRules = namedtuple("BestRules", ["n_seats", "n_options"])
# luck's layout (ST_NEXT, ST_WINNER, ST_EVENTS, ST_PICK + s), then a rollout's two words
ST_ROLL = ST_PICK + 4  # 1 + the seat whose rollout this is (0: the game itself, as luck's set-up leaves it)
ST_COIN = ST_ROLL + 1  # that seat's coin at the rollout's end (1 heads)
STATE_WORDS = ST_COIN + 1
MAX_OPTIONS = 64  # options of a table at most (the quality list's length)
RANDOM, FIRST = 0, 1  # the scripted strategies' codes
DEFAULT_QUALITY = [0.30, 0.45, 0.20, 0.55, 0.10, 0.40, 0.75, 0.35]  # option 6 is best (a 0.20 gap to the next)

SEAT_COLUMNS = (Column("pick", "int8", "the option picked", counter=False),)
# luck's outputs_nb writes each seat's pick to luck's one seat column: it must be this one
assert column_code(SEAT_COLUMNS, "pick") == SC_PICK


@njit(cache=True)
def new_state_nb(P):
    return np.zeros(STATE_WORDS, np.int64)


@njit(cache=True)
def next_decision_nb(st, ev, rng, P, T):
    if st[ST_NEXT] < P.n_seats:
        return st[ST_NEXT]
    if st[ST_WINNER] >= 0:
        return -1
    q = T[0]
    s = st[ST_ROLL] - 1
    if s >= 0:  # a rollout's coin, before the tie's die: at the same draw for every option
        for o in range(P.n_options):
            u = rand_float_nb(rng)
            if o == st[ST_PICK + s]:
                st[ST_COIN] = 1 if u < q[o] else 0
    best = -1.0
    for p in range(P.n_seats):
        best = max(best, q[st[ST_PICK + p]])
    tied = 0
    for p in range(P.n_seats):
        if q[st[ST_PICK + p]] == best:
            tied += 1
    t = rand_below_nb(rng, tied)
    for p in range(P.n_seats):
        if q[st[ST_PICK + p]] == best:
            if t == 0:
                st[ST_WINNER] = p
                break
            t -= 1
    log_event_nb(st, ev, ST_EVENTS, 1, st[ST_WINNER], EV_WIN, 0, 0, 0)
    return -1


@njit(cache=True)
def options_nb(st, P, T, opts):
    for k in range(P.n_options):
        opts[k] = k
    return P.n_options


@njit(cache=True)
def policy_nb(st, rng, P, T, seat, code, prm, opts, n, scores):
    for i in range(n):
        scores[i] = 0.0  # no prior: every option looks alike before search
    if code == FIRST:
        return 0
    return rand_below_nb(rng, n)


@njit(cache=True)
def determinise_nb(st, truth, rng, P, T, seat):
    """``truth`` with the picks made before ``seat``'s re-dealt (it never saw them), as a
    rollout of ``seat`` (its coin at the end)."""
    st[:] = truth
    for p in range(truth[ST_NEXT]):
        if p != seat:
            st[ST_PICK + p] = rand_below_nb(rng, P.n_options)
    st[ST_ROLL] = 1 + seat


@njit(cache=True)
def reward_nb(st, P, T, seat, kind):
    if st[ST_ROLL] == 1 + seat:
        return float(st[ST_COIN])
    return 1.0 if st[ST_WINNER] == seat else 0.0


# a seat's view (a strategy file's): its seat, the table's size and the number of options (the
# qualities are the rules, public; no seat sees another's pick)
V_SEAT, V_N_SEATS, V_N_OPTIONS = 0, 1, 2
VIEW_LEN = 3


@njit(cache=True)
def view_nb(st, P, T, seat, view):
    view[V_SEAT] = seat
    view[V_N_SEATS] = P.n_seats
    view[V_N_OPTIONS] = P.n_options


class BestMove(ProtocolGame):
    name = "best_move"
    title = "Best move (test game on the decision protocol)"
    version = "2"
    protocol = "toy_best_move"
    min_seats, max_seats = 2, 4
    params = (Param("quality", DEFAULT_QUALITY, "float_list", "each option's quality; the best pick wins",
                    0.0, 1.0, min_length=2),) + seating_params(rule_means="seat 0")
    strategies = (Strategy("random", RANDOM, "a uniformly random option"),
                  Strategy("first", FIRST, "always option 0"))
    search_defaults = {"default_rollout": "random", "default_budget": 8, "default_top_k": 0}
    default_seats = ("random", "random")
    end_reasons = ("picked", "truncated")
    seat_columns = SEAT_COLUMNS

    def rules_tuple(self, rules, n_seats):
        return BestRules(int(n_seats), len(rules["quality"]))

    def tables(self, rules):
        q = np.array(rules["quality"], np.float64)
        if q.size > MAX_OPTIONS:
            raise ValueError(f"quality: at most {MAX_OPTIONS} options")
        return (q,)

    def event_text(self, row):
        s, kind = int(row[1]), int(row[2])
        return f"seat {s} wins" if kind == EV_WIN else f"seat {s} picks option {int(row[3])}"


GAME = BestMove()
