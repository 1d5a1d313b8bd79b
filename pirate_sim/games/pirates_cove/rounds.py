"""Pirate's Cove kernel, part 3: islands, Pirate's Cove, the black ships, the round, the
game's end (Fame cards, the final combat) and ``advance_nb``, the resumable loop every driver
plays (it stops at a search seat's pending decision).

One round: the black ships sail on (if they move at the start), the top Treasure card of
islands 1-5 turns up, every seat chooses an island from what it could know (all choices
are computed before any is revealed: a joint action), the choices are revealed, islands
1..6 resolve in order, Pirate's Cove repairs and consoles, unclaimed cards are discarded
and the black ships sail on (if they move at the end).

Conventions: ``actions.py``'s docstring.  May import: ``actions``, ``combat``, ``rules``,
``ship``, ``policies`` of this game and ``pirate_sim.rng``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...rng import dice_rolled_nb
from .actions import (SUB_FIGHT, SUB_SPEND, SUB_START, SUB_TAKE, alone_spend_nb, alone_take_nb, draw_card_nb,
                      forced_nb, has_forced_nb, log_nb, pend_nb, searches_nb, treasure_island_nb)
from .combat import FIGHT_PENDING, fight_nb, fight_run_nb, fight_start_nb
from .policies import FS_READY, choose_island_nb, cove_card_nb
from .rules import (B_CRIPPLED, B_ISLAND, B_LEGEND, B_SEC, COVE, DEC_FLEE, DEC_ISLAND, DEC_NONE, END_MOST_FAME,
                    END_TIE_COMBAT, END_TIE_UNRESOLVED, EV_BLACK, EV_CHOICE, EV_COVE, EV_END, EV_ROUND, EV_TIE,
                    G_ACTOR, G_CARD, G_CARD_LIVE, G_CHOICE, G_CONTESTED, G_CUR, G_DECK_N, G_DISC_N, G_END, G_FIRST,
                    G_N_BLACK, G_PEND, G_PHASE, G_ROUND, G_ROUND_LOG, G_SUB, G_SUPPLY_GOLD, G_TIE, G_TIE_DICE,
                    G_TIE_HITS, G_TIE_VOLLEYS, G_TPERM, G_VOLLEYS, G_WINNER, MAX_SEATS, MAX_TREASURE, MAX_UNITS,
                    N_CARD_ISLANDS, N_SECTIONS, PH_CHOOSE, PH_DONE, PH_END, PH_ISLAND, PH_START, PH_TI, S_COVE_CARDS,
                    S_COVE_GOLD, S_FAME, S_FAME_CARDS, S_F_CARDS, S_GOLD, S_HITS, S_SEC, S_VISITS, S_VOLLEYS, S_WHERE,
                    TREASURE_ISLAND)
from .ship import bb_nb, black_at_nb, sb_nb


# ------------------------------------------------------------------ islands and the round
@njit(cache=True)
def round_code_nb(ships, contested):
    """Per-round game column: 3 bits of player ships per island 1..6 (bits 3(i-1)..),
    then a contest flag per island (bit 18 + i - 1)."""
    c = 0
    for i in range(6):
        c |= min(ships[i], 7) << (3 * i)
        c |= contested[i] << (18 + i)
    return c


@njit(cache=True)
def island_step_nb(st, ev, rng, P, tr, strat, sp, island, wk):
    """Resolve ``island`` (1..5) from step G_SUB: alone, or a combat and its winner's
    action.  Returns a DEC_* kind if a search seat's decision is pending, else DEC_NONE."""
    if st[G_SUB] == SUB_START:
        units = wk[0:MAX_UNITS]
        n = 0
        for s in range(P.n_seats):
            if st[sb_nb(s) + S_WHERE] == island:
                units[n] = s
                n += 1
        if n == 0:
            return DEC_NONE
        bk = black_at_nb(st, island, True)
        if bk >= 0:
            units[n] = MAX_SEATS + bk
            n += 1
        if n == 1:
            st[G_ACTOR] = units[0]
            st[G_SUB] = SUB_TAKE
        else:
            st[G_CONTESTED] |= 1 << (island - 1)
            fight_start_nb(st, ev, rng, P, strat, sp, island, units, n, 0)
            st[G_SUB] = SUB_FIGHT
    if st[G_SUB] == SUB_FIGHT:
        w = fight_run_nb(st, ev, rng, P, strat, sp, 0)
        if w == FIGHT_PENDING:
            return DEC_FLEE
        if not 0 <= w < MAX_SEATS:
            return DEC_NONE
        st[G_ACTOR] = w
        st[G_SUB] = SUB_TAKE
    if st[G_SUB] == SUB_TAKE:
        alone_take_nb(st, ev, rng, P, st[G_ACTOR], island)
        st[G_SUB] = SUB_SPEND
    return alone_spend_nb(st, ev, rng, P, tr, strat, sp, st[G_ACTOR], island)


