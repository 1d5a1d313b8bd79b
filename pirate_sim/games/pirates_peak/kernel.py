"""Pirate's Peak kernels: every mechanic, one turn, one game and the parallel chunk.

All state lives in small int32 arrays (layouts in rules.py) that a block of games
allocates once and reuses; a game is a pure function of its rng stream.  Every
function here is ``@njit(cache=True)`` and also runs as plain Python
(NUMBA_DISABLE_JIT=1) with identical results.

Common arguments: ``sd`` the int32 static table (rules, seats' strategy codes and policy
parameters, cards; layout in rules.py), ``rng`` the game's uint64 stream, ``w`` the int32
work array holding the game state, ships, seat counters, track, deck and (for traces)
the event log.  The rules NamedTuple is not passed: numba flattens every argument into
machine arguments (the 36-field NamedTuple plus four arrays made 74 per call), so each
call of a non-inlined kernel cost more than the work it did; three arrays make 25.
Every kernel but play_chunk_nb is compiled with ``_nrt=False``: with numba's reference
counting on, each call of a non-inlined kernel increfs and decrefs its three arrays (six
indirect calls and atomics per call); profiling put about half of a bulk run there.  No
kernel below play_chunk_nb allocates, so they need no NRT (play_chunk_nb owns the arrays).
numba's cache=True alone only notices edits of this file; pirate_sim/_cache.py keys the
cache folder by the digest of every package source, so an edit of strategies.py, rules.py
or board.py compiles afresh.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ...rng import RNG_WORDS, dice_rolled_nb, rand_below_nb, roll_die_nb, seed_game_nb
from ...search import (
    H_INDEX,
    H_OPT,
    H_SIZE,
    REWARD_MARGIN,
    derive_stream_nb,
    halving_best_nb,
    halving_next_nb,
    halving_start_nb,
    top_k_nb,
)
from ...seating import FP_RULE, entry_of_seat_nb, first_seat_nb
from .board import dock_progress_nb, phys_nb
from .rules import (
    ACT_FIRE,
    ACT_SAIL,
    ACT_SEARCH,
    C_BALLS,
    C_BALLS_BOUGHT,
    C_CASTAWAYS,
    C_CREW,
    C_CREW_BOUGHT,
    C_DOCKED_FIRST,
    C_FIGHT_GOLD,
    C_FINAL_GOLD,
    C_FOG_ESC,
    C_FOG_TURNS,
    C_GHOST_FIGHTS,
    C_GHOST_SUMMONS,
    C_GUSTS,
    C_HITS,
    C_INTERRUPTED,
    C_INTERRUPTS,
    C_ISLAND_STOPS,
    C_LIFE,
    C_LIFE_LOST,
    C_MERMAID,
    C_OVERSHOOTS,
    C_PEAK_ORDER,
    C_SEA_BANK_LOSS,
    C_SEARCH_GOLD,
    C_SEARCHES,
    C_SHIP_FIGHTS,
    C_SHORTCUTS,
    C_SHOTS,
    C_SKIPPED,
    C_SQUID_ATT,
    C_SQUID_ENC,
    C_SQUID_ESC,
    C_SQUID_INSTANT,
    C_SQUID_LIFE,
    C_SQUID_SAC,
    C_TREASURE,
    C_UNPAID,
    C_WHIRL_ATT,
    C_WHIRL_ENC,
    C_WHIRL_ESC,
    C_WHIRL_SPIT,
    CASTAWAY,
    END_MOST_GOLD,
    END_SUNK,
    END_TIE,
    END_TRUNCATED,
    EV_ADVANCE,
    EV_BUY,
    EV_CASTAWAY,
    EV_DECLARE,
    EV_DOCK,
    EV_END,
    EV_ENTER,
    EV_FIRE,
    EV_FIRST,
    EV_FLIP,
    EV_FOG,
    EV_GHOST_FIGHT,
    EV_GUST,
    EV_INTERRUPT,
    EV_LIFE,
    EV_MERMAID,
    EV_MOVE,
    EV_OVERSHOOT,
    EV_RETURN_PEAK,
    EV_ROLL,
    EV_SACRIFICE,
    EV_SEARCH,
    EV_SETUP,
    EV_SHIP_FIGHT,
    EV_SHORTCUT,
    EV_SKIP,
    EV_SQUID,
    EV_STOP_EARLY,
    EV_SUMMON,
    EV_TREASURE,
    EV_TURN,
    EV_WHIRLPOOL,
    EV_WIDTH,
    FOG,
    G_DECK_PTR,
    G_END,
    G_FIRST,
    G_FLIPPED,
    G_GHOST_X,
    G_ISLANDS,
    G_MV_D,
    G_MV_DPATH,
    G_MV_STEPS,
    G_MV_TAKEN,
    G_MV_X0,
    G_MV_XO,
    G_N_DEC,
    G_N_EV,
    G_N_LAID,
    G_OUT_CARDS,
    G_OVER,
    G_PEAK_ARRIVALS,
    G_PEAK_MASK,
    G_PEAK_X,
    G_PEND,
    G_PEND_CODE,
    G_PEND_SEAT,
    G_RESHUFFLES,
    G_SEA_BANK,
    G_SUPPLY,
    G_SUPPLY_DRY,
    G_TURNS,
    G_WINNER,
    GC_DICE,
    GC_OUT_CARDS,
    GC_RESHUFFLES,
    GC_SEA_BANK,
    GC_SUPPLY,
    GC_SUPPLY_DRY,
    GAME_COLUMNS,
    GOLDEN_CUTLASS,
    GUST,
    ISLAND,
    MERMAIDS,
    MIGHTY_SAIL,
    N_SEAT_COLS,
    N_SCRIPTED,
    OPEN,
    PEAK,
    PEND_DECLARE,
    PEND_NONE,
    PEND_STOP,
    PEND_TREASURE,
    ROW_CARD,
    ROW_CNT,
    ROW_DECK,
    ROW_EV,
    ROW_SHIP,
    ROW_ST,
    ROW_TRACK,
    RU_CANNON_RANGE,
    RU_CANNONBALL_PRICE,
    RU_CREW_SALE_PRICE,
    RU_CREWMAN_PRICE,
    RU_CUTLASS_BONUS,
    RU_DOCK_SPACES,
    RU_CASTAWAY_CREW_GAINED,
    RU_EXACT_DOCKING,
    RU_FIGHT_OVERTAKE,
    RU_GHOST_CREW,
    RU_GOLD_SUPPLY,
    RU_HIT_LIFE_LOSS,
    RU_INTERRUPT_LIFE_LOSS,
    RU_MERMAID_CREW_LOST,
    RU_PEAK_TAKEN_MASK,
    RU_SEARCH_GOLD_PER_CREWMAN,
    RU_SPIT_LIFE_LOSS,
    RU_SQUID_LOW_LIFE_LOSS,
    RU_SQUID_ON_ARRIVAL,
    RU_SQUID_SACRIFICE_CREW,
    RU_STEEL_CANNON_RANGE,
    RU_SUMMON_NEEDS_SECOND,
    RU_WHIRLPOOL_FIRE,
    RU_FIRST_PLAYER,
    RU_FOG_TOLERANCE,
    RU_GHOST_CREW_ROLL,
    RU_GHOST_SUMMON_FACE,
    RU_GUST_MULTIPLIER,
    RU_INTERRUPT_COSTS_TURN,
    RU_LIFE_POINTS,
    RU_MAX_CANNONBALLS,
    RU_MAX_CREW,
    RU_MIGHTY_SAIL_BONUS,
    RU_N_JOURNEY,
    RU_PARTIAL_MULTIPLIER,
    RU_PEAK_CARD,
    RU_PEAK_EARLIEST_FLIP,
    RU_SEARCH_MULTIPLIER,
    RU_SHORTCUT_SPACES,
    RU_SQUID_DICE,
    RU_SQUID_ESCAPE_TOTAL,
    RU_SQUID_INSTANT_MOVE,
    RU_SQUID_INSTANT_TOTAL,
    RU_SQUID_LIFE_LOSS_TOTAL,
    RU_SQUID_SACRIFICE_AFTER,
    RU_START_GOLD,
    RU_STRATEGY_SEATING,
    RU_TURN_CAP,
    RU_WHIRLPOOL_ESCAPE_MOVE,
    RU_WHIRLPOOL_ESCAPE_ROLL,
    RU_WHIRLPOOL_MAX_ATTEMPTS,
    RU_WHIRLPOOL_SPIT_SPACES,
    RU_WORK_WIDTH,
    SD_CARD0,
    SD_LEN,
    SD_CODES,
    SD_RULES,
    SD_SP,
    SH_BALLS,
    SH_CREW,
    SH_DIG_X,
    SH_DIGS,
    SH_DOCKED,
    SH_GOLD,
    SH_GUST,
    SH_LAST_SEARCH,
    SH_LIFE,
    SH_POS,
    SH_SHORTCUT,
    SH_SKIP,
    SH_T_GUST,
    SH_T_PREV_SEARCH,
    SH_T_SHORTCUT,
    SH_TRAP,
    SH_TRAP_COUNT,
    SH_TREASURE,
    SHORTCUT,
    NEVER,
    SP_CAUTION_LIFE,
    SP_FIRE_AT_SHIP,
    SP_FIRE_BEHIND,
    SP_FIRE_OPP_LIFE,
    SP_BUDGET,
    SP_HOLD_BEHIND,
    SP_HORIZON,
    SP_INTERRUPT,
    SP_REWARD,
    SP_ROLLOUT,
    SP_SEARCH,
    SP_TOP_K,
    SQUID,
    STEEL_CANNON,
    STRAT_RANDOM,
    TRAP_FOG,
    TRAP_NONE,
    TRAP_SQUID,
    TRAP_WHIRLPOOL,
    TREASURE_X,
    WHIRLPOOL,
)
from .strategies import (
    policy_buy_nb,
    policy_declare_nb,
    policy_fog_guess_nb,
    policy_interrupt_nb,
    policy_sacrifice_nb,
    policy_search_on_landing_nb,
    policy_shortcut_nb,
    policy_stop_early_nb,
    policy_summon_nb,
    policy_treasure_nb,
)

N_BLOCKS = 64


# ================================================================ mechanics (odds too)


@njit(cache=True, _nrt=False)
def squid_attempt_nb(rng, n_dice):
    """One attempt against the Giant Squid: the total of ``n_dice`` dice."""
    total = 0
    for _ in range(n_dice):
        total += roll_die_nb(rng, 6)
    return total


@njit(cache=True, _nrt=False)
def whirlpool_attempt_nb(rng, escape_roll):
    """One roll inside a whirlpool: (die, escaped)."""
    r = roll_die_nb(rng, 6)
    return r, r >= escape_roll


@njit(cache=True, _nrt=False)
def fog_attempt_nb(rng, guess, tolerance):
    """Roll in the fog after calling ``guess``: (die, within tolerance)."""
    r = roll_die_nb(rng, 6)
    return r, abs(r - guess) <= tolerance


@njit(cache=True, _nrt=False)
def interrupt_roll_nb(rng, partial_multiplier):
    """Searcher rolls, then attacker: (searcher, attacker, gold found, outcome).

    outcome 0: equal, no gold; 1: attacker higher, no gold and a life point; 2: partial.
    """
    s = roll_die_nb(rng, 6)
    a = roll_die_nb(rng, 6)
    if a == s:
        return s, a, 0, 0
    if a > s:
        return s, a, 0, 1
    return s, a, (s - a) * partial_multiplier, 2


@njit(cache=True, _nrt=False)
def ship_attack_roll_nb(rng):
    """Attacker rolls, then defender: (attacker, defender, hit) with hit on attacker > defender."""
    a = roll_die_nb(rng, 6)
    d = roll_die_nb(rng, 6)
    return a, d, a > d


# ================================================================ small helpers


@njit(cache=True, inline="always", _nrt=False)
def log_nb(w, code, seat, a, b, c, d):
    """Append one event row when the log has room (no event rows in bulk runs)."""
    n = w[ROW_ST, G_N_EV]
    if ROW_EV + n < w.shape[0]:
        r = ROW_EV + n
        w[r, 0] = code
        w[r, 1] = seat
        w[r, 2] = a
        w[r, 3] = b
        w[r, 4] = c
        w[r, 5] = d
        w[ROW_ST, G_N_EV] = n + 1


@njit(cache=True, _nrt=False)
def flip_nb(sd, rng, w):
    """Flip the next Sea card onto the end of the track (the Peak may not come too early)."""
    n_deck = sd[SD_RULES, RU_N_JOURNEY] + 1
    while True:
        ptr = w[ROW_ST, G_DECK_PTR]
        if ptr >= n_deck:
            return
        c = w[ROW_DECK, ptr]
        if (
            c == sd[SD_RULES, RU_PEAK_CARD]
            and w[ROW_ST, G_FLIPPED] + 1 < sd[SD_RULES, RU_PEAK_EARLIEST_FLIP]
        ):
            # rulebook: return it to the Sea Deck, shuffle, flip a new card
            w[ROW_ST, G_RESHUFFLES] += 1
            log_nb(w, EV_RETURN_PEAK, -1, w[ROW_ST, G_FLIPPED] + 1, 0, 0, 0)
            for i in range(n_deck - 1, ptr, -1):
                j = ptr + rand_below_nb(rng, i - ptr + 1)
                tmp = w[ROW_DECK, i]
                w[ROW_DECK, i] = w[ROW_DECK, j]
                w[ROW_DECK, j] = tmp
            continue
        w[ROW_ST, G_DECK_PTR] = ptr + 1
        w[ROW_ST, G_FLIPPED] += 1
        n = w[ROW_ST, G_N_LAID]
        length = sd[SD_CARD0 + c, SD_LEN]
        for k in range(length):
            w[ROW_TRACK, n + k] = sd[SD_CARD0 + c, k]
            w[ROW_CARD, n + k] = w[ROW_ST, G_FLIPPED]
            if sd[SD_CARD0 + c, k] == ISLAND:
                w[ROW_ST, G_ISLANDS] += 1
        w[ROW_ST, G_N_LAID] = n + length
        if c == sd[SD_RULES, RU_PEAK_CARD]:
            w[ROW_ST, G_PEAK_X] = n + length - 1
            w[ROW_ST, G_OUT_CARDS] = w[ROW_ST, G_FLIPPED] - 1
        log_nb(w, EV_FLIP, -1, c, w[ROW_ST, G_FLIPPED], n, length)
        return


@njit(cache=True, _nrt=False)
def ensure_laid_nb(sd, rng, w, d):
    """Flip cards until progress ``d`` lies on the table (only before the Peak is laid)."""
    while (
        w[ROW_ST, G_PEAK_X] < 0
        and d >= w[ROW_ST, G_N_LAID]
        and w[ROW_ST, G_DECK_PTR] <= sd[SD_RULES, RU_N_JOURNEY]
    ):
        flip_nb(sd, rng, w)


@njit(cache=True, inline="always", _nrt=False)
def end_game_nb(w, reason, winner):
    if w[ROW_ST, G_OVER] == 0:
        w[ROW_ST, G_OVER] = 1
        w[ROW_ST, G_END] = reason
        w[ROW_ST, G_WINNER] = winner
        log_nb(w, EV_END, -1, reason, winner, 0, 0)


@njit(cache=True, inline="always", _nrt=False)
def lose_life_nb(w, s, n):
    """``n`` life points lost (none: nothing happens); the last one loses the game at once."""
    if n <= 0:
        return
    lost = min(n, w[ROW_SHIP + s, SH_LIFE])
    w[ROW_SHIP + s, SH_LIFE] -= lost
    w[ROW_CNT + s, C_LIFE_LOST] += lost
    log_nb(w, EV_LIFE, s, w[ROW_SHIP + s, SH_LIFE], 0, 0, 0)
    if w[ROW_SHIP + s, SH_LIFE] <= 0:
        end_game_nb(w, END_SUNK, 1 - s)


@njit(cache=True, inline="always", _nrt=False)
def from_supply_nb(sd, w, s, amount):
    """Take up to ``amount`` gold out of the supply for seat s; returns what it held.

    The box holds ``gold.supply`` gold (RU_GOLD_SUPPLY: what is left after the starting
    gold; -1 unlimited); G_SUPPLY is its net take.  An empty supply pays what it has left:
    the rest is not paid (counted as unpaid_gold, and the turn it first ran dry)."""
    box = sd[SD_RULES, RU_GOLD_SUPPLY]
    paid = amount
    if box >= 0:
        paid = max(0, min(amount, box + w[ROW_ST, G_SUPPLY]))
        if paid < amount:
            w[ROW_CNT + s, C_UNPAID] += amount - paid
            if w[ROW_ST, G_SUPPLY_DRY] == 0:
                w[ROW_ST, G_SUPPLY_DRY] = max(1, w[ROW_ST, G_TURNS])
    w[ROW_ST, G_SUPPLY] -= paid
    return paid


@njit(cache=True, inline="always", _nrt=False)
def pay_nb(sd, w, s, amount):
    """Pay ``amount`` gold to seat s: from the Sea Bank while it has gold, then the supply
    (while it has gold).  Returns the gold paid."""
    from_bank = min(amount, w[ROW_ST, G_SEA_BANK])
    w[ROW_ST, G_SEA_BANK] -= from_bank
    paid = from_bank
    if amount > from_bank:
        paid += from_supply_nb(sd, w, s, amount - from_bank)
    w[ROW_SHIP + s, SH_GOLD] += paid
    return paid


@njit(cache=True, _nrt=False)
def buy_nb(sd, w, s, n_crew, n_balls):
    """Buy crewmen and cannonballs (clamped to room and gold); the gold goes to the supply."""
    nc = 0
    while (
        nc < n_crew
        and w[ROW_SHIP + s, SH_CREW] < sd[SD_RULES, RU_MAX_CREW]
        and w[ROW_SHIP + s, SH_GOLD] >= sd[SD_RULES, RU_CREWMAN_PRICE]
    ):
        w[ROW_SHIP + s, SH_CREW] += 1
        w[ROW_SHIP + s, SH_GOLD] -= sd[SD_RULES, RU_CREWMAN_PRICE]
        w[ROW_ST, G_SUPPLY] += sd[SD_RULES, RU_CREWMAN_PRICE]
        nc += 1
    nb = 0
    while (
        nb < n_balls
        and w[ROW_SHIP + s, SH_BALLS] < sd[SD_RULES, RU_MAX_CANNONBALLS]
        and w[ROW_SHIP + s, SH_GOLD] >= sd[SD_RULES, RU_CANNONBALL_PRICE]
    ):
        w[ROW_SHIP + s, SH_BALLS] += 1
        w[ROW_SHIP + s, SH_GOLD] -= sd[SD_RULES, RU_CANNONBALL_PRICE]
        w[ROW_ST, G_SUPPLY] += sd[SD_RULES, RU_CANNONBALL_PRICE]
        nb += 1
    w[ROW_CNT + s, C_CREW_BOUGHT] += nc
    w[ROW_CNT + s, C_BALLS_BOUGHT] += nb
    log_nb(w, EV_BUY, s, nc, nb, w[ROW_SHIP + s, SH_GOLD], 0)


@njit(cache=True, inline="always", _nrt=False)
def blocking_nb(sd, w, s, x, nd, landing):
    """Does the other ship stop seat s (about to enter progress nd, space x) for a fight?

    Ships cross paths when they meet head-on (one outward, one homeward); on the same leg
    the mover fights only if it would land on the other's spot (or, with fight.overtake,
    whenever it would pass it)."""
    o = 1 - s
    if w[ROW_SHIP + o, SH_DOCKED] != 0:
        return False
    do = w[ROW_SHIP + o, SH_POS]
    if phys_nb(w, do) != x:
        return False
    if x < sd[SD_RULES, RU_DOCK_SPACES]:
        return False  # the Starting Dock card: both ships start there
    c = w[ROW_TRACK, x]
    if c == ISLAND or c == WHIRLPOOL or c == PEAK:
        return False  # no attacks on islands, no fighting in a whirlpool, the Peak is wide
    if sd[SD_RULES, RU_FIGHT_OVERTAKE] == 0 and not landing:
        p = w[ROW_ST, G_PEAK_X]
        out_s = p < 0 or nd <= p
        out_o = p < 0 or do <= p
        if out_s == out_o:
            return False
    return True


@njit(cache=True, inline="always", _nrt=False)
def can_fire_nb(sd, w, a):
    """May seat ``a`` fire a cannonball at the other ship now?"""
    t = 1 - a
    if (
        w[ROW_SHIP + a, SH_BALLS] <= 0
        or w[ROW_SHIP + a, SH_DOCKED] != 0
        or w[ROW_SHIP + t, SH_DOCKED] != 0
    ):
        return False
    xa = phys_nb(w, w[ROW_SHIP + a, SH_POS])
    xt = phys_nb(w, w[ROW_SHIP + t, SH_POS])
    if xa < sd[SD_RULES, RU_DOCK_SPACES] or xt < sd[SD_RULES, RU_DOCK_SPACES]:
        return False  # the Starting Dock card protects both ways
    ca = w[ROW_TRACK, xa]
    ct = w[ROW_TRACK, xt]
    if ca == ISLAND or ct == ISLAND or ca == FOG or ct == FOG:
        return False
    if sd[SD_RULES, RU_WHIRLPOOL_FIRE] == 0 and (
        ca == WHIRLPOOL
        or ct == WHIRLPOOL
        or w[ROW_SHIP + a, SH_TRAP] == TRAP_WHIRLPOOL
        or w[ROW_SHIP + t, SH_TRAP] == TRAP_WHIRLPOOL
    ):
        return False
    if w[ROW_SHIP + a, SH_TRAP] == TRAP_FOG or w[ROW_SHIP + t, SH_TRAP] == TRAP_FOG:
        return False
    reach = sd[SD_RULES, RU_CANNON_RANGE]
    if w[ROW_SHIP + a, SH_TREASURE] == STEEL_CANNON:
        reach = sd[SD_RULES, RU_STEEL_CANNON_RANGE]
        if reach < 0:
            return True  # no range limit
    return abs(w[ROW_CARD, xa] - w[ROW_CARD, xt]) <= reach


@njit(cache=True, _nrt=False)
def peak_arrive_nb(sd, rng, w, s):
    """Stopping at Pirate's Peak: the first ship picks from three treasures, the second from two."""
    if w[ROW_CNT + s, C_PEAK_ORDER] != 0:
        return
    order = w[ROW_ST, G_PEAK_ARRIVALS] + 1
    w[ROW_ST, G_PEAK_ARRIVALS] = order
    w[ROW_CNT + s, C_PEAK_ORDER] = order
    t = 0
    if order <= 2 and (w[ROW_ST, G_PEAK_MASK] | 1) != 15:  # a treasure is left (bits 1..3)
        if sd[SD_SP + s, SP_SEARCH] != 0:
            # a searching seat picks once the move has unwound (nothing else happens in the
            # turn after a Peak arrival): the driver sees the pending pick, take_treasure_nb
            w[ROW_ST, G_PEND] = PEND_TREASURE
            w[ROW_ST, G_PEND_SEAT] = s
            return
        t = policy_treasure_nb(sd, rng, w, s, w[ROW_ST, G_PEAK_MASK])
    take_treasure_nb(w, s, t)


