"""Pirate's Cove's ``search`` player measured: the figures of docs/rules/pirates_cove.md's
"The search player" section come from this script (tests/test_pirates_cove_search.py runs
it on a tiny budget).

Run from the repository root (numba threads: all cores unless NUMBA_NUM_THREADS is set)::

    .venv/bin/python docs/pirates_cove_search.py strength --games 1000 --budget 64
    .venv/bin/python docs/pirates_cove_search.py budgets --games 400 --budgets 8,32,64,128
    .venv/bin/python docs/pirates_cove_search.py fighter --games 400 --budget 64
    .venv/bin/python docs/pirates_cove_search.py first --games 300 --budget 64
    .venv/bin/python docs/pirates_cove_search.py bench --decisions 200

Seeds: 24_000_001 and up, never used to choose anything (held out); every comparison
plays the same seeds (common random numbers).  Intervals: Wilson 95%.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np

from pirate_sim.games.pirates_cove import GAME

SEED = 24_000_001


def seat(name: str, **kw) -> dict:
    d = {p.key: p.default for p in GAME.strategy(name).params}
    d.update(kw)
    d["strategy"] = name
    return d


def wilson(k: float, n: int) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    z = 1.959964
    p = k / n
    c = (p + z * z / (2 * n)) / (1 + z * z / n)
    h = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (float(c - h), float(c + h))


def play(seats: list[dict], games: int, seed: int, **rules):
    """(out_games, out_seats, rollouts per game, seconds) of ``games`` games."""
    c = GAME.compile(GAME.full_rules(rules), seats)
    GAME.play_counted(c, seed, 0, 1)  # compile outside the timing
    t = time.perf_counter()
    out_g, out_s, counters = GAME.play_counted(c, seed, 0, games)
    played = counters[:, 0]  # engine_template.CNT_ROLLOUTS
    return out_g, out_s, played, time.perf_counter() - t


def threads() -> int:
    from numba import get_num_threads

    return get_num_threads()


def row(label: str, wins: int, n: int, extra: str = "") -> str:
    lo, hi = wilson(wins, n)
    return f"| {label} | {wins / n:.3f} [{lo:.3f}, {hi:.3f}] | {n} |{extra}"


def strength(games: int, budget: int, seed: int = SEED) -> dict:
    """Seat 0 among three fighters: the fighter, then search, on the same seeds."""
    out = {}
    for name, s0 in (("fighter", seat("fighter")), (f"search {budget}", seat("search", budget=budget))):
        g, _, played, dt = play([s0, seat("fighter"), seat("fighter"), seat("fighter")], games, seed)
        w = int((g[:, 0] == 0).sum())
        out[name] = {"wins": w, "games": games, "rate": w / games, "ci": wilson(w, games),
                     "s_per_game": dt / games * threads(), "rollouts_per_game": float(played.mean()),
                     "rollouts_per_s_thread": float(played.sum() / dt / threads()) if played.sum() else 0.0}
    return out


def fighter(games: int, budget: int, seed: int = SEED) -> dict:
    """The default mix's fighter (seat 1) against search players in the other seats."""
    out = {}
    mixes = {"default mix (hunter, fighter, avoider, random)":
             [seat("treasure_hunter"), seat("fighter"), seat("crowd_avoider"), seat("random")],
             f"fighter among three search {budget}":
             [seat("search", budget=budget), seat("fighter"), seat("search", budget=budget),
              seat("search", budget=budget)]}
    for label, seats in mixes.items():
        g, _, _, dt = play(seats, games, seed)
        w = np.bincount(g[:, 0][g[:, 0] >= 0], minlength=4)
        out[label] = {"wins": w.tolist(), "games": games, "fighter": float(w[1] / games),
                      "fighter_ci": wilson(int(w[1]), games), "s_per_game": dt / games * threads()}
    return out


def first(games: int, budget: int, seed: int = SEED) -> dict:
    """Four search seats: the first player's win share (fair: 1/4)."""
    g, _, played, dt = play([seat("search", budget=budget) for _ in range(4)], games, seed)
    w = int((g[:, 0] == g[:, 4]).sum())
    return {"first_wins": w, "games": games, "rate": w / games, "ci": wilson(w, games),
            "advantage_points": 100 * (w / games - 0.25), "s_per_game": dt / games * threads(),
            "rollouts_per_s_thread": float(played.sum() / dt / threads())}


def budgets(games: int, values: list[int], seed: int = SEED) -> dict:
    out = {}
    for b in values:
        out[b] = strength(games, b, seed)[f"search {b}"]
    return out


def bench(decisions: int, seed: int = SEED) -> dict:
    c = GAME.compile(GAME.full_rules({}), [seat("search"), seat("fighter"), seat("fighter"), seat("fighter")])
    return GAME.search_bench(c, seed, decisions)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("what", choices=("strength", "budgets", "fighter", "first", "bench"))
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--budget", type=int, default=64)
    ap.add_argument("--budgets", default="8,32,64,128")
    ap.add_argument("--decisions", type=int, default=200)
    ap.add_argument("--seed", type=int, default=SEED)
    a = ap.parse_args(argv)
    if a.what == "strength":
        res = strength(a.games, a.budget, a.seed)
    elif a.what == "budgets":
        res = budgets(a.games, [int(x) for x in a.budgets.split(",")], a.seed)
    elif a.what == "fighter":
        res = fighter(a.games, a.budget, a.seed)
    elif a.what == "first":
        res = first(a.games, a.budget, a.seed)
    else:
        res = bench(a.decisions, a.seed)
    res = {"what": a.what, "threads": threads(), "pid": os.getpid(), "result": res}
    print(json.dumps(res, indent=1, default=float))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