@njit(cache=True)
def cove_nb(st, ev, rng, P, strat, sp, s):
    """Pirate's Cove: crippled sections repaired, then a consolation (gold or a Tavern card)."""
    b = sb_nb(s)
    st[b + S_VISITS + COVE] += 1
    rep = 0
    for k in range(N_SECTIONS):
        if st[b + S_SEC + k] == 0:  # crippled (a damaged section that still floats stays as it is)
            rep |= 1 << k
            st[b + S_SEC + k] = P.repair_to
    card = cove_card_nb(st, rng, P, strat, sp, s)
    if card and (st[G_DECK_N] > 0 or st[G_DISC_N] > 0):
        draw_card_nb(st, ev, rng, P, s)
        st[b + S_COVE_CARDS] += 1
        log_nb(st, ev, s, EV_COVE, rep, 1, 0)
    else:
        g = min(P.cove_gold, st[G_SUPPLY_GOLD])
        st[G_SUPPLY_GOLD] -= g
        st[b + S_GOLD] += g
        st[b + S_COVE_GOLD] += g
        log_nb(st, ev, s, EV_COVE, rep, 0, g)


@njit(cache=True)
def restore_black_nb(st, P, legends, b):
    """A black ship's sections as printed on its card."""
    bb = bb_nb(b)
    lg = st[bb + B_LEGEND]
    for k in range(N_SECTIONS):
        if lg < 0:
            v = P.navy_hull if k == 0 else (P.navy_sails if k == 1 else (P.navy_cannons if k == 2 else P.navy_crew))
        else:
            v = legends[lg, k]
        st[bb + B_SEC + k] = v
    st[bb + B_CRIPPLED] = 0


@njit(cache=True)
def move_black_nb(st, ev, P, legends):
    """Every black ship sails to the next island (1 -> 2 -> ... -> 5 -> 1), repaired."""
    for b in range(st[G_N_BLACK]):
        bb = bb_nb(b)
        st[bb + B_ISLAND] = st[bb + B_ISLAND] % N_CARD_ISLANDS + 1
        restore_black_nb(st, P, legends, b)
        log_nb(st, ev, -1, EV_BLACK, b, st[bb + B_ISLAND], 0)


@njit(cache=True)
def begin_round_nb(st, ev, P, cards, legends):
    """The top Treasure cards turn up."""
    r = st[G_ROUND]
    for i in range(N_CARD_ISLANDS):
        idx = st[G_TPERM + i * MAX_TREASURE + r]
        for f in range(4):
            st[G_CARD + i * 4 + f] = cards[i, idx, f]
        st[G_CARD_LIVE + i] = 1
    log_nb(st, ev, -1, EV_ROUND, r + 1, 0, 0)


@njit(cache=True)
def reveal_nb(st, ev, P):
    """Every seat's secret island (G_PEND) is revealed at once."""
    for s in range(P.n_seats):
        i = st[G_PEND + s]
        st[G_CHOICE + s] = i
        b = sb_nb(s)
        st[b + S_WHERE] = i
        st[b + S_VISITS + i] += 1
        log_nb(st, ev, s, EV_CHOICE, i, 0, 0)
    st[G_CONTESTED] = 0


