"""Pirateer's ``learned`` player: the whole play of a turn by a linear value of each legal
play over features of (the seat's view, the play) (docs/learned.md).

This file is a strategy file (docs/strategies.md): it sees only ``view`` (the whole open
position, pirate_sim.games.pirateer.user_view), the legal plays (int32 rows ``[ship1, dir1,
die1, take1, ship2, dir2, die2, take2]``, ship2 = -1 for a one-move play), its weights and
the read-only board tables (``board``).  ``pirate-sim learn`` fits the weights; a weights
file (``.npz``) fills ``params`` in ``PARAMS`` order.

Value of a play: ``w . phi(view, play)``, one weight vector shared by every play; the best
value is played, ties to the earlier play.  A play that wins (its treasure ship on its
anchor, or no opposing ship left) is always played, as the built-in players do.  Features
``phi`` describe the position the play leaves (scaled so a typical value is about 1; "me"
is the deciding seat; steps are single squares, ships ignored, board.dist; "exposure" of a
square is the share of an opposing seat's 36 next rolls with which one of its ships could
land there, one die or both, blocking as it stands before the play, summed over the seats,
as the built-in cautious and expert players reckon it):

     0  the built-in expert's score of the play / 80 (capture 80 per ship; holding the
        treasure 1000 - 5 x its steps home, else - 2 x steps to an opponent's treasure ship
        or - 0.5 x steps to a treasure anchor; - 0.5 x steps to the nearest opposing ship;
        - 80 x the exposure of my ships, the treasure ship's three times: strategies.py)
     1  takes the treasure from Skull Island (0/1)
     2  opposing ships captured (0-2)
     3  captures the treasure ship (0/1)
     4  seats the play leaves without a ship (0-2)
     5  I hold the treasure: my treasure ship's steps home / 10
     6  I hold it: steps from my treasure ship to my nearest other ship / 10 (escort)
     7  an opponent holds it: steps from my nearest ship to its treasure ship / 10
     8  it lies on Skull Island: steps from my nearest ship to a treasure anchor / 10
     9  it lies on Skull Island: my ships' mean steps to a treasure anchor / 10
    10  steps from my nearest ship to the nearest opposing ship / 10
    11  exposure of my ships but the treasure ship (expected ships lost)
    12  exposure of my treasure ship
    13  exposure of my ships (all) to the next seat to move only
    14  opposing ships my ships could capture with one die next turn, as the play leaves the
        board / 3
    15  an opponent's treasure ship among them (0/1)
"""

import numpy as np

from pirate_sim.games.pirateer.user_view import (SEAT_FIELDS, V_N_NODES, V_N_SEATS, V_SEAT, V_SEATS, V_SHIPS,
                                                 V_SHIPS_PER_SEAT, V_TREASURE)

N_FEATURES = 16
FEATURES = ("expert", "take", "captures", "capture_treasure", "eliminates", "home", "escort", "chase", "island",
            "island_mean", "hunt", "risk", "treasure_risk", "risk_next", "targets", "treasure_target")
PARAMS = {"learned": {
    "expert": 0.0, "take": 0.0, "captures": 0.0, "capture_treasure": 0.0, "eliminates": 0.0, "home": 0.0,
    "escort": 0.0, "chase": 0.0, "island": 0.0, "island_mean": 0.0, "hunt": 0.0, "risk": 0.0,
    "treasure_risk": 0.0, "risk_next": 0.0, "targets": 0.0, "treasure_target": 0.0,
}}

# the trainer's settings for this player (pirate_sim.learned.training_defaults) and its start
# (pirate_sim.learned.start_weights): from the expert's own score, learning the departures
START = {"expert": 1.0}
TRAINING = {"generations": 20, "population": 12, "elite": 4, "games": 2000, "held_out": 2000, "final_games": 4000}

MAX_SHIPS = 12  # user_view: V_SHIPS + i for 0 <= i < 12
FAR = 30  # steps counted at most (an unreachable square is 999 in the tables)
# the built-in expert's weights (pirate_sim.games.pirateer.strategies.EXPERT_WEIGHTS; HOLD_VALUE,
# TREASURE_RISK of state.py), feature 0 = its score / EXPERT_SCALE
X_CAPTURE = 80.0
X_CHASE = 2.0
X_HUNT = 0.5
X_RISK = 80.0
X_HOME = 5.0
X_ISLAND = 0.5
HOLD_VALUE = 1000.0
TREASURE_RISK = 3.0
EXPERT_SCALE = 80.0
WIN_VALUE = 1e9


def walk(board, node, d, die):
    """Square a legal one-die move of ``die`` squares in direction ``d`` from ``node`` reaches."""
    for _ in range(die):
        node = board.nb[node, d]
    return node


def steps(x):
    return x if x < FAR else FAR


