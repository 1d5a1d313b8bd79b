"""What a ship is: section levels, dice, speed, hold and upgrade costs (numba helpers).

Shared by the rules kernel (``actions.py`` .. ``whole_game.py``) and the policies (``policies.py``); every
function reads only the state vector ``st`` (layout in ``rules.py``), the rules
NamedTuple ``P`` and the track table ``tr`` (int32[4, 2 + MAX_LEVEL]: column 0 the
set-up level, 1 the highest level, ``2 + l`` the gold to climb from level ``l`` to
``l + 1``).  A combat *unit* is a seat ``0..MAX_SEATS-1`` or black ship
``u - MAX_SEATS``.
"""

from __future__ import annotations

from numba import njit

from .rules import (B_BARGE, B_CRIPPLED, B_ISLAND, B_SEC, B_WORDS, BLACK_BASE, BONES, CANNONS, CREW,
                    FLINT, G_N_BLACK, HULL, MAX_SEATS, S_CHESTS, S_HAND, S_SEC, SAILS, SEAT_WORDS,
                    SEATS_BASE, SILVER, TRELAWNEY)

TR_START = 0
TR_MAX = 1
TR_COST = 2  # tr[k, TR_COST + l]: gold from level l to l + 1
UNLIMITED_HOLD = 1_000_000  # Flint: the hull limit does not apply


@njit(cache=True, inline="always")
def sb_nb(s):
    """Base index of seat ``s``'s words."""
    return SEATS_BASE + s * SEAT_WORDS


@njit(cache=True, inline="always")
def bb_nb(b):
    """Base index of black ship ``b``'s words."""
    return BLACK_BASE + b * B_WORDS


@njit(cache=True, inline="always")
def is_black_nb(u):
    return u >= MAX_SEATS


@njit(cache=True, inline="always")
def level_nb(st, u, k):
    """Level of section ``k`` of unit ``u`` (0 = crippled)."""
    if u >= MAX_SEATS:
        return st[bb_nb(u - MAX_SEATS) + B_SEC + k]
    return st[sb_nb(u) + S_SEC + k]


@njit(cache=True, inline="always")
def set_level_nb(st, u, k, v):
    if u >= MAX_SEATS:
        st[bb_nb(u - MAX_SEATS) + B_SEC + k] = v
    else:
        st[sb_nb(u) + S_SEC + k] = v


@njit(cache=True, inline="always")
def has_card_nb(st, s, t):
    return st[sb_nb(s) + S_HAND + t] > 0


@njit(cache=True, inline="always")
def base_dice_nb(st, P, u):
    """Dice of a volley before Battle/Volley cards: the lower of Crew and Cannons;
    Long John Silver always rolls ``silver_dice``, Billy Bones fires all the Cannons."""
    crew = level_nb(st, u, CREW)
    can = level_nb(st, u, CANNONS)
    if u < MAX_SEATS:
        if has_card_nb(st, u, SILVER):
            return P.silver_dice
        if has_card_nb(st, u, BONES):
            return can
    return crew if crew < can else can


@njit(cache=True, inline="always")
def speed_nb(st, P, u):
    """Sails, plus Trelawney's bonus."""
    v = level_nb(st, u, SAILS)
    if u < MAX_SEATS and has_card_nb(st, u, TRELAWNEY):
        v += P.trelawney_speed
    return v


@njit(cache=True, inline="always")
def toughness_nb(st, u):
    """Hits that cripple the ship when aimed at its weakest section."""
    m = level_nb(st, u, 0)
    for k in range(1, 4):
        v = level_nb(st, u, k)
        if v < m:
            m = v
    return m


@njit(cache=True, inline="always")
def capacity_nb(st, P, s):
    """Chests the ship can carry (the Hull limit; Flint lifts it)."""
    if has_card_nb(st, s, FLINT):
        return UNLIMITED_HOLD
    return st[sb_nb(s) + S_SEC + HULL] * P.chests_per_level


@njit(cache=True, inline="always")
def room_nb(st, P, s):
    r = capacity_nb(st, P, s) - st[sb_nb(s) + S_CHESTS]
    return r if r > 0 else 0


@njit(cache=True, inline="always")
def level_cost_nb(tr, k, lvl):
    """Gold to raise section ``k`` from ``lvl`` to ``lvl + 1``; -1 at the top of the track."""
    if lvl >= tr[k, TR_MAX] or lvl < 1:
        return -1
    return tr[k, TR_COST + lvl]


@njit(cache=True)
def black_at_nb(st, island, fighting):
    """Index of the black ship on ``island`` (a fighting one if ``fighting``, a barge
    otherwise), -1 if none."""
    for b in range(st[G_N_BLACK]):
        bb = bb_nb(b)
        if st[bb + B_ISLAND] == island and st[bb + B_CRIPPLED] == 0:
            if (st[bb + B_BARGE] == 0) == fighting:
                return b
    return -1


@njit(cache=True, inline="always")
def power_nb(st, P, u):
    """A quick strength figure for policies: dice times hits needed to cripple."""
    return float(base_dice_nb(st, P, u)) * float(toughness_nb(st, u))
