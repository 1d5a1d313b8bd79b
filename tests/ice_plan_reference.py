"""A slow reference for the plan words of Ice Pirates' strategy-file view (user_view.V_PLAN):
the reverse Dijkstra over the Bay that the learned player computed for itself before the
kernel's planner filled the view (pirate_sim/players/ice_pirates.py up to 2026-12-07), in plain
Python over the view and the board alone.  It shares no code with the kernel's planner
(policies.plan_nb, search_nb): its own goals (the built-in expert's, at its default settings),
its own costs and its own queue.
"""

import numpy as np

from pirate_sim.games.ice_pirates.state import ctz_nb, popcount_nb
from pirate_sim.games.ice_pirates.user_view import (F_CREW, F_MAPS, F_POS, F_UPG, R_BELL_CELL, R_CREW_PER_SHIP,
                                                    R_ESC_MASK, R_HG_CELL, SEAT_FIELDS, V_BELL_POOL, V_CARD,
                                                    V_COLOUR, V_COPIES, V_ICE, V_MAPS_LEFT, V_N_SEATS, V_SEAT,
                                                    V_SEATS, V_TREASURE, V_WIND, V_WRECK)

N_CELLS = 37
N_GOALS = 9  # distance fields: home, holder, maps, unknown, port, rich, wreck, bell, plan
G_HOME = 0
G_HOLDER = 1
G_MAPS = 2
G_UNKNOWN = 3
G_PORT = 4
G_RICH = 5
G_WRECK = 6
G_BELL = 7
G_PLAN = 8
FAR = 1048576  # distance of a cell no goal is reachable from
SCALE = 16.0  # quarter moves per unit of a closeness (four moves)
SMALL = 0.25  # the unit of the features beside the expert's pick
ALL_MAPS = 7
FACE_DOWN = -1
STORM = 1  # rules.STORM
LOST_ISLAND = 2  # rules.LOST_ISLAND
KELLY = 3  # rules.KELLY
WRECK = 4  # rules.WRECK
PORT = 6  # rules.PORT
TACK = 1  # rules.TACK
INTO = 2  # rules.INTO
CANNON = 0  # rules.CANNON (bit of F_UPG)
ICE_BREAKER = 2  # rules.ICE_BREAKER
JIB = 3  # rules.JIB
def side_blocked(view, board, a, d, ib):
    """Does a known iceberg block the side between cell ``a`` and its neighbour in direction
    ``d``?  (An Ice Breaker passes a card with one iceberg side.)"""
    b = board.nb[a, d]
    ma = view[V_ICE + a]
    if ((ma >> d) & 1) == 1 and not (ib and ma != 0 and (ma & (ma - 1)) == 0):
        return True
    if b < 0:
        return False
    mb = view[V_ICE + b]
    e = (d + 3) % 6
    return ((mb >> e) & 1) == 1 and not (ib and mb != 0 and (mb & (mb - 1)) == 0)


def move_cost(board, wind, d, jib, crew):
    """Quarter moves of a move in direction ``d`` (the planner's costs)."""
    rl = board.rel[wind, d]
    if rl == TACK:
        return 4 if jib else 8
    if rl == INTO:
        return 10 if crew > 1 else 16
    return 4


def enter_cost(view, c, ib):
    card = view[V_CARD + c]
    if card == FACE_DOWN:
        return 1
    if card == STORM:
        return 2 if ib else 6
    return 0