@njit(cache=True, _nrt=False)
def take_treasure_nb(w, s, t):
    """Seat s takes Peak treasure t (0: none was left for it)."""
    if t > 0:
        w[ROW_ST, G_PEAK_MASK] |= 1 << t
        w[ROW_SHIP + s, SH_TREASURE] = t
        w[ROW_CNT + s, C_TREASURE] = t
    log_nb(w, EV_TREASURE, s, t, w[ROW_CNT + s, C_PEAK_ORDER], 0, 0)


@njit(cache=True, inline="always", _nrt=False)
def enter_trap_nb(w, s, code, x):
    """Seat s is caught by the whirlpool, Giant Squid or fog at space x."""
    log_nb(w, EV_ENTER, s, code, x, 0, 0)
    w[ROW_SHIP + s, SH_TRAP_COUNT] = 0
    if code == WHIRLPOOL:
        w[ROW_SHIP + s, SH_TRAP] = TRAP_WHIRLPOOL
        w[ROW_CNT + s, C_WHIRL_ENC] += 1
    elif code == SQUID:
        w[ROW_SHIP + s, SH_TRAP] = TRAP_SQUID
        w[ROW_CNT + s, C_SQUID_ENC] += 1
    else:
        w[ROW_SHIP + s, SH_TRAP] = TRAP_FOG


