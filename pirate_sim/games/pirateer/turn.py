"""Pirateer's kernel: the rules of the turn.  ``start_turn_nb`` stops at a turn limit or begins
the turn, ``begin_turn_nb`` rolls and lists the plays,
``finish_turn_nb`` makes the chosen one (``apply_play_nb``: moves, captures, the treasure, the
win) and ends the turn (doubles, next seat).  The chooser between them is in ``whole_game``.

May import ``rules``, ``state`` and ``moves``.
"""

from __future__ import annotations

from numba import njit

from ...rng import roll_die_nb
from .rules import (DIE_SIDES, END_CAPTURE, END_HOME, END_TRUNCATED, EV_CAPTURE, EV_EXTRA, EV_MOVE, EV_PASS, EV_ROLL, EV_TAKE, EV_WIN,
                    G_CHANGES, G_DICE, G_END, G_EXTRA, G_FIRST_PICKUP, G_HOLD_END, G_HOLD_TURNS, G_PLAYS, G_ROLL,
                    G_SEAT, G_TREASURE, G_TURN, G_WINNER, SHIPS_BASE, S_ANCHOR, S_CAPTURES, S_LOSSES, S_LOST, S_PASSED,
                    S_PICKUPS, S_SAILED, S_SHIPS, S_TREASURE_TURNS)
from .state import G_HOLD_START, HOLD_CAPTURED, HOLD_HOME, HOLD_OPEN, log_nb, sb_nb
from .moves import do_step_nb, gen_plays_nb, walk_nb, wins_nb


@njit(cache=True, error_model="numpy")
def _close_hold_nb(st, how):
    if st[G_HOLD_END] == HOLD_OPEN:
        st[G_HOLD_END] = how
        st[G_HOLD_TURNS] = st[G_TURN] - st[G_HOLD_START]


@njit(cache=True, error_model="numpy")
def apply_play_nb(st, ev, P, nb, kind, seat, play, heat):
    """Make the chosen play, with its bookkeeping; ends the game when a move wins."""
    sps = P.ships_per_seat
    b = sb_nb(seat)
    for half in range(2):
        ship = play[4 * half]
        if ship < 0:
            break
        d = play[4 * half + 1]
        die = play[4 * half + 2]
        take = play[4 * half + 3]
        start = st[SHIPS_BASE + ship]
        dest = walk_nb(st, sps, nb, kind, start, d, die, seat)
        had = st[G_TREASURE]
        victim, _prev, _tr = do_step_nb(st, sps, ship, dest, take)
        st[b + S_SAILED] += die
        log_nb(st, ev, seat, EV_MOVE, ship, dest, die * 8 + d)
        if victim >= 0:
            vs = victim // sps
            st[b + S_CAPTURES] += 1
            st[sb_nb(vs) + S_LOST] += 1
            log_nb(st, ev, seat, EV_CAPTURE, ship, victim, dest)
            if heat.shape[1] > 0:
                heat[0, dest] += 1
            if had == victim:
                st[sb_nb(vs) + S_LOSSES] += 1
                st[b + S_PICKUPS] += 1
                st[G_CHANGES] += 1
                _close_hold_nb(st, HOLD_CAPTURED)
                if heat.shape[1] > 0:
                    heat[1, dest] += 1
        if take:
            st[b + S_PICKUPS] += 1
            log_nb(st, ev, seat, EV_TAKE, ship, dest, 0)
            if st[G_FIRST_PICKUP] < 0:
                st[G_FIRST_PICKUP] = st[G_TURN]
                st[G_HOLD_START] = st[G_TURN]
                st[G_HOLD_END] = HOLD_OPEN
        if wins_nb(st, P.n_seats, sps, seat):
            t = st[G_TREASURE]
            home = t >= 0 and t // sps == seat and st[SHIPS_BASE + t] == st[b + S_ANCHOR]
            st[G_WINNER] = seat
            st[G_END] = END_HOME if home else END_CAPTURE
            if home:
                _close_hold_nb(st, HOLD_HOME)
            log_nb(st, ev, seat, EV_WIN, st[G_END], 0, 0)
            return


@njit(cache=True, error_model="numpy")
def begin_turn_nb(st, ev, rng, P, nb, kind, is_anchor, seat_allowed, plays):
    """Roll for the seat to move (the roll kept in ``G_ROLL``) and list its legal plays; the count."""
    seat = st[G_SEAT]
    b = sb_nb(seat)
    t = st[G_TREASURE]
    if t >= 0 and t // P.ships_per_seat == seat:
        st[b + S_TREASURE_TURNS] += 1
    d1 = roll_die_nb(rng, DIE_SIDES)
    d2 = roll_die_nb(rng, DIE_SIDES)
    st[G_DICE] += 2
    st[G_ROLL] = d1 * 8 + d2
    n = gen_plays_nb(st, P, nb, kind, is_anchor, seat_allowed, seat, d1, d2, plays)
    st[G_PLAYS] = n
    log_nb(st, ev, seat, EV_ROLL, d1, d2, n)
    return n


@njit(cache=True, error_model="numpy", inline="always")
def start_turn_nb(st, ev, rng, P, nb, kind, is_anchor, seat_allowed, plays, limit):
    """The next turn begun (``begin_turn_nb``: the count of legal plays), or -1 once ``limit``
    turns are played; a limit at the turn cap ends the game truncated.  The one turn prologue
    of the game, the search's playouts and the strategy files' playouts."""
    if st[G_TURN] >= limit:
        if limit >= P.turn_cap:
            st[G_END] = END_TRUNCATED
        return -1
    st[G_TURN] += 1
    return begin_turn_nb(st, ev, rng, P, nb, kind, is_anchor, seat_allowed, plays)


@njit(cache=True, error_model="numpy")
def finish_turn_nb(st, ev, P, nb, kind, play, heat):
    """Make ``play`` (a row of the list; ship -1: no legal play, the turn passes), then end the
    turn: another roll on doubles in the variant, else the next seat with ships afloat."""
    seat = st[G_SEAT]
    if play[0] < 0:
        st[sb_nb(seat) + S_PASSED] += 1
        log_nb(st, ev, seat, EV_PASS, 0, 0, 0)
    else:
        apply_play_nb(st, ev, P, nb, kind, seat, play, heat)
    if st[G_END] >= 0:
        return
    roll = st[G_ROLL]
    if roll // 8 == roll % 8 and P.doubles_extra and st[G_EXTRA] < P.max_extra:
        st[G_EXTRA] += 1
        log_nb(st, ev, seat, EV_EXTRA, st[G_EXTRA], 0, 0)
        return
    st[G_EXTRA] = 0
    s = seat
    for _ in range(P.n_seats):
        s = (s + 1) % P.n_seats
        if st[sb_nb(s) + S_SHIPS] > 0:
            break
    st[G_SEAT] = s
