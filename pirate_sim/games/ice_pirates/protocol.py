"""Ice Pirates kernel, part 7 of 7: the game on the decision protocol (``pirate_sim/contract.py``),
its rules behind the protocol's names, so the engine (``pirate_sim/engine_template.py``) plays its bulk runs, traces,
strategy files and ``search`` seats with the drivers and the search loop every protocol game
shares.

A turn of Ice Pirates is one call of the rules (``play.play_on_nb``) that keeps its locals
(position, moves, ships passed, rams tried) on the stack, so it cannot stop half-way and go on
later.  A seat whose entry row has SP_SEARCH set (a ``search`` seat, a strategy file's seat, or
a rollout's seat where the search rolls out a file) is *asked*: its turn is played from its
start with its choices so far forced (T_FORCED) until it pauses at its next choice of a
heading, of fighting the waves or of a raid (T_PEND); the answer joins the forced choices and
the turn is played again from its start.  The state therefore carries the turn's start beside
the rules' words, and the game's stream is put back to the turn's start at each pause: a
replay draws again exactly what the first play drew, the search and a file derive their
streams from the turn's start, as the bundled search did, and the engine never sees a stream
half-way through a turn.  Every other seat's turns are played inline, many in one call.

State (int32[PROTO_WORDS]): words 0..W-1 the rules' (``rules.py``, W = rules.STATE_WORDS); then

* X_START .. X_START + W - 1: the paused turn's start (its T_FORCED words the choices so far);
* X_STEP: where the game stands (STEP_*); X_NF: the choices of the turn forced so far;
* X_ROLL: 1 in a search's rollout (its seats play the rollout rows, W_RUN_*);
* X_ASK: 1 in a rollout of a search with a ``horizon``: each turn's start is a decision with one
  option (nobody is asked; it gives the engine's horizon its unit, as Pirate's Cove's rounds).

Tables ``T`` (``engine.engine_tables``): ``geo``, ``rel``, ``cum_w``, ``costs``, ``deck``,
``port_upg`` (state.py's docstring), the strategy codes ``strat`` and parameters ``sp`` of the
entries (rows 0..n-1; SP_SEARCH set where the entry is asked) and of the scripted strategies'
defaults (rows n..n+4), and each search entry's rollout row (``rstrat``, ``rsp``: its rollout
strategy's default row, SP_SEARCH set where it rolls out a file).  ``thread_tables_nb`` adds
one thread's work areas (W_*).

A search entry's rollout j re-deals the face-down Bay cards (``searcher.redeal_nb``), plays its
own seat as its rollout row and, with ``opponents = "mix"``, the other seats as the default row
OPP_POOL[j mod 4] (``determinise_at_nb``: the engine passes j).  Its streams are derived at
(the turn's start, the choice's number in the turn), as the bundled search's were.

May import every kernel module of the game and ``pirate_sim.search``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from pirate_sim.games.kernel_base import copy_range_nb

from ...rng import RNG_WORDS
from ...search import top_k_nb
from .play import play_on_nb, setup_nb as setup_game_nb, write_outputs_nb
from .rules import (G_END, G_ENTRY, G_EVENTS, G_SEAT, G_TURN, MAX_FORCED, N_BAY, STATE_WORDS, T_FORCED, T_FPOS,
                    T_FSEAT, T_NF, T_PAUSE, T_PEND)
from .searcher import MAX_OPTIONS as _MAX_OPTIONS, options_nb as choice_options_nb, prior_nb, redeal_nb, \
    reward_nb as score_nb
from .state import FS_KEY_TURN, FS_SIZE, OPP_MIX, OPP_POOL, SP_HORIZON, SP_OPPONENTS, SP_SEARCH
from .user_view import VIEW_LEN as _VIEW_LEN, fill_plan_nb, fill_view_nb

MAX_OPTIONS = _MAX_OPTIONS
VIEW_LEN = _VIEW_LEN
W = STATE_WORDS  # the rules' words
X_START = W  # [W] the paused turn's start
X_STEP = 2 * W  # STEP_*
X_NF = 2 * W + 1  # choices of the paused turn forced so far
X_ROLL = 2 * W + 2  # 1: a rollout's state
X_ASK = 2 * W + 3  # 1: each turn's start is asked (a rollout of a search with a horizon)
PROTO_WORDS = 2 * W + 4
# X_STEP: STEP_PAUSED a choice waits (T_PEND; the game's stream at the turn's start); STEP_REPLAY
# its answer is in: the turn is played again from its start; STEP_FRESH a rollout's state before
# its searched option, STEP_FIRST after it (the searched turn, replayed next); STEP_ASKED a
# turn's start is asked, STEP_GO it was answered
STEP_PAUSED, STEP_REPLAY, STEP_FRESH, STEP_FIRST, STEP_ASKED, STEP_GO = 1, 2, 3, 4, 5, 6
SP_TOP_K = 1  # engine_template.SP_TOP_K: a search entry's top_k in the engine's row (not state.SP_TOP_K)
T_GEO, T_REL, T_CUM_W, T_COSTS, T_DECK, T_PORT_UPG, T_STRAT, T_SP, T_RSTRAT, T_RSP = range(10)
# W_FS the game's planner work space, W_RFS a rollout's, W_PFS the prior's; W_CARDS the re-deal's
# cards, W_PERM set-up's deck order; W_RUN_STRAT, W_RUN_SP the rows a rollout's seats play (by
# entry); W_RNG0 the stream at the start of the turn being played (inside next_decision_nb only);
# W_VFS the planner work space of a strategy file's view (its plan words, user_view.fill_plan_nb)
W_FS, W_RFS, W_PFS, W_CARDS, W_PERM, W_RUN_STRAT, W_RUN_SP, W_RNG0, W_VFS = range(10, 19)

# the engine's game loop and rollouts compiled without reference counting (engine_template.ENGINE_NRT)
ENGINE_NRT = False


@njit(cache=True)
def thread_tables_nb(P, T):
    """``T`` and one thread's work areas (W_*)."""
    n = P.n_seats
    return T + (np.zeros(FS_SIZE, np.int64), np.zeros(FS_SIZE, np.int64), np.zeros(FS_SIZE, np.int64),
                np.zeros(N_BAY, np.int64), np.zeros(N_BAY, np.int64), np.zeros(n, np.int32),
                np.zeros((n, T[T_SP].shape[1]), np.float64), np.zeros(RNG_WORDS, np.uint64),
                np.zeros(FS_SIZE, np.int64))


