"""Ice Pirates kernel, part 4 of 7: the rules of the turn: raids (and their Monte Carlo for
``pirate-sim odds``), collecting what a space offers, abandoning ship and re-entering, and
``play_turn_nb``, one seat's whole turn.

Imports ``state``, ``board`` and ``policies``; see ``state.py`` for the order of the kernel's modules.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...rng import RNG_WORDS, rand_float_nb, roll_die_nb, seed_game_nb
from .rules import (BELL, CANNON, C_CARD, C_COLOUR, C_COPIES, C_PORT_UPG, C_REVEALED, C_VISITS, C_WRECK,
                    END_HARBOUR_GRACE, END_OPEN_WATER, EV_ABANDON, EV_BELL, EV_FIGHT, EV_MAP, EV_MOVE, EV_NO_MOVE,
                    EV_RAID, EV_RAM, EV_REENTER, EV_STOP, EV_STORM, EV_TELESCOPE, EV_TREASURE, EV_TURN, EV_UPGRADE,
                    EV_VOID, EV_WIN, EV_WRECK, GRAPPLING_HOOK, G_BELL_POOL, G_END, G_ENTRY, G_MAPS_LEFT, G_RAMS, G_SEAT,
                    G_SUPPLY, G_TREASURE, G_TREASURE_TURN, G_TURN, G_UNUSED, G_VERSION, G_WIND, G_WINNER, ICE_BREAKER,
                    INTO, KELLY, LOST_ISLAND, N_CELLS, PEND_DIR, PEND_FIGHT, PEND_RAID, PORT, STATE_WORDS, STORM,
                    S_ABANDONED, S_ABANDONS, S_CREW, S_CREW_ROW, S_CREW_SWASH, S_CREW_UPG, S_CREW_WAVES, S_EXTRA,
                    S_EXTRA_EVER, S_HELD_TREASURE, S_IDLE, S_LOST_TURNS, S_MAPS, S_MOVES, S_POS, S_PROGRESS,
                    S_RAIDS_MADE, S_RAIDS_SUFFERED, S_RAIDS_WON, S_RAMS, S_STALL, S_STORMS, S_STUCK, S_SWASH,
                    S_TREASURE_CHANGES, S_T_ALL_MAPS, S_T_FIRST_MAP, S_T_TREASURE, S_UPG, S_UPG_EVER, TELESCOPE, T_PEND,
                    T_PMASK, T_PSTOP, WRECK)
from .state import (NOT_FORCED, PAUSED, ST_RANDOM, ST_SCRIPTED, cont_after_nb, has_upg_nb, log_nb, occupants_nb,
                    popcount_nb, roll_wind_nb, sb_nb, side_blocked_nb)
from .board import flip_nb, legal_mask_nb, onward_mask_nb
from .policies import (choose_dir_nb, choose_raid_nb, decide_abandon_nb, decide_fight_nb, decide_telescope_nb,
                       decide_upgrade_nb, forced_nb, swash_params_nb)


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
        if f == PAUSED:  # the seat is asked (protocol.py replays the turn with its answer)
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