def popcount(x):
    c = 0
    while x != 0:
        x &= x - 1
        c += 1
    return c


def roll_bit(a, b):
    """The bit of the ordered roll (a, b) in a 36-bit set of rolls."""
    return np.int64(1) << np.int64((a - 1) * 6 + (b - 1))


def with_die(v):
    """Every roll showing ``v`` on either die."""
    m = np.int64(0)
    for x in range(1, 7):
        m |= roll_bit(v, x) | roll_bit(x, v)
    return m


def threat(view, board, occ, mask):
    """``mask[o, node]``: the rolls with which opposing ship ``o`` could land on ``node`` next
    turn (one die, or both dice in either order; blocking as the board stands now)."""
    seat = view[V_SEAT]
    sps = view[V_SHIPS_PER_SEAT]
    n_ships = view[V_N_SEATS] * sps
    single = np.zeros(7, np.int64)
    for v in range(1, 7):
        single[v] = with_die(v)
    for o in range(n_ships):
        p = view[V_SHIPS + o]
        so = o // sps
        if so == seat or p < 0:
            continue
        held = view[V_TREASURE] == o
        occ[p] = -1  # the ship leaves its square
        for d in range(6):
            if held and board.seat_allowed[so, d] == 0:
                continue
            cur = p
            for v in range(1, 7):
                nxt = board.nb[cur, d]
                if nxt < 0:
                    break
                oc = occ[nxt]
                if oc < 0 or oc // sps != so:
                    mask[o, nxt] |= single[v]
                    occ[nxt] = o
                    for d2 in range(6):
                        if held and board.seat_allowed[so, d2] == 0:
                            continue
                        cur2 = nxt
                        for v2 in range(1, 7):
                            nxt2 = board.nb[cur2, d2]
                            if nxt2 < 0:
                                break
                            oc2 = occ[nxt2]
                            if oc2 < 0 or oc2 // sps != so:
                                mask[o, nxt2] |= roll_bit(v, v2) | roll_bit(v2, v)
                            if oc2 >= 0 or (d2 < 4 and board.kind[nxt2] != 0):
                                break
                            cur2 = nxt2
                    occ[nxt] = oc
                if oc >= 0 or (d < 4 and board.kind[nxt] != 0):
                    break
                cur = nxt
        occ[p] = o


def exposure(view, mask, pos, node, only):
    """Expected captures of a ship on ``node``: each opposing seat's share of its 36 rolls
    that reach it with a ship still afloat after the play (``pos``), summed over the seats
    (``only`` >= 0: that seat alone)."""
    seat = view[V_SEAT]
    sps = view[V_SHIPS_PER_SEAT]
    r = 0.0
    for s in range(view[V_N_SEATS]):
        if s == seat or (only >= 0 and s != only):
            continue
        m = np.int64(0)
        for o in range(s * sps, s * sps + sps):
            if pos[o] >= 0:
                m |= mask[o, node]
        r += popcount(m) / 36.0
    return r


def make_move(board, occ, pos, phi, ship, d, die, take, treasure):
    """One half of a play made on ``occ`` / ``pos``, counted into ``phi`` (a capture, the
    treasure captured, the treasure taken): (from, to, the ship captured or -1, who holds the
    treasure now)."""
    p = pos[ship]
    n = walk(board, p, d, die)
    v = occ[n]
    occ[p] = -1
    if v >= 0:
        pos[v] = -1
        phi[2] += 1.0
        if v == treasure:
            treasure = ship
            phi[3] = 1.0
    occ[n] = ship
    pos[ship] = n
    if take == 1:
        treasure = ship
        phi[1] = 1.0
    return p, n, v, treasure


def undo_move(occ, pos, ship, p, n, v):
    """:func:`make_move` undone."""
    pos[ship] = p
    occ[n] = v
    if v >= 0:
        pos[v] = n
    occ[p] = ship


