"""Ice Pirates kernel, part 3 of 7: the scripted players' choices: upgrade, abandon ship,
Telescope, heading (the shared planner: ``plan_nb`` sets up a bucket-queue Dijkstra over
bitboards, ``search_nb`` runs it as far as needed), fighting the waves, whom to raid and
swashbuckling; and ``forced_nb``, the choice a search or a strategy file forces.

Imports ``state`` only (of the kernel's modules); see ``state.py`` for their order.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from ...rng import rand_below_nb, rand_float_nb
from .rules import (BB_KELLY, BB_LOST, BB_PASS, BB_PASS_IB, BB_REVEALED, BB_STORM, CANNON, C_CARD, C_COPIES, C_PASS,
                    C_PASS_IB, C_PORT_UPG, C_REVEALED, G_BELL_POOL, G_DIR_SCR, G_DIR_SCR_LEN, G_DIR_SCR_POS, G_ENTRY,
                    G_MAPS_LEFT, G_SCR_FIGHT, G_SCR_RAID, G_SCR_SWASH, G_SCR_TELESCOPE, G_SCR_UPGRADE, G_TREASURE,
                    G_TURN, G_VERSION, G_WIND, ICE_BREAKER, INTO, JIB, N_CELLS, PORT, STORM, S_CREW, S_IDLE, S_MAPS,
                    S_POS, S_STALL, S_STUCK, S_UPG, TACK, T_FORCED, T_FPOS, T_FSEAT, T_NF, T_PAUSE, WITH)
from .state import (BB_ALL, BB_AROUND, BB_BIT, BB_CELL, FS_AT, FS_BUCKET, FS_CLASS, FS_CLASS_SUR, FS_DCOST, FS_DIST,
                    FS_KEY_TARGET, FS_KEY_TURN, FS_KEY_VERSION, FS_OCC, FS_PASS, FS_SETTLED, INF, NOT_FORCED, N_BUCKETS,
                    PAUSED, SP_ABANDON_AFTER, SP_ABANDON_IDLE, SP_ABANDON_PROB, SP_ABANDON_STALLED, SP_AGGRESSION,
                    SP_CANNON_FIRST, SP_CHASE, SP_CREW_RESERVE, SP_DECIDE_PROB, SP_MAX_UPGRADE_COST, SP_PATIENCE,
                    SP_RAID_WORTHLESS, SP_SEARCH, SP_SWASH_RESERVE, SP_UPGRADES_WANTED, ST_EXPERT, ST_RAIDER, ST_RANDOM,
                    ST_SCRIPTED, ST_UPGRADER, _FS, _I, bb_from_nb, bb_nb, ctz_nb, has_upg_nb, popcount_nb, sb_nb)


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
