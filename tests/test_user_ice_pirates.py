"""Ice Pirates strategies of one's own (the decision protocol's engine: games/ice_pirates/protocol.py;
docs/strategies.md).

The real kernel and real files: examples/strategies/ice_pirates_players.py:navigator and
tests/user_strategies/ice_probe.py (its ``mode`` picks a misbehaviour).  The user kernel's
first compile in a process is shared by every test (cold: about 5 minutes on 2 busy cores;
cached: seconds).
"""

from __future__ import annotations

import importlib

import numpy as np
import pytest
from click.testing import CliRunner

from pirate_sim import scenario as scen
from pirate_sim import user_strategy as U
from pirate_sim.cli import main
from pirate_sim.games.ice_pirates import play as KG
from pirate_sim.games.ice_pirates import state as KS
from pirate_sim.games.ice_pirates import rules as R
from pirate_sim.games.ice_pirates import testing as T
from pirate_sim.games.ice_pirates import user_view as UV
from pirate_sim.stats import wilson
from strategy_cli import run_illegal_index
from tests.test_user_strategies import ROOT

NAVIGATOR = "examples/strategies/ice_pirates_players.py:navigator"
PROBE = str(ROOT / "tests" / "user_strategies" / "ice_probe.py") + ":probe"


def _ice(seat0: dict, seat1: dict | None = None, **rules) -> scen.Scenario:
    raw = {"game": "ice_pirates", "rules": rules, "seats": [seat0, seat1 or {"strategy": "random"}]}
    return scen.from_dict(raw, source=str(ROOT / "scenario.toml"))


def _navigator(**rules) -> scen.Scenario:
    return _ice({"strategy": NAVIGATOR}, strategy_seating="rotate", **rules)


def test_navigator_beats_random():
    """navigator (base expert) against random, seats rotating, on a held-out seed (7_340_003):
    the 95% Wilson interval of its win rate lies above 1/2."""
    s = _navigator()
    c = s.compile()
    n = 400
    g, _ = s.game.play(c, 7_340_003, 0, n)
    won = sum(int(g[k, 0] == k % 2) for k in range(n))  # entry 0 plays seat k mod 2 in game k
    est = wilson(won, n)
    assert est.lo > 0.5, est


def test_same_games_whatever_threads_and_chunks():
    numba = importlib.import_module("numba")  # (an import statement of numba would put this file in the
    # tests' compile-cache digest, pirate_sim/_cache.py: every edit here would recompile the kernels)
    s = _navigator()
    c = s.compile()
    old = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        g1, s1 = s.game.play(c, 99, 0, 300)
        numba.set_num_threads(max(2, old) if numba.config.NUMBA_NUM_THREADS > 1 else 1)
        parts = [s.game.play(c, 99, a, b - a) for a, b in ((0, 7), (7, 150), (150, 300))]
    finally:
        numba.set_num_threads(old)
    assert np.array_equal(g1, np.concatenate([p[0] for p in parts]))
    assert np.array_equal(s1, np.concatenate([p[1] for p in parts]))


def _mid_game(c, turns: int = 12):
    """(st, st0): a game after ``turns`` turns of built-in play, paused at a heading choice."""
    st, ev, rng = T.new_state(c, seed=5, game_index=3, events=0)
    fs = np.zeros(KS.FS_SIZE, np.int64)
    fs[KS.FS_KEY_TURN] = -1
    for _ in range(turns):
        KG.turn_nb(st, ev, rng, c.params, *c.arrays[:4], *c.arrays[6:], fs)  # (step_nb is inlined, not cached)
    st0 = st.copy()
    st[R.T_PEND] = R.PEND_DIR
    st[R.T_PMASK] = 0b101
    st[R.T_PSTOP] = 1
    return st, st0


