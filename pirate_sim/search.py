"""What every game's ``search`` player shares: its parameters, its random streams, and the
allocation of rollouts over a decision's options.

The search loop is written once here as an iterator (:func:`halving_start_nb`,
:func:`halving_next_nb`, :func:`halving_best_nb`): each game's kernel wraps its own rollout
in the same few lines (numba cannot reliably cache a kernel that takes a jitted function as
an argument, so there is no generic loop calling a game's rollout).  Each game follows the
same contract, so that a designer reads one description on every rules page:

* at a searched decision the player lists the legal options with the same code its scripted
  players use, keeps the ``top_k`` best by the rollout strategy's own score (the prior: a
  flat search spread over every legal option loses, measured on Pirateer), and spends
  ``budget`` rollouts on them with sequential halving (:func:`halving_rounds_nb`,
  :func:`halve_nb`);
* every rollout starts from a copy of the state in which everything the deciding seat could
  not know has been re-sampled consistently with what it has seen (determinisation), plays
  the forced option and then every seat with the ``rollout`` strategy (default parameters) to
  the end of the game, or ``horizon`` turns, and scores it with ``reward``;
* rollout ``j`` of decision ``d`` draws from :func:`derive_stream_nb` ``(game stream, d, j)``:
  the same stream for every option (common random numbers inside the search), a function of
  ``(seed, game index)`` and the play so far only, and the game's own stream is not advanced
  by the search, so a game's dice do not depend on how long its players think.

Parameters (``search_params``) are ordinary strategy parameters: a scenario sets them under
``[[seats]]`` and ``--set seats.0.budget=256`` works like any other.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .games.base import Param
from .rng import RNG_WORDS, _splitmix64_nb

# -- rewards: what one rollout is worth to the deciding seat ---------------------------
REWARD_WIN = 0  # 1 if the deciding seat wins, 0 otherwise (a draw or cap: 1 / seats still level)
REWARD_RANK = 1  # 1 for first .. 0 for last, by the game's own score (ties share)
REWARD_MARGIN = 2  # win (0/1) plus a small tie-breaking margin in the game's score (documented per game)
REWARDS = ("win", "rank", "margin")

# A salt that keeps the search's streams apart from any other stream derived from a game's
# state (an arbitrary odd 64-bit constant, the fractional bits of sqrt(3)).
_SEARCH_MIX = np.uint64(0xBB67AE8584CAA73B)


def search_params(rollout_choices: tuple[str, ...], default_rollout: str, default_budget: int,
                  default_top_k: int = 8, default_reward: str = "win", max_budget: int = 1 << 20,
                  horizon: int = 0) -> tuple[Param, ...]:
    """The ``search`` strategy's parameters, the same names and meanings in every game.

    ``rollout_choices`` are the game's scripted strategies, listed in the order of their
    strategy codes so that the stored choice index (see ``base.seat_tables``) is the code.
    """
    assert default_rollout in rollout_choices
    return (
        Param("budget", default_budget, "int", "rollouts per searched decision, shared among the options "
              "kept (sequential halving; at least one rollout per option kept)", 1, max_budget),
        Param("rollout", default_rollout, "choice", "the scripted strategy every seat plays inside a rollout "
              "(with its default parameters)", choices=tuple(rollout_choices)),
        Param("top_k", default_top_k, "int", "options searched at a decision: the rollout strategy's best-scored "
              "top_k of the legal ones (0: every legal option)", 0, 4096),
        Param("reward", default_reward, "choice", "what a rollout is worth to the deciding seat: win (1/0), rank "
              "(1 first .. 0 last) or margin (win plus a small share of the score margin)", choices=REWARDS),
        Param("horizon", horizon, "int", "turns a rollout plays before it is scored from the position (0: to the "
              "end of the game)", 0, 100000),
    )


# _nrt=False on every kernel here: none allocates, and with reference counting each call takes and
# gives back a count of each array argument (atomic operations; these run once a rollout)
@njit(cache=True, _nrt=False)
def derive_stream_nb(out, parent, decision, rollout):
    """Fill ``out`` (>= RNG_WORDS words) with the stream of rollout ``rollout`` of decision
    ``decision``, mixed from ``parent``'s current state without advancing it.  The new
    stream has no dice script and counts its dice from 0."""
    x = parent[0] ^ _rotl(parent[1], 17) ^ _rotl(parent[2], 31) ^ _rotl(parent[3], 47)
    x, a = _splitmix64_nb(x ^ (np.uint64(decision) * _SEARCH_MIX))
    x, b = _splitmix64_nb(x ^ np.uint64(rollout))
    for i in range(4):
        x, v = _splitmix64_nb(x ^ a ^ b)
        out[i] = v
    if out[0] == 0 and out[1] == 0 and out[2] == 0 and out[3] == 0:
        out[0] = np.uint64(1)  # xoshiro's one forbidden state
    for i in range(4, RNG_WORDS):
        out[i] = 0


@njit(cache=True, inline="always")
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(cache=True, _nrt=False)
def top_k_nb(scores, n, k, idx):
    """Write into ``idx[:m]`` the indices of the ``m = min(k, n)`` highest ``scores[:n]``
    (``k <= 0``: all n), best first, ties by lower index; returns m."""
    m = n if k <= 0 or k > n else k
    for i in range(n):
        idx[i] = i
    for i in range(m):  # partial selection sort: m is small (the prior's top few)
        best = i
        for j in range(i + 1, n):  # the swaps below reorder idx[i+1:]: ties compare indices
            sj = scores[idx[j]]
            sb = scores[idx[best]]
            if sj > sb or (sj == sb and idx[j] < idx[best]):
                best = j
        t = idx[i]
        idx[i] = idx[best]
        idx[best] = t
    return m


@njit(cache=True, _nrt=False)
def halving_rounds_nb(n_alive):
    """Rounds of sequential halving for ``n_alive`` options: ceil(log2 n), at least 1."""
    r = 1
    m = 2
    while m < n_alive:
        m *= 2
        r += 1
    return r


@njit(cache=True, _nrt=False)
def per_round_rollouts_nb(budget, n_alive, rounds):
    """Rollouts each live option gets in one halving round (Karnin et al. 2013: the budget
    split evenly over rounds, then over the options alive), at least 1."""
    r = budget // (n_alive * rounds)
    return r if r > 0 else 1


@njit(cache=True, _nrt=False)
def halve_nb(alive, n_alive, sums, counts):
    """Keep the better half (rounded up) of ``alive[:n_alive]`` by mean ``sums / counts``,
    best first, ties by the earlier position in ``alive`` (the prior's order); returns the
    new count."""
    keep = (n_alive + 1) // 2
    for i in range(keep):
        best = i
        for j in range(i + 1, n_alive):
            if sums[alive[j]] * counts[alive[best]] > sums[alive[best]] * counts[alive[j]]:
                best = j
        if best != i:  # move alive[best] to position i, keeping the order of the others
            t = alive[best]
            for j in range(best, i, -1):
                alive[j] = alive[j - 1]
            alive[i] = t
    return keep


# -- the search loop, written once --------------------------------------------------------
# Sequential halving as an iterator over (option, rollout index) pairs, so that every game's
# search is the same few lines around its own rollout (numba cannot cache a loop that takes
# the game's rollout function as an argument):
#
#     halving_start_nb(h, m, budget)                 # alive[:m]: the options kept, best first
#     while halving_next_nb(h, alive, sums, counts):
#         o, j = h[H_OPT], h[H_INDEX]                # option o's rollout j (j: the stream's index)
#         sums[o] += <the game's rollout of option o on stream j>
#         counts[o] += 1
#     best = halving_best_nb(h, alive, sums, counts)
#
# Order: round by round; within a round option by option (alive's order), each option's
# rollouts j0 .. j0 + per - 1, the same indices for every option (common random numbers).
H_ALIVE = 0  # options still alive (alive[:n])
H_ROUNDS = 1  # ceil(log2 m) rounds in all
H_PER = 2  # rollouts each live option gets this round
H_POS = 3  # the current option's position in alive (-1: not started)
H_K = 4  # the current rollout's number within this round's share of the option (0 .. per - 1)
H_J0 = 5  # the first rollout index of this round
H_BUDGET = 6
H_OPT = 7  # out: the option to roll out now
H_INDEX = 8  # out: its rollout index (derive_stream_nb's ``rollout``)
H_SIZE = 9


@njit(cache=True, _nrt=False)
def halving_start_nb(h, m, budget):
    """Begin sequential halving over ``alive[:m]`` with ``budget`` rollouts (see above)."""
    h[H_ALIVE] = m
    h[H_ROUNDS] = halving_rounds_nb(m)
    h[H_PER] = per_round_rollouts_nb(budget, m, h[H_ROUNDS]) if m > 1 else 0
    h[H_POS] = -1
    h[H_K] = 0
    h[H_J0] = 0
    h[H_BUDGET] = budget
    h[H_OPT] = -1
    h[H_INDEX] = -1


@njit(cache=True, _nrt=False)
def halving_next_nb(h, alive, sums, counts):
    """The next rollout to play into ``h[H_OPT]``, ``h[H_INDEX]``; False once one option is left
    (a round ends by keeping the better half of ``alive`` by ``sums / counts``: halve_nb)."""
    if h[H_ALIVE] <= 1:
        return False
    if h[H_POS] < 0:
        h[H_POS] = 0
        h[H_K] = 0
    else:
        h[H_K] += 1
        if h[H_K] == h[H_PER]:
            h[H_K] = 0
            h[H_POS] += 1
            if h[H_POS] == h[H_ALIVE]:  # the round is over
                h[H_J0] += h[H_PER]
                h[H_ALIVE] = halve_nb(alive, h[H_ALIVE], sums, counts)
                if h[H_ALIVE] <= 1:
                    return False
                h[H_PER] = per_round_rollouts_nb(h[H_BUDGET], h[H_ALIVE], h[H_ROUNDS])
                h[H_POS] = 0
    h[H_OPT] = alive[h[H_POS]]
    h[H_INDEX] = h[H_J0] + h[H_K]
    return True


@njit(cache=True, _nrt=False)
def halving_best_nb(h, alive, sums, counts):
    """The option halving settled on: the best mean of those alive (alive[0] once one is left)."""
    return best_mean_nb(alive, h[H_ALIVE], sums, counts)


@njit(cache=True, _nrt=False)
def best_mean_nb(alive, n_alive, sums, counts):
    """The option of ``alive[:n_alive]`` with the best mean (ties: earliest in ``alive``)."""
    best = alive[0]
    for i in range(1, n_alive):
        o = alive[i]
        if sums[o] * counts[best] > sums[best] * counts[o]:
            best = o
    return best
