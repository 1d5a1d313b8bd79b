"""Pirate's Peak declarations of one's own (docs/strategies.md walks through ``bold_digger``).

Name one in a scenario seat: ``strategy = "peak_players.py:bold_digger"`` (and ``base``, the
built-in strategy that makes the seat's other choices).  Each function gets the view, the
legal declarations (int32 ACT_* codes, sail always first), its parameters in PARAMS order,
a private random stream and the read-only rules row, and returns a declaration's index.
"""

from pirate_sim.games.pirates_peak.rules import (ACT_FIRE, ACT_SEARCH, N_SHIP, RU_CANNONBALL_PRICE, SH_BALLS,
                                                 SH_GOLD, SH_LIFE)
from pirate_sim.games.pirates_peak.user_view import V_SEAT, V_SHIP
from pirate_sim.rng import rand_below_nb

PARAMS = {
    "bold_digger": {"fire_opp_life": 1.0, "fire_behind": 8.0, "keep_balls": 1.0},
    "always_sail": {},
    "uniform": {},
}


def find(options, act):
    """Index of declaration ``act`` among the options, -1 if it is not legal now."""
    for i in range(options.shape[0]):
        if options[i] == act:
            return i
    return -1


def bold_digger(view, options, params, rng, board):
    """Fire when the opponent is nearly sunk or far ahead in gold (keeping some cannonballs),
    else search whenever it may, else sail."""
    s = view[V_SEAT]
    me = V_SHIP + N_SHIP * s
    opp = V_SHIP + N_SHIP * (1 - s)
    fire = find(options, ACT_FIRE)
    behind = view[opp + SH_GOLD] - view[me + SH_GOLD]
    if fire >= 0 and view[me + SH_BALLS] > params[2] and board.rules[RU_CANNONBALL_PRICE] >= 0 and (
            view[opp + SH_LIFE] <= params[0] or behind >= params[1]):
        return fire
    search = find(options, ACT_SEARCH)
    if search >= 0:
        return search
    return 0


def always_sail(view, options, params):
    return 0


def uniform(view, options, params, rng):
    return rand_below_nb(rng, options.shape[0])
