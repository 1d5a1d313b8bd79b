"""How the `expert` Pirateer player was found: random search + successive halving over the
scored player's six value weights, then a held-out table.

Run from the repository root (about 10 minutes on two cores)::

    .venv/bin/python docs/pirateer_expert_search.py [--candidates 24] [--games 400] [--final-games 4000]

A candidate is a setting of the weights ``capture, chase, hunt, risk, home, island`` (the
policy is the scored players' own, ``policy_nb``).  Its fitness is its mean win share
against the three scripted players (runner, hunter, cautious), two players at harbors 1
and 3, the two entries swapping harbors every game and the first player rolled as the
rules say.  Every candidate plays the same games (seed ``SEARCH_SEED``, games 0..n-1:
common random numbers), so candidates differ by their play, not by their dice.

``--candidates`` random settings plus the three scripted players' own weights start with
``--games`` games per opponent; each round keeps the better half and doubles the games
until four are left; then ``--generations`` rounds of local search (the four and
``candidates / 2`` mutations, one or two weights redrawn) through the same halving.  The
best is then measured on held-out games (seed ``HELD_OUT_SEED``, never searched on)
against every other strategy, ``--final-games`` games each, and printed with Wilson 95%
intervals; its cost per turn beside the cautious player's (four-player mirror games,
1 thread, CPU time).
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from pirate_sim.games.pirateer import GAME
from pirate_sim.runner import set_threads
from pirate_sim.stats import wilson

SEARCH_SEED = 20261202
HELD_OUT_SEED = 20261203
OPPONENTS = ("runner", "hunter", "cautious")
KEYS = ("capture", "chase", "hunt", "risk", "home", "island")
SPACE = {
    "capture": [0.0, 5.0, 10.0, 20.0, 40.0, 80.0],
    "chase": [0.0, 0.5, 1.0, 2.0, 4.0],
    "hunt": [0.0, 0.25, 0.5, 1.0],
    "risk": [0.0, 10.0, 20.0, 30.0, 50.0, 80.0, 120.0],
    "home": [2.0, 5.0, 10.0, 20.0, 40.0],
    "island": [0.5, 1.0, 2.0, 4.0],
}


def weights_of(name: str) -> dict:
    strat = next(s for s in GAME.strategies if s.name == name)
    return {p.key: float(p.default) for p in strat.params}


def win_share(a: dict, b: dict, seed: int, games: int, first: int = 0) -> tuple[float, int]:
    """(wins of seat entry ``a``, games) against ``b``, harbors alternating."""
    c = GAME.compile(GAME.full_rules({"strategy_seating": "rotate"}), [a, b])
    out_g, _ = GAME.play(c, seed, first, games)
    k = np.arange(first, first + games)
    return float(np.sum(out_g[:, 0] == k % 2)), games


def fitness(w: dict, games: int) -> float:
    """Mean win share against the scripted players on the search games 0..games-1."""
    me = {"strategy": "cautious", **w}  # the scored policy with these weights
    return float(np.mean([win_share(me, {"strategy": o}, SEARCH_SEED, games)[0] / games for o in OPPONENTS]))


def halving(cands: list[dict], games: int, log) -> list[dict]:
    while len(cands) > 4:
        scored = sorted(((fitness(w, games), i, w) for i, w in enumerate(cands)), key=lambda t: (-t[0], t[1]))
        log(f"  {len(cands)} candidates at {games} games/opponent: best {scored[0][0]:.3f} {scored[0][2]}")
        cands = [w for _f, _i, w in scored[:max(4, (len(cands) + 1) // 2)]]
        games *= 2
    return cands


def cost_per_turn(w: dict, games: int = 200) -> float:
    """CPU seconds per turn of four-player mirror games of the scored policy ``w``, 1 thread."""
    c = GAME.compile(GAME.full_rules({}), [{"strategy": "cautious", **w}] * 4)
    GAME.play(c, 1, 0, 2)
    best = float("inf")
    for _ in range(3):
        t = time.process_time()
        out_g, _ = GAME.play(c, HELD_OUT_SEED, 0, games)
        best = min(best, (time.process_time() - t) / out_g[:, 1].sum())
    return best


def search(candidates: int, games: int, generations: int, seed: int, log=print) -> dict:
    rnd = random.Random(seed)
    cands = [weights_of(o) for o in OPPONENTS]
    cands += [{k: rnd.choice(v) for k, v in SPACE.items()} for _ in range(candidates)]
    best = halving(cands, games, log)
    for g in range(generations):
        kids = []
        for _ in range(max(2, candidates // 2)):
            w = dict(rnd.choice(best))
            for k in rnd.sample(KEYS, rnd.choice((1, 2))):
                w[k] = rnd.choice(SPACE[k])
            kids.append(w)
        log(f"generation {g + 1}")
        best = halving(best + kids, games, log)
    final = sorted(((fitness(w, games * 4), i, w) for i, w in enumerate(best)), key=lambda t: (-t[0], t[1]))
    return final[0][2]


def held_out_table(expert: dict, games: int) -> list[tuple]:
    """(opponent, wins, games, Wilson interval) of the expert on held-out games (the scored
    policy with the expert's weights: the same play as the registered `expert`)."""
    rows = []
    for o in ("random",) + OPPONENTS:
        wins, n = win_share({"strategy": "cautious", **expert}, {"strategy": o}, HELD_OUT_SEED, games)
        rows.append((o, wins, n, wilson(wins, n)))
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--candidates", type=int, default=24)
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--generations", type=int, default=1)
    ap.add_argument("--final-games", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--table-only", action="store_true", help="skip the search: the current expert's table")
    args = ap.parse_args(argv)
    set_threads(args.threads)
    if args.table_only:
        expert = weights_of("expert")
    else:
        expert = search(args.candidates, args.games, args.generations, args.seed)
        print("best:", expert)
    print("| expert against | expert wins [95%] | games |")
    print("|---|---|---|")
    for o, wins, n, est in held_out_table(expert, args.final_games):
        print(f"| {o} | {wins / n:.3f} [{est.lo:.3f}, {est.hi:.3f}] | {n} |")
    ce, cc = cost_per_turn(expert), cost_per_turn(weights_of("cautious"))
    print(f"cost per turn: expert {ce * 1e6:.2f} us, cautious {cc * 1e6:.2f} us ({ce / cc:.2f}x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
