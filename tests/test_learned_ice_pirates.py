"""Ice Pirates' learned player (pirate_sim/players/ice_pirates.py, docs/learned.md): its weights
are named after its features, it plays whole games against the expert, and its choice
depends only on the seat's view (the face-down Bay cards re-dealt change nothing), whose plan
words agree with a slow reference.

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

import ice_plan_reference

# the expert's own choices: its heading (dir_expert), its fight rule, its raid worth
EXPERT_LIKE = {"dir_expert": 1.0, "fight_expert": 1.0, "fight_bias": -0.5, "raid_bias": -0.01, "raid_worth": 1.0}


def _mid_game(c, turns: int = 12, game: int = 3):
    """(st, st0): a game after ``turns`` turns of built-in play (tests/test_user_ice_pirates.py)."""
    st, ev, rng = T.new_state(c, seed=5, game_index=game, events=0)
    fs = np.zeros(KS.FS_SIZE, np.int64)
    fs[KS.FS_KEY_TURN] = -1
    for _ in range(turns):
        KG.turn_nb(st, ev, rng, c.params, *c.arrays[:4], *c.arrays[6:], fs)
    return st, st.copy()


def _view(c, st, st0):
    """The seat's view of ``st`` as the engine fills it: the table words, then the plan words
    (its planner run with the seat's entry row, in a work space of its own)."""
    view = np.zeros(UV.VIEW_LEN, np.int32)
    UV.fill_view_nb(st, st0, c.params, view)
    geo, rel, _, costs, _, _, strat, sp = c.arrays
    fs = np.zeros(KS.FS_SIZE, np.int64)
    UV.fill_plan_nb(st, st0, c.params, geo, rel, costs, strat, sp, fs, view)
    return view


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
            views.append(_view(c, x, st0))
        assert np.array_equal(views[0], views[1])
        for params in [vals, *wrng.normal(size=(4, len(names)))]:
            picks = {u.py_func(v.copy(), options.copy(), params, new_rng(3, 4), board) for v in views}
            assert len(picks) == 1 and 0 <= picks.pop() < len(options)


def test_the_plan_words_are_the_slow_references():
    """The view's plan words (V_PLAN..: the kernel's planner, which the player reads instead of
    computing fields of its own) against a slow reference
    (tests/ice_plan_reference.py: the expert's goal read off the view, a plain heapq Dijkstra), on views from real games
    (mid-game, every seat to move, headings and fighting the waves)."""
    c = scen.from_dict({"game": "ice_pirates", "seats": [{"strategy": "expert"}] * 4}).compile()
    board = UV.board_of(c.params, c.arrays)
    compared = finite = 0
    for game in range(4):
        for turns in (3, 9, 15, 24, 33):
            st, st0 = _mid_game(c, turns, game)
            if st[R.G_END] >= 0 or st[T.seat_base(int(st[R.G_SEAT])) + R.S_POS] < 0:
                continue
            for kind in (R.PEND_DIR, R.PEND_FIGHT):
                st[R.T_PEND] = kind
                view = _view(c, st, st0)
                here, around, chase = ice_plan_reference.plan_words(view, board)
                assert (view[UV.V_PLAN], list(view[UV.V_PLAN + 1:UV.V_PLAN + 7])) == (here, around), (game, turns)
                assert (view[UV.V_PLAN_TARGET] >= 0) == chase
                compared += 1
                finite += sum(x >= 0 for x in around)
            st[R.T_PEND] = R.PEND_RAID  # a raid reads no plan: its words say so
            assert (_view(c, st, st0)[UV.V_PLAN:UV.VIEW_LEN] == -1).all()
    assert compared >= 20 and finite >= 3 * compared, (compared, finite)
