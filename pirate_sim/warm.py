"""Compile the kernels of every game now, in parallel processes, so that no command waits for one.

numba compiles a kernel on its first call and caches it (pirate_sim/_cache.py); a cold
compile takes seconds to minutes per kernel on a small machine, one kernel per core.  Left
to the commands, the first ``run``, ``trace``, ``search`` seat and strategy file of each game
each wait for theirs, and two test workers that start on the same game compile the same
kernel twice at once.  :func:`warm` instead plays one small job per (game, kernel family) in a
pool of processes, largest first, so the cores compile different kernels side by side and
each kernel is compiled once; on a warm cache each job is a load of a second or two.

Jobs: ``play`` (the default scenario's chunk kernel and the one-game trace), ``search`` (a
``search`` seat: the search chunk kernel and ``search_bench``), ``strategy file`` (a trivial
strategy file: the game's user kernel, compiled once per package whatever the files) and
``file and search`` (a strategy file beside a ``search`` seat: the user kernel's version with
the search player; a table without a search seat compiles one without it).  A game on the
decision protocol (``Game.one_engine``: one kernel plays every kind of seat) gets one job,
``engine``, which plays all four in turn in one process: split over two processes, both would
compile the same kernel at once.
"""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
import os
import time
from dataclasses import dataclass

# A strategy file that always takes the first option: it compiles in a second, and the
# game's user kernel it makes compile does not depend on the function.
_FIRST = "def first(view, options, params):\n    return 0\n"
# Rough cold cost of each job kind relative to the others (so the biggest start first and the
# pool stays balanced): search kernels are the largest, then the user kernels.
_ORDER = {"engine": 0, "search": 0, "file and search": 1, "play": 2, "strategy file": 3}
_ENGINE_STEPS = ("search", "play", "strategy file", "file and search")  # an ``engine`` job's plays, in order
# Cold seconds of each bundled game's ``engine`` job on 2 cores (two jobs at once, 2026-12-05): the
# pool starts the longest first, so the last job to end is a short one (4 jobs on 2 processes:
# the longest-first order ends 11 s sooner than the alphabetical one).  A game not listed starts first.
_ENGINE_SECONDS = {"pirates_peak": 63, "ice_pirates": 56, "pirates_cove": 52, "pirateer": 36}


@dataclass(frozen=True)
class Job:
    game: str
    what: str  # "play", "search", "strategy file", "file and search", or "engine" (all four)


@dataclass(frozen=True)
class Warmed:
    game: str
    what: str
    seconds: float
    error: str = ""  # what the job raised ("" when it compiled or loaded its kernels)


def jobs_for(games: list[str]) -> list[Job]:
    """Every job the games need, biggest kinds first."""
    from .games import get_game

    out = []
    for name in games:
        g = get_game(name)
        if g.one_engine:
            out.append(Job(name, "engine"))
            continue
        out.append(Job(name, "play"))
        if "search" in [s.name for s in g.strategies]:
            out.append(Job(name, "search"))
        if g.takes_strategy_files:
            out.append(Job(name, "strategy file"))
            if "search" in [s.name for s in g.strategies]:
                out.append(Job(name, "file and search"))
    return sorted(out, key=lambda j: (_ORDER[j.what], -_ENGINE_SECONDS.get(j.game, 1e9), j.game))


def _seats_with(g, first: dict, second: dict | None = None) -> list[dict]:
    rest = [{"strategy": s} for s in g.default_seats[1 if second is None else 2:]]
    return [first, *([second] if second else []), *rest]


def _pool_worker() -> None:
    """A pool worker starts no compile-ahead helper (pirate_sim/ahead.py): the pool already keeps
    every core busy."""
    from . import ahead

    ahead.ENABLED = False


def run_job(job: Job) -> Warmed:
    """Play the job's small games in this process (its kernels compile or load); an error is
    returned in ``Warmed.error``, not raised, so that the other jobs still run."""
    t = time.perf_counter()
    try:
        _play_job(job)
    except Exception as exc:  # noqa: BLE001 - reported beside the others; the command that needs it raises again
        return Warmed(job.game, job.what, time.perf_counter() - t, f"{type(exc).__name__}: {exc}")
    return Warmed(job.game, job.what, time.perf_counter() - t)


