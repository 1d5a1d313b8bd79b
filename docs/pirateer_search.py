"""Pirateer's search player measured head to head: budget -> win rate, seconds per game.

Run from the repository root (held-out seed 20261201: nothing was tuned on it)::

    .venv/bin/python docs/pirateer_search.py --budgets 16,64,128 --games 200
    .venv/bin/python docs/pirateer_search.py --pair cautious,runner --games 4000   # scripted pairs

Two players at harbors 1 and 3 (the rulebook's two-player seating); the two entries swap
harbors every game (``strategy_seating = rotate``) and the first player is rolled as the
rules say, so neither harbor nor turn order favours either.  Prints, per line, the first
entry's win share with its Wilson 95% interval, the games, the seconds per game and (for
search) rollouts per second per thread from ``Game.search_bench``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from pirate_sim.games.pirateer import GAME
from pirate_sim.runner import set_threads
from pirate_sim.stats import wilson

SEED = 20261201


def head_to_head(a: dict, b: dict, games: int, seed: int = SEED, threads: int | None = None, **rules) -> dict:
    """Win share of entry ``a`` against entry ``b`` (seat dicts), harbors alternating."""
    r = GAME.full_rules({"strategy_seating": "rotate", **rules})
    c = GAME.compile(r, [a, b])
    set_threads(threads)
    GAME.play(c, seed + 1, 0, 1)  # compile outside the clock
    t0 = time.perf_counter()
    out_g, _ = GAME.play(c, seed, 0, games)
    wall = time.perf_counter() - t0
    k = np.arange(games)
    wins_a = float(np.sum(out_g[:, 0] == k % 2))  # entry 0 sits at seat k mod 2 in game k
    truncated = int(out_g[:, 3].sum())
    est = wilson(wins_a, games)
    return {"a": a, "b": b, "games": games, "win": wins_a / games, "lo": est.lo, "hi": est.hi, "s_per_game": wall / games,
            "truncated": truncated, "first_seat_wins": float(np.mean(out_g[:, 0] == out_g[:, 4]))}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budgets", default="", help="comma list of search budgets against --against")
    ap.add_argument("--against", default="cautious")
    ap.add_argument("--pair", default="", help="A,B: two scripted strategies instead")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--bench", type=int, default=0, help="search_bench decisions per budget (0: none)")
    args = ap.parse_args(argv)
    print("| A | B | A wins [95%] | games | s/game | rollouts/s (1 thread) |")
    print("|---|---|---|---|---|---|")
    if args.pair:
        x, y = args.pair.split(",")
        rows = [({"strategy": x}, {"strategy": y})]
    else:
        rows = [({"strategy": "search", "budget": int(b)}, {"strategy": args.against}) for b in args.budgets.split(",")]
    for a, b in rows:
        h = head_to_head(a, b, args.games, args.seed, args.threads)
        rate = ""
        if args.bench and a["strategy"] == "search":
            c = GAME.compile(GAME.full_rules({}), [a, b])
            rate = f"{GAME.search_bench(c, args.seed, args.bench)['rollouts_per_s']:,.0f}"
        name = a["strategy"] + (f" {a['budget']}" if "budget" in a else "")
        print(f"| {name} | {b['strategy']} | {h['win']:.3f} [{h['lo']:.3f}, {h['hi']:.3f}] | {h['games']} | "
              f"{h['s_per_game']:.3f} | {rate} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
