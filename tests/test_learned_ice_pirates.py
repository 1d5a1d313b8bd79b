"""Ice Pirates' learned player (pirate_sim/players/ice_pirates.py, docs/learned.md): its weights
are named after its features, it plays whole games against the expert, and its choice
depends only on the seat's view (the face-down Bay cards re-dealt change nothing).

The strategy-file kernel's first compile in a process is shared with the other strategy-file
tests (tests/test_user_ice_pirates.py); after it this runs in seconds.
"""

from __future__ import annotations

import numpy as np

from pirate_sim import learned
from pirate_sim import scenario as scen
from pirate_sim.games.ice_pirates import play as KG
from pirate_sim.games.ice_pirates import rules as R
from pirate_sim.games.ice_pirates import state as KS
from pirate_sim.games.ice_pirates import testing as T
from pirate_sim.games.ice_pirates import user_view as UV
from pirate_sim.rng import new_rng

# the expert's own choices: its heading (dir_expert), its fight rule, its raid worth
EXPERT_LIKE = {"dir_expert": 1.0, "fight_expert": 1.0, "fight_bias": -0.5, "raid_bias": -0.01, "raid_worth": 1.0}


def _mid_game(c, turns: int = 12):
    """(st, st0): a game after ``turns`` turns of built-in play (tests/test_user_ice_pirates.py)."""
    st, ev, rng = T.new_state(c, seed=5, game_index=3, events=0)
    fs = np.zeros(KS.FS_SIZE, np.int64)
    fs[KS.FS_KEY_TURN] = -1
    for _ in range(turns):
        KG.turn_nb(st, ev, rng, c.params, *c.arrays[:4], *c.arrays[6:], fs)
    return st, st.copy()


def test_learned_ice_pirates_weights_games_and_hidden_cards():
    u = learned.player("ice_pirates")
    g = u.py_func.__globals__
    names = [f"{k}_{f}" for k, feats in zip(g["KINDS"], g["FEATURES"]) for f in feats]
    assert list(u.params) == names and len(names) <= 48
    assert set(u.params.values()) == {0.0} and u.n_args == 5
    assert (g["N_DIR"], g["N_FIGHT"], g["N_RAID"]) == tuple(len(f) for f in g["FEATURES"])

    # whole games: the expert's own choices through the file, seats rotating, against three experts
    sc = scen.from_dict({"game": "ice_pirates"})
    s = learned._learner_table(sc, ["expert"] * (sc.n_seats - 1), None, tuple(u.params), {"base": "expert"})
    vals = np.array([EXPERT_LIKE.get(k, 0.0) for k in u.params])
    pts = learned._points(sc.game, s, [vals], tuple(u.params), 7_340_011, 400)[0]
    assert pts.mean() > 0.15, pts.mean()  # the fair share is 1/4

    # the view hides the face-down cards: re-dealing them changes no choice
    c = scen.from_dict({"game": "ice_pirates", "seats": [{"strategy": "expert"}] * 4}).compile()
    board = UV.board_of(c.params, c.arrays)
    st, st0 = _mid_game(c)
    hidden = st.copy()
    assert T.scramble_hidden(c, [hidden], np.random.default_rng(1)) > 0
    seat = int(st[R.G_SEAT])
    others = [o for o in range(c.n_seats) if o != seat]
    pos = int(st[T.seat_base(seat) + R.S_POS])
    heads = [d for d in range(6) if board.nb[pos, d] >= 0]
    cases = [(R.PEND_DIR, np.array([*heads, -1], np.int32)), (R.PEND_FIGHT, np.array([1, 0], np.int32)),
             (R.PEND_RAID, np.array([-1, *others], np.int32))]
    wrng = np.random.default_rng(2)
    for kind, options in cases:
        views = []
        for x in (st, hidden):
            x[R.T_PEND] = kind
            x[R.T_PSTOP] = 1
            view = np.zeros(UV.VIEW_LEN, np.int32)
            UV.fill_view_nb(x, st0, c.params, view)
            views.append(view)
        assert np.array_equal(views[0], views[1])
        for params in [vals, *wrng.normal(size=(4, len(names)))]:
            picks = {u.py_func(v.copy(), options.copy(), params, new_rng(3, 4), board) for v in views}
            assert len(picks) == 1 and 0 <= picks.pop() < len(options)


def test_goal_fields_stop_early_yet_exact_where_read():
    """The player's Dijkstra stops once the cells its features read (the ship's and one move
    away) are settled: there every goal field equals the full field's, on views from real
    games (mid-game, every seat, headings and fighting the waves)."""
    g = learned.player("ice_pirates").py_func.__globals__
    c = scen.from_dict({"game": "ice_pirates", "seats": [{"strategy": "expert"}] * 4}).compile()
    board = UV.board_of(c.params, c.arrays)
    n, cells = g["N_GOALS"], g["N_CELLS"]
    compared = early = 0
    for turns in (3, 9, 15, 24, 33):
        st, st0 = _mid_game(c, turns)
        if st[R.G_END] >= 0:
            continue
        pos = int(st[T.seat_base(int(st[R.G_SEAT])) + R.S_POS])
        if pos < 0:
            continue
        near = [pos, *[int(b) for b in board.nb[pos] if b >= 0]]
        for kind in (R.PEND_DIR, R.PEND_FIGHT):
            st[R.T_PEND] = kind
            view = np.zeros(UV.VIEW_LEN, np.int32)
            UV.fill_view_nb(st, st0, c.params, view)
            out = []
            for want in (sum(1 << x for x in near), (1 << cells) - 1):
                dist = np.empty((n, cells), np.int64)
                args = (np.zeros(cells, np.int64), np.zeros(2 * cells, np.int64), np.zeros(6, np.int64))
                out.append((g["fields"](view, board, dist, *args, want, np.zeros(32, np.int64)), dist))
            assert out[0][0] == out[1][0]
            assert np.array_equal(out[0][1][:, near], out[1][1][:, near])
            assert (out[0][1] >= out[1][1]).all()  # elsewhere an unsettled cell may only be further
            compared += 1
            early += int(not np.array_equal(out[0][1], out[1][1]))
    assert compared >= 6 and early > 0, (compared, early)  # and it did stop early
