"""Pirate's Peak kernels: every mechanic, one turn, one game and the parallel chunk.

All state lives in small int32 arrays (layouts in rules.py) that a block of games
allocates once and reuses; a game is a pure function of its rng stream.  Every
function here is ``@njit(cache=True)`` and also runs as plain Python
(NUMBA_DISABLE_JIT=1) with identical results.

Common arguments: ``R`` rules NamedTuple, ``cards`` int8[n_cards+1, MAX_CARD_SPACES]
(row n_journey is the Peak card), ``card_len`` int32, ``strat`` int32[2] strategy codes,
``sp`` float64[2, N_SP] policy rows, ``rng`` uint64 stream, ``st`` int32[N_ST],
``ship`` int32[2, N_SHIP], ``cnt`` int32[2, N_SEAT_COLS] (the seat output rows),
``track`` int32[2, max_track] (row 0 space code, row 1 card number: 0 dock, then flip
order), ``deck`` int32[n_cards+1] (flip order), ``ev`` int32[cap, 6] event log.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ...rng import RNG_WORDS, dice_rolled_nb, rand_below_nb, roll_die_nb, seed_game_nb, shuffle_nb
from .board import dock_progress_nb, phys_nb
from .rules import (
    ACT_FIRE, ACT_SEARCH, C_BALLS, C_BALLS_BOUGHT, C_CASTAWAYS, C_CREW, C_CREW_BOUGHT,
    C_DOCKED_FIRST, C_FIGHT_GOLD, C_FINAL_GOLD, C_FOG_ESC, C_FOG_TURNS, C_GHOST_FIGHTS,
    C_GHOST_SUMMONS, C_GUSTS, C_HITS, C_INTERRUPTED, C_INTERRUPTS, C_ISLAND_STOPS, C_LIFE,
    C_LIFE_LOST, C_MERMAID, C_OVERSHOOTS, C_PEAK_ORDER, C_SEA_BANK_LOSS, C_SEARCH_GOLD,
    C_SEARCHES, C_SHIP_FIGHTS, C_SHORTCUTS, C_SHOTS, C_SKIPPED, C_SQUID_ATT, C_SQUID_ENC,
    C_SQUID_ESC, C_SQUID_INSTANT, C_SQUID_LIFE, C_SQUID_SAC, C_TREASURE, C_WHIRL_ATT,
    C_WHIRL_ENC, C_WHIRL_ESC, C_WHIRL_SPIT, CASTAWAY, END_MOST_GOLD, END_SUNK, END_TIE,
    END_TRUNCATED, EV_ADVANCE, EV_BUY, EV_CASTAWAY, EV_DECLARE, EV_DOCK, EV_END, EV_ENTER,
    EV_FIRE, EV_FIRST, EV_FLIP, EV_FOG, EV_GHOST_FIGHT, EV_GUST, EV_INTERRUPT, EV_LIFE,
    EV_MERMAID, EV_MOVE, EV_OVERSHOOT, EV_RETURN_PEAK, EV_ROLL, EV_SACRIFICE, EV_SEARCH,
    EV_SETUP, EV_SHIP_FIGHT, EV_SHORTCUT, EV_SKIP, EV_SQUID, EV_STOP_EARLY, EV_SUMMON,
    EV_TREASURE, EV_TURN, EV_WHIRLPOOL, FOG, G_DECK_PTR, G_END, G_FIRST, G_FLIPPED,
    G_GHOST_X, G_N_EV, G_N_LAID, G_OUT_CARDS, G_OVER, G_PEAK_ARRIVALS, G_PEAK_MASK, G_PEAK_X,
    G_RESHUFFLES, G_SEA_BANK, G_SUPPLY, G_TURNS, G_WINNER, GC_DICE, GC_OUT_CARDS,
    GC_RESHUFFLES, GC_SEA_BANK, GC_SUPPLY, GOLDEN_CUTLASS, GUST, ISLAND, MERMAIDS,
    MIGHTY_SAIL, N_SEAT_COLS, N_SHIP, N_ST, OPEN, PEAK, SH_BALLS, SH_CREW, SH_DIG_X,
    SH_DIGS, SH_DOCKED, SH_GOLD, SH_GUST, SH_LAST_SEARCH, SH_LIFE, SH_POS, SH_SHORTCUT,
    SH_SKIP, SH_TRAP, SH_TRAP_COUNT, SH_TREASURE, SHORTCUT, SQUID, STEEL_CANNON, TRAP_FOG,
    TRAP_NONE, TRAP_SQUID, TRAP_WHIRLPOOL, TREASURE_X, WHIRLPOOL,
)
from .strategies import (
    policy_buy_nb, policy_declare_nb, policy_fog_guess_nb, policy_interrupt_nb,
    policy_sacrifice_nb, policy_search_on_landing_nb, policy_shortcut_nb,
    policy_stop_early_nb, policy_summon_nb, policy_treasure_nb,
)

N_BLOCKS = 64  # blocks per chunk; each block allocates its scratch arrays once
EV_WIDTH = 6

# ================================================================ mechanics (odds too)


@njit(cache=True)
def squid_attempt_nb(rng, n_dice):
    """One attempt against the Giant Squid: the total of ``n_dice`` dice."""
    total = 0
    for _ in range(n_dice):
        total += roll_die_nb(rng, 6)
    return total


@njit(cache=True)
def whirlpool_attempt_nb(rng, escape_roll):
    """One roll inside a whirlpool: (die, escaped)."""
    r = roll_die_nb(rng, 6)
    return r, r >= escape_roll


@njit(cache=True)
def fog_attempt_nb(rng, guess, tolerance):
    """Roll in the fog after calling ``guess``: (die, within tolerance)."""
    r = roll_die_nb(rng, 6)
    return r, abs(r - guess) <= tolerance


@njit(cache=True)
def interrupt_roll_nb(rng, partial_multiplier):
    """Searcher rolls, then attacker: (searcher, attacker, gold found, outcome).

    outcome 0: equal, no gold; 1: attacker higher, no gold and a life point; 2: partial.
    """
    s = roll_die_nb(rng, 6)
    a = roll_die_nb(rng, 6)
    if a == s:
        return s, a, 0, 0
    if a > s:
        return s, a, 0, 1
    return s, a, (s - a) * partial_multiplier, 2


@njit(cache=True)
def ship_attack_roll_nb(rng):
    """Attacker rolls, then defender: (attacker, defender, hit) with hit on attacker > defender."""
    a = roll_die_nb(rng, 6)
    d = roll_die_nb(rng, 6)
    return a, d, a > d


# ================================================================ small helpers


@njit(cache=True)
def log_nb(st, ev, code, seat, a, b, c, d):
    """Append one event row when the log has room (capacity 0 in bulk runs)."""
    n = st[G_N_EV]
    if n < ev.shape[0]:
        ev[n, 0] = code
        ev[n, 1] = seat
        ev[n, 2] = a
        ev[n, 3] = b
        ev[n, 4] = c
        ev[n, 5] = d
        st[G_N_EV] = n + 1


@njit(cache=True)
def flip_nb(R, cards, card_len, rng, st, track, deck, ev):
    """Flip the next Sea card onto the end of the track (the Peak may not come too early)."""
    n_deck = deck.shape[0]
    while True:
        ptr = st[G_DECK_PTR]
        if ptr >= n_deck:
            return
        c = deck[ptr]
        if c == R.peak_card and st[G_FLIPPED] + 1 < R.peak_earliest_flip:
            # rulebook: return it to the Sea Deck, shuffle, flip a new card
            st[G_RESHUFFLES] += 1
            log_nb(st, ev, EV_RETURN_PEAK, -1, st[G_FLIPPED] + 1, 0, 0, 0)
            for i in range(n_deck - 1, ptr, -1):
                j = ptr + rand_below_nb(rng, i - ptr + 1)
                tmp = deck[i]
                deck[i] = deck[j]
                deck[j] = tmp
            continue
        st[G_DECK_PTR] = ptr + 1
        st[G_FLIPPED] += 1
        n = st[G_N_LAID]
        length = card_len[c]
        for k in range(length):
            track[0, n + k] = cards[c, k]
            track[1, n + k] = st[G_FLIPPED]
        st[G_N_LAID] = n + length
        if c == R.peak_card:
            st[G_PEAK_X] = n + length - 1
            st[G_OUT_CARDS] = st[G_FLIPPED] - 1
        log_nb(st, ev, EV_FLIP, -1, c, st[G_FLIPPED], n, length)
        return


@njit(cache=True)
def ensure_laid_nb(R, cards, card_len, rng, st, track, deck, ev, d):
    """Flip cards until progress ``d`` lies on the table (only before the Peak is laid)."""
    while st[G_PEAK_X] < 0 and d >= st[G_N_LAID] and st[G_DECK_PTR] < deck.shape[0]:
        flip_nb(R, cards, card_len, rng, st, track, deck, ev)


@njit(cache=True)
def end_game_nb(st, ev, reason, winner):
    if st[G_OVER] == 0:
        st[G_OVER] = 1
        st[G_END] = reason
        st[G_WINNER] = winner
        log_nb(st, ev, EV_END, -1, reason, winner, 0, 0)


@njit(cache=True)
def lose_life_nb(st, ship, cnt, ev, s):
    """One life point lost; the last one loses the game at once."""
    if ship[s, SH_LIFE] > 0:
        ship[s, SH_LIFE] -= 1
    cnt[s, C_LIFE_LOST] += 1
    log_nb(st, ev, EV_LIFE, s, ship[s, SH_LIFE], 0, 0, 0)
    if ship[s, SH_LIFE] <= 0:
        end_game_nb(st, ev, END_SUNK, 1 - s)


@njit(cache=True)
def pay_nb(st, ship, s, amount):
    """Pay ``amount`` gold to seat s: from the Sea Bank while it has gold, then the supply."""
    from_bank = min(amount, st[G_SEA_BANK])
    st[G_SEA_BANK] -= from_bank
    st[G_SUPPLY] -= amount - from_bank
    ship[s, SH_GOLD] += amount


@njit(cache=True)
def buy_nb(R, st, ship, cnt, ev, s, n_crew, n_balls):
    """Buy crewmen and cannonballs (clamped to room and gold); the gold goes to the supply."""
    nc = 0
    while nc < n_crew and ship[s, SH_CREW] < R.max_crew and ship[s, SH_GOLD] >= R.crewman_price:
        ship[s, SH_CREW] += 1
        ship[s, SH_GOLD] -= R.crewman_price
        st[G_SUPPLY] += R.crewman_price
        nc += 1
    nb = 0
    while nb < n_balls and ship[s, SH_BALLS] < R.max_cannonballs and ship[s, SH_GOLD] >= R.cannonball_price:
        ship[s, SH_BALLS] += 1
        ship[s, SH_GOLD] -= R.cannonball_price
        st[G_SUPPLY] += R.cannonball_price
        nb += 1
    cnt[s, C_CREW_BOUGHT] += nc
    cnt[s, C_BALLS_BOUGHT] += nb
    log_nb(st, ev, EV_BUY, s, nc, nb, ship[s, SH_GOLD], 0)


@njit(cache=True)
def blocking_nb(R, st, track, ship, s, x, nd):
    """Does the other ship stop seat s (about to enter progress nd, space x) for a fight?"""
    o = 1 - s
    if ship[o, SH_DOCKED] != 0:
        return False
    do = ship[o, SH_POS]
    if phys_nb(st, do) != x:
        return False
    if x < R.dock_spaces:
        return False  # the Starting Dock card: both ships start there
    c = track[0, x]
    if c == ISLAND or c == WHIRLPOOL or c == PEAK:
        return False  # no attacks on islands, no fighting in a whirlpool, the Peak is wide
    if R.fight_overtake == 0:
        p = st[G_PEAK_X]
        out_s = p < 0 or nd <= p
        out_o = p < 0 or do <= p
        if out_s == out_o:
            return False
    return True


@njit(cache=True)
def can_fire_nb(R, st, track, ship, a):
    """May seat ``a`` fire a cannonball at the other ship now?"""
    t = 1 - a
    if ship[a, SH_BALLS] <= 0 or ship[a, SH_DOCKED] != 0 or ship[t, SH_DOCKED] != 0:
        return False
    xa = phys_nb(st, ship[a, SH_POS])
    xt = phys_nb(st, ship[t, SH_POS])
    if xa < R.dock_spaces or xt < R.dock_spaces:
        return False  # the Starting Dock card protects both ways
    ca = track[0, xa]
    ct = track[0, xt]
    if ca == ISLAND or ct == ISLAND or ca == WHIRLPOOL or ct == WHIRLPOOL or ca == FOG or ct == FOG:
        return False
    if ship[a, SH_TRAP] == TRAP_WHIRLPOOL or ship[t, SH_TRAP] == TRAP_WHIRLPOOL:
        return False
    if ship[a, SH_TRAP] == TRAP_FOG or ship[t, SH_TRAP] == TRAP_FOG:
        return False
    if ship[a, SH_TREASURE] == STEEL_CANNON:
        return True
    return abs(track[1, xa] - track[1, xt]) <= R.cannon_range


@njit(cache=True)
def peak_arrive_nb(R, strat, sp, rng, st, ship, cnt, ev, s):
    """Stopping at Pirate's Peak: the first ship picks from three treasures, the second from two."""
    if cnt[s, C_PEAK_ORDER] != 0:
        return
    order = st[G_PEAK_ARRIVALS] + 1
    st[G_PEAK_ARRIVALS] = order
    cnt[s, C_PEAK_ORDER] = order
    t = 0
    if order <= 2:
        t = policy_treasure_nb(strat[s], sp[s], rng, st[G_PEAK_MASK])
        st[G_PEAK_MASK] |= 1 << t
        ship[s, SH_TREASURE] = t
        cnt[s, C_TREASURE] = t
    log_nb(st, ev, EV_TREASURE, s, t, order, 0, 0)


