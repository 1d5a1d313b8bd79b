"""Ice Pirates kernel, part 2 of 7: the map: passage masks and bitboards of the cells, flipping a
card (and the enclosed-area rule), and the legality of a move (which directions a ship may
sail, row or pass through).

Imports ``state`` (and ``rules``); see ``state.py`` for the order of the kernel's modules.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from .rules import (BB_KELLY, BB_LOST, BB_PASS, BB_PASS_IB, BB_REVEALED, BB_STORM, C_CARD, C_COLOUR, C_MASK, C_PASS,
                    C_PASS_IB, C_REVEALED, C_WALLED, EV_FLIP, EV_WALLED, GRAPPLING_HOOK, G_TREASURE, G_VERSION,
                    G_WALLED, G_WIND, ICE_BREAKER, INTO, KELLY, LOST_ISLAND, N_CELLS, STORM, S_CREW, S_IDLE, S_POS,
                    S_UPG)
from .state import (BB_ALL, BB_BIT, _I, _ST, bb_nb, bb_to_nb, cont_after_nb, ctz_nb, log_nb, sb_nb, set_bb_nb,
                    side_blocked_nb)


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


@njit(cache=True, _nrt=False, inline="always")
def card_boards_nb(st):
    """The storm, Kelly and Lost Island (one per colour) bitboards from the cells' cards: at
    set-up and after a determinisation re-deals the unseen cards."""
    storm = np.int64(0)
    kelly = np.int64(0)
    lost0 = np.int64(0)
    lost1 = np.int64(0)
    lost2 = np.int64(0)
    for c in range(N_CELLS):
        bit = np.int64(1) << BB_BIT[c]
        card = st[C_CARD + c]
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
    set_bb_nb(st, BB_STORM, storm)
    set_bb_nb(st, BB_KELLY, kelly)
    set_bb_nb(st, BB_LOST, lost0)
    set_bb_nb(st, BB_LOST + 2, lost1)
    set_bb_nb(st, BB_LOST + 4, lost2)


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
    for c in range(N_CELLS):
        if st[C_REVEALED + c] == 1:
            rev |= np.int64(1) << BB_BIT[c]
    set_bb_nb(st, BB_REVEALED, rev)
    card_boards_nb(st)


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
