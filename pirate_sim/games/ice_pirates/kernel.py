"""The numba kernel of Ice Pirates: setup, the turn, movement, raids, collection, policies.

Every function here is ``@njit(cache=True)`` and takes only the state vector ``st``
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

The search player's kernels (``search_game_nb`` and the functions it calls, see "the
search player" below) run only for scenarios with a ``search`` seat, through their own
entry points (``search_chunk_nb``, ``search_traced_nb``).

Every kernel but the four that allocate (play_chunk_nb, play_traced_nb and the odds'
Monte Carlo loops) is compiled with ``_nrt=False``: numba's reference counting of the
array arguments took about a third of a turn.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import njit, prange, types
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic

from ...search import (H_INDEX, H_OPT, H_SIZE, REWARD_MARGIN, REWARD_RANK, REWARD_WIN, derive_stream_nb,
                       halving_best_nb, halving_next_nb, halving_start_nb, top_k_nb)
from ...seating import entry_of_seat_nb, first_seat_nb
from ...rng import (RNG_WORDS, dice_rolled_nb, rand_below_nb, rand_float_nb, roll_die_nb,
                    seed_game_nb, shuffle_nb, weighted_choice_nb)
from .rules import (BB_BITS, BB_KELLY, BB_LOST, BB_PASS, BB_PASS_IB, BB_REVEALED, BB_STORM, CELLS, DQ, DR, RADIUS,
                    neighbour_table,
                    BELL, OPEN, C_CARD, C_PASS, C_PASS_IB, C_COLOUR, C_COPIES, C_MASK, C_PORT_UPG, C_REVEALED, C_VISITS,
                    C_WALLED, C_WRECK, CANNON, EV_ABANDON, EV_BELL, EV_FIGHT, EV_FLIP, EV_MAP,
                    EV_MOVE, EV_NO_MOVE, EV_RAID, EV_RAM, EV_REENTER, EV_STOP, EV_STORM,
                    EV_TELESCOPE, EV_TREASURE, EV_TRUNC, EV_TURN, EV_UPGRADE, EV_VOID,
                    EV_WALLED, EV_WIN, EV_WIND, EV_WRECK, G_BELL_POOL, G_DIR_SCR, G_DIR_SCR_LEN,
                    G_DIR_SCR_POS, G_END, G_EVENTS, G_MAPS_LEFT, G_RAMS, G_SCR_FIGHT, G_SCR_RAID,
                    G_SCR_SWASH, G_SCR_TELESCOPE, G_SCR_UPGRADE, G_SEAT, G_SUPPLY, G_TREASURE,
                    G_TREASURE_TURN, G_TURN, G_VERSION, G_ENTRY, G_FIRST, G_UNUSED, G_WALLED, G_WIND, G_WIND_ROLLS,
                    G_WIND_SCR, G_WIND_SCR_LEN, G_WIND_SCR_POS, G_WINNER, GRAPPLING_HOOK,
                    ICE_BREAKER, INTO, JIB, KELLY, LOST_ISLAND, MAIN_SAIL, N_BAY, N_CELLS,
                    PORT, S_ABANDONED, S_ABANDONS, S_CREW, S_CREW_ROW, S_CREW_SWASH,
                    S_CREW_UPG, S_CREW_WAVES, S_EXTRA, S_EXTRA_EVER, S_HELD_TREASURE, S_IDLE, S_LOST_TURNS,
                    S_MAPS, S_MOVES, S_POS, S_PROGRESS, S_STALL, S_RAIDS_MADE, S_RAIDS_SUFFERED, S_RAIDS_WON, S_RAMS,
                    S_STORMS, S_STUCK, S_SWASH, S_T_ALL_MAPS, S_T_FIRST_MAP, S_T_TREASURE,
                    S_TREASURE_CHANGES, S_UPG, S_UPG_EVER, SEAT_WORDS, SEATS_BASE, STATE_WORDS,
                    STORM, TACK, TELESCOPE, WITH, WRECK, END_HARBOUR_GRACE, END_OPEN_WATER,
                    END_TRUNCATED, MAX_FORCED, PEND_DIR, PEND_FIGHT, PEND_RAID, T_FORCED, T_FPOS, T_FSEAT,
                    T_NF, T_PAUSE, T_PEND, T_PMASK, T_PSTOP)

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
SP_SEARCH = 12  # 1: this entry is the search player (its searched choices go to search_choice_nb)
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
N_SEAT_COLUMNS = 30
N_GAME_EXTRA = 5  # dice_rolled, wind_rolls, walled_cards, rams, treasure_turn


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
    n = st[G_EVENTS]
    if n < ev.shape[0]:
        ev[n, 0] = st[G_TURN]
        ev[n, 1] = seat
        ev[n, 2] = kind
        ev[n, 3] = a
        ev[n, 4] = b
        ev[n, 5] = c
        st[G_EVENTS] = n + 1


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


# ------------------------------------------------------------------ the map
@njit(cache=True, _nrt=False)
def pass_mask_nb(st, geo, c, ice_breaker):
    """Bit d: a ship (with an Ice Breaker or not) may cross side d of cell ``c``."""
    m = 0
    for d in range(6):
        if side_blocked_nb(st, c, d, ice_breaker):
            continue
        w = geo[c, d]
        if w >= 0 and side_blocked_nb(st, w, (d + 3) % 6, ice_breaker):
            continue
        m |= 1 << d
    return m


@njit(types.void(_ST, _I, _I, _I), cache=True, _nrt=False, inline="always")
def set_pass_nb(st, c, ib, m):
    """Cell ``c``'s passage mask (C_PASS, or C_PASS_IB with ``ib``) becomes ``m``; the
    passage bitboards follow the sides that changed."""
    word = C_PASS_IB if ib == 1 else C_PASS
    bb = BB_PASS_IB if ib == 1 else BB_PASS
    diff = m ^ st[word + c]
    st[word + c] = m
    bit = np.int64(1) << BB_BIT[c]
    while diff != 0:
        d = ctz_nb(diff)
        diff &= diff - 1
        set_bb_nb(st, bb + 2 * d, bb_nb(st, bb + 2 * d) ^ bit)


@njit(cache=True, _nrt=False)
def refresh_pass_nb(st, geo, c):
    """Recompute the passage masks (C_PASS, C_PASS_IB) of cell ``c`` and its bits in the
    passage bitboards (BB_PASS, BB_PASS_IB)."""
    for ib in range(2):
        set_pass_nb(st, c, ib, pass_mask_nb(st, geo, c, ib == 1))


@njit(cache=True, _nrt=False)
def refresh_around_nb(st, geo, c):
    """Passage masks of ``c`` and its neighbours after ``c``'s card changed.  A side is
    crossed by both cards it joins, so a neighbour's side facing ``c`` takes ``c``'s
    answer, and the neighbour's other sides do not change."""
    for ib in range(2):
        m = pass_mask_nb(st, geo, c, ib == 1)
        set_pass_nb(st, c, ib, m)
        word = C_PASS_IB if ib == 1 else C_PASS
        for d in range(6):
            w = geo[c, d]
            if w >= 0:
                o = (d + 3) % 6
                set_pass_nb(st, w, ib, (st[word + w] & ~(1 << o)) | (((m >> d) & 1) << o))


@njit(cache=True, _nrt=False)
def refresh_all_nb(st, geo):
    """Passage masks and every bitboard built from the cells (setup; tests that lay cards by hand)."""
    for ib in range(2):
        for d in range(6):
            set_bb_nb(st, (BB_PASS_IB if ib == 1 else BB_PASS) + 2 * d, 0)
    for c in range(N_CELLS):
        st[C_PASS + c] = 0
        st[C_PASS_IB + c] = 0
        refresh_pass_nb(st, geo, c)
    rev = np.int64(0)
    storm = np.int64(0)
    kelly = np.int64(0)
    lost0 = np.int64(0)
    lost1 = np.int64(0)
    lost2 = np.int64(0)
    for c in range(N_CELLS):
        bit = np.int64(1) << BB_BIT[c]
        card = st[C_CARD + c]
        if st[C_REVEALED + c] == 1:
            rev |= bit
        if card == STORM:
            storm |= bit
        elif card == KELLY:
            kelly |= bit
        elif card == LOST_ISLAND:
            col = st[C_COLOUR + c]
            if col == 0:
                lost0 |= bit
            elif col == 1:
                lost1 |= bit
            elif col == 2:
                lost2 |= bit
    set_bb_nb(st, BB_REVEALED, rev)
    set_bb_nb(st, BB_STORM, storm)
    set_bb_nb(st, BB_KELLY, kelly)
    set_bb_nb(st, BB_LOST, lost0)
    set_bb_nb(st, BB_LOST + 2, lost1)
    set_bb_nb(st, BB_LOST + 4, lost2)


@njit(cache=True, _nrt=False)
def connected_nb(st):
    """Can every cell be reached from every other through sides no known iceberg blocks?
    (A flood fill from cell 0 over the passage bitboards, a direction at a time.)"""
    reached = np.int64(1) << BB_BIT[0]
    frontier = reached
    while frontier != 0:
        new = np.int64(0)
        for d in range(6):
            new |= bb_to_nb(frontier & bb_nb(st, BB_PASS + 2 * d), d)
        new &= BB_ALL & ~reached
        reached |= new
        frontier = new
    return reached == BB_ALL


@njit(cache=True, _nrt=False)
def flip_nb(st, ev, geo, s, v):
    """Turn Bay card ``v`` face up; the enclosed-area rule may clear its icebergs."""
    st[C_REVEALED + v] = 1
    set_bb_nb(st, BB_REVEALED, bb_nb(st, BB_REVEALED) | (np.int64(1) << BB_BIT[v]))
    st[G_VERSION] += 1
    if s >= 0:
        st[sb_nb(s) + S_IDLE] = 0
    log_nb(st, ev, s, EV_FLIP, v, st[C_CARD + v], st[C_MASK + v])
    if st[C_MASK + v] == 0:
        return
    refresh_around_nb(st, geo, v)
    if not connected_nb(st):
        st[C_MASK + v] = 0
        refresh_around_nb(st, geo, v)
        st[C_WALLED + v] = 1
        st[G_WALLED] += 1
        log_nb(st, ev, s, EV_WALLED, v, 0, 0)


# ------------------------------------------------------------------ legality
EXIT_NONE = 0  # exit_kind_nb: no way out in this direction
EXIT_FREE = 1  # a free space, a face-down card (may ram), open water, or any with a hook
EXIT_OCCUPIED = 2  # an occupied space: a way out only if the ship could leave it in turn