def dijkstra(board, dist, k, leave, into, cost, want, bucket):
    """Fill ``dist[k]`` (at most 16 at goal cells, FAR elsewhere) with the quarter moves to the nearest
    goal: a reverse Dijkstra with a ring of 32 buckets of cells (bitmasks; a step costs at
    most 22).  ``leave[c]``: bit d, a ship may leave ``c`` in direction d; ``into[c]`` the
    cost of entering ``c``; ``cost[d]`` of a move in direction d.  It stops once every cell
    of the bitmask ``want`` is settled: only those cells' distances are exact (a cell is
    settled at its final distance, every step costs at least 4, so stopping changes none
    of them); ``bucket``: int64[32] scratch."""
    bucket[:] = 0
    occ = 0
    for c in range(N_CELLS):
        x = dist[k, c]
        if x < FAR:  # goals: 0, and the open-water edge at its escape move's cost (at most 16)
            bucket[x & 31] |= np.int64(1) << c
            occ |= 1 << (x & 31)
    settled = np.int64(0)
    cur = 0
    while occ != 0 and (want & ~settled) != 0:
        r = cur & 31
        while ((occ >> r) & 1) == 0:
            cur += 1
            r = cur & 31
        m = bucket[r] & ~settled
        bucket[r] = 0
        occ &= ~(1 << r)
        settled |= m
        while m != 0:
            u = ctz_nb(m)
            m &= m - 1
            base = cur + into[u]
            for d in range(6):  # the neighbour c of u that moves into u in direction e = (d + 3) % 6
                c = board.nb[u, d]
                if c < 0 or ((settled >> c) & 1) == 1:
                    continue
                e = (d + 3) % 6
                if ((leave[c] >> e) & 1) == 0:
                    continue
                x = base + cost[e]
                if x < dist[k, c]:
                    dist[k, c] = x
                    bucket[x & 31] |= np.int64(1) << c
                    occ |= 1 << (x & 31)


def blocked_sides(view, c, ib):
    """The sides of cell ``c`` a known iceberg blocks (bit d: towards direction d; an Ice
    Breaker passes a card with one iceberg side)."""
    m = view[V_ICE + c]
    if ib and m != 0 and (m & (m - 1)) == 0:
        return 0
    return m


def fields(view, board, dist, leave, into, cost, want, bucket):
    """The goal distance fields (``dist[k, c]``; FAR everywhere when goal ``k`` does not apply),
    exact at the cells of the bitmask ``want`` (the only ones the features read); True if the
    plan chases a ship."""
    seat = view[V_SEAT]
    me = V_SEATS + SEAT_FIELDS * seat
    upg = view[me + F_UPG]
    crew = view[me + F_CREW]
    maps = view[me + F_MAPS]
    jib = ((upg >> JIB) & 1) == 1
    ib = ((upg >> ICE_BREAKER) & 1) == 1
    wind = view[V_WIND]
    holder = view[V_TREASURE]
    n_seats = view[V_N_SEATS]
    for k in range(N_GOALS):
        for c in range(N_CELLS):
            dist[k, c] = FAR
    if holder == seat:
        dist[G_HOME, board.rules[R_HG_CELL]] = 0
        esc = board.rules[R_ESC_MASK]
        for c in range(N_CELLS):
            if board.escape[c] == 1:
                for d in range(6):
                    if ((esc >> d) & 1) == 1 and board.nb[c, d] < 0 and not side_blocked(view, board, c, d, ib):
                        x = move_cost(board, wind, d, jib, crew)
                        if x < dist[G_HOME, c]:
                            dist[G_HOME, c] = x
    elif holder >= 0:
        hp = view[V_SEATS + SEAT_FIELDS * holder + F_POS]
        if hp >= 0:
            dist[G_HOLDER, hp] = 0
    else:
        kelly_known = False
        for c in range(N_CELLS):
            card = view[V_CARD + c]
            if card == FACE_DOWN:
                dist[G_UNKNOWN, c] = 0
            elif card == KELLY:
                kelly_known = True
                if maps == ALL_MAPS:
                    dist[G_MAPS, c] = 0
            elif card == LOST_ISLAND and maps != ALL_MAPS:
                col = view[V_COLOUR + c]
                if col >= 0 and ((maps >> col) & 1) == 0 and view[V_MAPS_LEFT + col] > 0:
                    dist[G_MAPS, c] = 0
            elif card == PORT:
                left = view[V_COPIES + c]
                u = board.port_upg[c]
                n_copies = board.costs.shape[0]
                if left > 0 and u >= 0 and ((upg >> u) & 1) == 0 and n_copies - left >= 0 and \
                        board.costs[n_copies - left] == 0:
                    dist[G_PORT, c] = 0
        best = 0
        for o in range(n_seats):
            op = view[V_SEATS + SEAT_FIELDS * o + F_POS]
            if o == seat or op < 0:
                continue
            lack = popcount_nb(view[V_SEATS + SEAT_FIELDS * o + F_MAPS] & ~maps & ALL_MAPS)
            if lack > best:
                best = lack
                for c in range(N_CELLS):
                    dist[G_RICH, c] = FAR
                dist[G_RICH, op] = 0
            elif lack == best and lack > 0:
                dist[G_RICH, op] = 0
        if kelly_known and maps == ALL_MAPS:
            for c in range(N_CELLS):
                dist[G_UNKNOWN, c] = FAR  # nothing left to find
    for c in range(N_CELLS):
        if view[V_WRECK + c] == -1:
            dist[G_WRECK, c] = 0
    if view[V_BELL_POOL] > 0 and crew < board.rules[R_CREW_PER_SHIP]:
        dist[G_BELL, board.rules[R_BELL_CELL]] = 0
    chase = plan(view, board, dist, seat, crew, maps)
    for c in range(N_CELLS):  # side_blocked for every side, each cell's icebergs read once
        into[c] = enter_cost(view, c, ib)
        leave[c] = blocked_sides(view, c, ib)
    for c in range(N_CELLS):
        m = leave[c]
        for d in range(6):
            b = board.nb[c, d]
            if b >= 0:
                m |= ((leave[b] >> ((d + 3) % 6)) & 1) << d
        into[N_CELLS + c] = m
    for c in range(N_CELLS):
        leave[c] = ~into[N_CELLS + c] & 63
    for d in range(6):
        cost[d] = move_cost(board, wind, d, jib, crew)
    for k in range(N_GOALS):
        dijkstra(board, dist, k, leave, into, cost, want, bucket)
    return chase


