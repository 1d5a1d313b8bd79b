"""Speed of strategies of one's own against the built-in players (docs/strategies.md).

    .venv/bin/python docs/user_strategy_bench.py [--threads 1] [--pirateer 2000] [--peak 20000]

For each game it plays the same games with a user function and with its built-in
counterpart, twice each after a warm-up (the best of the two timings), on one thread by
default: Pirateer ``uniform`` (a legal play uniformly at random from its private stream)
against built-in ``random``, and ``careful_raider`` against the scored ``runner``;
Pirate's Peak ``uniform`` declarations (base random) against ``random``, and
``bold_digger`` (base expert) against ``expert``.  It also times, in this process, the
load of an already generated module (scenario load + compile + the first game).
"""

from __future__ import annotations

import argparse
import time

import numba

from pirate_sim import scenario as scen

ROOT = "examples/strategies"


def _rate(s, n: int) -> tuple[float, float]:
    """(games/s, seconds of the first compile and game: a cold compile or a cache load)."""
    t0 = time.perf_counter()
    c = s.compile()
    s.game.play(c, 1, 0, 1)
    first = time.perf_counter() - t0
    best = float("inf")
    for _ in range(2):
        t = time.perf_counter()
        s.game.play(c, 12345, 0, n)
        best = min(best, time.perf_counter() - t)
    return n / best, first


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--pirateer", type=int, default=2000)
    ap.add_argument("--peak", type=int, default=20000)
    a = ap.parse_args()
    numba.set_num_threads(a.threads)
    t = time.perf_counter()
    s = scen.from_dict({"game": "pirateer", "seats": [{"strategy": f"{ROOT}/pirateer_players.py:careful_raider"},
                                                      {"strategy": "random"}]})
    s.game.play(s.compile(), 1, 0, 1)
    print(f"warm load of a generated module (load + compile + 1 game): {time.perf_counter() - t:.2f} s")
    pairs = [
        ("pirateer", a.pirateer, {"strategy": f"{ROOT}/pirateer_players.py:uniform"}, {"strategy": "random"},
         {"strategy": "random"}),
        ("pirateer", a.pirateer, {"strategy": f"{ROOT}/pirateer_players.py:careful_raider"}, {"strategy": "runner"},
         {"strategy": "random"}),
        ("pirates_peak", a.peak, {"strategy": f"{ROOT}/peak_players.py:uniform", "base": "random"},
         {"strategy": "random"}, {"strategy": "random"}),
        ("pirates_peak", a.peak, {"strategy": f"{ROOT}/peak_players.py:bold_digger", "base": "expert"},
         {"strategy": "expert"}, {"strategy": "expert"}),
    ]
    for game, n, user, builtin, other in pairs:
        ru, first = _rate(scen.from_dict({"game": game, "seats": [user, other]}), n)
        rb, _ = _rate(scen.from_dict({"game": game, "seats": [builtin, other]}), n)
        print(f"{game:13s} {user['strategy'].split(':')[1]:15s} {ru:10,.0f} games/s   built-in "
              f"{builtin['strategy']:8s} {rb:10,.0f} games/s   ratio {ru / rb:.2f}  ({n:,} games, {a.threads} "
              f"thread; first compile + game {first:.1f} s)")


if __name__ == "__main__":
    main()
