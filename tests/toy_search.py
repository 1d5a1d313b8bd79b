"""Toy games with exactly known answers for the search player (pirate_sim/search.py).

"Sum race": two seats take turns, ``TURNS`` each; a turn is one choice among ``n_opts``
options, then one die from the game's stream; the larger total after the last turn wins
(a tie: 1/2 each).  The seats are exactly symmetric.  Two option sets:

* ``MODE_EQUAL``: option 0 adds the die d, option 1 adds 7 - d, option 2 adds d mod 6 + 1:
  three different mappings of the very next die, all uniform on 1..6, so no decision
  matters and a fair player wins exactly 1/2.  A player that peeked at the game's next die
  could always take 6 and win far more: a search whose rollouts drew from the game's own
  stream (``cheat``) does, which is what the known-answer test rules out.
* ``MODE_BEST``: option k adds d + OFFSETS[k]; option 1 (+1) is strictly best and the
  scripted policy (the prior) prefers option 0.

The search is the shared contract's, written as each game writes it: the prior's top_k,
sequential halving over ``budget`` rollouts, rollout j of every option on the stream
``derive_stream_nb(game stream, decision, j)`` (common random numbers), the scripted
policy (always option 0) for every seat inside rollouts.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from pirate_sim.rng import RNG_WORDS, roll_die_nb, seed_game_nb
from pirate_sim.search import (
    H_INDEX,
    H_OPT,
    H_SIZE,
    REWARD_MARGIN,
    derive_stream_nb,
    halving_best_nb,
    halving_next_nb,
    halving_start_nb,
    top_k_nb,
)

TURNS = 4  # turns per seat
MODE_EQUAL = 0
MODE_BEST = 1
OFFSETS = np.array([0, 1, -1, 0], dtype=np.int64)  # MODE_BEST: option 1 is strictly best
ST_TURN, ST_S0, ST_S1, ST_DEC = 0, 1, 2, 3  # state words: turns played, totals, decisions made


@njit(cache=True)
def apply_nb(st, rng, opt, mode):
    """The mover takes option ``opt``, then the die is rolled and the total grows."""
    s = st[ST_TURN] & 1
    d = roll_die_nb(rng, 6)
    if mode == MODE_EQUAL:
        v = d if opt == 0 else (7 - d if opt == 1 else d % 6 + 1)
    else:
        v = d + OFFSETS[opt]
    st[ST_S0 + s] += v
    st[ST_TURN] += 1


@njit(cache=True)
def reward_nb(st, s, kind):
    a, b = st[ST_S0 + s], st[ST_S0 + 1 - s]
    v = 1.0 if a > b else (0.0 if a < b else 0.5)
    if kind == REWARD_MARGIN:
        v += 0.1 * (a - b) / (a + b + 1.0)
    return v


@njit(cache=True)
def search_nb(st, rng, n_opts, budget, top_k, mode, kind, cheat, st2, rng2, scores, alive, sums, counts):
    """The searched option of the mover (reads st and rng, changes neither)."""
    s = st[ST_TURN] & 1
    for i in range(n_opts):
        scores[i] = 1.0 if i == 0 else 0.0  # the scripted policy's favourite: option 0
        sums[i] = 0.0
        counts[i] = 0.0
    m = top_k_nb(scores, n_opts, top_k, alive)
    if m <= 1:
        return alive[0]
    h = np.empty(H_SIZE, np.int64)  # the shared search loop (pirate_sim.search: halving_*)
    halving_start_nb(h, m, budget)
    while halving_next_nb(h, alive, sums, counts):
        o = h[H_OPT]
        st2[:] = st
        if cheat:  # the game's own stream: the future dice
            rng2[:] = rng[:RNG_WORDS]
        else:
            derive_stream_nb(rng2, rng, st[ST_DEC], h[H_INDEX])
        apply_nb(st2, rng2, o, mode)
        while st2[ST_TURN] < 2 * TURNS:
            apply_nb(st2, rng2, 0, mode)
        sums[o] += reward_nb(st2, s, kind)
        counts[o] += 1.0
    return halving_best_nb(h, alive, sums, counts)


@njit(cache=True)
def play_nb(seed, n_games, search_seat, n_opts, budget, top_k, mode, kind, cheat):
    """Games 0..n-1 with seat ``search_seat[k]`` searching, the other scripted; returns
    (the searching seat's reward per game, the options it took: int64[n, TURNS])."""
    rng = np.zeros(RNG_WORDS, dtype=np.uint64)
    rng2 = np.zeros(RNG_WORDS, dtype=np.uint64)
    st = np.zeros(4, dtype=np.int64)
    st2 = np.zeros(4, dtype=np.int64)
    scores = np.zeros(8)
    sums = np.zeros(8)
    counts = np.zeros(8)
    alive = np.zeros(8, dtype=np.int64)
    out = np.zeros(n_games)
    picks = np.zeros((n_games, TURNS), dtype=np.int64)
    for k in range(n_games):
        seed_game_nb(rng, seed, k)
        st[:] = 0
        me = search_seat[k]
        while st[ST_TURN] < 2 * TURNS:
            opt = 0
            if st[ST_TURN] & 1 == me:
                opt = search_nb(st, rng, n_opts, budget, top_k, mode, kind, cheat, st2, rng2, scores, alive, sums,
                                counts)
                picks[k, st[ST_TURN] // 2] = opt
                st[ST_DEC] += 1
            apply_nb(st, rng, opt, mode)
        out[k] = reward_nb(st, me, 0)
    return out, picks