@njit(cache=True, _nrt=False, inline="always")
def exit_kind_nb(st, P, geo, s, upg, v, d, start, esc_ok, others):
    """What leaving ``v`` in direction ``d`` leads to (EXIT_*), for seat s with upgrades
    ``upg`` (``others``: bitboard of the cells of the other ships); the wind (which
    directions may be sailed or rowed) is the caller's."""
    ib = ((upg >> ICE_BREAKER) & 1) == 1
    if ((st[(C_PASS_IB if ib else C_PASS) + v] >> d) & 1) == 0:
        return EXIT_NONE  # an iceberg on this card's side or (face up) the other's
    w = geo[v, d]
    if w < 0:
        return EXIT_FREE if esc_ok and geo[v, 6] == 1 and ((P.esc_mask >> d) & 1) else EXIT_NONE
    if w == start:
        return EXIT_NONE  # never back onto the starting space (see Assumptions)
    if st[C_REVEALED + w] == 0:
        return EXIT_FREE  # may ram, which costs no move
    if ((upg >> GRAPPLING_HOOK) & 1) == 1 or ((others >> BB_BIT[w]) & 1) == 0:
        return EXIT_FREE
    return EXIT_OCCUPIED


@njit(cache=True, _nrt=False, inline="always")
def can_pass_through_nb(st, s, upg, w):
    """May the ship pass through occupied ``w`` without having to stop there?  Not if ``w``
    is a storm it cannot fight (no Ice Breaker, no chip): it would stop, on an occupied space."""
    return not (st[C_CARD + w] == STORM and ((upg >> ICE_BREAKER) & 1) == 0 and st[sb_nb(s) + S_CREW] < 1)


@njit(cache=True, _nrt=False, inline="always")
def exists_exit_nb(st, P, geo, rel, s, v, k1, start, esc_ok, others):
    """Look-ahead for entering an occupied space ``v``: could the ship leave it with move
    ``k1`` (never rowing: only the first move rows), onto a free space, a face-down card
    (which may ram: the rulebook's exception) or open water, or through one more occupied
    space that it could leave in turn with move ``k1 + 1``?  Two levels cover every turn of
    up to three moves (with moves.main_sail = 4, a chain through three occupied spaces is
    refused)."""
    upg = st[sb_nb(s) + S_UPG]
    wind = st[G_WIND]
    for d2 in range(6):
        if rel[wind, d2] == INTO:
            continue
        kind = exit_kind_nb(st, P, geo, s, upg, v, d2, start, esc_ok, others)
        if kind == EXIT_FREE:
            return True
        if kind != EXIT_OCCUPIED or not cont_after_nb(P, upg, rel[wind, d2], k1):
            continue
        w = geo[v, d2]
        if not can_pass_through_nb(st, s, upg, w):
            continue
        for d3 in range(6):
            if rel[wind, d3] != INTO and exit_kind_nb(st, P, geo, s, upg, w, d3, start, esc_ok, others) == EXIT_FREE:
                return True
    return False


@njit(cache=True, _nrt=False, inline="always")
def legal_dir_nb(st, P, geo, rel, s, pos, d, k, start, esc_ok, others):
    """May seat ``s`` at ``pos`` choose direction ``d`` for move ``k`` (0-based)?"""
    upg = st[sb_nb(s) + S_UPG]
    rl = rel[st[G_WIND], d]
    if rl == INTO and (k > 0 or st[sb_nb(s) + S_CREW] < 1):
        return False  # row only on the first move, and only with a crew chip to spend
    kind = exit_kind_nb(st, P, geo, s, upg, pos, d, start, esc_ok, others)
    if kind != EXIT_OCCUPIED:
        return kind == EXIT_FREE
    v = geo[pos, d]
    if v == P.hg_cell and st[G_TREASURE] == s:
        return True  # entering Harbour Grace with the treasure wins at once
    if not (cont_after_nb(P, upg, rl, k) and can_pass_through_nb(st, s, upg, v)):
        return False
    return exists_exit_nb(st, P, geo, rel, s, v, k + 1, start, esc_ok, others)


@njit(cache=True, _nrt=False, inline="always")
def legal_mask_nb(st, P, geo, rel, s, pos, k, start, esc_ok):
    others = np.int64(0)  # the other ships' cells: only the moving ship moves in a turn
    for o in range(P.n_seats):
        c = st[sb_nb(o) + S_POS]
        if o != s and c >= 0:
            others |= np.int64(1) << BB_BIT[c]
    m = 0
    for d in range(6):
        if legal_dir_nb(st, P, geo, rel, s, pos, d, k, start, esc_ok, others):
            m |= 1 << d
    return m


@njit(cache=True, _nrt=False, inline="always")
def onward_mask_nb(st, P, geo, rel, s, v, k, start, esc_ok, ib):
    """Legal directions out of storm ``v`` for move ``k`` once the waves are paid for (the
    chip is spent first: it may decide whether a further occupied storm can be passed)."""
    b = sb_nb(s)
    pay = 0 if ib else 1
    st[b + S_CREW] -= pay
    m = legal_mask_nb(st, P, geo, rel, s, v, k, start, esc_ok)
    st[b + S_CREW] += pay
    return m


# ------------------------------------------------------------------ raids
@njit(cache=True, _nrt=False)
def raid_roll_nb(rng, cannon, cannon_dice):
    r = roll_die_nb(rng, 6)
    if cannon:
        for _ in range(cannon_dice - 1):
            x = roll_die_nb(rng, 6)
            if x > r:
                r = x
    return r


@njit(cache=True, _nrt=False)
def raid_score_nb(roll, chips, max_score):
    """The greater of the roll and the crew including the captain, at most ``max_score``."""
    sc = chips + 1
    if roll > sc:
        sc = roll
    return min(sc, max_score)


@njit(cache=True, _nrt=False)
def raid_nb(rng, r_chips, d_chips, r_cannon, d_cannon, ties_raider, swash_ties_swash,
            max_score, cannon_dice, r_reserve, d_reserve, r_prob, d_prob):
    """One raid with swashbuckling.  Returns (raider_won, raider_chips_spent, defender_chips_spent).

    A side swashbuckles while it is losing, has more chips than its reserve, and (when its
    probability is below 1) a uniform draw falls under that probability.
    """
    rr = raid_roll_nb(rng, r_cannon, cannon_dice)
    dr = raid_roll_nb(rng, d_cannon, cannon_dice)
    rs = raid_score_nb(rr, r_chips, max_score)
    ds = raid_score_nb(dr, d_chips, max_score)
    raider_won = rs > ds or (rs == ds and ties_raider)
    r_spent = 0
    d_spent = 0
    while True:
        if raider_won:  # the defender is losing
            if d_chips - d_spent <= d_reserve:
                break
            if d_prob < 1.0 and rand_float_nb(rng) >= d_prob:
                break
            d_spent += 1
            dr = raid_roll_nb(rng, d_cannon, cannon_dice)
            ds = raid_score_nb(dr, d_chips - d_spent, max_score)
            rs = raid_score_nb(rr, r_chips - r_spent, max_score)
            if ds > rs or (ds == rs and swash_ties_swash):
                raider_won = False
        else:
            if r_chips - r_spent <= r_reserve:
                break
            if r_prob < 1.0 and rand_float_nb(rng) >= r_prob:
                break
            r_spent += 1
            rr = raid_roll_nb(rng, r_cannon, cannon_dice)
            rs = raid_score_nb(rr, r_chips - r_spent, max_score)
            ds = raid_score_nb(dr, d_chips - d_spent, max_score)
            if rs > ds or (rs == ds and swash_ties_swash):
                raider_won = True
    return raider_won, r_spent, d_spent


@njit(cache=True)
def raid_mc_nb(seed, samples, r_chips, d_chips, r_cannon, d_cannon, ties_raider, swash_ties_swash,
               max_score, cannon_dice, swashbuckle):
    """Monte Carlo of ``raid_nb`` (both sides swashbuckle while they have chips, or never)."""
    rng = np.zeros(RNG_WORDS, np.uint64)
    seed_game_nb(rng, seed, 0)
    reserve = 0 if swashbuckle else 1000
    wins = 0
    for _ in range(samples):
        w, a, b = raid_nb(rng, r_chips, d_chips, r_cannon, d_cannon, ties_raider, swash_ties_swash,
                          max_score, cannon_dice, reserve, reserve, 1.0, 1.0)
        if w:
            wins += 1
    return wins


@njit(cache=True)
def wind_mc_nb(seed, samples, cum_w, counts):
    """Draw the wind ``samples`` times with the kernel's own wind roll; counts[w] += 1."""
    rng = np.zeros(RNG_WORDS, np.uint64)
    seed_game_nb(rng, seed, 0)
    st = np.zeros(STATE_WORDS, np.int32)
    ev = np.zeros((0, 6), np.int32)
    for _ in range(samples):
        roll_wind_nb(st, ev, rng, cum_w, 0)
        counts[st[G_WIND]] += 1


# ------------------------------------------------------------------ collection
@njit(cache=True, _nrt=False)
def void_maps_nb(st, P):
    for o in range(P.n_seats):
        b = sb_nb(o)
        for c in range(3):
            if (st[b + S_MAPS] >> c) & 1:
                st[G_MAPS_LEFT + c] += 1
        st[b + S_MAPS] = 0


@njit(cache=True, _nrt=False)
def gain_maps_nb(st, P, s, new_maps):
    """Seat ``s`` adds map colours ``new_maps``; records the turn of its first / full set."""
    b = sb_nb(s)
    st[b + S_MAPS] |= new_maps
    n = popcount_nb(st[b + S_MAPS])
    if n > st[b + S_PROGRESS]:
        st[b + S_PROGRESS] = n
        st[b + S_STALL] = 0
    if st[b + S_MAPS] != 0 and st[b + S_T_FIRST_MAP] < 0:
        st[b + S_T_FIRST_MAP] = st[G_TURN]
    if st[b + S_MAPS] == 7 and st[b + S_T_ALL_MAPS] < 0:
        st[b + S_T_ALL_MAPS] = st[G_TURN]