@njit(cache=True, inline="always", _nrt=False)
def is_trap_code(code):
    return code == WHIRLPOOL or code == SQUID or code == FOG


@njit(cache=True, _nrt=False)
def advance_nb(sd, rng, w, win):
    """The fight's winner advances to the next open spot on its path.

    Its path skips bypassed islands; the other ship's spot is jumped over unless it is a
    trap (whirlpool, Giant Squid, fog) or the Peak, which are never passed: the winner
    stops there and the trap catches it.  No advance for a winner held by a trap (the
    trap holds it until it rolls its way out), nor onto or past the Ghost Ship (met on
    the next move), nor onto the dock (docking needs an exact roll)."""
    if w[ROW_SHIP + win, SH_TRAP] != TRAP_NONE:
        return
    d = w[ROW_SHIP + win, SH_POS]
    dock_d = dock_progress_nb(w)
    o = 1 - win
    xo = phys_nb(w, w[ROW_SHIP + o, SH_POS]) if w[ROW_SHIP + o, SH_DOCKED] == 0 else -1
    nd = d
    while True:
        nd += 1
        if nd >= dock_d:
            return
        ensure_laid_nb(sd, rng, w, nd)
        dock_d = dock_progress_nb(w)
        if nd >= dock_d:
            return
        x = phys_nb(w, nd)
        code = w[ROW_TRACK, x]
        if x == w[ROW_ST, G_GHOST_X]:
            return
        if code == ISLAND:
            continue  # not on the path unless a ship chooses to stop there
        if x == xo and not (is_trap_code(code) or code == PEAK):
            continue  # the other ship's spot: jump over it
        break
    x0 = phys_nb(w, d)
    w[ROW_SHIP + win, SH_POS] = nd
    log_nb(w, EV_ADVANCE, win, x0, x, nd, 0)
    if is_trap_code(code):
        enter_trap_nb(w, win, code, x)
    elif code == PEAK:
        peak_arrive_nb(sd, rng, w, win)


@njit(cache=True, _nrt=False)
def ship_fight_nb(sd, rng, w, a):
    """Collision of mover ``a`` with the other ship: crewman fights for gold, winner advances."""
    b = 1 - a
    ca = w[ROW_SHIP + a, SH_CREW]
    cb = w[ROW_SHIP + b, SH_CREW]
    cut_a = sd[SD_RULES, RU_CUTLASS_BONUS] if w[ROW_SHIP + a, SH_TREASURE] == GOLDEN_CUTLASS else 0
    cut_b = sd[SD_RULES, RU_CUTLASS_BONUS] if w[ROW_SHIP + b, SH_TREASURE] == GOLDEN_CUTLASS else 0
    net_a = 0
    m = min(ca, cb)
    for _ in range(m):
        ra = roll_die_nb(rng, 6) + cut_a  # the mover's crewman rolls first
        rb = roll_die_nb(rng, 6) + cut_b
        if ra > rb:
            t = min(ra - rb, w[ROW_SHIP + b, SH_GOLD])
            w[ROW_SHIP + b, SH_GOLD] -= t
            w[ROW_SHIP + a, SH_GOLD] += t
            net_a += t
        elif rb > ra:
            t = min(rb - ra, w[ROW_SHIP + a, SH_GOLD])
            w[ROW_SHIP + a, SH_GOLD] -= t
            w[ROW_SHIP + b, SH_GOLD] += t
            net_a -= t
    for _ in range(ca - m):  # unmatched crewmen steal what they roll
        t = min(roll_die_nb(rng, 6) + cut_a, w[ROW_SHIP + b, SH_GOLD])
        w[ROW_SHIP + b, SH_GOLD] -= t
        w[ROW_SHIP + a, SH_GOLD] += t
        net_a += t
    for _ in range(cb - m):
        t = min(roll_die_nb(rng, 6) + cut_b, w[ROW_SHIP + a, SH_GOLD])
        w[ROW_SHIP + a, SH_GOLD] -= t
        w[ROW_SHIP + b, SH_GOLD] += t
        net_a -= t
    w[ROW_CNT + a, C_SHIP_FIGHTS] += 1
    w[ROW_CNT + b, C_SHIP_FIGHTS] += 1
    w[ROW_CNT + a, C_FIGHT_GOLD] += net_a
    w[ROW_CNT + b, C_FIGHT_GOLD] -= net_a
    win = a if net_a >= 0 else b  # assumption: a drawn fight lets the mover through
    log_nb(w, EV_SHIP_FIGHT, a, net_a, -net_a, win, 0)
    advance_nb(sd, rng, w, win)


@njit(cache=True, _nrt=False)
def ghost_fight_nb(sd, rng, w, s):
    """Fight the Ghost Ship: as many ghost crew as ours, each always rolling ghost.crew_roll."""
    gx = w[ROW_ST, G_GHOST_X]
    w[ROW_ST, G_GHOST_X] = -1  # removed once fought
    cut = sd[SD_RULES, RU_CUTLASS_BONUS] if w[ROW_SHIP + s, SH_TREASURE] == GOLDEN_CUTLASS else 0
    net = 0
    crew = w[ROW_SHIP + s, SH_CREW]
    ghosts = crew if sd[SD_RULES, RU_GHOST_CREW] < 0 else sd[SD_RULES, RU_GHOST_CREW]
    g = sd[SD_RULES, RU_GHOST_CREW_ROLL]
    for i in range(max(crew, ghosts)):
        # paired crewmen win the difference; an unmatched one takes its roll (ship fight)
        r = roll_die_nb(rng, 6) + cut if i < crew else 0
        gi = g if i < ghosts else 0
        if r > gi:
            net += pay_nb(sd, w, s, r - gi)
        elif r < gi:
            loss = min(gi - r, w[ROW_SHIP + s, SH_GOLD])
            w[ROW_SHIP + s, SH_GOLD] -= loss
            w[ROW_ST, G_SEA_BANK] += loss
            w[ROW_CNT + s, C_SEA_BANK_LOSS] += loss
            net -= loss
    w[ROW_CNT + s, C_GHOST_FIGHTS] += 1
    log_nb(w, EV_GHOST_FIGHT, s, net, gx, 0, 0)
    if net >= 0:
        advance_nb(sd, rng, w, s)