@njit(cache=True)
def advance_nb(R, cards, card_len, strat, sp, rng, st, ship, cnt, track, deck, ev, w):
    """The fight's winner advances to the next open spot on its path (no encounters there)."""
    d = ship[w, SH_POS]
    nd = d + 1
    if nd >= dock_progress_nb(st):
        return  # docking always needs an exact roll
    ensure_laid_nb(R, cards, card_len, rng, st, track, deck, ev, nd)
    o = 1 - w
    if ship[o, SH_DOCKED] == 0 and phys_nb(st, nd) == phys_nb(st, ship[o, SH_POS]):
        nd += 1
        ensure_laid_nb(R, cards, card_len, rng, st, track, deck, ev, nd)
        if nd >= dock_progress_nb(st):
            return
    p = st[G_PEAK_X]
    if p >= 0 and d < p < nd:
        nd = p  # the Peak is never skipped
    x0 = phys_nb(st, d)
    ship[w, SH_POS] = nd
    log_nb(st, ev, EV_ADVANCE, w, x0, phys_nb(st, nd), nd, 0)
    if p >= 0 and nd == p:
        peak_arrive_nb(R, strat, sp, rng, st, ship, cnt, ev, w)


@njit(cache=True)
def ship_fight_nb(R, cards, card_len, strat, sp, rng, st, ship, cnt, track, deck, ev, a):
    """Collision of mover ``a`` with the other ship: crewman fights for gold, winner advances."""
    b = 1 - a
    ca = ship[a, SH_CREW]
    cb = ship[b, SH_CREW]
    cut_a = R.cutlass_bonus if ship[a, SH_TREASURE] == GOLDEN_CUTLASS else 0
    cut_b = R.cutlass_bonus if ship[b, SH_TREASURE] == GOLDEN_CUTLASS else 0
    net_a = 0
    m = min(ca, cb)
    for _ in range(m):
        ra = roll_die_nb(rng, 6) + cut_a  # the mover's crewman rolls first
        rb = roll_die_nb(rng, 6) + cut_b
        if ra > rb:
            t = min(ra - rb, ship[b, SH_GOLD])
            ship[b, SH_GOLD] -= t
            ship[a, SH_GOLD] += t
            net_a += t
        elif rb > ra:
            t = min(rb - ra, ship[a, SH_GOLD])
            ship[a, SH_GOLD] -= t
            ship[b, SH_GOLD] += t
            net_a -= t
    for _ in range(ca - m):  # unmatched crewmen steal what they roll
        t = min(roll_die_nb(rng, 6) + cut_a, ship[b, SH_GOLD])
        ship[b, SH_GOLD] -= t
        ship[a, SH_GOLD] += t
        net_a += t
    for _ in range(cb - m):
        t = min(roll_die_nb(rng, 6) + cut_b, ship[a, SH_GOLD])
        ship[a, SH_GOLD] -= t
        ship[b, SH_GOLD] += t
        net_a -= t
    cnt[a, C_SHIP_FIGHTS] += 1
    cnt[b, C_SHIP_FIGHTS] += 1
    cnt[a, C_FIGHT_GOLD] += net_a
    cnt[b, C_FIGHT_GOLD] -= net_a
    w = a if net_a >= 0 else b  # assumption: a drawn fight lets the mover through
    log_nb(st, ev, EV_SHIP_FIGHT, a, net_a, -net_a, w, 0)
    advance_nb(R, cards, card_len, strat, sp, rng, st, ship, cnt, track, deck, ev, w)