@njit(cache=True, _nrt=False)
def take_treasure_nb(st, s):
    b = sb_nb(s)
    st[G_TREASURE] = s
    if st[b + S_PROGRESS] < 4:
        st[b + S_STALL] = 0
    st[b + S_PROGRESS] = 4
    st[b + S_TREASURE_CHANGES] += 1
    st[b + S_HELD_TREASURE] = 1
    if st[b + S_T_TREASURE] < 0:
        st[b + S_T_TREASURE] = st[G_TURN]


@njit(cache=True, _nrt=False)
def collect_nb(st, ev, rng, P, costs, strat, sp, s, c, fs):
    """Take what the space ``c`` offers (upgrade, crew, map, treasure, Extra Crew)."""
    b = sb_nb(s)
    card = st[C_CARD + c]
    st[G_VERSION] += 1  # (whether or not anything is taken: collections are rare enough)
    if card == PORT:
        u = st[C_PORT_UPG + c]
        left = st[C_COPIES + c]
        if ((st[b + S_UPG] >> u) & 1) == 0 and left > 0:
            cost = costs[P.upg_copies - left]
            if st[b + S_CREW] >= cost and decide_upgrade_nb(st, rng, strat, sp, s, u, cost):
                st[b + S_CREW] -= cost
                st[G_BELL_POOL] += cost
                st[b + S_CREW_UPG] += cost
                st[C_COPIES + c] = left - 1
                st[b + S_UPG] |= 1 << u
                st[b + S_UPG_EVER] |= 1 << u
                log_nb(st, ev, s, EV_UPGRADE, u, cost, c)
                st[b + S_IDLE] = 0
    elif card == BELL:
        want = P.crew_per_ship + st[b + S_EXTRA] - st[b + S_CREW]
        take = min(want, st[G_BELL_POOL])
        if take > 0:
            st[b + S_CREW] += take
            st[G_BELL_POOL] -= take
            log_nb(st, ev, s, EV_BELL, take, st[b + S_CREW], 0)
            st[b + S_IDLE] = 0
    elif card == LOST_ISLAND:
        col = st[C_COLOUR + c]
        if ((st[b + S_MAPS] >> col) & 1) == 0 and st[G_MAPS_LEFT + col] > 0:
            st[G_MAPS_LEFT + col] -= 1
            gain_maps_nb(st, P, s, 1 << col)
            log_nb(st, ev, s, EV_MAP, col, st[b + S_MAPS], 0)
            st[b + S_IDLE] = 0
    elif card == KELLY:
        if st[b + S_MAPS] == 7 and st[G_TREASURE] < 0:
            take_treasure_nb(st, s)
            if st[G_TREASURE_TURN] < 0:
                st[G_TREASURE_TURN] = st[G_TURN]
            void_maps_nb(st, P)
            log_nb(st, ev, s, EV_TREASURE, c, 0, 0)
            log_nb(st, ev, s, EV_VOID, 0, 0, 0)
            st[b + S_IDLE] = 0
    elif card == WRECK:
        if st[C_WRECK + c] == -1:
            st[C_WRECK + c] = s
            st[b + S_EXTRA] += 1
            st[b + S_EXTRA_EVER] += 1
            got = 0
            if st[G_SUPPLY] > 0:
                st[G_SUPPLY] -= 1
                st[b + S_CREW] += 1
                got = 1
            log_nb(st, ev, s, EV_WRECK, c, got, st[b + S_EXTRA])
            st[b + S_IDLE] = 0


# ------------------------------------------------------------------ policies
@njit(cache=True, _nrt=False)
def decide_prob_nb(rng, sp, e):
    return rand_float_nb(rng) < sp[e, SP_DECIDE_PROB]


@njit(cache=True, _nrt=False, inline="always")
def decide_upgrade_nb(st, rng, strat, sp, s, u, cost):
    e = st[G_ENTRY + s]
    code = strat[e]
    if code == ST_SCRIPTED:
        return st[G_SCR_UPGRADE] == 1
    if code == ST_RANDOM:
        return decide_prob_nb(rng, sp, e)
    if u == CANNON and (code == ST_RAIDER or (code == ST_EXPERT and sp[e, SP_CANNON_FIRST] > 0)):
        return True
    return cost <= sp[e, SP_MAX_UPGRADE_COST]


@njit(cache=True, _nrt=False, inline="always")
def decide_abandon_nb(st, rng, strat, sp, s):
    e = st[G_ENTRY + s]
    code = strat[e]
    if code == ST_SCRIPTED:
        pos = st[G_DIR_SCR_POS]
        if pos < st[G_DIR_SCR_LEN] and st[G_DIR_SCR + pos] == -2:
            st[G_DIR_SCR_POS] = pos + 1
            return True
        return False
    if code == ST_RANDOM:
        return rand_float_nb(rng) < sp[e, SP_ABANDON_PROB]
    b = sb_nb(s)
    # a ship that gained nothing for abandon_idle turns is in a deadlock no patience broke
    # (two crewless ships shuttling under a steady wind): a new ship with fresh crew
    # and so is one whose best progress has not risen for abandon_stalled turns (two ships
    # raiding the same map back and forth)
    return (st[b + S_STUCK] >= sp[e, SP_ABANDON_AFTER] or st[b + S_IDLE] >= sp[e, SP_ABANDON_IDLE]
            or st[b + S_STALL] >= sp[e, SP_ABANDON_STALLED])


@njit(cache=True, _nrt=False, inline="always")
def decide_telescope_nb(st, rng, strat, sp, s):
    e = st[G_ENTRY + s]
    code = strat[e]
    if code == ST_SCRIPTED:
        return st[G_SCR_TELESCOPE] == 1
    if code == ST_RANDOM:
        return decide_prob_nb(rng, sp, e)
    return True  # information is free


@njit(cache=True, _nrt=False, inline="always")
def dir_cost_nb(rl, upg, crew, reserve):
    """Planning cost, in quarters, of a move with wind relation ``rl`` (about half a turn
    per move): with the wind 1, tack 2 (1 with Jib), row 2.5 (4 at or below the reserve)."""
    if rl == WITH:
        return 4
    if rl == TACK:
        return 4 if ((upg >> JIB) & 1) else 8
    return 10 if crew > reserve else 16


@njit(cache=True, _nrt=False, inline="always")
def cell_surcharge_nb(st, upg, v):
    """Planning surcharge, in quarters, for entering ``v``: unknown 0.25, storm 1.5 (0.5
    with Ice Breaker)."""
    if st[C_REVEALED + v] == 0:
        return 1
    if st[C_CARD + v] == STORM:
        return 2 if ((upg >> ICE_BREAKER) & 1) else 6
    return 0


@njit(cache=True, _nrt=False, inline="always")
def edge_cost_nb(st, rel, wind, upg, crew, reserve, d, v):
    """Planning cost, in quarters, of moving into ``v`` in direction ``d``."""
    return dir_cost_nb(rel[wind, d], upg, crew, reserve) + cell_surcharge_nb(st, upg, v)


@njit(types.void(_FS, _I, _I), cache=True, _nrt=False, inline="always")
def goal_nb(fs, c, x):
    """Cell ``c`` is a goal at distance ``x`` (quarters): into the bucket queue."""
    fs[FS_BUCKET + x] |= np.int64(1) << BB_BIT[c]
    fs[FS_OCC] |= np.int64(1) << x


@njit(cache=True, _nrt=False, inline="always")
def plan_nb(st, P, geo, rel, costs, strat, sp, s, esc_ok, fs):
    """Set up the search for the cost to the seat's current goal (search_nb then fills
    fs[FS_DIST..] as far as needed); return the chase target.

    Goals in order: the treasure holder heads for Harbour Grace or open water; a ship
    below its crew reserve goes to Bell Island to restore; everyone else chases the
    holder; the upgrader (and the raider, for a Cannon) visits Ports; the raider chases rich ships;
    then Kelly's Island with all three maps, else the missing Lost Islands and the unknown.
    Returns the seat to raid (-1: none).
    """
    b = sb_nb(s)
    e = st[G_ENTRY + s]
    code = strat[e]
    upg = st[b + S_UPG]
    crew = st[b + S_CREW]
    maps = st[b + S_MAPS]
    reserve = sp[e, SP_CREW_RESERVE]
    wind = st[G_WIND]
    ib = ((upg >> ICE_BREAKER) & 1) == 1
    pass_base = C_PASS_IB if ib else C_PASS
    for k in range(N_BUCKETS):
        fs[FS_BUCKET + k] = 0
    fs[FS_OCC] = 0
    rev = bb_nb(st, BB_REVEALED)
    target = -1
    goal = False
    holder = st[G_TREASURE]
    if holder == s:
        goal_nb(fs, P.hg_cell, 0)
        goal = True
        for c in range(N_CELLS):
            if geo[c, 6] == 1:
                for d in range(6):
                    if ((P.esc_mask >> d) & 1) and geo[c, d] < 0 and (st[pass_base + c] >> d) & 1:
                        rl = rel[wind, d]
                        goal_nb(fs, c, 4 if rl == WITH else (8 if rl == TACK else 12))  # 1, 2, 3 moves
    elif crew < reserve and st[G_BELL_POOL] > 0:
        goal_nb(fs, P.bell_cell, 0)  # crew before chasing: a raid without it is a coin toss
        goal = True                  # that the other ship wins back the next turn
    elif holder >= 0:
        target = holder
        hp = st[sb_nb(holder) + S_POS]
        goal = hp >= 0
        if goal:
            goal_nb(fs, hp, 0)
    upgrades = code == ST_UPGRADER or code == ST_EXPERT  # the expert: with upgrades_wanted > 0
    cannon = code == ST_RAIDER or (code == ST_EXPERT and sp[e, SP_CANNON_FIRST] > 0)
    if not goal and (upgrades or cannon):
        owned = popcount_nb(upg)
        for k in range(6):  # the Ports lie at the six corners
            c = P.corner0 if k == 0 else (P.corner1 if k == 1 else (P.corner2 if k == 2 else (
                P.corner3 if k == 3 else (P.corner4 if k == 4 else P.corner5))))
            if st[C_CARD + c] == PORT:
                u = st[C_PORT_UPG + c]
                left = st[C_COPIES + c]
                if ((upg >> u) & 1) or left == 0:
                    continue
                cost = costs[P.upg_copies - left]
                if cost > crew:
                    continue
                if upgrades and owned < sp[e, SP_UPGRADES_WANTED] and cost <= sp[e, SP_MAX_UPGRADE_COST]:
                    goal_nb(fs, c, 0)
                    goal = True
                elif cannon and u == CANNON:
                    goal_nb(fs, c, 0)
                    goal = True
    if not goal and (code == ST_RAIDER or (code == ST_EXPERT and sp[e, SP_CHASE] > 0)):
        need = 3.0 - 2.0 * sp[e, SP_AGGRESSION]
        best = 0
        for o in range(P.n_seats):
            if o == s or st[sb_nb(o) + S_POS] < 0:
                continue
            val = popcount_nb(st[sb_nb(o) + S_MAPS] & ~maps)
            if val >= need and val > best:
                best = val
                target = o
        if target >= 0:
            goal_nb(fs, st[sb_nb(target) + S_POS], 0)
            goal = True
    if not goal:
        islands = np.int64(0)  # face-up islands worth sailing to
        if maps == 7:
            if holder < 0:
                islands = bb_nb(st, BB_KELLY) & rev
        else:
            for col in range(3):
                if ((maps >> col) & 1) == 0 and st[G_MAPS_LEFT + col] > 0:
                    islands |= bb_nb(st, BB_LOST + 2 * col) & rev
        fs[FS_BUCKET] |= islands
        if islands != 0:
            fs[FS_OCC] |= 1
        if maps != 7 or holder >= 0 or islands == 0:  # Kelly's Island unknown: explore
            unknown = BB_ALL & ~rev
            fs[FS_BUCKET + 4] |= unknown  # one move
            if unknown != 0:
                fs[FS_OCC] |= 1 << 4
    # the search (search_nb) starts from these goals; it settles cells only as far as a
    # caller needs them
    for c in range(N_CELLS):
        fs[FS_DIST + c] = INF
    pb = BB_PASS_IB if ib else BB_PASS
    storm = bb_nb(st, BB_STORM) & rev
    fs[FS_CLASS] = rev & ~storm  # surcharge 0
    fs[FS_CLASS + 1] = BB_ALL & ~rev  # an unknown card: a quarter move
    fs[FS_CLASS + 2] = storm  # a storm: 1.5 moves (0.5 with Ice Breaker)
    fs[FS_CLASS_SUR] = 2 if ib else 6
    for d in range(6):
        fs[FS_DCOST + d] = dir_cost_nb(rel[wind, d], upg, crew, reserve)
        fs[FS_PASS + d] = bb_nb(st, pb + 2 * d)
    fs[FS_SETTLED] = 0
    fs[FS_AT] = 0
    return target


