"""Pirate's Peak: the Python-side helpers of tests and scripts (one table's arrays by name, a turn, a
move or a whole scripted game on a given stream), over the game's kernels.

The game's kernels are split by concern, each module importing only the ones before it:

* ``mechanics.py``: the dice mechanics (odds too) and small state helpers (event log, flips, gold);
* ``sea.py``: encounters, fights, searching, firing, docking and the move (``sail_nb``);
* ``turn.py``: one turn (traps, the scripted declaration, the action);
* ``whole_game.py``: reset, set-up, the game loop, the outputs writer;
* ``search_player.py``: what the search knows of the game (the re-deal, the prior, the reward);
* ``protocol.py``: the game on the decision protocol, through which the engine
  (``pirate_sim/engine_template.py``) plays every run, trace, strategy file and search;
* this module: :class:`State`, :func:`play_one`, ... for tests.

All state lives in small int32 arrays (layouts in rules.py; output columns in columns.py); a
game is a pure function of its rng stream.  Every kernel is ``@njit(cache=True)`` and also runs
as plain Python (NUMBA_DISABLE_JIT=1) with identical results.

Common arguments: ``sd`` the int32 static table (rules, seats' strategy codes and policy
parameters, cards; layout in rules.py), ``rng`` the game's uint64 stream, ``w`` the int32
work array holding the game state, ships, seat counters, track, deck and (for traces)
the event log.  The rules NamedTuple is not passed: numba flattens every argument into
machine arguments (the 36-field NamedTuple plus four arrays made 74 per call), so each
call of a non-inlined kernel cost more than the work it did; three arrays make 25.
Every kernel but the allocating helpers is compiled with ``_nrt=False``: with numba's reference
counting on, each call of a non-inlined kernel increfs and decrefs its three arrays (six
indirect calls and atomics per call); profiling put about half of a bulk run there.  No kernel
of the rules allocates, so they need no NRT (the engine's drivers own the arrays).
numba's cache=True alone only notices edits of the defining file; pirate_sim/_cache.py keys
the cache folder by the digest of every source a module imports, so an edit of
strategies.py, rules.py or board.py compiles afresh.

May import every kernel module of the game but ``protocol``; the tests import it.
"""

from __future__ import annotations

import numpy as np

from .columns import N_GAME_COLS, N_SEAT_COLS
from .mechanics import ensure_laid_nb
from .rules import EV_WIDTH, G_N_EV, G_TURNS, ROW_CNT, ROW_DECK, ROW_EV, ROW_SHIP, ROW_ST, ROW_TRACK, SD_SP, SP_SEARCH
from .sea import sail_call_nb
from .whole_game import play_game_nb, play_rest_nb, reset_nb, seat_strategies_nb, setup_game_nb


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
    """Play one turn of ``seat`` on ``rng`` (e.g. ``scripted_rng([...])``) as the game's loop plays
    it (``play_rest_nb`` limited to one more turn: nothing once the game is over, the game ends
    truncated at the turn cap).  That loop's machine code is the one a run compiled and cached
    (a test-only kernel of the turn was 13-17 s of the test suite's compile)."""
    play_rest_nb(state.sd, rng, state.w, np.int64(seat), np.int64(state.w[ROW_ST, G_TURNS] + 1))


def sail(state, seat, rng, steps):
    """Move ``seat`` ``steps`` spaces with every encounter: the kernel's ``sail_nb``, as the asked
    turns call it (``sea.sail_call_nb``, compiled and cached with the engine; calling the inlined
    sail_nb from Python compiled a copy of its own, 7 s of the test suite's compile)."""
    sail_call_nb(state.sd, rng, state.w, np.int64(seat), np.int64(steps), np.int64(-1))


def play_one(compiled, rng, deck_order=None, ev_capacity=0, game_index=0):
    """Play game ``game_index`` of a table of scripted seats on ``rng`` with the rules' game loop
    (``whole_game.play_game_nb``, the one the engine plays inline); returns the State."""
    s = State(compiled, ev_capacity, deck_order)
    s.sd = s.sd.copy()
    seat_strategies_nb(compiled.extra["sd"], s.sd, game_index)
    if s.sd[SD_SP, SP_SEARCH] != 0 or s.sd[SD_SP + 1, SP_SEARCH] != 0:
        raise ValueError("play_one plays scripted seats (a search seat: GAME.play / GAME.trace)")
    play_game_nb(s.sd, rng, s.w, s.deck_order, s.out_games, s.out_seats, 0, game_index)
    return s


def setup(state, rng, game_index=0):
    """Setup purchases and the first-player choice on ``rng``; returns the first seat."""
    return setup_game_nb(state.sd, rng, state.w, state.deck_order, game_index)