@njit(cache=True, _nrt=False)
def search_nb(sd, rng, w, s):
    """Search the X under seat s; the opponent may fire to interrupt (searcher rolls first)."""
    o = 1 - s
    x = phys_nb(w, w[ROW_SHIP + s, SH_POS])
    # a non-random opponent interrupts only with SP_INTERRUPT (no dice drawn): test that first
    if (
        (sd[SD_CODES, o] == STRAT_RANDOM or sd[SD_SP + o, SP_INTERRUPT] > 0)
        and can_fire_nb(sd, w, o)
        and policy_interrupt_nb(sd, rng, w, o)
    ):
        w[ROW_SHIP + o, SH_BALLS] -= 1
        w[ROW_CNT + o, C_SHOTS] += 1
        w[ROW_CNT + o, C_INTERRUPTS] += 1
        w[ROW_CNT + s, C_INTERRUPTED] += 1
        if sd[SD_RULES, RU_INTERRUPT_COSTS_TURN] != 0:
            w[ROW_SHIP + o, SH_SKIP] = 1
        sr, ar, gold, outcome = interrupt_roll_nb(rng, sd[SD_RULES, RU_PARTIAL_MULTIPLIER])
        log_nb(w, EV_INTERRUPT, s, sr, ar, gold, outcome)
        if gold > 0:
            gold = pay_nb(sd, w, s, gold)
        if outcome == 1:
            w[ROW_CNT + o, C_HITS] += 1
            lose_life_nb(w, s, sd[SD_RULES, RU_INTERRUPT_LIFE_LOSS])
    else:
        r = roll_die_nb(rng, 6)
        gold = (
            sd[SD_RULES, RU_SEARCH_MULTIPLIER] * r
            + sd[SD_RULES, RU_SEARCH_GOLD_PER_CREWMAN] * w[ROW_SHIP + s, SH_CREW]
        )
        gold = pay_nb(sd, w, s, gold)
        log_nb(w, EV_SEARCH, s, r, gold, x, 0)
    w[ROW_CNT + s, C_SEARCHES] += 1
    w[ROW_CNT + s, C_SEARCH_GOLD] += gold
    w[ROW_SHIP + s, SH_LAST_SEARCH] = x
    if w[ROW_SHIP + s, SH_DIG_X] == x:
        w[ROW_SHIP + s, SH_DIGS] += 1
    else:
        w[ROW_SHIP + s, SH_DIG_X] = x
        w[ROW_SHIP + s, SH_DIGS] = 1


@njit(cache=True, _nrt=False)
def fire_nb(sd, rng, w, a):
    """Fire a cannonball at the other ship: attacker higher takes off a life point."""
    t = 1 - a
    w[ROW_SHIP + a, SH_BALLS] -= 1
    w[ROW_CNT + a, C_SHOTS] += 1
    ar, dr, hit = ship_attack_roll_nb(rng)
    log_nb(w, EV_FIRE, a, ar, dr, 1 if hit else 0, 0)
    if hit:
        w[ROW_CNT + a, C_HITS] += 1
        lose_life_nb(w, t, sd[SD_RULES, RU_HIT_LIFE_LOSS])


@njit(cache=True, _nrt=False)
def castaway_nb(sd, w, s):
    """The castaway joins (castaway.crew_gained crewmen, as many as there is room for)."""
    room = sd[SD_RULES, RU_MAX_CREW] - w[ROW_SHIP + s, SH_CREW]
    gain = min(sd[SD_RULES, RU_CASTAWAY_CREW_GAINED], room)
    if gain > 0:
        w[ROW_SHIP + s, SH_CREW] += gain
        w[ROW_CNT + s, C_CASTAWAYS] += 1
        log_nb(w, EV_CASTAWAY, s, w[ROW_SHIP + s, SH_CREW], 0, 0, 0)


@njit(cache=True, _nrt=False)
def island_stop_nb(sd, rng, w, s):
    w[ROW_CNT + s, C_ISLAND_STOPS] += 1
    nc, nb = policy_buy_nb(sd, rng, w, s, True)
    buy_nb(sd, w, s, nc, nb)


@njit(cache=True, _nrt=False)
def dock_nb(sd, w, s):
    """The first ship back docks: it sells its crewmen and the game is counted."""
    w[ROW_SHIP + s, SH_DOCKED] = 1
    w[ROW_CNT + s, C_DOCKED_FIRST] = 1
    sold = w[ROW_SHIP + s, SH_CREW]
    w[ROW_SHIP + s, SH_GOLD] += from_supply_nb(sd, w, s, sold * sd[SD_RULES, RU_CREW_SALE_PRICE])
    w[ROW_SHIP + s, SH_CREW] = 0
    log_nb(w, EV_DOCK, s, sold, w[ROW_SHIP + s, SH_GOLD], 0, 0)
    g0 = w[ROW_SHIP + 0, SH_GOLD]
    g1 = w[ROW_SHIP + 1, SH_GOLD]
    if g0 == g1:
        end_game_nb(w, END_TIE, -1)
    else:
        end_game_nb(w, END_MOST_GOLD, 0 if g0 > g1 else 1)


@njit(cache=True, inline="always", _nrt=False)
def can_fight_from_nb(w, d):
    """May a ship stopped at progress d fight there?  Not on an island ("can not attack
    or be attacked") nor in a whirlpool ("no fighting"): a collision that would stop a
    ship there does not happen, the ships pass."""
    c = w[ROW_TRACK, phys_nb(w, d)]
    return not (c == ISLAND or c == WHIRLPOOL)


@njit(cache=True, inline="always", _nrt=False)
def stop_at_nb(w, s, x0, d):
    """End seat s's move at progress d (the last space of its path before a collision)."""
    w[ROW_SHIP + s, SH_POS] = d
    log_nb(w, EV_MOVE, s, x0, phys_nb(w, d), d, w[ROW_TRACK, phys_nb(w, d)])


@njit(cache=True, inline="always", _nrt=False)
def sail_nb(sd, rng, w, s, steps):
    """Move seat s forward ``steps`` spaces, resolving every encounter on the way (a
    searching seat's move pauses at a stop-early question: :func:`sail_loop_nb`)."""
    d0 = w[ROW_SHIP + s, SH_POS]
    x0 = phys_nb(w, d0)
    if steps <= 0:
        return
    dock_d = dock_progress_nb(w)
    p = w[ROW_ST, G_PEAK_X]
    # docking needs the exact roll; bypassed islands do not count as spaces.  Only a
    # dock within steps + (islands laid) progress can be overshot: skip the scan otherwise
    if (
        p >= 0
        and d0 >= p
        and dock_d - d0 - w[ROW_ST, G_ISLANDS] < steps
        and sd[SD_RULES, RU_EXACT_DOCKING] != 0
    ):
        dist = 0
        dd = d0
        while dd < dock_d and dist <= steps:
            dd += 1
            if w[ROW_TRACK, phys_nb(w, dd)] != ISLAND:
                dist += 1
        if dd == dock_d and steps > dist:
            w[ROW_CNT + s, C_OVERSHOOTS] += 1
            log_nb(w, EV_OVERSHOOT, s, steps, dist, 0, 0)
            return
    # the other ship does not move during this move: only its space can block
    xo = phys_nb(w, w[ROW_SHIP + 1 - s, SH_POS])
    sail_loop_nb(sd, rng, w, s, steps, d0, d0, 0, x0, xo, -1)


@njit(cache=True, _nrt=False)
def sail_call_nb(sd, rng, w, s, steps):
    """:func:`sail_nb` as a call: the search player's paths (the bulk turn loop inlines it)."""
    sail_nb(sd, rng, w, s, steps)


@njit(cache=True, _nrt=False)
def sail_resume_nb(sd, rng, w, s, answer):
    """Resume seat s's move paused at a stop-early question with ``answer`` (1 stop, 0 sail
    on): the asking step is played again from its start (everything before the question in
    a step reads the state only, so it replays exactly) with the answer forced."""
    w[ROW_ST, G_PEND] = PEND_NONE
    sail_loop_nb(sd, rng, w, s, w[ROW_ST, G_MV_STEPS], w[ROW_ST, G_MV_D], w[ROW_ST, G_MV_DPATH],
                 w[ROW_ST, G_MV_TAKEN], w[ROW_ST, G_MV_X0], w[ROW_ST, G_MV_XO], answer)


@njit(cache=True, inline="always", _nrt=False)
def ask_stop_nb(sd, rng, w, s, code, force, steps, d, d_path, taken, x0, xo):
    """The stop-early question for the space ``code`` of the step starting at (d, d_path,
    taken): 1 stop, 0 sail on, -1 paused (a searching seat: the move waits in the state)."""
    if force >= 0:
        return force
    if sd[SD_SP + s, SP_SEARCH] != 0:
        w[ROW_ST, G_PEND] = PEND_STOP
        w[ROW_ST, G_PEND_SEAT] = s
        w[ROW_ST, G_PEND_CODE] = code
        w[ROW_ST, G_MV_STEPS] = steps
        w[ROW_ST, G_MV_D] = d
        w[ROW_ST, G_MV_DPATH] = d_path
        w[ROW_ST, G_MV_TAKEN] = taken
        w[ROW_ST, G_MV_X0] = x0
        w[ROW_ST, G_MV_XO] = xo
        return -1
    return 1 if policy_stop_early_nb(sd, rng, w, s, code) else 0