@njit(types.void(_FS, _I), cache=True, _nrt=False, inline="always")
def search_nb(fs, need):
    """Go on with the plan's Dijkstra (backwards from the goals, over bitboards) until the
    cells ``need`` have their distance in fs[FS_DIST..] (or nothing is left to settle).

    The cells of a bucket (one distance; ring index = distance mod N_BUCKETS, and every
    step costs less than N_BUCKETS) are settled together, and each surcharge class of
    them is relaxed in each direction with one shift.  A cell may wait in several
    buckets: the first it leaves fixes its distance.  The distances are those of a search
    of the whole board; only cells no caller reads are left out."""
    occ = fs[FS_OCC]
    settled = fs[FS_SETTLED]
    dist = fs[FS_AT]
    while occ != 0 and (settled & need) != need:
        r = dist & (N_BUCKETS - 1)
        rot = ((occ >> r) | (occ << (N_BUCKETS - r))) & ((np.int64(1) << N_BUCKETS) - 1)
        dist += ctz_nb(rot)
        r = dist & (N_BUCKETS - 1)
        m = fs[FS_BUCKET + r] & ~settled
        fs[FS_BUCKET + r] = 0
        occ &= ~(np.int64(1) << r)
        if m == 0:
            continue
        settled |= m
        mm = m
        while mm != 0:
            fs[FS_DIST + BB_CELL[ctz_nb(mm)]] = dist
            mm &= mm - 1
        for cls in range(3):
            mk = m & fs[FS_CLASS + cls]
            if mk == 0:
                continue
            base = dist + (0 if cls == 0 else (1 if cls == 1 else fs[FS_CLASS_SUR]))
            for d in range(6):
                u = bb_from_nb(mk, d) & fs[FS_PASS + d] & ~settled
                if u != 0:
                    k = (base + fs[FS_DCOST + d]) & (N_BUCKETS - 1)
                    fs[FS_BUCKET + k] |= u
                    occ |= np.int64(1) << k
    fs[FS_OCC] = occ
    fs[FS_SETTLED] = settled
    fs[FS_AT] = dist


@njit(cache=True, _nrt=False, inline="always")
def choose_dir_nb(st, rng, P, geo, rel, costs, strat, sp, s, pos, mask, may_stop, esc_ok,
                  passed, fs):
    """The direction of the next move, or -1 to stop (only when ``may_stop``)."""
    e = st[G_ENTRY + s]
    code = strat[e]
    n_legal = popcount_nb(mask)
    if code == ST_SCRIPTED:
        p = st[G_DIR_SCR_POS]
        if p < st[G_DIR_SCR_LEN]:
            d = st[G_DIR_SCR + p]
            st[G_DIR_SCR_POS] = p + 1
            if d >= 0 and ((mask >> d) & 1):
                return d
        if may_stop:
            return -1
        for d in range(6):
            if (mask >> d) & 1:
                return d
        return -1
    if code == ST_RANDOM:
        n_opt = n_legal + (1 if may_stop else 0)
        pick = rand_below_nb(rng, n_opt)
        for d in range(6):
            if (mask >> d) & 1:
                if pick == 0:
                    return d
                pick -= 1
        return -1
    if st[G_TREASURE] == s:  # a move that wins the game is always taken
        for d in range(6):
            if (mask >> d) & 1:
                v = geo[pos, d]
                if v < 0 or v == P.hg_cell:
                    return d
    if fs[FS_KEY_TURN] == st[G_TURN] and fs[FS_KEY_VERSION] == st[G_VERSION]:
        target = fs[FS_KEY_TARGET]
    else:
        target = plan_nb(st, P, geo, rel, costs, strat, sp, s, esc_ok, fs)
        fs[FS_KEY_TURN] = st[G_TURN]
        fs[FS_KEY_VERSION] = st[G_VERSION]
        fs[FS_KEY_TARGET] = target
    search_nb(fs, BB_AROUND[pos])
    if may_stop and target >= 0 and ((passed >> target) & 1):
        return -1  # passed the ship to raid: end the turn now
    b = sb_nb(s)
    upg = st[b + S_UPG]
    crew = st[b + S_CREW]
    reserve = sp[e, SP_CREW_RESERVE]
    if st[b + S_IDLE] > sp[e, SP_PATIENCE]:
        # out of patience (ships blocking each other under a steady wind): row freely and
        # make every other move a uniformly random legal one, which breaks such cycles
        reserve = 0.0
        if rand_below_nb(rng, 2) == 0:
            pick = rand_below_nb(rng, n_legal)
            for d in range(6):
                if (mask >> d) & 1:
                    if pick == 0:
                        return d
                    pick -= 1
    wind = st[G_WIND]
    best = INF
    best_d = -1
    n_best = 0
    best_row = -1
    for d in range(6):
        if ((mask >> d) & 1) == 0:
            continue
        v = geo[pos, d]
        if v < 0:
            return d  # open water with the treasure: the game is won
        rl = rel[wind, d]
        if rl == INTO and crew <= reserve:
            best_row = d  # only if nothing else is legal
            continue
        x = edge_cost_nb(st, rel, wind, upg, crew, reserve, d, v) + fs[FS_DIST + v]
        if x < best:
            best = x
            best_d = d
            n_best = 1
        elif x == best:
            n_best += 1
            if rand_below_nb(rng, n_best) == 0:
                best_d = d
    if may_stop:
        here = fs[FS_DIST + pos]
        if here <= 0 or best_d < 0:
            return -1
        v = geo[pos, best_d]
        if fs[FS_DIST + v] >= here and target < 0:
            return -1  # no progress: stop
    if best_d < 0:
        return best_row
    return best_d


@njit(cache=True, _nrt=False, inline="always")
def decide_fight_nb(st, rng, P, geo, rel, costs, strat, sp, s, v, onward, esc_ok, fs):
    """Fight the waves at storm ``v`` (``onward``: the legal moves after paying)?  A planner
    pays only for a following move that gets closer to its goal (or wins)."""
    e = st[G_ENTRY + s]
    code = strat[e]
    if code == ST_SCRIPTED:
        return st[G_SCR_FIGHT] == 1
    if code == ST_RANDOM:
        return decide_prob_nb(rng, sp, e)
    b = sb_nb(s)
    if not has_upg_nb(st, s, ICE_BREAKER) and st[b + S_CREW] <= sp[e, SP_CREW_RESERVE]:
        return False
    if fs[FS_KEY_TURN] != st[G_TURN]:  # no choice of this turn planned (its moves were forced)
        fs[FS_KEY_TARGET] = plan_nb(st, P, geo, rel, costs, strat, sp, s, esc_ok, fs)
        fs[FS_KEY_TURN] = st[G_TURN]
        fs[FS_KEY_VERSION] = st[G_VERSION]
    search_nb(fs, BB_AROUND[v])  # the plan of this turn's last choice, as far as it is needed here
    here = fs[FS_DIST + v]
    if here <= 0:
        return False  # the storm is the goal
    for d in range(6):
        if (onward >> d) & 1:
            w = geo[v, d]
            if w < 0 or fs[FS_DIST + w] < here or (w == P.hg_cell and st[G_TREASURE] == s):
                return True
    return False


@njit(cache=True, _nrt=False)
def raid_value_nb(st, P, s, o, worthless_too):
    """What a won raid on ``o`` brings ``s``: the treasure 10, each map colour it lacks 1 -
    the maps only while nobody holds the treasure (or when ``worthless_too``)."""
    v = 0
    if st[G_TREASURE] < 0 or worthless_too:
        v = popcount_nb(st[sb_nb(o) + S_MAPS] & ~st[sb_nb(s) + S_MAPS])
    if st[G_TREASURE] == o:
        v += 10
    return v


