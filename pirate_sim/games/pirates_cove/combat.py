"""Pirate's Cove kernel, part 2: combat (speed order, volleys, crippling, flight, the whole
fight) and the odds' Monte Carlo on the kernel's own combat (``odds.py``).

Conventions: ``actions.py``'s docstring.  May import: ``actions``, ``rules``, ``ship``,
``policies`` of this game and ``pirate_sim.rng``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...rng import RNG_WORDS, roll_die_nb, seed_game_nb
from .actions import (WK_SIZE, forced_nb, gain_fame_nb, has_forced_nb, log_nb, lose_parrots_nb, overboard_nb, pend_nb,
                      play_card_nb, searches_nb)
from .policies import choose_target_nb, decide_flee_nb, play_battle_nb, play_fog_nb, play_volley_nb
from .rules import (BATTLE, B_CRIPPLED, B_FAME, B_LEGEND, COVE, DEC_FLEE, EVENT, EV_CRIPPLE, EV_FIGHT, EV_FLEE,
                    EV_ORDER, EV_VOLLEY, F_ACTIVE, F_BONUS, F_N, F_POS, F_TB, F_TURNS, F_UNITS, F_VOL, G_BLACK_SUNK,
                    G_FIGHT, G_FIGHTS, G_STALEMATES, G_SUPPLY_CHESTS, G_SUPPLY_GOLD, G_VOLLEYS, HULL, MAX_LEVEL,
                    MAX_SEATS, N_SECTIONS, STATE_WORDS, S_CHESTS, S_CRIPPLED, S_CRIPPLES, S_ENTRY, S_FAME, S_FIGHTS,
                    S_FLIGHTS, S_F_BLACK, S_F_COMBAT, S_F_MUTINY, S_GOLD, S_HITS, S_LEGEND_FIGHTS, S_LEGEND_WINS,
                    S_LOST_CHESTS, S_LOST_GOLD, S_MUTINIES, S_NAVY_FIGHTS, S_NAVY_LOSSES, S_NAVY_WINS, S_SEC,
                    S_VOLLEYS, S_WHERE, VOLLEY)
from .ship import base_dice_nb, bb_nb, level_nb, sb_nb, set_level_nb, speed_nb

CRIPPLED_KEEPS, CRIPPLED_LOSES_CHESTS, CRIPPLED_LOSES_ALL = 0, 1, 2
FIGHT_PENDING = -2  # fight_run_nb: a search seat's attack-or-flee decision is pending


# ------------------------------------------------------------------ combat
@njit(cache=True)
def fight_setup_nb(st, ev, rng, P, island, units, n):
    """Order the ``n`` units by speed (Sails; ties by a die roll, rolled again while tied)."""
    base = G_FIGHT
    st[base + F_N] = n
    for j in range(n):
        st[base + F_UNITS + j] = units[j]
        st[base + F_ACTIVE + j] = 1
        st[base + F_TURNS + j] = 0
        st[base + F_BONUS + j] = 0
        st[base + F_TB + j] = 0
    # Tie-break rolls compare like words, roll by roll: every ship's key takes a digit each
    # round of rolls (the roll if it was still tied, 0 if not), so a ship that won outright
    # on an earlier roll stays ahead of the re-rollers it beat; keys are then replaced by
    # their rank among the ships of equal speed, so they never grow past 8 * 7.
    for _ in range(50):  # a guard: ties outlast 50 rolls with probability 6**-50
        tied = 0
        for j in range(n):
            for i in range(n):
                if i != j and speed_nb(st, P, units[i]) == speed_nb(st, P, units[j]) \
                        and st[base + F_TB + i] == st[base + F_TB + j]:
                    tied |= 1 << j
        if tied == 0:
            break
        for j in range(n):
            st[base + F_TB + j] = st[base + F_TB + j] * 7 + (roll_die_nb(rng, 6) if (tied >> j) & 1 else 0)
        for j in range(n):  # dense rank among equal speeds (uses F_BONUS, zero here, as scratch)
            r = 0
            for i in range(n):
                if speed_nb(st, P, units[i]) == speed_nb(st, P, units[j]) \
                        and st[base + F_TB + i] < st[base + F_TB + j]:
                    distinct = True
                    for m in range(i):
                        if speed_nb(st, P, units[m]) == speed_nb(st, P, units[j]) \
                                and st[base + F_TB + m] == st[base + F_TB + i]:
                            distinct = False
                            break
                    if distinct:
                        r += 1
            st[base + F_BONUS + j] = r
        for j in range(n):
            st[base + F_TB + j] = st[base + F_BONUS + j]
            st[base + F_BONUS + j] = 0
    # insertion sort by (speed, tie-break) descending
    for j in range(1, n):
        u = st[base + F_UNITS + j]
        tb = st[base + F_TB + j]
        i = j - 1
        while i >= 0:
            v = st[base + F_UNITS + i]
            sv, su = speed_nb(st, P, v), speed_nb(st, P, u)
            if sv > su or (sv == su and st[base + F_TB + i] >= tb):
                break
            st[base + F_UNITS + i + 1] = v
            st[base + F_TB + i + 1] = st[base + F_TB + i]
            i -= 1
        st[base + F_UNITS + i + 1] = u
        st[base + F_TB + i + 1] = tb
    code = 0
    for j in range(n):
        code = code * 16 + st[base + F_UNITS + j]
    log_nb(st, ev, -1, EV_ORDER, island, n, code)


@njit(cache=True)
def others_gain_nb(st, P, loser):
    """Every other player ship still in the fight gains fame for a ship that fled or sank."""
    base = G_FIGHT
    for j in range(st[base + F_N]):
        v = st[base + F_UNITS + j]
        if v != loser and v < MAX_SEATS and st[base + F_ACTIVE + j] == 1:
            gain_fame_nb(st, v, P.fame_per_loser, S_F_COMBAT)


@njit(cache=True)
def has_navy_nb(st):
    """Is the Royal Navy in the current fight?"""
    base = G_FIGHT
    for j in range(st[base + F_N]):
        u = st[base + F_UNITS + j]
        if u >= MAX_SEATS and st[bb_nb(u - MAX_SEATS) + B_LEGEND] < 0:
            return True
    return False


@njit(cache=True)
def to_cove_nb(st, ev, P, s):
    st[sb_nb(s) + S_WHERE] = COVE
    lose_parrots_nb(st, ev, P, s)


@njit(cache=True)
def cripple_nb(st, ev, P, t, by, final):
    """Unit ``t`` is crippled by unit ``by``."""
    base = G_FIGHT
    for j in range(st[base + F_N]):
        if st[base + F_UNITS + j] == t:
            st[base + F_ACTIVE + j] = 0
    log_nb(st, ev, t if t < MAX_SEATS else -1, EV_CRIPPLE, t, by, 0)
    if final:
        return
    if t >= MAX_SEATS:
        bb = bb_nb(t - MAX_SEATS)
        st[bb + B_CRIPPLED] = 1
        st[G_BLACK_SUNK] += 1
        if by < MAX_SEATS:
            gain_fame_nb(st, by, st[bb + B_FAME], S_F_BLACK)
            if st[bb + B_LEGEND] < 0:
                st[sb_nb(by) + S_NAVY_WINS] += 1
            else:
                st[sb_nb(by) + S_LEGEND_WINS] += 1
            st[sb_nb(by) + S_CRIPPLES] += 1
        return
    b = sb_nb(t)
    st[b + S_CRIPPLED] += 1
    if by < MAX_SEATS:
        st[sb_nb(by) + S_CRIPPLES] += 1
    if has_navy_nb(st):
        st[b + S_NAVY_LOSSES] += 1
    others_gain_nb(st, P, t)
    if P.crippled_loses >= CRIPPLED_LOSES_CHESTS:
        st[G_SUPPLY_CHESTS] += st[b + S_CHESTS]
        st[b + S_LOST_CHESTS] += st[b + S_CHESTS]
        st[b + S_CHESTS] = 0
    if P.crippled_loses == CRIPPLED_LOSES_ALL:
        st[G_SUPPLY_GOLD] += st[b + S_GOLD]
        st[b + S_LOST_GOLD] += st[b + S_GOLD]
        st[b + S_GOLD] = 0
    to_cove_nb(st, ev, P, t)


@njit(cache=True)
def flee_nb(st, ev, rng, P, s, j):
    """Seat ``s`` (fight position ``j``) flees to Pirate's Cove; a die roll of
    ``mutiny_max`` or less is a mutiny: gold and chests aboard and 2 fame are lost."""
    base = G_FIGHT
    st[base + F_ACTIVE + j] = 0
    b = sb_nb(s)
    st[b + S_FLIGHTS] += 1
    if has_navy_nb(st):
        st[b + S_NAVY_LOSSES] += 1
    r = roll_die_nb(rng, 6)
    mutiny = r <= P.mutiny_max
    if mutiny:
        st[b + S_MUTINIES] += 1
        st[G_SUPPLY_GOLD] += st[b + S_GOLD]
        st[b + S_LOST_GOLD] += st[b + S_GOLD]
        st[b + S_GOLD] = 0
        st[G_SUPPLY_CHESTS] += st[b + S_CHESTS]
        st[b + S_LOST_CHESTS] += st[b + S_CHESTS]
        st[b + S_CHESTS] = 0
        lost = min(P.mutiny_fame, st[b + S_FAME])  # the fame track stops at 0
        st[b + S_FAME] -= lost
        st[b + S_F_MUTINY] += lost
    log_nb(st, ev, s, EV_FLEE, r, 1 if mutiny else 0, 0)
    others_gain_nb(st, P, s)
    to_cove_nb(st, ev, P, s)


@njit(cache=True)
def volley_nb(st, ev, rng, P, strat, sp, j, final):
    """The unit at fight position ``j`` fires one volley."""
    base = G_FIGHT
    u = st[base + F_UNITS + j]
    t, k = choose_target_nb(st, rng, P, strat, sp, u)
    dice = base_dice_nb(st, P, u) + st[base + F_BONUS + j]
    lvl = level_nb(st, t, k)
    if u < MAX_SEATS and not final and play_volley_nb(st, rng, P, strat, sp, u, dice, lvl):
        play_card_nb(st, ev, u, VOLLEY, t)
        dice += P.volley_dice
    hits = 0
    for _ in range(dice):
        if roll_die_nb(rng, 6) >= P.hit_min:
            hits += 1
    st[G_VOLLEYS] += 1
    if u < MAX_SEATS:
        st[sb_nb(u) + S_VOLLEYS] += 1
        st[sb_nb(u) + S_HITS] += hits
    fog = 0
    if t < MAX_SEATS and not final and hits >= lvl and play_fog_nb(st, rng, P, strat, sp, t):
        fog = 1
    log_nb(st, ev, u if u < MAX_SEATS else -1, EV_VOLLEY, t * 16 + k, dice * 16 + hits, u * 2 + fog)
    if fog:
        play_card_nb(st, ev, t, EVENT, u)
        hits = 0
    if hits == 0:
        return
    new = lvl - hits
    set_level_nb(st, t, k, new if new > 0 else 0)
    if t < MAX_SEATS and k == HULL and new > 0:
        overboard_nb(st, ev, P, t)
    if new <= 0:
        cripple_nb(st, ev, P, t, u, final)


@njit(cache=True)
def fight_start_nb(st, ev, rng, P, strat, sp, island, units, n, final):
    """Set up a combat among ``n`` units: speed order, counters, Battle cards."""
    base = G_FIGHT
    fight_setup_nb(st, ev, rng, P, island, units, n)
    st[base + F_POS] = 0
    st[base + F_VOL] = 0
    if not final:
        st[G_FIGHTS] += 1
        navy = has_navy_nb(st)
        legend = False
        for j in range(n):
            u = st[base + F_UNITS + j]
            if u >= MAX_SEATS and st[bb_nb(u - MAX_SEATS) + B_LEGEND] >= 0:
                legend = True
        for j in range(n):
            u = st[base + F_UNITS + j]
            if u < MAX_SEATS:
                b = sb_nb(u)
                st[b + S_FIGHTS] += 1
                if navy:
                    st[b + S_NAVY_FIGHTS] += 1
                if legend:
                    st[b + S_LEGEND_FIGHTS] += 1
        for j in range(n):  # Battle cards, in speed order
            u = st[base + F_UNITS + j]
            if u < MAX_SEATS and play_battle_nb(st, rng, P, strat, sp, u):
                play_card_nb(st, ev, u, BATTLE, island)
                st[base + F_BONUS + j] += P.battle_dice
    log_nb(st, ev, -1, EV_FIGHT, island, n, 1 if final else 0)


@njit(cache=True)
def fight_run_nb(st, ev, rng, P, strat, sp, final):
    """Play the combat on from its position (F_POS, F_VOL); returns the last unit
    standing, -1 if stopped at ``max_volleys``, FIGHT_PENDING when a search seat's
    attack-or-flee decision is pending (the position is kept)."""
    base = G_FIGHT
    n = st[base + F_N]
    j = st[base + F_POS]
    volleys = st[base + F_VOL]
    active = 0
    for i in range(n):
        active += st[base + F_ACTIVE + i]
    while active > 1:
        if volleys >= P.max_volleys:
            st[G_STALEMATES] += 1
            return -1
        if st[base + F_ACTIVE + j] == 1:
            u = st[base + F_UNITS + j]
            turns = st[base + F_TURNS + j] + 1
            flee = False
            if u < MAX_SEATS and volleys > 0 and not final:
                if has_forced_nb(st, DEC_FLEE, u):
                    st[base + F_TURNS + j] = turns
                    flee = forced_nb(st) == 1
                elif searches_nb(st, sp, u):
                    st[base + F_POS] = j
                    st[base + F_VOL] = volleys
                    pend_nb(st, DEC_FLEE, u)
                    return FIGHT_PENDING
                else:
                    st[base + F_TURNS + j] = turns
                    flee = decide_flee_nb(st, rng, P, strat, sp, u, turns)
            else:
                st[base + F_TURNS + j] = turns
            if flee:
                flee_nb(st, ev, rng, P, u, j)
            else:
                volley_nb(st, ev, rng, P, strat, sp, j, final)
                volleys += 1
            active = 0
            for i in range(n):
                active += st[base + F_ACTIVE + i]
        j = (j + 1) % n
    st[base + F_POS] = j
    st[base + F_VOL] = volleys
    for i in range(n):
        if st[base + F_ACTIVE + i] == 1:
            return st[base + F_UNITS + i]
    return -1


@njit(cache=True)
def fight_nb(st, ev, rng, P, strat, sp, island, units, n, final):
    """A whole combat among ``n`` units with no search seat in it (the final combat, odds);
    returns the last unit standing, -1 if stopped at ``max_volleys``.  ``final``: the
    end-of-game tie-break (no fleeing, no cards, no fame, nothing lost), 1 or 0: callers pass
    an int, never ``True``/``False`` (a bool literal is a type of its own, and the combat's
    five functions were compiled twice, about 8 s of a cold compile)."""
    fight_start_nb(st, ev, rng, P, strat, sp, island, units, n, final)
    return fight_run_nb(st, ev, rng, P, strat, sp, final)


# ------------------------------------------------------------------ odds: the kernel's own combat
@njit(cache=True)
def volley_hits_mc_nb(seed, samples, dice, hit_min, counts):
    """counts[h] += volleys of ``dice`` dice with ``h`` hits (the kernel's roll loop)."""
    rng = np.zeros(RNG_WORDS, np.uint64)
    seed_game_nb(rng, seed, 0)
    for _ in range(samples):
        hits = 0
        for _ in range(dice):
            if roll_die_nb(rng, 6) >= hit_min:
                hits += 1
        counts[hits] += 1


@njit(cache=True)
def bombard_mc_nb(seed, samples, P, strat, sp, dice, level, counts):
    """Volleys of ``dice`` dice (the kernel's ``volley_nb``, planned shooter) at a ship whose
    weakest section has ``level``: counts[v] += samples crippled at volley v (1..), counts[0]
    += samples still afloat after len(counts) - 1 volleys."""
    st = np.zeros(STATE_WORDS, np.int32)
    ev = np.zeros((0, 6), np.int32)
    rng = np.zeros(RNG_WORDS, np.uint64)
    seed_game_nb(rng, seed, 0)
    max_v = counts.shape[0] - 1
    base = G_FIGHT
    for _ in range(samples):
        for k in range(N_SECTIONS):
            st[sb_nb(0) + S_SEC + k] = dice
            st[sb_nb(1) + S_SEC + k] = MAX_LEVEL
        st[sb_nb(1) + S_SEC + HULL] = level
        st[sb_nb(0) + S_ENTRY] = 0
        st[sb_nb(1) + S_ENTRY] = 1
        st[base + F_N] = 2
        st[base + F_UNITS] = 0
        st[base + F_UNITS + 1] = 1
        st[base + F_ACTIVE] = 1
        st[base + F_ACTIVE + 1] = 1
        st[base + F_BONUS] = 0
        done = 0
        for v in range(1, max_v + 1):
            volley_nb(st, ev, rng, P, strat, sp, 0, 1)
            if st[base + F_ACTIVE + 1] == 0:
                done = v
                break
        counts[done] += 1


@njit(cache=True)
def duel_mc_nb(seed, samples, P, strat, sp, a_sec, b_sec, out):
    """Fights of seat 0 (sections ``a_sec``) against seat 1 (``b_sec``) with the kernel's
    own ``fight_nb`` (planned shooters, nobody flees, no cards): out[0] += seat 0 wins,
    out[1] += volleys fired."""
    st = np.zeros(STATE_WORDS, np.int32)
    ev = np.zeros((0, 6), np.int32)
    rng = np.zeros(RNG_WORDS, np.uint64)
    wk = np.zeros(WK_SIZE, np.int64)
    seed_game_nb(rng, seed, 0)
    for _ in range(samples):
        for k in range(N_SECTIONS):
            st[sb_nb(0) + S_SEC + k] = a_sec[k]
            st[sb_nb(1) + S_SEC + k] = b_sec[k]
        st[sb_nb(0) + S_ENTRY] = 0
        st[sb_nb(1) + S_ENTRY] = 1
        wk[0] = 0
        wk[1] = 1
        v0 = st[G_VOLLEYS]
        w = fight_nb(st, ev, rng, P, strat, sp, 2, wk, 2, 1)
        out[0] += 1 if w == 0 else 0
        out[1] += st[G_VOLLEYS] - v0
