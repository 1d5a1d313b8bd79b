"""Ice Pirates kernel, part 1 of 7: the kernel's own constants and the small helpers every other
part uses: strategy codes (ST_*) and parameter slots (SP_*), the planner's work-space layout
(FS_*), the bitboards of cells (BB_*), seat words, bit counts, the event log (log_nb), the
wind roll and how far a ship may sail (cont_after_nb).

The kernel's modules, each importing only those before it (no cycles): ``state`` (this one),
``board`` (the map and legality), ``policies`` (the scripted players' choices and the
planner), ``turn`` (raids, collection, one turn), ``play`` (set-up, the turns, outputs),
``searcher`` (what the search player knows of the game) and ``protocol`` (the game on the
decision protocol: a turn paused and replayed from its start; the engine,
``pirate_sim/engine_template.py``, is the chunk and trace drivers and the search loop).  Every one
may import ``rules``, ``columns``, ``games.base``, ``games.kernel_base``, ``pirate_sim.rng``,
``.search`` and ``.seating``; this one imports none of the other kernel modules.

Every function takes only the state vector ``st``
(int32, layout in ``rules.py``), the event log ``ev`` (int32 ``[capacity, 6]``;
capacity 0 in bulk runs), the game's rng, the rules NamedTuple ``P`` and plain arrays:

* ``geo``  int32[37, 8]: columns 0..5 neighbours (-1 off the map), 6 escape cell flag,
  7 Bay cell flag.
* ``rel``  int32[6, 6]: wind relation of a direction (WITH, TACK, INTO).
* ``cum_w`` float64[6]: cumulative wind weights.
* ``costs`` int32[copies]: upgrade cost by copies taken before.
* ``deck`` int32[30, 3]: Bay card templates (type, blocked sides, map colour).
* ``port_upg`` int32[6]: the upgrade at the Port of each corner.
* ``strat`` int32[n_seats] strategy codes, ``sp`` float64[n_seats, N_SP] their params.
* ``fs`` int64[FS_SIZE] (the planner's work space) and ``perm`` int64[30]: scratch,
  allocated once per block.

Every kernel but those that allocate (the chunk and trace drivers, the search player's and
the odds' Monte Carlo loops) is compiled with ``_nrt=False``: numba's reference counting of
the array arguments took about a third of a turn.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import njit, types
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic

from ...rng import weighted_choice_nb
from ..kernel_base import log_event_nb
from .rules import (BB_BITS, CELLS, C_MASK, C_REVEALED, DQ, DR, EV_WIND, G_EVENTS, G_TURN, G_VERSION, G_WIND,
                    G_WIND_ROLLS, G_WIND_SCR, G_WIND_SCR_LEN, G_WIND_SCR_POS, JIB, MAIN_SAIL, RADIUS, SEATS_BASE,
                    SEAT_WORDS, S_POS, S_UPG, TACK, WITH, neighbour_table)


# strategy codes (stable: they are stored in nothing but keep them fixed anyway)
ST_RANDOM = 0
ST_MAP_HUNTER = 1
ST_RAIDER = 2
ST_UPGRADER = 3
ST_SCRIPTED = 9  # tests only: directions and decisions from the state's script words
ST_SEARCH = 4  # the search player (strategies.py): in the kernel its entry plays the rollout
#               strategy's code and parameters, flagged by SP_SEARCH, for the choices it does not search
ST_EXPERT = 5  # the upgrader's and the raider's goals in one policy, each switched by a parameter
#               (SP_UPGRADES_WANTED, SP_CANNON_FIRST, SP_CHASE), settings found by docs/ice_pirates_expert_search.py

# strategy parameter slots (columns of ``sp``)
SP_AGGRESSION = 0
SP_CREW_RESERVE = 1
SP_MAX_UPGRADE_COST = 2
SP_SWASH_RESERVE = 3
SP_UPGRADES_WANTED = 4
SP_ABANDON_AFTER = 5
SP_ABANDON_PROB = 6
SP_DECIDE_PROB = 7
SP_PATIENCE = 8
SP_RAID_WORTHLESS = 9
SP_ABANDON_IDLE = 10
SP_ABANDON_STALLED = 11
SP_SEARCH = 12  # 1: this entry is asked (a search or strategy-file seat: protocol.py pauses its turn)
SP_BUDGET = 13  # search: rollouts per searched choice
SP_ROLLOUT = 14  # search: the rollout strategy's row among the default rows (its index in strategies.SCRIPTED)
SP_TOP_K = 15  # search: options kept by the rollout strategy's prior (0: all)
SP_REWARD = 16  # search: search.REWARD_*
SP_HORIZON = 17  # search: turns a rollout plays (0: to the end)
SP_CANNON_FIRST = 18  # expert: 1 heads for the Cannon first and pays any cost for it (the raider's rule)
SP_CHASE = 19  # expert: 1 chases ships rich in maps it lacks (the raider's rule, threshold SP_AGGRESSION)
SP_OPPONENTS = 20  # search: how rollouts play the other seats (OPP_*)
N_SP = 21
OPP_ROLLOUT = 0  # every other seat plays the rollout strategy (as the searching seat does)
OPP_MIX = 1  # rollout j plays every other seat as the default row OPP_POOL[j mod 4]
# the opponents a "mix" rollout cycles through: rows among the default rows (strategies.SCRIPTED:
# map_hunter, raider, upgrader, expert; random left out), so a rollout index has one opponent model
OPP_POOL = np.array([1, 2, 3, 4], dtype=np.int64)
NOT_FORCED = -100  # forced_nb: the seat chooses as its policy does
PAUSED = -101  # forced_nb: a searching seat's choice, the turn pauses for the search

# Explicit signatures for the small helpers called from many places with mixed int32 /
# int64 arguments: one compiled version each instead of one per argument-type mix.
_ST = types.int32[::1]
_EV = types.int32[:, ::1]
_I = types.int64
_FS = types.int64[::1]



@intrinsic
def _ctpop(typingctx, x):
    """LLVM's population count (one instruction) of an int64."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return sig, codegen


