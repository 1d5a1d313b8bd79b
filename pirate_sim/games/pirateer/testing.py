"""Helpers to set up and inspect Pirateer states by hand (tests, notebooks).

They translate between the kernel's state vector and the reference's
:class:`~.reference.Position`, so a test can play the kernel to any turn, read the
position, list the kernel's plays in the reference's terms, and script dice and plays.
"""

from __future__ import annotations

import numpy as np

from ...rng import new_rng
from ...seating import entry_of_seat_nb
from ..base import Compiled
from . import rules as R
from .moves import gen_plays_nb
from .state import ST_SCRIPTED
from .user_view import board_of
from .whole_game import setup_nb
from .reference import Position

DIRS = tuple(zip(R.DX, R.DY))  # kernel direction index -> (dx, dy)


def arrays(c: Compiled) -> dict:
    names = ("nb", "kind", "is_anchor", "dist", "dist_island", "seat_home", "seat_allowed", "seat_harbor",
             "seat_anchor", "seat_start", "strat", "sp")
    return dict(zip(names, c.arrays))


def new_state(c: Compiled, seed: int = 0, game_index: int = 0, dice: list[int] | None = None,
              events: int = 10_000):
    """(st, ev, rng) right after setup of game ``game_index``; ``dice`` scripts the dice after setup."""
    a = arrays(c)
    st = np.zeros(c.params.state_words, np.int32)
    ev = np.zeros((events, R.EVENT_WIDTH), np.int32)
    rng = new_rng(seed, game_index)
    setup_nb(st, ev, rng, c.params, a["seat_harbor"], a["seat_anchor"], a["seat_start"], game_index)
    if dice:
        rng = np.concatenate([rng, np.asarray(dice, np.uint64)])
        rng[5] = len(dice)
        rng[6] = 0
    return st, ev, rng


def step(c: Compiled, st, ev, rng, heat=None) -> None:
    """One turn exactly as a bulk run plays it: the protocol's next decision (a roll, or the
    turn cap), the seat's scripted player or the engine's search (engine_template.play_game_nb),
    the play made.
    ``heat``: int64[2, n_nodes] to add the turn's captures to."""
    from ...contract import no_files
    from .engine import engine, engine_tables
    from .protocol import MAX_OPTIONS, W_HEAT, apply_nb, next_decision_nb, options_nb, policy_nb, thread_tables_nb

    T, codes, prm, rprm, rotate = engine_tables(c)
    TT = thread_tables_nb(c.params, T)
    if heat is not None:
        TT = TT[:W_HEAT] + (heat,)
    s = next_decision_nb(st, ev, rng, c.params, TT)
    if s < 0:
        return
    opts = np.zeros(MAX_OPTIONS, np.int64)
    n = options_nb(st, c.params, TT, opts)
    e = entry_of_seat_nb(s, int(st[R.G_GAME]), c.n_seats, rotate)
    if codes[e] >= 0:
        i = policy_nb(st, rng, c.params, TT, s, codes[e], prm[e], opts, n, np.zeros(MAX_OPTIONS))
    elif n > 1:  # a search seat: the engine's search (its streams derived at the turn: decision 0 unread)
        eng = engine()
        fi, urows, calls, _ = no_files(c.n_seats, board_of(c.arrays))
        i = eng.search_nb(st, rng, c.params, TT, prm[e], rprm[e], s, opts, n, 0, eng.new_scratch_nb(c.params), -1,
                          urows[c.n_seats + e], calls, np.zeros(4, np.int64))
    else:
        i = 0
    apply_nb(st, ev, rng, c.params, TT, opts[i])


def use_scripted(c: Compiled, seats) -> None:
    """Make ``seats`` play the state's scripted plays (strategy code ST_SCRIPTED)."""
    for s in seats:
        c.arrays[10][s] = ST_SCRIPTED


def to_row(play) -> list[int]:
    """A reference play (tuple of moves) as the kernel's int row."""
    row = [-1, 0, 0, 0, -1, 0, 0, 0]
    for i, (ship, d, die, take) in enumerate(play):
        row[4 * i:4 * i + 4] = [ship, DIRS.index(tuple(d)), die, take]
    return row


def script(st, plays) -> None:
    """Queue plays (reference tuples of moves) for the scripted seats, in order."""
    st[R.G_SCR_LEN] = len(plays)
    st[R.G_SCR_POS] = 0
    st[R.G_SCR_FAIL] = 0
    for k, p in enumerate(plays):
        st[R.G_SCR + k * R.PLAY_WIDTH:R.G_SCR + (k + 1) * R.PLAY_WIDTH] = to_row(p)


def events(ev, st) -> list[tuple]:
    return [tuple(r) for r in ev[:st[R.G_EVENTS]].tolist()]


def position(c: Compiled, st) -> Position:
    """The reference's view of the kernel state."""
    geo = c.extra["geometry"]
    sps = c.params.ships_per_seat
    ships = []
    for i in range(c.n_seats * sps):
        node = int(st[R.SHIPS_BASE + i])
        ships.append(None if node < 0 else (i // sps, tuple(int(v) for v in geo.node_xy[node])))
    return Position(ships, int(st[R.G_TREASURE]), tuple(c.extra["harbors"]))


def set_position(c: Compiled, st, pos: Position) -> None:
    """Write a reference position into the kernel state (ships, treasure, ship counts)."""
    geo = c.extra["geometry"]
    sps = c.params.ships_per_seat
    st[R.OCC_BASE:R.OCC_BASE + c.params.n_nodes] = -1
    counts = [0] * c.n_seats
    for i in range(R.MAX_SHIPS):
        st[R.SHIPS_BASE + i] = -1
    for i, s in enumerate(pos.ships):
        if s is None:
            continue
        assert s[0] == i // sps, "ship i belongs to seat i // ships_per_player"
        node = geo.node_of[tuple(s[1])]
        st[R.SHIPS_BASE + i] = node
        st[R.OCC_BASE + node] = i
        counts[s[0]] += 1
    for s in range(c.n_seats):
        st[R.SEATS_BASE + s * R.SEAT_WORDS + R.S_SHIPS] = counts[s]
    st[R.G_TREASURE] = pos.treasure


def kernel_plays(c: Compiled, st, seat: int, d1: int, d2: int) -> list[tuple]:
    """The kernel generator's plays, as reference tuples of moves (duplicates kept)."""
    a = c.arrays
    plays = np.zeros((R.MAX_PLAYS, R.PLAY_WIDTH), np.int32)
    n = gen_plays_nb(st, c.params, a[0], a[1], a[2], a[6], seat, d1, d2, plays)
    out = []
    for row in plays[:n].tolist():
        moves = [(row[0], DIRS[row[1]], row[2], row[3])]
        if row[4] >= 0:
            moves.append((row[4], DIRS[row[5]], row[6], row[7]))
        out.append(tuple(moves))
    return out
