"""Strategies of one's own in Pirate's Cove (games/pirates_cove/protocol.py on the decision
protocol's engine, docs/strategies.md).

Real kernel, real files: examples/strategies/pirates_cove_players.py (the documented
example) and tests/user_strategies/cove_probe.py (one function whose ``mode`` parameter
picks a misbehaviour).  The game's one engine plays these tables as it plays every other
(compiled once, whatever the files); each file's wrapper compiles in seconds.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import numpy as np
import pytest

from pirate_sim import scenario as scen
from cove_states import island_states, scramble
from pirate_sim import user_strategy as U
from pirate_sim.stats import wilson
from strategy_cli import run_illegal_index

ROOT = Path(__file__).resolve().parent.parent
PLANNER = "examples/strategies/pirates_cove_players.py:island_planner"
PROBE = "tests/user_strategies/cove_probe.py:probe"


def _cove(seats: list[dict], **rules) -> scen.Scenario:
    return scen.from_dict({"game": "pirates_cove", "rules": rules, "seats": seats}, source=str(ROOT / "s.toml"))


def _planner_vs_random(base: str = "random") -> scen.Scenario:
    return _cove([{"strategy": PLANNER, "base": base}] + [{"strategy": "random"}] * 3, strategy_seating="rotate")


def _probe(mode: float) -> scen.Scenario:
    return _cove([{"strategy": "random"}, {"strategy": "random"}, {"strategy": PROBE, "mode": mode}])


# ------------------------------------------------------------------ strength, reproducibility
def test_island_planner_beats_random():
    """island_planner (its other choices random too) against three random seats, seats
    rotating, on a seed held out from the examples and the docs (7_340_003): the 95% Wilson
    interval of its win share lies well above the fair share 1/4."""
    s = _planner_vs_random()
    c = s.compile()
    n = 400
    g, _ = s.game.play(c, 7_340_003, 0, n)
    won = sum(int(g[k, 0] == k % 4) for k in range(n))  # entry 0 plays seat k mod 4 in game k
    est = wilson(won, n)
    assert est.lo > 0.25 + 0.1, est


def test_same_games_whatever_threads_and_chunks():
    # not an import statement: a test file that imports numba counts in the kernels' source
    # digest (pirate_sim._cache), and every edit of it would recompile them all
    numba = importlib.import_module("numba")
    s = _planner_vs_random("expert")
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
    assert (g1[:, 3] == 0).all() and (g1[:, 0] >= 0).any()


def test_scribbling_on_its_copies_changes_nothing():
    """The view and the options are the function's own copies: overwriting both before
    taking the first island plays exactly the games of only taking it."""
    s0, s2 = _probe(0.0), _probe(2.0)
    g0, st0 = s0.game.play(s0.compile(), 5, 0, 100)
    g2, st2 = s2.game.play(s2.compile(), 5, 0, 100)
    assert np.array_equal(g0, g2) and np.array_equal(st0, st2)
    visits = st0[:, 2, s0.game.seat_column_index("visits_island_1")]
    assert (visits == 12).all()  # option 0 is island 1 (the Tavern), every round


# ------------------------------------------------------------------ what the function sees
def test_view_holds_only_what_the_seat_may_know():
    """fill_view_nb at seat 2's island choice (seats 0 and 1 chose already, in secret):
    scrambling everything hidden leaves the view unchanged; changing a public word (another
    ship's gold, a face-up card) or the seat's own hand changes it; the others' hands by type
    read -1."""
    from pirate_sim.games.pirates_cove import rules as R
    from pirate_sim.games.pirates_cove.ship import sb_nb
    from pirate_sim.games.pirates_cove.user_view import (HIDDEN, SEAT_FIELDS, SV_CARDS, SV_FAME_CARDS, SV_HAND,
                                                         V_ROUND, V_SEATS, VIEW_LEN, fill_view_nb)

    s = _probe(0.0)
    c = s.compile()
    states = island_states(c, 2)
    assert len(states) == 3 * 12
    g = np.random.default_rng(3)

    def view(st):
        v = np.zeros(VIEW_LEN, np.int32)
        fill_view_nb(st, c.params, 2, v)
        return v

    changed = 0
    for st in states:
        v = view(st)
        sc = scramble(st, 2, 3, g)
        changed += int(not np.array_equal(sc, st))
        assert np.array_equal(v, view(sc)), int(st[R.G_ROUND])
        assert v[V_ROUND] == st[R.G_ROUND]
        for o in (0, 1):
            assert (v[V_SEATS + SEAT_FIELDS * o + SV_HAND:V_SEATS + SEAT_FIELDS * o + SV_FAME_CARDS + 1] == HIDDEN).all()
        for public in (sb_nb(1) + R.S_GOLD, R.G_CARD + 5, sb_nb(2) + R.S_HAND + R.BATTLE):
            pub = st.copy()
            pub[public] += 1
            assert not np.array_equal(v, view(pub)), public
    assert changed == len(states)
    held = [view(st)[V_SEATS + SV_CARDS] for st in states]
    assert max(held) > 0  # the others' card counts are public and do show


# ------------------------------------------------------------------ errors: one line
def test_an_illegal_index_stops_the_run_with_the_game_named():
    s = _probe(1.0)
    with pytest.raises(U.UserStrategyError, match=r"cove_probe.py: probe: returned 6 at game 0 turn 1, where the "
                                                  r"legal options are 0\.\.5; the game was not recorded"):
        s.game.play(s.compile(), 1, 0, 20)


def test_reading_beyond_the_view_raises_one_line():
    s = _probe(3.0)
    with pytest.raises(U.UserStrategyError, match=r"probe: raised an exception at game 0 turn 1 .*nothing was "
                                                  r"recorded"):
        s.game.play(s.compile(), 1, 0, 20)


def test_cli_run_with_an_illegal_index_exits_2(tmp_path):
    probe = ROOT / PROBE.split(":")[0]
    line = run_illegal_index(tmp_path, 'game = "pirates_cove"\n[[seats]]\nstrategy = "random"\n[[seats]]\n'
                                       f'strategy = "random"\n[[seats]]\nstrategy = "{probe}:probe"\nmode = 1.0\n')
    assert "returned 6 at game 0 turn 1, where the legal options are 0..5" in line


# ------------------------------------------------------------------ trace, a search seat, the example
def test_trace_equals_the_run():
    s = _planner_vs_random("expert")
    c = s.compile()
    g, _ = s.game.play(c, 3, 0, 5)
    _ev, out_g, _ = s.game.trace_events(c, 3, 2)
    assert np.array_equal(out_g, g[2])
    lines = s.game.trace(c, 3, 2)
    assert "pirates_cove_players.py:island_planner" in lines[0] and lines[-1].startswith("Result:")


def test_a_search_seat_beside_a_strategy_file():
    s = _cove([{"strategy": PLANNER}, {"strategy": "search", "budget": 4, "top_k": 2}, {"strategy": "fighter"}])
    c = s.compile()
    g, _ = s.game.play(c, 2, 0, 2)
    g2, _ = s.game.play(c, 2, 1, 1)
    assert np.array_equal(g[1], g2[0]) and (g[:, 3] == 0).all()


def test_the_example_scenario_loads():
    s = scen.load(ROOT / "examples" / "strategies" / "pirates_cove_planner.toml")
    assert s.seats[0]["base"] == "expert" and s.game.takes_strategy_files

