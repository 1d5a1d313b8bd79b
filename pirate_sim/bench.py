"""Throughput benchmark: games/s with and without the JIT, dice per game, raw dice rate,
and ``run`` end to end (Parquet written, summary computed) beside the bare kernel.

The no-JIT figure runs the very same kernel code as plain Python in a subprocess with
``NUMBA_DISABLE_JIT=1`` (the flag must be set before numba is imported).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

from .games.base import G_TURNS
from .runner import run, set_threads
from .scenario import Scenario

RAW_DICE = 50_000_000  # dice rolled to time the bare RNG (about 0.15 s)
# Each rate is the best of this many timings: on a shared or virtual machine single
# timings of the same work were seen to vary by 30%, and the fastest is the least disturbed.
REPEATS = 3
# A timing longer than this averages the disturbances out by itself: no repeat after it
# (a slow game's bench would otherwise take minutes).
LONG_TIMING_S = 5.0
TURN_SAMPLE = 20_000  # games whose mean length gives turns per game and ns per turn


def best_rate(fn, n: int, repeats: int = REPEATS) -> float:
    """n / the shortest wall time of up to ``repeats`` calls of ``fn()``."""
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        dt = time.perf_counter() - t
        best = min(best, dt)
        if dt > LONG_TIMING_S:
            break
    return n / best


def paired_rates(s: Scenario, compiled, n: int, threads: int) -> tuple[float, float, float]:
    """games/s of the bare kernel (a chunk per call) and of ``runner.run`` end to end (kernel, accumulator,
    Parquet parts, summary), best of up to ``REPEATS`` each, and the run's share of the
    kernel: the median of the ratios of the pairs, each pair timed back to back.  The
    machine's speed drifts (a shared or virtual machine's single timings of the same work
    vary by 10-30%), so a ratio of two separate bests would carry that drift."""
    plays, runs = [], []
    chunk = int(s.run["chunk_size"])
    with tempfile.TemporaryDirectory(prefix="pirate-sim-bench-") as tmp:
        for k in range(REPEATS):
            set_threads(threads)
            t = time.perf_counter()
            for a in range(0, n, chunk):  # as a run plays them: one call for 850,000 Pirate's
                s.game.play(compiled, s.seed, a, min(chunk, n - a))  # Peak games is 10% slower (fresh memory)
            plays.append(time.perf_counter() - t)
            t = time.perf_counter()
            run(s, Path(tmp) / f"run{k}", games=n, threads=threads)
            runs.append(time.perf_counter() - t)
            if plays[-1] > LONG_TIMING_S:
                break
    return n / min(plays), n / min(runs), float(np.median([p / r for p, r in zip(plays, runs)]))


def raw_dice_rate() -> float:
    from .rng import raw_dice_rate_nb

    raw_dice_rate_nb(1, 1000)
    return best_rate(lambda: raw_dice_rate_nb(1, RAW_DICE), RAW_DICE)


def nojit_rate(s: Scenario, n: int) -> float:
    """games/s of the same code with the JIT disabled (subprocess)."""
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    from .games import GAME_MODULES

    code = ("import sys, json; from pirate_sim.bench import _nojit_worker; "
            "print(json.dumps(_nojit_worker(sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3]))))")
    # the worker gets the parent's game registry and import path (plug-ins outside the package)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    out = subprocess.run([sys.executable, "-W", "ignore", "-c", code, s.to_toml(with_docs=False), str(n),
                          json.dumps(GAME_MODULES)], env=env, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"no-JIT benchmark failed:\n{out.stderr[-2000:]}")
    return float(json.loads(out.stdout.strip().splitlines()[-1])["games_per_s"])


def _nojit_worker(toml_text: str, n: int, registry: dict) -> dict:
    import tomllib

    from .games import GAME_MODULES
    from .scenario import from_dict

    GAME_MODULES.update(registry)
    s = from_dict(tomllib.loads(toml_text), source="<bench>")
    compiled = s.compile()
    with warnings.catch_warnings(), np.errstate(over="ignore"):
        warnings.simplefilter("ignore")
        s.game.play(compiled, s.seed, 0, 2)  # first call: imports and setup
        t = time.perf_counter()
        s.game.play(compiled, s.seed, 0, n)
        dt = time.perf_counter() - t
    return {"games_per_s": n / dt}


# Games per timing when not given: about this many seconds of the kernel on one thread
# (a run's fixed costs, lock, manifests, last row group and summary, take about 40 ms:
# 7% of a 0.6 s run, 1% of a 5 s one), within these bounds.
TIMING_S = 5.0
AUTO_GAMES = (20_000, 2_000_000)
WARM_GAMES = 10_000  # the untimed warm-up, which also estimates the kernel's rate


SEARCH_DECISIONS = 200  # searched decisions the search player's cost is measured over


def search_scenario(s: Scenario) -> tuple[Scenario, str]:
    """The scenario the search figures are measured on, and what it is: ``s`` where a seat
    plays ``search``; else ``s`` with seats.0 playing ``search`` at its defaults (the
    rollouts/s figure is the search player's cost, worth having whoever the scenario seats)."""
    import dataclasses

    from .user_strategy import ROLLOUT_PLAYER

    for i, seat in enumerate(s.seats):
        if seat["strategy"] == "search":
            where = f"seats.{i} (the scenario's)"
            if (seat.get("rollout") in s.user or ROLLOUT_PLAYER in seat) \
                    and not getattr(s.game, "bench_user_rollout", False):
                placeholder = getattr(s.game, "user_rollout_placeholder", None)
                where += (f"; its rollouts timed as the built-in {placeholder!r}: bench does not time a "
                          f"strategy-file or learned rollout in {s.game.title}")
            return s, where
    st = s.game.strategy("search")
    seats = [{"strategy": "search", **{p.key: p.default for p in st.params}}, *s.seats[1:]]
    return (dataclasses.replace(s, seats=seats),
            f"seats.0 set to search at its defaults (the scenario seats no search player; seats.0 is "
            f"{s.seats[0]['strategy']})")


def search_figures(game, compiled, seed: int, n_decisions: int = SEARCH_DECISIONS) -> dict:
    """The search player's cost (``Game.search_bench``) as bench fields, for a game whose
    strategies include ``search``; {} for a game without it (or without a search_bench)."""
    if not has_search_bench(game):
        return {}
    b = game.search_bench(compiled, seed, n_decisions)
    return {"search_rollouts_per_s": b["rollouts_per_s"], "search_s_per_rollout": b["s_per_rollout"],
            "search_s_per_playout": b["s_per_playout"], "search_overhead": b["overhead"],
            "search_decisions": n_decisions}


def has_search_bench(game) -> bool:
    from .games.base import Game

    return "search" in [st.name for st in game.strategies] and type(game).search_bench is not Game.search_bench


def bench_game(s: Scenario, n_games: int | None, nojit_games: int, log=None,
               search_decisions: int = SEARCH_DECISIONS) -> dict:
    """All the figures for one scenario, as a dict (``n_games`` None: about TIMING_S of
    the kernel on one thread; ``search_decisions``: the searched decisions the search
    player's cost is measured over)."""
    say = log or (lambda *_: None)
    compiled = s.compile()
    say(f"[dim]{s.game.name}: first call (compile or cache load)...[/]")
    t = time.perf_counter()
    s.game.play(compiled, s.seed, 0, 10)
    first_call = time.perf_counter() - t
    import numba

    all_threads = numba.config.NUMBA_NUM_THREADS
    set_threads(1)
    warm = min(n_games or WARM_GAMES, WARM_GAMES)
    t = time.perf_counter()
    s.game.play(compiled, s.seed, 0, warm)  # warm caches and thread pool (untimed)
    if n_games is None:
        rate = warm / max(time.perf_counter() - t, 1e-9)
        n_games = int(min(max(rate * TIMING_S, AUTO_GAMES[0]), AUTO_GAMES[1])) // 1000 * 1000
    say(f"[dim]{s.game.name}: {n_games:,} games on 1 thread, bare and run end to end...[/]")
    g1, r1, ratio1 = paired_rates(s, compiled, n_games, 1)
    say(f"[dim]{s.game.name}: {n_games:,} games on {all_threads} threads, bare and run end to end...[/]")
    gall, rall, ratio_all = paired_rates(s, compiled, n_games, all_threads)
    set_threads(None)
    gnojit = float("nan")  # a strategy file runs through its compiled address: no JIT-disabled run
    if not s.user:
        say(f"[dim]{s.game.name}: {nojit_games} games with the JIT disabled...[/]")
        gnojit = nojit_rate(s, nojit_games)
    dpg = s.game.dice_per_game(compiled, s.seed, min(n_games, 100_000))
    turns = float(s.game.play(compiled, s.seed, 0, min(n_games, TURN_SAMPLE))[0][:, G_TURNS].mean())
    raw = raw_dice_rate()
    set_threads(1)
    say(f"[dim]{s.game.name}: the search player's rollouts, 1 thread...[/]")
    search = {}
    if has_search_bench(s.game) and not s.user:  # a search seat beside a strategy file: not in every game
        ss, where = search_scenario(s)
        search = {**search_figures(ss.game, ss.compile() if ss is not s else compiled, s.seed, search_decisions),
                  "search_seat": where}
    set_threads(None)
    return {
        "game": s.game.name,
        "rules_version": s.game.version,
        "games": n_games,
        "threads": all_threads,
        "games_per_s_1": g1,
        "games_per_s_all": gall,
        "thread_scaling": gall / g1,
        "run_games_per_s_1": r1,
        "run_games_per_s_all": rall,
        "run_ratio_1": ratio1,  # median of back-to-back pairs (see paired_rates)
        "run_ratio_all": ratio_all,
        "games_per_s_nojit": gnojit,
        "jit_speedup": g1 / gnojit,
        "dice_per_game": dpg,
        "turns_per_game": turns,  # one turn = one seat's move (Pirate's Cove: one seat's round)
        "ns_per_turn_1": 1e9 / (g1 * turns) if turns > 0 else float("nan"),
        "raw_dice_per_s": raw,
        "efficiency": g1 / (raw / dpg),
        "first_call_s": first_call,
        **search,  # search_rollouts_per_s, search_s_per_rollout, search_s_per_playout, search_overhead
    }
