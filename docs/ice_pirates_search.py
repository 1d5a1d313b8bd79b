"""How strong Ice Pirates' `search` player is: head to head against the strongest scripted
strategy, 2 players, and the default scenario's first-player advantage with search in every
seat (the figures of docs/rules/ice_pirates.md, "The search player").

    python docs/ice_pirates_search.py                      # the rules page's table (minutes)
    python docs/ice_pirates_search.py --budgets 16 --games 40 --first-games 0   # quick

Head to head: the [[seats]] entries are (search, opponent), `first_player = "rule"` (seat 0
moves first) and `strategy_seating = "rotate"`, so each entry moves first in half the games
and sits in each seat equally often.  Seeds are held out: none was used while the player was
written (development used 2, 5, 7, 11).  Wilson 95% intervals; a draw (no game is truncated
here) would count a half.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
SEED = 9001  # held out
FIRST_SEED = 9002  # held out


def seat(name: str, **over) -> dict:
    from pirate_sim.games.ice_pirates import GAME

    return {"strategy": name, **{p.key: p.default for p in GAME.strategy(name).params}, **over}


def head_to_head(budget: int, opponent: str, games: int, seed: int = SEED, rollout: str | None = None) -> dict:
    """Win share of `search` at ``budget`` (rolling out with ``rollout``, None: its default)
    against ``opponent`` (2 players, seats rotating)."""
    from pirate_sim.games.ice_pirates import GAME
    from pirate_sim.stats import wilson

    rules = {p.key: p.default for p in GAME.params}
    rules.update({"first_player": "rule", "strategy_seating": "rotate"})
    over = {"budget": budget} if rollout is None else {"budget": budget, "rollout": rollout}
    c = GAME.compile(rules, [seat("search", **over), seat(opponent)])
    t = time.perf_counter()
    g, _ = GAME.play(c, seed, 0, games)
    dt = time.perf_counter() - t
    k = np.arange(games)
    w = g[:, 0]
    entry = np.where(w >= 0, (w - k) % 2, -1)  # entry j plays seat (j + k) mod 2
    wins = float((entry == 0).sum() + 0.5 * (w < 0).sum())
    e = wilson(wins, games)
    return {"budget": budget, "opponent": opponent, "games": games, "win": e.value, "lo": e.lo, "hi": e.hi,
            "s_per_game": dt / games, "truncated": int(g[:, 3].sum())}


def first_player(games: int, seed: int = FIRST_SEED) -> dict:
    """The default scenario with `search` (default parameters) in every seat: how often the
    first mover wins, against the fair 1 / seats."""
    from pirate_sim.games.base import G_FIRST_SEAT
    from pirate_sim.scenario import load
    from pirate_sim.stats import wilson

    s = load(ROOT / "scenarios" / "ice_pirates" / "default.toml")
    c = s.game.compile(s.rules, [seat("search") for _ in s.seats])
    t = time.perf_counter()
    g, _ = s.game.play(c, seed, 0, games)
    dt = time.perf_counter() - t
    e = wilson(float((g[:, 0] == g[:, G_FIRST_SEAT]).sum()), games)
    return {"seats": len(s.seats), "games": games, "first_wins": e.value, "lo": e.lo, "hi": e.hi,
            "fair": 1 / len(s.seats), "s_per_game": dt / games}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budgets", type=int, nargs="+", default=[16, 64, 256])
    ap.add_argument("--games", type=int, default=400, help="games per budget (half at budgets above 64)")
    ap.add_argument("--opponent", default="upgrader", help="the strongest scripted strategy in 2 players")
    ap.add_argument("--first-games", type=int, default=120)
    ap.add_argument("--rollout", default=None, help="search's rollout strategy (default: its own default)")
    a = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from pirate_sim.games.ice_pirates import GAME

    print("| budget | games | win rate vs %s [95%%] | s per game | rollouts/s per thread |" % a.opponent)
    print("|---|---|---|---|---|")
    for b in a.budgets:
        n = a.games if b <= 64 else max(a.games // 2, 2)
        r = head_to_head(b, a.opponent, n, rollout=a.rollout)
        rules = {p.key: p.default for p in GAME.params}
        bench = GAME.search_bench(GAME.compile({**rules, "first_player": "rule"},
                                               [seat("search", budget=b, **({} if a.rollout is None else {"rollout": a.rollout})), seat(a.opponent)]), SEED, 100)
        print(f"| {b} | {n} | {r['win']:.3f} [{r['lo']:.3f}, {r['hi']:.3f}] | {r['s_per_game']:.3f} | "
              f"{bench['rollouts_per_s']:,.0f} (overhead {bench['overhead']:+.0%}) |", flush=True)
    if a.first_games > 0:
        f = first_player(a.first_games)
        print(f"default scenario, search in all {f['seats']} seats, {f['games']} games: first mover wins "
              f"{f['first_wins']:.3f} [{f['lo']:.3f}, {f['hi']:.3f}] (fair {f['fair']:.3f}), "
              f"{f['s_per_game']:.2f} s per game")
    return 0


if __name__ == "__main__":
    sys.exit(main())