@njit(cache=True, inline="always", _nrt=False)
def sail_loop_nb(sd, rng, w, s, steps, d, d_path, taken, x0, xo, force):
    """The steps of a move from progress d (``d_path``: the last space of its path,
    ``taken``: steps counted); ``force`` >= 0 answers the first stop-early question."""
    dock_d = dock_progress_nb(w)
    while taken < steps:
        d_it = d  # the step's start, where a paused move resumes
        dp_it = d_path
        tk_it = taken
        nd = d + 1
        if w[ROW_ST, G_PEAK_X] < 0 and nd >= w[ROW_ST, G_N_LAID]:
            ensure_laid_nb(sd, rng, w, nd)
            dock_d = dock_progress_nb(w)
        x = phys_nb(w, nd)
        if w[ROW_ST, G_GHOST_X] == x and can_fight_from_nb(w, d_path):
            stop_at_nb(w, s, x0, d_path)
            ghost_fight_nb(sd, rng, w, s)
            return
        code = w[ROW_TRACK, x]
        # A move lands on the other ship's spot (a collision) when it would end there: by
        # its last step, a space that stops every ship (Giant Squid, fog), or a stop early
        # on an X or the castaway space.  That choice is asked once per space: here when
        # the other ship is on it, else further down.
        stop = -1  # -1: not asked yet, 0: sails on, 1: stops here
        if x == xo:
            landing = taken + 1 == steps or code == SQUID or code == FOG
            if not landing and (code == TREASURE_X or code == CASTAWAY):
                stop = ask_stop_nb(sd, rng, w, s, code, force, steps, d_it, dp_it, tk_it, x0, xo)
                if stop < 0:
                    return
                force = -1
                landing = stop == 1
            if blocking_nb(sd, w, s, x, nd, landing) and can_fight_from_nb(w, d_path):
                stop_at_nb(w, s, x0, d_path)
                ship_fight_nb(sd, rng, w, s)
                return
        d = nd
        if code == ISLAND:
            # stopping counts the island as a space; bypassing it costs nothing
            ans = ask_stop_nb(sd, rng, w, s, ISLAND, force, steps, d_it, dp_it, tk_it, x0, xo)
            if ans < 0:
                return
            force = -1
            if ans == 1:
                w[ROW_SHIP + s, SH_POS] = d
                log_nb(w, EV_MOVE, s, x0, x, d, code)
                island_stop_nb(sd, rng, w, s)
                return
            continue
        d_path = d
        taken += 1
        if code == PEAK:
            w[ROW_SHIP + s, SH_POS] = d
            log_nb(w, EV_MOVE, s, x0, x, d, code)
            peak_arrive_nb(sd, rng, w, s)
            return
        if d == dock_d:
            w[ROW_SHIP + s, SH_POS] = d
            log_nb(w, EV_MOVE, s, x0, x, d, code)
            dock_nb(sd, w, s)
            return
        if is_trap_code(code):
            w[ROW_SHIP + s, SH_POS] = d
            log_nb(w, EV_MOVE, s, x0, x, d, code)
            enter_trap_nb(w, s, code, x)
            return
        if taken == steps:
            w[ROW_SHIP + s, SH_POS] = d
            log_nb(w, EV_MOVE, s, x0, x, d, code)
            land_nb(sd, rng, w, s, code)
            return
        if (code == TREASURE_X or code == CASTAWAY) and stop == -1:
            stop = ask_stop_nb(sd, rng, w, s, code, force, steps, d_it, dp_it, tk_it, x0, xo)
            if stop < 0:
                return
            force = -1
        if (code == TREASURE_X or code == CASTAWAY) and stop == 1:
            w[ROW_SHIP + s, SH_POS] = d
            log_nb(w, EV_MOVE, s, x0, x, d, code)
            log_nb(w, EV_STOP_EARLY, s, code, x, 0, 0)
            if code == CASTAWAY:
                castaway_nb(sd, w, s)
            return
    w[ROW_SHIP + s, SH_POS] = d
    log_nb(w, EV_MOVE, s, x0, phys_nb(w, d), d, w[ROW_TRACK, phys_nb(w, d)])


@njit(cache=True, inline="always", _nrt=False)
def land_nb(sd, rng, w, s, code):
    """Effects of landing exactly on a space with the last step of a move."""
    if code == TREASURE_X:
        if policy_search_on_landing_nb(sd, rng, w, s):
            search_nb(sd, rng, w, s)
    elif code == MERMAIDS:
        lost = min(sd[SD_RULES, RU_MERMAID_CREW_LOST], w[ROW_SHIP + s, SH_CREW])
        if lost > 0:
            w[ROW_SHIP + s, SH_CREW] -= lost
            w[ROW_CNT + s, C_MERMAID] += lost
            log_nb(w, EV_MERMAID, s, w[ROW_SHIP + s, SH_CREW], 0, 0, 0)
    elif code == CASTAWAY:
        castaway_nb(sd, w, s)
    elif code == GUST:
        w[ROW_SHIP + s, SH_GUST] = 1
        w[ROW_CNT + s, C_GUSTS] += 1
        log_nb(w, EV_GUST, s, 0, 0, 0, 0)
    elif code == SHORTCUT:
        w[ROW_SHIP + s, SH_SHORTCUT] = 1
        log_nb(w, EV_SHORTCUT, s, 0, 0, 0, 0)


@njit(cache=True, inline="always", _nrt=False)
def can_summon_nb(sd, w, s):
    """Not from an island, a whirlpool, the squid space (rulebook), the dock or the Peak."""
    if w[ROW_SHIP + s, SH_TRAP] != TRAP_NONE:
        return False
    x = phys_nb(w, w[ROW_SHIP + s, SH_POS])
    if x < sd[SD_RULES, RU_DOCK_SPACES]:
        return False
    c = w[ROW_TRACK, x]
    return not (c == ISLAND or c == WHIRLPOOL or c == SQUID or c == PEAK or c == FOG)


# ================================================================ one turn


@njit(cache=True, _nrt=False)
def squid_turn_nb(sd, rng, w, s):
    """One attempt of seat s against the Giant Squid holding it (and the sacrifice offer).
    Returns the spaces the ship moves at once (the instant total), else 0."""
    total = squid_attempt_nb(rng, sd[SD_RULES, RU_SQUID_DICE])
    w[ROW_CNT + s, C_SQUID_ATT] += 1
    w[ROW_SHIP + s, SH_TRAP_COUNT] += 1
    if total >= sd[SD_RULES, RU_SQUID_INSTANT_TOTAL]:
        w[ROW_CNT + s, C_SQUID_ESC] += 1
        w[ROW_CNT + s, C_SQUID_INSTANT] += 1
        w[ROW_SHIP + s, SH_TRAP] = TRAP_NONE
        log_nb(w, EV_SQUID, s, total, w[ROW_SHIP + s, SH_TRAP_COUNT], 2, 0)
        return sd[SD_RULES, RU_SQUID_INSTANT_MOVE]
    elif total >= sd[SD_RULES, RU_SQUID_ESCAPE_TOTAL]:
        w[ROW_CNT + s, C_SQUID_ESC] += 1
        w[ROW_SHIP + s, SH_TRAP] = TRAP_NONE  # sails on next turn
        log_nb(w, EV_SQUID, s, total, w[ROW_SHIP + s, SH_TRAP_COUNT], 1, 0)
    else:
        low = total <= sd[SD_RULES, RU_SQUID_LIFE_LOSS_TOTAL]
        log_nb(w, EV_SQUID, s, total, w[ROW_SHIP + s, SH_TRAP_COUNT], 3 if low else 0, 0)
        if low:
            w[ROW_CNT + s, C_SQUID_LIFE] += min(
                sd[SD_RULES, RU_SQUID_LOW_LIFE_LOSS], w[ROW_SHIP + s, SH_LIFE]
            )
            lose_life_nb(w, s, sd[SD_RULES, RU_SQUID_LOW_LIFE_LOSS])
        if (
            w[ROW_ST, G_OVER] == 0
            and w[ROW_SHIP + s, SH_TRAP_COUNT] >= sd[SD_RULES, RU_SQUID_SACRIFICE_AFTER]
            and w[ROW_SHIP + s, SH_CREW] >= sd[SD_RULES, RU_SQUID_SACRIFICE_CREW]
            and policy_sacrifice_nb(sd, rng, w, s)
        ):
            w[ROW_SHIP + s, SH_CREW] -= sd[SD_RULES, RU_SQUID_SACRIFICE_CREW]
            w[ROW_CNT + s, C_SQUID_SAC] += 1
            w[ROW_SHIP + s, SH_TRAP] = TRAP_NONE  # moves ahead on its next turn
            log_nb(w, EV_SACRIFICE, s, w[ROW_SHIP + s, SH_CREW], 0, 0, 0)
    return 0


@njit(cache=True, inline="always", _nrt=False)
def arrival_attempt_nb(sd, rng, w, s):
    """With squid.first_attempt = arrival, a ship the squid caught during its own turn
    (no attempt made yet) makes its first attempt at once; returns the spaces to move."""
    if (
        sd[SD_RULES, RU_SQUID_ON_ARRIVAL] != 0
        and w[ROW_ST, G_OVER] == 0
        and w[ROW_SHIP + s, SH_TRAP] == TRAP_SQUID
        and w[ROW_SHIP + s, SH_TRAP_COUNT] == 0
    ):
        return squid_turn_nb(sd, rng, w, s)
    return 0


@njit(cache=True, inline="always", _nrt=False)
def turn_begin_nb(sd, rng, w, s):
    """Seat s's turn up to its declaration: a skipped turn or a trap attempt returns the
    spaces the ship then sails (0: none); -1: the ship declares (sail / search / fire)."""
    w[ROW_ST, G_TURNS] += 1
    log_nb(w, EV_TURN, s, w[ROW_ST, G_TURNS], 0, 0, 0)
    w[ROW_SHIP + s, SH_T_PREV_SEARCH] = w[ROW_SHIP + s, SH_LAST_SEARCH]
    w[ROW_SHIP + s, SH_LAST_SEARCH] = -1
    w[ROW_SHIP + s, SH_T_GUST] = w[ROW_SHIP + s, SH_GUST]
    w[ROW_SHIP + s, SH_GUST] = 0
    w[ROW_SHIP + s, SH_T_SHORTCUT] = w[ROW_SHIP + s, SH_SHORTCUT]
    w[ROW_SHIP + s, SH_SHORTCUT] = 0
    if w[ROW_SHIP + s, SH_SKIP] != 0:
        w[ROW_SHIP + s, SH_SKIP] = 0
        w[ROW_CNT + s, C_SKIPPED] += 1
        log_nb(w, EV_SKIP, s, 0, 0, 0, 0)
        return 0
    trap = w[ROW_SHIP + s, SH_TRAP]
    if trap == TRAP_WHIRLPOOL:
        r, esc = whirlpool_attempt_nb(rng, sd[SD_RULES, RU_WHIRLPOOL_ESCAPE_ROLL])
        w[ROW_CNT + s, C_WHIRL_ATT] += 1
        w[ROW_SHIP + s, SH_TRAP_COUNT] += 1
        log_nb(w, EV_WHIRLPOOL, s, r, w[ROW_SHIP + s, SH_TRAP_COUNT], 1 if esc else 0, 0)
        if esc:
            w[ROW_CNT + s, C_WHIRL_ESC] += 1
            w[ROW_SHIP + s, SH_TRAP] = TRAP_NONE
            w[ROW_SHIP + s, SH_TRAP_COUNT] = 0
            return sd[SD_RULES, RU_WHIRLPOOL_ESCAPE_MOVE]
        elif w[ROW_SHIP + s, SH_TRAP_COUNT] >= sd[SD_RULES, RU_WHIRLPOOL_MAX_ATTEMPTS]:
            w[ROW_CNT + s, C_WHIRL_SPIT] += 1
            w[ROW_SHIP + s, SH_TRAP] = TRAP_NONE
            w[ROW_SHIP + s, SH_TRAP_COUNT] = 0
            lose_life_nb(w, s, sd[SD_RULES, RU_SPIT_LIFE_LOSS])
            if w[ROW_ST, G_OVER] == 0:
                return sd[SD_RULES, RU_WHIRLPOOL_SPIT_SPACES]
        return 0
    if trap == TRAP_SQUID:
        return squid_turn_nb(sd, rng, w, s)
    if trap == TRAP_FOG:
        guess = policy_fog_guess_nb(sd, rng, w, s)
        r, ok = fog_attempt_nb(rng, guess, sd[SD_RULES, RU_FOG_TOLERANCE])
        w[ROW_CNT + s, C_FOG_TURNS] += 1
        log_nb(w, EV_FOG, s, guess, r, 1 if ok else 0, 0)
        if ok:
            w[ROW_CNT + s, C_FOG_ESC] += 1
            w[ROW_SHIP + s, SH_TRAP] = TRAP_NONE
            return r
        return 0
    return -1


