"""Pirateer's kernel: the scripted players.  The threat tables (what the opponents could capture
with the next roll), the position value and play score, and ``policy_nb``: the play a scripted
strategy (random, runner, hunter, cautious, expert; scripted in tests) picks.

May import ``rules``, ``state`` and ``moves``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...rng import rand_below_nb
from .rules import (DIE_SIDES, G_SCR, G_SCR_FAIL, G_SCR_LEN, G_SCR_POS, G_TREASURE, N_DIRS, N_ORTHO, OCC_BASE,
                    PLAY_WIDTH, SEA, SHIPS_BASE, S_SHIPS)
from .state import (HOLD_VALUE, SP_CAPTURE, SP_CHASE, SP_HOME, SP_HUNT, SP_ISLAND, SP_RISK, ST_RANDOM, ST_SCRIPTED, TIE,
                    TREASURE_RISK, WIN_VALUE, sb_nb)
from .moves import do_step_nb, undo_step_nb, walk_nb, wins_nb


@njit(cache=True, inline="always", error_model="numpy")
def _reach_line_nb(st, sps, nb, kind, start, d, so, reach, o, v1):
    """Set ``reach[o, v1, v]`` (``reach[o, v, 0]`` when v1 = 0) for every die v = 1..6 that
    lands in direction ``d`` from ``start``: one walk serves all six dice."""
    cur = start
    for v in range(1, DIE_SIDES + 1):
        nxt = nb[cur, d]
        if nxt < 0:
            return
        occ = st[OCC_BASE + nxt]
        if occ < 0 or occ // sps != so:
            if v1 == 0:
                reach[o, v, 0, nxt >> 6] |= np.uint64(1) << np.uint64(nxt & 63)
            else:
                reach[o, v1, v, nxt >> 6] |= np.uint64(1) << np.uint64(nxt & 63)
        if occ >= 0 or (d < N_ORTHO and kind[nxt] != SEA):
            return  # no passing over a ship, nor over a tradewind or strait orthogonally
        cur = nxt


# de Bruijn bit index: (b * _DEBRUIJN) >> 58 is distinct for each single-bit b (Leiserson,
# Prokop & Randall 1998), so the table turns an isolated bit into its index in O(1)
_DEBRUIJN = np.uint64(0x03F79D71B4CB0A89)
_DEBRUIJN_INDEX = np.zeros(64, np.int64)
for _i in range(64):
    _DEBRUIJN_INDEX[int((((1 << _i) * int(_DEBRUIJN)) % 2**64) >> 58)] = _i


@njit(cache=True, inline="always", error_model="numpy")
def _ctz_nb(low):
    """Index of the single set bit of ``low``."""
    return _DEBRUIJN_INDEX[(low * _DEBRUIJN) >> np.uint64(58)]


@njit(cache=True, error_model="numpy")
def compute_threat_nb(st, P, nb, kind, seat_allowed, seat, reach, union, hits):
    """What the opponents could capture next, blocking as it stands now.

    ``reach[o, v1, 0]``: bitset of nodes ship ``o`` lands on with die v1 alone;
    ``reach[o, v1, v2]``: with v1 then v2; ``union[s, a, b]``: every node seat ``s`` reaches
    with the roll (a, b), either die alone or both in either order, any of its ships (filled
    for b >= a only: the roll (b, a) reaches the same nodes).
    ``hits[s, node]`` (how many of the 36 rolls reach the node) is filled lazily: -1 here."""
    sps = P.ships_per_seat
    words = reach.shape[3]
    hits[:, :] = -1
    for o in range(P.n_seats * sps):
        so = o // sps
        node = st[SHIPS_BASE + o]
        if so == seat or node < 0:
            continue
        reach[o, :, :, :] = 0
        held = st[G_TREASURE] == o
        for d in range(N_DIRS):
            if not (held and seat_allowed[so, d] == 0):
                _reach_line_nb(st, sps, nb, kind, node, d, so, reach, o, 0)
        st[OCC_BASE + node] = -1  # the ship has left its square for its second move
        for v1 in range(1, DIE_SIDES + 1):
            for w in range(words):
                x = reach[o, v1, 0, w]
                while x:  # each set bit, lowest first
                    low = x & (~x + np.uint64(1))
                    dest = w * 64 + _ctz_nb(low)
                    x ^= low
                    victim = st[OCC_BASE + dest]
                    st[OCC_BASE + dest] = o
                    for d2 in range(N_DIRS):
                        if not (held and seat_allowed[so, d2] == 0):
                            _reach_line_nb(st, sps, nb, kind, dest, d2, so, reach, o, v1)
                    st[OCC_BASE + dest] = victim
        st[OCC_BASE + node] = o
    for s in range(P.n_seats):
        if s == seat or st[sb_nb(s) + S_SHIPS] == 0:
            continue
        for a in range(1, DIE_SIDES + 1):
            for b in range(a, DIE_SIDES + 1):  # the union is symmetric in (a, b): b >= a only
                for w in range(words):
                    u = np.uint64(0)
                    for o in range(s * sps, s * sps + sps):
                        if st[SHIPS_BASE + o] >= 0:
                            u |= reach[o, a, 0, w] | reach[o, b, 0, w] | reach[o, a, b, w] | reach[o, b, a, w]
                    union[s, a, b, w] = u


@njit(cache=True, inline="always", error_model="numpy")
def _hits_nb(union, hits, s, node):
    """How many of seat ``s``'s 36 rolls reach ``node`` (memoised in ``hits``)."""
    h = hits[s, node]
    if h < 0:
        h = 0
        word = node >> 6
        bit = np.uint64(node & 63)
        for a in range(1, DIE_SIDES + 1):
            h += np.int64((union[s, a, a, word] >> bit) & np.uint64(1))
            for b in range(a + 1, DIE_SIDES + 1):  # (a, b) and (b, a): two of the 36 rolls
                h += 2 * np.int64((union[s, a, b, word] >> bit) & np.uint64(1))
        hits[s, node] = h
    return h


