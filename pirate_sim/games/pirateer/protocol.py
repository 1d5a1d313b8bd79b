"""Pirateer on the decision protocol (``pirate_sim/contract.py``): its rules functions behind the
protocol's names, so the engine (``pirate_sim/engine_template.py``) plays its bulk runs, traces
and ``search`` seats with the drivers and the search loop every protocol game shares.

A decision is a turn of the seat to move: ``next_decision_nb`` rolls (``turn.start_turn_nb``:
the turn cap truncates) and lists the plays into the thread's plays table; an option is a row of
that table (its index).  A search's rollouts list their own turns' plays into the same table, so
``search_prepare_nb`` keeps the searched turn's list (``W_ROOT``), ``determinise_nb`` puts it
back at the start of each rollout (which first makes the option searched) and ``refresh_nb``
lists it again once the search is over.  A turn with no legal play is a decision with one
option, ``PASS``: no player is asked, and the turn passes in ``apply_nb``.  ``st[G_PLAYS]`` is 0
between turns (as set-up leaves it), the count of the waiting turn's plays, or ``PASS_PENDING``
while a turn without a play waits, so ``next_decision_nb`` at a waiting turn returns the same
seat without rolling.

Tables ``T`` (``engine.engine_tables``): the geometry's ``nb``, ``kind``, ``is_anchor``,
``dist``, ``dist_island``, ``seat_home``, ``seat_allowed``, then ``seat_harbor``,
``seat_anchor``, ``seat_start``, and the scripted strategies' default rows (``rows_codes``,
``rows_w``: the search's rollout and prior read them).  ``thread_tables_nb`` adds one thread's
work areas (``W_*``).

The search (``search_prepare_nb``) is the bundled game's: plays that leave the same position
merged, a winning play taken at once, the prior strategy's ``top_k``; a rollout's stream is
derived at the turn (``stream_key_nb``).  A search entry's parameters are the engine's slots
(``engine_template.SP_*``) and the prior's row at ``SP_PRIOR``.

May import every kernel module of the game below ``whole_game`` and ``pirate_sim.search``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from pirate_sim.games.kernel_base import copy_range_nb, copy_rows_nb

from ...search import top_k_nb
from .rules import DIE_SIDES, EV_TRUNC, G_END, G_EVENTS, G_PLAYS, G_ROLL, G_SEAT, G_TURN, MAX_PLAYS, MAX_SHIPS, \
    PLAY_WIDTH
from .state import SP_RISK, ST_RANDOM, log_nb
from .moves import gen_plays_nb
from .players import compute_threat_nb, policy_nb as scripted_nb, score_play_nb
from .search_player import play_key_nb, reward_nb as ships_reward_nb
from .turn import finish_turn_nb, start_turn_nb
from .user_view import VIEW_LEN as _VIEW_LEN, fill_view_nb
from .whole_game import setup_nb as setup_game_nb, write_outputs_nb

MAX_OPTIONS = MAX_PLAYS
VIEW_LEN = _VIEW_LEN
PASS = -1  # the one option of a turn without a legal play
PASS_PENDING = -2  # st[G_PLAYS] while a turn without a legal play waits (0: no turn waits)
SP_TOP_K, SP_PRIOR = 1, 5  # a search entry's top_k (engine_template.SP_TOP_K) and its prior's row
# T's tables, then the work areas thread_tables_nb adds
T_NB, T_KIND, T_ANCHOR, T_DIST, T_DIST_ISLAND, T_HOME, T_ALLOWED, T_HARBOR, T_SEAT_ANCHOR, T_START = range(10)
T_ROW_CODES, T_ROW_W = 10, 11
# W_PLAYS the turn's plays (int32[MAX_PLAYS, 8]); W_REACH, W_UNION, W_HITS the threat walk's
# (players.compute_threat_nb); W_KEYS, W_HK, W_UNIQ the search's merge of plays leaving one
# position, W_SCORE, W_IDX its prior's scores and order; W_PASS the pass's play row (all -1);
# W_HEAT an empty heat map (the heat map reads the event log: game.add_heat); W_ROOT the
# searched turn's plays, put back at each rollout's start
W_PLAYS, W_REACH, W_UNION, W_HITS, W_KEYS, W_HK, W_UNIQ, W_SCORE, W_IDX, W_PASS, W_HEAT, W_ROOT = range(12, 24)

# the engine's game loop and rollouts compiled without reference counting (engine_template.ENGINE_NRT)
ENGINE_NRT = False


@njit(cache=True, error_model="numpy")
def thread_tables_nb(P, T):
    """``T`` and one thread's work areas (W_*)."""
    plays = np.zeros((MAX_PLAYS, PLAY_WIDTH), np.int32)
    reach = np.zeros((MAX_SHIPS, DIE_SIDES + 1, DIE_SIDES + 1, P.bit_words), np.uint64)
    union = np.zeros((P.n_seats, DIE_SIDES + 1, DIE_SIDES + 1, P.bit_words), np.uint64)
    hits = np.zeros((P.n_seats, P.n_nodes), np.int32)
    keys = np.zeros((MAX_PLAYS, MAX_SHIPS + 1), np.int32)
    return T + (plays, reach, union, hits, keys, np.zeros(MAX_PLAYS, np.int64), np.zeros(MAX_PLAYS, np.int64),
                np.zeros(MAX_PLAYS), np.zeros(MAX_PLAYS, np.int64), np.full(PLAY_WIDTH, -1, np.int32),
                np.zeros((2, 0), np.int64), np.zeros((MAX_PLAYS, PLAY_WIDTH), np.int32))


