"""Pirate's Cove on the decision protocol (``pirate_sim/contract.py``): its rules behind the
protocol's names, so the engine (``pirate_sim/engine_template.py``) plays its bulk runs, traces,
strategy files and ``search`` seats with the drivers and the search loop every protocol game
shares.

The rules' loop ``rounds.advance_nb`` already pauses: it stops at a decision of a seat whose
entry row has SP_SEARCH set (``G_DEC`` the kind, ``G_DEC_SEAT`` the seat) and resumes from the
state once the answer is in ``G_FORCED``.  Scripted seats decide inline on the game's stream, as
they always did.  ``next_decision_nb`` runs that loop to its next pause, so the engine sees:

* in a rollout of a search with a ``horizon``, **a round's start** (``DEC_ROUND``, one option,
  seat 0) at every round but past the last: no player is asked; it gives the engine's horizon
  its unit (``turn_nb`` counts rounds), since a scripted rollout has no other decision;
* **a search seat's** searched decisions (rules.DEC_*: island, attack or flee, Tavern cards,
  levels, the Treasure Island upgrade), one option or several;
* **a strategy file's island choice** (options the islands 1..6).  Its other decisions are its
  ``base`` strategy's, answered here on the stream the game is played on (``prior_nb``, the call
  the rules make for that strategy).

A search entry's rollouts play every seat as its rollout strategy: ``determinise_nb`` re-deals
what the seat cannot know, sets every seat's entry to the *rollout row* ``n + e`` of the tables
(entry >= n: the state is a rollout's) and, at an island choice, lets the other seats choose
their islands again (the choice is secret and simultaneous).  A search that rolls out a strategy
file has rollout rows that pause (SP_SEARCH set), so the file chooses every island of the
rollout, the other seats' again included (``G_RECHOOSE``).  Its streams, prior and keys are the
bundled search's: a search's streams are derived at ``G_DECISIONS`` (its decisions so far, one
option included), a file's at (round, seat) (``user_stream_key_nb``).

Tables ``T`` (``engine.engine_tables``): ``tr``, ``cards``, ``ncards``, ``tavern``, ``legends``
(actions.py's docstring), the strategy codes ``strat`` and parameters ``sp`` of the entries (rows
0..n-1) and of their rollouts (rows n..2n-1), and each entry's kind (``K_*``).
``thread_tables_nb`` adds one thread's work areas (``W_*``).

May import every kernel module of the game below ``whole_game`` and ``pirate_sim.search``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from pirate_sim.games.kernel_base import copy_range_nb

from ...search import derive_stream_nb, top_k_nb
from .actions import WK_SIZE, log_nb
from .policies import FS_READY, FS_SIZE, SP_HORIZON, SP_SEARCH, choose_island_nb
from .rounds import advance_nb
from .rules import (DEC_ISLAND, DEC_NONE, EV_SEARCH, FORCED_BIAS, G_CUR, G_DEC, G_DEC_SEAT, G_DECISIONS, G_EVENTS,
                    G_FORCED, G_PEND, G_PHASE, G_RECHOOSE, G_ROUND, G_STEP, MAX_SEATS, MAX_TAVERN, PH_DONE,
                    PH_START, S_ENTRY, STATE_WORDS)
from .search_player import MAX_OPT, PRIOR_STREAM, options_nb as kind_options_nb, prior_nb, resample_nb, score_nb
from .ship import sb_nb
from .user_view import VIEW_LEN as _VIEW_LEN, fill_view_nb
from .whole_game import setup_nb as setup_game_nb, write_outputs_nb

MAX_OPTIONS = MAX_OPT
VIEW_LEN = _VIEW_LEN
DEC_ROUND = 6  # G_DEC of a round's start (after rules.DEC_*): one option, nobody asked
# G_STEP: a round's start is asked (STEP_ASKED) or taken (STEP_GO: advance_nb plays the round);
# STEP_FRESH: a rollout's state, its searched option not yet applied (determinise_nb)
STEP_ASKED, STEP_GO, STEP_FRESH = 1, 2, 3
SP_TOP_K = 1  # engine_template.SP_TOP_K: a search entry's top_k in the engine's row (not policies.SP_TOP_K)
K_SCRIPTED, K_SEARCH, K_FILE = 0, 1, 2  # T[T_KIND][e]: how entry e decides
T_TR, T_CARDS, T_NCARDS, T_TAVERN, T_LEGENDS, T_STRAT, T_SP, T_KIND = range(8)
# W_FS, W_WK the game's public model and scratch (actions.py's ``fs``, ``wk``); W_RFS, W_RWK a
# rollout's and the prior's; W_POOL the re-deal's pool; W_CNT[0] the rollouts played since the
# last searched decision was applied (its EV_SEARCH row says how many)
W_FS, W_WK, W_RFS, W_RWK, W_POOL, W_CNT = range(8, 14)

# the engine's game loop and rollouts compiled without reference counting (engine_template.ENGINE_NRT)
ENGINE_NRT = False


@njit(cache=True)
def thread_tables_nb(P, T):
    """``T`` and one thread's work areas (W_*)."""
    return T + (np.zeros(FS_SIZE, np.float64), np.zeros(WK_SIZE, np.int64), np.zeros(FS_SIZE, np.float64),
                np.zeros(WK_SIZE, np.int64), np.zeros(MAX_TAVERN, np.int64), np.zeros(1, np.int64))


