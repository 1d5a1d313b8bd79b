"""Pirate's Peak kernels, part 5: the search player (strategy "search", docs/search.md):
re-sampling, rollouts, the prior, successive halving, one game with searching seats, the
scratch arrays it works in, and the benchmark's and tests' search kernels.

Arguments ``sd`` (static table), ``rng`` (the game's stream) and ``w`` (work array), the
``_nrt=False`` and the plain-Python run: see kernel.py's docstring.

May import ``rules``, ``columns``, ``strategies``, ``board``, ``mechanics``, ``sea``, ``turn`` and
``whole_game`` (and ``pirate_sim/search.py``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...rng import RNG_WORDS, rand_below_nb
from ...seating import entry_of_seat_nb
from ...search import (H_INDEX, H_OPT, H_SIZE, REWARD_MARGIN, derive_stream_nb, halving_best_nb, halving_next_nb,
                       halving_start_nb, top_k_nb)
from .columns import N_GAME_COLS, N_SEAT_COLS
from .mechanics import end_game_nb
from .rules import (ACT_FIRE, ACT_SAIL, ACT_SEARCH, END_TRUNCATED, G_DECK_PTR, G_FIRST, G_N_DEC, G_OVER, G_PEAK_MASK,
                    G_PEAK_X, G_PEND, G_PEND_CODE, G_PEND_SEAT, G_TURNS, G_WINNER, N_SCRIPTED, PEND_DECLARE, PEND_NONE,
                    PEND_STOP, PEND_TREASURE, ROW_DECK, ROW_EV, ROW_SHIP, ROW_ST, RU_N_JOURNEY, RU_STRATEGY_SEATING,
                    SD_CODES, SD_RULES, SD_SP, SH_GOLD, SP_BUDGET, SP_HORIZON, SP_REWARD, SP_ROLLOUT,
                    SP_SEARCH, SP_TOP_K)
from .sea import sail_call_nb, sail_resume_nb, take_treasure_nb
from .strategies import policy_declare_nb, policy_stop_early_nb, policy_treasure_nb
from .turn import arrival_attempt_nb, scripted_declare_nb, threat_nb, turn_act_nb, turn_begin_nb
from .user_turn import (MAX_OPTIONS, ROLLOUT_ERR, declare_options_nb, no_user_nb, user_declare_nb,
                        user_play_rest_nb)
from .whole_game import (NO_LIMIT, finish_nb, game_tables_nb, more_turns_nb, play_rest_nb, setup_game_nb,
                         start_game_nb)


# ================================================================ the search player
# The search player (strategy "search", docs/search.md): at a searching seat's declaration,
# stop-early question or Peak treasure pick the game waits (G_PEND, the move's progress in
# G_MV_*), the player runs rollouts from copies of the work array with the unflipped Sea
# cards re-shuffled, and the game goes on with the option of the best mean reward.

# The rollout index of the prior's own stream (a random rollout strategy's choice): no
# rollout index reaches it (budgets stop at 2**20 rollouts per decision).
PRIOR_STREAM = 0x7FFFFFFF
# reward "margin": the win (1 / 0.5 / 0) plus this share of the gold lead over the total
# gold, (lead / (total + 1)): at most 0.1, a tie-breaker between options that win as often
MARGIN_WEIGHT = 0.1
CNT_HALVING = 3  # cnt[:3]: rollouts recorded, played, snapshots; cnt[3:]: the search loop's state


@njit(cache=True, inline="always", _nrt=False)
def mover_nb(w):
    """The seat whose turn it is (G_TURNS counts the turn being played)."""
    return w[ROW_ST, G_FIRST] ^ ((w[ROW_ST, G_TURNS] - 1) & 1)


@njit(cache=True, _nrt=False)
def resample_nb(sd, rng, w):
    """Re-deal what no seat has seen, the order of the unflipped Sea cards: sorted, then
    shuffled on ``rng`` (so the result depends on which cards are left, not their order).
    Nothing once the Peak is laid (no card is flipped after it)."""
    if w[ROW_ST, G_PEAK_X] >= 0:
        return
    n_deck = sd[SD_RULES, RU_N_JOURNEY] + 1
    lo = w[ROW_ST, G_DECK_PTR]
    for i in range(lo + 1, n_deck):
        v = w[ROW_DECK, i]
        j = i - 1
        while j >= lo and w[ROW_DECK, j] > v:
            w[ROW_DECK, j + 1] = w[ROW_DECK, j]
            j -= 1
        w[ROW_DECK, j + 1] = v
    for i in range(n_deck - 1, lo, -1):
        j = lo + rand_below_nb(rng, i - lo + 1)
        tmp = w[ROW_DECK, i]
        w[ROW_DECK, i] = w[ROW_DECK, j]
        w[ROW_DECK, j] = tmp


@njit(cache=True, _nrt=False)
def rollout_table_nb(sd, sd_roll, s):
    """Fill the seat rows of ``sd_roll`` (otherwise a copy of ``sd``) with seat s's rollout
    strategy at its default parameters, for both seats."""
    code = sd[SD_SP + s, SP_ROLLOUT]
    row = sd.shape[0] - N_SCRIPTED + code
    for seat in range(2):
        sd_roll[SD_CODES, seat] = code
        for i in range(sd.shape[1]):
            sd_roll[SD_SP + seat, i] = sd[row, i]


@njit(cache=True, _nrt=False)
def rollout_prepare_nb(sd, rng, w, dec, j, w2, rng2):
    """Rollout j of decision ``dec``: ``w2`` a copy of the game (its first rows: no events),
    ``rng2`` its derived stream, the unflipped Sea cards re-shuffled on it."""
    for r in range(w2.shape[0]):
        for i in range(w2.shape[1]):
            w2[r, i] = w[r, i]
    derive_stream_nb(rng2, rng, dec, j)
    resample_nb(sd, rng2, w2)


@njit(cache=True, _nrt=False)
def reward_nb(w, s, kind):
    """What the position is worth to seat s: 1 win, 0.5 tie or truncated, 0 loss (a game
    stopped at the horizon: by gold); ``kind`` REWARD_MARGIN adds MARGIN_WEIGHT x the gold
    lead / (total gold + 1).  With two seats the reward "rank" equals "win"."""
    gs = w[ROW_SHIP + s, SH_GOLD]
    go = w[ROW_SHIP + 1 - s, SH_GOLD]
    if w[ROW_ST, G_OVER] != 0:
        win = w[ROW_ST, G_WINNER]
        v = 1.0 if win == s else (0.0 if win == 1 - s else 0.5)
    else:
        v = 1.0 if gs > go else (0.0 if gs < go else 0.5)
    if kind == REWARD_MARGIN:
        v += MARGIN_WEIGHT * (gs - go) / (gs + go + 1.0)
    return v


@njit(cache=True, _nrt=False)
def rollout_play_nb(sd_roll, rng, w, s, kind, opt, horizon, reward, rf, ufn, uparams, calls, view, uopts, urng, err,
                    rent):
    """Play option ``opt`` of seat s's pending decision ``kind`` on the copy ``w``, then
    every seat by the rollout table to the end (or ``horizon`` turns); returns the reward.
    ``rf`` >= 0: the rollout's declarations are strategy file ``rf``'s (row ``rent`` of
    ``uparams``, user_turn.user_play_rest_nb), every other choice the rollout table's."""
    mover = mover_nb(w)
    w[ROW_ST, G_PEND] = PEND_NONE
    if kind == PEND_DECLARE:
        steps = turn_act_nb(sd_roll, rng, w, mover, opt)
    elif kind == PEND_STOP:
        sail_resume_nb(sd_roll, rng, w, mover, opt)
        steps = arrival_attempt_nb(sd_roll, rng, w, mover)
    else:
        take_treasure_nb(w, s, opt)
        steps = arrival_attempt_nb(sd_roll, rng, w, mover)
    while steps > 0:  # finish_move_nb with the move as a call (one inlined copy less)
        sail_call_nb(sd_roll, rng, w, mover, steps)
        steps = arrival_attempt_nb(sd_roll, rng, w, mover)
    last = NO_LIMIT if horizon <= 0 else w[ROW_ST, G_TURNS] + horizon
    if ufn is None or rf < 0:  # ufn None (no_user_nb): numba prunes the strategy-file branch below
        play_rest_nb(sd_roll, rng, w, 1 - mover, last)
    else:
        user_play_rest_nb(sd_roll, rng, w, 1 - mover, last, ufn, uparams, rent, calls, view, uopts, urng, err)
        if 0 < err[0] < ROLLOUT_ERR:  # an illegal answer inside a rollout (raise_errors says so)
            err[0] += ROLLOUT_ERR
    return reward_nb(w, s, reward)


