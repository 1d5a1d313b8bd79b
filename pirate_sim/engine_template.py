"""Everything above a game's rules, written once: the chunk driver, the traced game, the
``search`` player and its bench, for any game that implements the decision protocol
(``pirate_sim/contract.py`` documents it; ``tests/toy_race.py`` is a complete example).

numba cannot cache a kernel that takes the game's jitted functions as arguments (nor a closure
over them: its cache key changes every session), so this file is a template:
:func:`pirate_sim.contract.engine` writes a copy whose ``G`` is the game's protocol module,
named by the SHA-256 of this text and the game's sources, imports it, and numba caches that
copy's machine code like any other module.  Nothing here may read a game's state: the engine
knows a game only through ``G``'s functions.

A seat's strategy is a row of the compiled tables: ``codes[e]`` (the scripted strategy's code,
or ``SEARCH``) and ``prm[e]`` (its parameters; for search the ``SP_*`` slots below), with
``rprm[e]`` the parameters every seat plays inside a search entry's rollouts.  A seat entry with
a strategy file has ``fi[e] >= 0``: its dispatch index in ``calls`` (pirate_sim/user_abi.py: a call
by address, so this engine compiles once whatever the files), its parameters ``urows[e]``; it
answers from ``G.view_nb`` (what the seat can know, never the state) at every decision with more
than one option.  An answer outside the options stops that game and is kept in ``err``.

Thirteen hooks are optional (``OPTIONAL`` in contract.py); a game that leaves one out gets the
default below (``std_*``):

* ``thread_tables_nb(P, T)``: the tables every protocol function gets on one thread, ``T``
  plus the game's work areas (default ``T``);
* ``stream_key_nb(st, decision)``: the index the search's and a file's streams are derived at
  (default the decision's count in the game);
* ``user_stream_key_nb(st, decision)``: a strategy file's stream's index apart from the search's
  (default ``stream_key_nb``);
* ``search_prepare_nb(...)``: the work before the rollouts, the prior and ``top_k``, or an
  option taken at once (default :func:`std_search_prepare_nb`);
* ``refresh_nb(st, P, T)``: after a search's rollouts have used the thread's work areas, or
  the bench has restored a recorded state, rebuild the work areas the state implies (default
  nothing);
* ``determinise_at_nb(st, truth, rng, P, T, seat, j)``: ``determinise_nb`` for rollout ``j`` of
  each option (the same j for every option), for a game whose rollouts model the other seats
  by j (default ``determinise_nb``);
* ``playout_seats_nb(st, P, T, seat)``: the bench's plain playout from a recorded decision of
  ``seat``: the seats set to play as that seat's rollouts play them, nothing re-dealt (default
  nothing: every seat plays the code it is handed);
* ``new_file_options_nb(m)`` and ``file_options_nb(st, P, T, opts, n, out)``: what a strategy
  file gets as its options (default a copy of the codes, int32[n]; a game may hand rows);
* ``view_len_nb(P)``: the length of a strategy file's view where the rules set it (default
  ``G.VIEW_LEN``);
* ``file_asks_nb(st, P, T)``: is a strategy file asked at this pending decision, or does its
  base strategy make it (default: asked)?  Only distillation reads it (:func:`option_values_nb`);
* ``trace_state_nb(P, ev)``: a traced game's state, for a game that logs its events inside its
  state and copies them into ``ev`` at the game's end (default ``G.new_state_nb(P)``).
* ``play_unasked_nb(st, ev, rng, P, T)``: the whole game after its set-up where no seat is ever
  asked, for a game whose scripted games run in calls of its own rules (no default: a table of
  scripted seats then plays :func:`play_unasked_block_nb`, else every table :func:`play_block_nb`).

One compiled block, :func:`play_block_nb`, plays a run's games, a traced game (its work areas
carry the event log) and the bench's recording (they carry the record): a second kernel that
inlined the game loop again was a second compile of the game's machine code (5 s a game each).

A state is an array of any shape (one C-contiguous block: the bench records it flat).

``G.ENGINE_NRT = False`` (every bundled game sets it) compiles the block of games and the rollouts
without numba's reference counts: see ``ENGINE_NRT`` below.
"""

import numpy as np
from numba import njit