@njit(cache=True)
def new_state_nb(P):
    return np.zeros(PROTO_WORDS, np.int32)


@njit(cache=True)
def setup_nb(st, ev, rng, P, T, k):
    """Set-up (``play.setup_nb`` zeroes every word, the protocol's too); no plan reused."""
    setup_game_nb(st, ev, rng, P, T[T_GEO], T[T_CUM_W], T[T_DECK], T[T_PORT_UPG], T[W_PERM], k)
    T[W_FS][FS_KEY_TURN] = -1


@njit(cache=True, inline="always")
def _replay_nb(st, ev, rng, P, T, strat, sp, fs, nf, fresh):
    """The seat to move's turn from its start (X_START; ``fresh``: the rules' words are the start,
    copied aside where the turn may pause again) with its first ``nf`` choices forced, up to its
    next choice (True: paused there, the stream back at the turn's start) or its end."""
    rng0 = T[W_RNG0]
    for i in range(RNG_WORDS):
        rng0[i] = rng[i]
    if fresh:
        if sp[st[G_ENTRY + st[G_SEAT]], SP_SEARCH] > 0:
            copy_range_nb(st, X_START, st, 0, W)
    else:
        copy_range_nb(st, 0, st, X_START, W)
    st[T_FSEAT] = st[G_SEAT]
    st[T_NF] = nf
    st[T_FPOS] = 0
    st[T_PAUSE] = 1 if nf < MAX_FORCED - 1 else 0  # (never reached: a turn has fewer choices)
    st[T_PEND] = 0
    fs[FS_KEY_TURN] = -1  # no plan of an earlier play of the turn is reused
    play_on_nb(st, ev, rng, P, T[T_GEO], T[T_REL], T[T_CUM_W], T[T_COSTS], strat, sp, fs, np.int64(1))
    if st[T_PEND] != 0:
        for i in range(RNG_WORDS):
            rng[i] = rng0[i]
        st[X_STEP] = STEP_PAUSED
        st[X_NF] = nf
        return True
    st[T_NF] = 0
    st[T_FPOS] = 0
    st[T_PAUSE] = 0
    st[X_STEP] = 0
    return False


