"""Measure Dask scaling: games/s of `run` on local:1 and local:2, the overhead per task,
and the client's Parquet write rate (what bounds a large cluster).

    python docs/cluster_bench.py [GAMES]        # default 2,000,000 Pirate's Peak games

Run it on a quiet machine: every figure is a wall-clock rate.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

SCEN = Path(__file__).resolve().parent.parent / "scenarios" / "pirates_peak" / "default.toml"


def timed_run(s, cluster, out: Path) -> float:
    from pirate_sim import runner

    t = time.perf_counter()
    runner.run(s, out, cluster=cluster)
    return time.perf_counter() - t


def main() -> None:
    from pirate_sim import results
    from pirate_sim import scenario as scen
    from pirate_sim.cluster import connect

    games = int(sys.argv[1]) if len(sys.argv) > 1 else 2_000_000
    s = scen.load(SCEN, [f"run.games={games}", "run.chunk_size=100000"])
    compiled = s.compile()
    s.game.play(compiled, s.seed, 0, 1)  # compile (or load) here first: workers load the cache
    tmp = Path(tempfile.mkdtemp(prefix="pirate-sim-cluster-bench-"))
    rates = {}
    for n in (1, 2):
        with connect(f"local:{n}") as cl:
            cl.prepare([s])
            secs = timed_run(s, cl, tmp / f"local{n}")
            rates[n] = games / secs
            print(f"local:{n}: {games:,} games in {secs:.1f} s = {rates[n]:,.0f} games/s", flush=True)
            if n == 1:
                # overhead per task: the same games in chunks of 1,000 vs 100,000, one worker
                small = scen.load(SCEN, ["run.games=200000", "run.chunk_size=1000"])
                big = scen.load(SCEN, ["run.games=200000", "run.chunk_size=100000"])
                cl.prepare([small, big])
                t_small = timed_run(small, cl, tmp / "small")
                t_big = timed_run(big, cl, tmp / "big")
                per_task = (t_small - t_big) / (200 - 2)
                print(f"overhead per task: {1000 * per_task:.2f} ms (200 tasks of 1,000 games {t_small:.2f} s, "
                      f"2 of 100,000 {t_big:.2f} s)", flush=True)
                kernel_per_game = t_big / 200000
                min_chunk = per_task / (0.05 * kernel_per_game)
                print(f"smallest chunk keeping it under 5% of a task: {min_chunk:,.0f} games", flush=True)
    print(f"local:2 / local:1 = {rates[2] / rates[1]:.2f}x", flush=True)
    # the client's write rate: tables built and written, no kernel
    out_g, out_s = s.game.play(compiled, s.seed, 0, 100000)
    part = results.PartBuilder(s.game, s.n_seats, 0, 100000)
    part.add(out_g, out_s)
    meta = {"pirate_sim.game": s.game.name}
    t = time.perf_counter()
    reps = 5
    for i in range(reps):
        results.write_chunk(tmp / "writes", i, part.games_table(meta), part.seats_table(compiled.strategy_names, meta))
    w = reps * 100000 / (time.perf_counter() - t)
    print(f"client write rate (tables + Parquet, one thread): {w:,.0f} games/s", flush=True)


if __name__ == "__main__":
    main()
