"""Efficiency floor: the efficiency ratio of a Pirate's-Peak-shaped game with almost no rules.

Run from the repository root:  .venv/bin/python docs/efficiency_floor.py

The efficiency ratio of `pirate-sim bench` is games/s on 1 thread divided by
(raw dice/s / dice per game): the share of a game's time a bare dice loop would need.
This script measures the same ratio for a *skeleton* game that keeps only the shape of a
Pirate's Peak turn, with the very RNG functions the kernel calls (rng.roll_die_nb with its
dice counter and script check): two seats alternate; a seat in a trap rolls to get out; on
an X it searches (one die, gold += 2 x die + 3, the X may be dug out); otherwise it rolls and
walks that many spaces, stopping on an X or a trap.  No purchases, cannons, fights, ghost,
fog, islands, Peak, docking, policies, counters or event log.  It then prints the real
kernel's figures on the default scenario beside it (see docs/performance.md).
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from pirate_sim.rng import RNG_WORDS, raw_dice_rate_nb, roll_die_nb, seed_game_nb

TURNS = 151  # a default-scenario game lasts 151 turns on average
GAMES = 200_000
TRACK = 1024  # a long looping track of open spaces (0), X (1) and traps (2), 3:1:1


@njit(cache=False)
def skeleton_nb(seed, n_games, track):
    """Play n_games skeleton games; returns (turns, dice) summed over the games."""
    rng = np.zeros(RNG_WORDS, dtype=np.uint64)
    n = track.shape[0]
    w = np.zeros((4, n), dtype=np.int32)  # rows: position, gold, in trap, track (kernel-like layout)
    total_turns = 0
    dice = 0
    for g in range(n_games):
        seed_game_nb(rng, seed, g)
        for x in range(n):
            w[3, x] = track[x]
        for s in range(2):
            w[0, s] = 0
            w[1, s] = 10
            w[2, s] = 0
        s = 0
        for _ in range(TURNS):
            if w[2, s] != 0:
                if roll_die_nb(rng, 6) >= 5:
                    w[2, s] = 0
            elif w[3, w[0, s] % n] == 1:
                r = roll_die_nb(rng, 6)
                w[1, s] += 2 * r + 3
                if r > 3:
                    w[3, w[0, s] % n] = 0
            else:
                for _ in range(roll_die_nb(rng, 6)):
                    w[0, s] += 1
                    c = w[3, w[0, s] % n]
                    if c == 2:
                        w[2, s] = 1
                        break
                    if c == 1:
                        break
            s = 1 - s
        total_turns += TURNS
        dice += np.int64(rng[4])
    return total_turns, dice


def best_of(fn, reps=3):
    """Shortest wall time of ``reps`` calls (the machine's least disturbed run)."""
    best = float("inf")
    for _ in range(reps):
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
    return best, out


def main():
    track = np.random.default_rng(1).choice([0, 0, 0, 1, 2], size=TRACK).astype(np.int32)
    skeleton_nb(1, 10, track)  # compile
    dt, (turns, dice) = best_of(lambda: skeleton_nb(1, GAMES, track))
    raw_dice_rate_nb(1, 1000)
    raw_dt, _ = best_of(lambda: raw_dice_rate_nb(1, 50_000_000))
    raw = 50_000_000 / raw_dt
    eff = (GAMES / dt) / (raw / (dice / GAMES))
    print(f"skeleton : {1e9 * dt / turns:5.1f} ns/turn  {dice / turns:.2f} dice/turn  efficiency {eff:.3f}")

    from pirate_sim.games.pirates_peak import columns
    from pirate_sim.runner import set_threads
    from pirate_sim.scenario import load

    s = load("scenarios/pirates_peak/default.toml")
    c = s.compile()
    set_threads(1)
    s.game.play(c, 1, 0, 1000)  # compile or load the cache
    dt, (g, _) = best_of(lambda: s.game.play(c, 1, 0, GAMES))
    turns, dpg = g[:, 1].sum(), g[:, columns.GC_DICE].mean()
    eff = (GAMES / dt) / (raw / dpg)
    print(f"full game: {1e9 * dt / turns:5.1f} ns/turn  {dpg * GAMES / turns:.2f} dice/turn  efficiency {eff:.3f}")
    print(f"raw dice : {raw / 1e6:.0f}M/s")


if __name__ == "__main__":
    main()
