"""Ice Pirates kernel, part 6 of 7: what the search player knows of the game (the engine's search loop,
``pirate_sim/engine_template.py``, does the rest through ``protocol.py``): a paused choice's
options (``options_nb``, a strategy file's too), the rollout strategy's prior among them
(``prior_nb``), the re-deal of what the searching seat has not seen (``redeal_nb``) and what a
finished or cut-off game is worth to a seat (``reward_nb``).

Imports ``state``, ``board``, ``policies`` and ``play`` (and ``pirate_sim.search``); see ``state.py``
for the order of the kernel's modules.
"""

from __future__ import annotations

from numba import njit

from ...rng import rand_below_nb
from ...search import REWARD_MARGIN, REWARD_RANK, REWARD_WIN
from .rules import (C_CARD, C_COLOUR, C_MASK, C_REVEALED, C_WALLED, C_WRECK, G_ENTRY, G_TREASURE, G_WIND,
                    G_WINNER, N_CELLS, OPEN, PEND_DIR, PEND_FIGHT, PEND_RAID, S_CREW, S_POS, S_PROGRESS, S_UPG,
                    T_PEND, T_PMASK, T_PSTOP, WRECK)
from .state import BB_AROUND, FS_DIST, SP_CREW_RESERVE, SP_RAID_WORTHLESS, popcount_nb, sb_nb
from .policies import edge_cost_nb, plan_nb, raid_value_nb, search_nb
from .board import card_boards_nb
from .play import draw_mask_nb

MAX_OPTIONS = 8  # a direction choice: 6 directions + stop; a raid: no raid + 5 seats


@njit(cache=True, _nrt=False)
def options_nb(st, P, opts):
    """The options of the paused choice in ``st`` into ``opts`` (headings then -1 to stop;
    1 fight, 0 not; -1 no raid then seats); their number.  The search player's and a
    strategy file's one list of a choice's options."""
    kind = st[T_PEND]
    n = 0
    if kind == PEND_DIR:
        mask = st[T_PMASK]
        for d in range(6):
            if (mask >> d) & 1:
                opts[n] = d
                n += 1
        if st[T_PSTOP] == 1:
            opts[n] = -1
            n += 1
    elif kind == PEND_FIGHT:
        opts[0] = 1
        opts[1] = 0
        n = 2
    else:
        opts[0] = -1
        n = 1
        cand = st[T_PMASK]
        for o in range(P.n_seats):
            if (cand >> o) & 1:
                opts[n] = o
                n += 1
    return n


@njit(cache=True, _nrt=False)
def redeal_nb(rs, truth, rng, P, geo, cards):
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