@njit(cache=True, _nrt=False)
def choose_raid_nb(st, rng, P, strat, sp, s, cand):
    """The seat to raid among the candidates (bitmask), or -1."""
    e = st[G_ENTRY + s]
    code = strat[e]
    if code == ST_SCRIPTED:
        want = st[G_SCR_RAID]
        if want == -2:
            return -1
        if want >= 0:
            return want if (cand >> want) & 1 else -1
    elif code == ST_RANDOM:
        if not decide_prob_nb(rng, sp, e):
            return -1
        n = popcount_nb(cand)
        pick = rand_below_nb(rng, n)
        for o in range(P.n_seats):
            if (cand >> o) & 1:
                if pick == 0:
                    return o
                pick -= 1
        return -1
    best = -1
    best_v = 0 if code != ST_SCRIPTED else -1
    for o in range(P.n_seats):
        if (cand >> o) & 1:
            v = raid_value_nb(st, P, s, o, sp[e, SP_RAID_WORTHLESS] > 0)
            if v > best_v:
                best_v = v
                best = o
    return best


@njit(cache=True, _nrt=False)
def swash_params_nb(st, strat, sp, s):
    """(reserve, probability) of swashbuckling for seat ``s``."""
    e = st[G_ENTRY + s]
    code = strat[e]
    if code == ST_SCRIPTED:
        return np.int64(st[G_SCR_SWASH]), 1.0
    if code == ST_RANDOM:
        return np.int64(0), sp[e, SP_DECIDE_PROB]
    return np.int64(sp[e, SP_SWASH_RESERVE]), 1.0


@njit(cache=True, _nrt=False, inline="always")
def forced_nb(st, sp, s):
    """Seat ``s``'s next choice if it is forced (a search replaying its turn, or a rollout
    playing the option searched), PAUSED if it is a searching seat's choice to search, else
    NOT_FORCED (its policy chooses).  Reads no random stream."""
    pos = st[T_FPOS]
    if pos < st[T_NF] and st[T_FSEAT] == s:
        st[T_FPOS] = pos + 1
        return np.int64(st[T_FORCED + pos])
    if st[T_PAUSE] == 1 and sp[st[G_ENTRY + s], SP_SEARCH] > 0:
        return np.int64(PAUSED)
    return np.int64(NOT_FORCED)


# ------------------------------------------------------------------ turn actions
@njit(cache=True, _nrt=False)
def do_raid_nb(st, ev, rng, P, strat, sp, s, o):
    """Seat ``s`` raids seat ``o``; the winner of the exchange takes maps and treasure."""
    b = sb_nb(s)
    bo = sb_nb(o)
    r_res, r_prob = swash_params_nb(st, strat, sp, s)
    d_res, d_prob = swash_params_nb(st, strat, sp, o)
    won, r_spent, d_spent = raid_nb(rng, st[b + S_CREW], st[bo + S_CREW], has_upg_nb(st, s, CANNON),
                                    has_upg_nb(st, o, CANNON) and P.defender_cannon == 1, P.ties_raider == 1,
                                    P.swash_ties_swash == 1, P.max_score, P.cannon_dice,
                                    r_res, d_res, r_prob, d_prob)
    st[b + S_RAIDS_MADE] += 1
    st[bo + S_RAIDS_SUFFERED] += 1
    st[G_VERSION] += 1
    st[b + S_CREW] -= r_spent
    st[bo + S_CREW] -= d_spent
    st[G_BELL_POOL] += r_spent + d_spent
    st[b + S_CREW_SWASH] += r_spent
    st[bo + S_CREW_SWASH] += d_spent
    st[b + S_SWASH] += r_spent
    st[bo + S_SWASH] += d_spent
    log_nb(st, ev, s, EV_RAID, o, 1 if won else 0, r_spent * 16 + d_spent)
    if won:
        st[b + S_RAIDS_WON] += 1
        theirs = st[bo + S_MAPS]
        best_before = st[b + S_PROGRESS]
        for c in range(3):
            if (theirs >> c) & 1 and (st[b + S_MAPS] >> c) & 1:
                st[G_MAPS_LEFT + c] += 1  # duplicates go back to the stack
        st[bo + S_MAPS] = 0
        if theirs != 0:
            gain_maps_nb(st, P, s, theirs)
        if st[G_TREASURE] == o:
            take_treasure_nb(st, s)
        if st[b + S_PROGRESS] > best_before:
            # progress renews patience only when it beats the seat's best: winning back maps
            # or a treasure it held before is none (two ships trading them under a steady
            # wind never gave up: 1.1.1 played 663 turns in a raider mirror)
            st[b + S_IDLE] = 0


@njit(cache=True, _nrt=False)
def abandon_nb(st, ev, P, s):
    """Abandon ship: return upgrades, maps, crew and treasure as if never claimed."""
    b = sb_nb(s)
    for c in range(N_CELLS):
        if st[C_CARD + c] == PORT and ((st[b + S_UPG] >> st[C_PORT_UPG + c]) & 1):
            st[C_COPIES + c] += 1
        if st[C_WRECK + c] == s:
            st[C_WRECK + c] = -1  # the Extra Crew goes back onto its Shipwreck
    st[G_VERSION] += 1
    st[b + S_UPG] = 0
    st[b + S_EXTRA] = 0
    for c in range(3):
        if (st[b + S_MAPS] >> c) & 1:
            st[G_MAPS_LEFT + c] += 1
    st[b + S_MAPS] = 0
    st[G_UNUSED] += st[b + S_CREW]
    st[b + S_CREW] = 0
    if st[G_TREASURE] == s:
        st[G_TREASURE] = -1
    st[b + S_POS] = -1
    st[b + S_ABANDONED] = 1
    st[b + S_STUCK] = 0
    st[b + S_ABANDONS] += 1
    log_nb(st, ev, s, EV_ABANDON, 0, 0, 0)


@njit(cache=True, _nrt=False)
def reenter_nb(st, ev, P, s):
    """The turn after abandoning: a new ship on Bell Island with a fresh crew."""
    b = sb_nb(s)
    need = P.crew_per_ship
    take = min(need, st[G_UNUSED])
    st[G_UNUSED] -= take
    got = take
    take = min(need - got, st[G_BELL_POOL])
    st[G_BELL_POOL] -= take
    got += take
    take = min(need - got, st[G_SUPPLY])
    st[G_SUPPLY] -= take
    got += take
    st[b + S_CREW] = got
    st[b + S_IDLE] = 0
    st[b + S_STALL] = 0
    st[G_VERSION] += 1
    st[b + S_POS] = P.bell_cell
    st[b + S_ABANDONED] = 0
    st[C_VISITS + P.bell_cell] += 1
    log_nb(st, ev, s, EV_REENTER, got, 0, 0)


@njit(cache=True, _nrt=False, inline="always")
def play_turn_nb(st, ev, rng, P, geo, rel, cum_w, costs, strat, sp, fs):
    """Seat ``st[G_SEAT]`` plays one turn; sets G_END when the game is won."""
    s = st[G_SEAT]
    b = sb_nb(s)
    log_nb(st, ev, s, EV_TURN, st[G_WIND], st[b + S_POS], st[b + S_CREW])
    if st[b + S_ABANDONED] == 1:
        reenter_nb(st, ev, P, s)
        return
    if decide_abandon_nb(st, rng, strat, sp, s):
        abandon_nb(st, ev, P, s)
        return
    st[b + S_IDLE] += 1
    st[b + S_STALL] += 1
    esc_ok = st[G_TREASURE] == s  # open water needs the treasure at the start of the turn
    start = st[b + S_POS]
    if has_upg_nb(st, s, TELESCOPE) and decide_telescope_nb(st, rng, strat, sp, s):
        log_nb(st, ev, s, EV_TELESCOPE, start, 0, 0)
        for d in range(6):
            v = geo[start, d]
            if v >= 0 and st[C_REVEALED + v] == 0:
                flip_nb(st, ev, geo, s, v)
    pos = start
    k = 0
    passed = 0
    tried = 0
    must_continue = False
    collected_at = -1  # the space a Telescope ship collected on entering
    code = strat[st[G_ENTRY + s]]
    while True:
        mask = legal_mask_nb(st, P, geo, rel, s, pos, k, start, esc_ok) & ~tried
        if mask == 0:
            if k == 0:  # no legal move: the turn is lost and the wind rolled
                st[b + S_LOST_TURNS] += 1
                st[b + S_STUCK] += 1
                log_nb(st, ev, s, EV_NO_MOVE, pos, 0, 0)
                roll_wind_nb(st, ev, rng, cum_w, s)
                return
            break
        f = forced_nb(st, sp, s)
        if f == PAUSED:  # the search decides (search_game_nb replays the turn with it)
            st[T_PEND] = PEND_DIR
            st[T_PMASK] = mask
            st[T_PSTOP] = 1 if (k > 0 and not must_continue) else 0
            return
        if f != NOT_FORCED:
            d = f
        else:
            d = choose_dir_nb(st, rng, P, geo, rel, costs, strat, sp, s, pos, mask,
                              k > 0 and not must_continue, esc_ok, passed, fs)
        if d < 0:
            log_nb(st, ev, s, EV_STOP, pos, 0, 0)
            break
        v = geo[pos, d]
        rl = rel[st[G_WIND], d]
        upg = st[b + S_UPG]
        ib = ((upg >> ICE_BREAKER) & 1) == 1
        if v < 0:  # into the Atlantic with the treasure
            if rl == INTO:
                st[b + S_CREW] -= 1
                st[G_BELL_POOL] += 1
                st[b + S_CREW_ROW] += 1
            st[b + S_MOVES] += 1
            st[G_WINNER] = s
            st[G_END] = END_OPEN_WATER
            log_nb(st, ev, s, EV_WIN, END_OPEN_WATER, pos, d)
            return
        if st[C_REVEALED + v] == 0:
            flip_nb(st, ev, geo, s, v)
            if side_blocked_nb(st, v, (d + 3) % 6, ib):
                tried |= 1 << d  # rammed: choose another direction, no move spent
                st[b + S_RAMS] += 1
                st[G_RAMS] += 1
                log_nb(st, ev, s, EV_RAM, pos, d, v)
                continue
        if rl == INTO:
            st[b + S_CREW] -= 1
            st[G_BELL_POOL] += 1
            st[b + S_CREW_ROW] += 1
            st[G_VERSION] += 1
        if pos != start:
            passed |= occupants_nb(st, P, pos, s)
        st[b + S_POS] = v
        st[C_VISITS + v] += 1
        st[b + S_MOVES] += 1
        log_nb(st, ev, s, EV_MOVE, pos, v, d * 4 + rl)
        pos = v
        tried = 0
        if v == P.hg_cell and st[G_TREASURE] == s:
            st[G_WINNER] = s
            st[G_END] = END_HARBOUR_GRACE
            log_nb(st, ev, s, EV_WIN, END_HARBOUR_GRACE, v, 0)
            return
        cont = cont_after_nb(P, upg, rl, k)
        k += 1
        occupied = occupants_nb(st, P, v, s) != 0 and not ((upg >> GRAPPLING_HOOK) & 1)
        fought = False
        if st[C_CARD + v] == STORM:
            onward = 0
            if cont and (ib or st[b + S_CREW] >= 1):
                onward = onward_mask_nb(st, P, geo, rel, s, v, k, start, esc_ok, ib)
            fight = False
            if onward != 0:
                if occupied:
                    fight = True  # it may not stop on an occupied space
                else:
                    f = forced_nb(st, sp, s)
                    if f == PAUSED:
                        st[T_PEND] = PEND_FIGHT
                        return
                    if f != NOT_FORCED:
                        fight = f == 1
                    else:
                        fight = decide_fight_nb(st, rng, P, geo, rel, costs, strat, sp, s, v, onward, esc_ok, fs)
            if fight:
                if not ib:
                    st[b + S_CREW] -= 1
                    st[G_BELL_POOL] += 1
                    st[b + S_CREW_WAVES] += 1
                    st[G_VERSION] += 1
                log_nb(st, ev, s, EV_FIGHT, v, 0 if ib else 1, 0)
                fought = True
            else:
                cont = False
        if has_upg_nb(st, s, TELESCOPE):
            collect_nb(st, ev, rng, P, costs, strat, sp, s, v, fs)
            collected_at = v
        if not cont:
            break
        # a scripted player that paid for the waves makes the move it paid for
        must_continue = occupied or (fought and code != ST_RANDOM and code != ST_SCRIPTED)
    # ---- end of the turn: raid, then the storm's wind, then the space's collection
    st[b + S_STUCK] = 0
    cand = passed
    if has_upg_nb(st, s, GRAPPLING_HOOK):
        cand |= occupants_nb(st, P, pos, s)
    if cand != 0:
        f = forced_nb(st, sp, s)
        if f == PAUSED:
            st[T_PEND] = PEND_RAID
            st[T_PMASK] = cand
            return
        o = f if f != NOT_FORCED else choose_raid_nb(st, rng, P, strat, sp, s, cand)
        if o >= 0:
            do_raid_nb(st, ev, rng, P, strat, sp, s, o)
            if P.hg_raid_wins == 1 and pos == P.hg_cell and st[G_TREASURE] == s:
                st[G_WINNER] = s  # win.raid_at_harbour_grace = "wins"
                st[G_END] = END_HARBOUR_GRACE
                log_nb(st, ev, s, EV_WIN, END_HARBOUR_GRACE, pos, 0)
                return
    if st[C_CARD + pos] == STORM:
        st[b + S_STORMS] += 1
        log_nb(st, ev, s, EV_STORM, pos, 0, 0)
        roll_wind_nb(st, ev, rng, cum_w, s)
    if collected_at != pos:  # a Telescope ship collected here on entering, "instead"
        collect_nb(st, ev, rng, P, costs, strat, sp, s, pos, fs)