@njit(cache=True)
def end_round_nb(st, ev, rng, P, legends, strat, sp, wk):
    """Pirate's Cove, the round's log, unclaimed cards discarded, black ships sail on."""
    n = P.n_seats
    r = st[G_ROUND]
    for j in range(n):
        s = (st[G_FIRST] + j) % n
        if st[sb_nb(s) + S_WHERE] == COVE:
            cove_nb(st, ev, rng, P, strat, sp, s)
    ships = wk[16:22]
    contested = wk[24:30]
    for i in range(6):
        ships[i] = 0
        contested[i] = (st[G_CONTESTED] >> i) & 1
    for s in range(n):
        ships[st[G_CHOICE + s] - 1] += 1
    st[G_ROUND_LOG + r] = round_code_nb(ships, contested)
    for i in range(N_CARD_ISLANDS):
        st[G_CARD_LIVE + i] = 0  # unclaimed cards are discarded
    move_black_nb(st, ev, P, legends)
    st[G_ROUND] = r + 1


@njit(cache=True)
def advance_nb(st, ev, rng, P, tr, cards, legends, strat, sp, fs, wk, stop_round):
    """Play on from where the state stands (G_PHASE, G_CUR, G_SUB) until a search seat's
    decision is pending (returns its DEC_* kind; answer it in G_FORCED and call again),
    or the round ``stop_round`` is about to begin (returns DEC_NONE; ``stop_round`` >=
    rounds: the game is played to its end and scored).

    The round: its Treasure cards turn up; every seat chooses an island from what it could
    know, all before any is revealed (a joint action: a search seat's rollouts never see
    the others' real choices); the choices are revealed; islands 1..5 resolve in order,
    then Treasure Island in turn order, then Pirate's Cove; unclaimed cards are discarded
    and the black ships sail on."""
    n = P.n_seats
    while True:
        ph = st[G_PHASE]
        if ph == PH_START:
            if st[G_ROUND] >= stop_round:
                return DEC_NONE
            if st[G_ROUND] >= P.rounds:
                finish_nb(st, ev, rng, P, strat, sp, wk)
                st[G_PHASE] = PH_DONE
                return DEC_NONE
            begin_round_nb(st, ev, P, cards, legends)
            st[G_PHASE] = PH_CHOOSE
            st[G_CUR] = 0
            fs[FS_READY] = 0.0  # the public model is computed afresh for this round
        elif ph == PH_CHOOSE:
            s = st[G_CUR]
            if s < n:
                if has_forced_nb(st, DEC_ISLAND, s):
                    st[G_PEND + s] = forced_nb(st)
                elif searches_nb(st, sp, s):
                    return pend_nb(st, DEC_ISLAND, s)
                else:
                    st[G_PEND + s] = choose_island_nb(st, rng, P, tr, strat, sp, fs, s)
                st[G_CUR] = s + 1
            else:
                reveal_nb(st, ev, P)
                st[G_PHASE] = PH_ISLAND
                st[G_CUR] = 1
                st[G_SUB] = SUB_START
        elif ph == PH_ISLAND:
            island = st[G_CUR]
            if island >= TREASURE_ISLAND:
                st[G_PHASE] = PH_TI
                st[G_CUR] = 0
                st[G_SUB] = SUB_START
                continue
            d = island_step_nb(st, ev, rng, P, tr, strat, sp, island, wk)
            if d != DEC_NONE:
                return d
            st[G_CUR] = island + 1
            st[G_SUB] = SUB_START
        elif ph == PH_TI:
            j = st[G_CUR]
            if j >= n:
                st[G_PHASE] = PH_END
                continue
            s = (st[G_FIRST] + j) % n
            if st[sb_nb(s) + S_WHERE] == TREASURE_ISLAND:
                d = treasure_island_nb(st, ev, rng, P, tr, strat, sp, s)
                if d != DEC_NONE:
                    return d
            st[G_CUR] = j + 1
            st[G_SUB] = SUB_START
        elif ph == PH_END:
            end_round_nb(st, ev, rng, P, legends, strat, sp, wk)
            st[G_PHASE] = PH_START
        else:
            return DEC_NONE