@njit(cache=True)
def ghost_fight_nb(R, cards, card_len, strat, sp, rng, st, ship, cnt, track, deck, ev, s):
    """Fight the Ghost Ship: as many ghost crew as ours, each always rolling ghost.crew_roll."""
    gx = st[G_GHOST_X]
    st[G_GHOST_X] = -1  # removed once fought
    cut = R.cutlass_bonus if ship[s, SH_TREASURE] == GOLDEN_CUTLASS else 0
    net = 0
    for _ in range(ship[s, SH_CREW]):
        r = roll_die_nb(rng, 6) + cut
        g = R.ghost_crew_roll
        if r > g:
            pay_nb(st, ship, s, r - g)
            net += r - g
        elif r < g:
            loss = min(g - r, ship[s, SH_GOLD])
            ship[s, SH_GOLD] -= loss
            st[G_SEA_BANK] += loss
            cnt[s, C_SEA_BANK_LOSS] += loss
            net -= loss
    cnt[s, C_GHOST_FIGHTS] += 1
    log_nb(st, ev, EV_GHOST_FIGHT, s, net, gx, 0, 0)
    if net >= 0:
        advance_nb(R, cards, card_len, strat, sp, rng, st, ship, cnt, track, deck, ev, s)


@njit(cache=True)
def search_nb(R, strat, sp, rng, st, ship, cnt, track, ev, s):
    """Search the X under seat s; the opponent may fire to interrupt (searcher rolls first)."""
    o = 1 - s
    x = phys_nb(st, ship[s, SH_POS])
    if can_fire_nb(R, st, track, ship, o) and policy_interrupt_nb(strat[o], sp[o], rng):
        ship[o, SH_BALLS] -= 1
        cnt[o, C_SHOTS] += 1
        cnt[o, C_INTERRUPTS] += 1
        cnt[s, C_INTERRUPTED] += 1
        if R.interrupt_costs_turn != 0:
            ship[o, SH_SKIP] = 1
        sr, ar, gold, outcome = interrupt_roll_nb(rng, R.partial_multiplier)
        log_nb(st, ev, EV_INTERRUPT, s, sr, ar, gold, outcome)
        if gold > 0:
            pay_nb(st, ship, s, gold)
        if outcome == 1:
            cnt[o, C_HITS] += 1
            lose_life_nb(st, ship, cnt, ev, s)
    else:
        r = roll_die_nb(rng, 6)
        gold = R.search_multiplier * r + ship[s, SH_CREW]
        pay_nb(st, ship, s, gold)
        log_nb(st, ev, EV_SEARCH, s, r, gold, x, 0)
    cnt[s, C_SEARCHES] += 1
    cnt[s, C_SEARCH_GOLD] += gold
    ship[s, SH_LAST_SEARCH] = x
    if ship[s, SH_DIG_X] == x:
        ship[s, SH_DIGS] += 1
    else:
        ship[s, SH_DIG_X] = x
        ship[s, SH_DIGS] = 1


