"""Pirate's Peak kernels, the last part: the game on the decision protocol (``pirate_sim/contract.py``),
its rules behind the protocol's names, so the engine (``pirate_sim/engine_template.py``) plays its
bulk runs, traces, strategy files, ``search`` seats and search bench with the drivers and the
search loop every protocol game shares.

**State**: the work array ``w`` itself (int32[ROW_EV, width], rules.py's layout; a traced game's
has its event rows below, ``trace_state_nb``), so the kernels of the rules take it as they are.
The protocol's words are four of its game row (rules.G_STEP, G_ANS, G_ROLL, G_ASK).

**Who is asked.**  A seat whose row of the static table has SP_SEARCH set (a ``search`` seat) is
asked its declaration, its stop-early questions and its Peak treasure; a seat with SP_ASK set (a
strategy file's seat, or every seat of a search's rollout that plays a file) its declaration
only, the rest being its base strategy's, as the game's strategy-file contract says.  A decision
with one option is never asked (the declaration is then a sail; a lone treasure is taken).  Every
other turn is played inline, a whole game in one call where nobody is asked.  The move of an
asked seat pauses at a question with its progress in the state (G_PEND, G_MV_*;
``sea.sail_call_nb``), the answer is G_ANS, and the next call goes on from there.

**Tables** ``T``: (sd,) from :func:`pirate_sim.games.pirates_peak.game.PiratesPeak.engine_tables`
(the static table, SP_ASK and SP_ROLL_FILE set from the table's strategy files);
``thread_tables_nb`` adds the seats' rows of the game being played (sd_block, rotated per game)
and of the rollouts (sd_roll: every seat on the searching seat's rollout strategy).  ``P``:
:data:`PeakP` (the work array's width and a file's view length; the rules are in ``sd``, as every
kernel of the game reads them).

**Search.**  The streams of a searched decision are derived at the game's count of searched
decisions (G_N_DEC), the prior (the rollout strategy's own choice, on its stream PRIOR_STREAM)
is ``search_player.prior_nb``, the re-deal of the unflipped Sea cards ``search_player.resample_nb``,
and a rollout with a ``horizon`` is asked each turn's start (one option), so that the engine's
horizon counts the game's turns, as the bundled search's did.

May import every kernel module of the game and ``pirate_sim.search``.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from ...search import derive_stream_nb, top_k_nb
from .rules import (ACT_FIRE, ACT_SAIL, ACT_SEARCH, EV_WIDTH, G_ANS, G_ASK, G_FIRST, G_N_DEC, G_N_EV, G_PEAK_MASK, G_PEND, G_PEND_SEAT,
                    G_ROLL, G_STEP, G_TURNS, PEND_DECLARE, PEND_NONE, PEND_STOP, ROW_EV, ROW_ST, SD_RULES, SD_SP,
                    SP_ASK, SP_HORIZON, SP_ROLL_FILE, SP_SEARCH)
from .sea import can_fire_nb, sail_call_nb, take_treasure_nb
from .search_player import PRIOR_STREAM, prior_nb, resample_nb, reward_nb as score_nb, rollout_table_nb
from .turn import arrival_attempt_nb, can_search_nb, scripted_declare_nb, turn_act_nb, turn_begin_nb
from .user_view import V_TRACK, fill_view_nb
from .whole_game import NO_LIMIT, finish_nb, more_turns_nb, play_rest_nb, seat_strategies_nb, setup_game_nb

MAX_OPTIONS = 3  # sail / search / fire; stop or sail on; three treasures
VIEW_LEN = V_TRACK  # the view without the track: view_len_nb adds the rules' track (user_view.py)
# the engine's rules tuple: the work array's width and a strategy file's view length (the rules
# themselves are the static table's row sd[SD_RULES]: a NamedTuple of 54 fields would be 54 machine
# arguments of every call the engine makes out of line)
PeakP = namedtuple("PeakP", ["width", "view_len"])
T_SD, T_BLOCK, T_ROLL = 0, 1, 2  # T: the table's static table; thread_tables_nb adds the game's and the rollouts'
SP_TOP_K = 1  # engine_template.SP_TOP_K: a search entry's top_k in the engine's row (not rules.SP_TOP_K)
# G_STEP: STEP_ANSWERED the pending decision (G_PEND) has its answer (G_ANS); STEP_ASKED a turn's start
# waits (a horizon's rollout), STEP_GO it was answered
STEP_ANSWERED, STEP_ASKED, STEP_GO = 1, 2, 3
# G_ROLL: 0 the game itself; ROLL_FIRST a rollout still in the searched turn, ROLL_ON after it (turn_nb)
ROLL_FIRST, ROLL_ON = 2, 1
# the engine's game loop and rollouts compiled without reference counting (engine_template.ENGINE_NRT):
# nothing they run allocates (the rules' kernels are _nrt=False, and so are this module's turn helpers)
ENGINE_NRT = False


@njit(cache=True)
def thread_tables_nb(P, T):
    """``T`` and one thread's seat rows: the game's (rotated per game) and the rollouts'."""
    return T[T_SD], T[T_SD].copy(), T[T_SD].copy()


