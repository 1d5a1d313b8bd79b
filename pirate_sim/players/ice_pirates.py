"""Ice Pirates' ``learned`` player: the seat's headings (or stopping), fighting the waves and
raids by a linear value of each option over features of the seat's view (docs/learned.md).

This file is a strategy file (docs/strategies.md): it sees only ``view`` (what every player
sees on the table, pirate_sim.games.ice_pirates.user_view; the face-down Bay cards are
hidden), the legal options, its weights, a private random stream and the read-only board;
the seat's other choices (abandoning ship, the Telescope, Port upgrades, swashbuckling) are
its ``base`` strategy's.  ``pirate-sim learn`` fits the weights; a weights file (``.npz``)
fills ``params`` in ``PARAMS`` order.

Distances are the built-in planner's (policies.plan_nb): a reverse Dijkstra over the 37
cells around known icebergs (one-sided ones not for an Ice Breaker), for the current wind,
in quarter moves (with the wind 4, tack 8 or 4 with a Jib, row 10 or 16 at one chip or
fewer, +1 into a face-down card, +6 into a known storm or +2 with an Ice Breaker).  A
"closeness" is -distance / 16 from "next", the cell the option leaves the ship on (a
heading's neighbour; stopping: where it stands), and 0 when the goal does not apply now
or cannot be reached.  "Me" is the deciding seat.  The "plan" is the expert's goal
(``plan``: home with the treasure; Bell Island with no chip; the treasure's holder; the
Ports whose free copy I lack; the ship holding most (2+) colours I lack; else the Lost
Islands I need, or Kelly's Island, and the face-down cards a move further).

Headings (KIND_DIR): value = ``w_dir . phi`` over the options (headings, then stopping),
the best played, ties to the first; a heading that wins the game (Harbour Grace or open
water with the treasure) is always taken.  Feature 0 is the expert's own pick (its rule
re-played on the view, ``expert_pick``); the others, in units of a quarter (``SMALL``), let
the weights overrule it:

     0  the expert's pick (1/0)               7  closeness to the treasure's holder
     1  plan: -(the move's cost + the plan's   8  closeness to a Shipwreck's Extra Crew
        distance from next) / 16 (stopping:    9  closeness to Bell Island x chips I lack
        the distance from here)                   / crew per ship (chips on Bell Island)
     2  stop                                  10  row
     3  closeness to a Lost Island I need      11  enters a known storm
        (Kelly's Island with all three maps)  12  raid chance: the best ship on next
     4  closeness to a face-down card             (treasure 1, + colours I lack / 3)
     5  closeness to a Port whose free copy   13  exposure: (treasure 1, + my colours / 3)
        I lack                                    x rivals within two cells of next / 2
     6  closeness to the ship holding most    14  random, uniform in [0, 1) per option
        colours I lack x their count / 3
     (3-6 only while nobody holds the treasure)

Fighting the waves (KIND_FIGHT): value(fight) = ``w_fight . psi``, staying 0, ties to the
first option (fight):

     0  the expert would fight (1/0): an Ice    2  my crew / 3
        Breaker or 2+ chips, and a move out    3  onward gain: the best heading value
        of the storm gets closer to the plan      out of the storm - the value of
     1  bias (1)                                  stopping in it (w_dir)

Raids (KIND_RAID): value(no raid) = 0, value(raid on o) = ``w_raid . chi``, ties to no raid:

     0  bias (1)                               2  (my crew - o's crew) / 3
     1  worth: o holds the treasure (1) + the   3  my Cannon - o's Cannon (0/+-1)
        colours o holds that I lack / 3 (while  4  map colours I hold / 3
        nobody holds the treasure)
"""

import numpy as np

from pirate_sim.games.ice_pirates.state import ctz_nb, popcount_nb
from pirate_sim.games.ice_pirates.user_view import (F_CREW, F_MAPS, F_POS, F_UPG, KIND_DIR, KIND_FIGHT, R_BELL_CELL,
                                                    R_CREW_PER_SHIP, R_ESC_MASK, R_HG_CELL, SEAT_FIELDS, V_BELL_POOL,
                                                    V_CARD, V_COLOUR, V_COPIES, V_ICE, V_KIND, V_MAPS_LEFT,
                                                    V_N_SEATS, V_SEAT, V_SEATS, V_TREASURE, V_WIND, V_WRECK)
