"""Pirate's Peak's search player measured: the table of docs/search.md.

Run from the repository root (about 5 minutes on 2 busy cores):

    .venv/bin/python docs/peak_search.py --budgets 16 64 256 --games 2000 2000 800

For each budget: ``search`` (rollout = expert) against ``expert``, the strongest scripted
player, 2 players, the strategies rotating over the seats from game to game, the first
player rolled for as the rulebook says, on held-out seeds (SEED: never used while the
player was written or tested); its share of the points (a win 1, a tie 1/2) with a normal
95% interval over games, CPU seconds per game on 1 thread (the whole run, the expert's
turns included; CPU time, as the machine was shared), and the search's rollouts/s on 1 thread (``search_bench``).
Then the default scenario (the digger mirror) with ``search`` in both seats: the first
player's win rate among decided games (Wilson 95% interval).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from pirate_sim.games.base import G_FIRST_SEAT, G_WINNER
from pirate_sim.games.pirates_peak import GAME
from pirate_sim.games.pirates_peak import rules as r
from pirate_sim.runner import set_threads
from pirate_sim.seating import entry_of_seat_nb
from pirate_sim.stats import mean_ci, wilson

SEED = 20261201  # held out: no test or development run used it


def versus(budget: int, games: int, opponent: str = "expert", seed: int = SEED) -> dict:
    rules = r.defaults()
    rules["strategy_seating"] = "rotate"
    c = GAME.compile(rules, [{"strategy": "search", "budget": budget}, {"strategy": opponent}])
    GAME.play(c, seed, 0, 1)
    t = time.process_time()  # CPU time: the 2 cores it was measured on were shared
    g, _ = GAME.play(c, seed, 0, games)
    dt = time.process_time() - t
    seat = np.array([0 if entry_of_seat_nb(0, k, 2, True) == 0 else 1 for k in range(games)])
    w = g[:, G_WINNER]
    score = np.where(w == seat, 1.0, np.where(w < 0, 0.5, 0.0))
    e = mean_ci(float(score.sum()), float((score ** 2).sum()), games)
    bench = GAME.search_bench(c, seed + 1, 200)
    return {"budget": budget, "games": games, "share": e, "s_per_game": dt / games,
            "rollouts_per_s": bench["rollouts_per_s"], "overhead": bench["overhead"]}


def first_player(budget: int, games: int, seed: int = SEED + 2) -> dict:
    from pirate_sim import scenario

    s = scenario.default_scenario(GAME)
    seats = [{"strategy": "search", "budget": budget}, {"strategy": "search", "budget": budget}]
    c = GAME.compile(s.rules, seats)
    g, _ = GAME.play(c, seed, 0, games)
    decided = g[:, G_WINNER] >= 0
    return {"budget": budget, "games": games, "decided": int(decided.sum()),
            "first": wilson(int((g[decided, G_WINNER] == g[decided, G_FIRST_SEAT]).sum()), int(decided.sum()))}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budgets", type=int, nargs="+", default=[16, 64, 256])
    ap.add_argument("--games", type=int, nargs="+", default=[2000, 2000, 800])
    ap.add_argument("--first-player-games", type=int, default=2000)
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args(argv)
    set_threads(args.threads)
    print(f"Pirate's Peak {GAME.version}, seed {SEED}, search (rollout expert) vs expert, strategies rotating\n")
    print("| budget | games | search's share vs expert [95% CI] | CPU s per game (1 thread) "
          "| rollouts/s (1 thread) | machinery overhead |")
    print("|---|---|---|---|---|---|")
    for b, n in zip(args.budgets, args.games):
        x = versus(b, n)
        e = x["share"]
        print(f"| {b} | {n:,} | {100 * e.value:.1f} [{100 * e.lo:.1f}, {100 * e.hi:.1f}] | {x['s_per_game']:.4f} "
              f"| {x['rollouts_per_s']:,.0f} | {100 * x['overhead']:.0f}% |", flush=True)
    from pirate_sim.games.pirates_peak.strategies import SEARCH_BUDGET

    f = first_player(SEARCH_BUDGET, args.first_player_games)
    e = f["first"]
    print(f"\nDefault scenario, search (budget {SEARCH_BUDGET}) in both seats, {f['games']:,} games "
          f"({f['decided']:,} decided): first player wins {100 * e.value:.1f}% [{100 * e.lo:.1f}, {100 * e.hi:.1f}] "
          f"(advantage {100 * (e.value - 0.5):+.1f} points)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
