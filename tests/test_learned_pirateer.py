"""Pirateer's learned player (pirate_sim/players/pirateer.py): its weights match its features,
and its "take" feature makes it take the treasure.

A four-seat game is driven from Python with random plays (the kernel's own turn functions)
until a seat's legal plays include both plays that take the treasure from Skull Island and
plays that do not; the player's Python function (``py_func``; its helpers are compiled by
numba on first call, seconds) is asked on that view.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from pirate_sim import learned
from pirate_sim import scenario as scen

ROOT = Path(__file__).resolve().parent.parent


def _treasure_decision():
    """(view, plays, board) at the first decision of a random four-seat game whose legal plays
    include plays that take the treasure and plays that do not (plays not taking it first)."""
    from pirate_sim.games.pirateer import rules as R
    from pirate_sim.games.pirateer.turn import begin_turn_nb, finish_turn_nb
    from pirate_sim.games.pirateer.user_view import VIEW_LEN, board_of, fill_view_nb
    from pirate_sim.games.pirateer.whole_game import setup_nb
    from pirate_sim.rng import new_rng

    s = scen.from_dict({"game": "pirateer", "seats": [{"strategy": "random"}] * 4}, source=str(ROOT / "s.toml"))
    c = s.compile()
    P, a = c.params, c.arrays
    board = board_of(a)
    g = np.random.default_rng(7)
    plays = np.zeros((R.MAX_PLAYS, R.PLAY_WIDTH), np.int32)
    no_heat = np.zeros((2, 0), np.int64)
    for game in range(50):
        st = np.zeros(P.state_words, np.int32)
        ev = np.zeros((0, 6), np.int32)
        rng = new_rng(11, game)
        setup_nb(st, ev, rng, P, a[7], a[8], a[9], game)
        while st[R.G_END] < 0 and st[R.G_TURN] < 400:
            st[R.G_TURN] += 1
            n = begin_turn_nb(st, ev, rng, P, *a[:3], a[6], plays)
            if n > 0:
                takes = (plays[:n, 3] == 1) | ((plays[:n, 4] >= 0) & (plays[:n, 7] == 1))
                if takes.any() and not takes.all():
                    view = np.zeros(VIEW_LEN, np.int32)
                    fill_view_nb(st, P, view)
                    order = np.argsort(takes, kind="stable")  # the plays not taking it first
                    return view, plays[:n][order].copy(), board
            row = plays[g.integers(n)] if n > 0 else np.full(R.PLAY_WIDTH, -1, np.int32)
            finish_turn_nb(st, ev, P, *a[:2], row, no_heat)
    raise AssertionError("no decision with a choice to take the treasure in 50 random games")


def test_learned_pirateer_names_its_features_and_takes_the_treasure():
    from pirate_sim.games.pirateer.user_view import V_N_NODES, V_N_SEATS, V_SHIPS, V_SHIPS_PER_SEAT
    from pirate_sim.rng import RNG_WORDS

    u = learned.player("pirateer")
    mod = sys.modules[u.module_name]
    assert u.n_args == 5 and len(u.params) <= 64
    assert tuple(u.params) == mod.FEATURES and len(mod.FEATURES) == mod.N_FEATURES == len(set(mod.FEATURES))
    assert all(v == 0.0 for v in u.params.values())

    view, plays, board = _treasure_decision()
    rng = np.zeros(RNG_WORDS, np.uint64)
    n = len(plays)
    takes = (plays[:, 3] == 1) | ((plays[:, 4] >= 0) & (plays[:, 7] == 1))
    assert not takes[0] and takes[-1]
    f = u.py_func
    for seed in range(3):  # any weights: a valid index
        w = np.random.default_rng(seed).standard_normal(len(u.params))
        assert 0 <= f(view.copy(), plays.copy(), w, rng, board) < n
    w = np.zeros(len(u.params))
    assert f(view.copy(), plays.copy(), w, rng, board) == 0  # all ties: the first play
    w[mod.FEATURES.index("take")] = 1.0
    k = f(view.copy(), plays.copy(), w, rng, board)
    assert takes[k], plays[k]  # the first play that takes the treasure
    assert k == int(np.argmax(takes))
    w[mod.FEATURES.index("take")] = -1.0
    assert not takes[f(view.copy(), plays.copy(), w, rng, board)]
    # the feature itself: 1 exactly on the plays that take the treasure
    phi = np.zeros(mod.N_FEATURES)
    occ = np.full(int(view[V_N_NODES]), -1, np.int32)
    pos = np.full(mod.MAX_SHIPS, -1, np.int32)
    for o in range(int(view[V_N_SEATS] * view[V_SHIPS_PER_SEAT])):
        pos[o] = view[V_SHIPS + o]
        if pos[o] >= 0:
            occ[pos[o]] = o
    mask = np.zeros((mod.MAX_SHIPS, len(occ)), np.int64)
    mod.threat(view, board, occ, mask)
    for i in range(n):
        occ0, pos0 = occ.copy(), pos.copy()
        mod.features(view, board, plays[i], occ, mask, pos, phi)
        assert phi[mod.FEATURES.index("take")] == float(takes[i])
        assert np.array_equal(occ, occ0) and np.array_equal(pos, pos0)  # the play undone


# -- search rolling out the learned player (rollout = "learned", weights = ...) ---------------
def _learned_rollout_table(tmp_path: Path, weights: str, budget: int = 4, rules=None, **extra) -> scen.Scenario:
    raw = {"game": "pirateer", "rules": {"strategy_seating": "rotate", **(rules or {})},
           "seats": [{"strategy": "search", "budget": budget, "rollout": "learned", "weights": weights, **extra},
                     {"strategy": "expert"}]}
    return scen.from_dict(raw, source=str(tmp_path / "s.toml"))


def _weights_file(path: Path, values, rules_hash: str = "0" * 16) -> Path:
    u = learned.player("pirateer")
    learned.write_weights(path, learned.Weights("pirateer", "x", rules_hash, tuple(u.params),
                                                np.asarray(values, float)))
    return path


def test_learned_rollout_errors_name_the_key(tmp_path):
    import pytest

    with pytest.raises(scen.ScenarioError, match=r"seats\.0\.weights.*missing"):
        scen.from_dict({"game": "pirateer", "seats": [{"strategy": "search", "rollout": "learned"},
                                                       {"strategy": "expert"}]}, source=str(tmp_path / "s.toml"))
    with pytest.raises(scen.ScenarioError, match=r"seats\.0\.weights.*only with rollout = \"learned\""):
        scen.from_dict({"game": "pirateer", "seats": [{"strategy": "search", "weights": "w.npz"},
                                                       {"strategy": "expert"}]}, source=str(tmp_path / "s.toml"))
    with pytest.raises(scen.ScenarioError, match=r"seats\.0\.weights.*trained for other rules"):
        _learned_rollout_table(tmp_path, str(ROOT / "examples/learned/pirateer/weights.npz"),
                               rules={"doubles_extra_roll": True})
    with pytest.raises(scen.ScenarioError, match=r"seats\.0\.weights: .*w\.npz"):  # every game's search may
        scen.from_dict({"game": "ice_pirates", "seats": [{"strategy": "search", "rollout": "learned",
                                                           "weights": "w.npz"}, {"strategy": "expert"}]},
                       source=str(tmp_path / "s.toml"))


def test_learned_rollout_results_keep_the_weights(tmp_path):
    """A run's directory copies the rollout player's weights beside its scenario.toml, which
    loads on its own with the same hash; the manifest lists the weights' SHA-256."""
    import json

    from pirate_sim import api

    w = ROOT / "examples/learned/pirateer/weights.npz"
    src = tmp_path / "s.toml"
    src.write_text('game = "pirateer"\n[run]\ngames = 2\nseed = 3\n[rules]\nstrategy_seating = "rotate"\n'
                   f'[[seats]]\nstrategy = "search"\nbudget = 2\nrollout = "learned"\nweights = "{w}"\n'
                   '[[seats]]\nstrategy = "expert"\n')
    s = scen.load(src)
    api.run(s, out=tmp_path / "out", progress=False)
    again = scen.load(tmp_path / "out" / "scenario.toml")
    assert again.hash() == s.hash()
    rp = again.seats[0]["rollout_player"]
    assert Path(rp["weights_file"]).parent == tmp_path / "out" / "strategies" and Path(rp["weights_file"]).is_file()
    assert 'weights = "strategies/' in (tmp_path / "out" / "scenario.toml").read_text()
    man = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert {"strategy": "learned", "weights": str(w.resolve()), "sha256": rp["weights_sha256"]} in man["strategy_files"]
