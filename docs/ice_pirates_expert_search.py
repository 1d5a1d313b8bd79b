"""How the `expert` Ice Pirates player was found: random search + successive halving over
the expert's parameters (the upgrader's and the raider's goals, each switched by a
parameter, and the shared planner's reserves), then a held-out table.

Run from the repository root (about 4 minutes on one thread; the documented run is the
defaults with ``--threads 1``)::

    .venv/bin/python docs/ice_pirates_expert_search.py [--candidates 64] [--games 300] [--generations 3]
    .venv/bin/python docs/ice_pirates_expert_search.py --table-only   # the registered expert's table

A candidate is a setting of ``KEYS`` played by the registered ``expert`` policy (code 5);
the three scripted players' own settings are among the starting candidates (``START``: the
expert with them plays exactly as they do, tests/test_ice_pirates_expert.py).  Its fitness
is its mean win share, relative to the fair share, against each scripted opponent
(map_hunter, raider, upgrader) in two settings: 2 players (one each) and 4 players (the
candidate against three copies of the opponent, the default scenario's count), seats
rotating with the game (``strategy_seating = "rotate"``) and the first player random (the
rules' default).  Every candidate plays the same games (seed ``SEARCH_SEED``, games
0..n-1: common random numbers), so candidates differ by their play, not their dice.

``--candidates`` random settings plus ``START`` begin with ``--games`` games per opponent
and setting; each round keeps the better half and doubles the games until four are left;
then ``--generations`` rounds of local search (the four and ``candidates / 2`` mutations,
one or two parameters redrawn) through the same halving; the four left are compared on
four times the games.  The best is then measured on held-out games (seed ``HELD_OUT_SEED``,
never searched on) against every other scripted strategy, ``--final-games`` games each,
Wilson 95% intervals, and its cost per turn beside the upgrader's and the raider's.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pirate_sim.games.ice_pirates import GAME  # noqa: E402
from pirate_sim.runner import set_threads  # noqa: E402
from pirate_sim.stats import wilson  # noqa: E402

SEARCH_SEED = 20261204
HELD_OUT_SEED = 20261205
OPPONENTS = ("map_hunter", "raider", "upgrader")
SEATS = (2, 4)  # 2 players, and the default scenario's 4
SPACE = {
    "crew_reserve": [0, 1, 2, 3],
    "upgrades_wanted": [0, 1, 2, 3, 4, 5, 6],
    "max_upgrade_cost": [0, 1, 2, 3],
    "cannon_first": [0, 1],
    "chase": [0, 1],
    "aggression": [0.0, 0.25, 0.5, 0.75, 1.0],
    "swash_reserve": [0, 1, 2, 3],
    "patience": [6, 8, 12, 16, 24],
    "raid_worthless_maps": [0, 1],
}
KEYS = tuple(SPACE)
# the scripted players as expert settings: the expert with one of these plays as that player
START = {
    "map_hunter": {"crew_reserve": 1, "upgrades_wanted": 0, "max_upgrade_cost": 0, "cannon_first": 0, "chase": 0,
                   "aggression": 0.5, "swash_reserve": 1, "patience": 12, "raid_worthless_maps": 0},
    "raider": {"crew_reserve": 1, "upgrades_wanted": 0, "max_upgrade_cost": 1, "cannon_first": 1, "chase": 1,
               "aggression": 0.5, "swash_reserve": 0, "patience": 12, "raid_worthless_maps": 0},
    "upgrader": {"crew_reserve": 1, "upgrades_wanted": 3, "max_upgrade_cost": 1, "cannon_first": 0, "chase": 0,
                 "aggression": 0.5, "swash_reserve": 1, "patience": 12, "raid_worthless_maps": 0},
}


def defaults_of(name: str) -> dict:
    return {p.key: p.default for p in GAME.strategy(name).params}


def entry(name: str, over: dict | None = None) -> dict:
    return {"strategy": name, **defaults_of(name), **(over or {})}


def share(me: dict, opponent: str, n: int, seed: int, games: int) -> tuple[float, int, int]:
    """(wins of entry 0, games, truncated) of ``me`` against n - 1 copies of ``opponent``,
    seats rotating with the game; a truncated game counts 1/n (the fair share)."""
    rules = {p.key: p.default for p in GAME.params}
    rules["strategy_seating"] = "rotate"
    c = GAME.compile(rules, [me] + [entry(opponent)] * (n - 1))
    g, _ = GAME.play(c, seed, 0, games)
    k = np.arange(games)
    w = g[:, 0]
    won = (w >= 0) & ((w - k) % n == 0)  # entry j plays seat (j + k) mod n
    trunc = int((w < 0).sum())
    return float(won.sum()) + trunc / n, games, trunc


def fitness(cand: dict, games: int) -> float:
    """Mean of win share x seats (1 = fair) against OPPONENTS in SEATS, search games 0..games-1."""
    me = entry("expert", cand)
    return float(np.mean([share(me, o, n, SEARCH_SEED, games)[0] / games * n for o in OPPONENTS for n in SEATS]))


def halving(cands: list[dict], games: int, log) -> list[dict]:
    pool = list({tuple(sorted(c.items())): c for c in cands}.values())  # no clones
    while len(pool) > 4:
        t = time.time()
        scored = sorted(((fitness(c, games), i, c) for i, c in enumerate(pool)), key=lambda x: (-x[0], x[1]))
        log(f"  {len(pool)} candidates at {games} games/opponent/setting ({time.time() - t:.0f} s): "
            f"best {scored[0][0]:.3f} {scored[0][2]}")
        pool = [c for _f, _i, c in scored[:max(4, (len(pool) + 1) // 2)]]
        games *= 2
    return pool


def search(candidates: int, games: int, generations: int, seed: int, log=print) -> tuple[dict, list]:
    """The best setting found, and the last four's (fitness, setting) at 4x ``games``."""
    rnd = random.Random(seed)
    cands = [dict(v) for v in START.values()]
    cands += [{k: rnd.choice(v) for k, v in SPACE.items()} for _ in range(candidates)]
    best = halving(cands, games, log)
    for g in range(generations):
        kids = []
        for _ in range(max(2, candidates // 2)):
            c = dict(rnd.choice(best))
            for k in rnd.sample(KEYS, rnd.choice((1, 2))):
                c[k] = rnd.choice(SPACE[k])
            kids.append(c)
        log(f"generation {g + 1}")
        best = halving(best + kids, games * 2, log)
    final = sorted(((fitness(c, games * 4), i, c) for i, c in enumerate(best)), key=lambda x: (-x[0], x[1]))
    return final[0][2], [(f, c) for f, _i, c in final]


def held_out_table(expert: dict, games: int) -> list[tuple]:
    """(seats, opponent, wins, games, truncated, Wilson interval) of the expert setting
    against every other scripted strategy, held-out games."""
    rows = []
    for n in SEATS:
        for o in ("random",) + OPPONENTS:
            wins, g, trunc = share(entry("expert", expert), o, n, HELD_OUT_SEED, games)
            rows.append((n, o, wins, g, trunc, wilson(wins, g)))
    return rows


def ns_per_turn(seat: dict, games: int = 400, n: int = 4) -> float:
    """CPU nanoseconds per turn of n-player mirror games of ``seat``, 1 thread, best of 3."""
    c = GAME.compile({p.key: p.default for p in GAME.params}, [seat] * n)
    GAME.play(c, 1, 0, 2)
    best = float("inf")
    for _ in range(3):
        t = time.process_time()
        g, _ = GAME.play(c, HELD_OUT_SEED, 0, games)
        best = min(best, (time.process_time() - t) / g[:, 1].sum())
    return best * 1e9


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--candidates", type=int, default=64)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--generations", type=int, default=3)
    ap.add_argument("--final-games", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=1, help="seed of the random search (not of the games)")
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--table-only", action="store_true", help="skip the search: the registered expert's table")
    args = ap.parse_args(argv)
    set_threads(args.threads)
    if args.table_only:
        expert = {k: defaults_of("expert")[k] for k in KEYS}
    else:
        expert, final = search(args.candidates, args.games, args.generations, args.seed)
        for f, c in final:
            print(f"final {args.games * 4} games/opponent/setting: {f:.4f} {c}")
        print("EXPERT_DEFAULTS =", expert)
    print(f"held-out seed {HELD_OUT_SEED}, {args.final_games} games per row, seats rotating, first player random")
    print("| players | expert against | expert wins [95%] | fair | games | truncated |")
    print("|---|---|---|---|---|---|")
    for n, o, wins, g, trunc, est in held_out_table(expert, args.final_games):
        print(f"| {n} | {o} x{n - 1} | {wins / g:.3f} [{est.lo:.3f}, {est.hi:.3f}] | {1 / n:.3f} | {g} | {trunc} |")
    set_threads(1)
    costs = {"expert": ns_per_turn(entry("expert", expert)), "upgrader": ns_per_turn(entry("upgrader")),
             "raider": ns_per_turn(entry("raider"))}
    print("ns per turn (4-player mirror, 1 thread): " + ", ".join(f"{k} {v:.0f}" for k, v in costs.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
