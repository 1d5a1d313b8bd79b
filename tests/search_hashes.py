"""Search-identity harness: a hash of what ``search`` seats play, to prove that a change to the
search machinery (the shared loop in pirate_sim/search.py, a game's rollout) plays the same games.

For each game a few tables with ``search`` seats at small budgets that exercise the loop's
cases (one option kept, two, several halving rounds with uneven shares, every option kept,
each reward; a strategy file as the rollout and at a seat beside search, horizons),
each played twice (in one call and in two calls of uneven length) and traced once (the text of
one game's trace).  Each table's hash covers the games' and seats' outputs and the trace.

Usage (from the repository root; PYTHONPATH picks the checkout to measure)::

    python tests/search_hashes.py record before.json
    python tests/search_hashes.py check before.json      # exit 1 if a table plays otherwise
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
SEED = 4_242_001
RAIDER = "examples/strategies/pirateer_players.py:careful_raider"  # a strategy file as search's rollout
PLANNER = "examples/strategies/pirates_cove_players.py:island_planner"  # Cove: a file at a seat or rolled out
BOLD = "examples/strategies/peak_players.py:bold_digger"  # Pirate's Peak: a file at a seat or rolled out
NAVIGATOR = "examples/strategies/ice_pirates_players.py:navigator"  # Ice Pirates: a file at a seat or rolled out


def _s(**kw) -> dict:
    return {"strategy": "search", **kw}


# game -> [(label, seats, rules, games)]
TABLES = {
    "pirates_peak": [
        ("b16", [_s(budget=16), {"strategy": "expert"}], {}, 400),
        ("b37_k2_margin", [{"strategy": "racer"}, _s(budget=37, top_k=2, reward="margin")], {}, 400),
        ("b9_k1", [_s(budget=9, top_k=1), _s(budget=23, rollout="gunner")], {}, 300),
        # two searches: a fight can carry the ship that did not move to the Peak (its treasure asked then)
        ("b8_two_searches", [_s(budget=8, top_k=2), _s(budget=8, reward="margin")], {}, 300),
        # horizons: H more turns after the searched one; a turn cap that truncates inside a rollout
        ("b12_h3", [_s(budget=12, horizon=3), {"strategy": "treasure_digger"}], {}, 200),
        ("b10_h4_cap40", [_s(budget=10, horizon=4), _s(budget=7, top_k=2, horizon=1, reward="margin")],
         {"turn_cap": 40}, 200),
        # a strategy file rolled out (its declarations, the expert's other choices), and one with a horizon
        # beside a file seat, the seats rotating
        ("b6_file_rollout", [_s(budget=6, rollout=BOLD), {"strategy": "expert"}], {}, 120),
        ("b8_file_rollout_h2_file_seat", [_s(budget=8, rollout=BOLD, horizon=2, reward="margin"),
                                          {"strategy": BOLD, "base": "racer"}], {"strategy_seating": "rotate"}, 120),
    ],
    "ice_pirates": [
        ("b16_k0", [_s(budget=16, top_k=0), {"strategy": "upgrader"}], {}, 80),
        ("b40_k3_rank_4p", [{"strategy": "expert"}, _s(budget=40, top_k=3, reward="rank"), {"strategy": "raider"},
                            _s(budget=11, reward="margin")], {}, 40),
        # a horizon, every other seat modelled as the rollout strategy
        ("b12_h3_opp_rollout", [_s(budget=12, horizon=3, opponents="rollout"), {"strategy": "expert"}], {}, 30),
        ("b10_h2_mix_3p", [{"strategy": "raider"}, _s(budget=10, horizon=2), {"strategy": "map_hunter"}], {}, 24),
        # a strategy file rolled out (with the mix, the other seats are the mix's rows), and without the mix
        ("b6_file_rollout", [_s(budget=6, rollout=NAVIGATOR), {"strategy": "expert"}], {}, 10),
        ("b5_file_rollout_opp_rollout_h4", [_s(budget=5, rollout=NAVIGATOR, opponents="rollout", horizon=4),
                                            {"strategy": "upgrader"}], {}, 10),
        # a file seat beside two searches, the seats rotating
        ("4p_two_searches_file", [_s(budget=6), {"strategy": NAVIGATOR, "base": "raider"},
                                  _s(budget=9, top_k=2, rollout="upgrader", reward="rank"), {"strategy": "expert"}],
         {"strategy_seating": "rotate"}, 8),
    ],
    "pirates_cove": [
        ("b8", [_s(budget=8), {"strategy": "fighter"}, {"strategy": "expert"}, {"strategy": "crowd_avoider"}], {}, 24),
        ("b21_k3_margin", [{"strategy": "expert"}, _s(budget=21, top_k=3, reward="margin"), {"strategy": "fighter"}],
         {}, 24),
        # a horizon reaching the last round's end (the final scoring inside the rollout)
        ("b5_h11", [_s(budget=5, horizon=11), {"strategy": "treasure_hunter"}, {"strategy": "expert"}], {}, 6),
        # a strategy file rolled out with a horizon: the file chooses every seat's islands again
        ("b6_h2_file_rollout", [_s(budget=6, horizon=2, rollout=PLANNER), {"strategy": "fighter"},
                                {"strategy": "expert"}], {}, 6),
        # five seats: two searches (one rolling out the fighter, rank reward) and a file seat
        ("5p_two_searches_file", [_s(budget=4), _s(budget=7, top_k=3, rollout="fighter", reward="rank"),
                                  {"strategy": "fighter"}, {"strategy": PLANNER, "base": "crowd_avoider"},
                                  {"strategy": "expert"}], {"strategy_seating": "rotate"}, 6),
    ],
    "pirateer": [
        ("b8", [_s(budget=8), {"strategy": "expert"}], {}, 8),
        ("b19_k0_rank", [{"strategy": "cautious"}, _s(budget=19, top_k=0, reward="rank")], {}, 6),
        ("b8_file_rollout", [_s(budget=8, rollout=RAIDER), {"strategy": "random"}], {}, 6),
    ],
}


def _compiled(game_name: str, seats: list[dict], rules: dict):
    from pirate_sim import scenario as scen

    raw = {"game": game_name, "rules": rules, "seats": seats}
    return scen.from_dict(raw, source=str(ROOT / "search_hashes.toml")).compile()


def table_hash(game_name: str, seats: list[dict], rules: dict, games: int) -> tuple[str, float]:
    from pirate_sim.games import get_game

    game = get_game(game_name)
    c = _compiled(game_name, seats, rules)
    t = time.perf_counter()
    g, s = game.play(c, SEED, 0, games)
    cut = games // 3
    g1, s1 = game.play(c, SEED, 0, cut)
    g2, s2 = game.play(c, SEED, cut, games - cut)
    if not (np.array_equal(g, np.concatenate([g1, g2])) and np.array_equal(s, np.concatenate([s1, s2]))):
        raise AssertionError(f"{game_name} {seats}: games depend on how the run is cut")
    lines = game.trace(c, SEED, games // 2)
    h = hashlib.sha256()
    for a in (g, s):
        a = np.ascontiguousarray(a)
        h.update(str((a.dtype, a.shape)).encode())
        h.update(a.tobytes())
    h.update("\n".join(lines).encode())
    return h.hexdigest(), time.perf_counter() - t


def hashes(games: list[str] | None = None) -> dict:
    out = {}
    for game_name, tables in TABLES.items():
        if games and game_name not in games:
            continue
        for label, seats, rules, n in tables:
            key = f"{game_name}/{label}"
            out[key], dt = table_hash(game_name, seats, rules, n)
            print(f"{key}: {out[key][:16]} ({dt:.1f} s)", flush=True)
    return out


def main(argv: list[str]) -> int:
    mode, path = argv[0], Path(argv[1])
    now = hashes(argv[2:] or None)
    if mode == "record":
        path.write_text(json.dumps(now, indent=1, sort_keys=True))
        return 0
    before = json.loads(path.read_text())
    bad = [k for k in now if before.get(k) != now[k]]
    print(f"{len(now) - len(bad)} of {len(now)} search tables identical" + (f"; differ: {bad}" if bad else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
