"""The engine's block of games and its rollouts run without numba's reference counts in every
bundled game (``ENGINE_NRT = False``, pirate_sim/engine_template.py).  A function compiled with
counts that hands an array back into code compiled without them would leave a count never given
back, and the block's work areas would never be freed: memory growing with the games played.
numba's own allocation statistics say whether that happens: after a first play, allocations and
frees must balance over every further play, for scripted seats, a strategy file, and ``search``
rolling out a strategy file (the search and file paths together), on two threads."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CODE = r"""
import json, sys
from numba.core.runtime import rtsys
from pirate_sim import scenario
from pirate_sim.games import get_game
from pirate_sim.runner import set_threads
set_threads(2)
FILES = {"pirates_peak": "examples/strategies/peak_players.py:bold_digger",
         "ice_pirates": "examples/strategies/ice_pirates_players.py:navigator",
         "pirates_cove": "examples/strategies/pirates_cove_players.py:island_planner",
         "pirateer": "examples/strategies/pirateer_players.py:careful_raider"}
out = {}
for g, f in FILES.items():
    n = get_game(g).min_seats if g == "pirates_peak" else 4
    rest = [{"strategy": "expert"}] * (n - 1)
    tables = {"scripted": [{"strategy": "expert"}] + rest, "file": [{"strategy": f}] + rest,
              "search_rolling_out_a_file": [{"strategy": "search", "budget": 8, "rollout": f}] + rest}
    for name, seats in tables.items():
        s = scenario.from_dict({"game": g, "rules": {"strategy_seating": "rotate"}, "seats": seats},
                               source=sys.argv[1] + "/s.toml")
        c = s.compile()
        s.game.play(c, 1, 0, 12)
        a = rtsys.get_allocation_stats()
        for _ in range(4):
            s.game.play(c, 1, 0, 12)
        b = rtsys.get_allocation_stats()
        out[f"{g}/{name}"] = [b.alloc - a.alloc, b.free - a.free]
print(json.dumps(out))
"""


def test_the_engines_loops_free_what_they_allocate():
    env = {**os.environ, "NUMBA_NRT_STATS": "1"}  # read when numba starts: a process of its own
    r = subprocess.run([sys.executable, "-c", CODE, str(ROOT)], capture_output=True, text=True, env=env,
                       cwd=ROOT, timeout=900)
    assert r.returncode == 0, r.stderr[-3000:]
    stats = json.loads(r.stdout.strip().splitlines()[-1])
    assert len(stats) == 12
    for table, (alloc, free) in stats.items():
        assert alloc > 0, f"{table}: the plays allocated nothing: the statistics are not counting"
        assert alloc == free, f"{table}: {alloc} allocations, {free} frees"