@njit(cache=True, inline="always")
def in_rollout_nb(st, P):
    """A rollout's state: every seat plays a rollout row (entries n..2n-1)."""
    return st[sb_nb(0) + S_ENTRY] >= P.n_seats


@njit(cache=True)
def new_state_nb(P):
    return np.zeros(STATE_WORDS, np.int32)


@njit(cache=True)
def setup_nb(st, ev, rng, P, T, k):
    setup_game_nb(st, ev, rng, P, T[T_TR], T[T_NCARDS], T[T_TAVERN], T[T_LEGENDS], T[T_STRAT], T[T_SP], k)
    T[W_CNT][0] = 0


@njit(cache=True, inline="always")  # once per decision: a call passes T's 14 arrays
def next_decision_nb(st, ev, rng, P, T):
    """Play on (``advance_nb``) to the next decision the engine hands out; its seat, -1 at the end.
    A round's start is a decision only in a rollout with a horizon (``rounds_asked_nb``)."""
    roll = in_rollout_nb(st, P)
    fs = T[W_RFS] if roll else T[W_FS]
    wk = T[W_RWK] if roll else T[W_WK]
    strat, sp = T[T_STRAT], T[T_SP]
    asked = roll and rounds_asked_nb(st, P, T)
    while True:
        if st[G_DEC] != DEC_NONE and st[G_FORCED] == 0:  # a decision waits (asked, not yet answered)
            s = st[G_DEC_SEAT]
            if not _answers_itself_nb(st, P, T, st[G_DEC], s):
                return s
            st[G_FORCED] = prior_nb(st, rng, P, T[T_TR], strat, sp, fs, st[G_DEC], s) + FORCED_BIAS
        if st[G_RECHOOSE] != 0:  # a file's rollout: the next seat choosing its island again
            o = 0
            while (st[G_RECHOOSE] >> o) & 1 == 0:
                o += 1
            st[G_DEC] = DEC_ISLAND
            st[G_DEC_SEAT] = o
            return o
        if st[G_PHASE] == PH_DONE:
            return -1
        stop = P.rounds + 1  # to the end
        if asked:
            if st[G_PHASE] == PH_START and st[G_ROUND] < P.rounds:
                if st[G_STEP] != STEP_GO:
                    st[G_STEP] = STEP_ASKED
                    st[G_DEC] = DEC_ROUND
                    st[G_DEC_SEAT] = 0
                    return 0
                st[G_STEP] = 0
            stop = st[G_ROUND] + 1  # to the next round's start
        d = advance_nb(st, ev, rng, P, T[T_TR], T[T_CARDS], T[T_LEGENDS], strat, sp, fs, wk, stop)
        if d == DEC_NONE:
            continue
        s = st[G_DEC_SEAT]
        if _answers_itself_nb(st, P, T, d, s):
            st[G_FORCED] = prior_nb(st, rng, P, T[T_TR], strat, sp, fs, d, s) + FORCED_BIAS
            continue
        return s


