"""The numba kernel of Pirateer: the legal-play generator, the turn, the players.

Every function is ``@njit(cache=True)`` over the state vector ``st`` (int32, layout in
``rules.py``), the event log ``ev`` (int32 ``[capacity, 6]``; capacity 0 in bulk runs),
the game's rng, the rules NamedTuple ``P`` and the board tables of ``geometry.py``:

* ``nb`` int32[n, 6] neighbour node per direction, ``kind`` int32[n], ``is_anchor`` int32[n];
* ``dist`` int16[n, n], ``dist_island`` int16[n], ``seat_home`` int16[n_seats, n]
  (treasure-ship steps to the seat's anchor), ``seat_allowed`` int32[n_seats, 6],
  ``seat_anchor`` int32[n_seats], ``seat_start`` int32[n_seats, 3];
* ``strat`` int32[entries], ``sp`` float64[entries, N_SP]: per-seat players.

The generator writes every legal play into ``plays`` (int32 ``[MAX_PLAYS, 8]``) and
returns their count; every player, random included, picks a row.  ``reference.py`` lists
the same set in plain Python.

A turn is three pieces (``step_nb``): ``begin_turn_nb`` rolls (the roll kept in ``G_ROLL``)
and lists the plays, the chooser hook ``choose_nb`` picks one (``policy_nb`` for the
scripted players, ``search_nb`` for ``search``), ``finish_turn_nb`` makes it and ends the
turn (doubles, next seat), so a copy of ``st`` is the whole game and a rollout can resume
from any decision.  The rows of ``strat``/``sp`` after the ``[[seats]]`` entries are the
scripted strategies' defaults (``N_ROLLOUT_ROWS``), which the search's rollouts and prior use.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ...rng import RNG_WORDS, rand_below_nb, roll_die_nb, seed_game_nb
from ...search import (H_INDEX, H_OPT, H_SIZE, REWARD_RANK, REWARD_WIN, derive_stream_nb, halving_best_nb,
                       halving_next_nb, halving_start_nb, top_k_nb)
from ...seating import FP_RULE, entry_of_seat_nb, first_seat_nb
from .rules import (DIE_SIDES, END_CAPTURE, END_HOME, END_TRUNCATED, EV_CAPTURE, EV_EXTRA, EV_FIRST,
                    EV_MOVE, EV_PASS, EV_ROLL, EV_TAKE, EV_TRUNC, EV_WIN, G_CHANGES, G_DICE, G_END,
                    G_EVENTS, G_EXTRA, G_FIRST_PICKUP, G_ROLL, G_FIRST_SEAT, G_GAME, G_HOLD_END, G_HOLD_TURNS,
                    G_PLAYS, G_SCR, G_SCR_FAIL, G_SCR_LEN, G_SCR_POS, G_SEAT, G_TREASURE, G_TURN,
                    G_WINNER, MAX_PLAYS, MAX_SHIPS, N_DIRS, N_ORTHO, OCC_BASE, PLAY_WIDTH, S_ANCHOR,
                    S_CAPTURES, S_ENTRY, S_HARBOR, S_LOSSES, S_LOST, S_PASSED, S_PICKUPS, S_SAILED,
                    S_SHIPS, S_TREASURE_TURNS, SEA, SEAT_WORDS, SEATS_BASE, SHIPS_BASE)

# strategy codes
ST_RANDOM = 0
ST_RUNNER = 1
ST_HUNTER = 2
ST_CAUTIOUS = 3
ST_SEARCH = 4
ST_EXPERT = 5
N_ROLLOUT_ROWS = 5  # strategies.seat_tables appends one row per scripted strategy (default weights), in the
# order of the search's rollout/prior choices: the choice index is the row, the row's code the policy
ST_SCRIPTED = 9  # tests only: plays from the state's script words

# strategy parameter slots (columns of ``sp``)
SP_CAPTURE = 0  # value of capturing a ship
SP_CHASE = 1  # per step of distance from the nearest own ship to an opponent's treasure ship
SP_HUNT = 2  # per step of distance from the nearest own ship to the nearest opponent ship
SP_RISK = 3  # per expected ship under threat (treasure ship x TREASURE_RISK)
SP_HOME = 4  # per treasure-ship step from home
SP_ISLAND = 5  # per step of the nearest own ship from a treasure anchor square
SP_BUDGET = 6  # search: rollouts per decision (search.search_params)
SP_ROLLOUT = 7  # search: rollout strategy (its row among the N_ROLLOUT_ROWS)
SP_TOP_K = 8  # search: plays kept by the prior
SP_REWARD = 9  # search: REWARD_* index
SP_HORIZON = 10  # search: turns per rollout, 0 = to the end
SP_PRIOR = 11  # search: the strategy whose score is the prior (its row among the N_ROLLOUT_ROWS)
N_SP = 12

HOLD_VALUE = 1000.0  # holding the treasure outweighs any distance term (distances < 100 steps)
WIN_VALUE = 1e9  # a play that wins is always chosen
TREASURE_RISK = 3.0  # the treasure ship counts three times in the cautious player's exposure
TIE = 1e-9  # scores this close are ties, broken uniformly at random
MARGIN_WEIGHT = 0.01  # the search's "margin" reward: a ship of margin is worth far less than a win

BLOCK = 64  # games per parallel block
HOLD_NEVER, HOLD_OPEN, HOLD_HOME, HOLD_CAPTURED = 0, 1, 2, 3
N_GAME_EXTRA = 5  # dice_rolled, treasure_changes, first_pickup_turn, first_hold_turns, first_hold_end
N_SEAT_COLUMNS = 10
G_HOLD_START = 18  # turn of the first pick-up while that holding lasts


@njit(cache=True, inline="always", error_model="numpy")
def sb_nb(s):
    return SEATS_BASE + s * SEAT_WORDS


@njit(cache=True, error_model="numpy")
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


# ------------------------------------------------------------------ moves
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


# ------------------------------------------------------------------ players
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


@njit(cache=True, error_model="numpy")
def choose_nb(st, rng, P, nb, kind, is_anchor, seat_allowed, dist, dist_island, seat_home, strat, sp, seat, plays,
              n, reach, union, hits, ss):
    """The chooser hook: index of the play the seat's player picks among the ``n`` legal ones
    (a scripted policy, or the search, which never draws from the game's stream)."""
    e = st[sb_nb(seat) + S_ENTRY]
    if strat[e] == ST_SEARCH:
        return search_nb(st, rng, P, nb, kind, is_anchor, seat_allowed, dist, dist_island, seat_home, strat, sp,
                         seat, plays, n, reach, union, hits, ss)[0]
    return policy_nb(st, rng, P, nb, kind, seat_allowed, dist, dist_island, seat_home, strat[e], sp[e], seat, plays,
                     n, reach, union, hits)


# ------------------------------------------------------------------ the turn
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


@njit(cache=True, error_model="numpy")
def step_nb(st, ev, rng, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed, strat, sp,
            plays, reach, union, hits, heat, ss):
    """One turn of the seat to move (or truncation at the turn cap), then the next seat."""
    if st[G_END] >= 0:
        return
    if st[G_TURN] >= P.turn_cap:
        st[G_END] = END_TRUNCATED
        log_nb(st, ev, -1, EV_TRUNC, 0, 0, 0)
        return
    st[G_TURN] += 1
    n = begin_turn_nb(st, ev, rng, P, nb, kind, is_anchor, seat_allowed, plays)
    if n == 0:
        finish_turn_nb(st, ev, P, nb, kind, ss[0][0], heat)  # ss[0][0]: the pass row
    else:
        k = choose_nb(st, rng, P, nb, kind, is_anchor, seat_allowed, dist, dist_island, seat_home, strat, sp,
                      st[G_SEAT], plays, n, reach, union, hits, ss)
        finish_turn_nb(st, ev, P, nb, kind, plays[k], heat)


# ------------------------------------------------------------------ the search player
@njit(cache=True, error_model="numpy")
def playout_nb(st, ev, rng, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed, code, w,
               plays, reach, union, hits, heat, pass_row, limit):
    """Play on with every seat the scripted player ``code`` (weights ``w``) until the game
    ends or ``limit`` turns are reached (the turn cap marks the game truncated)."""
    while st[G_END] < 0:
        if st[G_TURN] >= limit:
            if limit >= P.turn_cap:
                st[G_END] = END_TRUNCATED
            return
        st[G_TURN] += 1
        n = begin_turn_nb(st, ev, rng, P, nb, kind, is_anchor, seat_allowed, plays)
        if n == 0:
            finish_turn_nb(st, ev, P, nb, kind, pass_row, heat)
        else:
            k = policy_nb(st, rng, P, nb, kind, seat_allowed, dist, dist_island, seat_home, code, w, st[G_SEAT],
                          plays, n, reach, union, hits)
            finish_turn_nb(st, ev, P, nb, kind, plays[k], heat)


@njit(cache=True, error_model="numpy")
def reward_nb(st, P, seat, reward):
    """What a finished (or stopped) rollout is worth to ``seat``: ``win`` 1/0 (a game not won
    shared equally among the seats still afloat); ``rank`` 1 for the winner down to 0 for
    the last by ships left (ties share); ``margin`` the win plus 0.01 x (its ships - the most
    ships of another seat) / ships per seat."""
    own = st[sb_nb(seat) + S_SHIPS]
    w = st[G_WINNER]
    if w >= 0:
        win = 1.0 if w == seat else 0.0
    else:
        afloat = 0
        for s in range(P.n_seats):
            if st[sb_nb(s) + S_SHIPS] > 0:
                afloat += 1
        win = 1.0 / afloat if own > 0 else 0.0
    if reward == REWARD_WIN or P.n_seats < 2:
        return win
    if reward == REWARD_RANK:
        if w == seat:
            return 1.0
        above = 0.0  # seats ranked above it: the winner, more ships left; half of each tie
        for s in range(P.n_seats):
            if s == seat:
                continue
            o = st[sb_nb(s) + S_SHIPS]
            if s == w or o > own:
                above += 1.0
            elif o == own:
                above += 0.5
        return 1.0 - above / (P.n_seats - 1)
    most = 0
    for s in range(P.n_seats):
        if s != seat and st[sb_nb(s) + S_SHIPS] > most:
            most = st[sb_nb(s) + S_SHIPS]
    return win + MARGIN_WEIGHT * (own - most) / P.ships_per_seat


@njit(cache=True, error_model="numpy")
def play_key_nb(st, P, nb, kind, seat, play, key):
    """Write the position ``play`` leaves (every ship's node, the treasure) into ``key``;
    return (its hash, whether the play wins).  The state is left as it was."""
    sps = P.ships_per_seat
    dest1 = walk_nb(st, sps, nb, kind, st[SHIPS_BASE + play[0]], play[1], play[2], seat)
    v1, p1, t1 = do_step_nb(st, sps, play[0], dest1, play[3])
    two = play[4] >= 0
    dest2 = 0
    v2 = -1
    p2 = 0
    t2 = 0
    if two:
        dest2 = walk_nb(st, sps, nb, kind, st[SHIPS_BASE + play[4]], play[5], play[6], seat)
        v2, p2, t2 = do_step_nb(st, sps, play[4], dest2, play[7])
    win = wins_nb(st, P.n_seats, sps, seat)
    h = np.int64(st[G_TREASURE]) + 2
    for i in range(P.n_seats * sps):
        key[i] = st[SHIPS_BASE + i]
        h = h * np.int64(1000003) + st[SHIPS_BASE + i] + 1
    key[P.n_seats * sps] = st[G_TREASURE]
    if two:
        undo_step_nb(st, sps, play[4], dest2, v2, p2, t2)
    undo_step_nb(st, sps, play[0], dest1, v1, p1, t1)
    return h, win


@njit(cache=True, error_model="numpy")
def search_scratch_nb(P):
    """The search's preallocated scratch (one per block, reused by every decision and rollout):
    (pass row, rollout state, rollout plays, rollout stream, position keys, key hashes,
    distinct plays, prior scores, top-k order, live options, sums, counts, empty event log,
    empty heat map)."""
    pass_row = np.full((1, PLAY_WIDTH), -1, np.int32)
    st2 = np.zeros(P.state_words, np.int32)
    plays2 = np.zeros((MAX_PLAYS, PLAY_WIDTH), np.int32)
    rng2 = np.zeros(RNG_WORDS, np.uint64)
    keys = np.zeros((MAX_PLAYS, MAX_SHIPS + 1), np.int32)
    hk = np.zeros(MAX_PLAYS, np.int64)
    uniq = np.zeros(MAX_PLAYS, np.int64)
    score = np.zeros(MAX_PLAYS, np.float64)
    idx = np.zeros(MAX_PLAYS, np.int64)
    alive = np.zeros(MAX_PLAYS, np.int64)
    sums = np.zeros(MAX_PLAYS, np.float64)
    counts = np.zeros(MAX_PLAYS, np.float64)
    ev0 = np.zeros((0, 6), np.int32)
    heat0 = np.zeros((2, 0), np.int64)
    return pass_row, st2, plays2, rng2, keys, hk, uniq, score, idx, alive, sums, counts, ev0, heat0


@njit(cache=True, error_model="numpy")
def rollout_nb(st, rng, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed, seat, play, decision, j,
               code, w, reward, limit, reach, union, hits, ss):
    """Rollout ``j`` of a decision: a copy of the state, ``play`` made and the turn ended,
    then every seat plays ``code`` on stream ``derive_stream_nb(game stream, decision, j)``."""
    pass_row, st2, plays2, rng2 = ss[0], ss[1], ss[2], ss[3]
    ev0, heat0 = ss[12], ss[13]
    st2[:] = st
    derive_stream_nb(rng2, rng, decision, j)
    finish_turn_nb(st2, ev0, P, nb, kind, play, heat0)
    playout_nb(st2, ev0, rng2, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed, code, w, plays2,
               reach, union, hits, heat0, pass_row[0], limit)
    return reward_nb(st2, P, seat, reward)


@njit(cache=True, error_model="numpy")
def search_prepare_nb(st, P, nb, kind, seat_allowed, dist, dist_island, seat_home, strat, sp, seat, plays, n,
                      reach, union, hits, ss):
    """The search's work before any rollout, shared by ``search_nb`` and the template of
    strategies of one's own (user_kernel.py): (the play taken without rollouts or -1, the
    options kept ``m``).  Plays that leave the same position are merged (the first listed
    stands for them); a winning play is taken at once; the prior strategy's score keeps the
    ``top_k`` best, the kept options in ``idx[:m]`` (ss[8]) of the distinct plays ``uniq``
    (ss[6]), their ``alive``/``sums``/``counts`` (ss[9:12]) set for sequential halving."""
    e = st[sb_nb(seat) + S_ENTRY]
    w = sp[e]
    top_k = int(w[SP_TOP_K])
    base = strat.shape[0] - N_ROLLOUT_ROWS
    pcode = strat[base + int(w[SP_PRIOR])]
    pw = sp[base + int(w[SP_PRIOR])]
    keys, hk, uniq, score, idx, alive, sums, counts = ss[4], ss[5], ss[6], ss[7], ss[8], ss[9], ss[10], ss[11]
    width = P.n_seats * P.ships_per_seat + 1
    u = 0
    for k in range(n):
        h, win = play_key_nb(st, P, nb, kind, seat, plays[k], keys[u])
        if win:
            return k, 0
        dup = False
        for i in range(u):
            if hk[i] == h:
                dup = True
                for q in range(width):
                    if keys[i, q] != keys[u, q]:
                        dup = False
                        break
                if dup:
                    break
        if not dup:
            hk[u] = h
            uniq[u] = k
            u += 1
    if u == 1:
        return uniq[0], 0
    if pcode == ST_RANDOM:
        score[:u] = 0.0
    else:
        if pw[SP_RISK] != 0.0:
            compute_threat_nb(st, P, nb, kind, seat_allowed, seat, reach, union, hits)
        for i in range(u):
            score[i] = score_play_nb(st, P, nb, kind, dist, dist_island, seat_home, seat, plays[uniq[i]], pw, reach,
                                     union, hits)
    m = top_k_nb(score, u, top_k, idx)
    if m == 1:
        return uniq[idx[0]], 0
    for i in range(m):
        alive[i] = i
        sums[i] = 0.0
        counts[i] = 0.0
    return -1, m


@njit(cache=True, error_model="numpy")
def search_limit_nb(st, P, w):
    """The turn a rollout of the search entry ``w`` stops at (``horizon`` 0: the turn cap)."""
    horizon = int(w[SP_HORIZON])
    return P.turn_cap if horizon == 0 else min(P.turn_cap, st[G_TURN] + horizon)


@njit(cache=True, error_model="numpy")
def search_play_of_nb(ss, o):
    """Index among the legal plays of kept option ``o`` (search_prepare_nb's tables)."""
    return ss[6][ss[8][o]]


@njit(cache=True, error_model="numpy")
def search_nb(st, rng, P, nb, kind, is_anchor, seat_allowed, dist, dist_island, seat_home, strat, sp, seat, plays, n,
              reach, union, hits, ss):
    """The search player's choice among the ``n`` legal plays: (index, rollouts played, turns
    played in them).

    ``search_prepare_nb`` merges, takes a win, applies the prior and ``top_k``; sequential
    halving spends ``budget`` rollouts on the kept plays, the same derived streams for
    every play (common random numbers).  Only future dice vary: the board is open."""
    k0, m = search_prepare_nb(st, P, nb, kind, seat_allowed, dist, dist_island, seat_home, strat, sp, seat, plays, n,
                              reach, union, hits, ss)
    if k0 >= 0:
        return k0, 0, 0
    e = st[sb_nb(seat) + S_ENTRY]
    w = sp[e]
    budget = int(w[SP_BUDGET])
    reward = int(w[SP_REWARD])
    base = strat.shape[0] - N_ROLLOUT_ROWS
    rcode = strat[base + int(w[SP_ROLLOUT])]
    rw = sp[base + int(w[SP_ROLLOUT])]
    alive, sums, counts = ss[9], ss[10], ss[11]
    limit = search_limit_nb(st, P, w)
    decision = st[G_TURN]
    total = 0
    turns = 0
    st2 = ss[1]
    h = np.empty(H_SIZE, np.int64)  # the search loop (pirate_sim.search: halving_*)
    halving_start_nb(h, m, budget)
    while halving_next_nb(h, alive, sums, counts):
        o = h[H_OPT]
        sums[o] += rollout_nb(st, rng, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed, seat,
                              plays[search_play_of_nb(ss, o)], decision, h[H_INDEX], rcode, rw, reward, limit, reach,
                              union, hits, ss)
        turns += st2[G_TURN] - decision
        counts[o] += 1
        total += 1
    return search_play_of_nb(ss, halving_best_nb(h, alive, sums, counts)), total, turns


@njit(cache=True, error_model="numpy")
def setup_nb(st, ev, rng, P, seat_harbor, seat_anchor, seat_start, game_index):
    """Ships on their starting squares, the treasure on Skull Island, the first player."""
    st[:] = 0
    st[OCC_BASE:OCC_BASE + P.n_nodes] = -1
    st[SHIPS_BASE:SHIPS_BASE + MAX_SHIPS] = -1
    st[G_TREASURE] = -1
    st[G_WINNER] = -1
    st[G_END] = -1
    st[G_FIRST_PICKUP] = -1
    st[G_HOLD_END] = HOLD_NEVER
    st[G_GAME] = game_index
    sps = P.ships_per_seat
    for s in range(P.n_seats):
        b = sb_nb(s)
        st[b + S_HARBOR] = seat_harbor[s]
        st[b + S_ANCHOR] = seat_anchor[s]
        st[b + S_ENTRY] = entry_of_seat_nb(s, game_index, P.n_seats, P.rotate)
        st[b + S_SHIPS] = sps
        for k in range(sps):
            ship = s * sps + k
            st[SHIPS_BASE + ship] = seat_start[s, k]
            st[OCC_BASE + seat_start[s, k]] = ship
    rule_seat = 0
    best = 0
    if P.first_player == FP_RULE:
        # "roll dice for highest total": every seat rolls two dice, the tied highest re-roll
        contenders = (1 << P.n_seats) - 1
        while True:
            best = -1
            tied = 0
            for s in range(P.n_seats):
                if (contenders >> s) & 1:
                    r = roll_die_nb(rng, DIE_SIDES) + roll_die_nb(rng, DIE_SIDES)
                    st[G_DICE] += 2
                    if r > best:
                        best = r
                        tied = 1 << s
                        rule_seat = s
                    elif r == best:
                        tied |= 1 << s
            if tied == (1 << rule_seat):
                break
            contenders = tied
    first = first_seat_nb(P.first_player, rule_seat, game_index, P.n_seats, rng)
    st[G_SEAT] = first
    st[G_FIRST_SEAT] = first
    log_nb(st, ev, first, EV_FIRST, best, 0, 0)


@njit(cache=True, error_model="numpy")
def write_outputs_nb(st, P, out_g, out_s):
    out_g[0] = st[G_WINNER]
    out_g[1] = st[G_TURN]
    out_g[2] = st[G_END]
    out_g[3] = 1 if st[G_END] == END_TRUNCATED else 0
    out_g[4] = st[G_FIRST_SEAT]
    if st[G_HOLD_END] == HOLD_OPEN:
        st[G_HOLD_TURNS] = st[G_TURN] - st[G_HOLD_START]
    out_g[5] = st[G_DICE]
    out_g[6] = st[G_CHANGES]
    out_g[7] = st[G_FIRST_PICKUP]
    out_g[8] = st[G_HOLD_TURNS] if st[G_HOLD_END] != HOLD_NEVER else -1
    out_g[9] = st[G_HOLD_END]
    for s in range(P.n_seats):
        b = sb_nb(s)
        o = out_s[s]
        o[0] = st[b + S_HARBOR]
        o[1] = st[b + S_SHIPS]
        o[2] = st[b + S_CAPTURES]
        o[3] = st[b + S_LOST]
        o[4] = st[b + S_TREASURE_TURNS]
        o[5] = st[b + S_PICKUPS]
        o[6] = st[b + S_LOSSES]
        o[7] = st[b + S_SAILED]
        o[8] = st[b + S_PASSED]
        o[9] = 1 if st[G_WINNER] == s else 0


@njit(cache=True, error_model="numpy")
def play_one_game_nb(st, ev, rng, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed,
                     seat_harbor, seat_anchor, seat_start, strat, sp, plays, reach, union, hits, ss, heat,
                     game_index, out_g, out_s):
    """One whole game on an already seeded ``rng`` (bulk runs, traces and heat maps share it)."""
    setup_nb(st, ev, rng, P, seat_harbor, seat_anchor, seat_start, game_index)
    while st[G_END] < 0:
        step_nb(st, ev, rng, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed, strat, sp,
                plays, reach, union, hits, heat, ss)
    write_outputs_nb(st, P, out_g, out_s)


@njit(cache=True, error_model="numpy")
def scratch_nb(P):
    """Per-block scratch: (plays, reach, union, hits, the search's scratch)."""
    plays = np.zeros((MAX_PLAYS, PLAY_WIDTH), np.int32)
    reach = np.zeros((MAX_SHIPS, DIE_SIDES + 1, DIE_SIDES + 1, P.bit_words), np.uint64)
    union = np.zeros((P.n_seats, DIE_SIDES + 1, DIE_SIDES + 1, P.bit_words), np.uint64)
    hits = np.zeros((P.n_seats, P.n_nodes), np.int32)
    return plays, reach, union, hits, search_scratch_nb(P)


@njit(cache=True, error_model="numpy")
def block_size_nb(strat):
    """Games per parallel block: BLOCK, or 1 when a seat searches (a search game costs about
    as much as thousands of scripted ones, so blocks of 64 would leave threads idle)."""
    for e in range(strat.shape[0]):
        if strat[e] == ST_SEARCH:
            return 1
    return BLOCK


@njit(cache=True, parallel=True, error_model="numpy")
def play_chunk_nb(seed, first, n, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed,
                  seat_harbor, seat_anchor, seat_start, strat, sp, out_g, out_s):
    """Games ``first .. first + n - 1``: blocks of BLOCK games in parallel, scratch per block."""
    bs = block_size_nb(strat)
    n_blocks = (n + bs - 1) // bs
    for blk in prange(n_blocks):
        st = np.zeros(P.state_words, np.int32)
        ev = np.zeros((0, 6), np.int32)
        heat = np.zeros((2, 0), np.int64)
        rng = np.zeros(RNG_WORDS, np.uint64)
        plays, reach, union, hits, ss = scratch_nb(P)
        hi = min(n, (blk + 1) * bs)
        for i in range(blk * bs, hi):
            seed_game_nb(rng, seed, first + i)
            play_one_game_nb(st, ev, rng, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed,
                             seat_harbor, seat_anchor, seat_start, strat, sp, plays, reach, union, hits, ss, heat,
                             first + i, out_g[i], out_s[i])


@njit(cache=True, error_model="numpy")
def play_traced_nb(seed, k, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed, seat_harbor,
                   seat_anchor, seat_start, strat, sp, ev, heat, out_g, out_s):
    """Game ``k`` with the event log (and optionally the heat map) on: same code as bulk runs."""
    st = np.zeros(P.state_words, np.int32)
    rng = np.zeros(RNG_WORDS, np.uint64)
    plays, reach, union, hits, ss = scratch_nb(P)
    seed_game_nb(rng, seed, k)
    play_one_game_nb(st, ev, rng, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed,
                     seat_harbor, seat_anchor, seat_start, strat, sp, plays, reach, union, hits, ss, heat, k, out_g,
                     out_s)
    return st[G_EVENTS]


@njit(cache=True, error_model="numpy")
def heat_chunk_nb(seed, first, n, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed,
                  seat_harbor, seat_anchor, seat_start, strat, sp, heat, out_g, out_s):
    """Games ``first ..`` one after another, adding captures and treasure losses per node to ``heat``."""
    st = np.zeros(P.state_words, np.int32)
    rng = np.zeros(RNG_WORDS, np.uint64)
    ev = np.zeros((0, 6), np.int32)
    plays, reach, union, hits, ss = scratch_nb(P)
    for i in range(n):
        seed_game_nb(rng, seed, first + i)
        play_one_game_nb(st, ev, rng, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed,
                         seat_harbor, seat_anchor, seat_start, strat, sp, plays, reach, union, hits, ss, heat,
                         first + i, out_g[i], out_s[i])


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


@njit(cache=True, error_model="numpy")
def capture_mc_nb(seed, samples, P, nb, kind, is_anchor, seat_allowed, st, seat, target, plays):
    """Monte Carlo: of ``samples`` rolls, how many give ``seat`` a legal play capturing ``target``."""
    rng = np.zeros(RNG_WORDS, np.uint64)
    seed_game_nb(rng, seed, 0)
    hits = 0
    for _ in range(samples):
        d1 = roll_die_nb(rng, DIE_SIDES)
        d2 = roll_die_nb(rng, DIE_SIDES)
        n = gen_plays_nb(st, P, nb, kind, is_anchor, seat_allowed, seat, d1, d2, plays)
        for k in range(n):
            if play_captures_nb(st, P.ships_per_seat, nb, kind, seat, plays[k], target):
                hits += 1
                break
    return hits


# ------------------------------------------------------------------ search bench (Game.search_bench)
@njit(cache=True, error_model="numpy")
def bench_points_nb(seed, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed, seat_harbor,
                    seat_anchor, seat_start, strat, sp, row, spacing, out_st, out_rng):
    """Decision points for the bench: games ``0, 1, ..`` of rollout row ``row`` in every seat; every
    ``spacing``-th turn with more than one legal play, the state after the roll and the
    game's stream are recorded, until ``out_st`` is full.  Returns the games played."""
    plays, reach, union, hits, ss = scratch_nb(P)
    pass_row, ev0, heat0 = ss[0], ss[12], ss[13]
    code = strat[strat.shape[0] - N_ROLLOUT_ROWS + row]
    w = sp[strat.shape[0] - N_ROLLOUT_ROWS + row]
    st = np.zeros(P.state_words, np.int32)
    rng = np.zeros(RNG_WORDS, np.uint64)
    got = 0
    g = 0
    while got < out_st.shape[0]:
        seed_game_nb(rng, seed, g)
        setup_nb(st, ev0, rng, P, seat_harbor, seat_anchor, seat_start, g)
        while st[G_END] < 0 and st[G_TURN] < P.turn_cap and got < out_st.shape[0]:
            st[G_TURN] += 1
            n = begin_turn_nb(st, ev0, rng, P, nb, kind, is_anchor, seat_allowed, plays)
            if n > 1 and st[G_TURN] % spacing == 0:
                out_st[got] = st
                out_rng[got] = rng[:RNG_WORDS]
                got += 1
            if n == 0:
                finish_turn_nb(st, ev0, P, nb, kind, pass_row[0], heat0)
            else:
                k = policy_nb(st, rng, P, nb, kind, seat_allowed, dist, dist_island, seat_home, code, w, st[G_SEAT],
                              plays, n, reach, union, hits)
                finish_turn_nb(st, ev0, P, nb, kind, plays[k], heat0)
        g += 1
    return g


@njit(cache=True, error_model="numpy")
def bench_search_nb(points_st, points_rng, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed, strat,
                    sp, entry, out_rollouts):
    """The search decision (entry ``entry``'s parameters) at every point; rollouts per point
    into ``out_rollouts``; returns the turns played in all rollouts."""
    turns = 0
    plays, reach, union, hits, ss = scratch_nb(P)
    st = np.zeros(P.state_words, np.int32)
    for i in range(points_st.shape[0]):
        st[:] = points_st[i]
        seat = st[G_SEAT]
        st[sb_nb(seat) + S_ENTRY] = entry
        roll = st[G_ROLL]
        n = gen_plays_nb(st, P, nb, kind, is_anchor, seat_allowed, seat, roll // 8, roll % 8, plays)
        _k, r, t = search_nb(st, points_rng[i], P, nb, kind, is_anchor, seat_allowed, dist, dist_island,
                             seat_home, strat, sp, seat, plays, n, reach, union, hits, ss)
        out_rollouts[i] = r
        turns += t
    return turns


@njit(cache=True, error_model="numpy")
def bench_playout_nb(points_st, points_rng, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed, strat,
                     sp, row, reward, rollouts):
    """Plain games of rollout row ``row`` from the same points, as many as the search played there
    (the same derived streams, no merging, prior or halving); returns (summed reward, turns
    played)."""
    plays, reach, union, hits, ss = scratch_nb(P)
    pass_row, st2, plays2, rng2, ev0, heat0 = ss[0], ss[1], ss[2], ss[3], ss[12], ss[13]
    code = strat[strat.shape[0] - N_ROLLOUT_ROWS + row]
    w = sp[strat.shape[0] - N_ROLLOUT_ROWS + row]
    st = np.zeros(P.state_words, np.int32)
    total = 0.0
    turns = 0
    for i in range(points_st.shape[0]):
        st[:] = points_st[i]
        seat = st[G_SEAT]
        roll = st[G_ROLL]
        n = gen_plays_nb(st, P, nb, kind, is_anchor, seat_allowed, seat, roll // 8, roll % 8, plays)
        for j in range(rollouts[i]):
            st2[:] = st
            derive_stream_nb(rng2, points_rng[i], st[G_TURN], j)
            k = policy_nb(st2, rng2, P, nb, kind, seat_allowed, dist, dist_island, seat_home, code, w, seat, plays, n,
                          reach, union, hits)
            finish_turn_nb(st2, ev0, P, nb, kind, plays[k], heat0)
            playout_nb(st2, ev0, rng2, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed, code, w,
                       plays2, reach, union, hits, heat0, pass_row[0], P.turn_cap)
            total += reward_nb(st2, P, seat, reward)
            turns += st2[G_TURN] - st[G_TURN]
    return total, turns
