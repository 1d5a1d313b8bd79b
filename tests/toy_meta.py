"""Toy games with known meta-game answers, for the skill ladder and the tournament.

* ``luck`` (2-4 seats, tests/toy_luck.py, written on the decision protocol: its search is
  the contract's): the winner is one uniform draw; nothing any player does matters.  Its
  ``search`` player searches (rollouts on derived streams) but every option is worth the
  same, so every ladder step sits at the fair share 1/n, the skill trace is near 0 and the
  skill depth 0.
* ``best_move`` (2-4 seats): each seat picks one of ``len(quality)`` options at once; the
  seat whose option has the highest quality wins (ties: a die among the tied).  The
  ``search`` player estimates each option's quality from ``budget`` Bernoulli rollouts
  (sequential halving, search.py's helpers), so its strength rises with its budget until
  it finds the best option every time; scripted ``random`` picks uniformly and ``first``
  always takes option 0.
* ``rps`` (2 seats, tests/toy_rps.py, on the decision protocol): rock, paper, scissors and
  ``dud``; ``beats`` is the chance the row strategy wins against the column one (row-major
  4x4).  With the default table dud wins
  40% against each of the three, so it is strictly dominated by the uniform mix of the
  three (which wins 50% against each of them and 60% against dud): the equilibrium is
  (1/3, 1/3, 1/3, 0).

Registered for tests in the same way as ``toy_game`` (tests/conftest.py): see
:func:`register`.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit, prange

import toy_luck
import toy_rps
from pirate_sim import search
from pirate_sim.games.base import Column, Compiled, Game, Param, Strategy
from pirate_sim.rng import RNG_WORDS, rand_below_nb, rand_float_nb, seed_game_nb
from pirate_sim.seating import entry_of_seat_nb, rotates, seating_params


MAX_OPTIONS = 64  # scratch size of the search (options of best_move)

ToyParams = namedtuple("ToyParams", ["n_seats", "rotate"])


def _seat_arrays(game: Game, seats: list[dict]) -> tuple[np.ndarray, np.ndarray]:
    """Strategy codes and search parameters (budget, top_k) of each [[seats]] entry."""
    codes = np.array([game.strategy(s["strategy"]).code for s in seats], np.int64)
    sp = np.array([[s.get("budget", 1), s.get("top_k", 0)] for s in seats], np.int64)
    return codes, sp


# ----------------------------------------------------------------------------- best_move
BM_RANDOM, BM_FIRST, BM_SEARCH = 0, 1, 2
DEFAULT_QUALITY = [0.30, 0.45, 0.20, 0.55, 0.10, 0.40, 0.75, 0.35]  # option 6 is best (a 0.20 gap to the next)


@njit(cache=True)
def best_move_search_nb(rng, decision, quality, n_opt, budget, top_k, sums, counts, prior, alive, scratch):
    """Flat Monte Carlo with sequential halving: a rollout of option o is a Bernoulli(quality[o])."""
    for o in range(n_opt):
        sums[o] = 0.0
        counts[o] = 0.0
        prior[o] = 0.0  # no scripted prior: every option looks alike before search
    m = search.top_k_nb(prior, n_opt, top_k, alive)
    h = np.empty(search.H_SIZE, np.int64)  # the shared search loop
    search.halving_start_nb(h, m, budget)
    j = 0  # every rollout its own stream here (no common random numbers: options are independent coins)
    while search.halving_next_nb(h, alive, sums, counts):
        o = h[search.H_OPT]
        search.derive_stream_nb(scratch, rng, decision, j)
        j += 1
        sums[o] += 1.0 if rand_float_nb(scratch) < quality[o] else 0.0
        counts[o] += 1.0
    return search.halving_best_nb(h, alive, sums, counts), j


@njit(cache=True, parallel=True, nogil=True)
def best_move_chunk_nb(p, quality, codes, sp, seed, first, n, out_g, out_s):
    n_opt = quality.size
    for i in prange(n):
        k = first + i
        rng = np.zeros(RNG_WORDS, np.uint64)
        seed_game_nb(rng, seed, k)
        sums = np.zeros(MAX_OPTIONS)
        counts = np.zeros(MAX_OPTIONS)
        prior = np.zeros(MAX_OPTIONS)
        alive = np.zeros(MAX_OPTIONS, np.int64)
        scratch = np.zeros(RNG_WORDS, np.uint64)
        picks = np.zeros(p.n_seats, np.int64)
        for seat in range(p.n_seats):  # simultaneous: every choice made before any is seen
            e = entry_of_seat_nb(seat, k, p.n_seats, p.rotate)
            c = codes[e]
            if c == BM_SEARCH:
                o, used = best_move_search_nb(rng, seat, quality, n_opt, sp[e, 0], sp[e, 1], sums, counts, prior,
                                              alive, scratch)
                out_s[i, seat, 1] = used
            elif c == BM_FIRST:
                o = 0
            else:
                o = rand_below_nb(rng, n_opt)
            picks[seat] = o
            out_s[i, seat, 0] = o
        best = -1.0
        for seat in range(p.n_seats):
            best = max(best, quality[picks[seat]])
        tied = 0
        for seat in range(p.n_seats):
            if quality[picks[seat]] == best:
                tied += 1
        t = rand_below_nb(rng, tied)
        w = -1
        for seat in range(p.n_seats):
            if quality[picks[seat]] == best:
                if t == 0:
                    w = seat
                    break
                t -= 1
        out_g[i, 0] = w
        out_g[i, 1] = 1
        out_g[i, 2] = 0
        out_g[i, 3] = 0
        out_g[i, 4] = 0


class BestMove(Game):
    name = "best_move"
    title = "Best move (test game)"
    version = "1"
    min_seats, max_seats = 2, 4
    params = (Param("quality", DEFAULT_QUALITY, "float_list", "each option's quality; the best pick wins",
                    0.0, 1.0, min_length=2),) + seating_params(rule_means="seat 0")
    strategies = (Strategy("random", BM_RANDOM, "a uniformly random option"),
                  Strategy("first", BM_FIRST, "always option 0"),
                  Strategy("search", BM_SEARCH, "sequential halving over the options, Bernoulli rollouts",
                           search.search_params(("random", "first"), "random", 8, default_top_k=0)))
    default_seats = ("random", "random")
    end_reasons = ("picked", "truncated")
    seat_columns = (Column("pick", "int8", "the option picked", counter=False),
                    Column("rollouts", "int32", "rollouts the seat's search played"))

    def compile(self, rules, seats):
        q = np.array(rules["quality"], np.float64)
        if q.size > MAX_OPTIONS:
            raise ValueError(f"quality: at most {MAX_OPTIONS} options")
        codes, sp = _seat_arrays(self, seats)
        return Compiled(ToyParams(len(seats), rotates(rules)), (q, codes, sp), len(seats),
                        tuple(s["strategy"] for s in seats))

    def play(self, compiled, seed, first_game, n_games):
        out_g, out_s = self.new_outputs(n_games, compiled.n_seats)
        best_move_chunk_nb(compiled.params, *compiled.arrays, np.uint64(seed % 2**64), np.int64(first_game),
                           np.int64(n_games), out_g, out_s)
        return out_g, out_s


GAMES = {"luck": toy_luck.GAME, "best_move": BestMove(), "rps": toy_rps.GAME}


def register() -> None:
    """Add the toy games to the engine's registry (tests only): the registry imports one
    module per game and reads its ``GAME``, so each game gets a small module object."""
    import sys
    import types

    from pirate_sim.games import GAME_MODULES

    for name, game in GAMES.items():
        mod = f"toy_meta_{name}"
        if mod not in sys.modules:
            m = types.ModuleType(mod)
            m.GAME = game
            sys.modules[mod] = m
        GAME_MODULES.setdefault(name, mod)


register()