def test_view_hides_the_face_down_cards():
    """fill_view_nb reads no face-down card: re-dealing them (card, colour, icebergs, wreck),
    scribbling on their other words and on the internal ones (bitboards, scripts, planner
    bookkeeping) leaves the view unchanged; a public change (the wind, a card turned up,
    crew) changes it."""
    c = _ice({"strategy": "expert"}, {"strategy": "expert"}).compile()
    st, st0 = _mid_game(c)
    view = np.zeros(UV.VIEW_LEN, np.int32)
    UV.fill_view_nb(st, st0, c.params, view)
    down = [x for x in range(R.N_CELLS) if c.arrays[0][x, 7] == 1 and st[R.C_REVEALED + x] == 0]
    assert 0 < len(down) < R.N_BAY
    hidden = st.copy()
    assert T.scramble_hidden(c, [hidden], np.random.default_rng(1)) == len(down)
    for x in down:
        for block in (R.C_WALLED, R.C_PASS, R.C_PASS_IB, R.C_VISITS):
            hidden[block + x] = 77
    internal = [R.G_WIND_SCR_LEN, R.G_DIR_SCR_LEN, R.G_SCR_FIGHT, R.G_VERSION, R.G_EVENTS, R.G_WIND_ROLLS]
    hidden[internal] = 12345
    hidden[R.BB_PASS:R.SEATS_BASE] = -5
    for s in range(c.n_seats):
        b = T.seat_base(s)
        hidden[[b + R.S_IDLE, b + R.S_STALL, b + R.S_STUCK, b + R.S_RAIDS_MADE, b + R.S_MOVES]] += 9
    st0h = st0.copy()
    st0h[T.seat_base(st[R.G_SEAT]) + R.S_MOVES] += 9  # moves this turn are a difference of two counts
    view2 = np.zeros(UV.VIEW_LEN, np.int32)
    UV.fill_view_nb(hidden, st0h, c.params, view2)
    assert np.array_equal(view, view2)
    changes = [(R.G_WIND, (st[R.G_WIND] + 1) % 6), (R.C_REVEALED + down[0], 1),
               (T.seat_base(1) + R.S_CREW, st[T.seat_base(1) + R.S_CREW] + 1)]
    for word, value in changes:
        public = st.copy()
        public[word] = value
        UV.fill_view_nb(public, st0, c.params, view2)
        assert not np.array_equal(view, view2), word
    assert view[UV.V_KIND] == UV.KIND_DIR and view[UV.V_CAN_STOP] == 1
    assert (view[UV.V_CARD + np.array(down)] == UV.FACE_DOWN).all()


def test_an_illegal_index_stops_the_run_with_the_game_named():
    s = _ice({"strategy": PROBE, "mode": 1.0})
    with pytest.raises(U.UserStrategyError, match=r"probe: returned (\d+) at game 0 turn \d+, where the legal "
                                                  r"options are 0\.\.\d+; the game was not recorded"):
        s.game.play(s.compile(), 1, 0, 20)


def test_cli_run_with_an_illegal_index_exits_2_and_records_nothing(tmp_path):
    line = run_illegal_index(tmp_path, f'game = "ice_pirates"\n[[seats]]\nstrategy = "{PROBE}"\nmode = 1\n'
                                       '[[seats]]\nstrategy = "random"\n')
    assert "probe: returned" in line and "the game was not recorded" in line


def test_reading_beyond_the_view_raises_one_line():
    s = _ice({"strategy": PROBE, "mode": 3.0})
    with pytest.raises(U.UserStrategyError, match=r"probe: raised an exception at game 0 turn \d+"):
        s.game.play(s.compile(), 1, 0, 20)


def test_trace_with_a_user_seat_equals_the_run():
    s = _navigator()
    c = s.compile()
    g, _ = s.game.play(c, 11, 0, 4)
    for k in (0, 3):
        ev, out_g, _ = s.game.trace_events(c, 11, k)
        assert np.array_equal(out_g, g[k])
        lines = s.game.trace(c, 11, k)
        assert lines[-1] == s.game.result_line(g[k])
        assert sum(" moves " in x for x in lines) > 0


def test_a_strategy_file_and_search_at_one_table():
    """navigator and ``search`` at one table (one engine for both): the games do not
    depend on chunks, the trace plays the run's game, the search seat is searched (its
    games differ from a table whose second seat is search's rollout strategy) and the file
    is called there (an illegal answer stops the run with the file named)."""
    s = _ice({"strategy": NAVIGATOR}, {"strategy": "search", "budget": 8}, strategy_seating="rotate")
    c = s.compile()
    g, st = s.game.play(c, 13, 0, 6)
    g2, st2 = s.game.play(c, 13, 2, 4)
    assert np.array_equal(g2, g[2:]) and np.array_equal(st2, st[2:])
    ev, out_g, _ = s.game.trace_events(c, 13, 1)
    assert np.array_equal(out_g, g[1])
    rollout = s.seats[1]["rollout"]
    plain = _ice({"strategy": NAVIGATOR}, {"strategy": rollout}, strategy_seating="rotate")
    gp, stp = plain.game.play(plain.compile(), 13, 0, 6)
    assert not np.array_equal(stp, st)
    bad = _ice({"strategy": PROBE, "mode": 1.0}, {"strategy": "search", "budget": 8})
    with pytest.raises(U.UserStrategyError, match="ice_probe.py: probe: returned"):
        bad.game.play(bad.compile(), 13, 0, 2)


def test_the_example_scenario_runs_through_the_cli(tmp_path):
    import json
    import shutil

    for name in ("ice_pirates_players.py", "ice_pirates_navigator.toml"):
        shutil.copy(ROOT / "examples" / "strategies" / name, tmp_path / name)
    out = tmp_path / "out"
    res = CliRunner().invoke(main, ["run", str(tmp_path / "ice_pirates_navigator.toml"), "-o", str(out),
                                    "--games", "200"], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    man = json.loads((out / "manifest.json").read_text())
    assert [f["strategy"] for f in man["strategy_files"]] == ["ice_pirates_players.py:navigator"]
