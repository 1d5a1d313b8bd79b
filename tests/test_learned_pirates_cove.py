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

ROOT = Path(__file__).resolve().parent.parent


def _states(c, seat: int, n_games: int = 3) -> list[np.ndarray]:
    """States at ``seat``'s island choices, driven from Python: only the strategy-file seat's
    entry stops ``advance_nb``; each of its choices takes a fixed option."""
    from pirate_sim.games.pirates_cove import rounds as K
    from pirate_sim.games.pirates_cove import rules as R
    from pirate_sim.games.pirates_cove.actions import WK_SIZE
    from pirate_sim.games.pirates_cove.policies import FS_SIZE
    from pirate_sim.games.pirates_cove.whole_game import setup_nb
    from pirate_sim.rng import new_rng

    tr, cards, ncards, tavern, legends, strat, sp = c.extra["user"]["arrays"]
    P = c.params
    out = []
    for game in range(n_games):
        st = np.zeros(R.STATE_WORDS, np.int32)
        ev = np.zeros((0, 6), np.int32)
        rng = new_rng(23, game)
        fs = np.zeros(FS_SIZE)
        wk = np.zeros(WK_SIZE, np.int64)
        setup_nb(st, ev, rng, P, tr, ncards, tavern, legends, strat, sp, game)
        while K.advance_nb(st, ev, rng, P, tr, cards, legends, strat, sp, fs, wk, P.rounds + 1) != R.DEC_NONE:
            assert st[R.G_DEC_SEAT] == seat
            if st[R.G_DEC] == R.DEC_ISLAND:
                out.append(st.copy())
                st[R.G_FORCED] = 1 + (st[R.G_ROUND] + game) % 6 + R.FORCED_BIAS
            else:
                st[R.G_FORCED] = (-1 if st[R.G_DEC] == R.DEC_TI else 0) + R.FORCED_BIAS
    return out


def _scramble(st: np.ndarray, s: int, n: int, g) -> np.ndarray:
    """Every word seat ``s`` cannot know, changed (tests/test_user_pirates_cove.py's list):
    the others' secret islands, their hands by type and Fame cards' values, the Tavern pile's
    order and the Treasure stacks', and the bookkeeping."""
    from pirate_sim.games.pirates_cove import rules as R
    from pirate_sim.games.pirates_cove.ship import sb_nb

    st = st.copy()
    for o in range(n):
        if o == s:
            continue
        b = int(sb_nb(o))
        held = int(st[b + R.S_HAND + R.MASTERCRAFT:b + R.S_HAND + R.FAME + 1].sum())
        st[b + R.S_HAND + R.MASTERCRAFT:b + R.S_HAND + R.FAME + 1] = 0
        st[b + R.S_HAND + R.FAME] = held
        st[b + R.S_FAMEV:b + R.S_FAMEV + R.MAX_FAME_VALUE + 1] = 0
        st[b + R.S_FAMEV + 3] = held
        st[b + R.S_FAME_CARDS] = 3 * held
        st[b + R.S_ENTRY] = 7
        st[R.G_PEND + o] = g.integers(1, 7)
    nd = int(st[R.G_DECK_N])
    st[R.G_TDECK:R.G_TDECK + nd] = g.permutation(st[R.G_TDECK:R.G_TDECK + nd]) + 1
    r = int(st[R.G_ROUND])
    for i in range(R.N_CARD_ISLANDS):
        lo, hi = R.G_TPERM + i * R.MAX_TREASURE + r + 1, R.G_TPERM + (i + 1) * R.MAX_TREASURE
        st[lo:hi] = st[lo:hi][::-1]
    for w in (R.G_EVENTS, R.G_DECISIONS, R.G_GAME, R.G_FORCED, R.G_SUB):
        st[w] = 1234
    st[R.G_SCRIPT:R.G_SCRIPT + R.SC_WORDS] = 5
    st[R.G_FIGHT:R.G_FIGHT + R.F_WORDS] = 3
    return st


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
    states = _states(c, 2)
    assert len(states) == 3 * 12
    picked = set()
    for st in states:
        v = np.zeros(VIEW_LEN, np.int32)
        fill_view_nb(st, c.params, 2, v)
        sv = np.zeros(VIEW_LEN, np.int32)
        sc_st = _scramble(st, 2, 3, g)
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