def plan(view, board, dist, seat, crew, maps):
    """The built-in expert's goal (policies.plan_nb with the expert's settings) as the
    starting row of ``dist[G_PLAN]``: home with the treasure; Bell Island with no chip
    left (and chips there); the treasure's holder; the Ports whose free copy it lacks; the
    first ship holding the most (at least two) colours it lacks; else the Lost Islands it
    needs (Kelly's Island with all maps) and, a move further, every face-down card.
    True if the goal is a ship to raid (the expert then never stops short of it)."""
    holder = view[V_TREASURE]
    if holder == seat:
        for c in range(N_CELLS):
            dist[G_PLAN, c] = dist[G_HOME, c]
        return False
    if crew < 1 and view[V_BELL_POOL] > 0:
        dist[G_PLAN, board.rules[R_BELL_CELL]] = 0
        return False
    if holder >= 0:
        hp = view[V_SEATS + SEAT_FIELDS * holder + F_POS]
        if hp >= 0:
            dist[G_PLAN, hp] = 0
            return True
    if plan_goals(dist, G_PORT):
        return False
    best = 1
    target = -1
    for o in range(view[V_N_SEATS]):
        op = view[V_SEATS + SEAT_FIELDS * o + F_POS]
        if o == seat or op < 0:
            continue
        lack = popcount_nb(view[V_SEATS + SEAT_FIELDS * o + F_MAPS] & ~maps & ALL_MAPS)
        if lack > best:
            best = lack
            target = op
    if target >= 0:
        dist[G_PLAN, target] = 0
        return True
    islands = plan_goals(dist, G_MAPS)
    if maps != ALL_MAPS or holder >= 0 or not islands:
        for c in range(N_CELLS):
            if view[V_CARD + c] == FACE_DOWN and dist[G_PLAN, c] > 4:
                dist[G_PLAN, c] = 4
    return False


def plan_goals(dist, k):
    """Goal ``k``'s cells (distance 0) become the plan's; True if there are any."""
    found = False
    for c in range(N_CELLS):
        if dist[k, c] == 0:
            dist[G_PLAN, c] = 0
            found = True
    return found


def plan_words(view, board):
    """(distance from the ship's cell, [distance from its neighbour in direction d], chase) of
    the plan, as the view's V_PLAN.. words say them: -1 where no goal is reachable or off the map."""
    seat = view[V_SEAT]
    pos = view[V_SEATS + SEAT_FIELDS * seat + F_POS]
    dist = np.empty((N_GOALS, N_CELLS), np.int64)
    args = (np.zeros(N_CELLS, np.int64), np.zeros(2 * N_CELLS, np.int64), np.zeros(6, np.int64))
    chase = fields(view, board, dist, *args, (1 << N_CELLS) - 1, np.zeros(32, np.int64))

    def word(c):
        return -1 if c < 0 or dist[G_PLAN, c] >= FAR else int(dist[G_PLAN, c])

    return word(pos), [word(int(board.nb[pos, d])) for d in range(6)], chase
