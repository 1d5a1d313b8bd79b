"""A deliberately tiny game with exactly known answers, for testing the engine itself.

"Dice duel": each turn the moving seat rolls one die and adds it to its score; the
first seat to reach ``target`` wins.  The very first die decides who starts: a roll of
``first_player_cutoff`` or less gives seat 0 the first move.  With the cutoff at
:data:`BALANCED_CUTOFF` each seat starts half the time, so the seats are perfectly
balanced (true seat_balance exactly 0); any other cutoff gives a known gap.  A "sixer"
always scores 6 (no die), so with ``target = 6`` whoever of a sixer and a roller moves
first is known to win with certainty or 1/6.  Used by engine tests (runner, results,
metrics coverage, check exit codes, seating) so they do not depend on a real game's rules.

Parameters with effects known in closed form, for the sensitivity and tuning tests
(their defaults leave the game above unchanged):

* ``start_die`` (sides of the start die) and ``first_player_bonus`` (added to the cutoff):
  seat 0 starts with probability ``min(cutoff + bonus, start_die) / start_die``, so
  ``win_rate.seat0 = (1 - q) + P(seat 0 starts) * (2q - 1)`` with ``q`` the first mover's
  chance, linear (additive) in cutoff and bonus;
* ``decor`` and ``banner``: read by nothing (a parameter with no effect at all);
* the roller's ``reroll_ones``: a 1 is rolled again (a better player, never worse).

Written on the decision protocol (pirate_sim/contract.py), like ``toy_race.py``: its rules and
nothing else.  The chunk driver, the trace, strategy files and the bench come from the
contract.  A turn is one decision among three ways to move: roll, roll and roll a 1 again,
or score 6 without a die (the sixer's move, a test cheat); the two strategies are the
scripted players that take them.  It has no ``search`` (``searchable = False``): with the
sixer's move on offer a search would only find it, and the engine tests want exactly two
players.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from pirate_sim.contract import ProtocolGame
from pirate_sim.games.base import G_END, G_FIRST_SEAT, G_TRUNCATED, G_TURNS, G_WINNER, Column, OddsRow, Param, \
    Strategy, column_code
from pirate_sim.games.kernel_base import log_event_nb
from pirate_sim.rng import dice_rolled_nb, roll_die_nb
from pirate_sim.search import REWARD_MARGIN
from pirate_sim.seating import first_player_code, first_seat_nb, seating_params

BALANCED_CUTOFF = 3  # seat 0 starts on 1-3 of the default d6: half the time, so the seats are exactly even

# -- the rules' scalars (P) and the state layout (st: int64[STATE_WORDS]) -------------------
DuelRules = namedtuple("DuelRules", ["target", "first_player_cutoff", "turn_cap", "start_die", "first_player_bonus",
                                     "first_player"])
ST_SEAT = 0  # the seat to move
ST_TURNS = 1  # turns played (both seats)
ST_WINNER = 2  # the seat that reached the target; -1 while nobody has
ST_START = 3  # the seat that moved first
ST_SCORE = 4  # ST_SCORE + s: seat s's score
ST_ROLLS = 6  # ST_ROLLS + s: turns seat s played
ST_EVENTS = 8  # event rows logged
STATE_WORDS = 9
MAX_OPTIONS = 3
ROLL, ROLL_AGAIN_ON_ONE, SIX = 0, 1, 2  # a turn's options (codes = positions)
ROLLER, SIXER = 0, 1  # scripted strategy codes
EV_START, EV_MOVE = 0, 1  # event kinds: (turn, seat, kind, a, b, c)

GAME_COLUMNS = (Column("dice_rolled", "int16", "dice rolled", counter=False),)
SEAT_COLUMNS = (Column("score", "int16", "final score", counter=False),
                Column("rolls", "int16", "dice this seat rolled"))
GC_DICE = column_code(GAME_COLUMNS, "dice_rolled", first=5)
SC_SCORE = column_code(SEAT_COLUMNS, "score")
SC_ROLLS = column_code(SEAT_COLUMNS, "rolls")


@njit(cache=True)
def new_state_nb(P):  # (the state's accessors: the protocol's new state, turns and events, and the log)
    return np.zeros(STATE_WORDS, np.int64)


@njit(cache=True)
def turn_nb(st):
    return st[ST_TURNS]


@njit(cache=True)
def n_events_nb(st):
    return st[ST_EVENTS]


@njit(cache=True)
def log_nb(st, ev, seat, kind, a, b, c):
    log_event_nb(st, ev, ST_EVENTS, st[ST_TURNS], seat, kind, a, b, c)


# -- the protocol ---------------------------------------------------------------------------
@njit(cache=True)
def setup_nb(st, ev, rng, P, T, k):
    st[:] = 0
    st[ST_WINNER] = -1
    die = roll_die_nb(rng, P.start_die)
    rule = 0 if die <= P.first_player_cutoff + P.first_player_bonus else 1
    st[ST_START] = first_seat_nb(P.first_player, rule, k, 2, rng)
    st[ST_SEAT] = st[ST_START]
    log_nb(st, ev, st[ST_START], EV_START, die, 0, 0)


@njit(cache=True)
def next_decision_nb(st, ev, rng, P, T):
    return -1 if st[ST_WINNER] >= 0 or st[ST_TURNS] >= P.turn_cap else st[ST_SEAT]


@njit(cache=True)
def options_nb(st, P, T, opts):
    for k in range(MAX_OPTIONS):
        opts[k] = k
    return MAX_OPTIONS


@njit(cache=True)
def apply_nb(st, ev, rng, P, T, opt):
    s = st[ST_SEAT]
    st[ST_TURNS] += 1
    if opt == SIX:
        face = 6
    else:
        face = roll_die_nb(rng, 6)
        if face == 1 and opt == ROLL_AGAIN_ON_ONE:
            face = roll_die_nb(rng, 6)
    st[ST_SCORE + s] += face
    st[ST_ROLLS + s] += 1
    log_nb(st, ev, s, EV_MOVE, opt, face, st[ST_SCORE + s])
    if st[ST_SCORE + s] >= P.target:
        st[ST_WINNER] = s
    else:
        st[ST_SEAT] = 1 - s


@njit(cache=True)
def policy_nb(st, rng, P, T, seat, code, prm, opts, n, scores):
    pick = SIX if code == SIXER else (ROLL_AGAIN_ON_ONE if prm[0] != 0.0 else ROLL)  # prm[0]: reroll_ones
    for i in range(n):
        scores[i] = 1.0 if i == pick else 0.0
    return pick


@njit(cache=True)
def determinise_nb(st, truth, rng, P, T, seat):
    st[:] = truth  # nothing is hidden


@njit(cache=True)
def reward_nb(st, P, T, seat, kind):
    w = st[ST_WINNER]
    v = 1.0 if w == seat else (0.5 if w < 0 else 0.0)
    if kind == REWARD_MARGIN:
        v += 0.01 * (st[ST_SCORE + seat] - st[ST_SCORE + 1 - seat]) / P.target
    return v


# a seat's view (what a strategy file gets): everything (nothing is hidden)
V_SEAT, V_TURNS, V_TARGET, V_SCORE, V_ROLLS = 0, 1, 2, 3, 5
VIEW_LEN = V_ROLLS + 2


@njit(cache=True)
def view_nb(st, P, T, seat, view):
    view[V_SEAT] = seat
    view[V_TURNS] = st[ST_TURNS]
    view[V_TARGET] = P.target
    for s in range(2):
        view[V_SCORE + s] = st[ST_SCORE + s]
        view[V_ROLLS + s] = st[ST_ROLLS + s]


@njit(cache=True)
def outputs_nb(st, rng, P, T, out_g, out_s):
    w = st[ST_WINNER]
    out_g[G_WINNER] = w
    out_g[G_TURNS] = st[ST_TURNS]
    out_g[G_END] = 0 if w >= 0 else 1
    out_g[G_TRUNCATED] = 1 if w < 0 else 0
    out_g[G_FIRST_SEAT] = st[ST_START]
    out_g[GC_DICE] = dice_rolled_nb(rng)
    for s in range(2):
        out_s[s, SC_SCORE] = st[ST_SCORE + s]
        out_s[s, SC_ROLLS] = st[ST_ROLLS + s]


# -- the plug-in ----------------------------------------------------------------------------
class DiceDuel(ProtocolGame):
    name = "dice_duel"
    title = "Dice duel (test game)"
    version = "1"
    protocol = "toy_game"
    searchable = False
    params = (
        Param("target", 10, "int", "score that wins", 1, 1000),
        Param("first_player_cutoff", BALANCED_CUTOFF, "int", "die roll at or below which seat 0 starts", 0, 60),
        Param("turn_cap", 1000, "int", "turns before the game is truncated", 1, 100000),
        Param("start_die", 6, "int", "sides of the die that decides who starts", 1, 60),
        Param("first_player_bonus", 0, "int", "added to first_player_cutoff", 0, 60),
        Param("decor", 0.5, "float", "a number the rules never read (no effect)", 0.0, 1.0),
        Param("banner", ["skull", "bones"], "str_list", "flag colours, cosmetic (no effect)", min_length=1),
    ) + seating_params(rule_means="seat 0 if the start die is at most first_player_cutoff + first_player_bonus")
    strategies = (Strategy("roller", ROLLER, "rolls the die",
                           (Param("reroll_ones", False, "bool", "roll a 1 again, once"),)),
                  Strategy("sixer", SIXER, "scores 6 every turn"))
    default_seats = ("roller", "roller")
    end_reasons = ("reached_target", "truncated")
    odds_mechanics = {"start": "chance that seat 0 moves first"}
    game_columns = GAME_COLUMNS
    seat_columns = SEAT_COLUMNS
    score_column = "score"

    def rules_tuple(self, rules, n_seats):
        return DuelRules(int(rules["target"]), int(rules["first_player_cutoff"]), int(rules["turn_cap"]),
                         int(rules["start_die"]), int(rules["first_player_bonus"]), first_player_code(rules))

    def event_text(self, row):
        t, s, kind, a, b, c = (int(x) for x in row)
        if kind == EV_START:
            return f"set-up: the start die shows {a}; seat {s} moves first"
        how = ("rolls", "rolls, re-rolling a 1,", "takes six")[a]
        return f"turn {t}: seat {s} {how}: {b}, score {c}"

    def odds(self, mechanic, rules, samples, seed):
        g, _ = self.play(self.compile(rules, [{"strategy": "roller"}] * 2), seed, 0, samples)
        die = rules["start_die"]
        exact = min(rules["first_player_cutoff"] + rules["first_player_bonus"], die) / die
        return [OddsRow("seat 0 starts", exact, float((g[:, 4] == 0).mean()), samples)]

    def dice_per_game(self, compiled, seed, n_games):
        g, _ = self.play(compiled, seed, 0, n_games)
        return float(g[:, 5].mean())


GAME = DiceDuel()
