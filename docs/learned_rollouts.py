"""Search rolling out the learned player against search with its default rollouts (docs/learned.md,
"search rolling out a learned player"): each table plays ``games`` games on held-out seeds, seats
rotating, and prints each seat's share of the points (win 1, a shared or no winner 1/seats) with
its Wilson 95% interval, and the CPU a game.

    python docs/learned_rollouts.py pirates_cove 2000 91001 [TABLE ...]

Tables (the learned player is examples/learned/<game>/weights.npz):
  default_vs_learned  search (default rollouts), learned, then experts
  learned_vs_learned  search (learned rollouts), learned, then experts
  default_vs_experts  search (default rollouts), then experts
  learned_vs_experts  search (learned rollouts), then experts
  default_vs_all_learned / learned_vs_all_learned   the same, every other seat learned
  learned_all_vs_all_learned   (Ice Pirates) learned rollouts for every seat (opponents = "rollout")

Trailing table names play only those.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pirate_sim import scenario as scen  # noqa: E402
from pirate_sim.seating import entries_of_seats  # noqa: E402
from pirate_sim.stats import wilson  # noqa: E402


def tables(game: str, n_seats: int) -> dict[str, list[dict]]:
    w = str(ROOT / "examples" / "learned" / game / "weights.npz")
    learned = {"strategy": "learned", "weights": w}
    rolled = {"strategy": "search", "rollout": "learned", "weights": w}
    plain = {"strategy": "search"}
    ex = {"strategy": "expert"}
    out = {"default_vs_learned": [plain, learned] + [ex] * (n_seats - 2),
            "learned_vs_learned": [rolled, learned] + [ex] * (n_seats - 2),
            "default_vs_experts": [plain] + [ex] * (n_seats - 1),
            "learned_vs_experts": [rolled] + [ex] * (n_seats - 1),
            "default_vs_all_learned": [plain] + [learned] * (n_seats - 1),
            "learned_vs_all_learned": [rolled] + [learned] * (n_seats - 1)}
    if game == "ice_pirates":  # its search models the other seats as a mix unless told to roll them out too
        out["learned_all_vs_all_learned"] = [dict(rolled, opponents="rollout")] + [learned] * (n_seats - 1)
    return out


def shares(s, seed: int, n: int) -> tuple[list, float]:
    c = s.compile()
    t = time.process_time()
    g, _ = s.game.play(c, seed, 0, n)
    cpu = time.process_time() - t
    k = s.n_seats
    ent = entries_of_seats(np.arange(n), k, True)
    win = g[:, 0].astype(np.int64)
    rows = []
    for e in range(k):
        mine = ent[np.arange(n), np.clip(win, 0, k - 1)] == e
        pts = np.where(win < 0, 1.0 / k, np.where(mine, 1.0, 0.0))
        est = wilson(pts.sum(), n)
        rows.append((s.seats[e]["strategy"] + ("(" + s.seats[e].get("rollout", "") + ")"
                                                if s.seats[e]["strategy"] == "search" else ""),
                     round(float(pts.mean()), 3), round(float(est.lo), 3), round(float(est.hi), 3)))
    return rows, cpu / n


def main(argv: list[str]) -> int:
    game, n, seed = argv[1], int(argv[2]), int(argv[3])
    only = argv[4:]
    n_seats = scen.from_dict({"game": game}).n_seats
    for name, seats in tables(game, n_seats).items():
        if only and name not in only:
            continue
        s = scen.from_dict({"game": game, "rules": {"strategy_seating": "rotate"}, "seats": seats},
                           source=str(ROOT / "scenario.toml"))
        rows, cpu = shares(s, seed, n)
        print(f"{game} {name} n={n} seed={seed} cpu/game={cpu:.3f}s", rows, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