def _play_job(job: Job) -> None:
    from . import scenario as scen
    from . import user_strategy as U
    from .games import get_game

    g = get_game(job.game)
    if job.what == "engine":
        searches = "search" in [s.name for s in g.strategies]
        for what in _ENGINE_STEPS:
            if ("search" not in what or searches) and ("file" not in what or g.takes_strategy_files):
                _play_job(Job(job.game, what))
    elif job.what == "play":
        s = scen.default_scenario(g)
        c = s.compile()
        g.play(c, 1, 0, 4)
        g.trace(c, 1, 0)
    elif job.what == "search":
        s = scen.from_dict({"game": job.game, "seats": _seats_with(g, {"strategy": "search"})},
                           source=f"<warm {job.game}>")
        c = s.compile()
        g.play(c, 1, 0, 1)
        from .bench import has_search_bench

        if has_search_bench(g):
            g.search_bench(c, 1, 2)
    else:
        path = U.cache_dir() / "warm_first.py"
        if not path.exists() or path.read_text(encoding="utf-8") != _FIRST:
            path.write_text(_FIRST, encoding="utf-8")
        second = {"strategy": "search", "budget": 2} if job.what == "file and search" else None
        s = scen.from_dict({"game": job.game, "seats": _seats_with(g, {"strategy": f"{path}:first"}, second)},
                           source=str(path.with_name("warm.toml")))
        c = s.compile()
        g.play(c, 1, 0, 2)


def warm(games: list[str] | None = None, jobs: int | None = None, on_done=None) -> list[Warmed]:
    """Compile (or load) every kernel of ``games`` (default: all) in ``jobs`` processes
    (default: the cores).  ``on_done(Warmed)`` is called as each job ends.  Results of games
    never depend on it: it only fills numba's cache."""
    from .games import available_games

    names = list(games) if games else available_games()
    todo = jobs_for(names)
    n = max(1, min(jobs or os.cpu_count() or 1, len(todo)))
    done: list[Warmed] = []
    if n == 1:
        for j in todo:
            done.append(run_job(j))
            if on_done:
                on_done(done[-1])
        return done
    # spawn: a fresh interpreter per worker (numba's threading layer and a forked parent do not mix)
    ctx = multiprocessing.get_context("spawn")
    with cf.ProcessPoolExecutor(max_workers=n, mp_context=ctx, initializer=_pool_worker) as pool:
        futures = [pool.submit(run_job, j) for j in todo]
        for f in cf.as_completed(futures):
            done.append(f.result())
            if on_done:
                on_done(done[-1])
    return done


def _print_warmed(w: Warmed) -> None:
    print(f"warm: {w.game} {w.what}: {w.seconds:.1f} s" + (f" FAILED {w.error}" if w.error else ""), flush=True)


def _main() -> None:  # pragma: no cover - python -m pirate_sim.warm, for the Makefile
    import argparse

    from .games import available_games

    ap = argparse.ArgumentParser(prog="python -m pirate_sim.warm", description="Compile (or load) every kernel of "
                                 "the games named (default: all) into numba's cache, one process per core.")
    ap.add_argument("games", nargs="*", metavar="GAME", help="a game: " + ", ".join(available_games()))
    ap.add_argument("--jobs", type=int, default=None, help="processes (default: the cores)")
    ap.add_argument("--what", choices=sorted(_ORDER), default=None,
                    help="only this job of each game named, in this process (pirate_sim/ahead.py's helper)")
    a = ap.parse_args()
    for g in a.games:
        if g not in available_games():
            ap.error(f"unknown game {g!r}; the games are {', '.join(available_games())}")
    t = time.perf_counter()
    if a.what:
        from . import ahead

        ahead.ENABLED = False  # a helper starts no helper of its own
        ahead.record_claims()  # where this process is a compile-ahead helper (ahead.start)
        failed = False
        for g in a.games or available_games():
            w = run_job(Job(g, a.what))
            failed |= bool(w.error)
            _print_warmed(w)
        raise SystemExit(1 if failed else 0)
    for w in warm(a.games or None, a.jobs):
        _print_warmed(w)
    print(f"warm: every kernel compiled or loaded in {time.perf_counter() - t:.0f} s", flush=True)


if __name__ == "__main__":  # pragma: no cover
    _main()