@njit(cache=True, inline="always", error_model="numpy")
def _bit_nb(reach, o, a, b, node):
    return (reach[o, a, b, node >> 6] >> np.uint64(node & 63)) & np.uint64(1)


@njit(cache=True, error_model="numpy")
def _seat_hits_nb(st, sps, reach, s, node):
    """Rolls (of 36) in which seat ``s``'s ships still afloat reach ``node``."""
    c = 0
    for a in range(1, DIE_SIDES + 1):
        for b in range(a, DIE_SIDES + 1):  # symmetric in (a, b): count (a, b) and (b, a) together
            for o in range(s * sps, s * sps + sps):
                if st[SHIPS_BASE + o] < 0:
                    continue
                if (_bit_nb(reach, o, a, 0, node) | _bit_nb(reach, o, b, 0, node)
                        | _bit_nb(reach, o, a, b, node) | _bit_nb(reach, o, b, a, node)):
                    c += 1 if a == b else 2
                    break
    return c


@njit(cache=True, error_model="numpy")
def value_nb(st, P, dist, dist_island, seat_home, seat, w, captured_seats, reach, union, hits):
    """How much ``seat`` likes the position (after a play that did not win)."""
    sps = P.ships_per_seat
    v = 0.0
    t = st[G_TREASURE]
    d_target = 999
    d_enemy = 999
    d_island = 999
    for m in range(seat * sps, seat * sps + sps):
        nm = st[SHIPS_BASE + m]
        if nm < 0:
            continue
        if dist_island[nm] < d_island:
            d_island = dist_island[nm]
        if t >= 0 and t // sps != seat and dist[nm, st[SHIPS_BASE + t]] < d_target:
            d_target = dist[nm, st[SHIPS_BASE + t]]
        if w[SP_HUNT] != 0.0:
            for o in range(P.n_seats * sps):
                no = st[SHIPS_BASE + o]
                if o // sps != seat and no >= 0 and dist[nm, no] < d_enemy:
                    d_enemy = dist[nm, no]
    if t >= 0 and t // sps == seat:
        v += HOLD_VALUE - w[SP_HOME] * seat_home[seat, st[SHIPS_BASE + t]]
    elif t >= 0:
        v -= w[SP_CHASE] * d_target
    else:
        v -= w[SP_ISLAND] * d_island
    if w[SP_HUNT] != 0.0:
        v -= w[SP_HUNT] * d_enemy
    if w[SP_RISK] != 0.0:
        risk = 0.0
        for m in range(seat * sps, seat * sps + sps):
            nm = st[SHIPS_BASE + m]
            if nm < 0:
                continue
            k = TREASURE_RISK if t == m else 1.0
            for s in range(P.n_seats):
                if s == seat or st[sb_nb(s) + S_SHIPS] == 0:
                    continue
                if (captured_seats >> s) & 1:
                    h = _seat_hits_nb(st, sps, reach, s, nm)
                else:
                    h = _hits_nb(union, hits, s, nm)
                risk += k * h / 36.0
        v -= w[SP_RISK] * risk
    return v


