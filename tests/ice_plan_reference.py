"""A slow reference for the plan words of Ice Pirates' strategy-file view (user_view.V_PLAN):
the built-in expert's goal at its default settings, read off the view, and a plain Dijkstra
(heapq) backwards from it over the Bay, in Python.  It shares no code with the kernel's planner
(policies.plan_nb, search_nb: bitboards, a bucket queue, the entry's parameters): only the
move and entry costs and the iceberg test, which the learned player file defines for itself
(pirate_sim/players/ice_pirates.py; until 2026-12-07 that file ran this search at every call).
"""

import heapq

from pirate_sim.games.ice_pirates.rules import KELLY, LOST_ISLAND, PORT
from pirate_sim.games.ice_pirates.state import popcount_nb
from pirate_sim.games.ice_pirates.user_view import (F_CREW, F_MAPS, F_POS, F_UPG, R_BELL_CELL, R_ESC_MASK,
                                                    R_HG_CELL, SEAT_FIELDS, V_BELL_POOL, V_CARD, V_COLOUR,
                                                    V_COPIES, V_MAPS_LEFT, V_N_SEATS, V_SEAT, V_SEATS,
                                                    V_TREASURE, V_WIND)
from pirate_sim.players.ice_pirates import (ALL_MAPS, FACE_DOWN, FAR, ICE_BREAKER, JIB, N_CELLS, enter_cost,
                                            move_cost, side_blocked)


def goals(view, board) -> tuple[dict, bool]:
    """({cell: starting distance}, chases a ship) of the expert's goal: home with the treasure
    (Harbour Grace, or the escape edge at its move's cost); Bell Island with no chip left (and
    chips there); the treasure's holder; the Ports whose free copy it lacks; the first ship
    holding the most (at least two) colours it lacks; else the Lost Islands it needs (Kelly's
    Island with all maps) and, a move further, every face-down card."""
    seat = view[V_SEAT]
    me = V_SEATS + SEAT_FIELDS * seat
    upg, crew, maps = view[me + F_UPG], view[me + F_CREW], view[me + F_MAPS]
    ib = ((upg >> ICE_BREAKER) & 1) == 1
    jib = ((upg >> JIB) & 1) == 1
    holder = view[V_TREASURE]
    if holder == seat:
        out = {board.rules[R_HG_CELL]: 0}
        esc = board.rules[R_ESC_MASK]
        for c in range(N_CELLS):
            for d in range(6):
                if board.escape[c] == 1 and (esc >> d) & 1 and board.nb[c, d] < 0 and not side_blocked(view, board, c, d, ib):
                    out[c] = min(out.get(c, FAR), move_cost(board, view[V_WIND], d, jib, crew))
        return out, False
    if crew < 1 and view[V_BELL_POOL] > 0:
        return {board.rules[R_BELL_CELL]: 0}, False
    if holder >= 0 and view[V_SEATS + SEAT_FIELDS * holder + F_POS] >= 0:
        return {view[V_SEATS + SEAT_FIELDS * holder + F_POS]: 0}, True
    cards = [view[V_CARD + c] for c in range(N_CELLS)]
    if holder < 0:
        n_copies = board.costs.shape[0]
        ports = {c: 0 for c in range(N_CELLS) if cards[c] == PORT and 0 < view[V_COPIES + c] <= n_copies
                 and board.port_upg[c] >= 0 and not (upg >> board.port_upg[c]) & 1
                 and board.costs[n_copies - view[V_COPIES + c]] == 0}
        if ports:
            return ports, False
    best, target = 1, -1
    for o in range(view[V_N_SEATS]):
        op = view[V_SEATS + SEAT_FIELDS * o + F_POS]
        lack = popcount_nb(view[V_SEATS + SEAT_FIELDS * o + F_MAPS] & ~maps & ALL_MAPS)
        if o != seat and op >= 0 and lack > best:
            best, target = lack, op
    if target >= 0:
        return {target: 0}, True
    out = {}
    if holder < 0:
        for c in range(N_CELLS):
            col = view[V_COLOUR + c]
            if (cards[c] == KELLY and maps == ALL_MAPS) or (
                    cards[c] == LOST_ISLAND and maps != ALL_MAPS and col >= 0 and not (maps >> col) & 1
                    and view[V_MAPS_LEFT + col] > 0):
                out[c] = 0
    if maps != ALL_MAPS or holder >= 0 or not out:
        for c in range(N_CELLS):
            if cards[c] == FACE_DOWN:
                out.setdefault(c, 4)
    return out, False


def plan_distances(view, board) -> tuple[list, bool]:
    """(quarter moves from each cell to the goal, FAR where none; chases a ship): Dijkstra
    backwards from the goal cells, a move from ``c`` into ``u`` in direction ``e`` costing the
    move plus the entry into ``u``, over sides no known iceberg blocks."""
    seat = view[V_SEAT]
    me = V_SEATS + SEAT_FIELDS * seat
    upg, crew = view[me + F_UPG], view[me + F_CREW]
    ib = ((upg >> ICE_BREAKER) & 1) == 1
    jib = ((upg >> JIB) & 1) == 1
    start, chase = goals(view, board)
    dist = [FAR] * N_CELLS
    for c, x in start.items():
        dist[c] = min(dist[c], x)
    heap = [(x, c) for c, x in enumerate(dist) if x < FAR]
    heapq.heapify(heap)
    while heap:
        x, u = heapq.heappop(heap)
        if x > dist[u]:
            continue
        for d in range(6):
            c = int(board.nb[u, d])
            e = (d + 3) % 6  # c moves into u in direction e
            if c < 0 or side_blocked(view, board, c, e, ib):
                continue
            y = x + enter_cost(view, u, ib) + move_cost(board, view[V_WIND], e, jib, crew)
            if y < dist[c]:
                dist[c] = y
                heapq.heappush(heap, (y, c))
    return dist, chase


def plan_words(view, board):
    """(distance from the ship's cell, [distance from its neighbour in direction d], chase) of
    the plan, as the view's V_PLAN.. words say them: -1 where no goal is reachable or off the map."""
    pos = view[V_SEATS + SEAT_FIELDS * view[V_SEAT] + F_POS]
    dist, chase = plan_distances(view, board)

    def word(c):
        return -1 if c < 0 or dist[c] >= FAR else int(dist[c])

    return word(pos), [word(int(board.nb[pos, d])) for d in range(6)], chase
