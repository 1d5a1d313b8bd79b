"""The ``search`` player of Pirate's Cove (the drivers that play whole games with it: ``drivers.py``).

The rules kernel (``rounds.advance_nb``) plays on until a search seat's decision is
pending and stops there with the whole game in the state vector; ``search_decide_nb``
answers it and the driver (``drivers.play_one_game_nb``) calls ``advance_nb`` again.  Rollouts run the same
``advance_nb`` on copies of the state with the search switched off (``rsp``: the seat
tables with SP_SEARCH = 0), so the kernel never calls the search from inside itself.

Searched decisions (rules.DEC_*): the secret island (1-6), attack (0) or flee (1) at
each own turn of a fight after its first volley, Tavern cards to buy alone on the
Tavern (0..affordable), levels to buy alone on islands 2-5 (0..affordable), the Treasure
Island upgrade (none or an affordable section).  Everything else is the rollout
strategy's (the entry is stored as that strategy, see ``strategies.seat_tables``).

A rollout (``rollout_nb``): copy the state into the scratch ``rst``; derive its stream
from the game's (``pirate_sim.search.derive_stream_nb``: common random numbers across the
options, the game's stream not advanced); re-deal what the deciding seat cannot know
(``resample_nb``); every seat becomes the rollout strategy; at the island choice the
other seats choose again with the rollout strategy on public information (their real
choices of the round, already in G_PEND for the seats before, are overwritten unread);
the option is forced; play to the end (or ``horizon`` rounds) and score.

A search whose ``rollout`` is a strategy file or a learned player (user_kernel.py) has every
seat choose its islands in the rollouts by that function (``user_turn.user_island_nb``), its
other decisions by its ``base``.

May import: ``actions``, ``rounds``, ``policies``, ``rules``, ``ship``, ``user_turn`` of this
game, ``pirate_sim.rng`` and ``pirate_sim.search``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...rng import RNG_WORDS, shuffle_nb
from ...search import (H_INDEX, H_OPT, H_SIZE, REWARD_MARGIN, REWARD_RANK, derive_stream_nb, halving_best_nb,
                       halving_next_nb, halving_start_nb, top_k_nb)
from .actions import WK_SIZE, log_nb
from .policies import (FS_READY, FS_SIZE, SP_BUDGET, SP_HORIZON, SP_REWARD, SP_SEARCH, SP_TOP_K,
                       choose_island_nb, decide_flee_nb, tavern_buys_nb, treasure_upgrade_nb, upgrade_levels_nb)
from .rules import (DEC_BUY, DEC_FLEE, DEC_ISLAND, DEC_NONE, DEC_UPGRADE, EV_SEARCH, F_POS, F_TURNS,
                    FAME, FORCED_BIAS, G_CUR, G_DEC, G_DEC_SEAT, G_DECISIONS, G_DECK_N, G_DISC_N, G_FIGHT,
                    G_FORCED, G_FREE, G_PEND, G_PHASE, G_ROUND, G_TDECK, G_TPERM, G_WINNER, MASTERCRAFT,
                    MAX_FAME_VALUE, MAX_TAVERN, MAX_TREASURE, N_CARD_ISLANDS, N_SECTIONS, PH_DONE, S_CHESTS,
                    S_ENTRY, S_FAME, S_FAME_CARDS, S_FAMEV, S_GOLD, S_HAND, S_SEC, STATE_WORDS, TRELAWNEY)
from .ship import level_cost_nb, sb_nb
from .rounds import advance_nb
from .user_turn import MAX_OPTIONS, ROLLOUT_ERR, user_island_nb

MAX_OPT = MAX_OPTIONS  # options of one decision (islands 6, levels up to MAX_LEVEL, ...)
# integer scratch ``si``: options, their order, rollout counts, the Tavern pool
SI_OPTS = 0
SI_IDX = SI_OPTS + MAX_OPT
SI_COUNTS = SI_IDX + MAX_OPT
SI_POOL = SI_COUNTS + MAX_OPT
SI_SIZE = SI_POOL + MAX_TAVERN
# float scratch ``sf``: prior scores, rollout sums
SF_SCORES = 0
SF_SUMS = SF_SCORES + MAX_OPT
SF_SIZE = SF_SUMS + MAX_OPT
PRIOR_STREAM = 1 << 40  # the rollout index of the prior's own stream (never a rollout's)
MARGIN_WEIGHT = 0.01  # reward "margin": win + this x (own fame - best other's), a tie-breaker only


# ------------------------------------------------------------------ options and the prior
@njit(cache=True)
def options_nb(st, P, tr, kind, s, opts):
    """The legal options of seat ``s``'s pending decision ``kind`` into ``opts``; returns
    how many."""
    b = sb_nb(s)
    gold = st[b + S_GOLD]
    if kind == DEC_ISLAND:
        for i in range(6):
            opts[i] = i + 1
        return 6
    if kind == DEC_FLEE:
        opts[0] = 0
        opts[1] = 1
        return 2
    if kind == DEC_BUY:
        a = P.max_buys
        if P.price > 0 and gold // P.price < a:
            a = gold // P.price
        if st[G_DECK_N] + st[G_DISC_N] < a:
            a = st[G_DECK_N] + st[G_DISC_N]
        a = min(a, MAX_OPT - 1)
        for i in range(a + 1):
            opts[i] = i
        return a + 1
    if kind == DEC_UPGRADE:
        k = st[G_CUR] - 2
        free = st[G_FREE]
        lvl = st[b + S_SEC + k]
        n = 0
        spent = 0
        while n < MAX_OPT - 1:
            c = level_cost_nb(tr, k, lvl + n)
            if c < 0:
                break
            if n < free:
                c = 0
            if spent + c > gold:
                break
            spent += c
            n += 1
        for i in range(n + 1):
            opts[i] = i
        return n + 1
    # DEC_TI: no upgrade, or one affordable section
    opts[0] = -1
    m = 1
    for k in range(N_SECTIONS):
        c = level_cost_nb(tr, k, st[b + S_SEC + k])
        if c >= 0 and c * P.ti_factor <= gold:
            opts[m] = k
            m += 1
    return m


@njit(cache=True)
def prior_nb(st, prng, P, tr, strat, rsp, rfs, kind, s):
    """The rollout strategy's own answer to the pending decision (public information only)."""
    if kind == DEC_ISLAND:
        rfs[FS_READY] = 0.0
        return choose_island_nb(st, prng, P, tr, strat, rsp, rfs, s)
    if kind == DEC_FLEE:
        j = st[G_FIGHT + F_POS]
        return 1 if decide_flee_nb(st, prng, P, strat, rsp, s, st[G_FIGHT + F_TURNS + j] + 1) else 0
    if kind == DEC_BUY:
        return tavern_buys_nb(st, prng, P, strat, rsp, s)
    if kind == DEC_UPGRADE:
        return upgrade_levels_nb(st, prng, P, tr, strat, rsp, s, st[G_CUR] - 2, st[G_FREE])
    return treasure_upgrade_nb(st, prng, P, tr, strat, rsp, s)


