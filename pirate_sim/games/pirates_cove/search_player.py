"""What Pirate's Cove's ``search`` player knows of the game: the options of each searched decision,
the prior (the rollout strategy's own answer), the re-deal of what the deciding seat cannot know,
and the score of a finished or cut-off rollout.  The search itself (rollouts, sequential halving,
common random numbers) is the decision protocol's engine (``pirate_sim/engine_template.py``),
which reaches these through ``protocol.py``.

Searched decisions (rules.DEC_*): the secret island (1-6), attack (0) or flee (1) at each own
turn of a fight after its first volley, Tavern cards to buy alone on the Tavern
(0..affordable), levels to buy alone on islands 2-5 (0..affordable), the Treasure Island
upgrade (none or an affordable section).  Everything else is the rollout strategy's (the entry
is stored as that strategy, see ``strategies.seat_tables``).

May import: ``policies``, ``rules``, ``ship`` of this game, ``pirate_sim.rng`` and
``pirate_sim.search``.
"""

from __future__ import annotations

from numba import njit

from ...rng import shuffle_nb
from ...search import REWARD_MARGIN, REWARD_RANK
from .policies import (FS_READY, choose_island_nb, decide_flee_nb, tavern_buys_nb, treasure_upgrade_nb,
                       upgrade_levels_nb)
from .rules import (DEC_BUY, DEC_FLEE, DEC_ISLAND, DEC_UPGRADE, F_POS, F_TURNS, FAME, G_CUR, G_DECK_N,
                    G_DISC_N, G_FIGHT, G_FREE, G_PHASE, G_ROUND, G_TDECK, G_TPERM, G_WINNER, MASTERCRAFT,
                    MAX_FAME_VALUE, MAX_TREASURE, N_CARD_ISLANDS, N_SECTIONS, PH_DONE, S_CHESTS, S_FAME,
                    S_FAME_CARDS, S_FAMEV, S_GOLD, S_HAND, S_SEC, TRELAWNEY)
from .ship import level_cost_nb, sb_nb

MAX_OPT = 16  # options of one decision (islands 6, levels up to MAX_LEVEL, ...)
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
