"""How the `expert` Pirate's Peak player was found: random search + successive halving.

Run from the repository root (about 10 minutes on one core):

    .venv/bin/python docs/expert_search.py [--candidates 96] [--games 300] [--seed 1]

Every candidate is a full setting of the expert's parameters.  Its fitness is its mean
share of the points (a win 1, a tie 1/2) against the three scripted bundled players
(treasure_digger, racer, gunner; the random player is beaten by every candidate worth
keeping), each in both seatings.  All candidates play the same games (seed 20261129,
games 0..n-1: common random numbers), so differences between candidates are not masked
by luck of the dice.

Random search: ``--candidates`` random settings plus three hand-made ones (the plain
digger, the digger that interrupts and keeps 3 cannonballs, the current expert) start
with ``--games`` games per seating and opponent; each round keeps the better half and
doubles the games, until four are left.  Then ``--generations`` rounds of elitist local
search: the four survivors and ``candidates / 2`` mutations of them (one to three
parameters redrawn) go through the same halving.  The last four are compared over
``--final-games`` games per seating and opponent; the best is printed as a dict for
``EXPERT_DEFAULTS`` in strategies.py.
"""

from __future__ import annotations

import argparse
import random
import time

from pirate_sim.games.pirates_peak import GAME
from pirate_sim.games.pirates_peak.pairings import SEED, play_pairing
from pirate_sim.games.pirates_peak.rules import defaults
from pirate_sim.games.pirates_peak.strategies import EXPERT_DEFAULTS

OPPONENTS = ("treasure_digger", "racer", "gunner")
SPACE = {
    "buy_crew": [0, 1, 2, 3],
    "buy_cannonballs": [0, 1, 2, 3],
    "dig_repeats": [1, 2, 3],
    "stop_on_x": [True, False],
    "island_crew": [2, 3, 4],
    "island_cannonballs": [0, 1, 2, 3],
    "gold_reserve": [0, 2, 4, 6, 8],
    "search_on_landing": [True, False],
    "interrupt_searches": [True, False],
    "fire_at_ship": [False, True],
    "lead_to_race": [0, 5, 10, 15, 20, 30, 1000],
    "summon_ghost": ["never", "when_behind", "always"],
    "sacrifice_crew": [True, False],
    "take_shortcut": [True, False],
    "stop_at_castaway": [True, False],
    "fog_guess": [3, 4],
    "treasure_first": ["mighty_sail", "golden_cutlass", "steel_cannon"],
    "fire_at_life": [0, 1, 2, 3, 5],
    "fire_when_behind": [0, 5, 10, 20],
    "cannonball_reserve": [0, 1, 2],
    "caution_life": [0, 1, 2, 3],
    "race_life": [0, 1, 2, 3],
    "hold_when_behind": [0, 1, 5],
}
DIGGER = dict(EXPERT_DEFAULTS, buy_cannonballs=0, island_cannonballs=1, interrupt_searches=False,
              lead_to_race=1000, summon_ghost="never", fire_at_life=0, fire_when_behind=0,
              cannonball_reserve=0, caution_life=0, race_life=0, hold_when_behind=0)
DIGGER_GUNS = dict(DIGGER, buy_cannonballs=3, island_cannonballs=3, interrupt_searches=True)


def fitness(cand: dict, games: int, rules: dict) -> float:
    """Mean share of the points against OPPONENTS, both seatings, games 0..games-1."""
    shares = [play_pairing(GAME, rules, "expert", o, games, SEED, {"expert": cand}).share_a.value
              for o in OPPONENTS]
    return sum(shares) / len(shares)


def halving(cands: list[dict], games: int, rules: dict, label: str) -> list[tuple[float, dict]]:
    """Successive halving down to four; returns their (fitness, candidate), best first."""
    pool = list({tuple(sorted(c.items())): c for c in cands}.values())  # no clones
    while True:
        t = time.time()
        scored = sorted(((fitness(c, games, rules), c) for c in pool), key=lambda x: -x[0])
        print(f"{label}: {len(pool)} candidates x {games} games per seating and opponent "
              f"({time.time() - t:.0f} s); best {[round(f, 4) for f, _ in scored[:4]]}", flush=True)
        if len(pool) <= 4:
            return scored
        pool = [c for _, c in scored[: max(2, len(pool) // 2)]]
        games *= 2


def mutate(c: dict, rnd: random.Random) -> dict:
    out = dict(c)
    for key in rnd.sample(sorted(SPACE), rnd.randint(1, 3)):
        out[key] = rnd.choice(SPACE[key])
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--candidates", type=int, default=96)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--generations", type=int, default=8)
    ap.add_argument("--final-games", type=int, default=40000)
    ap.add_argument("--seed", type=int, default=1, help="seed of the random search (not the games)")
    args = ap.parse_args(argv)
    rnd = random.Random(args.seed)
    rules = defaults()
    cands = [DIGGER, DIGGER_GUNS, dict(EXPERT_DEFAULTS)]
    cands += [{k: rnd.choice(v) for k, v in SPACE.items()} for _ in range(args.candidates)]
    parents = [c for _, c in halving(cands, args.games, rules, "random search")]
    for gen in range(1, args.generations + 1):
        # the four survivors and mutations of them compete again (elitist local search)
        kids = [dict(p) for p in parents]
        kids += [mutate(rnd.choice(parents), rnd) for _ in range(args.candidates // 2)]
        parents = [c for _, c in halving(kids, args.games * 2, rules, f"generation {gen}")]
    final = sorted(((fitness(c, args.final_games, rules), c) for c in parents), key=lambda x: -x[0])
    for f, c in final:
        print(f"final {args.final_games} games per seating and opponent: {f:.4f}  {c}")
    print("EXPERT_DEFAULTS =", final[0][1])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