BLOCK = 64  # games per parallel block
# The planner counts in quarters: every planning cost is a multiple of 0.25 (see
# edge_cost_nb), so its distances are exact integers and a bucket queue orders them.
INF = 1 << 30  # distance of a cell from which the goal cannot be reached
FS_DIST = 0  # fs[0:37] distance to the goal, in quarters
FS_DCOST = 160  # fs[160:166] cost of a move in each direction under the wind
FS_BUCKET = 168  # fs[168:200] the bucket queue: bitboard of the cells at distance = index mod 32
FS_OCC = 166  # bitmask of the buckets that hold cells (goal_nb; then kept in a register)
FS_PASS = 120  # fs[120:126] this ship's passage bitboard of each direction
FS_CLASS = 130  # fs[130:133] the cells of each surcharge class: face up, face down, storm
FS_CLASS_SUR = 133  # the storm class's surcharge
FS_SETTLED = 134  # the search's settled cells (bitboard) ...
FS_AT = 135  # ... and the distance it has reached
N_BUCKETS = 32  # a power of two above the largest move cost (16 + 6 quarters)
# The last plan, reused while its turn and the state's G_VERSION are unchanged: within a
# turn only the moving ship moves, and its own place is no input of its plan.
FS_KEY_TURN = 200
FS_KEY_VERSION = 201
FS_KEY_TARGET = 202
FS_SIZE = 204


# ------------------------------------------------------------------ bitboards
# Sets of cells as int64 bitboards (layout in rules.py): cell c is bit BB_BIT[c]; the
# neighbour in direction d of the cell at bit b is at bit b + BB_STEP[d] (the empty eighth
# bit of each column absorbs the steps off the map's north and south edges).
BB_BIT = np.array([BB_BITS * (q + RADIUS) + (r + RADIUS) for q, r in CELLS], np.int64)
BB_CELL = np.full(64, -1, np.int64)  # cell of a bit, -1 for the bits of no cell
BB_CELL[BB_BIT] = np.arange(len(CELLS))
BB_ALL = int(sum(1 << int(b) for b in BB_BIT))  # every cell of the map
BB_STEP = tuple(BB_BITS * DQ[d] + DR[d] for d in range(6))  # N -1, NE +7, SE +8, S +1, SW -7, NW -8
_LOW32 = 0xFFFFFFFF
# a cell and its neighbours: what choosing a move from it reads of a plan
BB_AROUND = np.array([(1 << int(BB_BIT[c])) | sum(1 << int(BB_BIT[w]) for w in neighbour_table()[c] if w >= 0)
                      for c in range(len(CELLS))], np.int64)