@njit(cache=True, error_model="numpy")
def new_state_nb(P):
    return np.zeros(P.state_words, np.int32)


@njit(cache=True, error_model="numpy")
def setup_nb(st, ev, rng, P, T, k):
    setup_game_nb(st, ev, rng, P, T[T_HARBOR], T[T_SEAT_ANCHOR], T[T_START], k)


@njit(cache=True, error_model="numpy", inline="always")
def next_decision_nb(st, ev, rng, P, T):
    """The seat to move once its roll is listed (the pending one, if a turn waits), -1 at the end."""
    if st[G_PLAYS] != 0:
        return st[G_SEAT]
    if st[G_END] >= 0:
        return -1
    n = start_turn_nb(st, ev, rng, P, T[T_NB], T[T_KIND], T[T_ANCHOR], T[T_ALLOWED], T[W_PLAYS], P.turn_cap)
    if n < 0:  # the turn cap: truncated
        log_nb(st, ev, -1, EV_TRUNC, 0, 0, 0)
        return -1
    if n == 0:
        st[G_PLAYS] = PASS_PENDING
    return st[G_SEAT]


@njit(cache=True, error_model="numpy", inline="always")
def options_nb(st, P, T, opts):
    """The waiting turn's plays: their rows in the plays table (PASS: none)."""
    n = st[G_PLAYS]
    if n == PASS_PENDING:
        opts[0] = PASS
        return 1
    for k in range(n):
        opts[k] = k
    return n


@njit(cache=True, error_model="numpy", inline="always")
def apply_nb(st, ev, rng, P, T, option):
    st[G_PLAYS] = 0
    finish_turn_nb(st, ev, P, T[T_NB], T[T_KIND], T[W_PASS] if option == PASS else T[W_PLAYS][option], T[W_HEAT])


@njit(cache=True, error_model="numpy")
def refresh_nb(st, P, T):
    """The waiting turn's plays listed again from its roll (after a search's rollouts; the bench
    restores a bare state)."""
    if st[G_PLAYS] > 0:
        gen_plays_nb(st, P, T[T_NB], T[T_KIND], T[T_ANCHOR], T[T_ALLOWED], st[G_SEAT], st[G_ROLL] // 8,
                     st[G_ROLL] % 8, T[W_PLAYS])


@njit(cache=True, error_model="numpy", inline="always")
def policy_nb(st, rng, P, T, seat, code, prm, opts, n, scores):
    """The scripted player ``code`` (weights ``prm``): players.policy_nb on the listed plays;
    nobody is asked to pass."""
    if opts[0] == PASS:
        return 0
    return scripted_nb(st, rng, P, T[T_NB], T[T_KIND], T[T_ALLOWED], T[T_DIST], T[T_DIST_ISLAND], T[T_HOME], code,
                       prm, seat, T[W_PLAYS], n, T[W_REACH], T[W_UNION], T[W_HITS])