from pirate_sim.rng import RNG_WORDS, seed_game_nb
from pirate_sim.search import H_INDEX, H_OPT, H_SIZE, derive_stream_nb, halving_best_nb, halving_next_nb, \
    halving_start_nb, top_k_nb
from pirate_sim.seating import entry_of_seat_nb
from pirate_sim.user_abi import call_user_nb
from pirate_sim.user_strategy import ROLLOUT_ERR

G = None  # PROTOCOL: the rendered copy imports the game's protocol module here

SEARCH = -1  # codes[e] of a searching entry (scripted strategies have codes >= 0)
SP_BUDGET, SP_TOP_K, SP_REWARD, SP_HORIZON, SP_ROLLOUT = 0, 1, 2, 3, 4  # prm[e] slots of a search entry
PRIOR_STREAM = 1 << 40  # derive_stream_nb index of the prior's stream (rollouts use 0 .. budget - 1)
CNT_ROLLOUTS, CNT_SEARCHED, CNT_DECISIONS, CNT_SIZE = 0, 1, 2, 3  # counters of a game (bench, tests)
# derive_stream_nb index of a strategy file's private stream (at the decision's index): above any
# rollout index (budgets stop at 2**20) and below PRIOR_STREAM
USER_STREAM = 0x7FFFFFFE
ERR_FN, ERR_TURN, ERR_ANSWER, ERR_N = 0, 1, 2, 3  # err row of a game: 1 + dispatch index, turn, answer, options


@njit(cache=True)
def std_thread_tables_nb(P, T):
    """The default ``thread_tables_nb``: the rules' tables, no work area."""
    return T


@njit(cache=True)
def std_stream_key_nb(st, decision):
    """The default ``stream_key_nb``: the decision's count in the game."""
    return decision


@njit(cache=True)
def std_search_prepare_nb(truth, rng, P, T, seat, sp, rp, opts, n, key, prng, scores, alive):
    """The default ``search_prepare_nb``: (-1, m), the rollout strategy's ``top_k`` best of
    ``opts[:n]`` in ``alive[:m]``, best first (its scores on a stream of its own)."""
    derive_stream_nb(prng, rng, key, PRIOR_STREAM)
    G.policy_nb(truth, prng, P, T, seat, int(sp[SP_ROLLOUT]), rp, opts, n, scores)
    return -1, top_k_nb(scores, n, int(sp[SP_TOP_K]), alive)


@njit(cache=True)
def std_refresh_nb(st, P, T):
    """The default ``refresh_nb``: nothing (the state is the whole game)."""
    return


@njit(cache=True)
def std_new_file_options_nb(m):
    """The default ``new_file_options_nb``: room for ``m`` option codes."""
    return np.zeros(m, np.int32)


@njit(cache=True)
def std_file_options_nb(st, P, T, opts, n, out):
    """The default ``file_options_nb``: a copy of the codes ``opts[:n]``."""
    for i in range(n):
        out[i] = opts[i]
    return out[:n]


thread_tables_nb = getattr(G, "thread_tables_nb", std_thread_tables_nb)
new_file_options_nb = getattr(G, "new_file_options_nb", std_new_file_options_nb)
file_options_nb = getattr(G, "file_options_nb", std_file_options_nb)
stream_key_nb = getattr(G, "stream_key_nb", std_stream_key_nb)


@njit(cache=True)
def std_user_stream_key_nb(st, decision):
    """The default ``user_stream_key_nb``: the search's key (``stream_key_nb``)."""
    return stream_key_nb(st, decision)


user_stream_key_nb = getattr(G, "user_stream_key_nb", std_user_stream_key_nb)
search_prepare_nb = getattr(G, "search_prepare_nb", std_search_prepare_nb)
refresh_nb = getattr(G, "refresh_nb", std_refresh_nb)


@njit(cache=True)
def std_playout_seats_nb(st, P, T, seat):
    """The default ``playout_seats_nb``: nothing (a playout hands every seat the rollout's code)."""
    return


playout_seats_nb = getattr(G, "playout_seats_nb", std_playout_seats_nb)


@njit(cache=True)
def std_view_len_nb(P):
    """The default ``view_len_nb``: ``G.VIEW_LEN`` whatever the rules."""
    return G.VIEW_LEN


@njit(cache=True)
def std_trace_state_nb(P, ev):
    """The default ``trace_state_nb``: a state as any other (the game logs into ``ev``)."""
    return G.new_state_nb(P)