@njit(_I(_ST, _I), cache=True, _nrt=False, inline="always")
def bb_nb(st, i):
    """The bitboard kept in words ``i`` (low 32 bits) and ``i + 1`` (high)."""
    return (np.int64(st[i]) & _LOW32) | (np.int64(st[i + 1]) << 32)


@njit(types.void(_ST, _I, _I), cache=True, _nrt=False, inline="always")
def set_bb_nb(st, i, x):
    lo = x & _LOW32
    st[i] = lo - (np.int64(1) << 32) if lo >= (np.int64(1) << 31) else lo  # the int32 with these bits
    st[i + 1] = x >> 32


@njit(_I(_I, _I), cache=True, _nrt=False, inline="always")
def bb_to_nb(m, d):
    """Where a step in direction ``d`` from the cells ``m`` lands (and off-map bits: mask with BB_ALL)."""
    k = BB_STEP[d]
    return (m << k) if k > 0 else (m >> -k)


@njit(_I(_I, _I), cache=True, _nrt=False, inline="always")
def bb_from_nb(m, d):
    """The cells from which a step in direction ``d`` lands in ``m``."""
    k = BB_STEP[d]
    return (m >> k) if k > 0 else (m << -k)


# ------------------------------------------------------------------ small helpers
@njit(_I(_I), cache=True, _nrt=False)
def sb_nb(s):
    return SEATS_BASE + s * SEAT_WORDS


if numba.config.DISABLE_JIT:
    def ctz_nb(m):
        return (int(m) & -int(m)).bit_length() - 1

    def popcount_nb(m):
        return bin(int(m)).count("1")
else:
    @njit(_I(_I), cache=True, _nrt=False)
    def ctz_nb(m):
        """Index of the lowest set bit (``m`` != 0)."""
        return trailing_zeros(m)

    @njit(_I(_I), cache=True, _nrt=False)
    def popcount_nb(m):
        return _ctpop(m)


@njit(types.void(_ST, _EV, _I, _I, _I, _I, _I), cache=True, _nrt=False)
def log_nb(st, ev, seat, kind, a, b, c):
    """Event row [turn, seat, kind, a, b, c] (rules.EV_*) when the log has room (kernel_base.append_event_nb)."""
    log_event_nb(st, ev, G_EVENTS, st[G_TURN], seat, kind, a, b, c)


@njit(types.boolean(_ST, _I, _I, types.boolean), cache=True, _nrt=False, inline="always")
def side_blocked_nb(st, c, d, ice_breaker):
    """Is side ``d`` of face-up card ``c`` blocked by an iceberg (for this ship)?"""
    if st[C_REVEALED + c] == 0:
        return False
    m = st[C_MASK + c]
    if m == 0:
        return False
    if ice_breaker and popcount_nb(m) == 1:
        return False  # Ice Breaker: small icebergs (one side) are ignored
    return ((m >> d) & 1) == 1


@njit(cache=True, _nrt=False, inline="always")
def occupants_nb(st, P, c, s):
    """Bitmask of the seats other than ``s`` on cell ``c``."""
    m = 0
    for o in range(P.n_seats):
        if o != s and st[sb_nb(o) + S_POS] == c:
            m |= 1 << o
    return m


@njit(types.boolean(_ST, _I, _I), cache=True, _nrt=False)
def has_upg_nb(st, s, u):
    return ((st[sb_nb(s) + S_UPG] >> u) & 1) == 1


@njit(cache=True, _nrt=False)
def roll_wind_nb(st, ev, rng, cum_w, s):
    """The wind changes: a forced (scripted) wind if one is queued, else a weighted draw."""
    pos = st[G_WIND_SCR_POS]
    if pos < st[G_WIND_SCR_LEN]:
        w = st[G_WIND_SCR + pos]
        st[G_WIND_SCR_POS] = pos + 1
    else:
        w = weighted_choice_nb(rng, cum_w)
    st[G_WIND] = w
    st[G_VERSION] += 1
    st[G_WIND_ROLLS] += 1
    log_nb(st, ev, s, EV_WIND, w, 0, 0)


@njit(cache=True, _nrt=False, inline="always")
def cont_after_nb(P, upg, rl, k):
    """May the ship move again after move ``k`` (0-based) made with wind relation ``rl``?"""
    maxm = P.sail_moves if ((upg >> MAIN_SAIL) & 1) else P.wind_moves
    if k + 1 >= maxm:
        return False
    if rl == WITH:
        return True
    if rl == TACK and ((upg >> JIB) & 1):
        return True
    return False
