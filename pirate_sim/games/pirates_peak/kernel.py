"""Pirate's Peak kernels: the block drivers of a chunk, and the Python-side helpers of tests and traces.

The game's kernels are split by concern, each module importing only the ones before it:

* ``mechanics.py``: the dice mechanics (odds too) and small state helpers (event log, flips, gold);
* ``sea.py``: encounters, fights, searching, firing, docking and the move (``sail_nb``);
* ``turn.py``: one turn (traps, the scripted declaration, the action);
* ``whole_game.py``: reset, set-up, the game loop, the outputs writer, a game's tables;
* ``search_player.py``: the search player (its game loop, scratch and benchmark kernels);
* this module: the block drivers ``play_block_nb`` / ``play_search_block_nb``, :func:`play_chunk`, and :class:`State`, :func:`play_one`, ...
  (``user_kernel.py`` drives the tables with strategy files on the same pieces).

All state lives in small int32 arrays (layouts in rules.py; output columns in columns.py)
that a block of games allocates once and reuses; a game is a pure function of its rng
stream.  Every kernel is ``@njit(cache=True)`` and also runs as plain Python
(NUMBA_DISABLE_JIT=1) with identical results.

Common arguments: ``sd`` the int32 static table (rules, seats' strategy codes and policy
parameters, cards; layout in rules.py), ``rng`` the game's uint64 stream, ``w`` the int32
work array holding the game state, ships, seat counters, track, deck and (for traces)
the event log.  The rules NamedTuple is not passed: numba flattens every argument into
machine arguments (the 36-field NamedTuple plus four arrays made 74 per call), so each
call of a non-inlined kernel cost more than the work it did; three arrays make 25.
Every kernel but the chunk drivers and the allocating helpers (``game_tables_nb``,
``search_scratch_nb``) is compiled with ``_nrt=False``: with numba's reference counting
on, each call of a non-inlined kernel increfs and decrefs its three arrays (six indirect
calls and atomics per call); profiling put about half of a bulk run there.  No kernel
below the drivers allocates, so they need no NRT (the drivers own the arrays).
numba's cache=True alone only notices edits of the defining file; pirate_sim/_cache.py keys
the cache folder by the digest of every source a module imports, so an edit of
strategies.py, rules.py or board.py compiles afresh.

May import every kernel module of the game (``mechanics``, ``sea``, ``turn``, ``whole_game``,
``search_player``) and ``rules``, ``columns``; ``game.py``, ``user_kernel.py`` and the tests import it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...blocks import run_blocks
from .columns import N_GAME_COLS, N_SEAT_COLS
from .mechanics import ensure_laid_nb
from .rules import (EV_WIDTH, G_N_EV, ROW_CNT, ROW_DECK, ROW_EV, ROW_SHIP, ROW_ST, ROW_TRACK, RU_STRATEGY_SEATING,
                    SD_RULES)
from .sea import sail_nb
from .search_player import new_scratch, play_search_game_nb, search_scratch_nb, searching
from .user_turn import no_user_nb
from .turn import play_turn_nb
from .whole_game import game_tables_nb, play_game_nb, reset_nb, seat_strategies_nb, setup_game_nb, start_game_nb

# ================================================================ the block drivers
# Serial kernels of one block of games each; pirate_sim/blocks.py hands a chunk's blocks to
# threads (a prange driver compiled the game twice: that module's docstring).


@njit(cache=True)
def block_tables_nb(sd):
    """The tables a block of games is played in (allocated once per block): (rng, w, sd_block,
    order, rotate), rotate: whether the seats' strategies rotate."""
    rng, w, sd_block, order = game_tables_nb(sd)
    return rng, w, sd_block, order, sd[SD_RULES, RU_STRATEGY_SEATING] != 0


@njit(cache=True, nogil=True, error_model="numpy")  # as the prange body it replaces
def play_block_nb(sd, seed, first_game, lo, hi, out_games, out_seats):
    """Games first_game + lo .. first_game + hi - 1 into rows lo .. hi - 1; game k uses
    ``seed_game_nb(rng, seed, first_game + k)`` so results never depend on threads or blocks.
    No seat searches (:func:`play_search_block_nb` plays the tables with a search seat: a
    kernel of its own, so that a scripted run never compiles the search player)."""
    rng, w, sd_block, order, rotate = block_tables_nb(sd)
    for k in range(lo, hi):
        start_game_nb(sd, sd_block, rng, seed, first_game + k, rotate)
        play_game_nb(sd_block, rng, w, order, out_games, out_seats, k, first_game + k)


@njit(cache=True, nogil=True, error_model="numpy")  # as the prange body it replaces
def play_search_block_nb(sd, seed, first_game, lo, hi, out_games, out_seats):
    """:func:`play_block_nb` for a table with a searching seat (its scratch once per block)."""
    rng, w, sd_block, order, rotate = block_tables_nb(sd)
    (sd_roll, w2, rng2, opts, alive, sums, counts, scores, rec, cnt, snap_w, snap_rng,
     snap_i) = search_scratch_nb(sd, w.shape[1], 0, 0)
    ufn, uparams, calls, view, uopts, urng, err, ent, rent = no_user_nb(2)
    for k in range(lo, hi):
        start_game_nb(sd, sd_block, rng, seed, first_game + k, rotate)
        play_search_game_nb(sd_block, rng, w, order, out_games, out_seats, k, first_game + k, sd_roll, w2,
                            rng2, opts, alive, sums, counts, scores, rec, cnt, snap_w, snap_rng, snap_i, ufn,
                            uparams, calls, view, uopts, urng, err, ent, rent)


def play_chunk(sd, seed, first_game, out_games, out_seats):
    """Games first_game .. first_game + n - 1 (n: the outputs' rows) on the run's threads
    (pirate_sim/blocks.py), :func:`play_search_block_nb`'s where a seat searches."""
    block = play_search_block_nb if searching(sd) else play_block_nb
    run_blocks(lambda lo, hi: block(sd, seed, first_game, np.int64(lo), np.int64(hi), out_games, out_seats),
               out_games.shape[0])


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
        self.out_games = np.zeros((1, N_GAME_COLS), dtype=np.int32)
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