@njit(cache=True)
def new_state_nb(P):
    return np.zeros((ROW_EV, P.width), np.int32)


@njit(cache=True)
def trace_state_nb(P, ev):
    """A traced game's work array: the event log in its rows from ROW_EV on (as large as ``ev``)."""
    return np.zeros((ROW_EV + ev.shape[0], max(P.width, EV_WIDTH)), np.int32)


@njit(cache=True)
def view_len_nb(P):
    return P.view_len


@njit(cache=True, inline="always")
def _sd_nb(st, T):
    """The seat rows this state plays: a rollout's, or the game's."""
    return T[T_ROLL] if st[ROW_ST, G_ROLL] != 0 else T[T_BLOCK]


@njit(cache=True, _nrt=False)
def setup_nb(st, ev, rng, P, T, k):
    """Game ``k``'s seats (the entries rotate with rules.strategy_seating), then set-up."""
    sd, sdb = T[T_SD], T[T_BLOCK]
    seat_strategies_nb(sd, sdb, k)
    setup_game_nb(sdb, rng, st, sdb[SD_RULES, :0], k)


@njit(cache=True, inline="always")
def _treasures_nb(st, opts):
    """The Peak treasures not taken yet into ``opts``; how many."""
    n = 0
    for tr in range(1, 4):
        if (st[ROW_ST, G_PEAK_MASK] >> tr) & 1 == 0:
            opts[n] = tr
            n += 1
    return n


# _nrt=False on the turn's helpers below, as on the rules they call: nothing here allocates, and with
# reference counting each call takes and gives back a count of each array argument (atomic operations
# a rollout makes several times)
@njit(cache=True, _nrt=False)
def _paused_nb(st, sd):
    """After a move stopped at a question of the asked seat: True where it waits for an answer; a
    treasure pick with one treasure left is taken at once (False: the move goes on)."""
    if st[ROW_ST, G_PEND] == PEND_STOP:
        st[ROW_ST, G_STEP] = 0
        return True
    left = 0
    first = 0
    for tr in range(3, 0, -1):
        if (st[ROW_ST, G_PEAK_MASK] >> tr) & 1 == 0:
            left += 1
            first = tr
    if left > 1:
        st[ROW_ST, G_STEP] = 0
        return True
    st[ROW_ST, G_PEND] = PEND_NONE
    take_treasure_nb(st, st[ROW_ST, G_PEND_SEAT], first)
    return False


@njit(cache=True, _nrt=False)
def _move_nb(st, rng, sd, cur, steps):
    """Seat ``cur`` sails ``steps`` spaces, then its arrival attempts (sea.py, turn.py); True where
    a question of the asked seat paused the move."""
    while steps > 0:
        sail_call_nb(sd, rng, st, cur, steps, -1)
        if st[ROW_ST, G_PEND] != PEND_NONE and _paused_nb(st, sd):
            return True
        steps = arrival_attempt_nb(sd, rng, st, cur)
    return False