# ------------------------------------------------------------------ setup and whole games
@njit(cache=True, _nrt=False, inline="always")
def draw_mask_nb(rng, sides, two_adjacent):
    """The iceberg side mask of a card with ``sides`` (0-2) icebergs: one side uniformly, or
    two (adjacent ones when ``two_adjacent`` is 1, the rulebook's cards).  Set-up and the
    search's re-deal (determinise_nb) both draw with it, so a re-dealt card is drawn as dealt."""
    if sides == 1:
        return np.int64(1) << rand_below_nb(rng, 6)
    if sides == 2:
        a = rand_below_nb(rng, 6)
        if two_adjacent == 1:
            b = (a + 1) % 6
        else:
            b = (a + 1 + rand_below_nb(rng, 5)) % 6
        return (np.int64(1) << a) | (np.int64(1) << b)
    return np.int64(0)


@njit(cache=True, _nrt=False)
def setup_nb(st, ev, rng, P, geo, cum_w, deck, port_upg, perm, game_index):
    """Deal the Bay, place the ships on Bell Island, give crew, roll the first wind, then
    seat the players (rules.strategy_seating) and choose who moves first (rules.first_player;
    the rule's own choice is seat 0)."""
    for i in range(st.shape[0]):
        st[i] = 0
    st[G_TREASURE] = -1
    st[G_WINNER] = -1
    st[G_END] = -1
    st[G_TREASURE_TURN] = -1
    st[G_SUPPLY] = P.crew_supply
    st[G_UNUSED] = P.crew_total - P.n_seats * P.crew_per_ship - P.crew_supply
    for c in range(3):
        st[G_MAPS_LEFT + c] = P.maps_per_colour
    for c in range(N_CELLS):
        st[C_WRECK + c] = -2
        st[C_COLOUR + c] = -1
        st[C_PORT_UPG + c] = -1
    st[C_CARD + P.bell_cell] = BELL
    st[C_REVEALED + P.bell_cell] = 1
    for k in range(6):
        c = P.corner0 if k == 0 else (P.corner1 if k == 1 else (P.corner2 if k == 2 else (
            P.corner3 if k == 3 else (P.corner4 if k == 4 else P.corner5))))
        st[C_CARD + c] = PORT
        st[C_REVEALED + c] = 1
        st[C_PORT_UPG + c] = port_upg[k]
        st[C_COPIES + c] = P.upg_copies
    for i in range(N_BAY):
        perm[i] = i
    shuffle_nb(rng, perm)
    i = 0
    for c in range(N_CELLS):
        if geo[c, 7] != 1:
            continue
        t = deck[perm[i], 0]
        sides = deck[perm[i], 1]
        st[C_CARD + c] = t
        st[C_COLOUR + c] = deck[perm[i], 2]
        if t == WRECK:
            st[C_WRECK + c] = -1
        st[C_MASK + c] = draw_mask_nb(rng, sides, P.two_adjacent)
        i += 1
    for s in range(P.n_seats):
        b = sb_nb(s)
        st[b + S_POS] = P.bell_cell
        st[b + S_CREW] = P.crew_per_ship
        st[b + S_T_FIRST_MAP] = -1
        st[b + S_T_ALL_MAPS] = -1
        st[b + S_T_TREASURE] = -1
    st[C_VISITS + P.bell_cell] += P.n_seats
    refresh_all_nb(st, geo)
    roll_wind_nb(st, ev, rng, cum_w, -1)
    for s in range(P.n_seats):
        st[G_ENTRY + s] = entry_of_seat_nb(s, game_index, P.n_seats, P.rotate_seats == 1)
    st[G_SEAT] = first_seat_nb(P.first_player, 0, game_index, P.n_seats, rng)
    st[G_FIRST] = st[G_SEAT]


@njit(cache=True, _nrt=False)
def run_game_nb(st, ev, rng, P, geo, rel, cum_w, costs, strat, sp, fs):
    """Play turns from the current state until a win or the turn cap."""
    while st[G_END] < 0:
        step_nb(st, ev, rng, P, geo, rel, cum_w, costs, strat, sp, fs)


@njit(cache=True, _nrt=False, inline="always")
def step_nb(st, ev, rng, P, geo, rel, cum_w, costs, strat, sp, fs):
    """One turn of the seat to move (or truncation at the turn cap); next seat after it."""
    if st[G_END] >= 0:
        return
    if st[G_TURN] >= P.turn_cap:
        st[G_END] = END_TRUNCATED
        log_nb(st, ev, -1, EV_TRUNC, 0, 0, 0)
        return
    st[G_TURN] += 1
    play_turn_nb(st, ev, rng, P, geo, rel, cum_w, costs, strat, sp, fs)
    if st[G_END] < 0 and st[T_PEND] == 0:  # (a paused turn is replayed, not ended)
        st[G_SEAT] = (st[G_SEAT] + 1) % P.n_seats


@njit(cache=True, _nrt=False)
def write_outputs_nb(st, rng, P, out_g, out_s):
    out_g[0] = st[G_WINNER]
    out_g[1] = st[G_TURN]
    out_g[2] = st[G_END]
    out_g[3] = 1 if st[G_END] == END_TRUNCATED else 0
    out_g[4] = st[G_FIRST]
    out_g[5] = dice_rolled_nb(rng) + st[G_WIND_ROLLS]
    out_g[6] = st[G_WIND_ROLLS]
    out_g[7] = st[G_WALLED]
    out_g[8] = st[G_RAMS]
    out_g[9] = st[G_TREASURE_TURN]
    for c in range(N_CELLS):
        out_g[10 + c] = st[C_VISITS + c]
    for s in range(P.n_seats):
        b = sb_nb(s)
        o = out_s[s]
        o[0] = popcount_nb(st[b + S_MAPS])
        o[1] = 1 if st[G_TREASURE] == s else 0
        o[2] = st[b + S_HELD_TREASURE]
        o[3] = st[b + S_RAIDS_MADE]
        o[4] = st[b + S_RAIDS_WON]
        o[5] = st[b + S_RAIDS_SUFFERED]
        o[6] = st[b + S_SWASH]
        o[7] = st[b + S_CREW_ROW]
        o[8] = st[b + S_CREW_WAVES]
        o[9] = st[b + S_CREW_UPG]
        o[10] = st[b + S_CREW_SWASH]
        for u in range(6):
            o[11 + u] = (st[b + S_UPG_EVER] >> u) & 1
        o[17] = st[b + S_EXTRA_EVER]
        o[18] = st[b + S_STORMS]
        o[19] = st[b + S_ABANDONS]
        o[20] = st[b + S_T_FIRST_MAP]
        o[21] = st[b + S_T_ALL_MAPS]
        o[22] = st[b + S_T_TREASURE]
        o[23] = st[b + S_TREASURE_CHANGES]
        o[24] = st[b + S_LOST_TURNS]
        o[25] = st[b + S_MOVES]
        o[26] = st[b + S_RAMS]
        o[27] = st[b + S_CREW]
        o[28] = 1 if st[G_WINNER] == s else 0
        o[29] = st[b + S_PROGRESS]


# ------------------------------------------------------------------ the search player
@njit(cache=True, _nrt=False)
def turn_nb(st, ev, rng, P, geo, rel, cum_w, costs, strat, sp, fs):
    """step_nb as a call, not inlined: the search code's one copy of the turn (each inlined
    copy of the turn costs minutes of cold compile)."""
    step_nb(st, ev, rng, P, geo, rel, cum_w, costs, strat, sp, fs)


