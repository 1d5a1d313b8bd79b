"""Pirateer's kernel: the legal-play generator (``gen_plays_nb``) and the one-ship moves it is
made of (walk, make and undo a step, the winning test), and ``play_captures_nb`` (odds).

May import ``rules`` and ``state``.
"""

from __future__ import annotations

from numba import njit

from .rules import G_TREASURE, N_DIRS, N_ORTHO, OCC_BASE, SEA, SHIPS_BASE, S_ANCHOR, S_SHIPS
from .state import sb_nb


@njit(cache=True, inline="always", error_model="numpy")
def walk_nb(st, sps, nb, kind, start, d, die, seat):
    """Landing node of a ``die``-square move from ``start`` in direction ``d``, or -1.

    Never across a ship, never over a tradewind or strait square with an orthogonal move
    (no jumping across them with one die), never onto a ship of the mover's own flag."""
    cur = start
    for i in range(die):
        nxt = nb[cur, d]
        if nxt < 0:
            return -1
        o = st[OCC_BASE + nxt]
        if i < die - 1:
            if o >= 0:
                return -1
            if d < N_ORTHO and kind[nxt] != SEA:
                return -1
        elif o >= 0 and o // sps == seat:
            return -1
        cur = nxt
    return cur


@njit(cache=True, inline="always", error_model="numpy")
def do_step_nb(st, sps, ship, dest, take):
    """Move ``ship`` to ``dest`` (capturing, taking the treasure); returns what undo needs."""
    prev = st[SHIPS_BASE + ship]
    victim = st[OCC_BASE + dest]
    prev_tr = st[G_TREASURE]
    if victim >= 0:
        st[SHIPS_BASE + victim] = -1
        st[sb_nb(victim // sps) + S_SHIPS] -= 1
        if prev_tr == victim:
            st[G_TREASURE] = ship
    st[OCC_BASE + prev] = -1
    st[OCC_BASE + dest] = ship
    st[SHIPS_BASE + ship] = dest
    if take:
        st[G_TREASURE] = ship
    return victim, prev, prev_tr


@njit(cache=True, inline="always", error_model="numpy")
def undo_step_nb(st, sps, ship, dest, victim, prev, prev_tr):
    st[SHIPS_BASE + ship] = prev
    st[OCC_BASE + prev] = ship
    st[OCC_BASE + dest] = victim
    if victim >= 0:
        st[SHIPS_BASE + victim] = dest
        st[sb_nb(victim // sps) + S_SHIPS] += 1
    st[G_TREASURE] = prev_tr


@njit(cache=True, inline="always", error_model="numpy")
def wins_nb(st, n_seats, sps, seat):
    """The seat's treasure ship on its anchor, or no opposing ship left."""
    t = st[G_TREASURE]
    if t >= 0 and t // sps == seat and st[SHIPS_BASE + t] == st[sb_nb(seat) + S_ANCHOR]:
        return True
    for s in range(n_seats):
        if s != seat and st[sb_nb(s) + S_SHIPS] > 0:
            return False
    return True


@njit(cache=True, inline="always", error_model="numpy")
def _write_nb(plays, n, s1, d1, v1, t1, s2, d2, v2, t2):
    plays[n, 0] = s1
    plays[n, 1] = d1
    plays[n, 2] = v1
    plays[n, 3] = t1
    plays[n, 4] = s2
    plays[n, 5] = d2
    plays[n, 6] = v2
    plays[n, 7] = t2
    return n + 1


@njit(cache=True, error_model="numpy")
def _moves_nb(st, P, nb, kind, is_anchor, seat_allowed, seat, die, plays, n, s1, dir1, v1, take1):
    """Append a play for every one-die move of ``seat`` with ``die``: alone when ``s1`` < 0,
    else as the second move after (s1, dir1, v1, take1), which the state already shows."""
    sps = P.ships_per_seat
    for s in range(seat * sps, seat * sps + sps):
        node = st[SHIPS_BASE + s]
        if node < 0:
            continue
        for d in range(N_DIRS):
            if st[G_TREASURE] == s and seat_allowed[seat, d] == 0:
                continue
            dest = walk_nb(st, sps, nb, kind, node, d, die, seat)
            if dest < 0:
                continue
            n_take = 2 if (st[G_TREASURE] == -1 and is_anchor[dest]) else 1
            for take in range(n_take):
                if s1 < 0:
                    n = _write_nb(plays, n, s, d, die, take, -1, 0, 0, 0)
                else:
                    n = _write_nb(plays, n, s1, dir1, v1, take1, s, d, die, take)
    return n


@njit(cache=True, error_model="numpy")
def gen_plays_nb(st, P, nb, kind, is_anchor, seat_allowed, seat, d1, d2, plays):
    """Write every legal play of ``seat`` for the roll (d1, d2) into ``plays``; return the count.

    Both dice must be used when any play uses both (a move that wins ends the game, so it
    is a whole play beside them); when none does, every one-die move is legal (either die,
    or the larger when it can move), winning or not: "If it is not possible to move with
    both dice, one die may be used"."""
    sps = P.ships_per_seat
    n = 0
    n_both = 0
    n_orders = 1 if d1 == d2 else 2
    for order in range(n_orders):
        a = d1 if order == 0 else d2
        b = d2 if order == 0 else d1
        for s1 in range(seat * sps, seat * sps + sps):
            node1 = st[SHIPS_BASE + s1]
            if node1 < 0:
                continue
            for dir1 in range(N_DIRS):
                if st[G_TREASURE] == s1 and seat_allowed[seat, dir1] == 0:
                    continue
                dest1 = walk_nb(st, sps, nb, kind, node1, dir1, a, seat)
                if dest1 < 0:
                    continue
                n_take1 = 2 if (st[G_TREASURE] == -1 and is_anchor[dest1]) else 1
                for take1 in range(n_take1):
                    victim, prev, prev_tr = do_step_nb(st, sps, s1, dest1, take1)
                    if wins_nb(st, P.n_seats, sps, seat):
                        n = _write_nb(plays, n, s1, dir1, a, take1, -1, 0, 0, 0)
                    else:
                        m = _moves_nb(st, P, nb, kind, is_anchor, seat_allowed, seat, b, plays, n, s1, dir1, a, take1)
                        n_both += m - n
                        n = m
                    undo_step_nb(st, sps, s1, dest1, victim, prev, prev_tr)
    if n_both > 0:
        return n
    n = 0  # no play uses both dice: the one-die moves below include any winning one
    hi = max(d1, d2)
    lo = min(d1, d2)
    n = _moves_nb(st, P, nb, kind, is_anchor, seat_allowed, seat, hi, plays, n, -1, 0, 0, 0)
    if lo != hi and not (P.single_larger and n > 0):
        n = _moves_nb(st, P, nb, kind, is_anchor, seat_allowed, seat, lo, plays, n, -1, 0, 0, 0)
    return n



@njit(cache=True, error_model="numpy")
def play_captures_nb(st, sps, nb, kind, seat, play, target):
    """Whether ``play`` captures ship ``target`` (the state is left as it was)."""
    v1, p1, t1 = do_step_nb(st, sps, play[0], walk_nb(st, sps, nb, kind, st[SHIPS_BASE + play[0]],
                                                      play[1], play[2], seat), play[3])
    d1 = st[SHIPS_BASE + play[0]]
    hit = v1 == target
    if play[4] >= 0 and not hit:
        d2 = walk_nb(st, sps, nb, kind, st[SHIPS_BASE + play[4]], play[5], play[6], seat)
        v2, p2, t2 = do_step_nb(st, sps, play[4], d2, play[7])
        hit = v2 == target
        undo_step_nb(st, sps, play[4], d2, v2, p2, t2)
    undo_step_nb(st, sps, play[0], d1, v1, p1, t1)
    return hit