@njit(cache=True, _nrt=False)
def _resume_nb(st, rng, sd):
    """The answered decision taken and the turn played on; True where it paused again.  The seat
    asked is the seat to move, but for a Peak treasure: a fight the mover won can carry the other
    ship to the Peak."""
    kind = st[ROW_ST, G_PEND]
    p = np.int64(st[ROW_ST, G_PEND_SEAT])
    ans = np.int64(st[ROW_ST, G_ANS])
    mover = np.int64(st[ROW_ST, G_FIRST] ^ ((st[ROW_ST, G_TURNS] - 1) & 1))  # G_TURNS counts this turn
    st[ROW_ST, G_STEP] = 0
    if kind == PEND_DECLARE:
        st[ROW_ST, G_PEND] = PEND_NONE
        return _move_nb(st, rng, sd, mover, turn_act_nb(sd, rng, st, mover, ans))
    if kind == PEND_STOP:
        sail_call_nb(sd, rng, st, mover, 0, ans)  # the asking step again, the answer forced
        if st[ROW_ST, G_PEND] != PEND_NONE and _paused_nb(st, sd):
            return True
    else:
        st[ROW_ST, G_PEND] = PEND_NONE
        take_treasure_nb(st, p, ans)
    return _move_nb(st, rng, sd, mover, arrival_attempt_nb(sd, rng, st, mover))


@njit(cache=True, _nrt=False)
def _turn_nb(st, rng, sd, cur, asked):
    """Seat ``cur``'s turn on the asked path; True where it paused at a question.  ``asked``:
    the seat is asked, and its declaration with more than one legal option waits (with one it
    is a sail); else its strategy declares, and only the other seat's question can pause the
    move (a fight that carries a searching ship to the Peak asks its treasure).  (One call for
    both kinds of seat: one copy of the turn's machine code beside the bulk loop's.)"""
    steps = turn_begin_nb(sd, rng, st, cur)
    if steps < 0:
        if asked:
            n = 1 + can_search_nb(st, cur) + (1 if can_fire_nb(sd, st, cur) else 0)
            if n > 1:
                st[ROW_ST, G_PEND] = PEND_DECLARE
                st[ROW_ST, G_PEND_SEAT] = cur
                st[ROW_ST, G_STEP] = 0
                return True
            act = ACT_SAIL
        else:
            act = scripted_declare_nb(sd, rng, st, cur)
        steps = turn_act_nb(sd, rng, st, cur, act)
    return _move_nb(st, rng, sd, cur, steps)


@njit(cache=True, inline="always")
def _asked_nb(sd, s):
    return sd[SD_SP + s, SP_SEARCH] != 0 or sd[SD_SP + s, SP_ASK] != 0


@njit(cache=True)
def _events_out_nb(st, ev):
    """A traced game's log, from its work array's rows into the engine's ``ev``."""
    for i in range(min(st[ROW_ST, G_N_EV], ev.shape[0])):
        for c in range(ev.shape[1]):
            ev[i, c] = st[ROW_EV + i, c]


@njit(cache=True, inline="always")
def _to_move_nb(st):
    """The seat whose turn starts next: seats alternate from G_FIRST."""
    return np.int64(st[ROW_ST, G_FIRST] ^ (st[ROW_ST, G_TURNS] & 1))


@njit(cache=True, inline="always")  # once per decision
def next_decision_nb(st, ev, rng, P, T):
    """Play on to the next question of an asked seat (its seat) or to the end (-1)."""
    sd = _sd_nb(st, T)
    if st[ROW_ST, G_PEND] != PEND_NONE:
        if st[ROW_ST, G_STEP] != STEP_ANSWERED:  # (asked again before an answer: the same question)
            return np.int64(st[ROW_ST, G_PEND_SEAT])
        if _resume_nb(st, rng, sd):
            return np.int64(st[ROW_ST, G_PEND_SEAT])
        if st[ROW_ST, G_ROLL] == ROLL_FIRST:  # the searched turn is over (turn_nb)
            st[ROW_ST, G_ROLL] = ROLL_ON
    while more_turns_nb(sd, st, np.int64(NO_LIMIT)):
        cur = _to_move_nb(st)
        if st[ROW_ST, G_ASK] != 0:
            if st[ROW_ST, G_STEP] != STEP_GO:
                st[ROW_ST, G_STEP] = STEP_ASKED
                return cur
            st[ROW_ST, G_STEP] = 0
        asked = _asked_nb(sd, cur)
        if asked or sd[SD_SP + 1 - cur, SP_SEARCH] != 0:  # or the other seat searches: its treasure may be asked
            if _turn_nb(st, rng, sd, cur, asked):  # (the seat asked may be the other: a treasure)
                return np.int64(st[ROW_ST, G_PEND_SEAT])
        else:  # scripted turns: to the end where nobody is asked, else this one turn
            last = NO_LIMIT
            if st[ROW_ST, G_ASK] != 0 or sd[SD_SP + 1 - cur, SP_ASK] != 0:
                last = st[ROW_ST, G_TURNS] + 1
            play_rest_nb(sd, rng, st, cur, np.int64(last))
    if ev.shape[0] > 0:
        _events_out_nb(st, ev)
    return -1


