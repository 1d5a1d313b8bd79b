"""Pirate's Peak kernels, part 3: one turn: the traps' attempts at the turn's start, the
scripted declaration (sail / search / fire), the declared action and the move.

Arguments ``sd`` (static table), ``rng`` (the game's stream) and ``w`` (work array), the
``_nrt=False`` and the plain-Python run: see kernel.py's docstring.

May import ``rules``, ``columns``, ``strategies``, ``board``, ``mechanics`` and ``sea``.
"""

from __future__ import annotations

from numba import njit

from ...rng import roll_die_nb
from .board import phys_nb
from .columns import (C_FOG_ESC, C_FOG_TURNS, C_GHOST_SUMMONS, C_SHORTCUTS, C_SKIPPED, C_SQUID_ATT, C_SQUID_ESC,
                      C_SQUID_INSTANT, C_SQUID_LIFE, C_SQUID_SAC, C_WHIRL_ATT, C_WHIRL_ESC, C_WHIRL_SPIT)
from .mechanics import fog_attempt_nb, log_nb, lose_life_nb, squid_attempt_nb, whirlpool_attempt_nb
from .rules import (ACT_FIRE, ACT_SEARCH, EV_DECLARE, EV_FOG, EV_ROLL, EV_SACRIFICE, EV_SHORTCUT, EV_SKIP, EV_SQUID,
                    EV_SUMMON, EV_TURN, EV_WHIRLPOOL, G_GHOST_X, G_OVER, G_TURNS, MIGHTY_SAIL, NEVER, ROW_CNT, ROW_SHIP,
                    ROW_ST, ROW_TRACK, RU_DOCK_SPACES, RU_FOG_TOLERANCE, RU_GHOST_SUMMON_FACE, RU_GUST_MULTIPLIER,
                    RU_MIGHTY_SAIL_BONUS, RU_SHORTCUT_SPACES, RU_SPIT_LIFE_LOSS, RU_SQUID_DICE, RU_SQUID_ESCAPE_TOTAL,
                    RU_SQUID_INSTANT_MOVE, RU_SQUID_INSTANT_TOTAL, RU_SQUID_LIFE_LOSS_TOTAL, RU_SQUID_LOW_LIFE_LOSS,
                    RU_SQUID_ON_ARRIVAL, RU_SQUID_SACRIFICE_AFTER, RU_SQUID_SACRIFICE_CREW, RU_SUMMON_NEEDS_SECOND,
                    RU_WHIRLPOOL_ESCAPE_MOVE, RU_WHIRLPOOL_ESCAPE_ROLL, RU_WHIRLPOOL_MAX_ATTEMPTS,
                    RU_WHIRLPOOL_SPIT_SPACES, SD_CODES, SD_RULES, SD_SP, SH_CREW, SH_DIGS, SH_DIG_X, SH_GUST,
                    SH_LAST_SEARCH, SH_LIFE, SH_POS, SH_SHORTCUT, SH_SKIP, SH_TRAP, SH_TRAP_COUNT, SH_TREASURE,
                    SH_T_GUST, SH_T_PREV_SEARCH, SH_T_SHORTCUT, SP_CAUTION_LIFE, SP_FIRE_AT_SHIP, SP_FIRE_BEHIND,
                    SP_FIRE_OPP_LIFE, SP_HOLD_BEHIND, STRAT_RANDOM, TRAP_FOG, TRAP_NONE, TRAP_SQUID, TRAP_WHIRLPOOL,
                    TREASURE_X)
from .sea import can_fire_nb, can_summon_nb, fire_nb, sail_nb, search_nb
from .strategies import (policy_declare_nb, policy_fog_guess_nb, policy_sacrifice_nb, policy_shortcut_nb,
                         policy_summon_nb)


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
