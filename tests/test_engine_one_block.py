"""One compiled block plays a run, a traced game and the bench's recording
(engine_template.play_block_nb), and a table of scripted seats in a game with
``play_unasked_nb`` (Pirate's Peak) plays the same games in play_unasked_block_nb, which compiles
no decision, search or strategy-file code: real kernels, real tables."""

from __future__ import annotations

import numpy as np
import pytest

from pirate_sim import contract
from pirate_sim import scenario as scen
from pirate_sim.games import get_game

BOLD = "examples/strategies/peak_players.py:bold_digger"


def _peak(seats: list[dict], rules: dict | None = None):
    s = scen.from_dict({"game": "pirates_peak", "rules": rules or {}, "seats": seats}, source="peak.toml")
    g = s.game
    c = s.compile()
    return g, c, g.engine(), g.engine_tables(c), g.engine_files(c)


@pytest.mark.parametrize("rules", [{}, {"strategy_seating": "rotate"}])
def test_a_scripted_peak_table_plays_the_same_games_without_the_decision_code(rules):
    g, c, eng, args, files = _peak([{"strategy": "treasure_digger"}, {"strategy": "gunner"}], rules)
    assert contract.unasked(eng, args, files)
    n, seed, first = 2000, 77, 123
    P = g.engine_params(c)
    a_g, a_s = g.new_outputs(n, 2)
    counters = np.full((n, 3), -5, np.int64)
    fi, urows, calls, _ = files
    played = eng.play_block_nb(np.uint64(seed), np.int64(first), np.int64(0), np.int64(n), P, *args[1:], fi, urows,
                               calls, a_g, a_s, counters, np.zeros((n, 4), np.int64),
                               contract.block_work(eng, P, args[0]))
    assert played == n
    assert (counters == 0).all()  # nobody asked: no decision reached the engine there either
    b_g, b_s, b_counters = contract.play_engine(eng, g, c, args, files, seed, first, n)  # the unasked block
    assert np.array_equal(a_g, b_g) and np.array_equal(a_s, b_s) and (b_counters == 0).all()
    assert len(np.unique(a_g[:, 0])) > 1  # real games: both seats win some


def test_a_table_with_a_search_seat_or_a_strategy_file_is_asked():
    _, _, eng, args, files = _peak([{"strategy": "search", "budget": 4}, {"strategy": "expert"}])
    assert not contract.unasked(eng, args, files)
    _, _, eng, args, files = _peak([{"strategy": "expert"}, {"strategy": BOLD}])
    assert not contract.unasked(eng, args, files)
    other = get_game("pirates_cove")
    s = scen.default_scenario(other)
    c = s.compile()
    assert not other.engine().UNASKED  # a game without play_unasked_nb keeps one block kernel
    assert not contract.unasked(other.engine(), other.engine_tables(c), other.engine_files(c))


@pytest.mark.parametrize("seats", [[{"strategy": "treasure_digger"}, {"strategy": "expert"}],
                                   [{"strategy": "search", "budget": 4}, {"strategy": "expert"}]])
def test_a_traced_game_is_the_runs_game_from_the_same_block(seats):
    g, c, eng, args, files = _peak(seats)
    k = 5
    run_g, run_s, _ = contract.play_engine(eng, g, c, args, files, 9, k, 1)
    ev, tr_g, tr_s = contract.trace_engine(eng, g, c, args, files, 9, k, 5000)
    assert np.array_equal(run_g[0], tr_g) and np.array_equal(run_s[0], tr_s)
    assert len(ev) > 50  # a whole game's events, logged
    # the game's log is the work areas' own; the rollouts keep the scratch's empty one (a rollout
    # that logged into the game's copied rows its state does not have)
    work = contract.block_work(eng, g.engine_params(c), args[0], np.zeros((100, 6), np.int32))
    assert work[5].shape[0] == 100 and work[2][10].shape[0] == 0


def test_the_bench_records_a_runs_searched_decisions_and_stops_when_full():
    """The record comes from the run's block (blocks of 1, 2, 4 ... games): the decisions of games
    0, 1, ... in order, no more than asked, each one the state a run reached."""
    g, c, eng, args, files = _peak([{"strategy": "search", "budget": 4}, {"strategy": "expert"}])
    rec = contract.collect_engine(eng, g, c, args, files, 3, 25)
    assert rec[0, 0] == 25
    seats = rec[1:, eng.REC_SEAT]
    assert set(seats.tolist()) <= {0, 1} and (rec[1:, eng.REC_ENTRY] == 0).all()  # entry 0 searches
    again = contract.collect_engine(eng, g, c, args, files, 3, 40)
    assert np.array_equal(again[1:26], rec[1:])  # a longer record begins with the shorter one