@njit(cache=True, inline="always")
def play_unasked_nb(st, ev, rng, P, T):
    """A game where no seat is asked (every seat scripted: engine_template.play_unasked_block_nb):
    :func:`next_decision_nb`'s own path for it, turn after turn by play_rest_nb, so that such a table
    compiles none of the asked turns' code."""
    sd = _sd_nb(st, T)
    while more_turns_nb(sd, st, np.int64(NO_LIMIT)):
        play_rest_nb(sd, rng, st, _to_move_nb(st), np.int64(NO_LIMIT))
    if ev.shape[0] > 0:
        _events_out_nb(st, ev)


@njit(cache=True, inline="always")
def options_nb(st, P, T, opts):
    """The pending question's options: ACT_* (sail, then search and fire where legal), 0 sail on
    / 1 stop, the treasures left; a turn's start: one."""
    if st[ROW_ST, G_STEP] == STEP_ASKED:
        opts[0] = 0
        return 1
    kind = st[ROW_ST, G_PEND]
    if kind == PEND_DECLARE:
        s = st[ROW_ST, G_PEND_SEAT]
        n = 1
        opts[0] = ACT_SAIL
        if can_search_nb(st, s) != 0:
            opts[n] = ACT_SEARCH
            n += 1
        if can_fire_nb(T[T_SD], st, s):
            opts[n] = ACT_FIRE
            n += 1
        return n
    if kind == PEND_STOP:
        opts[0] = 0
        opts[1] = 1
        return 2
    return _treasures_nb(st, opts)


@njit(cache=True)
def file_asks_nb(st, P, T):
    """A strategy file answers the declarations; its base strategy the rest (stop, treasures)."""
    return st[ROW_ST, G_STEP] != STEP_ASKED and st[ROW_ST, G_PEND] == PEND_DECLARE


@njit(cache=True, inline="always")
def apply_nb(st, ev, rng, P, T, option):
    """The answer is kept (the next call plays it); a searching seat's answer counts its decision
    (G_N_DEC: the next search's streams)."""
    if st[ROW_ST, G_STEP] == STEP_ASKED:
        st[ROW_ST, G_STEP] = STEP_GO
        return
    st[ROW_ST, G_ANS] = option
    st[ROW_ST, G_STEP] = STEP_ANSWERED
    if st[ROW_ST, G_ROLL] == 0 and T[T_BLOCK][SD_SP + st[ROW_ST, G_PEND_SEAT], SP_SEARCH] != 0:
        st[ROW_ST, G_N_DEC] += 1


@njit(cache=True)
def policy_nb(st, rng, P, T, seat, code, prm, opts, n, scores):
    """A scripted seat is never asked (its choices are its policy's, inside the rules): only a
    turn's start reaches here, and the bench's plain playout from a recorded question, which the
    rollout strategy answers (``search_player.prior_nb``)."""
    if st[ROW_ST, G_STEP] == STEP_ASKED or n <= 1:
        return 0
    return prior_nb(T[T_ROLL], rng, st, seat, st[ROW_ST, G_PEND], n, opts)


