"""Pirateer's kernel: the ``search`` player.  Rollouts (``playout_nb`` of a scripted strategy
on a derived stream, ``reward_nb``), the work before them (``search_prepare_nb``: merge plays that
leave the same position, take a win, the prior's ``top_k``) and ``search_nb``, sequential
halving over the kept plays (``pirate_sim/search.py``).  ``user_kernel.py`` calls the same
``search_nb`` with a strategy file as its ``usr`` argument (the file plays the rollouts).

May import ``rules``, ``state``, ``moves``, ``players``, ``turn`` and ``user_view``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...rng import RNG_WORDS
from ...search import (H_INDEX, H_OPT, H_SIZE, REWARD_RANK, REWARD_WIN, derive_stream_nb, halving_best_nb,
                       halving_next_nb, halving_start_nb, top_k_nb)
from .rules import (G_END, G_SEAT, G_TREASURE, G_TURN, G_WINNER, MAX_PLAYS, MAX_SHIPS, PLAY_WIDTH,
                    SHIPS_BASE, S_ENTRY, S_SHIPS)
from .state import (MARGIN_WEIGHT, N_ROLLOUT_ROWS, SP_BUDGET, SP_HORIZON, SP_PRIOR, SP_REWARD, SP_RISK, SP_ROLLOUT,
                    SP_TOP_K, ST_RANDOM, sb_nb)
from .moves import do_step_nb, undo_step_nb, walk_nb, wins_nb
from .players import compute_threat_nb, policy_nb, score_play_nb
from .turn import finish_turn_nb, start_turn_nb
from .user_view import ROLLOUT_ERR, USR_ERR, user_pick_nb


@njit(cache=True, error_model="numpy")
def playout_nb(st, ev, rng, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed, code, w,
               plays, reach, union, hits, heat, pass_row, limit, usr):
    """Play on with every seat the scripted player ``code`` (weights ``w``) until the game
    ends or ``limit`` turns are reached (the turn cap marks the game truncated).  ``usr``: None,
    or a strategy file every seat plays instead, (f, params, calls, view, opts, urng, err)
    (user_view.user_pick_nb's arguments); an illegal answer is kept in ``err`` (ROLLOUT_ERR + 1 +
    f, turn, answer, plays) and ends the playout.  numba prunes the file's branch where ``usr``
    is None, so a table without files compiles none of it."""
    while st[G_END] < 0:
        n = start_turn_nb(st, ev, rng, P, nb, kind, is_anchor, seat_allowed, plays, limit)
        if n < 0:
            return
        if n == 0:
            finish_turn_nb(st, ev, P, nb, kind, pass_row, heat)
            continue
        if usr is None:
            k = policy_nb(st, rng, P, nb, kind, seat_allowed, dist, dist_island, seat_home, code, w, st[G_SEAT],
                          plays, n, reach, union, hits)
        else:
            f, params, calls, view, opts, urng, err = usr
            k = user_pick_nb(st, P, f, params, plays, n, rng, calls, view, opts, urng, err, ROLLOUT_ERR + f + 1)
            if k < 0:
                return
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
               code, w, reward, limit, reach, union, hits, ss, usr):
    """Rollout ``j`` of a decision: a copy of the state, ``play`` made and the turn ended,
    then every seat plays ``code`` (or strategy file ``usr``: ``playout_nb``) on stream
    ``derive_stream_nb(game stream, decision, j)``."""
    pass_row, st2, plays2, rng2 = ss[0], ss[1], ss[2], ss[3]
    ev0, heat0 = ss[12], ss[13]
    st2[:] = st
    derive_stream_nb(rng2, rng, decision, j)
    finish_turn_nb(st2, ev0, P, nb, kind, play, heat0)
    playout_nb(st2, ev0, rng2, P, nb, kind, is_anchor, dist, dist_island, seat_home, seat_allowed, code, w, plays2,
               reach, union, hits, heat0, pass_row[0], limit, usr)
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
              reach, union, hits, ss, usr):
    """The search player's choice among the ``n`` legal plays: (index, rollouts played, turns
    played in them).  ``usr`` (None or a strategy file, as ``playout_nb``'s): what the rollouts
    play instead of the entry's ``rollout`` strategy; index -1 once a rollout's answer was
    illegal (its ``err`` set).

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
                              union, hits, ss, usr)
        if usr is not None and usr[USR_ERR][0] != 0:
            return -1, total, turns
        turns += st2[G_TURN] - decision
        counts[o] += 1
        total += 1
    return search_play_of_nb(ss, halving_best_nb(h, alive, sums, counts)), total, turns