@njit(cache=True, inline="always")
def play_rows_nb(st, T):
    """(strat, sp): the rows the state's seats play, a rollout's (W_RUN_*) or the table's."""
    if st[X_ROLL] != 0:
        return T[W_RUN_STRAT], T[W_RUN_SP]
    return T[T_STRAT], T[T_SP]


@njit(cache=True, inline="always")  # once per decision
def next_decision_nb(st, ev, rng, P, T):
    """Play on to the next decision: the seat whose choice waits, -1 once the game is over.  An
    answered choice replays its turn first; a seat that is not asked plays its turns inline."""
    strat, sp = play_rows_nb(st, T)
    fs = T[W_RFS] if st[X_ROLL] != 0 else T[W_FS]
    x = st[X_STEP]
    if x == STEP_PAUSED:  # (asked again before an answer: the same choice)
        return st[G_SEAT]
    if x == STEP_REPLAY or x == STEP_FIRST:
        if _replay_nb(st, ev, rng, P, T, strat, sp, fs, st[X_NF], x == STEP_FIRST):
            return st[G_SEAT]
    while st[G_END] < 0:
        if st[X_ASK] != 0 and st[X_STEP] != STEP_GO:
            st[X_STEP] = STEP_ASKED
            return st[G_SEAT]
        st[X_STEP] = 0
        if st[G_TURN] < P.turn_cap and sp[st[G_ENTRY + st[G_SEAT]], SP_SEARCH] > 0:
            # the asked seat's turn, from its start, nothing forced
            if _replay_nb(st, ev, rng, P, T, strat, sp, fs, 0, True):
                return st[G_SEAT]
        else:  # turns of seats not asked, up to the next asked one (or one turn, with a horizon)
            play_on_nb(st, ev, rng, P, T[T_GEO], T[T_REL], T[T_CUM_W], T[T_COSTS], strat, sp, fs,
                       np.int64(st[X_ASK]))
    return -1


@njit(cache=True, inline="always")
def options_nb(st, P, T, opts):
    if st[X_STEP] == STEP_ASKED:
        opts[0] = 0
        return 1
    return choice_options_nb(st, P, opts)


@njit(cache=True, inline="always")
def apply_nb(st, ev, rng, P, T, option):
    """A turn's start goes on; a choice joins the turn's forced choices (replayed next)."""
    x = st[X_STEP]
    if x == STEP_ASKED:
        st[X_STEP] = STEP_GO
        return
    nf = st[X_NF]
    st[(0 if x == STEP_FRESH else X_START) + T_FORCED + nf] = option  # a rollout's start: its rules' words
    st[X_NF] = nf + 1
    st[X_STEP] = STEP_FIRST if x == STEP_FRESH else STEP_REPLAY


@njit(cache=True, inline="always")
def policy_nb(st, rng, P, T, seat, code, prm, opts, n, scores):
    """A scripted seat is never asked (its choices are its policy's, inside the rules): only a
    turn's start, one option, reaches here."""
    return 0


@njit(cache=True)
def search_prepare_nb(truth, rng, P, T, seat, sp, rp, opts, n, key, prng, scores, alive):
    """The bundled search's prior (``searcher.prior_nb``: the rollout strategy's liking of each
    option, no stream), then ``top_k``; one kept: taken at once."""
    prior_nb(truth, truth[X_START:X_START + W], P, T[T_GEO], T[T_REL], T[T_COSTS], T[T_STRAT], T[T_SP], seat, opts,
             n, scores, T[W_PFS])
    m = top_k_nb(scores, n, np.int64(sp[SP_TOP_K]), alive)
    if m == 1:
        return alive[0], 1
    return -1, m


@njit(cache=True, inline="always")
def stream_key_nb(st, decision):
    """A choice's streams are derived at (its turn's start, its number in the turn)."""
    return np.int64(st[X_START + G_TURN]) * MAX_FORCED + st[X_NF]