@njit(cache=True, inline="always")
def _rollout_rows_nb(T, seat):
    """Every seat of ``seat``'s rollouts on its rollout strategy's default row, asked its
    declarations where the search rolls out a strategy file."""
    sd, sdr = T[T_BLOCK], T[T_ROLL]
    rollout_table_nb(sd, sdr, seat)
    f = sd[SD_SP + seat, SP_ROLL_FILE]
    sdr[SD_SP, SP_ASK] = f
    sdr[SD_SP + 1, SP_ASK] = f


@njit(cache=True)
def search_prepare_nb(truth, rng, P, T, seat, sp, rp, opts, n, key, prng, scores, alive):
    """The rollouts' seat rows, then the bundled search's prior: the rollout strategy's own choice
    (its stream PRIOR_STREAM) first, the ``top_k`` kept; one kept: taken at once."""
    _rollout_rows_nb(T, seat)
    derive_stream_nb(prng, rng, key, PRIOR_STREAM)
    p = prior_nb(T[T_ROLL], prng, truth, seat, truth[ROW_ST, G_PEND], n, opts)
    for i in range(n):
        scores[i] = 1.0 if i == p else 0.0
    m = top_k_nb(scores, n, np.int64(sp[SP_TOP_K]), alive)
    if m <= 1:
        return alive[0], 1
    return -1, m


@njit(cache=True, inline="always")
def stream_key_nb(st, decision):
    """A searched decision's streams are derived at the game's count of them."""
    return np.int64(st[ROW_ST, G_N_DEC])


@njit(cache=True, inline="always")
def user_stream_key_nb(st, decision):
    """A strategy file's stream is derived at the turn's number."""
    return np.int64(st[ROW_ST, G_TURNS])


@njit(cache=True, inline="always")  # once a rollout
def determinise_at_nb(st, truth, rng, P, T, seat, j):
    """The game's rows (not its event log), the unflipped Sea cards re-dealt
    (``search_player.resample_nb``: the one thing no seat has seen), every seat on the rollout rows,
    each turn's start asked where the search has a horizon."""
    for r in range(ROW_EV):
        for i in range(st.shape[1]):
            st[r, i] = truth[r, i]
    resample_nb(T[T_SD], rng, st)
    st[ROW_ST, G_ROLL] = ROLL_FIRST
    st[ROW_ST, G_ASK] = 1 if T[T_BLOCK][SD_SP + seat, SP_HORIZON] > 0 else 0


@njit(cache=True)
def determinise_nb(st, truth, rng, P, T, seat):
    determinise_at_nb(st, truth, rng, P, T, seat, 0)


@njit(cache=True)
def playout_seats_nb(st, P, T, seat):
    """The bench's plain playout from ``seat``'s recorded question: every seat on its rollout
    rows (nothing re-dealt; the question answered by the rollout strategy, ``policy_nb``)."""
    _rollout_rows_nb(T, seat)
    st[ROW_ST, G_ROLL] = ROLL_ON
    st[ROW_ST, G_ASK] = 0


@njit(cache=True, inline="always")
def reward_nb(st, P, T, seat, kind):
    return score_nb(st, seat, kind)


@njit(cache=True, inline="always")
def turn_nb(st):
    """Turns played (G_TURNS counts the turn being played).  In a rollout, after the searched
    turn, a turn paused at a strategy file's declaration counts as not played yet, so that a
    ``horizon`` of H plays the searched turn and H more whole turns, as the bundled search did."""
    g = np.int64(st[ROW_ST, G_TURNS])
    if st[ROW_ST, G_ROLL] == ROLL_ON and st[ROW_ST, G_PEND] != PEND_NONE:
        return g - 1
    return g


@njit(cache=True)
def n_events_nb(st):
    return np.int64(st[ROW_ST, G_N_EV])


@njit(cache=True, _nrt=False)
def outputs_nb(st, rng, P, T, out_g, out_s):
    """whole_game.finish_nb: every column by name (columns.py)."""
    finish_nb(rng, st, out_g.reshape((1, out_g.shape[0])), out_s.reshape((1, out_s.shape[0], out_s.shape[1])), 0)


@njit(cache=True)
def view_nb(st, P, T, seat, view):
    """user_view.py's layout (what both players see on the table)."""
    fill_view_nb(st, seat, can_search_nb(st, seat), 1 if can_fire_nb(T[T_SD], st, seat) else 0, view)