@njit(cache=True, inline="always", _nrt=False)
def can_search_nb(w, s):
    """May seat s search this turn (on an X it did not search on its previous turn)?"""
    x = phys_nb(w, w[ROW_SHIP + s, SH_POS])
    return 1 if (w[ROW_TRACK, x] == TREASURE_X and x != w[ROW_SHIP + s, SH_T_PREV_SEARCH]) else 0


@njit(cache=True, inline="always", _nrt=False)
def threat_nb(sd, w, s, can_search):
    """Under fire: low on life with the opponent's cannon in range (a cautious ship's check)."""
    if can_search != 0 and w[ROW_SHIP + s, SH_LIFE] <= sd[SD_SP + s, SP_CAUTION_LIFE]:
        return 1 if can_fire_nb(sd, w, 1 - s) else 0
    return 0


@njit(cache=True, inline="always", _nrt=False)
def scripted_declare_nb(sd, rng, w, s):
    """Seat s's declaration by its strategy (``policy_declare_nb``)."""
    x = phys_nb(w, w[ROW_SHIP + s, SH_POS])
    can_search = can_search_nb(w, s)
    # can_fire only matters to policy_declare_nb for the random player, a ship that fires
    # at ships, or one waiting on its dig site (no search here, digs made at x): skip the
    # check otherwise (it draws no dice, so results are unchanged)
    can_fire = 0
    if (
        sd[SD_CODES, s] == STRAT_RANDOM
        or sd[SD_SP + s, SP_FIRE_AT_SHIP] > 0
        or sd[SD_SP + s, SP_FIRE_OPP_LIFE] > 0
        or sd[SD_SP + s, SP_FIRE_BEHIND] < NEVER
        or sd[SD_SP + s, SP_HOLD_BEHIND] < NEVER
        or (
            can_search == 0
            and w[ROW_SHIP + s, SH_DIG_X] == x
            and w[ROW_SHIP + s, SH_DIGS] > 0
        )
    ):
        can_fire = 1 if can_fire_nb(sd, w, s) else 0
    return policy_declare_nb(sd, rng, w, s, can_search, can_fire, threat_nb(sd, w, s, can_search))


@njit(cache=True, _nrt=False)
def turn_act_nb(sd, rng, w, s, act):
    """:func:`turn_act_body_nb` as a call (the search player's paths)."""
    return turn_act_body_nb(sd, rng, w, s, act)


@njit(cache=True, inline="always", _nrt=False)
def turn_act_body_nb(sd, rng, w, s, act):
    """Seat s carries out its declaration ``act``: returns the spaces the ship sails
    (inlined in the bulk turn: a call per turn cost 10-15% of a scripted game)."""
    log_nb(w, EV_DECLARE, s, act, 0, 0, 0)
    if act == ACT_SEARCH:
        search_nb(sd, rng, w, s)
        return 0
    if act == ACT_FIRE:
        fire_nb(sd, rng, w, s)
        return 0
    x = phys_nb(w, w[ROW_SHIP + s, SH_POS])
    r = roll_die_nb(rng, 6)
    if (
        r == sd[SD_RULES, RU_GHOST_SUMMON_FACE]
        and can_summon_nb(sd, w, s)
        and policy_summon_nb(sd, rng, w, s)
    ):
        # the rulebook's second roll of the face summons (ghost.summon_needs_second)
        r2 = roll_die_nb(rng, 6) if sd[SD_RULES, RU_SUMMON_NEEDS_SECOND] != 0 else r
        if r2 == sd[SD_RULES, RU_GHOST_SUMMON_FACE]:
            w[ROW_ST, G_GHOST_X] = x
            w[ROW_CNT + s, C_GHOST_SUMMONS] += 1
            log_nb(w, EV_SUMMON, s, r2, x, 0, 0)
            r = roll_die_nb(rng, 6)
        else:
            log_nb(w, EV_SUMMON, s, r2, -1, 0, 0)
            r = r2
    steps = r
    if w[ROW_SHIP + s, SH_T_GUST] != 0:
        steps *= sd[SD_RULES, RU_GUST_MULTIPLIER]
    if w[ROW_SHIP + s, SH_TREASURE] == MIGHTY_SAIL and x >= sd[SD_RULES, RU_DOCK_SPACES]:
        steps += sd[SD_RULES, RU_MIGHTY_SAIL_BONUS]
    if w[ROW_SHIP + s, SH_T_SHORTCUT] != 0 and policy_shortcut_nb(sd, rng, w, s):
        steps += sd[SD_RULES, RU_SHORTCUT_SPACES]
        w[ROW_CNT + s, C_SHORTCUTS] += 1
        log_nb(w, EV_SHORTCUT, s, 1, 0, 0, 0)
    log_nb(w, EV_ROLL, s, r, steps, 0, 0)
    return steps


@njit(cache=True, inline="always", _nrt=False)
def turn_steps_nb(sd, rng, w, s):
    """Seat s plays one turn up to its move: a trap attempt, or its declaration (sail /
    search / fire) by its strategy.  Returns the spaces the ship then sails (0: none)."""
    steps = turn_begin_nb(sd, rng, w, s)
    if steps >= 0:
        return steps
    return turn_act_body_nb(sd, rng, w, s, scripted_declare_nb(sd, rng, w, s))


@njit(cache=True, inline="always", _nrt=False)
def play_turn_nb(sd, rng, w, s):
    """Seat s plays one turn: a trap attempt, or its declaration (sail / search / fire)."""
    steps = turn_steps_nb(sd, rng, w, s)
    while steps > 0:
        sail_nb(sd, rng, w, s, steps)
        steps = arrival_attempt_nb(sd, rng, w, s)


# ================================================================ one game


@njit(cache=True, _nrt=False)
def reset_nb(sd, w):
    """A fresh table: ships at the first dash of the dock with the starting gold."""
    for i in range(w.shape[1]):
        w[ROW_ST, i] = 0
    w[ROW_ST, G_WINNER] = -1
    w[ROW_ST, G_PEAK_X] = -1
    w[ROW_ST, G_GHOST_X] = -1
    w[ROW_ST, G_PEAK_MASK] = sd[SD_RULES, RU_PEAK_TAKEN_MASK]  # treasures not offered
    for s in range(2):
        for i in range(w.shape[1]):
            w[ROW_SHIP + s, i] = 0
        for i in range(w.shape[1]):
            w[ROW_CNT + s, i] = 0
        w[ROW_SHIP + s, SH_GOLD] = sd[SD_RULES, RU_START_GOLD]
        w[ROW_SHIP + s, SH_LIFE] = sd[SD_RULES, RU_LIFE_POINTS]
        w[ROW_SHIP + s, SH_LAST_SEARCH] = -1
        w[ROW_SHIP + s, SH_DIG_X] = -1
    for x in range(sd[SD_RULES, RU_DOCK_SPACES]):
        w[ROW_TRACK, x] = OPEN
        w[ROW_CARD, x] = 0
    w[ROW_ST, G_N_LAID] = sd[SD_RULES, RU_DOCK_SPACES]


@njit(cache=True, _nrt=False)
def seat_strategies_nb(sd_src, sd, game_index):
    """Copy into ``sd`` the strategy code and policy row each seat plays in game
    ``game_index`` (``rules.strategy_seating``: entry j of ``sd_src`` plays seat j, or the
    entries rotate over the seats from game to game)."""
    rotate = sd_src[SD_RULES, RU_STRATEGY_SEATING] != 0
    for s in range(2):
        e = entry_of_seat_nb(s, game_index, 2, rotate)
        sd[SD_CODES, s] = sd_src[SD_CODES, e]
        for i in range(sd.shape[1]):
            sd[SD_SP + s, i] = sd_src[SD_SP + e, i]