@njit(cache=True, _nrt=False)
def prior_nb(sd_roll, rng, w, s, kind, n, opts):
    """The index in ``opts`` of the rollout strategy's own choice (0 if it is not there)."""
    c = 0
    if kind == PEND_DECLARE:
        can_search = 0
        can_fire = 0
        for i in range(n):
            if opts[i] == ACT_SEARCH:
                can_search = 1
            elif opts[i] == ACT_FIRE:
                can_fire = 1
        c = policy_declare_nb(sd_roll, rng, w, s, can_search, can_fire,
                              threat_nb(sd_roll, w, s, can_search))
    elif kind == PEND_STOP:
        c = 1 if policy_stop_early_nb(sd_roll, rng, w, s, w[ROW_ST, G_PEND_CODE]) else 0
    else:
        c = policy_treasure_nb(sd_roll, rng, w, s, w[ROW_ST, G_PEAK_MASK])
    for i in range(n):
        if opts[i] == c:
            return i
    return 0


@njit(cache=True, _nrt=False)
def search_decide_nb(sd, rng, w, s, kind, n, opts, sd_roll, w2, rng2, alive, sums, counts, scores,
                     rec, cnt, ufn, uparams, calls, view, uopts, urng, err, ent, rent):
    """Seat s's searched choice among ``opts[:n]`` at its pending decision ``kind``: the
    rollout strategy's favourite first (the prior), the ``top_k`` kept, ``budget``
    rollouts by sequential halving on common random numbers (rollout j of every option
    draws from the same derived stream).  Reads ``w`` and ``rng``, changes neither.
    ``rec`` (rollouts: option, index, reward; no row: not recorded) and ``cnt`` ([0]
    rollouts recorded, [1] rollouts played) are the benchmark's; ``cnt[CNT_HALVING:]`` holds
    the search loop (no allocation here).  The rollouts play a strategy file where the
    seat's entry (``ent[s]``) has one as its rollout (``ufn``'s second half; user_turn.py);
    an illegal answer there (``err``) ends the search.  Returns an index in opts."""
    rf = -1  # the rollout's strategy file (-1: none)
    if ufn is not None:  # (no_user_nb's None: numba compiles no strategy-file code)
        row = ufn.shape[0] // 2 + ent[s]  # the rollout's row of ufn / uparams
        rent[0] = row
        rent[1] = row
        rf = ufn[row]
    rollout_table_nb(sd, sd_roll, s)
    dec = w[ROW_ST, G_N_DEC]
    derive_stream_nb(rng2, rng, dec, PRIOR_STREAM)
    p = prior_nb(sd_roll, rng2, w, s, kind, n, opts)
    for i in range(n):
        scores[i] = 1.0 if i == p else 0.0
        sums[i] = 0.0
        counts[i] = 0.0
    m = top_k_nb(scores, n, sd[SD_SP + s, SP_TOP_K], alive)
    if m <= 1:
        return alive[0]
    horizon = sd[SD_SP + s, SP_HORIZON]
    reward = sd[SD_SP + s, SP_REWARD]
    h = cnt[CNT_HALVING:]  # the search loop's state (pirate_sim.search: halving_*)
    halving_start_nb(h, m, sd[SD_SP + s, SP_BUDGET])
    while halving_next_nb(h, alive, sums, counts):
        o = h[H_OPT]
        rollout_prepare_nb(sd, rng, w, dec, h[H_INDEX], w2, rng2)
        v = rollout_play_nb(sd_roll, rng2, w2, s, kind, opts[o], horizon, reward, rf, ufn, uparams, calls, view,
                            uopts, urng, err, rent)
        if err[0] != 0:
            return alive[0]
        sums[o] += v
        counts[o] += 1.0
        k = cnt[0]
        if k < rec.shape[0]:
            rec[k, 0] = o
            rec[k, 1] = h[H_INDEX]
            rec[k, 2] = v
            cnt[0] = k + 1
        cnt[1] += 1
    return halving_best_nb(h, alive, sums, counts)