@njit(cache=True)
def fire_nb(R, rng, st, ship, cnt, ev, a):
    """Fire a cannonball at the other ship: attacker higher takes off a life point."""
    t = 1 - a
    ship[a, SH_BALLS] -= 1
    cnt[a, C_SHOTS] += 1
    ar, dr, hit = ship_attack_roll_nb(rng)
    log_nb(st, ev, EV_FIRE, a, ar, dr, 1 if hit else 0, 0)
    if hit:
        cnt[a, C_HITS] += 1
        lose_life_nb(st, ship, cnt, ev, t)


@njit(cache=True)
def castaway_nb(R, st, ship, cnt, ev, s):
    if ship[s, SH_CREW] < R.max_crew:
        ship[s, SH_CREW] += 1
        cnt[s, C_CASTAWAYS] += 1
        log_nb(st, ev, EV_CASTAWAY, s, ship[s, SH_CREW], 0, 0, 0)


@njit(cache=True)
def island_stop_nb(R, strat, sp, rng, st, ship, cnt, ev, s):
    cnt[s, C_ISLAND_STOPS] += 1
    nc, nb = policy_buy_nb(R, ship, strat[s], sp[s], rng, s, True)
    buy_nb(R, st, ship, cnt, ev, s, nc, nb)


@njit(cache=True)
def dock_nb(R, st, ship, cnt, ev, s):
    """The first ship back docks: it sells its crewmen and the game is counted."""
    ship[s, SH_DOCKED] = 1
    cnt[s, C_DOCKED_FIRST] = 1
    sold = ship[s, SH_CREW]
    ship[s, SH_GOLD] += sold * R.crew_sale_price
    st[G_SUPPLY] -= sold * R.crew_sale_price
    ship[s, SH_CREW] = 0
    log_nb(st, ev, EV_DOCK, s, sold, ship[s, SH_GOLD], 0, 0)
    g0 = ship[0, SH_GOLD]
    g1 = ship[1, SH_GOLD]
    if g0 == g1:
        end_game_nb(st, ev, END_TIE, -1)
    else:
        end_game_nb(st, ev, END_MOST_GOLD, 0 if g0 > g1 else 1)