@njit(cache=True, _nrt=False)
def setup_game_nb(sd, rng, w, deck_order, game_index):
    """Reset, shuffle the Sea Deck (or use ``deck_order``), buy, choose the first player
    (``rules.first_player``: the rulebook's roll-off, rotation by game index, or random)."""
    reset_nb(sd, w)
    n = sd[SD_RULES, RU_N_JOURNEY] + 1
    if deck_order.shape[0] == n:
        for i in range(n):
            w[ROW_DECK, i] = deck_order[i]
    else:
        for i in range(n):
            w[ROW_DECK, i] = i
        for i in range(n - 1, 0, -1):  # Fisher-Yates, as rng.shuffle_nb
            j = rand_below_nb(rng, i + 1)
            tmp = w[ROW_DECK, i]
            w[ROW_DECK, i] = w[ROW_DECK, j]
            w[ROW_DECK, j] = tmp
    for s in range(2):
        nc, nb = policy_buy_nb(sd, rng, w, s, False)
        buy_nb(sd, w, s, nc, nb)
        log_nb(
            w,
            EV_SETUP,
            s,
            w[ROW_SHIP + s, SH_CREW],
            w[ROW_SHIP + s, SH_BALLS],
            w[ROW_SHIP + s, SH_GOLD],
            0,
        )
    mode = sd[SD_RULES, RU_FIRST_PLAYER]
    r0 = 0
    r1 = 0
    if mode == FP_RULE:
        while True:  # both roll, the higher goes first, ties roll again
            r0 = roll_die_nb(rng, 6)
            r1 = roll_die_nb(rng, 6)
            if r0 != r1:
                break
    first = first_seat_nb(mode, 0 if r0 > r1 else 1, game_index, 2, rng)
    w[ROW_ST, G_FIRST] = first
    log_nb(w, EV_FIRST, first, r0, r1, 0, 0)
    return first


@njit(cache=True, _nrt=False)
def finish_nb(rng, w, out_games, out_seats, k):
    """Write game k's standard and game columns and its seat rows."""
    for s in range(2):
        w[ROW_CNT + s, C_FINAL_GOLD] = w[ROW_SHIP + s, SH_GOLD]
        w[ROW_CNT + s, C_LIFE] = w[ROW_SHIP + s, SH_LIFE]
        w[ROW_CNT + s, C_CREW] = w[ROW_SHIP + s, SH_CREW]
        w[ROW_CNT + s, C_BALLS] = w[ROW_SHIP + s, SH_BALLS]
        w[ROW_CNT + s, C_TREASURE] = w[ROW_SHIP + s, SH_TREASURE]
        for c in range(out_seats.shape[2]):
            out_seats[k, s, c] = w[ROW_CNT + s, c]
    out_games[k, 0] = w[ROW_ST, G_WINNER]
    out_games[k, 1] = w[ROW_ST, G_TURNS]
    out_games[k, 2] = w[ROW_ST, G_END]
    out_games[k, 3] = 1 if w[ROW_ST, G_END] == END_TRUNCATED else 0
    out_games[k, 4] = w[ROW_ST, G_FIRST]
    out_games[k, GC_DICE] = dice_rolled_nb(rng)
    out_games[k, GC_OUT_CARDS] = w[ROW_ST, G_OUT_CARDS]
    out_games[k, GC_RESHUFFLES] = w[ROW_ST, G_RESHUFFLES]
    out_games[k, GC_SEA_BANK] = w[ROW_ST, G_SEA_BANK]
    out_games[k, GC_SUPPLY] = w[ROW_ST, G_SUPPLY]
    out_games[k, GC_SUPPLY_DRY] = w[ROW_ST, G_SUPPLY_DRY]


@njit(cache=True, inline="always", _nrt=False)
def finish_move_nb(sd, rng, w, s, steps):
    """The rest of seat s's turn after its declaration or trap attempt: sail ``steps``
    spaces, then any at-once squid attempt (squid.first_attempt = arrival) and its move."""
    while steps > 0:
        sail_nb(sd, rng, w, s, steps)
        steps = arrival_attempt_nb(sd, rng, w, s)


@njit(cache=True, _nrt=False)
def play_rest_nb(sd, rng, w, cur, last_turn):
    """Play from the start of seat ``cur``'s turn to the end of the game (every seat by its
    strategy), or until ``last_turn`` turns have been played."""
    while w[ROW_ST, G_OVER] == 0:
        if w[ROW_ST, G_TURNS] >= sd[SD_RULES, RU_TURN_CAP]:
            end_game_nb(w, END_TRUNCATED, -1)
            break
        if w[ROW_ST, G_TURNS] >= last_turn:
            break
        steps = turn_steps_nb(sd, rng, w, cur)
        finish_move_nb(sd, rng, w, cur, steps)
        cur = 1 - cur


NO_LIMIT = 1 << 30  # a turn count no game reaches (play_rest_nb's last_turn: to the end)


@njit(cache=True, _nrt=False)
def play_game_nb(sd, rng, w, deck_order, out_games, out_seats, k, game_index):
    """Play game ``game_index`` on a seeded ``rng`` and write it as row k of the outputs
    (``sd`` already holds the seats' strategies for this game: :func:`seat_strategies_nb`;
    no seat searches: a table with a search seat plays :func:`play_search_game_nb`)."""
    cur = setup_game_nb(sd, rng, w, deck_order, game_index)
    play_rest_nb(sd, rng, w, cur, NO_LIMIT)
    finish_nb(rng, w, out_games, out_seats, k)


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
MAX_OPTIONS = 8  # scratch length of a decision's options (at most 3 in Pirate's Peak)
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
def rollout_play_nb(sd_roll, rng, w, s, kind, opt, horizon, reward):
    """Play option ``opt`` of seat s's pending decision ``kind`` on the copy ``w``, then
    every seat by the rollout table to the end (or ``horizon`` turns); returns the reward."""
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
    play_rest_nb(sd_roll, rng, w, 1 - mover, last)
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
                     rec, cnt):
    """Seat s's searched choice among ``opts[:n]`` at its pending decision ``kind``: the
    rollout strategy's favourite first (the prior), the ``top_k`` kept, ``budget``
    rollouts by sequential halving on common random numbers (rollout j of every option
    draws from the same derived stream).  Reads ``w`` and ``rng``, changes neither.
    ``rec`` (rollouts: option, index, reward; no row: not recorded) and ``cnt`` ([0]
    rollouts recorded, [1] rollouts played) are the benchmark's; ``cnt[CNT_HALVING:]`` holds
    the search loop (no allocation here).  Returns an index in opts."""
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
        v = rollout_play_nb(sd_roll, rng2, w2, s, kind, opts[o], horizon, reward)
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


@njit(cache=True, _nrt=False)
def decide_nb(sd, rng, w, s, kind, n, opts, sd_roll, w2, rng2, alive, sums, counts, scores, rec, cnt,
              snap_w, snap_rng, snap_i):
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
                         rec, cnt)
    w[ROW_ST, G_N_DEC] += 1
    return opts[o]


@njit(cache=True, _nrt=False)
def play_search_game_nb(sd, rng, w, deck_order, out_games, out_seats, k, game_index, sd_roll, w2, rng2,
                        opts, alive, sums, counts, scores, rec, cnt, snap_w, snap_rng, snap_i):
    """:func:`play_game_nb` for a table with a searching seat: the same turn, move and
    pick (the same kernels), with the searching seats' decisions taken by search."""
    cur = np.int64(setup_game_nb(sd, rng, w, deck_order, game_index))
    while w[ROW_ST, G_OVER] == 0:
        if w[ROW_ST, G_TURNS] >= sd[SD_RULES, RU_TURN_CAP]:
            end_game_nb(w, END_TRUNCATED, -1)
            break
        steps = turn_begin_nb(sd, rng, w, cur)
        if steps < 0:
            if sd[SD_SP + cur, SP_SEARCH] != 0:
                n = 1
                opts[0] = ACT_SAIL
                if can_search_nb(w, cur) != 0:
                    opts[n] = ACT_SEARCH
                    n += 1
                if can_fire_nb(sd, w, cur):
                    opts[n] = ACT_FIRE
                    n += 1
                act = ACT_SAIL
                if n > 1:
                    act = decide_nb(sd, rng, w, cur, PEND_DECLARE, n, opts, sd_roll, w2, rng2, alive, sums,
                                    counts, scores, rec, cnt, snap_w, snap_rng, snap_i)
                    w[ROW_ST, G_PEND] = PEND_NONE
            else:
                act = scripted_declare_nb(sd, rng, w, cur)
            steps = turn_act_nb(sd, rng, w, cur, act)
        while steps > 0:
            sail_call_nb(sd, rng, w, cur, steps)
            while w[ROW_ST, G_PEND] != PEND_NONE:  # a searching seat's question paused the move
                kind = np.int64(w[ROW_ST, G_PEND])
                p = np.int64(w[ROW_ST, G_PEND_SEAT])  # int64 as cur: one compiled decide_nb
                if kind == PEND_STOP:
                    opts[0] = 0
                    opts[1] = 1
                    ans = decide_nb(sd, rng, w, p, PEND_STOP, 2, opts, sd_roll, w2, rng2, alive, sums,
                                    counts, scores, rec, cnt, snap_w, snap_rng, snap_i)
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
                                       counts, scores, rec, cnt, snap_w, snap_rng, snap_i)
                    w[ROW_ST, G_PEND] = PEND_NONE
                    take_treasure_nb(w, p, tr)
            steps = arrival_attempt_nb(sd, rng, w, cur)
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
    width = sd[SD_RULES, RU_WORK_WIDTH]
    rng = np.zeros(RNG_WORDS, dtype=np.uint64)
    w = np.zeros((ROW_EV, width), dtype=np.int32)
    order = np.zeros(0, dtype=np.int32)
    out_g = np.zeros((1, GC_SUPPLY_DRY + 1), dtype=np.int32)
    out_s = np.zeros((1, 2, N_SEAT_COLS), dtype=np.int32)
    sd_block = sd.copy()
    sd_roll = sd.copy()
    w2 = np.zeros((ROW_EV, width), dtype=np.int32)
    rng2 = np.zeros(RNG_WORDS, dtype=np.uint64)
    opts = np.zeros(MAX_OPTIONS, dtype=np.int64)
    alive = np.zeros(MAX_OPTIONS, dtype=np.int64)
    sums = np.zeros(MAX_OPTIONS)
    counts = np.zeros(MAX_OPTIONS)
    scores = np.zeros(MAX_OPTIONS)
    rec = np.zeros((0, 3))
    cnt = np.zeros(CNT_HALVING + H_SIZE, dtype=np.int64)
    snap_w = np.zeros((n_snap, ROW_EV, width), dtype=np.int32)
    snap_rng = np.zeros((n_snap, RNG_WORDS), dtype=np.uint64)
    snap_i = np.zeros((n_snap, 3 + MAX_OPTIONS), dtype=np.int32)
    g = 0
    while cnt[2] < n_snap and g < max_games:
        seed_game_nb(rng, seed, g)
        seat_strategies_nb(sd, sd_block, g)
        play_search_game_nb(sd_block, rng, w, order, out_g, out_s, 0, g, sd_roll, w2, rng2, opts, alive, sums,
                            counts, scores, rec, cnt, snap_w, snap_rng, snap_i)
        g += 1
    m = cnt[2]
    return snap_w[:m].copy(), snap_rng[:m].copy(), snap_i[:m].copy(), g