from pirate_sim.rng import rand_float_nb

# the trainer's settings for this game (pirate_sim.learned.training_defaults): a 4-seat Ice
# Pirates game costs about 7x a Pirate's Peak one; these reached 0.282 [0.273, 0.291] against
# three experts (fair 0.25) in 199 s on 2 cores beside other work, level from generation 7
TRAINING = {"generations": 20, "population": 16, "elite": 4, "games": 1000, "held_out": 4000, "final_games": 20000}
KINDS = ("dir", "fight", "raid")  # the decision kinds with weights
FEATURES = (  # per decision kind (KINDS), in PARAMS order
    ("expert", "plan", "stop", "maps", "unknown", "port", "rich", "holder", "wreck", "bell", "row", "storm",
     "raid_chance", "exposure", "random"),
    ("expert", "bias", "crew", "onward_gain"),
    ("bias", "worth", "crew_lead", "cannon_lead", "maps_held"),
)
N_DIR = 15
N_FIGHT = 4
N_RAID = 5
PARAMS = {"learned": {
    "dir_expert": 0.0, "dir_plan": 0.0, "dir_stop": 0.0, "dir_maps": 0.0, "dir_unknown": 0.0, "dir_port": 0.0, "dir_rich": 0.0,
    "dir_holder": 0.0, "dir_wreck": 0.0, "dir_bell": 0.0, "dir_row": 0.0, "dir_storm": 0.0, "dir_raid_chance": 0.0,
    "dir_exposure": 0.0, "dir_random": 0.0,
    "fight_expert": 0.0, "fight_bias": 0.0, "fight_crew": 0.0, "fight_onward_gain": 0.0,
    "raid_bias": 0.0, "raid_worth": 0.0, "raid_crew_lead": 0.0, "raid_cannon_lead": 0.0, "raid_maps_held": 0.0,
}}

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
# axial coordinates of the cells (rules.CELLS): q = column - 3, r = row within the column
CELL_Q = (-3, -3, -3, -3, -2, -2, -2, -2, -2, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0,
          1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3)
CELL_R = (0, 1, 2, 3, -1, 0, 1, 2, 3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3,
          -3, -2, -1, 0, 1, 2, -3, -2, -1, 0, 1, -3, -2, -1, 0)


def hex_distance(a, b):
    """Steps between cells ``a`` and ``b`` on the open map (icebergs ignored)."""
    dq = CELL_Q[a] - CELL_Q[b]
    dr = CELL_R[a] - CELL_R[b]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


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


def closeness(dist, k, c):
    x = dist[k, c]
    if x >= FAR:
        return 0.0
    return -x / SCALE


def lacked(view, o, maps):
    """Map colours seat ``o`` holds that ``maps`` lacks."""
    return popcount_nb(view[V_SEATS + SEAT_FIELDS * o + F_MAPS] & ~maps & ALL_MAPS)


def expert_pick(view, board, options, dist, cost, into, chase):
    """The option the expert's heading rule (policies.choose_dir_nb) takes, ties to the
    first: the move of the least cost + plan distance (rowing at one chip or fewer only when
    nothing else is legal); stopping, when allowed, on the goal or when that move gets no
    closer (never short of a ship it chases)."""
    seat = view[V_SEAT]
    pos = view[V_SEATS + SEAT_FIELDS * seat + F_POS]
    crew = view[V_SEATS + SEAT_FIELDS * seat + F_CREW]
    best = FAR * 4
    pick = -1
    row = -1
    stop = -1
    for i in range(options.shape[0]):
        d = options[i]
        if d < 0:
            stop = i
            continue
        a = board.nb[pos, d]
        if a < 0:
            return i
        if board.rel[view[V_WIND], d] == INTO and crew <= 1:
            if row < 0:
                row = i
            continue
        x = cost[d] + into[a] + dist[G_PLAN, a]
        if x < best:
            best = x
            pick = i
    if stop >= 0:
        here = dist[G_PLAN, pos]
        if here <= 0 or pick < 0:
            return stop
        if dist[G_PLAN, board.nb[pos, options[pick]]] >= here and not chase:
            return stop
    if pick < 0:
        return row if row >= 0 else 0
    return pick


