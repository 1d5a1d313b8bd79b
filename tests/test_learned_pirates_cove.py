"""Pirate's Cove's learned player (pirate_sim/players/pirates_cove.py): its weights match its
features, and it decides from what the seat may know only.

The scramble check drives a real game from Python (as tests/test_user_pirates_cove.py does),
scrambles every hidden word at seat 2's island choices (seats 0 and 1 chose already, in
secret) and asks the player's compiled function for its island on the views before and after:
the view, and so the island, must not change.  The player's own function compiles in seconds;
the scenario's compile is the game kernel's (cached after the first use).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from pirate_sim import learned
from pirate_sim import scenario as scen
from cove_states import island_states, scramble

ROOT = Path(__file__).resolve().parent.parent


def test_learned_player_names_its_features_and_sees_only_its_view():
    import sys

    from pirate_sim.games.pirates_cove import rules as R
    from pirate_sim.games.pirates_cove.user_view import VIEW_LEN, board_of, fill_view_nb
    from pirate_sim.rng import RNG_WORDS
    from pirate_sim.user_strategy import readonly

    u = learned.player("pirates_cove")
    mod = sys.modules[u.module_name]
    assert u.n_args == 5 and len(u.params) <= 64
    assert tuple(u.params) == mod.FEATURES and len(mod.FEATURES) == mod.N_FEATURES == len(set(mod.FEATURES))
    assert all(v == 0.0 for v in u.params.values())

    probe = "tests/user_strategies/cove_probe.py:probe"  # a user seat: advance_nb stops at its choices
    sc = scen.from_dict({"game": "pirates_cove", "seats": [{"strategy": "random"}, {"strategy": "random"},
                                                           {"strategy": probe, "mode": 0.0}]},
                        source=str(ROOT / "s.toml"))
    c = sc.compile()
    board = board_of(c)
    rng = np.zeros(RNG_WORDS, np.uint64)  # the player draws nothing from it
    g = np.random.default_rng(5)
    weights = [readonly(w) for w in np.random.default_rng(11).standard_normal((4, len(mod.FEATURES)))]
    states = island_states(c, 2, seed=23)
    assert len(states) == 3 * 12
    picked = set()
    for st in states:
        v = np.zeros(VIEW_LEN, np.int32)
        fill_view_nb(st, c.params, 2, v)
        sv = np.zeros(VIEW_LEN, np.int32)
        sc_st = scramble(st, 2, 3, g)
        assert not np.array_equal(sc_st, st)
        fill_view_nb(sc_st, c.params, 2, sv)
        assert np.array_equal(v, sv), int(st[R.G_ROUND])
        for w in weights:
            opts = np.arange(1, 7, dtype=np.int32)
            k = u.dispatcher(v.copy(), opts.copy(), w, rng, board)
            assert 0 <= k < 6
            assert u.dispatcher(sv.copy(), opts.copy(), w, rng, board) == k
            picked.add(int(k))
    assert len(picked) > 1  # the weights do steer it
