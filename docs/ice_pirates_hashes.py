"""Result hashes of Ice Pirates: proof that a speed change plays every game exactly as before.

Plays fixed seeds over the bundled scenarios and strategy mixes for 2-6 players and hashes
the kernel's output arrays (every game and seat column) per case.  The hashes of the
current rules version are stored in ``ice_pirates_hashes.json`` beside this file::

    python docs/ice_pirates_hashes.py            # compare with the stored hashes
    python docs/ice_pirates_hashes.py --write    # store them (only with a new rules VERSION)
    python docs/ice_pirates_hashes.py --games 50 # fewer games per case (quicker, weaker)

A change that only makes the kernel faster must leave every hash identical; a change of
the rules bumps ``rules.VERSION`` and stores new hashes under it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
STORE = HERE / "ice_pirates_hashes.json"
GAMES = 300  # games per case: with about 60 turns each, every rule and policy branch is hit
SEED = 4242  # seed of the strategy-mix cases (the bundled scenarios use their own)
SCRIPTED = ("map_hunter", "raider", "upgrader")
# strategy mixes per number of seats: each scripted strategy alone, a mix of all four and
# a mix of the scripted ones; rule variants that change what the planner sees
MIXES = {
    "hunters": ("map_hunter",),
    "raiders": ("raider",),
    "upgraders": ("upgrader",),
    "all": ("map_hunter", "raider", "upgrader", "random"),
    "scripted": ("upgrader", "raider", "map_hunter"),
}
VARIANTS = {
    "main_sail_4": {"moves.main_sail": 4},
    "any_two_sides": {"deck.two_iceberg_sides": "any"},
    "steady_wind": {"wind.weights": [1.0, 1.0, 1.0, 1.0, 20.0, 1.0]},
}


def cases():
    """(name, compiled game, seed) for every case."""
    sys.path.insert(0, str(ROOT))
    from pirate_sim.games.ice_pirates import GAME
    from pirate_sim.scenario import load

    for path in sorted((ROOT / "scenarios" / "ice_pirates").glob("*.toml")):
        s = load(path)
        yield f"scenario/{path.stem}", s.compile(), s.seed
    rules = {p.key: p.default for p in GAME.params}
    for n in range(2, 7):
        for mix, names in MIXES.items():
            seats = [{"strategy": names[i % len(names)]} for i in range(n)]
            seats = [{**{p.key: p.default for p in GAME.strategy(x["strategy"]).params}, **x} for x in seats]
            yield f"mix/{n}/{mix}", GAME.compile(rules, seats), SEED + n
    for var, over in VARIANTS.items():
        for n in (2, 4, 6):
            names = MIXES["all"]
            seats = [{"strategy": names[i % 4], **{p.key: p.default for p in GAME.strategy(names[i % 4]).params}}
                     for i in range(n)]
            yield f"variant/{n}/{var}", GAME.compile({**rules, **over}, seats), SEED + n


def compute(games: int = GAMES) -> dict[str, str]:
    from pirate_sim.games.ice_pirates import GAME

    out = {}
    for name, compiled, seed in cases():
        g, s = GAME.play(compiled, seed, 0, games)
        h = hashlib.sha256(np.ascontiguousarray(g).tobytes())
        h.update(np.ascontiguousarray(s).tobytes())
        out[name] = h.hexdigest()[:16]
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true", help="store the hashes under the current rules version")
    ap.add_argument("--games", type=int, default=GAMES)
    a = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from pirate_sim.games.ice_pirates import rules as R

    key = f"{R.VERSION}/{a.games}"
    store = json.loads(STORE.read_text()) if STORE.exists() else {}
    got = compute(a.games)
    if a.write:
        store[key] = got
        STORE.write_text(json.dumps(store, indent=1, sort_keys=True) + "\n")
        print(f"stored {len(got)} hashes under {key}")
        return 0
    want = store.get(key)
    if want is None:
        print(f"no stored hashes for {key}")
        return 1
    bad = [k for k in sorted(set(want) | set(got)) if want.get(k) != got.get(k)]
    for k in bad:
        print(f"DIFFERENT {k}: stored {want.get(k)} now {got.get(k)}")
    print(f"{len(got) - len(bad)} of {len(want)} hashes identical ({key})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