@njit(cache=True, inline="always")
def rounds_asked_nb(st, P, T):
    """Is a round's start a decision here?  In a rollout of a search with a ``horizon``: the
    engine counts it in rounds (``turn_nb``) before each decision, and a scripted rollout has no
    other.  Elsewhere the rules play on to the next real decision in one call, as the old drivers
    did (docs/performance.md: a first version that asked it in every game and rollout, its
    per-decision functions out of line, was 10% slower in search games)."""
    return T[T_SP][st[sb_nb(0) + S_ENTRY], SP_HORIZON] > 0


@njit(cache=True, inline="always")
def _answers_itself_nb(st, P, T, d, s):
    """Does the protocol answer seat ``s``'s paused decision ``d`` itself?  A strategy file (a
    seat's, or a rollout's: a rollout row pauses only for a file) chooses islands only: its
    other decisions are its base strategy's, answered on the stream the game is played on."""
    if d == DEC_ISLAND or d == DEC_ROUND:
        return False
    e = st[sb_nb(s) + S_ENTRY]
    return e >= P.n_seats or T[T_KIND][e] == K_FILE


@njit(cache=True, inline="always")
def options_nb(st, P, T, opts):
    d = st[G_DEC]
    if d == DEC_ROUND:
        opts[0] = 0
        return 1
    return kind_options_nb(st, P, T[T_TR], d, st[G_DEC_SEAT], opts)


@njit(cache=True)
def file_asks_nb(st, P, T):
    """A strategy file chooses the islands; its base strategy the rest (fights, the Tavern, levels)."""
    return st[G_DEC] == DEC_ISLAND


@njit(cache=True, inline="always")
def apply_nb(st, ev, rng, P, T, option):
    """The answer into the state where ``advance_nb`` reads it (``G_FORCED``); a searched
    decision of the game counts (``G_DECISIONS``) and is logged with its rollouts."""
    d = st[G_DEC]
    if d == DEC_ROUND:
        st[G_DEC] = DEC_NONE
        st[G_STEP] = STEP_GO
        return
    s = st[G_DEC_SEAT]
    e = st[sb_nb(s) + S_ENTRY]
    n = P.n_seats
    if e >= n:  # a rollout's
        fresh = st[G_STEP] == STEP_FRESH
        st[G_STEP] = 0
        if d == DEC_ISLAND and (fresh or (st[G_RECHOOSE] >> s) & 1 == 1):
            # the searched island (the others chose again: determinise_nb) or a file's choice again
            st[G_PEND + s] = option
            st[G_DEC] = DEC_NONE
            if fresh and T[T_SP][e, SP_SEARCH] >= 0.5:
                st[G_RECHOOSE] = ((1 << n) - 1) & ~(1 << s)  # a file chooses the others' islands again
            else:
                st[G_RECHOOSE] &= ~(1 << s)
            if st[G_RECHOOSE] == 0:
                st[G_CUR] = n
            return
        st[G_FORCED] = option + FORCED_BIAS
        return
    st[G_FORCED] = option + FORCED_BIAS
    if T[T_KIND][e] == K_SEARCH:
        cnt = T[W_CNT]
        st[G_DECISIONS] += 1
        log_nb(st, ev, s, EV_SEARCH, d, option, cnt[0])
        cnt[0] = 0