@njit(cache=True, inline="always")
def _rollout_rows_nb(P, T, e, mix_row):
    """Every seat of a rollout of search entry ``e`` on its rollout row; with ``mix_row >= 0``
    the other entries on that default row."""
    rstrat, rsp, sp = T[W_RUN_STRAT], T[W_RUN_SP], T[T_SP]
    for i in range(P.n_seats):
        if mix_row < 0 or i == e:
            rstrat[i] = T[T_RSTRAT][e]
            for k in range(rsp.shape[1]):
                rsp[i, k] = T[T_RSP][e, k]
        else:
            rstrat[i] = T[T_STRAT][mix_row]
            for k in range(rsp.shape[1]):
                rsp[i, k] = sp[mix_row, k]


@njit(cache=True, inline="always")  # once a rollout: a call passes T's 18 arrays
def determinise_at_nb(st, truth, rng, P, T, seat, j):
    """Rollout ``j``: the paused turn's start with the face-down Bay cards re-dealt
    (``searcher.redeal_nb``: what ``seat`` has seen stays), its choices so far forced, every seat
    on the rollout rows (the mix's row of j for the others).  The start is copied once, into the
    rules' words (``_replay_nb`` copies it aside only where the turn may pause again)."""
    copy_range_nb(st, 0, truth, X_START, W)
    redeal_nb(st, truth, rng, P, T[T_GEO], T[W_CARDS])
    st[X_NF] = truth[X_NF]
    st[X_STEP] = STEP_FRESH
    st[X_ROLL] = 1
    e = truth[G_ENTRY + seat]
    sp = T[T_SP]
    st[X_ASK] = 1 if sp[e, SP_HORIZON] > 0 else 0
    mix_row = P.n_seats + OPP_POOL[j % OPP_POOL.shape[0]] if sp[e, SP_OPPONENTS] == OPP_MIX else -1
    _rollout_rows_nb(P, T, e, mix_row)
    T[W_RFS][FS_KEY_TURN] = -1  # this rollout's own plans


@njit(cache=True)
def determinise_nb(st, truth, rng, P, T, seat):
    """:func:`determinise_at_nb` of rollout 0."""
    determinise_at_nb(st, truth, rng, P, T, seat, 0)


@njit(cache=True)
def playout_seats_nb(st, P, T, seat):
    """The bench's plain playout from ``seat``'s recorded choice: its turn played again from its
    start with the choices before it forced, every seat on the rollout row (nothing re-dealt,
    the choice itself the rollout strategy's)."""
    _rollout_rows_nb(P, T, st[G_ENTRY + seat], -1)
    st[X_ROLL] = 1
    st[X_ASK] = 0
    st[X_STEP] = STEP_REPLAY


@njit(cache=True, inline="always")
def reward_nb(st, P, T, seat, kind):
    return score_nb(st, P, seat, kind)


@njit(cache=True, inline="always")
def turn_nb(st):
    """The turn a decision is in (turns begun).  In a rollout a turn paused for a strategy file
    counts from its start, and the searched turn as begun, so that a ``horizon`` of H plays the
    searched turn and H more whole turns, as the bundled search did."""
    x = st[X_STEP]
    if st[X_ROLL] != 0:
        if x == STEP_FIRST or x == STEP_FRESH:
            return st[G_TURN] + 1  # (the rules' words are the turn's start)
        if x == STEP_PAUSED or x == STEP_REPLAY:
            return st[X_START + G_TURN]
    return st[G_TURN]


@njit(cache=True)
def n_events_nb(st):
    return st[G_EVENTS]


@njit(cache=True)
def outputs_nb(st, rng, P, T, out_g, out_s):
    write_outputs_nb(st, rng, P, out_g, out_s)


@njit(cache=True)
def view_nb(st, P, T, seat, view):
    st0 = st[X_START:X_START + W]
    fill_view_nb(st, st0, P, view)  # user_view.py documents the layout
    strat, sp = play_rows_nb(st, T)  # the rows its turn is played with
    fill_plan_nb(st, st0, P, T[T_GEO], T[T_REL], T[T_COSTS], strat, sp, T[W_VFS], view)