@njit(cache=True)
def decide_all_nb(sd, snap_w, snap_rng, snap_i, n_rec):
    """Search every snapshot's decision again (the benchmark's timed search); returns the
    chosen options, the rollouts (snapshot, option index, rollout index, reward: the
    first ``n_rec``) and the number of rollouts played."""
    m = snap_i.shape[0]
    sd_roll = sd.copy()
    w2 = np.zeros((ROW_EV, snap_w.shape[2]), dtype=np.int32)
    rng2 = np.zeros(RNG_WORDS, dtype=np.uint64)
    opts = np.zeros(MAX_OPTIONS, dtype=np.int64)
    alive = np.zeros(MAX_OPTIONS, dtype=np.int64)
    sums = np.zeros(MAX_OPTIONS)
    counts = np.zeros(MAX_OPTIONS)
    scores = np.zeros(MAX_OPTIONS)
    rec = np.zeros((n_rec, 3))
    rec_snap = np.zeros(n_rec, dtype=np.int64)
    cnt = np.zeros(CNT_HALVING + H_SIZE, dtype=np.int64)
    chosen = np.zeros(m, dtype=np.int64)
    for i in range(m):
        n = np.int64(snap_i[i, 2])
        for k in range(n):
            opts[k] = snap_i[i, 3 + k]
        lo = cnt[0]
        o = search_decide_nb(sd, snap_rng[i], snap_w[i], np.int64(snap_i[i, 0]), np.int64(snap_i[i, 1]), n, opts,
                             sd_roll, w2, rng2, alive, sums, counts, scores, rec, cnt)
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
                                 sd[SD_SP + s, SP_HORIZON], sd[SD_SP + s, SP_REWARD])
    return total


def new_scratch(sd, width, n_rec=0, n_snap=0):
    """(sd_roll, w2, rng2, opts, alive, sums, counts, scores, rec, cnt, snap_w, snap_rng,
    snap_i): the arrays :func:`play_search_game_nb` works in after its first eight."""
    return (sd.copy(), np.zeros((ROW_EV, width), np.int32), np.zeros(RNG_WORDS, np.uint64),
            np.zeros(MAX_OPTIONS, np.int64), np.zeros(MAX_OPTIONS, np.int64), np.zeros(MAX_OPTIONS),
            np.zeros(MAX_OPTIONS), np.zeros(MAX_OPTIONS), np.zeros((n_rec, 3)), np.zeros(CNT_HALVING + H_SIZE, np.int64),
            np.zeros((n_snap, ROW_EV, width), np.int32), np.zeros((n_snap, RNG_WORDS), np.uint64),
            np.zeros((n_snap, 3 + MAX_OPTIONS), np.int32))


@njit(cache=True, parallel=True, nogil=True)
def play_chunk_nb(sd, seed, first_game, out_games, out_seats):
    """Games first_game .. first_game+n-1 in N_BLOCKS parallel blocks; game k uses
    ``seed_game_nb(rng, seed, first_game + k)`` so results never depend on threads or chunks.
    No seat searches (:func:`play_search_chunk_nb` plays the tables with a search seat: a
    kernel of its own, so that a scripted run never compiles the search player)."""
    n = out_games.shape[0]
    n_blocks = min(N_BLOCKS, n)
    for b in prange(n_blocks):
        lo = (n * b) // n_blocks
        hi = (n * (b + 1)) // n_blocks
        # each block allocates its tables once and reuses them for all its games
        rng = np.zeros(RNG_WORDS, dtype=np.uint64)
        w = np.zeros((ROW_EV, sd[SD_RULES, RU_WORK_WIDTH]), dtype=np.int32)
        sd_block = sd.copy()
        order = np.zeros(0, dtype=np.int32)
        rotate = sd[SD_RULES, RU_STRATEGY_SEATING] != 0
        for k in range(lo, hi):
            seed_game_nb(rng, seed, first_game + k)
            if rotate:
                seat_strategies_nb(sd, sd_block, first_game + k)
            play_game_nb(sd_block, rng, w, order, out_games, out_seats, k, first_game + k)


@njit(cache=True, parallel=True, nogil=True)
def play_search_chunk_nb(sd, seed, first_game, out_games, out_seats):
    """:func:`play_chunk_nb` for a table with a searching seat (its scratch once per block)."""
    n = out_games.shape[0]
    n_blocks = min(N_BLOCKS, n)
    for b in prange(n_blocks):
        lo = (n * b) // n_blocks
        hi = (n * (b + 1)) // n_blocks
        rng = np.zeros(RNG_WORDS, dtype=np.uint64)
        w = np.zeros((ROW_EV, sd[SD_RULES, RU_WORK_WIDTH]), dtype=np.int32)
        sd_block = sd.copy()
        order = np.zeros(0, dtype=np.int32)
        rotate = sd[SD_RULES, RU_STRATEGY_SEATING] != 0
        sd_roll = sd.copy()
        w2 = np.zeros((ROW_EV, sd[SD_RULES, RU_WORK_WIDTH]), dtype=np.int32)
        rng2 = np.zeros(RNG_WORDS, dtype=np.uint64)
        opts = np.zeros(MAX_OPTIONS, dtype=np.int64)
        alive = np.zeros(MAX_OPTIONS, dtype=np.int64)
        sums = np.zeros(MAX_OPTIONS)
        counts = np.zeros(MAX_OPTIONS)
        scores = np.zeros(MAX_OPTIONS)
        rec = np.zeros((0, 3))
        cnt = np.zeros(CNT_HALVING + H_SIZE, dtype=np.int64)
        snap_w = np.zeros((0, ROW_EV, 1), dtype=np.int32)
        snap_rng = np.zeros((0, RNG_WORDS), dtype=np.uint64)
        snap_i = np.zeros((0, 3 + MAX_OPTIONS), dtype=np.int32)
        for k in range(lo, hi):
            seed_game_nb(rng, seed, first_game + k)
            if rotate:
                seat_strategies_nb(sd, sd_block, first_game + k)
            play_search_game_nb(sd_block, rng, w, order, out_games, out_seats, k, first_game + k, sd_roll, w2,
                                rng2, opts, alive, sums, counts, scores, rec, cnt, snap_w, snap_rng, snap_i)


# ================================================================ Python-side helpers


class State:
    """One table's arrays for tests and traces (build with :func:`new_state`).

    ``w`` is the work array (rows ROW_*); views ``st``, ``ship``, ``cnt``, ``track``
    (2 rows: codes, card numbers) and ``deck`` read and write it by name.
    """

    def __init__(self, compiled, ev_capacity=0, deck_order=None):
        self.compiled = compiled
        self.R = compiled.params
        self.sd = compiled.extra["sd"]
        self.w = np.zeros((ROW_EV + ev_capacity, self.R.work_width), dtype=np.int32)
        self.deck_order = np.asarray(deck_order if deck_order is not None else [], dtype=np.int32)
        self.out_games = np.zeros((1, 5 + len(GAME_COLUMNS)), dtype=np.int32)  # 5 standard columns
        self.out_seats = np.zeros((1, 2, N_SEAT_COLS), dtype=np.int32)

    @property
    def st(self):
        return self.w[ROW_ST]

    @property
    def ship(self):
        return self.w[ROW_SHIP : ROW_SHIP + 2]

    @property
    def cnt(self):
        return self.w[ROW_CNT : ROW_CNT + 2, :N_SEAT_COLS]

    @property
    def track(self):
        return self.w[ROW_TRACK : ROW_TRACK + 2]

    @property
    def deck(self):
        return self.w[ROW_DECK, : self.R.n_journey + 1]

    def events(self):
        n = int(self.w[ROW_ST, G_N_EV])
        return self.w[ROW_EV : ROW_EV + n, :EV_WIDTH].copy()


def new_state(compiled, deck_order=None, ev_capacity=0):
    """A table reset for a new game: ships on the dock with starting gold, no purchases.

    ``deck_order`` fixes the flip order (card indices; the Peak card is ``n_journey``).
    """
    s = State(compiled, ev_capacity, deck_order)
    reset_nb(s.sd, s.w)
    n = s.R.n_journey + 1
    order = s.deck_order if s.deck_order.shape[0] == n else np.arange(n, dtype=np.int32)
    s.w[ROW_DECK, :n] = order
    return s


def lay_cards(state, rng, n_spaces):
    """Flip cards (in the state's deck order) until at least ``n_spaces`` spaces are laid."""
    ensure_laid_nb(state.sd, rng, state.w, n_spaces - 1)


def set_ship(state, seat, **fields):
    """Set ship fields by name: pos, gold, crew, balls, life, treasure, trap, trap_count, ..."""
    from . import rules

    for k, v in fields.items():
        state.w[ROW_SHIP + seat, getattr(rules, "SH_" + k.upper())] = v


def turn(state, seat, rng):
    """Play one turn of ``seat`` on ``rng`` (e.g. ``scripted_rng([...])``)."""
    play_turn_nb(state.sd, rng, state.w, seat)


def sail(state, seat, rng, steps):
    """Move ``seat`` ``steps`` spaces with every encounter (the kernel's sail_nb)."""
    sail_nb(state.sd, rng, state.w, seat, steps)


def play_one(compiled, rng, deck_order=None, ev_capacity=0, game_index=0):
    """Play game ``game_index`` on ``rng`` with the same kernel as bulk runs; returns the State."""
    s = State(compiled, ev_capacity, deck_order)
    s.sd = s.sd.copy()
    seat_strategies_nb(compiled.extra["sd"], s.sd, game_index)
    if searching(s.sd):
        play_search_game_nb(s.sd, rng, s.w, s.deck_order, s.out_games, s.out_seats, 0, game_index,
                            *new_scratch(s.sd, s.R.work_width))
    else:
        play_game_nb(s.sd, rng, s.w, s.deck_order, s.out_games, s.out_seats, 0, game_index)
    return s


def setup(state, rng, game_index=0):
    """Setup purchases and the first-player choice on ``rng``; returns the first seat."""
    return setup_game_nb(state.sd, rng, state.w, state.deck_order, game_index)