def dir_features(view, board, dist, cost, into, d, nxt, phi, rng, rich, worth):
    """Fill ``phi`` (float64[N_DIR]) for the option heading ``d`` to cell ``nxt`` (``d`` -1:
    stopping, ``nxt`` the ship's cell); phi[0] (the expert's pick) is the caller's.  ``rich``
    and ``worth`` are the same for every option (:func:`seat_terms`)."""
    seat = view[V_SEAT]
    me = V_SEATS + SEAT_FIELDS * seat
    crew = view[me + F_CREW]
    maps = view[me + F_MAPS]
    holder = view[V_TREASURE]
    n_seats = view[V_N_SEATS]
    for j in range(N_DIR):
        phi[j] = 0.0
    x = dist[G_PLAN, nxt]
    if x < FAR:
        if d >= 0:
            x += cost[d] + into[nxt]
        phi[1] = -SMALL * x / SCALE
    phi[3] = SMALL * closeness(dist, G_MAPS, nxt)
    phi[4] = SMALL * closeness(dist, G_UNKNOWN, nxt)
    phi[5] = SMALL * closeness(dist, G_PORT, nxt)
    phi[6] = SMALL * closeness(dist, G_RICH, nxt) * rich
    phi[7] = SMALL * closeness(dist, G_HOLDER, nxt)
    phi[8] = SMALL * closeness(dist, G_WRECK, nxt)
    per = board.rules[R_CREW_PER_SHIP]
    if per > 0:
        phi[9] = SMALL * closeness(dist, G_BELL, nxt) * max(0, per - crew) / per
    if d >= 0:
        if board.rel[view[V_WIND], d] == INTO:
            phi[10] = SMALL
        if view[V_CARD + nxt] == STORM:
            phi[11] = SMALL
        best = 0.0
        for o in range(n_seats):
            if o != seat and view[V_SEATS + SEAT_FIELDS * o + F_POS] == nxt:
                v = (lacked(view, o, maps) / 3.0 if holder < 0 else 0.0) + (1.0 if holder == o else 0.0)
                best = max(best, v)
        phi[12] = SMALL * best
    else:
        phi[2] = SMALL
    if worth > 0.0:
        near = 0
        for o in range(n_seats):
            op = view[V_SEATS + SEAT_FIELDS * o + F_POS]
            if o != seat and op >= 0 and hex_distance(op, nxt) <= 2:
                near += 1
        phi[13] = SMALL * worth * near / 2.0
    phi[14] = SMALL * rand_float_nb(rng)


def seat_terms(view):
    """(rich, worth): the most colours I lack that a ship on the map holds / 3 (feature 6's
    factor), and what I carry: the treasure 1, + my colours / 3 (feature 13's)."""
    seat = view[V_SEAT]
    maps = view[V_SEATS + SEAT_FIELDS * seat + F_MAPS]
    best = 0
    for o in range(view[V_N_SEATS]):
        if o != seat and view[V_SEATS + SEAT_FIELDS * o + F_POS] >= 0:
            best = max(best, lacked(view, o, maps))
    worth = popcount_nb(maps & ALL_MAPS) / 3.0 + (1.0 if view[V_TREASURE] == seat else 0.0)
    return best / 3.0, worth


def dir_value(params, phi):
    v = 0.0
    for j in range(N_DIR):
        v += params[j] * phi[j]
    return v


def wins(view, board, nxt):
    """Does moving onto ``nxt`` (-1: off the map) win the game?"""
    return view[V_TREASURE] == view[V_SEAT] and (nxt < 0 or nxt == board.rules[R_HG_CELL])