@njit(cache=True, error_model="numpy")
def search_prepare_nb(truth, rng, P, T, seat, sp, rp, opts, n, key, prng, scores, alive):
    """(the play taken without rollouts, 0) or (-1, m): plays that leave the same position merged
    (the first listed stands for them), a winning play taken at once, the prior's ``top_k`` best
    of the rest in ``alive[:m]``, best first (the listing order for a random prior)."""
    plays, keys, hk, uniq, score, idx = T[W_PLAYS], T[W_KEYS], T[W_HK], T[W_UNIQ], T[W_SCORE], T[W_IDX]
    copy_rows_nb(T[W_ROOT], plays, n)  # the rollouts list their own plays into the table: determinise_nb puts these back
    width = P.n_seats * P.ships_per_seat + 1
    u = 0
    for k in range(n):
        h, win = play_key_nb(truth, P, T[T_NB], T[T_KIND], seat, plays[k], keys[u])
        if win:
            return k, 0
        dup = False
        for i in range(u):
            if hk[i] == h:
                dup = True
                for q in range(width):
                    if keys[i, q] != keys[u, q]:
                        dup = False
                        break
                if dup:
                    break
        if not dup:
            hk[u] = h
            uniq[u] = k
            u += 1
    if u == 1:
        return uniq[0], 0
    prior = int(sp[SP_PRIOR])
    pw = T[T_ROW_W][prior]
    if T[T_ROW_CODES][prior] == ST_RANDOM:
        score[:u] = 0.0
    else:
        if pw[SP_RISK] != 0.0:
            compute_threat_nb(truth, P, T[T_NB], T[T_KIND], T[T_ALLOWED], seat, T[W_REACH], T[W_UNION], T[W_HITS])
        for i in range(u):
            score[i] = score_play_nb(truth, P, T[T_NB], T[T_KIND], T[T_DIST], T[T_DIST_ISLAND], T[T_HOME], seat,
                                     plays[uniq[i]], pw, T[W_REACH], T[W_UNION], T[W_HITS])
    m = top_k_nb(score, u, int(sp[SP_TOP_K]), idx)
    if m == 1:
        return uniq[idx[0]], 0
    for i in range(m):
        alive[i] = uniq[idx[i]]
    return -1, m


@njit(cache=True, error_model="numpy", inline="always")
def stream_key_nb(st, decision):
    """A searched turn's streams are derived at the turn (the bundled search's convention)."""
    return st[G_TURN]


@njit(cache=True, error_model="numpy", inline="always")
def determinise_nb(st, truth, rng, P, T, seat):
    copy_range_nb(st, 0, truth, 0, st.size)  # the board is open: only future dice are unknown
    copy_rows_nb(T[W_PLAYS], T[W_ROOT], truth[G_PLAYS])  # the searched turn's plays (search_prepare_nb kept them)


@njit(cache=True, error_model="numpy", inline="always")
def reward_nb(st, P, T, seat, kind):
    return ships_reward_nb(st, P, seat, kind)


@njit(cache=True, error_model="numpy", inline="always")
def turn_nb(st):
    return st[G_TURN]


@njit(cache=True, error_model="numpy")
def n_events_nb(st):
    return st[G_EVENTS]


@njit(cache=True, error_model="numpy")
def outputs_nb(st, rng, P, T, out_g, out_s):
    write_outputs_nb(st, P, out_g, out_s)


@njit(cache=True, error_model="numpy")
def new_file_options_nb(m):
    """A strategy file gets its options as play rows (docs/strategies.md: int32[n, 8])."""
    return np.zeros((m, PLAY_WIDTH), np.int32)


@njit(cache=True, error_model="numpy")
def file_options_nb(st, P, T, opts, n, out):
    plays = T[W_PLAYS]
    for i in range(n):
        out[i] = plays[opts[i]]
    return out[:n]


@njit(cache=True, error_model="numpy")
def view_nb(st, P, T, seat, view):
    fill_view_nb(st, P, view)  # the seat to move's (user_view.py documents the layout)