@njit(cache=True)
def sail_nb(R, cards, card_len, strat, sp, rng, st, ship, cnt, track, deck, ev, s, steps):
    """Move seat s forward ``steps`` spaces, resolving every encounter on the way."""
    d0 = ship[s, SH_POS]
    x0 = phys_nb(st, d0)
    if steps <= 0:
        return
    dock_d = dock_progress_nb(st)
    p = st[G_PEAK_X]
    if p >= 0 and d0 >= p:
        # docking needs the exact roll; bypassed islands do not count as spaces
        dist = 0
        dd = d0
        while dd < dock_d and dist <= steps:
            dd += 1
            if track[0, phys_nb(st, dd)] != ISLAND:
                dist += 1
        if dd == dock_d and steps > dist:
            cnt[s, C_OVERSHOOTS] += 1
            log_nb(st, ev, EV_OVERSHOOT, s, steps, dist, 0, 0)
            return
    code_s = strat[s]
    row = sp[s]
    d = d0
    taken = 0
    while taken < steps:
        nd = d + 1
        if st[G_PEAK_X] < 0 and nd >= st[G_N_LAID]:
            ensure_laid_nb(R, cards, card_len, rng, st, track, deck, ev, nd)
            dock_d = dock_progress_nb(st)
        x = phys_nb(st, nd)
        if st[G_GHOST_X] == x:
            ship[s, SH_POS] = d
            log_nb(st, ev, EV_MOVE, s, x0, phys_nb(st, d), d, track[0, phys_nb(st, d)])
            ghost_fight_nb(R, cards, card_len, strat, sp, rng, st, ship, cnt, track, deck, ev, s)
            return
        if blocking_nb(R, st, track, ship, s, x, nd):
            ship[s, SH_POS] = d
            log_nb(st, ev, EV_MOVE, s, x0, phys_nb(st, d), d, track[0, phys_nb(st, d)])
            ship_fight_nb(R, cards, card_len, strat, sp, rng, st, ship, cnt, track, deck, ev, s)
            return
        d = nd
        code = track[0, x]
        if code == ISLAND:
            # stopping counts the island as a space; bypassing it costs nothing
            if policy_stop_early_nb(R, ship, code_s, row, rng, s, ISLAND):
                ship[s, SH_POS] = d
                log_nb(st, ev, EV_MOVE, s, x0, x, d, code)
                island_stop_nb(R, strat, sp, rng, st, ship, cnt, ev, s)
                return
            continue
        taken += 1
        if code == PEAK:
            ship[s, SH_POS] = d
            log_nb(st, ev, EV_MOVE, s, x0, x, d, code)
            peak_arrive_nb(R, strat, sp, rng, st, ship, cnt, ev, s)
            return
        if d == dock_d:
            ship[s, SH_POS] = d
            log_nb(st, ev, EV_MOVE, s, x0, x, d, code)
            dock_nb(R, st, ship, cnt, ev, s)
            return
        if code == WHIRLPOOL or code == SQUID or code == FOG:
            ship[s, SH_POS] = d
            log_nb(st, ev, EV_MOVE, s, x0, x, d, code)
            log_nb(st, ev, EV_ENTER, s, code, x, 0, 0)
            ship[s, SH_TRAP_COUNT] = 0
            if code == WHIRLPOOL:
                ship[s, SH_TRAP] = TRAP_WHIRLPOOL
                cnt[s, C_WHIRL_ENC] += 1
            elif code == SQUID:
                ship[s, SH_TRAP] = TRAP_SQUID
                cnt[s, C_SQUID_ENC] += 1
            else:
                ship[s, SH_TRAP] = TRAP_FOG
            return
        if taken == steps:
            ship[s, SH_POS] = d
            log_nb(st, ev, EV_MOVE, s, x0, x, d, code)
            land_nb(R, strat, sp, rng, st, ship, cnt, track, ev, s, code)
            return
        if code == TREASURE_X or code == CASTAWAY:
            if policy_stop_early_nb(R, ship, code_s, row, rng, s, code):
                ship[s, SH_POS] = d
                log_nb(st, ev, EV_MOVE, s, x0, x, d, code)
                log_nb(st, ev, EV_STOP_EARLY, s, code, x, 0, 0)
                if code == CASTAWAY:
                    castaway_nb(R, st, ship, cnt, ev, s)
                return
    ship[s, SH_POS] = d
    log_nb(st, ev, EV_MOVE, s, x0, phys_nb(st, d), d, track[0, phys_nb(st, d)])