view_len_nb = getattr(G, "view_len_nb", std_view_len_nb)


@njit(cache=True)
def std_file_asks_nb(st, P, T):
    """The default ``file_asks_nb``: a strategy file decides every decision of its seat."""
    return True


file_asks_nb = getattr(G, "file_asks_nb", std_file_asks_nb)
trace_state_nb = getattr(G, "trace_state_nb", std_trace_state_nb)


@njit(cache=True, inline="always")
def std_determinise_at_nb(st, truth, rng, P, T, seat, j):
    """The default ``determinise_at_nb``: ``G.determinise_nb`` (every rollout alike)."""
    G.determinise_nb(st, truth, rng, P, T, seat)


determinise_at_nb = getattr(G, "determinise_at_nb", std_determinise_at_nb)


@njit(cache=True)
def new_scratch_nb(P):
    """One thread's scratch: (rollout state, rollout stream, options, rollout options, scores,
    alive, sums, counts, halving iterator, counters, an empty event log, a strategy file's view,
    options (new_file_options_nb) and private stream)."""
    m = G.MAX_OPTIONS
    return (G.new_state_nb(P), np.zeros(RNG_WORDS, np.uint64), np.zeros(m, np.int64), np.zeros(m, np.int64),
            np.zeros(m), np.zeros(m, np.int64), np.zeros(m), np.zeros(m), np.zeros(H_SIZE, np.int64),
            np.zeros(CNT_SIZE, np.int64), np.zeros((0, 6), np.int32), np.zeros(view_len_nb(P), np.int32),
            new_file_options_nb(m), np.zeros(RNG_WORDS, np.uint64))


@njit(cache=True, _nrt=True)  # (its own flag: rollouts_nb's would be inherited otherwise)
def user_pick_nb(st, rng, P, T, seat, f, params, opts, n, decision, calls, uscr):
    """What strategy file ``f`` answers for ``seat`` among ``opts[:n]``: a fresh view (only what
    the seat can know), a copy of the options, its parameters and a private stream derived from
    the game's at this decision (the game's own stream is not advanced).  ``uscr`` is the
    scratch's last three arrays (``scr[11:]``: view, options, stream), not the whole scratch:
    an out-of-line call takes every array of a tuple it is handed as machine arguments."""
    view, uopts, urng = uscr
    view[:] = 0
    G.view_nb(st, P, T, seat, view)
    derive_stream_nb(urng, rng, user_stream_key_nb(st, decision), USER_STREAM)
    return call_user_nb(calls, f, view, file_options_nb(st, P, T, opts, n, uopts), params, urng)


@njit(cache=True, inline="always")  # the hot loop of every rollout: no call per rollout
def playout_nb(rs, rrng, P, T, code, rp, horizon, ropts, rscores, no_ev, rf, rrow, calls, uscr, err):
    """Every seat plays scripted strategy ``code`` (parameters ``rp``), or with ``rf >= 0``
    strategy file ``rf`` (parameters ``rrow``, its private stream derived from ``rrng`` at each
    decision; ``uscr``: see :func:`user_pick_nb`), from ``rs`` on ``rrng`` to the end (or
    ``horizon`` turns).  A file's illegal answer fills ``err`` (ROLLOUT_ERR + 1 + rf) and stops
    the playout.  (One loop for both: a second copy of the loop was a second copy of the game's
    machine code to compile.)"""
    t0 = G.turn_nb(rs)
    d = 0
    while horizon <= 0 or G.turn_nb(rs) - t0 < horizon:
        s = G.next_decision_nb(rs, no_ev, rrng, P, T)
        if s < 0:
            break
        n = G.options_nb(rs, P, T, ropts)
        if rf >= 0:
            i = 0
            if n > 1:
                i = user_pick_nb(rs, rrng, P, T, s, rf, rrow, ropts, n, d, calls, uscr)
                if i < 0 or i >= n:
                    err[ERR_FN] = ROLLOUT_ERR + rf + 1
                    err[ERR_TURN] = G.turn_nb(rs)
                    err[ERR_ANSWER] = i
                    err[ERR_N] = n
                    return
            d += 1
        else:
            i = G.policy_nb(rs, rrng, P, T, s, code, rp, ropts, n, rscores)
        G.apply_nb(rs, no_ev, rrng, P, T, ropts[i])


