"""A toy game written on the decision protocol (pirate_sim/contract.py): its rules and nothing else.

"Sum race": two seats take turns, ``turns`` each.  At set-up each seat draws a hidden bonus
(a die minus one, 0..5) that only it knows.  A turn is one choice among ``options`` options,
then one die from the game's stream; the larger total (sum plus bonus) after the last turn wins,
a tie is nobody's.  The seats are exactly symmetric.  Two rule modes:

* ``mode = 0`` (equal): option 0 adds the die d, option 1 adds 7 - d, option 2 adds d mod 6 + 1:
  three mappings of the very next die, all uniform on 1..6, so no decision matters and any
  player, search included, wins exactly its fair share;
* ``mode = 1`` (best): option k adds d + (0, +1, -1)[k]: option 1 is strictly best, and the
  scripted ``first`` player (search's default prior) prefers option 0.

Everything else, the chunk driver, the trace, ``search`` and its bench, ``tournament`` and
``skill``, comes from the contract: this file has no driver, search or chunk code.  It is the
example docs/adding-a-game.md walks through.  ``leak = 1`` (a test switch, not a rule) makes
``determinise_nb`` copy the opponent's hidden bonus instead of re-sampling it: a search that
cheats, which the information-set test must catch.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from pirate_sim.contract import ProtocolGame
from pirate_sim.games.base import G_END, G_FIRST_SEAT, G_TRUNCATED, G_TURNS, G_WINNER, Column, Param, Strategy, \
    column_code
from pirate_sim.games.kernel_base import log_event_nb
from pirate_sim.rng import dice_rolled_nb, rand_below_nb, roll_die_nb
from pirate_sim.search import REWARD_MARGIN
from pirate_sim.seating import seating_params

# -- the rules' scalars (P) and the state layout (st: int64[STATE_WORDS]) -------------------
RaceRules = namedtuple("RaceRules", ["turns", "options", "mode", "leak"])
ST_TURN = 0  # turns played (both seats)
ST_SUM = 1  # ST_SUM + s: seat s's sum of its moves
ST_BONUS = 3  # ST_BONUS + s: seat s's hidden bonus (0..5): only seat s knows it
ST_TOOK = 5  # ST_TOOK + 3 * s + k: times seat s took option k
ST_EVENTS = 11  # event rows logged
STATE_WORDS = 12
MAX_OPTIONS = 3
MODE_EQUAL, MODE_BEST = 0, 1
OFFSETS = np.array([0, 1, -1], np.int64)  # mode 1: what option k adds to the die
FIRST, RANDOM = 0, 1  # scripted strategy codes
EV_BONUS, EV_MOVE = 0, 1  # event kinds: (turn, seat, kind, a, b, c)

GAME_COLUMNS = (Column("dice_rolled", "int16", "dice rolled in the game", counter=False),)
SEAT_COLUMNS = (Column("total", "int16", "sum plus bonus at the end", counter=False),
                Column("bonus", "int8", "the hidden bonus drawn at set-up", counter=False),
                Column("took_0", "int8", "turns the seat took option 0"),
                Column("took_1", "int8", "turns the seat took option 1"),
                Column("took_2", "int8", "turns the seat took option 2"))
GC_DICE = column_code(GAME_COLUMNS, "dice_rolled", first=5)
SC_TOTAL = column_code(SEAT_COLUMNS, "total")
SC_BONUS = column_code(SEAT_COLUMNS, "bonus")
SC_TOOK = column_code(SEAT_COLUMNS, "took_0")  # took_0 .. took_2 in order


@njit(cache=True)
def log_nb(st, ev, seat, kind, a, b, c):
    log_event_nb(st, ev, ST_EVENTS, st[ST_TURN], seat, kind, a, b, c)


# -- the protocol ---------------------------------------------------------------------------
@njit(cache=True)
def new_state_nb(P):
    return np.zeros(STATE_WORDS, np.int64)


@njit(cache=True)
def setup_nb(st, ev, rng, P, T, k):
    st[:] = 0
    for s in range(2):
        st[ST_BONUS + s] = roll_die_nb(rng, 6) - 1
        log_nb(st, ev, s, EV_BONUS, st[ST_BONUS + s], 0, 0)


@njit(cache=True)
def next_decision_nb(st, ev, rng, P, T):
    return -1 if st[ST_TURN] >= 2 * P.turns else st[ST_TURN] & 1


@njit(cache=True)
def options_nb(st, P, T, opts):
    for k in range(P.options):
        opts[k] = k
    return P.options


@njit(cache=True)
def apply_nb(st, ev, rng, P, T, opt):
    s = st[ST_TURN] & 1
    d = roll_die_nb(rng, 6)
    if P.mode == MODE_EQUAL:
        v = d if opt == 0 else (7 - d if opt == 1 else d % 6 + 1)
    else:
        v = d + OFFSETS[opt]
    st[ST_SUM + s] += v
    st[ST_TOOK + 3 * s + opt] += 1
    log_nb(st, ev, s, EV_MOVE, opt, d, v)
    st[ST_TURN] += 1


@njit(cache=True)
def policy_nb(st, rng, P, T, seat, code, prm, opts, n, scores):
    for i in range(n):
        scores[i] = 1.0 if (code == FIRST and i == 0) else 0.0
    return 0 if code == FIRST else rand_below_nb(rng, n)


@njit(cache=True)
def determinise_nb(st, truth, rng, P, T, seat):
    st[:] = truth
    if not P.leak:
        st[ST_BONUS + 1 - seat] = rand_below_nb(rng, 6)  # the opponent's bonus: any of 0..5


@njit(cache=True)
def reward_nb(st, P, T, seat, kind):
    a = st[ST_SUM + seat] + st[ST_BONUS + seat]
    b = st[ST_SUM + 1 - seat] + st[ST_BONUS + 1 - seat]
    v = 1.0 if a > b else 0.0  # win and rank agree with two seats; a tie is nobody's
    if kind == REWARD_MARGIN:
        v += 0.1 * (a - b) / (a + b + 1.0)
    return v


# a seat's view (what a strategy file gets): the seat, the turn, the rules, its own hidden bonus,
# both sums and how often each seat took each option; never the opponent's bonus
V_SEAT, V_TURN, V_TURNS, V_MODE, V_BONUS, V_SUM, V_TOOK = 0, 1, 2, 3, 4, 5, 7
VIEW_LEN = V_TOOK + 6


@njit(cache=True)
def view_nb(st, P, T, seat, view):
    view[V_SEAT] = seat
    view[V_TURN] = st[ST_TURN]
    view[V_TURNS] = P.turns
    view[V_MODE] = P.mode
    view[V_BONUS] = st[ST_BONUS + seat]
    for s in range(2):
        view[V_SUM + s] = st[ST_SUM + s]
    for k in range(6):
        view[V_TOOK + k] = st[ST_TOOK + k]


@njit(cache=True)
def turn_nb(st):
    return st[ST_TURN]


@njit(cache=True)
def n_events_nb(st):
    return st[ST_EVENTS]


@njit(cache=True)
def outputs_nb(st, rng, P, T, out_g, out_s):
    t0 = st[ST_SUM] + st[ST_BONUS]
    t1 = st[ST_SUM + 1] + st[ST_BONUS + 1]
    out_g[G_WINNER] = 0 if t0 > t1 else (1 if t1 > t0 else -1)
    out_g[G_TURNS] = st[ST_TURN]
    out_g[G_END] = 0
    out_g[G_TRUNCATED] = 0
    out_g[G_FIRST_SEAT] = 0
    out_g[GC_DICE] = dice_rolled_nb(rng)
    for s in range(2):
        out_s[s, SC_TOTAL] = st[ST_SUM + s] + st[ST_BONUS + s]
        out_s[s, SC_BONUS] = st[ST_BONUS + s]
        for k in range(MAX_OPTIONS):
            out_s[s, SC_TOOK + k] = st[ST_TOOK + 3 * s + k]


# -- the plug-in ----------------------------------------------------------------------------
class SumRace(ProtocolGame):
    name = "sum_race"
    title = "Sum race (test game on the decision protocol)"
    version = "1"
    protocol = "toy_race"
    params = (
        Param("turns", 4, "int", "turns per seat", 1, 100),
        Param("options", 3, "int", "options a turn offers", 1, MAX_OPTIONS),
        Param("mode", "equal", "choice", "equal: no option is better; best: option 1 adds one more",
              choices=("equal", "best")),
        Param("leak", False, "bool", "test switch: search sees the opponent's hidden bonus (a cheat)"),
    ) + seating_params()[1:]  # strategy_seating (seat 0 always moves first: no first_player rule)
    strategies = (Strategy("first", FIRST, "always takes option 0"),
                  Strategy("random", RANDOM, "takes an option uniformly at random"))
    search_defaults = {"default_rollout": "random", "default_budget": 30, "default_top_k": 0}
    default_seats = ("first", "random")
    end_reasons = ("finished", "truncated")
    game_columns = GAME_COLUMNS
    seat_columns = SEAT_COLUMNS
    score_column = "total"

    def rules_tuple(self, rules, n_seats):
        return RaceRules(int(rules["turns"]), int(rules["options"]), ("equal", "best").index(rules["mode"]),
                         int(bool(rules["leak"])))

    def event_text(self, row):
        t, s, kind, a, b, c = (int(x) for x in row)
        if kind == EV_BONUS:
            return f"set-up: seat {s} draws a hidden bonus of {a}"
        return f"turn {t + 1}: seat {s} takes option {a}, rolls {b}, scores {c}"


GAME = SumRace()