@njit(cache=True)
def land_nb(R, strat, sp, rng, st, ship, cnt, track, ev, s, code):
    """Effects of landing exactly on a space with the last step of a move."""
    if code == TREASURE_X:
        if policy_search_on_landing_nb(strat[s], sp[s], rng):
            search_nb(R, strat, sp, rng, st, ship, cnt, track, ev, s)
    elif code == MERMAIDS:
        if ship[s, SH_CREW] > 0:
            ship[s, SH_CREW] -= 1
            cnt[s, C_MERMAID] += 1
            log_nb(st, ev, EV_MERMAID, s, ship[s, SH_CREW], 0, 0, 0)
    elif code == CASTAWAY:
        castaway_nb(R, st, ship, cnt, ev, s)
    elif code == GUST:
        ship[s, SH_GUST] = 1
        cnt[s, C_GUSTS] += 1
        log_nb(st, ev, EV_GUST, s, 0, 0, 0, 0)
    elif code == SHORTCUT:
        ship[s, SH_SHORTCUT] = 1
        log_nb(st, ev, EV_SHORTCUT, s, 0, 0, 0, 0)


@njit(cache=True)
def can_summon_nb(R, st, track, ship, s):
    """Not from an island, a whirlpool, the squid space (rulebook), the dock or the Peak."""
    if ship[s, SH_TRAP] != TRAP_NONE:
        return False
    x = phys_nb(st, ship[s, SH_POS])
    if x < R.dock_spaces:
        return False
    c = track[0, x]
    return not (c == ISLAND or c == WHIRLPOOL or c == SQUID or c == PEAK or c == FOG)


# ================================================================ one turn


@njit(cache=True)
def play_turn_nb(R, cards, card_len, strat, sp, rng, st, ship, cnt, track, deck, ev, s):
    """Seat s plays one turn: a trap attempt, or its declaration (sail / search / fire)."""
    st[G_TURNS] += 1
    log_nb(st, ev, EV_TURN, s, st[G_TURNS], 0, 0, 0)
    prev_search = ship[s, SH_LAST_SEARCH]
    ship[s, SH_LAST_SEARCH] = -1
    gust = ship[s, SH_GUST]
    ship[s, SH_GUST] = 0
    short = ship[s, SH_SHORTCUT]
    ship[s, SH_SHORTCUT] = 0
    if ship[s, SH_SKIP] != 0:
        ship[s, SH_SKIP] = 0
        cnt[s, C_SKIPPED] += 1
        log_nb(st, ev, EV_SKIP, s, 0, 0, 0, 0)
        return
    code = strat[s]
    row = sp[s]
    trap = ship[s, SH_TRAP]
    if trap == TRAP_WHIRLPOOL:
        r, esc = whirlpool_attempt_nb(rng, R.whirlpool_escape_roll)
        cnt[s, C_WHIRL_ATT] += 1
        ship[s, SH_TRAP_COUNT] += 1
        log_nb(st, ev, EV_WHIRLPOOL, s, r, ship[s, SH_TRAP_COUNT], 1 if esc else 0, 0)
        if esc:
            cnt[s, C_WHIRL_ESC] += 1
            ship[s, SH_TRAP] = TRAP_NONE
            ship[s, SH_TRAP_COUNT] = 0
            sail_nb(R, cards, card_len, strat, sp, rng, st, ship, cnt, track, deck, ev, s, R.whirlpool_escape_move)
        elif ship[s, SH_TRAP_COUNT] >= R.whirlpool_max_attempts:
            cnt[s, C_WHIRL_SPIT] += 1
            ship[s, SH_TRAP] = TRAP_NONE
            ship[s, SH_TRAP_COUNT] = 0
            lose_life_nb(st, ship, cnt, ev, s)
            if st[G_OVER] == 0:
                sail_nb(R, cards, card_len, strat, sp, rng, st, ship, cnt, track, deck, ev, s,
                        R.whirlpool_spit_spaces)
        return
    if trap == TRAP_SQUID:
        total = squid_attempt_nb(rng, R.squid_dice)
        cnt[s, C_SQUID_ATT] += 1
        ship[s, SH_TRAP_COUNT] += 1
        if total >= R.squid_instant_total:
            cnt[s, C_SQUID_ESC] += 1
            cnt[s, C_SQUID_INSTANT] += 1
            ship[s, SH_TRAP] = TRAP_NONE
            log_nb(st, ev, EV_SQUID, s, total, ship[s, SH_TRAP_COUNT], 2, 0)
            sail_nb(R, cards, card_len, strat, sp, rng, st, ship, cnt, track, deck, ev, s, R.squid_instant_move)
        elif total >= R.squid_escape_total:
            cnt[s, C_SQUID_ESC] += 1
            ship[s, SH_TRAP] = TRAP_NONE  # sails on next turn
            log_nb(st, ev, EV_SQUID, s, total, ship[s, SH_TRAP_COUNT], 1, 0)
        else:
            low = total <= R.squid_life_loss_total
            log_nb(st, ev, EV_SQUID, s, total, ship[s, SH_TRAP_COUNT], 3 if low else 0, 0)
            if low:
                cnt[s, C_SQUID_LIFE] += 1
                lose_life_nb(st, ship, cnt, ev, s)
            if (st[G_OVER] == 0 and ship[s, SH_TRAP_COUNT] >= R.squid_sacrifice_after
                    and ship[s, SH_CREW] > 0 and policy_sacrifice_nb(code, row, rng)):
                ship[s, SH_CREW] -= 1
                cnt[s, C_SQUID_SAC] += 1
                ship[s, SH_TRAP] = TRAP_NONE  # moves ahead on its next turn
                log_nb(st, ev, EV_SACRIFICE, s, ship[s, SH_CREW], 0, 0, 0)
        return
    if trap == TRAP_FOG:
        guess = policy_fog_guess_nb(code, row, rng)
        r, ok = fog_attempt_nb(rng, guess, R.fog_tolerance)
        cnt[s, C_FOG_TURNS] += 1
        log_nb(st, ev, EV_FOG, s, guess, r, 1 if ok else 0, 0)
        if ok:
            cnt[s, C_FOG_ESC] += 1
            ship[s, SH_TRAP] = TRAP_NONE
            sail_nb(R, cards, card_len, strat, sp, rng, st, ship, cnt, track, deck, ev, s, r)
        return
    x = phys_nb(st, ship[s, SH_POS])
    can_search = 1 if (track[0, x] == TREASURE_X and x != prev_search) else 0
    can_fire = 1 if can_fire_nb(R, st, track, ship, s) else 0
    act = policy_declare_nb(R, st, ship, code, row, rng, s, can_search, can_fire)
    log_nb(st, ev, EV_DECLARE, s, act, 0, 0, 0)
    if act == ACT_SEARCH:
        search_nb(R, strat, sp, rng, st, ship, cnt, track, ev, s)
        return
    if act == ACT_FIRE:
        fire_nb(R, rng, st, ship, cnt, ev, s)
        return
    r = roll_die_nb(rng, 6)
    if r == R.ghost_summon_face and can_summon_nb(R, st, track, ship, s) and policy_summon_nb(
            st, ship, code, row, rng, s):
        r2 = roll_die_nb(rng, 6)
        if r2 == R.ghost_summon_face:
            st[G_GHOST_X] = x
            cnt[s, C_GHOST_SUMMONS] += 1
            log_nb(st, ev, EV_SUMMON, s, r2, x, 0, 0)
            r = roll_die_nb(rng, 6)
        else:
            log_nb(st, ev, EV_SUMMON, s, r2, -1, 0, 0)
            r = r2
    steps = r
    if gust != 0:
        steps *= R.gust_multiplier
    if ship[s, SH_TREASURE] == MIGHTY_SAIL and x >= R.dock_spaces:
        steps += R.mighty_sail_bonus
    if short != 0 and policy_shortcut_nb(code, row, rng):
        steps += R.shortcut_spaces
        cnt[s, C_SHORTCUTS] += 1
        log_nb(st, ev, EV_SHORTCUT, s, 1, 0, 0, 0)
    log_nb(st, ev, EV_ROLL, s, r, steps, 0, 0)
    sail_nb(R, cards, card_len, strat, sp, rng, st, ship, cnt, track, deck, ev, s, steps)


