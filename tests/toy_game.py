"""A deliberately tiny game with exactly known answers, for testing the engine itself.

"Dice duel": each turn the moving seat rolls one die and adds it to its score; the
first seat to reach ``target`` wins.  The very first die decides who starts: a roll of
``first_player_cutoff`` or less gives seat 0 the first move.  With the cutoff at
:data:`BALANCED_CUTOFF` each seat starts half the time, so the seats are perfectly
balanced (true seat_balance exactly 0); any other cutoff gives a known gap.  A "sixer"
always scores 6 (no die), so with ``target = 6`` whoever of a sixer and a roller moves
first is known to win with certainty or 1/6.  Used by engine tests (runner, results,
metrics coverage, check exit codes, seating) so they do not depend on a real game's rules.

Parameters with effects known in closed form, for the sensitivity and tuning tests
(their defaults leave the game above unchanged):

* ``start_die`` (sides of the start die) and ``first_player_bonus`` (added to the cutoff):
  seat 0 starts with probability ``min(cutoff + bonus, start_die) / start_die``, so
  ``win_rate.seat0 = (1 - q) + P(seat 0 starts) * (2q - 1)`` with ``q`` the first mover's
  chance, linear (additive) in cutoff and bonus;
* ``decor`` and ``banner``: read by nothing (a parameter with no effect at all);
* the roller's ``reroll_ones``: a 1 is rolled again (a better player, never worse).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit, prange

from pirate_sim.games.base import Column, Compiled, Game, OddsRow, Param, Strategy
from pirate_sim.rng import RNG_WORDS, dice_rolled_nb, roll_die_nb, seed_game_nb
from pirate_sim.seating import entry_of_seat_nb, first_player_code, first_seat_nb, rotates, seating_params

BALANCED_CUTOFF = 3  # seat 0 starts on 1-3 of the default d6: half the time, so the seats are exactly even

ToyParams = namedtuple("ToyParams", ["target", "first_player_cutoff", "turn_cap", "start_die", "first_player_bonus",
                                     "reroll0", "reroll1", "first_player", "rotate", "strat0", "strat1"])
SIXER = 1  # strategy code of the sixer


@njit(cache=True)
def play_one_nb(p, k, rng, out_g, out_s):
    rule = 0 if roll_die_nb(rng, p.start_die) <= p.first_player_cutoff + p.first_player_bonus else 1
    start = first_seat_nb(p.first_player, rule, k, 2, rng)
    score = np.zeros(2, np.int64)
    seat = start
    turns = 0
    winner = -1
    while turns < p.turn_cap:
        turns += 1
        entry = entry_of_seat_nb(seat, k, 2, p.rotate)  # the [[seats]] entry playing this seat
        if (p.strat1 if entry else p.strat0) == SIXER:
            face = 6
        else:
            face = roll_die_nb(rng, 6)
            if face == 1 and (p.reroll1 if entry else p.reroll0):
                face = roll_die_nb(rng, 6)
        score[seat] += face
        out_s[seat, 1] += 1
        if score[seat] >= p.target:
            winner = seat
            break
        seat = 1 - seat
    out_g[0] = winner
    out_g[1] = turns
    out_g[2] = 0 if winner >= 0 else 1
    out_g[3] = 1 if winner < 0 else 0
    out_g[4] = start
    out_g[5] = dice_rolled_nb(rng)
    out_s[0, 0] = score[0]
    out_s[1, 0] = score[1]


@njit(cache=True, parallel=True, nogil=True)
def play_chunk_nb(p, seed, first, n, out_g, out_s):
    for i in prange(n):
        rng = np.zeros(RNG_WORDS, np.uint64)
        seed_game_nb(rng, seed, first + i)
        play_one_nb(p, first + i, rng, out_g[i], out_s[i])


class DiceDuel(Game):
    name = "dice_duel"
    title = "Dice duel (test game)"
    version = "1"
    params = (
        Param("target", 10, "int", "score that wins", 1, 1000),
        Param("first_player_cutoff", BALANCED_CUTOFF, "int", "die roll at or below which seat 0 starts", 0, 60),
        Param("turn_cap", 1000, "int", "turns before the game is truncated", 1, 100000),
        Param("start_die", 6, "int", "sides of the die that decides who starts", 1, 60),
        Param("first_player_bonus", 0, "int", "added to first_player_cutoff", 0, 60),
        Param("decor", 0.5, "float", "a number the rules never read (no effect)", 0.0, 1.0),
        Param("banner", ["skull", "bones"], "str_list", "flag colours, cosmetic (no effect)", min_length=1),
    ) + seating_params(rule_means="seat 0 if the start die is at most first_player_cutoff + first_player_bonus")
    strategies = (Strategy("roller", 0, "rolls the die",
                           (Param("reroll_ones", False, "bool", "roll a 1 again, once"),)),
                  Strategy("sixer", SIXER, "scores 6 every turn"))
    default_seats = ("roller", "roller")
    end_reasons = ("reached_target", "truncated")
    odds_mechanics = {"start": "chance that seat 0 moves first"}
    game_columns = (Column("dice_rolled", "int16", "dice rolled", counter=False),)
    seat_columns = (Column("score", "int16", "final score", counter=False),
                    Column("rolls", "int16", "dice this seat rolled"))
    score_column = "score"

    def compile(self, rules, seats):
        rr = [bool(s.get("reroll_ones", False)) for s in seats]
        codes = [self.strategy(s["strategy"]).code for s in seats]
        return Compiled(ToyParams(rules["target"], rules["first_player_cutoff"], rules["turn_cap"], rules["start_die"],
                                  rules["first_player_bonus"], rr[0], rr[1], first_player_code(rules), rotates(rules),
                                  codes[0], codes[1]), (),
                        len(seats), tuple(s["strategy"] for s in seats))

    def play(self, compiled, seed, first_game, n_games):
        out_g = np.zeros((n_games, 6), np.int32)
        out_s = np.zeros((n_games, 2, 2), np.int32)
        play_chunk_nb(compiled.params, np.uint64(seed), first_game, n_games, out_g, out_s)
        return out_g, out_s

    def trace(self, compiled, seed, game_index):
        g, s = self.play(compiled, seed, game_index, 1)
        return [f"game {game_index}: winner {g[0, 0]} after {g[0, 1]} turns, scores {s[0, :, 0].tolist()}"]

    def odds(self, mechanic, rules, samples, seed):
        g, _ = self.play(self.compile(rules, [{"strategy": "roller"}] * 2), seed, 0, samples)
        die = rules["start_die"]
        exact = min(rules["first_player_cutoff"] + rules["first_player_bonus"], die) / die
        return [OddsRow("seat 0 starts", exact, float((g[:, 4] == 0).mean()), samples)]

    def dice_per_game(self, compiled, seed, n_games):
        g, _ = self.play(compiled, seed, 0, n_games)
        return float(g[:, 5].mean())


GAME = DiceDuel()
