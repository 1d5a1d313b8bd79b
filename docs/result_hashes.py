"""Result hashes of Pirate's Peak: proof that a refactor or a new parameter left games alone.

Run from the repository root:

    .venv/bin/python docs/result_hashes.py -o before.json            # on the old commit
    .venv/bin/python docs/result_hashes.py -o after.json --against before.json

It plays 160 setups: every ordered pairing of the four 1.2.0 strategies (16) under ten
rule variants that exercise cannons, fights, traps, the Ghost Ship and the economy,
2,000 games each (seed 20261129), and hashes every output column (SHA-256 of its bytes)
plus the trace of two games per setup.  ``--against`` compares column by column and
counts the setups whose shared columns are all identical: a new column (a new counter)
does not break the proof, a changed value does.  ``--set KEY=VALUE`` (repeatable) adds a
rules override to every setup, e.g. ``--set gold.supply=-1`` to show that a new rule
whose switch restores the old behaviour does restore it.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import sys

import numpy as np

from pirate_sim.games.pirates_peak import GAME
from pirate_sim.games.pirates_peak import rules as r

STRATEGIES = ("random", "treasure_digger", "racer", "gunner")  # the 1.2.0 players
VARIANTS = {
    "default": {},
    "cannon_range_0": {"cannon.range": 0},
    "overtake": {"fight.overtake": True},
    "free_interrupt": {"cannon.interrupt_costs_turn": False},
    "easy_squid": {"squid.escape_total": 11, "squid.life_loss_total": 8},
    "two_lives": {"ship.life_points": 2},
    "rich_start": {"start.gold": 30},
    "short_whirlpool": {"whirlpool.max_attempts": 2},
    "summon_on_six": {"ghost.summon_face": 6, "ghost.crew_roll": 5},
    "big_search": {"search.multiplier": 3, "end.crew_sale_price": 3},
}
GAMES = 2000
SEED = 20261129
TRACED = (3, 17)  # game indices traced per setup


def _digest(a) -> str:
    return hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()[:16]


def hashes(extra: dict) -> dict:
    """{setup: {column: hash}} over every setup."""
    game_names = list(r_std_names()) + [c.name for c in GAME.game_columns]
    seat_names = [c.name for c in GAME.seat_columns]
    out = {}
    for variant, rules in VARIANTS.items():
        for a, b in itertools.product(STRATEGIES, repeat=2):
            full = r.defaults()
            full.update(rules)
            full.update(extra)
            c = GAME.compile(full, [{"strategy": a}, {"strategy": b}])
            g, s = GAME.play(c, SEED, 0, GAMES)
            h = {f"game.{n}": _digest(g[:, i]) for i, n in enumerate(game_names)}
            h.update({f"seat.{n}": _digest(s[:, :, i]) for i, n in enumerate(seat_names)})
            for k in TRACED:
                h[f"trace.{k}"] = hashlib.sha256(
                    "\n".join(GAME.trace(c, SEED, k)).encode()
                ).hexdigest()[:16]
            out[f"{variant}/{a}-{b}"] = h
    return out


def r_std_names():
    from pirate_sim.games.base import STD_GAME_COLUMNS

    return STD_GAME_COLUMNS


def compare(now: dict, before: dict) -> int:
    """Print the comparison; return the number of setups with a changed shared column."""
    same = 0
    bad = []
    new_cols = set()
    for key, h in before.items():
        cur = now.get(key)
        if cur is None:
            bad.append(f"{key}: missing")
            continue
        diff = [c for c in h if c in cur and cur[c] != h[c]]
        gone = [c for c in h if c not in cur]
        new_cols |= set(cur) - set(h)
        if diff or gone:
            bad.append(f"{key}: changed {diff} missing {gone}")
        else:
            same += 1
    print(f"{same} of {len(before)} setups identical over their shared columns")
    if new_cols:
        print("new columns (not compared):", ", ".join(sorted(new_cols)))
    for line in bad[:20]:
        print("  ", line)
    return len(bad)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-o", "--out", help="write the hashes here (JSON)")
    ap.add_argument("--against", help="compare with hashes written before")
    ap.add_argument("--set", action="append", default=[], help="rules KEY=VALUE for every setup")
    args = ap.parse_args(argv)
    extra = {}
    for kv in args.set:
        k, v = kv.split("=", 1)
        extra[k] = json.loads(v) if v not in ("true", "false") else v == "true"
    now = hashes(extra)
    if args.out:
        with open(args.out, "w") as f:
            json.dump(now, f, indent=0, sort_keys=True)
    if args.against:
        with open(args.against) as f:
            return 1 if compare(now, json.load(f)) else 0
    print(f"{len(now)} setups hashed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