@njit(cache=True, inline="always", _nrt=False)
def decide_nb(sd, rng, w, s, kind, n, opts, sd_roll, w2, rng2, alive, sums, counts, scores, rec, cnt,
              snap_w, snap_rng, snap_i, ufn, uparams, calls, view, uopts, urng, err, ent, rent):
    """A searching seat's decision in the real game: recorded as a snapshot for the
    benchmark (while ``snap_i`` has rows left), searched, counted; returns the option."""
    w[ROW_ST, G_PEND] = kind
    w[ROW_ST, G_PEND_SEAT] = s
    k = cnt[2]
    if k < snap_i.shape[0]:
        for r in range(snap_w.shape[1]):
            for i in range(snap_w.shape[2]):
                snap_w[k, r, i] = w[r, i]
        for i in range(snap_rng.shape[1]):
            snap_rng[k, i] = rng[i]
        snap_i[k, 0] = s
        snap_i[k, 1] = kind
        snap_i[k, 2] = n
        for i in range(n):
            snap_i[k, 3 + i] = opts[i]
        cnt[2] = k + 1
    o = search_decide_nb(sd, rng, w, s, kind, n, opts, sd_roll, w2, rng2, alive, sums, counts, scores,
                         rec, cnt, ufn, uparams, calls, view, uopts, urng, err, ent, rent)
    w[ROW_ST, G_N_DEC] += 1
    return opts[o]