def raid(view, options, params):
    """Whom to raid: -1 (value 0, listed first) or the seat of the best value."""
    seat = view[V_SEAT]
    me = V_SEATS + SEAT_FIELDS * seat
    mine = view[me + F_MAPS]
    crew = view[me + F_CREW]
    holder = view[V_TREASURE]
    f = N_DIR + N_FIGHT
    best = 0
    best_v = 0.0
    for i in range(options.shape[0]):
        o = options[i]
        if o < 0:
            continue
        b = V_SEATS + SEAT_FIELDS * o
        worth = (1.0 if holder == o else 0.0) + (lacked(view, o, mine) / 3.0 if holder < 0 else 0.0)
        cannon = ((view[me + F_UPG] >> CANNON) & 1) - ((view[b + F_UPG] >> CANNON) & 1)
        v = (params[f] + params[f + 1] * worth + params[f + 2] * (crew - view[b + F_CREW]) / 3.0
             + params[f + 3] * cannon + params[f + 4] * popcount_nb(mine & ALL_MAPS) / 3.0)
        if v > best_v:
            best_v = v
            best = i
    return best


def learned(view, options, params, rng, board):
    """The option of the best value (see the module docstring)."""
    kind = view[V_KIND]
    if kind != KIND_DIR and kind != KIND_FIGHT:  # a raid: -1 no raid, then seats
        return raid(view, options, params)
    seat = view[V_SEAT]
    me = V_SEATS + SEAT_FIELDS * seat
    pos = view[me + F_POS]
    n = options.shape[0]
    dist = np.empty((N_GOALS, N_CELLS), np.int64)
    leave = np.zeros(N_CELLS, np.int64)
    into = np.zeros(2 * N_CELLS, np.int64)  # entering costs, then each cell's blocked sides (fields' scratch)
    cost = np.zeros(6, np.int64)
    bucket = np.zeros(32, np.int64)
    want = np.int64(1) << pos  # the features read the fields here and one move away
    for d in range(6):
        if board.nb[pos, d] >= 0:
            want |= np.int64(1) << board.nb[pos, d]
    chase = fields(view, board, dist, leave, into, cost, want, bucket)
    rich, worth = seat_terms(view)
    phi = np.zeros(N_DIR)
    if kind == KIND_DIR:
        pick = expert_pick(view, board, options, dist, cost, into, chase)
        best = 0
        best_v = -1e300
        for i in range(n):
            d = options[i]
            nxt = pos if d < 0 else board.nb[pos, d]
            if d >= 0 and wins(view, board, nxt):
                return i
            dir_features(view, board, dist, cost, into, d, nxt, phi, rng, rich, worth)
            phi[0] = 1.0 if i == pick else 0.0
            v = dir_value(params, phi)
            if v > best_v:
                best_v = v
                best = i
        return best
    # fighting the waves on storm ``pos``: options 1 fight, 0 stay
    dir_features(view, board, dist, cost, into, -1, pos, phi, rng, rich, worth)
    here = dir_value(params, phi)
    crew = view[me + F_CREW]
    ib = ((view[me + F_UPG] >> ICE_BREAKER) & 1) == 1
    gain = -1e300
    closer = False
    for d in range(6):  # the moves out (never rowing: it is no first move)
        a = board.nb[pos, d]
        if board.rel[view[V_WIND], d] == INTO or side_blocked(view, board, pos, d, ib):
            continue
        if a < 0:
            if view[V_TREASURE] == seat and board.escape[pos] == 1 and ((board.rules[R_ESC_MASK] >> d) & 1) == 1:
                gain = 1e9
                closer = True
            continue
        if wins(view, board, a) or dist[G_PLAN, a] < dist[G_PLAN, pos]:
            closer = True
        if wins(view, board, a):
            gain = 1e9
            continue
        dir_features(view, board, dist, cost, into, d, a, phi, rng, rich, worth)
        gain = max(gain, dir_value(params, phi) - here)
    if gain < -1e299:
        gain = 0.0
    f = N_DIR
    expert = 1.0 if (ib or crew > 1) and closer else 0.0
    v = params[f] * expert + params[f + 1] + params[f + 2] * crew / 3.0 + params[f + 3] * gain
    best = 0
    best_v = -1e300
    for i in range(n):
        x = v if options[i] == 1 else 0.0
        if x > best_v:
            best_v = x
            best = i
    return best