def features(view, board, play, occ, mask, pos, phi):
    """Fill ``phi`` (float64[N_FEATURES]) for ``play`` (layout in the docstring); ``occ``
    (ship on each square, -1) and ``pos`` (a copy of the ships' squares) are left as they
    were.  True if the play wins."""
    seat = view[V_SEAT]
    sps = view[V_SHIPS_PER_SEAT]
    n_seats = view[V_N_SEATS]
    n_ships = n_seats * sps
    anchor = view[V_SEATS + SEAT_FIELDS * seat + 1]
    for j in range(N_FEATURES):
        phi[j] = 0.0
    s1 = play[0]
    s2 = play[4]
    # make the play on occ / pos (undone below)
    p1, n1, v1, treasure = make_move(board, occ, pos, phi, s1, play[1], play[2], play[3], view[V_TREASURE])
    p2 = -1
    n2 = -1
    v2 = -1
    if s2 >= 0:
        p2, n2, v2, treasure = make_move(board, occ, pos, phi, s2, play[5], play[6], play[7], treasure)
    # seats left without a ship, and whether the play wins
    others = 0
    nxt_seat = -1
    for k in range(1, n_seats):
        s = (seat + k) % n_seats
        afloat = 0
        before = 0
        for o in range(s * sps, s * sps + sps):
            if pos[o] >= 0:
                afloat += 1
            if view[V_SHIPS + o] >= 0:
                before += 1
        if afloat > 0:
            others += 1
            if nxt_seat < 0:
                nxt_seat = s
        elif before > 0:
            phi[4] += 1.0
    win = others == 0 or (treasure >= 0 and treasure // sps == seat and pos[treasure] == anchor)
    if not win:
        t_node = pos[treasure] if treasure >= 0 else -1
        mine_holds = treasure >= 0 and treasure // sps == seat
        d_near = 999
        d_island = 999
        island_sum = 0.0
        n_mine = 0
        d_escort = 999
        d_hunt = 999
        risk = 0.0
        t_risk = 0.0
        risk_next = 0.0
        targets = 0
        t_target = 0.0
        for m in range(seat * sps, seat * sps + sps):
            nm = pos[m]
            if nm < 0:
                continue
            n_mine += 1
            di = board.dist_island[nm]
            island_sum += steps(di)
            if di < d_island:
                d_island = di
            if t_node >= 0 and not mine_holds:
                dt = board.dist[nm, t_node]
                if dt < d_near:
                    d_near = dt
            if mine_holds and m != treasure:
                de = board.dist[nm, t_node]
                if de < d_escort:
                    d_escort = de
            for o in range(n_ships):
                no = pos[o]
                if o // sps != seat and no >= 0:
                    dh = board.dist[nm, no]
                    if dh < d_hunt:
                        d_hunt = dh
            e = exposure(view, mask, pos, nm, -1)
            if m == treasure:
                t_risk = e
            else:
                risk += e
            if nxt_seat >= 0:
                risk_next += exposure(view, mask, pos, nm, nxt_seat)
            # opposing ships my ship could land on with one die, as the play leaves the board
            for d in range(6):
                if m == treasure and board.seat_allowed[seat, d] == 0:
                    continue
                cur = nm
                for _v in range(1, 7):
                    q = board.nb[cur, d]
                    if q < 0:
                        break
                    oc = occ[q]
                    if oc >= 0:
                        if oc // sps != seat:
                            targets += 1
                            if oc == treasure:
                                t_target = 1.0
                        break
                    if d < 4 and board.kind[q] != 0:
                        break
                    cur = q
        x = X_CAPTURE * phi[2] - X_RISK * (risk + TREASURE_RISK * t_risk)
        if d_hunt < 999:
            x -= X_HUNT * d_hunt
        if mine_holds:
            home = board.seat_home[seat, t_node]
            x += HOLD_VALUE - X_HOME * home
            phi[5] = steps(home) / 10.0
            phi[6] = steps(d_escort if d_escort < 999 else 10) / 10.0
        elif treasure >= 0:
            x -= X_CHASE * d_near
            phi[7] = steps(d_near) / 10.0
        else:
            x -= X_ISLAND * d_island
            phi[8] = steps(d_island) / 10.0
            if n_mine > 0:
                phi[9] = island_sum / n_mine / 10.0
        phi[0] = x / EXPERT_SCALE
        phi[10] = steps(d_hunt) / 10.0
        phi[11] = risk
        phi[12] = t_risk
        phi[13] = risk_next
        phi[14] = targets / 3.0
        phi[15] = t_target
    else:
        phi[0] = WIN_VALUE / EXPERT_SCALE
    if s2 >= 0:
        undo_move(occ, pos, s2, p2, n2, v2)
    undo_move(occ, pos, s1, p1, n1, v1)
    return win


def learned(view, options, params, rng, board):
    """The play of the best value (a winning play at once), ties to the earlier play."""
    n_nodes = view[V_N_NODES]
    occ = np.full(n_nodes, -1, np.int32)
    pos = np.full(MAX_SHIPS, -1, np.int32)
    n_ships = view[V_N_SEATS] * view[V_SHIPS_PER_SEAT]
    for o in range(n_ships):
        p = view[V_SHIPS + o]
        pos[o] = p
        if p >= 0:
            occ[p] = o
    mask = np.zeros((MAX_SHIPS, n_nodes), np.int64)
    threat(view, board, occ, mask)
    phi = np.zeros(N_FEATURES)
    best = 0
    best_v = -1e300
    for k in range(options.shape[0]):
        if features(view, board, options[k], occ, mask, pos, phi):
            return k
        v = 0.0
        for j in range(N_FEATURES):
            v += params[j] * phi[j]
        if v > best_v:
            best_v = v
            best = k
    return best