# ================================================================ one game


@njit(cache=True)
def reset_nb(R, st, ship, cnt, track):
    """A fresh table: ships at the first dash of the dock with the starting gold."""
    for i in range(st.shape[0]):
        st[i] = 0
    st[G_WINNER] = -1
    st[G_PEAK_X] = -1
    st[G_GHOST_X] = -1
    for s in range(2):
        for i in range(ship.shape[1]):
            ship[s, i] = 0
        for i in range(cnt.shape[1]):
            cnt[s, i] = 0
        ship[s, SH_GOLD] = R.start_gold
        ship[s, SH_LIFE] = R.life_points
        ship[s, SH_LAST_SEARCH] = -1
        ship[s, SH_DIG_X] = -1
    for x in range(R.dock_spaces):
        track[0, x] = OPEN
        track[1, x] = 0
    st[G_N_LAID] = R.dock_spaces


@njit(cache=True)
def setup_game_nb(R, cards, card_len, strat, sp, rng, st, ship, cnt, track, deck, deck_order, ev):
    """Reset, shuffle the Sea Deck (or use ``deck_order``), buy, roll for the first player."""
    reset_nb(R, st, ship, cnt, track)
    n = deck.shape[0]
    if deck_order.shape[0] == n:
        for i in range(n):
            deck[i] = deck_order[i]
    else:
        for i in range(n):
            deck[i] = i
        shuffle_nb(rng, deck)
    for s in range(2):
        nc, nb = policy_buy_nb(R, ship, strat[s], sp[s], rng, s, False)
        buy_nb(R, st, ship, cnt, ev, s, nc, nb)
        log_nb(st, ev, EV_SETUP, s, ship[s, SH_CREW], ship[s, SH_BALLS], ship[s, SH_GOLD], 0)
    while True:  # both roll, the higher goes first, ties roll again
        r0 = roll_die_nb(rng, 6)
        r1 = roll_die_nb(rng, 6)
        if r0 != r1:
            break
    first = 0 if r0 > r1 else 1
    st[G_FIRST] = first
    log_nb(st, ev, EV_FIRST, first, r0, r1, 0, 0)
    return first


@njit(cache=True)
def finish_nb(rng, st, ship, cnt, out_row):
    """Write the standard and game columns and the final seat values."""
    for s in range(2):
        cnt[s, C_FINAL_GOLD] = ship[s, SH_GOLD]
        cnt[s, C_LIFE] = ship[s, SH_LIFE]
        cnt[s, C_CREW] = ship[s, SH_CREW]
        cnt[s, C_BALLS] = ship[s, SH_BALLS]
        cnt[s, C_TREASURE] = ship[s, SH_TREASURE]
    out_row[0] = st[G_WINNER]
    out_row[1] = st[G_TURNS]
    out_row[2] = st[G_END]
    out_row[3] = 1 if st[G_END] == END_TRUNCATED else 0
    out_row[4] = st[G_FIRST]
    out_row[GC_DICE] = dice_rolled_nb(rng)
    out_row[GC_OUT_CARDS] = st[G_OUT_CARDS]
    out_row[GC_RESHUFFLES] = st[G_RESHUFFLES]
    out_row[GC_SEA_BANK] = st[G_SEA_BANK]
    out_row[GC_SUPPLY] = st[G_SUPPLY]