@njit(cache=True, inline="always")
def rollout_nb(rs, truth, rrng, P, T, sp, rp, seat, opt, j, ropts, rscores, no_ev, rf, rrow, calls, uscr, err):
    """Rollout ``j`` of option ``opt`` for ``seat``: a world consistent with what the seat knows,
    the option, then :func:`playout_nb` of the rollout strategy (file ``rf`` where ``rf >= 0``);
    the reward of that end to the seat."""
    determinise_at_nb(rs, truth, rrng, P, T, seat, j)
    G.apply_nb(rs, no_ev, rrng, P, T, opt)
    playout_nb(rs, rrng, P, T, int(sp[SP_ROLLOUT]), rp, int(sp[SP_HORIZON]), ropts, rscores, no_ev, rf, rrow, calls,
               uscr, err)
    return G.reward_nb(rs, P, T, seat, int(sp[SP_REWARD]))


# Reference counting (numba's NRT) takes and gives back a count of each array a function is handed
# or takes out of a tuple (two atomic operations), and numba's pass that prunes them leaves those
# inside loops: about 20 a rollout, and more a game.  A game whose games and rollouts allocate
# nothing (nothing inlined into the engine's loops, nothing they call without an ``_nrt`` flag of
# its own: numba compiles those with the caller's) sets ENGINE_NRT = False in its protocol module
# and the engine compiles its game loop and rollouts without them (Pirate's Peak: rollouts/s +5%,
# measured); the work areas are then allocated apart (block_work_nb)
ENGINE_NRT = getattr(G, "ENGINE_NRT", True)


@njit(cache=True, _nrt=ENGINE_NRT)  # out of line: one copy of the playout for search_nb's two inlined copies
def rollouts_nb(truth, rng, P, T, sp, rp, seat, opts, key, scr, rf, rrow, calls, err):
    """:func:`search_nb`'s rollouts: sequential halving from ``scr``'s iterator until the budget is
    spent, rollout j of every option on stream (game stream, ``key``, j); False where a strategy
    file's illegal answer stopped them (``err`` set)."""
    rs, rrng, ropts, scores, alive, sums, counts, h, cnt, no_ev = (scr[0], scr[1], scr[3], scr[4], scr[5], scr[6],
                                                                   scr[7], scr[8], scr[9], scr[10])
    while halving_next_nb(h, alive, sums, counts):
        i = h[H_OPT]
        derive_stream_nb(rrng, rng, key, h[H_INDEX])
        sums[i] += rollout_nb(rs, truth, rrng, P, T, sp, rp, seat, opts[i], h[H_INDEX], ropts, scores, no_ev, rf,
                              rrow, calls, scr[11:], err)
        counts[i] += 1.0
        cnt[CNT_ROLLOUTS] += 1
        if err[ERR_FN] != 0:
            return False
    return True


# inlined: a call level of its own compiled the machine code of everything below it again (cold
# compile: Pirate's Cove 76.7 -> 56.2 s, Ice Pirates 63.6 -> 56.6 s); speed the same (same process,
# 9 alternations: rollouts/s and games/s within 3% in Ice Pirates, Pirate's Cove and Pirateer)
@njit(cache=True, inline="always")
def search_nb(truth, rng, P, T, sp, rp, seat, opts, n, decision, scr, rf, rrow, calls, err):
    """The searched option of ``seat`` at ``truth``'s pending decision (options ``opts[:n]``):
    the rollout strategy's ``top_k`` best (the prior), then sequential halving over ``budget``
    rollouts (:func:`rollouts_nb`).  Reads ``truth`` and ``rng``, changes neither (the game's dice
    never depend on how long a seat thinks).  ``rf >= 0``: the rollouts play that strategy file
    (the prior stays the scripted rollout's); its illegal answer stops the search with ``err`` set."""
    rrng, scores, alive, sums, counts, h, cnt = scr[1], scr[4], scr[5], scr[6], scr[7], scr[8], scr[9]
    key = stream_key_nb(truth, decision)
    taken, m = search_prepare_nb(truth, rng, P, T, seat, sp, rp, opts, n, key, rrng, scores, alive)
    if taken >= 0:
        return taken
    for i in range(n):
        sums[i] = 0.0
        counts[i] = 0.0
    halving_start_nb(h, m, int(sp[SP_BUDGET]))
    if not rollouts_nb(truth, rng, P, T, sp, rp, seat, opts, key, scr, rf, rrow, calls, err):
        return 0
    cnt[CNT_SEARCHED] += 1
    refresh_nb(truth, P, T)  # the rollouts used the thread's work areas
    return halving_best_nb(h, alive, sums, counts)


