"""Pirate's Peak kernels, part 2: the ships at sea: blocking and firing range, the Peak
treasures, traps, fights (ship and Ghost Ship), searching, firing, islands, castaways,
docking, and the move itself (``sail_nb``: step by step, with stop-early questions that a
searching seat can pause and resume), landing and summoning.

Arguments ``sd`` (static table), ``rng`` (the game's stream) and ``w`` (work array), the
``_nrt=False`` and the plain-Python run: see kernel.py's docstring.

May import ``rules``, ``columns``, ``strategies``, ``board`` and ``mechanics``.
"""

from __future__ import annotations

from numba import njit

from ...rng import roll_die_nb
from .board import dock_progress_nb, phys_nb
from .columns import (C_CASTAWAYS, C_DOCKED_FIRST, C_FIGHT_GOLD, C_GHOST_FIGHTS, C_GUSTS, C_HITS, C_INTERRUPTED,
                      C_INTERRUPTS, C_ISLAND_STOPS, C_MERMAID, C_OVERSHOOTS, C_PEAK_ORDER, C_SEARCHES, C_SEARCH_GOLD,
                      C_SEA_BANK_LOSS, C_SHIP_FIGHTS, C_SHOTS, C_SQUID_ENC, C_TREASURE, C_WHIRL_ENC)
from .mechanics import (buy_nb, end_game_nb, ensure_laid_nb, from_supply_nb, interrupt_roll_nb, log_nb, lose_life_nb,
                        pay_nb, ship_attack_roll_nb)
from .rules import (CASTAWAY, END_MOST_GOLD, END_TIE, EV_ADVANCE, EV_CASTAWAY, EV_DOCK, EV_ENTER, EV_FIRE,
                    EV_GHOST_FIGHT, EV_GUST, EV_INTERRUPT, EV_MERMAID, EV_MOVE, EV_OVERSHOOT, EV_SEARCH, EV_SHIP_FIGHT,
                    EV_SHORTCUT, EV_STOP_EARLY, EV_TREASURE, FOG, GOLDEN_CUTLASS, GUST, G_GHOST_X, G_ISLANDS, G_MV_D,
                    G_MV_DPATH, G_MV_STEPS, G_MV_TAKEN, G_MV_X0, G_MV_XO, G_N_LAID, G_PEAK_ARRIVALS, G_PEAK_MASK,
                    G_PEAK_X, G_PEND, G_PEND_CODE, G_PEND_SEAT, G_SEA_BANK, ISLAND, MERMAIDS, PEAK, PEND_NONE,
                    PEND_STOP, PEND_TREASURE, ROW_CARD, ROW_CNT, ROW_SHIP, ROW_ST, ROW_TRACK, RU_CANNON_RANGE,
                    RU_CASTAWAY_CREW_GAINED, RU_CREW_SALE_PRICE, RU_CUTLASS_BONUS, RU_DOCK_SPACES, RU_EXACT_DOCKING,
                    RU_FIGHT_OVERTAKE, RU_GHOST_CREW, RU_GHOST_CREW_ROLL, RU_HIT_LIFE_LOSS, RU_INTERRUPT_COSTS_TURN,
                    RU_INTERRUPT_LIFE_LOSS, RU_MAX_CREW, RU_MERMAID_CREW_LOST, RU_PARTIAL_MULTIPLIER,
                    RU_SEARCH_GOLD_PER_CREWMAN, RU_SEARCH_MULTIPLIER, RU_STEEL_CANNON_RANGE, RU_WHIRLPOOL_FIRE,
                    SD_CODES, SD_RULES, SD_SP, SHORTCUT, SH_BALLS, SH_CREW, SH_DIGS, SH_DIG_X, SH_DOCKED, SH_GOLD,
                    SH_GUST, SH_LAST_SEARCH, SH_POS, SH_SHORTCUT, SH_SKIP, SH_TRAP, SH_TRAP_COUNT, SH_TREASURE,
                    SP_INTERRUPT, SP_SEARCH, SQUID, STEEL_CANNON, STRAT_RANDOM, TRAP_FOG, TRAP_NONE, TRAP_SQUID,
                    TRAP_WHIRLPOOL, TREASURE_X, WHIRLPOOL)
from .strategies import (policy_buy_nb, policy_interrupt_nb, policy_search_on_landing_nb, policy_stop_early_nb,
                         policy_treasure_nb)


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
def sail_start_nb(sd, w, s, steps):
    """The start of seat s's move of ``steps`` spaces, before its first step: (go, d0, x0, xo),
    its progress, its space and the other ship's; ``go`` False where the move ends at once
    (no steps, or a dock the exact roll overshoots: counted and logged here)."""
    d0 = w[ROW_SHIP + s, SH_POS]
    x0 = phys_nb(w, d0)
    if steps <= 0:
        return False, d0, x0, x0
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
            return False, d0, x0, x0
    # the other ship does not move during this move: only its space can block
    return True, d0, x0, phys_nb(w, w[ROW_SHIP + 1 - s, SH_POS])


@njit(cache=True, inline="always", _nrt=False)
def sail_nb(sd, rng, w, s, steps):
    """Move seat s forward ``steps`` spaces, resolving every encounter on the way (a
    searching seat's move pauses at a stop-early question: :func:`sail_loop_nb`)."""
    go, d0, x0, xo = sail_start_nb(sd, w, s, steps)
    if go:
        sail_loop_nb(sd, rng, w, s, steps, d0, d0, 0, x0, xo, -1)


@njit(cache=True, _nrt=False)
def sail_call_nb(sd, rng, w, s, steps, answer):
    """The asked turns' move, as a call (the bulk turn loop inlines :func:`sail_nb`): with
    ``answer`` < 0, :func:`sail_nb`; else the resume of seat s's move paused at a stop-early
    question with that answer (1 stop, 0 sail on; ``steps`` unused): the asking step is
    played again from its start (everything before the question in a step reads the state
    only, so it replays exactly) with the answer forced.  (One call for both: one copy of
    the sailing loop's machine code, not two.)"""
    if answer < 0:
        go, d, x0, xo = sail_start_nb(sd, w, s, steps)
        if not go:
            return
        d_path, taken = d, 0
    else:
        w[ROW_ST, G_PEND] = PEND_NONE
        steps, d, d_path, taken = w[ROW_ST, G_MV_STEPS], w[ROW_ST, G_MV_D], w[ROW_ST, G_MV_DPATH], w[ROW_ST, G_MV_TAKEN]
        x0, xo = w[ROW_ST, G_MV_X0], w[ROW_ST, G_MV_XO]
    sail_loop_nb(sd, rng, w, s, steps, d, d_path, taken, x0, xo, answer)


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