@njit(cache=True, inline="always")
def policy_nb(st, rng, P, T, seat, code, prm, opts, n, scores):
    """A scripted seat's answer: its strategy's own (``prior_nb``).  The engine asks a scripted
    seat only at a round's start (its entry row never pauses the rules), so only that is reached
    in the bundled tables."""
    if n <= 1:
        return 0
    roll = in_rollout_nb(st, P)
    pick = prior_nb(st, rng, P, T[T_TR], T[T_STRAT], T[T_SP], T[W_RFS] if roll else T[W_FS], st[G_DEC], seat)
    for i in range(n):
        if opts[i] == pick:
            return i
    return 0


@njit(cache=True)
def search_prepare_nb(truth, rng, P, T, seat, sp, rp, opts, n, key, prng, scores, alive):
    """The bundled search's prior: the rollout strategy's own choice (the seat's entry row, on a
    stream of its own, a rollout's public model) first, then ``top_k``; one kept: taken at once."""
    derive_stream_nb(prng, rng, key, PRIOR_STREAM)
    pick = prior_nb(truth, prng, P, T[T_TR], T[T_STRAT], T[T_SP], T[W_RFS], truth[G_DEC], seat)
    for i in range(n):
        scores[i] = 1.0 if opts[i] == pick else 0.0
    m = top_k_nb(scores, n, int(sp[SP_TOP_K]), alive)
    if m == 1:
        return alive[0], 0
    return -1, m


@njit(cache=True, inline="always")
def stream_key_nb(st, decision):
    """A search's streams are derived at its decisions so far (one-option ones included)."""
    return st[G_DECISIONS]


@njit(cache=True, inline="always")
def user_stream_key_nb(st, decision):
    """A file's stream: one per round and seat, so two seats choosing in a row differ."""
    return st[G_ROUND] * MAX_SEATS + st[G_DEC_SEAT]


@njit(cache=True)
def determinise_nb(st, truth, rng, P, T, seat):
    """``truth`` with what ``seat`` cannot know re-dealt (``resample_nb``), every seat on the
    seat's rollout row; at an island choice the other seats choose again (rollout strategy, a
    rollout's public model) unless a file's rollout chooses for them (``apply_nb``)."""
    copy_range_nb(st, 0, truth, 0, st.size)
    resample_nb(st, rng, P, T[T_NCARDS], seat, T[W_POOL])
    n = P.n_seats
    e = truth[sb_nb(seat) + S_ENTRY] + n
    for o in range(n):
        st[sb_nb(o) + S_ENTRY] = e
    rfs = T[W_RFS]
    rfs[FS_READY] = 0.0
    st[G_STEP] = STEP_FRESH
    T[W_CNT][0] += 1
    if truth[G_DEC] == DEC_ISLAND and T[T_SP][e, SP_SEARCH] < 0.5:
        for o in range(n):
            if o != seat:
                st[G_PEND + o] = choose_island_nb(st, rng, P, T[T_TR], T[T_STRAT], T[T_SP], rfs, o)


@njit(cache=True)
def playout_seats_nb(st, P, T, seat):
    """The bench's plain playout from ``seat``'s recorded decision: every seat on the seat's
    rollout row, as its rollouts play (nothing re-dealt, no option forced, its own decision too)."""
    e = st[sb_nb(seat) + S_ENTRY] + P.n_seats
    for o in range(P.n_seats):
        st[sb_nb(o) + S_ENTRY] = e


@njit(cache=True, inline="always")
def reward_nb(st, P, T, seat, kind):
    return score_nb(st, P, seat, kind)


@njit(cache=True, inline="always")
def turn_nb(st):
    """Rounds begun (the round a decision is in, 1-based): the search's horizon counts rounds."""
    return st[G_ROUND] + 1


@njit(cache=True)
def n_events_nb(st):
    return st[G_EVENTS]


@njit(cache=True)
def outputs_nb(st, rng, P, T, out_g, out_s):
    write_outputs_nb(st, rng, P, out_g, out_s)


@njit(cache=True)
def view_nb(st, P, T, seat, view):
    fill_view_nb(st, P, seat, view)  # user_view.py documents the layout