@njit(cache=True)
def search_scratch_nb(sd, width, n_rec, n_snap):
    """(sd_roll, w2, rng2, opts, alive, sums, counts, scores, rec, cnt, snap_w, snap_rng, snap_i):
    the arrays :func:`play_search_game_nb` works in after its first eight (``n_rec`` rollouts
    and ``n_snap`` snapshots recorded: the benchmark's and tests' kernels; 0 in play)."""
    return (sd.copy(), np.zeros((ROW_EV, width), np.int32), np.zeros(RNG_WORDS, np.uint64),
            np.zeros(MAX_OPTIONS, np.int64), np.zeros(MAX_OPTIONS, np.int64), np.zeros(MAX_OPTIONS),
            np.zeros(MAX_OPTIONS), np.zeros(MAX_OPTIONS), np.zeros((n_rec, 3)), np.zeros(CNT_HALVING + H_SIZE, np.int64),
            np.zeros((n_snap, ROW_EV, width), np.int32), np.zeros((n_snap, RNG_WORDS), np.uint64),
            np.zeros((n_snap, 3 + MAX_OPTIONS), np.int32))


@njit(cache=True, inline="always", _nrt=False)
def search_declare_nb(sd, rng, w, cur, sd_roll, w2, rng2, opts, alive, sums, counts, scores, rec, cnt, snap_w,
                      snap_rng, snap_i, ufn, uparams, calls, view, uopts, urng, err, ent, rent):
    """A searching seat's declaration: its legal ones listed (sail; search, fire where it may),
    searched when there is more than one."""
    n = declare_options_nb(sd, w, cur, opts)
    act = ACT_SAIL
    if n > 1:
        act = decide_nb(sd, rng, w, cur, PEND_DECLARE, n, opts, sd_roll, w2, rng2, alive, sums,
                        counts, scores, rec, cnt, snap_w, snap_rng, snap_i, ufn, uparams, calls, view, uopts, urng, err, ent, rent)
        w[ROW_ST, G_PEND] = PEND_NONE
    return act


@njit(cache=True, _nrt=False)
def search_move_nb(sd, rng, w, cur, steps, sd_roll, w2, rng2, opts, alive, sums, counts, scores, rec, cnt, snap_w,
                   snap_rng, snap_i, ufn, uparams, calls, view, uopts, urng, err, ent, rent):
    """Seat ``cur``'s move of ``steps`` spaces after its action, then its arrival attempts, with
    every searching seat's question on the way (stop early, a Peak treasure) searched."""
    while steps > 0:
        sail_call_nb(sd, rng, w, cur, steps)
        while w[ROW_ST, G_PEND] != PEND_NONE:  # a searching seat's question paused the move
            kind = np.int64(w[ROW_ST, G_PEND])
            p = np.int64(w[ROW_ST, G_PEND_SEAT])  # int64 as cur: one compiled decide_nb
            if kind == PEND_STOP:
                opts[0] = 0
                opts[1] = 1
                ans = decide_nb(sd, rng, w, p, PEND_STOP, 2, opts, sd_roll, w2, rng2, alive, sums,
                                counts, scores, rec, cnt, snap_w, snap_rng, snap_i, ufn, uparams, calls, view, uopts, urng, err, ent, rent)
                sail_resume_nb(sd, rng, w, p, ans)  # may pause again further on
            else:
                n = 0
                for tr in range(1, 4):
                    if (w[ROW_ST, G_PEAK_MASK] >> tr) & 1 == 0:
                        opts[n] = tr
                        n += 1
                tr = opts[0]
                if n > 1:
                    tr = decide_nb(sd, rng, w, p, PEND_TREASURE, n, opts, sd_roll, w2, rng2, alive, sums,
                                   counts, scores, rec, cnt, snap_w, snap_rng, snap_i, ufn, uparams, calls, view, uopts, urng, err, ent, rent)
                w[ROW_ST, G_PEND] = PEND_NONE
                take_treasure_nb(w, p, tr)
        steps = arrival_attempt_nb(sd, rng, w, cur)


