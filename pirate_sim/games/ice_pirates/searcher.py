"""Ice Pirates kernel, part 6 of 7: the search player (``search_game_nb`` and what it calls).

A searching seat's turn is replayed from its start after each of its searched choices,
with the choices made so far forced (T_FORCED), until it pauses at the next one (T_PEND)
or ends; the turn's locals (position, moves, ships passed, rams tried) are thus never
copied.  Each rollout copies the turn's start, re-deals what the seat has not seen
(determinise_nb), replays the turn with the option searched forced, and plays every seat
with the rollout strategy to the end (or the horizon).  Nothing here allocates per rollout.
Only scenarios with a ``search`` seat (and strategy files: ``user_kernel.py``) compile it.

A search whose ``rollout`` is a strategy file or a learned player plays every turn of its
rollouts as that function's turn (``user_turn.user_turn_nb``, the replay a real seat's turn
with a file is); the plain kernels pass None for the user arguments.

Imports ``state``, ``board``, ``policies``, ``play``, ``user_turn`` (and ``pirate_sim.search``); see
``state.py`` for the order of the kernel's modules.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...search import (H_INDEX, H_OPT, H_SIZE, REWARD_MARGIN, REWARD_RANK, REWARD_WIN, derive_stream_nb,
                       halving_best_nb, halving_next_nb, halving_start_nb, top_k_nb)
from ...rng import RNG_WORDS, rand_below_nb
from .rules import (C_CARD, C_COLOUR, C_MASK, C_REVEALED, C_WALLED, C_WRECK, G_END,
                    G_ENTRY, G_SEAT, G_TREASURE, G_TURN, G_WIND, G_WINNER, MAX_FORCED, N_BAY,
                    N_CELLS, OPEN, PEND_DIR, PEND_RAID, S_CREW, S_POS, S_PROGRESS, S_UPG, T_FORCED,
                    T_FPOS, T_FSEAT, T_NF, T_PAUSE, T_PEND, WRECK)
from .state import (BB_AROUND, FS_DIST, FS_KEY_TURN, FS_SIZE, OPP_MIX, OPP_POOL, SP_BUDGET, SP_CREW_RESERVE,
                    SP_HORIZON, SP_OPPONENTS, SP_RAID_WORTHLESS, SP_REWARD, SP_ROLLOUT, SP_SEARCH, SP_TOP_K,
                    popcount_nb, sb_nb)
from .policies import edge_cost_nb, plan_nb, raid_value_nb, search_nb
from .board import card_boards_nb
from .play import draw_mask_nb, setup_nb, turn_nb, write_outputs_nb
from .user_turn import (MAX_OPTIONS, ROLLOUT_ERR, end_replay_nb, options_nb, replay_turn_nb,
                        user_turn_nb)


@njit(cache=True, _nrt=False)
def determinise_nb(rs, truth, rng, P, geo, cards):
    """Re-deal, in ``rs``, the Bay cards face down in ``truth`` among those cells: the
    seat knows the multiset of face-down cards (the deck less what it has seen), not where
    each lies nor its iceberg sides.  The multiset is sorted before the shuffle, so the deal
    depends on ``rng`` and the multiset only; sides are drawn as setup_nb draws them, a
    face-down Shipwreck still has its Extra Crew.  The bitboards of card types are rebuilt;
    passage masks need nothing: a face-down card's icebergs block nothing yet."""
    n = 0
    for c in range(N_CELLS):
        if geo[c, 7] == 1 and truth[C_REVEALED + c] == 0:
            card = truth[C_CARD + c]
            sides = popcount_nb(truth[C_MASK + c]) if card == OPEN else 0
            cards[n] = (card * 8 + truth[C_COLOUR + c] + 1) * 8 + sides
            n += 1
    for i in range(1, n):  # insertion sort: at most 30 cards
        x = cards[i]
        j = i - 1
        while j >= 0 and cards[j] > x:
            cards[j + 1] = cards[j]
            j -= 1
        cards[j + 1] = x
    for i in range(n - 1, 0, -1):
        j = rand_below_nb(rng, i + 1)
        x = cards[i]
        cards[i] = cards[j]
        cards[j] = x
    i = 0
    for c in range(N_CELLS):
        if geo[c, 7] == 1 and truth[C_REVEALED + c] == 0:
            key = cards[i]
            i += 1
            card = key // 64
            sides = key % 8
            rs[C_CARD + c] = card
            rs[C_COLOUR + c] = (key // 8) % 8 - 1
            rs[C_WRECK + c] = -1 if card == WRECK else -2
            rs[C_REVEALED + c] = 0
            rs[C_WALLED + c] = 0
            rs[C_MASK + c] = draw_mask_nb(rng, sides, P.two_adjacent)
    card_boards_nb(rs)


@njit(cache=True, _nrt=False)
def reward_nb(rs, P, s, kind):
    """What a rollout ending in ``rs`` is worth to seat ``s`` (search.REWARD_*).  A game not
    over (horizon or turn cap) counts the seats level on the best progress as tied."""
    w = rs[G_WINNER]
    mine = rs[sb_nb(s) + S_PROGRESS] + (10 if w == s else 0)
    below = 0
    level = 0
    best_other = -1
    for o in range(P.n_seats):
        if o == s:
            continue
        x = rs[sb_nb(o) + S_PROGRESS] + (10 if w == o else 0)
        if x < mine:
            below += 1
        elif x == mine:
            level += 1
        if x > best_other:
            best_other = x
    if w >= 0:
        win = 1.0 if w == s else 0.0
    else:
        win = 1.0 / (level + 1) if below + level == P.n_seats - 1 else 0.0
    if kind == REWARD_WIN:
        return win
    if kind == REWARD_RANK:
        return (below + 0.5 * level) / (P.n_seats - 1)
    if kind == REWARD_MARGIN:
        return win + 0.01 * (mine - best_other) / 14.0
    return win


@njit(cache=True)
def rollout_nb(st0, truth, rng0, P, geo, rel, cum_w, costs, rstrat, rsp, s, nf, opt, decision, j,
               horizon, reward, rs, rrng, rfs, ev0, cards, f, frow, usr):
    """One rollout of option ``opt`` of the seat's choice number ``nf`` of this turn.  With
    ``f`` >= 0 (a search that rolls out a strategy file or a learned player) every turn of
    the rollout, the rest of this one included, is user_turn.user_turn_nb of function ``f``
    (parameters: row ``frow`` of ``usr``'s ``uparams``; ``rsp`` then pauses at every seat's
    choices); an illegal answer is recorded in ``usr``'s ``err`` and the rollout scores 0.
    ``usr`` None (a table without strategy files): numba prunes every branch that could call
    a function."""
    rs[:] = st0
    derive_stream_nb(rrng, rng0, decision, j)
    determinise_nb(rs, truth, rrng, P, geo, cards)
    rs[T_FORCED + nf] = opt
    rfs[FS_KEY_TURN] = -1  # this rollout's own plans (the cache is keyed on turn and version)
    code = ROLLOUT_ERR + f + 1
    if usr is not None:  # (pruned at a table without strategy files, as every use below)
        _, uparams, calls, ust0, urng0, view, uopts, fopts, urng, err = usr
    if usr is not None and f >= 0:
        if not user_turn_nb(rs, ev0, rrng, P, geo, rel, cum_w, costs, rstrat, rsp, rfs, f, uparams[frow], calls, ust0,
                            urng0, view, uopts, fopts, urng, err, nf + 1, code):
            return 0.0
    else:
        rs[T_NF] = nf + 1
        rs[T_FPOS] = 0
        rs[T_FSEAT] = s
        rs[T_PAUSE] = 0
        rs[T_PEND] = 0
        turn_nb(rs, ev0, rrng, P, geo, rel, cum_w, costs, rstrat, rsp, rfs)
        rs[T_NF] = 0
    stop = rs[G_TURN] + horizon
    while rs[G_END] < 0 and (horizon == 0 or rs[G_TURN] < stop):
        if usr is None or f < 0 or rs[G_TURN] >= P.turn_cap:
            turn_nb(rs, ev0, rrng, P, geo, rel, cum_w, costs, rstrat, rsp, rfs)
        elif not user_turn_nb(rs, ev0, rrng, P, geo, rel, cum_w, costs, rstrat, rsp, rfs, f, uparams[frow], calls,
                              ust0, urng0, view, uopts, fopts, urng, err, 0, code):
            return 0.0
    return reward_nb(rs, P, s, reward)


@njit(cache=True)
def prior_nb(truth, st0, P, geo, rel, costs, strat, sp, s, opts, n, scores, pfs):
    """The rollout strategy's own preference among the options (higher is better): for a
    direction its planner's distance to its goal after the move, for a raid the raid's
    value (below not raiding when worthless); fight or not in that order."""
    kind = truth[T_PEND]
    for i in range(n):
        scores[i] = 0.0
    if kind == PEND_DIR:
        pos = truth[sb_nb(s) + S_POS]
        plan_nb(truth, P, geo, rel, costs, strat, sp, s, st0[G_TREASURE] == s, pfs)
        search_nb(pfs, BB_AROUND[pos])
        b = sb_nb(s)
        upg = truth[b + S_UPG]
        crew = truth[b + S_CREW]
        reserve = sp[truth[G_ENTRY + s], SP_CREW_RESERVE]
        wind = truth[G_WIND]
        for i in range(n):
            d = opts[i]
            if d < 0:
                scores[i] = -float(pfs[FS_DIST + pos]) - 1.0
                continue
            v = geo[pos, d]
            if v < 0 or (v == P.hg_cell and truth[G_TREASURE] == s):
                scores[i] = 1e9  # the move wins
                continue
            scores[i] = -float(edge_cost_nb(truth, rel, wind, upg, crew, reserve, d, v) + pfs[FS_DIST + v])
    elif kind == PEND_RAID:
        for i in range(n):
            o = opts[i]
            scores[i] = 0.5 if o < 0 else float(raid_value_nb(truth, P, s, o, sp[truth[G_ENTRY + s], SP_RAID_WORTHLESS] > 0))
    else:
        for i in range(n):
            scores[i] = float(n - i)


@njit(cache=True, inline="always")  # one caller (search_turn_nb): a call level less to link and compile
def search_choice_nb(truth, st0, rng0, P, geo, rel, cum_w, costs, strat, sp, rstrat, rsp, s, nf,
                     rs, rrng, rfs, pfs, ev0, cards, opts, scores, idx, sums, counts, tally, usr):
    """The searching seat's choice at the pause in ``truth`` (its turn began in ``st0``):
    the options its rules allow, the ``top_k`` best by the rollout strategy's prior, then
    sequential halving over ``budget`` rollouts with common random numbers (rollout j of
    every option draws from the same derived stream).  ``usr``: the table's user arguments
    (None without strategy files): row ``n + e`` of its ``ufn`` is the function the entry's
    rollouts play (-1: its rollout strategy)."""
    e = truth[G_ENTRY + s]
    f = -1
    if usr is not None:
        f = usr[0][P.n_seats + e]
    n = options_nb(truth, P, opts)
    if n == 1:
        return opts[0]
    prior_nb(truth, st0, P, geo, rel, costs, strat, sp, s, opts, n, scores, pfs)
    m = top_k_nb(scores, n, np.int64(sp[e, SP_TOP_K]), idx)
    if m == 1:
        return opts[idx[0]]
    horizon = np.int64(sp[e, SP_HORIZON])
    reward = np.int64(sp[e, SP_REWARD])
    decision = np.int64(st0[G_TURN]) * MAX_FORCED + nf
    for i in range(n):
        sums[i] = 0.0
        counts[i] = 0.0
    mix = sp[e, SP_OPPONENTS] == OPP_MIX
    ns = P.n_seats
    h = np.empty(H_SIZE, np.int64)  # the search loop (pirate_sim.search: halving_*)
    halving_start_nb(h, m, np.int64(sp[e, SP_BUDGET]))
    while halving_next_nb(h, idx, sums, counts):
        o = h[H_OPT]
        if mix:  # this rollout's model of the other seats (the same for every option: its index)
            row = ns + OPP_POOL[h[H_INDEX] % OPP_POOL.shape[0]]
            for i in range(ns):  # the rows are the seats' entries (G_ENTRY: they rotate), not the seats
                if i != e:
                    rstrat[i] = strat[row]
                    rsp[i, :] = sp[row, :]
        sums[o] += rollout_nb(st0, truth, rng0, P, geo, rel, cum_w, costs, rstrat, rsp, s, nf, opts[o],
                              decision, h[H_INDEX], horizon, reward, rs, rrng, rfs, ev0, cards, f, P.n_seats + e, usr)
        counts[o] += 1.0
        tally[0] += 1
    tally[1] += 1
    return opts[halving_best_nb(h, idx, sums, counts)]


@njit(cache=True)
def search_scratch_nb(st, rng, P, sp):
    """What a game with searching seats works in, allocated once per game (nothing is
    allocated per turn or rollout): (turn start, truth, rollout state, turn start's stream,
    rollout stream, rollout and prior plans, an empty log, the bay's cards, options, their
    indices, scores, sums, counts, the rollouts' strategy codes and rows)."""
    n = P.n_seats
    return (np.empty_like(st), np.empty_like(st), np.empty_like(st), np.empty_like(rng), np.zeros(RNG_WORDS, np.uint64),
            np.zeros(FS_SIZE, np.int64), np.zeros(FS_SIZE, np.int64), np.zeros((0, 6), np.int32),
            np.zeros(N_BAY, np.int64), np.zeros(MAX_OPTIONS, np.int64), np.zeros(MAX_OPTIONS, np.int64),
            np.zeros(MAX_OPTIONS, np.float64), np.zeros(MAX_OPTIONS, np.float64), np.zeros(MAX_OPTIONS, np.float64),
            np.zeros(n, np.int32), np.zeros((n, sp.shape[1]), np.float64))


@njit(cache=True)
def search_turn_nb(st, ev, rng, P, geo, rel, cum_w, costs, strat, sp, fs, s, e, tally, max_decisions, pts, pts_rng,
                   scr, usr):
    """Searching seat ``s`` (entry ``e``)'s turn: replayed from its start after each searched
    choice (see above).  False if ``max_decisions`` (search_bench; > 0) were reached, or an
    illegal answer of a rollout's strategy file (``usr``'s ``err``) ended the game."""
    st0, truth, rs, rng0, rrng, rfs, pfs, ev0, cards, opts, idx, scores, sums, counts, rstrat, rsp = scr
    n = P.n_seats
    rc = np.int64(sp[e, SP_ROLLOUT])
    file_rollout = False
    if usr is not None:
        file_rollout = usr[0][n + e] >= 0
    for i in range(n):  # inside rollouts every seat plays the rollout strategy's defaults
        rstrat[i] = strat[n + rc]
        rsp[i, :] = sp[n + rc, :]
        if file_rollout:  # or a strategy file, on them (forced_nb pauses at its choices)
            rsp[i, SP_SEARCH] = 1.0
    st0[:] = st
    rng0[:] = rng
    nf = 0
    while True:
        if not replay_turn_nb(st, ev, rng, P, geo, rel, cum_w, costs, strat, sp, fs, st0, rng0, s, nf):
            break
        truth[:] = st
        if max_decisions > 0:
            k = tally[1]
            if k >= max_decisions:
                return False
            pts[k, :] = st0
            pts_rng[k, :RNG_WORDS] = rng0[:RNG_WORDS]
        opt = search_choice_nb(truth, st0, rng0, P, geo, rel, cum_w, costs, strat, sp, rstrat, rsp, s, nf,
                               rs, rrng, rfs, pfs, ev0, cards, opts, scores, idx, sums, counts, tally, usr)
        if usr is not None and usr[9][0] != 0:  # an illegal answer inside a rollout: the game ends, truncated
            return end_replay_nb(st, True)
        st0[T_FORCED + nf] = opt
        nf += 1
    return end_replay_nb(st, False)


@njit(cache=True, inline="always")  # as search_choice_nb (callers: search_one_game_nb, the bench)
def search_game_nb(st, ev, rng, P, geo, rel, cum_w, costs, strat, sp, fs, tally, max_decisions,
                   pts, pts_rng):
    """Play the game on from ``st`` with searching seats (their sp SP_SEARCH > 0).  A
    searching seat's turn is replayed from its start after each searched choice (see
    above), so the game's own stream draws exactly what a turn of forced choices draws,
    and the search never advances it.  ``tally``: [rollouts, searched choices]; with
    ``max_decisions`` > 0 (search_bench) it stops after that many, storing each choice's
    turn start in ``pts`` / ``pts_rng``."""
    scr = search_scratch_nb(st, rng, P, sp)
    usr = None  # no strategy files (user_kernel.py passes them): numba prunes their branches
    while st[G_END] < 0:
        s = st[G_SEAT]
        e = st[G_ENTRY + s]
        if sp[e, SP_SEARCH] == 0 or st[G_TURN] >= P.turn_cap:
            turn_nb(st, ev, rng, P, geo, rel, cum_w, costs, strat, sp, fs)
        elif not search_turn_nb(st, ev, rng, P, geo, rel, cum_w, costs, strat, sp, fs, s, e, tally, max_decisions,
                                pts, pts_rng, scr, usr):
            return


@njit(cache=True)
def playouts_nb(pts, pts_rng, n_pts, reps, P, geo, rel, cum_w, costs, strat, sp, rollout_code):
    """Plain games of the rollout strategy from the stored turn starts (search_bench's
    like-for-like cost of a rollout without the search machinery); returns turns played."""
    n = P.n_seats
    rs = np.empty(pts.shape[1], np.int32)
    rrng = np.zeros(RNG_WORDS, np.uint64)
    rfs = np.zeros(FS_SIZE, np.int64)
    ev0 = np.zeros((0, 6), np.int32)
    rstrat = np.zeros(n, np.int32)
    rsp = np.zeros((n, sp.shape[1]), np.float64)
    for i in range(n):
        rstrat[i] = strat[n + rollout_code]
        rsp[i, :] = sp[n + rollout_code, :]
    turns = 0
    for k in range(n_pts):
        for j in range(reps):
            rs[:] = pts[k]
            derive_stream_nb(rrng, pts_rng[k], 1, j)
            rs[T_NF] = 0
            rs[T_PAUSE] = 0
            rfs[FS_KEY_TURN] = -1
            t0 = rs[G_TURN]
            while rs[G_END] < 0:
                turn_nb(rs, ev0, rrng, P, geo, rel, cum_w, costs, rstrat, rsp, rfs)
            turns += rs[G_TURN] - t0
    return turns


@njit(cache=True)
def search_one_game_nb(st, ev, rng, P, geo, rel, cum_w, costs, deck, port_upg, strat, sp, fs, perm,
                       out_g, out_s, game_index):
    """play_one_game_nb with searching seats (a kernel of its own, so that runs without a
    search player compile none of it)."""
    setup_nb(st, ev, rng, P, geo, cum_w, deck, port_upg, perm, game_index)
    fs[FS_KEY_TURN] = -1
    tally = np.zeros(2, np.int64)
    search_game_nb(st, ev, rng, P, geo, rel, cum_w, costs, strat, sp, fs, tally, 0,
                   np.zeros((0, 0), np.int32), np.zeros((0, 0), np.uint64))
    write_outputs_nb(st, rng, P, out_g, out_s)
