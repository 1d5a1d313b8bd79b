"""One game's speed, for old-against-new comparisons of a refactor: games/s of the bare kernel
(one thread, best of 3 timings) and the search player's rollouts/s, on the default scenario.

Run each checkout alternately, the same machine, nothing else running (docs/performance.md,
"Kernels split by concern"):

    PYTHONPATH=/path/to/old python docs/bench_pair.py pirates_peak 100000
    PYTHONPATH=/path/to/new python docs/bench_pair.py pirates_peak 100000
    NOSEARCH=1 ... (games/s only)
"""

import json
import os
import sys

import pirate_sim
from pirate_sim import bench, scenario
from pirate_sim.games import get_game
from pirate_sim.runner import set_threads

name, n = sys.argv[1], int(sys.argv[2])
s = scenario.default_scenario(get_game(name))
c = s.compile()
set_threads(1)
s.game.play(c, s.seed, 0, min(n, 2000))  # compiled and warm before the clock
out = {"where": str(os.path.dirname(os.path.dirname(pirate_sim.__file__))), "game": name,
       "games_per_s_1": round(bench.best_rate(lambda: s.game.play(c, s.seed, 0, n), n))}
if not os.environ.get("NOSEARCH"):
    ss, _ = bench.search_scenario(s)
    out["rollouts_per_s"] = round(bench.search_figures(ss.game, ss.compile(), s.seed).get("search_rollouts_per_s", 0))
print(json.dumps(out), flush=True)