@njit(cache=True, _nrt=False)
def play_search_game_nb(sd, rng, w, deck_order, out_games, out_seats, k, game_index, sd_roll, w2, rng2,
                        opts, alive, sums, counts, scores, rec, cnt, snap_w, snap_rng, snap_i, ufn, uparams, calls, view, uopts, urng, err, ent, rent):
    """:func:`play_game_nb` for a table with a searching seat: the same turn, move and
    pick (the same kernels), with the searching seats' decisions taken by search
    (:func:`search_declare_nb`, :func:`search_move_nb`) and a strategy file's seat declaring
    by its function (user_turn.user_declare_nb; ``ufn[ent[s]]`` >= 0; user_kernel.py's
    tables).  A table without strategy files passes user_turn.no_user_nb's stand-ins.  An
    illegal answer of a function (``err``) ends the game truncated; the caller raises."""
    rotate = sd[SD_RULES, RU_STRATEGY_SEATING] != 0
    for q in range(2):
        ent[q] = entry_of_seat_nb(q, game_index, 2, rotate)
    cur = np.int64(setup_game_nb(sd, rng, w, deck_order, game_index))
    while more_turns_nb(sd, w, NO_LIMIT):
        if err[0] != 0:  # an illegal answer inside a rollout: the game ends there
            end_game_nb(w, END_TRUNCATED, -1)
            break
        steps = turn_begin_nb(sd, rng, w, cur)
        if steps < 0:
            if sd[SD_SP + cur, SP_SEARCH] != 0:
                act = search_declare_nb(sd, rng, w, cur, sd_roll, w2, rng2, opts, alive, sums, counts, scores, rec,
                                        cnt, snap_w, snap_rng, snap_i, ufn, uparams, calls, view, uopts, urng, err, ent, rent)
            elif ufn is not None and ufn[ent[cur]] >= 0:  # (pruned by numba at a table without files)
                act = user_declare_nb(sd, rng, w, cur, ufn[ent[cur]], uparams[ent[cur]], calls, view, uopts, urng, err)
                if act < 0:
                    break
            else:
                act = scripted_declare_nb(sd, rng, w, cur)
            steps = turn_act_nb(sd, rng, w, cur, act)
        search_move_nb(sd, rng, w, cur, steps, sd_roll, w2, rng2, opts, alive, sums, counts, scores, rec, cnt,
                       snap_w, snap_rng, snap_i, ufn, uparams, calls, view, uopts, urng, err, ent, rent)
        cur = 1 - cur
    finish_nb(rng, w, out_games, out_seats, k)


def searching(sd) -> bool:
    """Does a seat of this table search?"""
    return bool(sd[SD_SP, SP_SEARCH] != 0 or sd[SD_SP + 1, SP_SEARCH] != 0)


