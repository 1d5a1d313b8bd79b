"""Pirateer's kernel: strategy codes, parameter slots and tuning constants of the players, the
state words the kernel keeps beside ``rules.py``'s layout, and the two smallest helpers
(``sb_nb``: a seat's words; ``log_nb``: one event row through ``kernel_base.append_event_nb``).

The kernel is split by concern (no cycles; each module imports only those above it):
``state`` -> ``moves`` (legal-play generator) -> ``players`` (scripted players) -> ``turn`` (rules
of the turn) -> ``search_player`` (the search's reward and position key) -> ``whole_game``
(set-up, outputs) -> ``protocol`` (the decision protocol: the engine plays runs, traces, strategy
files and search through it) -> ``kernel`` (the capture odds' Monte Carlo, the bench's points).

May import ``rules`` and ``kernel_base`` of the game's modules.
"""

from __future__ import annotations

from numba import njit

from ..kernel_base import log_event_nb
from .rules import G_EVENTS, G_TURN, SEATS_BASE, SEAT_WORDS


# strategy codes
ST_RANDOM = 0
ST_RUNNER = 1
ST_HUNTER = 2
ST_CAUTIOUS = 3
ST_SEARCH = 4
ST_EXPERT = 5
N_ROLLOUT_ROWS = 5  # strategies.seat_tables appends one row per scripted strategy (default weights), in the
# order of the search's rollout/prior choices: the choice index is the row, the row's code the policy
ST_SCRIPTED = 9  # tests only: plays from the state's script words

# strategy parameter slots (columns of ``sp``)
SP_CAPTURE = 0  # value of capturing a ship
SP_CHASE = 1  # per step of distance from the nearest own ship to an opponent's treasure ship
SP_HUNT = 2  # per step of distance from the nearest own ship to the nearest opponent ship
SP_RISK = 3  # per expected ship under threat (treasure ship x TREASURE_RISK)
SP_HOME = 4  # per treasure-ship step from home
SP_ISLAND = 5  # per step of the nearest own ship from a treasure anchor square
SP_BUDGET = 6  # search: rollouts per decision (search.search_params)
SP_ROLLOUT = 7  # search: rollout strategy (its row among the N_ROLLOUT_ROWS)
SP_TOP_K = 8  # search: plays kept by the prior
SP_REWARD = 9  # search: REWARD_* index
SP_HORIZON = 10  # search: turns per rollout, 0 = to the end
SP_PRIOR = 11  # search: the strategy whose score is the prior (its row among the N_ROLLOUT_ROWS)
N_SP = 12

HOLD_VALUE = 1000.0  # holding the treasure outweighs any distance term (distances < 100 steps)
WIN_VALUE = 1e9  # a play that wins is always chosen
TREASURE_RISK = 3.0  # the treasure ship counts three times in the cautious player's exposure
TIE = 1e-9  # scores this close are ties, broken uniformly at random
MARGIN_WEIGHT = 0.01  # the search's "margin" reward: a ship of margin is worth far less than a win

BLOCK = 64  # games per parallel block
HOLD_NEVER, HOLD_OPEN, HOLD_HOME, HOLD_CAPTURED = 0, 1, 2, 3
G_HOLD_START = 18  # turn of the first pick-up while that holding lasts


@njit(cache=True, inline="always", error_model="numpy")
def sb_nb(s):
    return SEATS_BASE + s * SEAT_WORDS



@njit(cache=True, error_model="numpy")
def log_nb(st, ev, seat, kind, a, b, c):
    log_event_nb(st, ev, G_EVENTS, st[G_TURN], seat, kind, a, b, c)