@njit(cache=True)
def play_round_nb(st, ev, rng, P, tr, cards, legends, strat, sp, fs, wk):
    """One round of a table without a search seat."""
    st[G_PHASE] = PH_START
    advance_nb(st, ev, rng, P, tr, cards, legends, strat, sp, fs, wk, st[G_ROUND] + 1)


@njit(cache=True)
def rest_of_round_nb(st, ev, rng, P, tr, legends, strat, sp, fs, wk):
    """The round after its cards turned up, for tables without a search seat (tests):
    choose, reveal, resolve, Cove, black ships."""
    st[G_PHASE] = PH_CHOOSE
    st[G_CUR] = 0
    fs[FS_READY] = 0.0
    no_cards = np.zeros((0, 0, 4), np.int32)  # the next round's cards: never reached (stop_round)
    advance_nb(st, ev, rng, P, tr, no_cards, legends, strat, sp, fs, wk, st[G_ROUND] + 1)


# ------------------------------------------------------------------ the end
@njit(cache=True)
def finish_nb(st, ev, rng, P, strat, sp, wk):
    """Fame cards score; most fame wins; a tie is settled by a final combat."""
    n = P.n_seats
    best = -1
    for s in range(n):
        b = sb_nb(s)
        f = st[b + S_FAME_CARDS]
        st[b + S_F_CARDS] = f
        st[b + S_FAME] += f
        if st[b + S_FAME] > best:
            best = st[b + S_FAME]
    units = wk[0:MAX_UNITS]
    m = 0
    for s in range(n):
        if st[sb_nb(s) + S_FAME] == best:
            units[m] = s
            m += 1
    if m == 1:
        st[G_WINNER] = units[0]
        st[G_END] = END_MOST_FAME
    else:
        log_nb(st, ev, -1, EV_TIE, m, best, 0)
        keep = wk[32:32 + MAX_SEATS * N_SECTIONS]  # the tie-break costs nothing: levels restored
        for s in range(n):
            for k in range(N_SECTIONS):
                keep[s * N_SECTIONS + k] = st[sb_nb(s) + S_SEC + k]
        # its volleys, hits and dice are counted apart (G_TIE_*), not in the game's own
        # volleys / hits / dice_rolled, which count the 12 rounds' play as `fights` does
        v0 = st[G_VOLLEYS]
        d0 = dice_rolled_nb(rng)
        hv = wk[52:52 + MAX_SEATS]
        for s in range(n):
            hv[s] = st[sb_nb(s) + S_VOLLEYS] * 65536 + st[sb_nb(s) + S_HITS]
        w = fight_nb(st, ev, rng, P, strat, sp, 0, units, m, 1)
        st[G_TIE_VOLLEYS] = st[G_VOLLEYS] - v0
        st[G_VOLLEYS] = v0
        st[G_TIE_DICE] = dice_rolled_nb(rng) - d0
        for s in range(n):
            b = sb_nb(s)
            st[G_TIE_HITS] += st[b + S_HITS] - hv[s] % 65536
            st[b + S_VOLLEYS] = hv[s] // 65536
            st[b + S_HITS] = hv[s] % 65536
            for k in range(N_SECTIONS):
                st[b + S_SEC + k] = keep[s * N_SECTIONS + k]
        st[G_TIE] = 1
        st[G_WINNER] = w
        st[G_END] = END_TIE_COMBAT if w >= 0 else END_TIE_UNRESOLVED
    log_nb(st, ev, st[G_WINNER], EV_END, st[G_WINNER], st[G_END], best)
