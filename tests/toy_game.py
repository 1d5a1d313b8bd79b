"""A deliberately tiny game with exactly known answers, for testing the engine itself.

"Dice duel": each turn the moving seat rolls one die and adds it to its score; the
first seat to reach ``target`` wins.  The very first die decides who starts: a roll of
``first_player_cutoff`` or less gives seat 0 the first move.  A "sixer" always scores 6
(no die), so with ``target = 6`` whoever of a sixer and a roller moves first is known to
win with certainty or 1/6.  Used by engine tests (runner, results, metrics coverage,
check exit codes, seating) so they do not depend on a real game's rules.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit, prange

from pirate_sim.games.base import Column, Compiled, Game, OddsRow, Param, Strategy
from pirate_sim.rng import RNG_WORDS, dice_rolled_nb, roll_die_nb, seed_game_nb
from pirate_sim.seating import entry_of_seat_nb, first_player_code, first_seat_nb, rotates, seating_params

ToyParams = namedtuple("ToyParams", ["target", "first_player_cutoff", "turn_cap", "first_player", "rotate",
                                     "strat0", "strat1"])
SIXER = 1  # strategy code of the sixer


@njit(cache=True)
def play_one_nb(p, k, rng, out_g, out_s):
    rule = 0 if roll_die_nb(rng, 6) <= p.first_player_cutoff else 1
    start = first_seat_nb(p.first_player, rule, k, 2, rng)
    score = np.zeros(2, np.int64)
    seat = start
    turns = 0
    winner = -1
    while turns < p.turn_cap:
        turns += 1
        code = p.strat0 if entry_of_seat_nb(seat, k, 2, p.rotate) == 0 else p.strat1
        score[seat] += 6 if code == SIXER else roll_die_nb(rng, 6)
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
        Param("first_player_cutoff", 3, "int", "die roll at or below which seat 0 starts", 0, 6),
        Param("turn_cap", 1000, "int", "turns before the game is truncated", 1, 100000),
    ) + seating_params(rule_means="seat 0 if the first die is at most first_player_cutoff")
    strategies = (Strategy("roller", 0, "rolls the die"), Strategy("sixer", SIXER, "scores 6 every turn"))
    default_seats = ("roller", "roller")
    end_reasons = ("reached_target", "truncated")
    odds_mechanics = {"start": "chance that seat 0 moves first"}
    game_columns = (Column("dice_rolled", "int16", "dice rolled", counter=False),)
    seat_columns = (Column("score", "int16", "final score", counter=False),
                    Column("rolls", "int16", "dice this seat rolled"))
    score_column = "score"

    def compile(self, rules, seats):
        codes = [self.strategy(s["strategy"]).code for s in seats]
        return Compiled(ToyParams(rules["target"], rules["first_player_cutoff"], rules["turn_cap"],
                                  first_player_code(rules), rotates(rules), codes[0], codes[1]), (),
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
        exact = rules["first_player_cutoff"] / 6
        return [OddsRow("seat 0 starts", exact, float((g[:, 4] == 0).mean()), samples)]

    def dice_per_game(self, compiled, seed, n_games):
        g, _ = self.play(compiled, seed, 0, n_games)
        return float(g[:, 5].mean())


GAME = DiceDuel()
