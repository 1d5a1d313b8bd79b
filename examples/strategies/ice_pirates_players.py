"""Ice Pirates players of one's own (docs/strategies.md walks through ``navigator``).

Name one in a scenario seat: ``strategy = "ice_pirates_players.py:navigator"`` (and
``base = "expert"``, the built-in strategy that takes the seat's other choices: abandoning
ship, the Telescope, upgrades, swashbuckling).  Each function gets the seat's view, the
legal options of the choice (headings 0..5 and -1 to stop; 1 / 0 fight the waves or not;
-1 no raid then the seats it may raid), its parameters in PARAMS order, a private random
stream and the read-only board, and returns an option's index.  Every top-level function
of this file is compiled by numba (the helpers too).
"""

import numpy as np

from pirate_sim.games.ice_pirates.user_view import (F_CREW, F_MAPS, F_POS, KIND_DIR, KIND_FIGHT, R_BELL_CELL,
                                                    R_HG_CELL, SEAT_FIELDS, V_BELL_POOL, V_CARD, V_COLOUR, V_ICE,
                                                    V_KIND, V_MAPS_LEFT, V_SEAT, V_SEATS, V_TREASURE,
                                                    V_WIND)
from pirate_sim.rng import rand_below_nb

PARAMS = {
    # parameter -> default; a scenario seat may set any of them
    "navigator": {"reserve": 1.0, "row_cost": 3.0},
    "uniform": {},
}
N_CELLS = 37  # cells of the map
ALL_MAPS = 7  # bitmask of the three map colours
FACE_DOWN = -1  # V_CARD of a face-down card
STORM = 1  # rules.STORM
LOST_ISLAND = 2  # rules.LOST_ISLAND
KELLY = 3  # rules.KELLY
TACK = 1  # rules.TACK
INTO = 2  # rules.INTO: rowing costs a crew chip
FAR = 1048576  # distance of a cell the goal cannot be reached from


def blocked(view, board, a, d):
    """Does a known iceberg block the side between cell ``a`` and its neighbour in direction ``d``?"""
    b = board.nb[a, d]
    return ((view[V_ICE + a] >> d) & 1) == 1 or ((view[V_ICE + b] >> ((d + 3) % 6)) & 1) == 1


def goals(view, board, params, goal):
    """Mark in ``goal`` the cells the seat heads for: home with the treasure, Bell Island when
    short of crew, the treasure's holder, Kelly's Island with all maps, else the Lost Islands
    of colours it lacks and every face-down card (anything unknown may be one)."""
    seat = view[V_SEAT]
    me = V_SEATS + SEAT_FIELDS * seat
    goal[:] = 0
    holder = view[V_TREASURE]
    if holder == seat:
        goal[board.rules[R_HG_CELL]] = 1
        for c in range(N_CELLS):
            if board.escape[c] == 1:
                goal[c] = 1
        return
    if view[me + F_CREW] <= params[0] and view[V_BELL_POOL] > 0:
        goal[board.rules[R_BELL_CELL]] = 1
        return
    if holder >= 0:
        goal[view[V_SEATS + SEAT_FIELDS * holder + F_POS]] = 1
        return
    maps = view[me + F_MAPS]
    found = False
    for c in range(N_CELLS):
        card = view[V_CARD + c]
        if maps == ALL_MAPS and card == KELLY:
            goal[c] = 1
            found = True
        elif maps != ALL_MAPS and card == LOST_ISLAND:
            k = view[V_COLOUR + c]
            if ((maps >> k) & 1) == 0 and view[V_MAPS_LEFT + k] > 0:
                goal[c] = 1
                found = True
    if not found or maps != ALL_MAPS:
        for c in range(N_CELLS):
            if view[V_CARD + c] == FACE_DOWN:
                goal[c] = 1


def distances(view, board, goal, dist):
    """Steps from every cell to the nearest goal cell around known icebergs (breadth first)."""
    queue = np.empty(N_CELLS, np.int64)
    head = 0
    tail = 0
    for c in range(N_CELLS):
        dist[c] = FAR
        if goal[c] == 1:
            dist[c] = 0
            queue[tail] = c
            tail += 1
    while head < tail:
        c = queue[head]
        head += 1
        for d in range(6):
            a = board.nb[c, d]
            if a < 0 or dist[a] != FAR or blocked(view, board, c, d):
                continue
            dist[a] = dist[c] + 1
            queue[tail] = a
            tail += 1


def navigator(view, options, params, rng, board):
    """Headings: the legal one that gets closest to the goal (goals()), counting a tack as one
    step more and rowing as ``row_cost`` more (forbidden at or below ``reserve`` chips unless
    it wins), stopping only on a goal or when nothing gets closer; ties at random.  Fights the
    waves with more than ``reserve`` chips.  Raids the treasure's holder, else the ship with
    most map colours it lacks, never one with nothing to take."""
    reserve, row_cost = params[0], params[1]
    seat = view[V_SEAT]
    me = V_SEATS + SEAT_FIELDS * seat
    n = options.shape[0]
    if view[V_KIND] == KIND_FIGHT:
        return 0 if view[me + F_CREW] > reserve else 1  # options: 1 fight, 0 stay
    if view[V_KIND] != KIND_DIR:  # a raid: options -1 (no raid), then seats
        best, pick = 0, 0
        for i in range(1, n):
            o = options[i]
            if o == view[V_TREASURE]:
                v = 10
            else:
                v = 0
                theirs = view[V_SEATS + SEAT_FIELDS * o + F_MAPS]
                mine = view[me + F_MAPS]
                for k in range(3):
                    if ((theirs >> k) & 1) == 1 and ((mine >> k) & 1) == 0:
                        v += 1
            if v > best:
                best, pick = v, i
        return pick
    goal = np.zeros(N_CELLS, np.int64)
    dist = np.zeros(N_CELLS, np.int64)
    goals(view, board, params, goal)
    distances(view, board, goal, dist)
    pos = view[me + F_POS]
    best = 1e300
    pick = 0
    ties = 0
    for i in range(n):
        d = options[i]
        if d < 0:
            score = 2.0 * dist[pos] + (0.0 if dist[pos] == 0 else 0.5)
        else:
            a = board.nb[pos, d]
            if a < 0 or (a == board.rules[R_HG_CELL] and view[V_TREASURE] == seat):
                return i  # open water or Harbour Grace with the treasure: the game is won
            rl = board.rel[view[V_WIND], d]
            score = 2.0 * dist[a]
            if rl == TACK:
                score += 1.0
            elif rl == INTO:
                score += row_cost if view[me + F_CREW] > reserve else 1e6
            if view[V_CARD + a] == STORM and goal[a] == 0:
                score += 1.0  # a storm ends the turn
        if score < best - 1e-9:
            best, pick, ties = score, i, 1
        elif score <= best + 1e-9:
            ties += 1
            if rand_below_nb(rng, ties) == 0:
                pick = i
    return pick


def uniform(view, options, params, rng):
    """An option uniformly at random from the seat's private stream (a baseline)."""
    return rand_below_nb(rng, options.shape[0])
