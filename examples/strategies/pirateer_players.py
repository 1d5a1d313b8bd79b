"""Pirateer players of one's own (docs/strategies.md walks through ``careful_raider``).

Name one in a scenario seat: ``strategy = "pirateer_players.py:careful_raider"``.  Each
function gets the seat's view, the legal plays (int32 rows ``[ship1, dir1, die1, take1,
ship2, dir2, die2, take2]``, ship2 = -1 for a one-move play), its parameters in PARAMS
order, a private random stream and the read-only board, and returns a play's index.
Every top-level function of this file is compiled by numba (the helpers too).
"""

from pirate_sim.games.pirateer.user_view import (SEAT_FIELDS, V_N_SEATS, V_SEAT, V_SEATS, V_SHIPS,
                                                 V_SHIPS_PER_SEAT, V_TREASURE)
from pirate_sim.rng import rand_below_nb

PARAMS = {
    # parameter -> default; a scenario seat may set any of them
    "careful_raider": {"capture": 50.0, "take": 200.0, "home": 10.0, "island": 1.0, "chase": 2.0},
    "first_listed": {},
    "uniform": {},
}


def walk(board, node, d, die):
    """Square a legal one-die move of ``die`` squares in direction ``d`` from ``node`` reaches."""
    for _ in range(die):
        node = board.nb[node, d]
    return node


def careful_raider(view, plays, params, rng, board):
    """Score each play by the position it leaves: captures, taking the treasure, then the
    treasure ship's steps home, the chase of an opponent's treasure ship or the way to
    Skull Island; a play that brings the treasure home wins at once.  Ties: at random."""
    capture, take, home, island, chase = params[0], params[1], params[2], params[3], params[4]
    seat = view[V_SEAT]
    sps = view[V_SHIPS_PER_SEAT]
    n_ships = view[V_N_SEATS] * sps
    anchor = view[V_SEATS + SEAT_FIELDS * seat + 1]
    best = -1e300
    pick = 0
    ties = 0
    for k in range(plays.shape[0]):
        s1 = plays[k, 0]
        n1 = walk(board, view[V_SHIPS + s1], plays[k, 1], plays[k, 2])
        s2 = plays[k, 4]
        n2 = -1
        if s2 >= 0:
            n2 = walk(board, n1 if s2 == s1 else view[V_SHIPS + s2], plays[k, 5], plays[k, 6])
        treasure = view[V_TREASURE]
        v = 0.0
        for o in range(n_ships):  # an opponent's ship on a square it lands on is captured
            no = view[V_SHIPS + o]
            if o // sps == seat or no < 0:
                continue
            if no == n1 or no == n2:
                v += capture
                if o == treasure:
                    treasure = s2 if no == n2 else s1
        if plays[k, 3] == 1 or (s2 >= 0 and plays[k, 7] == 1):
            v += take
            treasure = s1 if plays[k, 3] == 1 else s2
        d_best = 1 << 20
        t_node = -1
        if treasure >= 0:
            t_node = n2 if treasure == s2 else (n1 if treasure == s1 else view[V_SHIPS + treasure])
        for m in range(seat * sps, seat * sps + sps):  # its own ships after the play
            nm = n2 if m == s2 else (n1 if m == s1 else view[V_SHIPS + m])
            if nm < 0:
                continue
            if treasure < 0:
                d = board.dist_island[nm]
            elif treasure // sps != seat:
                d = board.dist[nm, t_node]
            else:
                d = 0
            if d < d_best:
                d_best = d
        if treasure >= 0 and treasure // sps == seat:
            if t_node == anchor:
                v += 1e9
            v += 1000.0 - home * board.seat_home[seat, t_node]
        elif treasure >= 0:
            v -= chase * d_best
        else:
            v -= island * d_best
        if v > best + 1e-9:
            best = v
            pick = k
            ties = 1
        elif v >= best - 1e-9:
            ties += 1
            if rand_below_nb(rng, ties) == 0:
                pick = k
    return pick


def first_listed(view, plays, params):
    """The first legal play, always (a baseline)."""
    return 0


def uniform(view, plays, params, rng):
    """A legal play uniformly at random from the seat's private stream (as built-in random)."""
    return rand_below_nb(rng, plays.shape[0])