@njit(cache=True, error_model="numpy")
def score_play_nb(st, P, nb, kind, dist, dist_island, seat_home, seat, play, w, reach, union, hits):
    sps = P.ships_per_seat
    v1, p1, t1 = do_step_nb(st, sps, play[0], walk_nb(st, sps, nb, kind, st[SHIPS_BASE + play[0]],
                                                      play[1], play[2], seat), play[3])
    caps = 1 if v1 >= 0 else 0
    cap_seats = (1 << (v1 // sps)) if v1 >= 0 else 0
    dest1 = st[SHIPS_BASE + play[0]]
    two = play[4] >= 0
    v2 = -1
    p2 = 0
    t2 = 0
    dest2 = 0
    if two:
        dest2 = walk_nb(st, sps, nb, kind, st[SHIPS_BASE + play[4]], play[5], play[6], seat)
        v2, p2, t2 = do_step_nb(st, sps, play[4], dest2, play[7])
        if v2 >= 0:
            caps += 1
            cap_seats |= 1 << (v2 // sps)
    if wins_nb(st, P.n_seats, sps, seat):
        val = WIN_VALUE
    else:
        val = w[SP_CAPTURE] * caps + value_nb(st, P, dist, dist_island, seat_home, seat, w, cap_seats, reach, union, hits)
    if two:
        undo_step_nb(st, sps, play[4], dest2, v2, p2, t2)
    undo_step_nb(st, sps, play[0], dest1, v1, p1, t1)
    return val


@njit(cache=True, error_model="numpy")
def policy_nb(st, rng, P, nb, kind, seat_allowed, dist, dist_island, seat_home, code, w, seat, plays, n,
              reach, union, hits):
    """Index of the play a scripted player (``code``, weights ``w``) picks among the ``n`` legal ones."""
    if code == ST_RANDOM:
        return rand_below_nb(rng, n)
    if code == ST_SCRIPTED:
        pos = st[G_SCR_POS]
        if pos < st[G_SCR_LEN]:
            st[G_SCR_POS] = pos + 1
            base = G_SCR + pos * PLAY_WIDTH
            for k in range(n):
                same = True
                for j in range(PLAY_WIDTH):
                    if plays[k, j] != st[base + j] and not (j >= 4 and st[base + 4] < 0 and plays[k, 4] < 0):
                        same = False
                        break
                if same:
                    return k
        st[G_SCR_FAIL] = 1
        return 0
    if w[SP_RISK] != 0.0:
        compute_threat_nb(st, P, nb, kind, seat_allowed, seat, reach, union, hits)
    best = -1e300
    pick = 0
    ties = 0
    for k in range(n):
        v = score_play_nb(st, P, nb, kind, dist, dist_island, seat_home, seat, plays[k], w, reach, union, hits)
        if v > best + TIE:
            best = v
            pick = k
            ties = 1
        elif v >= best - TIE:
            ties += 1
            if rand_below_nb(rng, ties) == 0:
                pick = k
    return pick