@njit(cache=True)
def search_collect_nb(sd, seed, n_snap, max_games):
    """Snapshots (work rows, game stream, [seat, kind, n, options...]) of the first
    ``n_snap`` searched decisions of games 0, 1, ... of a searching table (the benchmark's
    and the tests' decision points); returns them and the number of games played."""
    rng, w, sd_block, order = game_tables_nb(sd)
    out_g = np.zeros((1, N_GAME_COLS), dtype=np.int32)
    out_s = np.zeros((1, 2, N_SEAT_COLS), dtype=np.int32)
    (sd_roll, w2, rng2, opts, alive, sums, counts, scores, rec, cnt, snap_w, snap_rng,
     snap_i) = search_scratch_nb(sd, w.shape[1], 0, n_snap)
    ufn, uparams, calls, view, uopts, urng, err, ent, rent = no_user_nb(2)
    g = 0
    while cnt[2] < n_snap and g < max_games:
        start_game_nb(sd, sd_block, rng, seed, g, True)
        play_search_game_nb(sd_block, rng, w, order, out_g, out_s, 0, g, sd_roll, w2, rng2, opts, alive, sums,
                            counts, scores, rec, cnt, snap_w, snap_rng, snap_i, ufn, uparams, calls, view, uopts, urng, err, ent, rent)
        g += 1
    m = cnt[2]
    return snap_w[:m].copy(), snap_rng[:m].copy(), snap_i[:m].copy(), g


@njit(cache=True)
def decide_all_nb(sd, snap_w, snap_rng, snap_i, n_rec):
    """Search every snapshot's decision again (the benchmark's timed search); returns the
    chosen options, the rollouts (snapshot, option index, rollout index, reward: the
    first ``n_rec``) and the number of rollouts played."""
    m = snap_i.shape[0]
    (sd_roll, w2, rng2, opts, alive, sums, counts, scores, rec, cnt, _, _,
     _) = search_scratch_nb(sd, snap_w.shape[2], n_rec, 0)
    rec_snap = np.zeros(n_rec, dtype=np.int64)
    chosen = np.zeros(m, dtype=np.int64)
    ufn, uparams, calls, view, uopts, urng, err, ent, rent = no_user_nb(2)
    for i in range(m):
        n = np.int64(snap_i[i, 2])
        for k in range(n):
            opts[k] = snap_i[i, 3 + k]
        lo = cnt[0]
        o = search_decide_nb(sd, snap_rng[i], snap_w[i], np.int64(snap_i[i, 0]), np.int64(snap_i[i, 1]), n, opts,
                             sd_roll, w2, rng2, alive, sums, counts, scores, rec, cnt, ufn, uparams, calls, view, uopts, urng, err, ent, rent)
        chosen[i] = opts[o]
        for r in range(lo, cnt[0]):
            rec_snap[r] = i
    return chosen, rec[: cnt[0]].copy(), rec_snap[: cnt[0]].copy(), cnt[1]


@njit(cache=True)
def prepare_playouts_nb(sd, snap_w, snap_rng, rec, rec_snap, lo, hi, big_w, big_rng):
    """The copies and streams of rollouts lo..hi-1 exactly as the search prepared them
    (the benchmark's untimed part of a plain playout)."""
    for r in range(lo, hi):
        i = rec_snap[r]
        rollout_prepare_nb(sd, snap_rng[i], snap_w[i], snap_w[i, ROW_ST, G_N_DEC], np.int64(rec[r, 1]),
                           big_w[r - lo], big_rng[r - lo])


@njit(cache=True)
def playouts_nb(sd, snap_i, rec, rec_snap, lo, hi, big_w, big_rng):
    """Plain playouts of rollouts lo..hi-1 from their prepared copies: the option played,
    then the rollout strategy to the end, no copying, re-sampling or choosing; returns the
    sum of their rewards (equal to the search's own: the same games)."""
    sd_roll = sd.copy()
    ufn, uparams, calls, view, uopts, urng, err, ent, rent = no_user_nb(2)
    total = 0.0
    seat = -1
    for r in range(lo, hi):
        i = rec_snap[r]
        s = np.int64(snap_i[i, 0])
        if s != seat:
            rollout_table_nb(sd, sd_roll, s)
            seat = s
        opt = np.int64(snap_i[i, 3 + np.int64(rec[r, 0])])
        total += rollout_play_nb(sd_roll, big_rng[r - lo], big_w[r - lo], s, np.int64(snap_i[i, 1]), opt,
                                 sd[SD_SP + s, SP_HORIZON], sd[SD_SP + s, SP_REWARD], -1, ufn, uparams, calls, view,
                                 uopts, urng, err, rent)
    return total


def new_scratch(sd, width, n_rec=0, n_snap=0):
    """:func:`search_scratch_nb` and user_turn.no_user_nb's stand-ins from Python (a traced
    game, the tests): every argument of :func:`play_search_game_nb` after its first eight."""
    return (*search_scratch_nb(sd, np.int64(width), np.int64(n_rec), np.int64(n_snap)), *no_user_nb(2))