@njit(cache=True, inline="always")  # a call per game cost the sum race 40% of its games/s (measured)
def play_game_nb(st, ev, rng, P, T, codes, prm, rprm, rotate, k, scr, out_g, out_s, rec, fi, urows, calls, err):
    """Game ``k`` from set-up to outputs: each decision goes to the seat's entry, a strategy file
    (:func:`user_pick_nb`), a scripted strategy (``G.policy_nb`` on the game's stream) or
    ``search`` (:func:`search_nb`).  ``rec`` (the bench's; no rows in a run) keeps the searched
    decisions: see :func:`record_nb`.  A file's illegal answer fills ``err`` (ERR_*) and ends the
    game there, without outputs (the caller raises: the run records nothing)."""
    opts, scores, cnt = scr[2], scr[4], scr[9]
    G.setup_nb(st, ev, rng, P, T, k)
    n_seats = codes.shape[0]
    while True:
        s = G.next_decision_nb(st, ev, rng, P, T)
        if s < 0:
            break
        n = G.options_nb(st, P, T, opts)
        e = entry_of_seat_nb(s, k, n_seats, rotate)
        if fi[e] >= 0:
            i = 0
            if n > 1:
                i = user_pick_nb(st, rng, P, T, s, fi[e], urows[e], opts, n, cnt[CNT_DECISIONS], calls, scr[11:])
                if i < 0 or i >= n:
                    err[ERR_FN] = fi[e] + 1
                    err[ERR_TURN] = G.turn_nb(st)
                    err[ERR_ANSWER] = i
                    err[ERR_N] = n
                    return
        elif codes[e] == SEARCH:
            if n > 1:
                record_nb(rec, st, rng, s, e, cnt[CNT_DECISIONS])
            i = 0
            if n > 1:
                i = search_nb(st, rng, P, T, prm[e], rprm[e], s, opts, n, cnt[CNT_DECISIONS], scr, fi[n_seats + e],
                              urows[n_seats + e], calls, err)
                if err[ERR_FN] != 0:
                    return
        else:
            i = G.policy_nb(st, rng, P, T, s, codes[e], prm[e], opts, n, scores)
        cnt[CNT_DECISIONS] += 1
        G.apply_nb(st, ev, rng, P, T, opts[i])
    G.outputs_nb(st, rng, P, T, out_g, out_s)


@njit(cache=True)
def block_work_nb(P, T, ev, rec):
    """One thread's work areas for :func:`play_block_nb`: a state, a stream, the scratch, the
    thread's tables, the record and the game's event log.  A run's: a record of one row
    (record_nb finds no free row) and a log of no rows; a traced game's: its log ``ev`` (and the
    state ``trace_state_nb`` makes for it); the bench's: its record ``rec`` (the same types: one
    compiled block plays all three).  The scratch keeps its own empty log: the rollouts' (a
    rollout never logs into the game's)."""
    st = G.new_state_nb(P) if ev.shape[0] == 0 else trace_state_nb(P, ev)
    return st, np.zeros(RNG_WORDS, np.uint64), new_scratch_nb(P), thread_tables_nb(P, T), rec, ev


