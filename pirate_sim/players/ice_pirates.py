"""Ice Pirates' ``learned`` player: the seat's headings (or stopping), fighting the waves and
raids by a linear value of each option over features of the seat's view (docs/learned.md).

This file is a strategy file (docs/strategies.md): it sees only ``view`` (what every player
sees on the table, pirate_sim.games.ice_pirates.user_view; the face-down Bay cards are
hidden), the legal options, its weights, a private random stream and the read-only board;
the seat's other choices (abandoning ship, the Telescope, Port upgrades, swashbuckling) are
its ``base`` strategy's.  ``pirate-sim learn`` fits the weights; a weights file (``.npz``)
fills ``params`` in ``PARAMS`` order.

Distances are the plan words of the view (V_PLAN: the base strategy's planner, the built-in
expert's, run by the kernel over the known icebergs only), in quarter moves from the ship's
cell and from each neighbour to the plan's goal (home with the treasure; Bell Island with no
chip; the treasure's holder; the Ports whose free copy I lack; the ship holding most (2+)
colours I lack; else the Lost Islands I need, or Kelly's Island, and the face-down cards a
move further).  The file keeps no field of its own: a call reads the view and the options
(docs/learned.md, "Cost, every game").  "Me" is the deciding seat; "next" the cell an option
leaves the ship on (a heading's neighbour; stopping: where it stands).

Headings (KIND_DIR): value = ``w_dir . phi`` over the options (headings, then stopping),
the best played, ties to the first; a heading that wins the game (Harbour Grace or open
water with the treasure) is always taken.  Feature 0 is the expert's own pick (its rule
re-played on the plan words, ``expert_pick``); the others, in units of a quarter (``SMALL``),
let the weights overrule it:

     0  the expert's pick (1/0)                4  enters a known storm
     1  plan: -(the move's cost + the plan's    5  raid chance: the best ship on next
        distance from next) / 16 (stopping:        (treasure 1, + colours I lack / 3)
        the distance from here; 0 no goal)     6  exposure: (treasure 1, + my colours / 3)
     2  stop                                       x rivals within two cells of next / 2
     3  row                                    7  random, uniform in [0, 1) per option

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

from pirate_sim.games.ice_pirates.state import popcount_nb
from pirate_sim.games.ice_pirates.user_view import (F_CREW, F_MAPS, F_POS, F_UPG, KIND_DIR, KIND_FIGHT, R_ESC_MASK,
                                                    R_HG_CELL, SEAT_FIELDS, V_CARD, V_ICE, V_KIND,
                                                    V_N_SEATS, V_PLAN, V_PLAN_TARGET, V_SEAT, V_SEATS, V_TREASURE,
                                                    V_WIND)
from pirate_sim.rng import rand_float_nb

# where training starts (pirate_sim.learned.start_weights): the expert's own choices (its heading,
# its fight rule, its raid worth); from all zeros every option ties, the first is played and the
# first generations never win a game
START = {"dir_expert": 1.0, "fight_expert": 1.0, "fight_bias": -0.5, "raid_bias": -0.01, "raid_worth": 1.0}
# the trainer's settings for this game (pirate_sim.learned.training_defaults; a 4-seat Ice Pirates
# game costs about 7x a Pirate's Peak one): these reached 0.285 [0.279, 0.291] against three experts (fair 0.25)
# in 67 s on 2 cores, the curve's lower bound above 0.25 from generation 7 (20 generations of 16
# vectors: 0.268 [0.262, 0.275] in 26-30 s)
TRAINING = {"generations": 40, "population": 24, "elite": 6, "games": 1000, "held_out": 4000, "final_games": 20000}
KINDS = ("dir", "fight", "raid")  # the decision kinds with weights
FEATURES = (  # per decision kind (KINDS), in PARAMS order
    ("expert", "plan", "stop", "row", "storm", "raid_chance", "exposure", "random"),
    ("expert", "bias", "crew", "onward_gain"),
    ("bias", "worth", "crew_lead", "cannon_lead", "maps_held"),
)
N_DIR = 8
N_FIGHT = 4
N_RAID = 5
PARAMS = {"learned": {
    "dir_expert": 0.0, "dir_plan": 0.0, "dir_stop": 0.0, "dir_row": 0.0, "dir_storm": 0.0, "dir_raid_chance": 0.0,
    "dir_exposure": 0.0, "dir_random": 0.0,
    "fight_expert": 0.0, "fight_bias": 0.0, "fight_crew": 0.0, "fight_onward_gain": 0.0,
    "raid_bias": 0.0, "raid_worth": 0.0, "raid_crew_lead": 0.0, "raid_cannon_lead": 0.0, "raid_maps_held": 0.0,
}}

N_CELLS = 37
FAR = 1048576  # a distance no goal is reachable from (the view says -1)
SCALE = 16.0  # quarter moves per unit of a closeness (four moves)
SMALL = 0.25  # the unit of the features beside the expert's pick
ALL_MAPS = 7
FACE_DOWN = -1
STORM = 1  # rules.STORM
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


def plan_at(view, k):
    """The plan's distance from the ship's cell (k = 0) or its neighbour in direction k - 1 (FAR: none)."""
    x = view[V_PLAN + k]
    return FAR if x < 0 else x


def lacked(view, o, maps):
    """Map colours seat ``o`` holds that ``maps`` lacks."""
    return popcount_nb(view[V_SEATS + SEAT_FIELDS * o + F_MAPS] & ~maps & ALL_MAPS)


def expert_pick(view, board, options, jib, ib):
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
        x = move_cost(board, view[V_WIND], d, jib, crew) + enter_cost(view, a, ib) + plan_at(view, 1 + d)
        if x < best:
            best = x
            pick = i
    if stop >= 0:
        here = plan_at(view, 0)
        if here <= 0 or pick < 0:
            return stop
        if plan_at(view, 1 + options[pick]) >= here and view[V_PLAN_TARGET] < 0:
            return stop
    if pick < 0:
        return row if row >= 0 else 0
    return pick


def dir_value(view, board, params, jib, ib, d, nxt, rng, worth, pick):
    """``w_dir . phi`` of the option heading ``d`` to cell ``nxt`` (``d`` -1: stopping, ``nxt``
    the ship's cell); ``pick`` 1.0 where it is the expert's (feature 0).  The features are
    summed as they are computed: a call allocates nothing.  ``worth`` is the same for every
    option (:func:`seat_worth`)."""
    seat = view[V_SEAT]
    me = V_SEATS + SEAT_FIELDS * seat
    maps = view[me + F_MAPS]
    holder = view[V_TREASURE]
    n_seats = view[V_N_SEATS]
    v = params[0] * pick
    x = plan_at(view, 0 if d < 0 else 1 + d)
    if x < FAR:
        if d >= 0:
            x += move_cost(board, view[V_WIND], d, jib, view[me + F_CREW]) + enter_cost(view, nxt, ib)
        v += params[1] * (-SMALL * x / SCALE)
    if d >= 0:
        if board.rel[view[V_WIND], d] == INTO:
            v += params[3] * SMALL
        if view[V_CARD + nxt] == STORM:
            v += params[4] * SMALL
        best = 0.0
        for o in range(n_seats):
            if o != seat and view[V_SEATS + SEAT_FIELDS * o + F_POS] == nxt:
                r = (lacked(view, o, maps) / 3.0 if holder < 0 else 0.0) + (1.0 if holder == o else 0.0)
                best = max(best, r)
        v += params[5] * SMALL * best
    else:
        v += params[2] * SMALL
    if worth > 0.0:
        near = 0
        for o in range(n_seats):
            op = view[V_SEATS + SEAT_FIELDS * o + F_POS]
            if o != seat and op >= 0 and hex_distance(op, nxt) <= 2:
                near += 1
        v += params[6] * SMALL * worth * near / 2.0
    return v + params[7] * SMALL * rand_float_nb(rng)


def seat_worth(view):
    """What I carry: the treasure 1, + my colours / 3 (feature 6's factor)."""
    seat = view[V_SEAT]
    maps = view[V_SEATS + SEAT_FIELDS * seat + F_MAPS]
    return popcount_nb(maps & ALL_MAPS) / 3.0 + (1.0 if view[V_TREASURE] == seat else 0.0)


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
    crew = view[me + F_CREW]
    upg = view[me + F_UPG]
    ib = ((upg >> ICE_BREAKER) & 1) == 1
    jib = ((upg >> JIB) & 1) == 1
    n = options.shape[0]
    worth = seat_worth(view)
    if kind == KIND_DIR:
        pick = expert_pick(view, board, options, jib, ib)
        best = 0
        best_v = -1e300
        for i in range(n):
            d = options[i]
            nxt = pos if d < 0 else board.nb[pos, d]
            if d >= 0 and wins(view, board, nxt):
                return i
            v = dir_value(view, board, params, jib, ib, d, nxt, rng, worth, 1.0 if i == pick else 0.0)
            if v > best_v:
                best_v = v
                best = i
        return best
    # fighting the waves on storm ``pos``: options 1 fight, 0 stay
    here = dir_value(view, board, params, jib, ib, -1, pos, rng, worth, 0.0)
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
        if wins(view, board, a) or plan_at(view, 1 + d) < plan_at(view, 0):
            closer = True
        if wins(view, board, a):
            gain = 1e9
            continue
        gain = max(gain, dir_value(view, board, params, jib, ib, d, a, rng, worth, 0.0) - here)
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
