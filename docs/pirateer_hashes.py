"""Result hashes of Pirateer: proof that a change of the drivers plays every game exactly as before.

Plays fixed seeds over the bundled scenarios, scripted strategy mixes for 2-4 players and
``search`` tables that cover every search parameter (budget, top_k, reward, horizon, the
prior, the rollout strategy, a random prior) and hashes the output arrays (every game and
seat column) and one trace per case::

    python docs/pirateer_hashes.py record FILE [--games N]   # the hashes of this code
    python docs/pirateer_hashes.py check FILE                 # the same now? (exit 1 if not)

``docs/pirateer_hashes.json`` holds the hashes of rules version 1.1.0 (200 games a scripted case).

Each case is also played in two uneven chunks, which must agree with the one-chunk run.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SEED = 4243
GAMES = 200  # scripted games per case (search cases play SEARCH_GAMES)
SEARCH_GAMES = 24
MIXES = {
    "random": ("random",),
    "runners": ("runner",),
    "all": ("runner", "hunter", "cautious", "expert", "random"),
}


def _s(**kw) -> dict:
    return {"strategy": "search", **kw}


SEARCH = {  # label -> (seats, rules)
    "b12": ([_s(budget=12), {"strategy": "expert"}], {}),
    "b9_k0_rank_h6": ([{"strategy": "hunter"}, _s(budget=9, top_k=0, reward="rank", horizon=6)], {}),
    "b10_margin_h3_prior_random": ([_s(budget=10, reward="margin", horizon=3, prior="random"),
                                    {"strategy": "cautious"}, {"strategy": "runner"}], {}),
    "b7_k2_rollout_expert_prior_hunter": ([_s(budget=7, top_k=2, rollout="expert", prior="hunter"),
                                           {"strategy": "random"}], {"doubles_extra_roll": True}),
    "two_searchers_h4": ([_s(budget=6, horizon=4), {"strategy": "runner"}, _s(budget=5, rollout="random", horizon=4),
                          {"strategy": "cautious"}], {}),
    "b8_cap30": ([_s(budget=8, horizon=25), {"strategy": "expert"}], {"turn_cap": 30}),
}


def cases(games: int):
    """(name, compiled table, seed, games) for every case."""
    sys.path.insert(0, str(ROOT))
    from pirate_sim.games.pirateer import GAME
    from pirate_sim.scenario import load

    for path in sorted((ROOT / "scenarios" / "pirateer").glob("*.toml")):
        s = load(path)
        yield f"scenario/{path.stem}", s.compile(), s.seed, games
    rules = {p.key: p.default for p in GAME.params}
    for n in (2, 3, 4):
        for mix, names in MIXES.items():
            seats = [{"strategy": names[i % len(names)]} for i in range(n)]
            seats = [{**{p.key: p.default for p in GAME.strategy(x["strategy"]).params}, **x} for x in seats]
            yield f"mix/{n}/{mix}", GAME.compile(rules, seats), SEED + n, games
    for label, (seats, over) in SEARCH.items():
        seats = [{**{p.key: p.default for p in GAME.strategy(x["strategy"]).params}, **x} for x in seats]
        yield f"search/{label}", GAME.compile({**rules, **over}, seats), SEED, SEARCH_GAMES


def compute(games: int) -> dict[str, str]:
    from pirate_sim.games.pirateer import GAME

    out = {}
    for name, compiled, seed, n in cases(games):
        t = time.perf_counter()
        g, s = GAME.play(compiled, seed, 0, n)
        cut = n // 3 + 1
        g1, s1 = GAME.play(compiled, seed, 0, cut)
        g2, s2 = GAME.play(compiled, seed, cut, n - cut)
        if not (np.array_equal(g, np.concatenate([g1, g2])) and np.array_equal(s, np.concatenate([s1, s2]))):
            raise AssertionError(f"{name}: games depend on how the run is cut")
        h = hashlib.sha256(np.ascontiguousarray(g).tobytes())
        h.update(np.ascontiguousarray(s).tobytes())
        h.update("\n".join(GAME.trace(compiled, seed, n // 2)).encode())
        out[name] = h.hexdigest()[:16]
        print(f"{name}: {out[name]} ({time.perf_counter() - t:.1f} s)", flush=True)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("mode", choices=("record", "check"))
    ap.add_argument("file", type=Path)
    ap.add_argument("--games", type=int, default=GAMES)
    a = ap.parse_args(argv)
    got = compute(a.games)
    if a.mode == "record":
        a.file.write_text(json.dumps(got, indent=1, sort_keys=True) + "\n")
        print(f"recorded {len(got)} hashes")
        return 0
    want = json.loads(a.file.read_text())
    bad = [k for k in sorted(set(want) | set(got)) if want.get(k) != got.get(k)]
    for k in bad:
        print(f"DIFFERENT {k}: recorded {want.get(k)} now {got.get(k)}")
    print(f"{len(got) - len(bad)} of {len(want)} hashes identical")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