# serial: pirate_sim/blocks.py plays the blocks on threads (why: its docstring).  error_model="numpy", as
# numba compiled the prange body this replaces: the game loop inlined here divides without a zero check
# (the python model's check cost Pirate's Cove 9% of its games/s, measured)
@njit(cache=True, nogil=True, error_model="numpy", _nrt=ENGINE_NRT)
def play_block_nb(seed, first, lo, hi, P, codes, prm, rprm, rotate, fi, urows, calls, out_g, out_s, counters, err,
                  work):
    """Games ``first + lo .. first + hi - 1`` on one thread, in its ``work`` areas
    (:func:`block_work_nb`: the thread's tables are there), into rows ``lo .. hi - 1`` of the outputs; game k seeds its own
    stream from (seed, k), so results never depend on threads or blocks.  ``counters[i]`` gets
    game i's (rollouts, searched decisions, decisions), ``err[i]`` a strategy file's illegal answer.
    A run, a traced game and the bench's recording all play here (one compile): the number of
    games played, fewer than ``hi - lo`` only where the bench's record filled up."""
    st, rng, scr, TT, rec, ev = work
    cnt = scr[9]
    for i in range(lo, hi):
        if rec.shape[0] > 1 and rec[0, 0] >= rec.shape[0] - 1:  # the bench has its decisions
            return i - lo
        for c in range(CNT_SIZE):
            cnt[c] = 0
        seed_game_nb(rng, seed, first + i)
        play_game_nb(st, ev, rng, P, TT, codes, prm, rprm, rotate, first + i, scr, out_g[i], out_s[i], rec, fi, urows,
                     calls, err[i])
        for c in range(CNT_SIZE):  # (loops: a slice copy may allocate, which ENGINE_NRT = False forbids)
            counters[i, c] = cnt[c]
    return hi - lo


# A game whose scripted games run in calls of its own rules (Pirate's Peak: one call a game) defines
# play_unasked_nb(st, ev, rng, P, T): the whole game from its set-up where no seat is ever asked.  A
# table of scripted seats then plays here, and its first run compiles no decision, search or strategy
# file code (Pirate's Peak, cold: 59 s -> measured in docs/performance.md); the rules' calls it makes
# are cached on their own, so a later table with a search seat compiles only play_block_nb's glue.
UNASKED = hasattr(G, "play_unasked_nb")


@njit(cache=True, nogil=True, error_model="numpy", _nrt=ENGINE_NRT)
def play_unasked_block_nb(seed, first, lo, hi, P, out_g, out_s, work):
    """:func:`play_block_nb` for a table where every seat is scripted (no ``search``, no strategy
    file), in a game with ``G.play_unasked_nb``: the same games, no decision asked (the counters
    stay zero, as play_block_nb leaves them where nobody is asked)."""
    st, rng, _scr, TT, _rec, ev = work
    for i in range(lo, hi):
        seed_game_nb(rng, seed, first + i)
        G.setup_nb(st, ev, rng, P, TT, first + i)
        G.play_unasked_nb(st, ev, rng, P, TT)
        G.outputs_nb(st, rng, P, TT, out_g[i], out_s[i])
    return hi - lo


# -- the bench: search's cost against plain playouts from the same decisions ----------------
# A recorded decision is one row of ``rec`` (int64): [0] count of rows used (row 0 only),
# then per row r >= 1: seat, entry, decision index, the rng words, the state words.
REC_SEAT, REC_ENTRY, REC_DEC, REC_RNG = 0, 1, 2, 3
BENCH_MAX_GAMES = 1_000_000  # contract.collect_engine gives up after this many games (a table that never searches)


@njit(cache=True)
def record_nb(rec, st, rng, s, e, decision):
    """Keep a searched decision in the next free row of ``rec`` while there is one."""
    r = rec[0, 0] + 1
    if r >= rec.shape[0]:
        return
    rec[0, 0] = r
    rec[r, REC_SEAT] = s
    rec[r, REC_ENTRY] = e
    rec[r, REC_DEC] = decision
    for w in range(RNG_WORDS):
        rec[r, REC_RNG + w] = np.int64(rng[w])
    flat = st.reshape(st.size)
    for w in range(flat.shape[0]):
        rec[r, REC_RNG + RNG_WORDS + w] = flat[w]


@njit(cache=True)
def recorded_nb(rec, r, st, rng):
    """Restore recorded decision ``r`` into ``st`` and ``rng``."""
    for w in range(RNG_WORDS):
        rng[w] = np.uint64(rec[r, REC_RNG + w])
    flat = st.reshape(st.size)
    for w in range(flat.shape[0]):
        flat[w] = rec[r, REC_RNG + RNG_WORDS + w]


@njit(cache=True)
def search_points_nb(rec, P, T, codes, prm, rprm, fi, urows, calls, err):
    """Search every recorded decision again (what a run spends there); rollouts played."""
    truth = G.new_state_nb(P)
    rng = np.zeros(RNG_WORDS, np.uint64)
    scr = new_scratch_nb(P)
    TT = thread_tables_nb(P, T)
    opts = scr[2]
    for r in range(1, rec[0, 0] + 1):
        recorded_nb(rec, r, truth, rng)
        refresh_nb(truth, P, TT)
        e = rec[r, REC_ENTRY]
        n = G.options_nb(truth, P, TT, opts)
        search_nb(truth, rng, P, TT, prm[e], rprm[e], rec[r, REC_SEAT], opts, n, rec[r, REC_DEC], scr,
                  fi[codes.shape[0] + e], urows[codes.shape[0] + e], calls, err)
    return scr[9][CNT_ROLLOUTS]