@njit(cache=True)
def play_game_nb(R, cards, card_len, strat, sp, rng, st, ship, cnt, track, deck, deck_order, ev, out_row):
    """Play one whole game on a seeded ``rng``; fills ``cnt`` (seat rows) and ``out_row``."""
    cur = setup_game_nb(R, cards, card_len, strat, sp, rng, st, ship, cnt, track, deck, deck_order, ev)
    while st[G_OVER] == 0:
        if st[G_TURNS] >= R.turn_cap:
            end_game_nb(st, ev, END_TRUNCATED, -1)
            break
        play_turn_nb(R, cards, card_len, strat, sp, rng, st, ship, cnt, track, deck, ev, cur)
        cur = 1 - cur
    finish_nb(rng, st, ship, cnt, out_row)


@njit(cache=True, parallel=True)
def play_chunk_nb(R, cards, card_len, strat, sp, seed, first_game, out_games, out_seats):
    """Games first_game .. first_game+n-1 in N_BLOCKS parallel blocks; game k uses
    ``seed_game_nb(rng, seed, first_game + k)`` so results never depend on threads or chunks."""
    n = out_games.shape[0]
    n_blocks = min(N_BLOCKS, n)
    for b in prange(n_blocks):
        lo = (n * b) // n_blocks
        hi = (n * (b + 1)) // n_blocks
        rng = np.zeros(RNG_WORDS, dtype=np.uint64)
        st = np.zeros(N_ST, dtype=np.int32)
        ship = np.zeros((2, N_SHIP), dtype=np.int32)
        track = np.zeros((2, R.max_track), dtype=np.int32)
        deck = np.zeros(cards.shape[0], dtype=np.int32)
        order = np.zeros(0, dtype=np.int32)
        ev = np.zeros((0, 6), dtype=np.int32)
        for k in range(lo, hi):
            seed_game_nb(rng, seed, first_game + k)
            play_game_nb(R, cards, card_len, strat, sp, rng, st, ship, out_seats[k], track, deck, order, ev,
                         out_games[k])


# ================================================================ Python-side helpers


class State:
    """The arrays of one table, for tests and traces: build with :func:`new_state`."""

    def __init__(self, compiled, ev_capacity=0, deck_order=None):
        R = compiled.params
        self.compiled = compiled
        self.R = R
        self.cards, self.card_len, self.strat, self.sp = compiled.arrays
        self.st = np.zeros(N_ST, dtype=np.int32)
        self.ship = np.zeros((2, N_SHIP), dtype=np.int32)
        self.cnt = np.zeros((2, N_SEAT_COLS), dtype=np.int32)
        self.track = np.zeros((2, R.max_track), dtype=np.int32)
        self.deck = np.zeros(self.cards.shape[0], dtype=np.int32)
        self.deck_order = np.asarray(deck_order if deck_order is not None else [], dtype=np.int32)
        self.ev = np.zeros((ev_capacity, EV_WIDTH), dtype=np.int32)
        self.out_row = np.zeros(5 + 5, dtype=np.int32)

    # the argument tuple every turn-level kernel takes, after rng
    def args(self):
        return (self.st, self.ship, self.cnt, self.track, self.deck)

    def events(self):
        return self.ev[: self.st[G_N_EV]].copy()


def new_state(compiled, deck_order=None, ev_capacity=0):
    """A table reset for a new game: ships on the dock with starting gold, no purchases.

    ``deck_order`` fixes the flip order (card indices; the Peak card is ``n_journey``).
    """
    s = State(compiled, ev_capacity, deck_order)
    reset_nb(s.R, s.st, s.ship, s.cnt, s.track)
    n = s.deck.shape[0]
    order = s.deck_order if s.deck_order.shape[0] == n else np.arange(n, dtype=np.int32)
    s.deck[:] = order
    return s


def lay_cards(state, rng, n_spaces):
    """Flip cards (in the state's deck order) until at least ``n_spaces`` spaces are laid."""
    c = state
    ensure_laid_nb(c.R, c.cards, c.card_len, rng, c.st, c.track, c.deck, c.ev, n_spaces - 1)


def set_ship(state, seat, **fields):
    """Set ship fields by name: pos, gold, crew, balls, life, treasure, trap, trap_count, ..."""
    from . import rules

    for k, v in fields.items():
        state.ship[seat, getattr(rules, "SH_" + k.upper())] = v


def turn(state, seat, rng):
    """Play one turn of ``seat`` on ``rng`` (e.g. ``scripted_rng([...])``)."""
    c = state
    play_turn_nb(c.R, c.cards, c.card_len, c.strat, c.sp, rng, c.st, c.ship, c.cnt, c.track, c.deck, c.ev, seat)


def sail(state, seat, rng, steps):
    c = state
    sail_nb(c.R, c.cards, c.card_len, c.strat, c.sp, rng, c.st, c.ship, c.cnt, c.track, c.deck, c.ev, seat, steps)


def play_one(compiled, rng, deck_order=None, ev_capacity=0):
    """Play one game on ``rng`` with the same kernel as bulk runs; returns the State."""
    s = State(compiled, ev_capacity, deck_order)
    play_game_nb(s.R, s.cards, s.card_len, s.strat, s.sp, rng, s.st, s.ship, s.cnt, s.track, s.deck,
                 s.deck_order, s.ev, s.out_row)
    return s
