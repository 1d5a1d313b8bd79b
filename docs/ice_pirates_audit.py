"""Replay audit of Ice Pirates games: counts of the player and rule situations the 1.1.0
rules and strategies settled, per 1,000 games, from the event log of each game.

    python docs/ice_pirates_audit.py scenarios/ice_pirates/default.toml --games 1000
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def audit(path: str, games: int) -> Counter:
    sys.path.insert(0, str(ROOT))
    from pirate_sim.games.ice_pirates import rules as R
    from pirate_sim.scenario import load

    s = load(path)
    c = s.compile()
    n = Counter()
    for k in range(games):
        ev, og, _ = s.game.trace_events(c, s.seed, k)
        holder = -1
        fought = {}  # (turn, seat) -> cell fought at
        got = Counter()  # (turn, seat): crew restored at Bell Island
        for t, seat, kind, a, b, _ in ev.tolist():
            if kind == R.EV_TREASURE:
                holder = seat
            elif kind == R.EV_ABANDON and seat == holder:
                holder = -1
            elif kind == R.EV_RAID:
                if holder >= 0 and a != holder:
                    n["raids_worthless_maps"] += 1
                if b == 1 and a == holder:
                    holder = seat
                n["raids"] += 1
            elif kind == R.EV_FIGHT:
                fought[(t, seat)] = a
                n["fights"] += 1
            elif kind == R.EV_STORM and fought.get((t, seat)) == a:
                n["fight_then_stop"] += 1
            elif kind == R.EV_BELL:  # the Telescope's collection on entering, then again at the end
                got[(t, seat)] += 1
                if got[(t, seat)] == 2:
                    n["bell_island_twice_in_a_turn"] += 1
        n["games"] += 1
        n["turns_over_1000"] += int(og[1] > 1000)
        n["truncated"] += int(og[3])
        n["turns"] += int(og[1])
    return n


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scenario")
    ap.add_argument("--games", type=int, default=1000)
    a = ap.parse_args(argv)
    n = audit(a.scenario, a.games)
    g = n.pop("games")
    for k, v in sorted(n.items()):
        print(f"{k:28s} {v:8d}  {1000 * v / g:9.1f} per 1,000 games")
    return 0


if __name__ == "__main__":
    sys.exit(main())