@njit(cache=True, nogil=True)
def option_values_nb(rec, lo, hi, P, T, prm, rprm, per_option, fi, urows, calls, err, views, vopts, nopts, q):
    """Every option's value at each recorded decision, by ``per_option`` rollouts of the search
    entry's rollout strategy (a file's too) after it, on the same streams for every option (as
    the search's rollouts: common random numbers): ``q[r - 1, i]`` the mean reward of option i
    at row r, for rows ``lo + 1 .. hi`` (a block: rows are independent, so blocks run on threads
    and the values never depend on how).  ``views[r - 1]`` gets the seat's view there and
    ``vopts[r - 1, :nopts[r - 1]]`` the options a strategy file is handed (what the learned
    player's features read: pirate_sim.distill); a decision no strategy file is asked
    (``file_asks_nb``) is skipped, ``nopts`` 0.  Reads nothing of a state but through ``G``; the
    record is :func:`record_nb`'s."""
    truth = G.new_state_nb(P)
    rng = np.zeros(RNG_WORDS, np.uint64)
    scr = new_scratch_nb(P)
    rs, rrng, opts, ropts, scores, no_ev = scr[0], scr[1], scr[2], scr[3], scr[4], scr[10]
    TT = thread_tables_nb(P, T)
    n_entries = prm.shape[0]
    for r in range(lo + 1, hi + 1):
        recorded_nb(rec, r, truth, rng)
        if not file_asks_nb(truth, P, TT):  # a decision the seat's base strategy makes for a file
            continue
        refresh_nb(truth, P, TT)  # (the last row's rollouts used the thread's work areas)
        e, seat = rec[r, REC_ENTRY], rec[r, REC_SEAT]
        n = G.options_nb(truth, P, TT, opts)
        nopts[r - 1] = n
        G.view_nb(truth, P, TT, seat, views[r - 1])
        fo = file_options_nb(truth, P, TT, opts, n, scr[12])
        for i in range(fo.shape[0]):
            vopts[r - 1, i] = fo[i]
        key = stream_key_nb(truth, rec[r, REC_DEC])
        for i in range(n):
            s = 0.0
            for j in range(per_option):
                derive_stream_nb(rrng, rng, key, j)
                s += rollout_nb(rs, truth, rrng, P, TT, prm[e], rprm[e], seat, opts[i], j, ropts, scores, no_ev,
                                fi[n_entries + e], urows[n_entries + e], calls, scr[11:], err)
                if err[ERR_FN] != 0:
                    return
            q[r - 1, i] = s / per_option


@njit(cache=True)
def playout_points_nb(rec, P, T, prm, rprm, per_point, fi, urows, calls, err):
    """The same number of plain playouts from each recorded decision: a copy of the state and of
    the game's stream, every seat the rollout strategy (a file's too) to the end (no
    determinisation, no derived streams, no halving: the search's machinery left out); playouts
    played."""
    truth = G.new_state_nb(P)
    rng = np.zeros(RNG_WORDS, np.uint64)
    scr = new_scratch_nb(P)
    rs, rrng, ropts, scores, no_ev = scr[0], scr[1], scr[3], scr[4], scr[10]
    TT = thread_tables_nb(P, T)
    n_entries = prm.shape[0]
    done = 0
    for r in range(1, rec[0, 0] + 1):
        recorded_nb(rec, r, truth, rng)
        e = rec[r, REC_ENTRY]
        for _j in range(per_point):
            rs[:] = truth
            rrng[:] = rng
            refresh_nb(rs, P, TT)
            playout_seats_nb(rs, P, TT, rec[r, REC_SEAT])
            playout_nb(rs, rrng, P, TT, int(prm[e][SP_ROLLOUT]), rprm[e], 0, ropts, scores, no_ev, fi[n_entries + e],
                       urows[n_entries + e], calls, scr[11:], err)
            done += 1
    return done
