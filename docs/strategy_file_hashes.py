"""Results identity of strategy-file play: a hash of the games, traces and heat maps that
strategy files play, to prove a change to how they are called plays the same games.

Covers every documented example (examples/strategies/*.toml), the test probe in its two
legal modes, a file (and the learned player) as the rollout of Pirateer's ``search``, and a
file against ``search`` (Pirateer, Pirate's Peak, Ice Pirates), and each game's bundled
learned player against experts (examples/learned/*.toml);
each played whole, in uneven chunks and on one thread (which must agree), plus the trace of
game 3 (and Pirateer's heat map).

    python docs/strategy_file_hashes.py record docs/strategy_file_hashes.json
    python docs/strategy_file_hashes.py check docs/strategy_file_hashes.json [ice cove ...]

(trailing words: play only the cases whose names start with them).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pirate_sim import scenario as scen  # noqa: E402

RAIDER = "examples/strategies/pirateer_players.py:careful_raider"
PROBE = "tests/user_strategies/probe.py:probe"
PLANNER = "examples/strategies/pirates_cove_players.py:island_planner"  # a Cove island chooser of one's own
SEED = 20_261_202


def _pirateer(seats, **rules):
    return scen.from_dict({"game": "pirateer", "rules": {"strategy_seating": "rotate", **rules}, "seats": seats},
                          source=str(ROOT / "scenario.toml"))


def _table(game, seats):
    return scen.from_dict({"game": game, "rules": {"strategy_seating": "rotate"}, "seats": seats},
                          source=str(ROOT / "scenario.toml"))


CASES = {
    "peak_bold": (lambda: scen.load(ROOT / "examples/strategies/peak_bold.toml"), 3_000),
    "ice_navigator": (lambda: scen.load(ROOT / "examples/strategies/ice_pirates_navigator.toml"), 600),
    "cove_planner": (lambda: scen.load(ROOT / "examples/strategies/pirates_cove_planner.toml"), 300),
    "pirateer_raider": (lambda: scen.load(ROOT / "examples/strategies/pirateer_raider.toml"), 2_000),
    "probe_mode0": (lambda: _pirateer([{"strategy": PROBE, "mode": 0.0}, {"strategy": "random"}]), 500),
    "probe_mode2": (lambda: _pirateer([{"strategy": PROBE, "mode": 2.0}, {"strategy": "cautious"}]), 500),
    "rollout_of_search": (lambda: _pirateer([{"strategy": "search", "budget": 8, "rollout": RAIDER},
                                             {"strategy": "random"}]), 60),
    "file_vs_search": (lambda: _pirateer([{"strategy": RAIDER}, {"strategy": "search", "budget": 8}]), 60),
    "learned_rollout_of_search": (lambda: _pirateer([{"strategy": "search", "budget": 8, "rollout": "learned",
                                                      "weights": str(ROOT / "examples/learned/pirateer/weights.npz")},
                                                     {"strategy": "expert"}]), 20),
    "peak_file_vs_search": (lambda: _table("pirates_peak", [{"strategy": "examples/strategies/peak_players.py:"
                                                                         "bold_digger"}, {"strategy": "search"}]), 300),
    "ice_file_vs_search": (lambda: _table("ice_pirates", [{"strategy": "examples/strategies/ice_pirates_players.py:"
                                                                       "navigator"}, {"strategy": "search"}]), 60),
    "learned_peak": (lambda: scen.load(ROOT / "examples/learned/peak_learned_vs_expert.toml"), 3_000),
    "learned_ice": (lambda: scen.load(ROOT / "examples/learned/ice_pirates_learned_vs_experts.toml"), 600),
    "learned_cove": (lambda: scen.load(ROOT / "examples/learned/pirates_cove_learned_vs_experts.toml"), 300),
    "cove_rollout_of_search": (lambda: _table("pirates_cove", [{"strategy": "search", "budget": 8, "rollout": PLANNER},
                                                                {"strategy": "fighter"}, {"strategy": "expert"}]), 30),
    "cove_file_vs_search": (lambda: _table("pirates_cove", [{"strategy": PLANNER, "base": "fighter"},
                                                             {"strategy": "search", "budget": 8},
                                                             {"strategy": "crowd_avoider"}]), 30),
    "cove_learned_rollout_of_search": (lambda: scen.from_dict(
        {"game": "pirates_cove", "rules": {"strategy_seating": "rotate"},
         "seats": [{"strategy": "search", "budget": 6, "rollout": "learned",
                    "weights": str(ROOT / "examples/learned/pirates_cove/weights.npz")},
                   {"strategy": "expert"}, {"strategy": "learned",
                                            "weights": str(ROOT / "examples/learned/pirates_cove/weights.npz")}]},
        source=str(ROOT / "scenario.toml")), 18),
    "learned_pirateer": (lambda: scen.load(ROOT / "examples/learned/pirateer_learned_vs_experts.toml"), 200),
}


def _h(*arrays) -> str:
    h = hashlib.sha256()
    for a in arrays:
        a = np.ascontiguousarray(a)
        h.update(f"{a.dtype}{a.shape}".encode())
        h.update(a.tobytes())
    return h.hexdigest()[:16]


def case_hashes(name: str) -> dict[str, str]:
    import numba

    make, n = CASES[name]
    s = make()
    c = s.compile()
    g, st = s.game.play(c, SEED, 0, n)
    whole = _h(g, st)
    cut = n // 3 + 1
    parts = [s.game.play(c, SEED, a, b - a) for a, b in ((0, 7), (7, cut), (cut, n))]
    old = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        g1, s1 = s.game.play(c, SEED, 0, n)
    finally:
        numba.set_num_threads(old)
    assert _h(np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])) == whole, name
    assert _h(g1, s1) == whole, name
    out = {"games": whole, "trace": hashlib.sha256("\n".join(s.game.trace(c, SEED, 3)).encode()).hexdigest()[:16]}
    if hasattr(s.game, "heat"):
        out["heat"] = _h(s.game.heat(c, SEED, min(n, 200)))
    return out


def main(argv: list[str]) -> int:
    mode, path = argv[1], Path(argv[2])
    only = argv[3:]  # case-name prefixes to play (all by default): peak, ice, cove, pirateer, probe, ...
    now = {name: case_hashes(name) for name in CASES if not only or name.startswith(tuple(only))}
    for name, h in now.items():
        print(name, h, flush=True)
    if mode == "record":  # the cases played replace theirs; the others' records are kept
        old = json.loads(path.read_text()) if path.is_file() else {}
        path.write_text(json.dumps({**old, **now}, indent=1, sort_keys=True) + "\n")
        return 0
    then = json.loads(path.read_text())
    bad = [k for k in now if then.get(k) != now[k]]
    print("identical" if not bad else f"DIFFERENT: {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