# ------------------------------------------------------------------ determinisation
@njit(cache=True)
def _sort_nb(a, lo, hi):
    for i in range(lo + 1, hi):  # insertion sort: at most a few dozen items
        v = a[i]
        j = i - 1
        while j >= lo and a[j] > v:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = v


@njit(cache=True)
def resample_nb(st, rng, P, ncards, s, pool):
    """Re-deal, in place, everything seat ``s`` cannot know, consistently with what it has
    seen: the order of each island's unrevealed Treasure cards; the Tavern draw pile and
    the other seats' hands (their non-Parrot cards; Parrots act when drawn, so a held
    Parrot is public and stays), each seat keeping its number of cards.  The hidden
    multisets are sorted before the shuffle, so the result depends on what ``s`` knows and
    on ``rng`` only (the scrambling test in tests/test_pirates_cove_search.py)."""
    r = st[G_ROUND]
    for i in range(N_CARD_ISLANDS):  # cards 0..r have turned up (the current one is face up)
        lo = G_TPERM + i * MAX_TREASURE + r + 1
        hi = G_TPERM + i * MAX_TREASURE + ncards[i]
        if hi - lo > 1:
            _sort_nb(st, lo, hi)
            shuffle_nb(rng, st[lo:hi])
    m = 0
    nd = st[G_DECK_N]
    for i in range(nd):
        pool[m] = st[G_TDECK + i]
        m += 1
    for o in range(P.n_seats):
        if o == s:
            continue
        b = sb_nb(o)
        for t in range(MASTERCRAFT, FAME):
            for _ in range(st[b + S_HAND + t]):
                pool[m] = t
                m += 1
        for v in range(MAX_FAME_VALUE + 1):
            for _ in range(st[b + S_FAMEV + v]):
                pool[m] = FAME + 16 * v
                m += 1
    _sort_nb(pool, 0, m)
    shuffle_nb(rng, pool[:m])
    for o in range(P.n_seats):
        if o == s:
            continue
        b = sb_nb(o)
        need = st[b + S_HAND + FAME]
        for t in range(MASTERCRAFT, FAME):
            need += st[b + S_HAND + t]
            st[b + S_HAND + t] = 0
        st[b + S_HAND + FAME] = 0
        st[b + S_FAME_CARDS] = 0
        for v in range(MAX_FAME_VALUE + 1):
            st[b + S_FAMEV + v] = 0
        for i in range(m):
            if need == 0:
                break
            code = pool[i]
            if code < 0 or code % 16 <= TRELAWNEY:
                continue
            t = code % 16
            st[b + S_HAND + t] += 1
            if t == FAME:
                st[b + S_FAMEV + code // 16] += 1
                st[b + S_FAME_CARDS] += code // 16
            pool[i] = -1
            need -= 1
    k = 0
    for i in range(m):
        if pool[i] >= 0:
            st[G_TDECK + k] = pool[i]
            k += 1
    st[G_DECK_N] = k


# ------------------------------------------------------------------ rollouts
@njit(cache=True, inline="always")
def standing_nb(st, P, o, done):
    """Seat ``o``'s standing at a rollout's end, doubled so that the tie-break fits: its fame
    (at a horizon plus its Fame cards, its chests and its gold at the burying rate), +1 for
    the seat a finished game's tie-break named."""
    b = sb_nb(o)
    v = st[b + S_FAME]
    if not done:
        v += st[b + S_FAME_CARDS] + st[b + S_CHESTS] * P.chest_fame + st[b + S_GOLD] // P.gold_per_fame
    v *= 2
    if done and st[G_WINNER] == o:
        v += 1  # the tie-break's winner ranks above the seats it beat
    return v


@njit(cache=True)
def score_nb(st, P, s, reward):
    """What a finished (or stopped, at a horizon) rollout is worth to seat ``s``: win (1,
    shared among seats left level by an unresolved tie), rank (1 first .. 0 last) or margin
    (win + MARGIN_WEIGHT x fame margin).  At a horizon the score of a seat is its fame so far
    plus its Fame cards, its chests and its gold at the burying rate, and the best wins."""
    n = P.n_seats
    done = st[G_PHASE] == PH_DONE
    best = -1 << 30
    best_other = -1 << 30
    mine = 0
    for o in range(n):
        v = standing_nb(st, P, o, done)
        if o == s:
            mine = v
        elif v > best_other:
            best_other = v
        if v > best:
            best = v
    level = 0
    below = 0
    for o in range(n):
        v = standing_nb(st, P, o, done)
        if v == best:
            level += 1
        if o != s and v < mine:
            below += 1
    if done and st[G_WINNER] >= 0:
        win = 1.0 if st[G_WINNER] == s else 0.0
    else:
        win = 1.0 / level if mine == best else 0.0
    if reward == REWARD_RANK:
        equal = 0
        for o in range(n):
            if o != s and standing_nb(st, P, o, done) == mine:
                equal += 1
        return (below + 0.5 * equal) / (n - 1)
    if reward == REWARD_MARGIN:
        return win + MARGIN_WEIGHT * (mine // 2 - best_other // 2)
    return win


@njit(cache=True)
def user_island_option_nb(st, rng, P, tr, s, f, params, calls, view, opts, urng, err, code):
    """Seat ``s``'s island as user function ``f`` chooses it (user_turn.user_island_nb), or -1
    if it answered an illegal index (recorded in ``err`` as ``code``, the first one only)."""
    n = options_nb(st, P, tr, DEC_ISLAND, s, opts)
    c = user_island_nb(st, rng, P, s, f, params, calls, view, opts, n, urng)
    if c < 0 or c >= n:
        if err[0] == 0:
            err[0] = code
            err[1] = st[G_ROUND] + 1
            err[2] = c
            err[3] = n
        return -1
    return opts[c]


@njit(cache=True)
def rollout_nb(st, rng, P, tr, cards, ncards, legends, strat, sp, rsp, kind, s, opt, decision, j, stop_round,
               reward, rst, rrng, rfs, rwk, ev0, pool, usr):
    """One rollout of option ``opt`` (see the module docstring); returns its reward.  A
    search whose rollout is a strategy file (``usr``'s ``ufn[n + e]`` >= 0) has every seat
    choose its islands by that function and take its other decisions as its entry's
    rollout strategy (``advance_nb`` with ``sp`` stops at each: the entry searches); an
    illegal answer is recorded in ``usr``'s ``err`` and the rollout scores 0.  ``usr`` None (a
    table without strategy files): numba prunes every branch that could call a function."""
    for i in range(STATE_WORDS):
        rst[i] = st[i]
    derive_stream_nb(rrng, rng, decision, j)
    resample_nb(rst, rrng, P, ncards, s, pool)
    e = rst[sb_nb(s) + S_ENTRY]
    for o in range(P.n_seats):
        rst[sb_nb(o) + S_ENTRY] = e  # every seat plays the rollout strategy (rsp: no search)
    f = -1  # the function the rollout plays (-1: its rollout strategy)
    if usr is not None:
        ufn, uparams, calls, view, uopts, urng, err = usr
        f = ufn[P.n_seats + e]
        fp = uparams[P.n_seats + e]
    code = ROLLOUT_ERR + f + 1
    rfs[FS_READY] = 0.0
    if kind == DEC_ISLAND:
        for o in range(P.n_seats):
            if o == s:
                continue
            if usr is None or f < 0:
                rst[G_PEND + o] = choose_island_nb(rst, rrng, P, tr, strat, rsp, rfs, o)
            else:
                x = user_island_option_nb(rst, rrng, P, tr, o, f, fp, calls, view, uopts, urng, err, code)
                if x < 0:
                    return 0.0
                rst[G_PEND + o] = x
        rst[G_PEND + s] = opt
        rst[G_CUR] = P.n_seats
        rst[G_DEC] = DEC_NONE
    else:
        rst[G_FORCED] = opt + FORCED_BIAS
    if usr is None or f < 0:
        advance_nb(rst, ev0, rrng, P, tr, cards, legends, strat, rsp, rfs, rwk, stop_round)
        return score_nb(rst, P, s, reward)
    while advance_nb(rst, ev0, rrng, P, tr, cards, legends, strat, sp, rfs, rwk, stop_round) != DEC_NONE:
        o = rst[G_DEC_SEAT]
        if rst[G_DEC] == DEC_ISLAND:
            x = user_island_option_nb(rst, rrng, P, tr, o, f, fp, calls, view, uopts, urng, err, code)
            if x < 0:
                return 0.0
            rst[G_FORCED] = x + FORCED_BIAS
        else:
            rst[G_FORCED] = prior_nb(rst, rrng, P, tr, strat, rsp, rfs, rst[G_DEC], o) + FORCED_BIAS
    return score_nb(rst, P, s, reward)


@njit(cache=True)
def search_decide_nb(st, ev, rng, P, tr, cards, ncards, legends, strat, sp, rsp, rst, rrng, rfs, rwk, ev0, si, sf,
                     usr):
    """Answer the pending decision of the state (G_DEC, G_DEC_SEAT) by search: write the
    chosen option into G_FORCED; returns the rollouts played.  ``usr``: the table's user
    arguments (None at a table without strategy files)."""
    kind = st[G_DEC]
    s = st[G_DEC_SEAT]
    e = st[sb_nb(s) + S_ENTRY]
    opts = si[SI_OPTS:SI_OPTS + MAX_OPT]
    idx = si[SI_IDX:SI_IDX + MAX_OPT]
    counts = si[SI_COUNTS:SI_COUNTS + MAX_OPT]
    pool = si[SI_POOL:SI_POOL + MAX_TAVERN]
    scores = sf[SF_SCORES:SF_SCORES + MAX_OPT]
    sums = sf[SF_SUMS:SF_SUMS + MAX_OPT]
    decision = st[G_DECISIONS]
    n = options_nb(st, P, tr, kind, s, opts)
    derive_stream_nb(rrng, rng, decision, PRIOR_STREAM)
    pick = prior_nb(st, rrng, P, tr, strat, rsp, rfs, kind, s)
    for i in range(n):
        scores[i] = 1.0 if opts[i] == pick else 0.0
        sums[i] = 0.0
        counts[i] = 0
    m = top_k_nb(scores, n, int(sp[e, SP_TOP_K]), idx)
    played = 0
    if m == 1:
        best = idx[0]
    else:
        reward = int(sp[e, SP_REWARD])
        hz = int(sp[e, SP_HORIZON])
        stop = P.rounds + 1 if hz <= 0 or st[G_ROUND] + hz >= P.rounds else st[G_ROUND] + hz
        h = np.empty(H_SIZE, np.int64)  # the search loop (pirate_sim.search: halving_*)
        halving_start_nb(h, m, int(sp[e, SP_BUDGET]))
        while halving_next_nb(h, idx, sums, counts):
            o = h[H_OPT]
            sums[o] += rollout_nb(st, rng, P, tr, cards, ncards, legends, strat, sp, rsp, kind, s, opts[o],
                                  decision, h[H_INDEX], stop, reward, rst, rrng, rfs, rwk, ev0, pool, usr)
            counts[o] += 1
            played += 1
        best = halving_best_nb(h, idx, sums, counts)
    st[G_FORCED] = opts[best] + FORCED_BIAS
    st[G_DECISIONS] = decision + 1
    log_nb(st, ev, s, EV_SEARCH, kind, opts[best], played)
    return played


# ------------------------------------------------------------------ the search's scratch
@njit(cache=True)
def rollout_tables_nb(sp):
    """The seat tables rollouts play with: the search switched off."""
    rsp = sp.copy()
    for i in range(rsp.shape[0]):
        rsp[i, SP_SEARCH] = 0.0
    return rsp


@njit(cache=True)
def new_scratch_nb():
    """(rst, rrng, rfs, rwk, ev0, si, sf): one thread's search scratch, allocated once."""
    return (np.zeros(STATE_WORDS, np.int32), np.zeros(RNG_WORDS, np.uint64), np.zeros(FS_SIZE, np.float64),
            np.zeros(WK_SIZE, np.int64), np.zeros((0, 6), np.int32), np.zeros(SI_SIZE, np.int64),
            np.zeros(SF_SIZE, np.float64))