# A searching seat's turn is replayed from its start after each of its searched choices,
# with the choices made so far forced (T_FORCED), until it pauses at the next one (T_PEND)
# or ends; the turn's locals (position, moves, ships passed, rams tried) are thus never
# copied.  Each rollout copies the turn's start, re-deals what the seat has not seen
# (determinise_nb), replays the turn with the option searched forced, and plays every seat
# with the rollout strategy to the end (or the horizon).  Nothing here allocates per rollout.
MAX_OPTIONS = 8  # a direction choice: 6 directions + stop; a raid: no raid + 5 seats


@njit(cache=True, _nrt=False)
def determinise_nb(rs, truth, rng, P, geo, cards):
    """Re-deal, in ``rs``, the Bay cards face down in ``truth`` among those cells: the
    seat knows the multiset of face-down cards (the deck less what it has seen), not where
    each lies nor its iceberg sides.  The multiset is sorted before the shuffle, so the deal
    depends on ``rng`` and the multiset only; sides are drawn as setup_nb draws them, a
    face-down Shipwreck still has its Extra Crew.  The bitboards of card types are rebuilt;
    passage masks need nothing: a face-down card's icebergs block nothing yet."""
    n = 0
    for c in range(N_CELLS):
        if geo[c, 7] == 1 and truth[C_REVEALED + c] == 0:
            card = truth[C_CARD + c]
            sides = popcount_nb(truth[C_MASK + c]) if card == OPEN else 0
            cards[n] = (card * 8 + truth[C_COLOUR + c] + 1) * 8 + sides
            n += 1
    for i in range(1, n):  # insertion sort: at most 30 cards
        x = cards[i]
        j = i - 1
        while j >= 0 and cards[j] > x:
            cards[j + 1] = cards[j]
            j -= 1
        cards[j + 1] = x
    for i in range(n - 1, 0, -1):
        j = rand_below_nb(rng, i + 1)
        x = cards[i]
        cards[i] = cards[j]
        cards[j] = x
    i = 0
    for c in range(N_CELLS):
        if geo[c, 7] == 1 and truth[C_REVEALED + c] == 0:
            key = cards[i]
            i += 1
            card = key // 64
            sides = key % 8
            rs[C_CARD + c] = card
            rs[C_COLOUR + c] = (key // 8) % 8 - 1
            rs[C_WRECK + c] = -1 if card == WRECK else -2
            rs[C_REVEALED + c] = 0
            rs[C_WALLED + c] = 0
            rs[C_MASK + c] = draw_mask_nb(rng, sides, P.two_adjacent)
    storm = np.int64(0)
    kelly = np.int64(0)
    lost0 = np.int64(0)
    lost1 = np.int64(0)
    lost2 = np.int64(0)
    for c in range(N_CELLS):
        bit = np.int64(1) << BB_BIT[c]
        card = rs[C_CARD + c]
        if card == STORM:
            storm |= bit
        elif card == KELLY:
            kelly |= bit
        elif card == LOST_ISLAND:
            col = rs[C_COLOUR + c]
            if col == 0:
                lost0 |= bit
            elif col == 1:
                lost1 |= bit
            else:
                lost2 |= bit
    set_bb_nb(rs, BB_STORM, storm)
    set_bb_nb(rs, BB_KELLY, kelly)
    set_bb_nb(rs, BB_LOST, lost0)
    set_bb_nb(rs, BB_LOST + 2, lost1)
    set_bb_nb(rs, BB_LOST + 4, lost2)


@njit(cache=True, _nrt=False)
def reward_nb(rs, P, s, kind):
    """What a rollout ending in ``rs`` is worth to seat ``s`` (search.REWARD_*).  A game not
    over (horizon or turn cap) counts the seats level on the best progress as tied."""
    w = rs[G_WINNER]
    mine = rs[sb_nb(s) + S_PROGRESS] + (10 if w == s else 0)
    below = 0
    level = 0
    best_other = -1
    for o in range(P.n_seats):
        if o == s:
            continue
        x = rs[sb_nb(o) + S_PROGRESS] + (10 if w == o else 0)
        if x < mine:
            below += 1
        elif x == mine:
            level += 1
        if x > best_other:
            best_other = x
    if w >= 0:
        win = 1.0 if w == s else 0.0
    else:
        win = 1.0 / (level + 1) if below + level == P.n_seats - 1 else 0.0
    if kind == REWARD_WIN:
        return win
    if kind == REWARD_RANK:
        return (below + 0.5 * level) / (P.n_seats - 1)
    if kind == REWARD_MARGIN:
        return win + 0.01 * (mine - best_other) / 14.0
    return win


@njit(cache=True)
def rollout_nb(st0, truth, rng0, P, geo, rel, cum_w, costs, rstrat, rsp, s, nf, opt, decision, j,
               horizon, reward, rs, rrng, rfs, ev0, cards):
    """One rollout of option ``opt`` of the seat's choice number ``nf`` of this turn."""
    rs[:] = st0
    derive_stream_nb(rrng, rng0, decision, j)
    determinise_nb(rs, truth, rrng, P, geo, cards)
    rs[T_FORCED + nf] = opt
    rs[T_NF] = nf + 1
    rs[T_FPOS] = 0
    rs[T_FSEAT] = s
    rs[T_PAUSE] = 0
    rs[T_PEND] = 0
    rfs[FS_KEY_TURN] = -1  # this rollout's own plans (the cache is keyed on turn and version)
    turn_nb(rs, ev0, rrng, P, geo, rel, cum_w, costs, rstrat, rsp, rfs)
    rs[T_NF] = 0
    stop = rs[G_TURN] + horizon
    while rs[G_END] < 0 and (horizon == 0 or rs[G_TURN] < stop):
        turn_nb(rs, ev0, rrng, P, geo, rel, cum_w, costs, rstrat, rsp, rfs)
    return reward_nb(rs, P, s, reward)


@njit(cache=True)
def prior_nb(truth, st0, P, geo, rel, costs, strat, sp, s, opts, n, scores, pfs):
    """The rollout strategy's own preference among the options (higher is better): for a
    direction its planner's distance to its goal after the move, for a raid the raid's
    value (below not raiding when worthless); fight or not in that order."""
    kind = truth[T_PEND]
    for i in range(n):
        scores[i] = 0.0
    if kind == PEND_DIR:
        pos = truth[sb_nb(s) + S_POS]
        plan_nb(truth, P, geo, rel, costs, strat, sp, s, st0[G_TREASURE] == s, pfs)
        search_nb(pfs, BB_AROUND[pos])
        b = sb_nb(s)
        upg = truth[b + S_UPG]
        crew = truth[b + S_CREW]
        reserve = sp[truth[G_ENTRY + s], SP_CREW_RESERVE]
        wind = truth[G_WIND]
        for i in range(n):
            d = opts[i]
            if d < 0:
                scores[i] = -float(pfs[FS_DIST + pos]) - 1.0
                continue
            v = geo[pos, d]
            if v < 0 or (v == P.hg_cell and truth[G_TREASURE] == s):
                scores[i] = 1e9  # the move wins
                continue
            scores[i] = -float(edge_cost_nb(truth, rel, wind, upg, crew, reserve, d, v) + pfs[FS_DIST + v])
    elif kind == PEND_RAID:
        for i in range(n):
            o = opts[i]
            scores[i] = 0.5 if o < 0 else float(raid_value_nb(truth, P, s, o, sp[truth[G_ENTRY + s], SP_RAID_WORTHLESS] > 0))
    else:
        for i in range(n):
            scores[i] = float(n - i)


@njit(cache=True)
def search_choice_nb(truth, st0, rng0, P, geo, rel, cum_w, costs, strat, sp, rstrat, rsp, s, nf,
                     rs, rrng, rfs, pfs, ev0, cards, opts, scores, idx, sums, counts, tally):
    """The searching seat's choice at the pause in ``truth`` (its turn began in ``st0``):
    the options its rules allow, the ``top_k`` best by the rollout strategy's prior, then
    sequential halving over ``budget`` rollouts with common random numbers (rollout j of
    every option draws from the same derived stream)."""
    e = truth[G_ENTRY + s]
    kind = truth[T_PEND]
    n = 0
    if kind == PEND_DIR:
        mask = truth[T_PMASK]
        for d in range(6):
            if (mask >> d) & 1:
                opts[n] = d
                n += 1
        if truth[T_PSTOP] == 1:
            opts[n] = -1
            n += 1
    elif kind == PEND_FIGHT:
        opts[0] = 1
        opts[1] = 0
        n = 2
    else:
        opts[0] = -1
        n = 1
        cand = truth[T_PMASK]
        for o in range(P.n_seats):
            if (cand >> o) & 1:
                opts[n] = o
                n += 1
    if n == 1:
        return opts[0]
    prior_nb(truth, st0, P, geo, rel, costs, strat, sp, s, opts, n, scores, pfs)
    m = top_k_nb(scores, n, np.int64(sp[e, SP_TOP_K]), idx)
    if m == 1:
        return opts[idx[0]]
    horizon = np.int64(sp[e, SP_HORIZON])
    reward = np.int64(sp[e, SP_REWARD])
    decision = np.int64(st0[G_TURN]) * MAX_FORCED + nf
    for i in range(n):
        sums[i] = 0.0
        counts[i] = 0.0
    mix = sp[e, SP_OPPONENTS] == OPP_MIX
    ns = P.n_seats
    h = np.empty(H_SIZE, np.int64)  # the search loop (pirate_sim.search: halving_*)
    halving_start_nb(h, m, np.int64(sp[e, SP_BUDGET]))
    while halving_next_nb(h, idx, sums, counts):
        o = h[H_OPT]
        if mix:  # this rollout's model of the other seats (the same for every option: its index)
            row = ns + OPP_POOL[h[H_INDEX] % OPP_POOL.shape[0]]
            for i in range(ns):
                if i != s:
                    rstrat[i] = strat[row]
                    rsp[i, :] = sp[row, :]
        sums[o] += rollout_nb(st0, truth, rng0, P, geo, rel, cum_w, costs, rstrat, rsp, s, nf, opts[o],
                              decision, h[H_INDEX], horizon, reward, rs, rrng, rfs, ev0, cards)
        counts[o] += 1.0
        tally[0] += 1
    tally[1] += 1
    return opts[halving_best_nb(h, idx, sums, counts)]


@njit(cache=True)
def search_game_nb(st, ev, rng, P, geo, rel, cum_w, costs, strat, sp, fs, tally, max_decisions,
                   pts, pts_rng):
    """Play the game on from ``st`` with searching seats (their sp SP_SEARCH > 0).  A
    searching seat's turn is replayed from its start after each searched choice (see
    above), so the game's own stream draws exactly what a turn of forced choices draws,
    and the search never advances it.  ``tally``: [rollouts, searched choices]; with
    ``max_decisions`` > 0 (search_bench) it stops after that many, storing each choice's
    turn start in ``pts`` / ``pts_rng``."""
    n = P.n_seats
    st0 = np.empty_like(st)
    truth = np.empty_like(st)
    rs = np.empty_like(st)
    rng0 = np.empty_like(rng)
    rrng = np.zeros(RNG_WORDS, np.uint64)
    rfs = np.zeros(FS_SIZE, np.int64)
    pfs = np.zeros(FS_SIZE, np.int64)
    ev0 = np.zeros((0, 6), np.int32)
    cards = np.zeros(N_BAY, np.int64)
    opts = np.zeros(MAX_OPTIONS, np.int64)
    idx = np.zeros(MAX_OPTIONS, np.int64)
    scores = np.zeros(MAX_OPTIONS, np.float64)
    sums = np.zeros(MAX_OPTIONS, np.float64)
    counts = np.zeros(MAX_OPTIONS, np.float64)
    rstrat = np.zeros(n, np.int32)
    rsp = np.zeros((n, sp.shape[1]), np.float64)
    while st[G_END] < 0:
        s = st[G_SEAT]
        e = st[G_ENTRY + s]
        if sp[e, SP_SEARCH] == 0 or st[G_TURN] >= P.turn_cap:
            turn_nb(st, ev, rng, P, geo, rel, cum_w, costs, strat, sp, fs)
            continue
        rc = np.int64(sp[e, SP_ROLLOUT])
        for i in range(n):  # inside rollouts every seat plays the rollout strategy's defaults
            rstrat[i] = strat[n + rc]
            rsp[i, :] = sp[n + rc, :]
        st0[:] = st
        rng0[:] = rng
        nf = 0
        while True:
            st[:] = st0
            rng[:] = rng0
            st[T_FSEAT] = s
            st[T_NF] = nf
            st[T_FPOS] = 0
            st[T_PAUSE] = 1 if nf < MAX_FORCED - 1 else 0  # (never reached: a turn has fewer choices)
            st[T_PEND] = 0
            fs[FS_KEY_TURN] = -1
            turn_nb(st, ev, rng, P, geo, rel, cum_w, costs, strat, sp, fs)
            if st[T_PEND] == 0:
                break
            truth[:] = st
            if max_decisions > 0:
                k = tally[1]
                if k >= max_decisions:
                    return
                pts[k, :] = st0
                pts_rng[k, :RNG_WORDS] = rng0[:RNG_WORDS]
            opt = search_choice_nb(truth, st0, rng0, P, geo, rel, cum_w, costs, strat, sp, rstrat, rsp, s, nf,
                                   rs, rrng, rfs, pfs, ev0, cards, opts, scores, idx, sums, counts, tally)
            st0[T_FORCED + nf] = opt
            nf += 1
        st[T_NF] = 0
        st[T_FPOS] = 0
        st[T_PAUSE] = 0


@njit(cache=True)
def playouts_nb(pts, pts_rng, n_pts, reps, P, geo, rel, cum_w, costs, strat, sp, rollout_code):
    """Plain games of the rollout strategy from the stored turn starts (search_bench's
    like-for-like cost of a rollout without the search machinery); returns turns played."""
    n = P.n_seats
    rs = np.empty(pts.shape[1], np.int32)
    rrng = np.zeros(RNG_WORDS, np.uint64)
    rfs = np.zeros(FS_SIZE, np.int64)
    ev0 = np.zeros((0, 6), np.int32)
    rstrat = np.zeros(n, np.int32)
    rsp = np.zeros((n, sp.shape[1]), np.float64)
    for i in range(n):
        rstrat[i] = strat[n + rollout_code]
        rsp[i, :] = sp[n + rollout_code, :]
    turns = 0
    for k in range(n_pts):
        for j in range(reps):
            rs[:] = pts[k]
            derive_stream_nb(rrng, pts_rng[k], 1, j)
            rs[T_NF] = 0
            rs[T_PAUSE] = 0
            rfs[FS_KEY_TURN] = -1
            t0 = rs[G_TURN]
            while rs[G_END] < 0:
                turn_nb(rs, ev0, rrng, P, geo, rel, cum_w, costs, rstrat, rsp, rfs)
            turns += rs[G_TURN] - t0
    return turns


@njit(cache=True)
def search_bench_nb(seed, first, max_decisions, P, geo, rel, cum_w, costs, deck, port_upg, strat, sp, pts, pts_rng,
                    tally):
    """Search games from ``first`` on until ``max_decisions`` searched choices were made."""
    st = np.zeros(STATE_WORDS, np.int32)
    ev = np.zeros((0, 6), np.int32)
    rng = np.zeros(RNG_WORDS, np.uint64)
    fs = np.zeros(FS_SIZE, np.int64)
    perm = np.zeros(N_BAY, np.int64)
    k = first
    while tally[1] < max_decisions:
        seed_game_nb(rng, seed, k)
        setup_nb(st, ev, rng, P, geo, cum_w, deck, port_upg, perm, k)
        fs[FS_KEY_TURN] = -1
        search_game_nb(st, ev, rng, P, geo, rel, cum_w, costs, strat, sp, fs, tally, max_decisions, pts, pts_rng)
        k += 1
    return k - first


@njit(cache=True, _nrt=False)
def play_one_game_nb(st, ev, rng, P, geo, rel, cum_w, costs, deck, port_upg, strat, sp, fs, perm,
                     out_g, out_s, game_index):
    """One whole game on an already seeded ``rng`` (bulk runs and traces share it)."""
    setup_nb(st, ev, rng, P, geo, cum_w, deck, port_upg, perm, game_index)
    fs[FS_KEY_TURN] = -1  # no plan of an earlier game is reused
    run_game_nb(st, ev, rng, P, geo, rel, cum_w, costs, strat, sp, fs)
    write_outputs_nb(st, rng, P, out_g, out_s)


@njit(cache=True)
def search_one_game_nb(st, ev, rng, P, geo, rel, cum_w, costs, deck, port_upg, strat, sp, fs, perm,
                       out_g, out_s, game_index):
    """play_one_game_nb with searching seats (a kernel of its own, so that runs without a
    search player compile none of it)."""
    setup_nb(st, ev, rng, P, geo, cum_w, deck, port_upg, perm, game_index)
    fs[FS_KEY_TURN] = -1
    tally = np.zeros(2, np.int64)
    search_game_nb(st, ev, rng, P, geo, rel, cum_w, costs, strat, sp, fs, tally, 0,
                   np.zeros((0, 0), np.int32), np.zeros((0, 0), np.uint64))
    write_outputs_nb(st, rng, P, out_g, out_s)


@njit(cache=True, parallel=True, nogil=True)
def search_chunk_nb(seed, first, n, P, geo, rel, cum_w, costs, deck, port_upg, strat, sp, out_g, out_s):
    """play_chunk_nb for scenarios with a search seat: one game per parallel item (a search
    game is long: blocks of 64 would leave threads idle at a chunk's end)."""
    for i in prange(n):
        st = np.zeros(STATE_WORDS, np.int32)
        ev = np.zeros((0, 6), np.int32)
        rng = np.zeros(RNG_WORDS, np.uint64)
        fs = np.zeros(FS_SIZE, np.int64)
        perm = np.zeros(N_BAY, np.int64)
        seed_game_nb(rng, seed, first + i)
        search_one_game_nb(st, ev, rng, P, geo, rel, cum_w, costs, deck, port_upg, strat, sp, fs,
                           perm, out_g[i], out_s[i], first + i)


@njit(cache=True)
def search_traced_nb(seed, k, P, geo, rel, cum_w, costs, deck, port_upg, strat, sp, ev, out_g, out_s):
    """play_traced_nb for scenarios with a search seat (the event log shows each turn once:
    a replayed turn rewinds the log with the state)."""
    st = np.zeros(STATE_WORDS, np.int32)
    rng = np.zeros(RNG_WORDS, np.uint64)
    fs = np.zeros(FS_SIZE, np.int64)
    perm = np.zeros(N_BAY, np.int64)
    seed_game_nb(rng, seed, k)
    search_one_game_nb(st, ev, rng, P, geo, rel, cum_w, costs, deck, port_upg, strat, sp, fs, perm,
                       out_g, out_s, k)
    return st[G_EVENTS]


@njit(cache=True, parallel=True, nogil=True)
def play_chunk_nb(seed, first, n, P, geo, rel, cum_w, costs, deck, port_upg, strat, sp, out_g, out_s):
    """Games ``first .. first + n - 1``: blocks of BLOCK games in parallel, scratch per block."""
    n_blocks = (n + BLOCK - 1) // BLOCK
    for blk in prange(n_blocks):
        st = np.zeros(STATE_WORDS, np.int32)
        ev = np.zeros((0, 6), np.int32)
        rng = np.zeros(RNG_WORDS, np.uint64)
        fs = np.zeros(FS_SIZE, np.int64)
        perm = np.zeros(N_BAY, np.int64)
        hi = min(n, (blk + 1) * BLOCK)
        for i in range(blk * BLOCK, hi):
            seed_game_nb(rng, seed, first + i)
            play_one_game_nb(st, ev, rng, P, geo, rel, cum_w, costs, deck, port_upg, strat, sp, fs,
                             perm, out_g[i], out_s[i], first + i)


@njit(cache=True)
def play_traced_nb(seed, k, P, geo, rel, cum_w, costs, deck, port_upg, strat, sp, ev, out_g, out_s):
    """Game ``k`` with the event log on (same code path as the bulk run)."""
    st = np.zeros(STATE_WORDS, np.int32)
    rng = np.zeros(RNG_WORDS, np.uint64)
    fs = np.zeros(FS_SIZE, np.int64)
    perm = np.zeros(N_BAY, np.int64)
    seed_game_nb(rng, seed, k)
    play_one_game_nb(st, ev, rng, P, geo, rel, cum_w, costs, deck, port_upg, strat, sp, fs, perm,
                     out_g, out_s, k)
    return st[G_EVENTS]
