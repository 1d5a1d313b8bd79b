"""The ``best_move`` toy (tests/toy_best_move.py) on the decision protocol: with no driver, search
or chunk code of its own it plays strategy files, traces, the search bench and a search that
reads only its seat's information (its meta-game answers: tests/test_meta_known.py)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np

import toy_best_move as B
import toy_meta  # noqa: F401 - registers best_move
from pirate_sim import scenario as scen
from pirate_sim.stats import wilson

ROOT = Path(__file__).resolve().parent.parent
FILE = "tests/user_strategies/duel_moves.py:move"  # takes the option its ``option`` parameter names
N = 4000


def _table(seats: list[dict], **rules) -> scen.Scenario:
    return scen.from_dict({"game": "best_move", "rules": rules, "seats": seats}, source=str(ROOT / "s.toml"))


def _play(sc: scen.Scenario, seed: int = 5, n: int = N):
    return sc.game.play(sc.compile(), seed, 0, n)


def _digest(g, s) -> str:
    return hashlib.sha256(g.tobytes() + s.tobytes()).hexdigest()


def test_a_file_taking_option_0_plays_the_scripted_first_players_games():
    a = _play(_table([{"strategy": FILE, "option": 0.0}, {"strategy": "random"}]))
    b = _play(_table([{"strategy": "first"}, {"strategy": "random"}]))
    assert _digest(*a) == _digest(*b)
    c = _play(_table([{"strategy": FILE, "option": 6.0}, {"strategy": "random"}]))
    assert (c[1][:, 0, B.SC_PICK] == 6).all() and _digest(*a) != _digest(*c)


def test_the_best_option_wins_its_exact_share_against_random():
    """Option 6 is the best of eight: it loses only a tie (random picks 6 with chance 1/8) and
    wins half of those, 15/16 of the games."""
    g, _ = _play(_table([{"strategy": FILE, "option": 6.0}, {"strategy": "random"}]))
    e = wilson(float((g[:, 0] == 0).sum()), len(g))
    assert e.lo <= 15 / 16 <= e.hi, e


def test_search_reads_only_its_seats_information():
    """Seat 1 searches after seat 0 picked, blind to the pick: seat 0's file takes option 0 in one
    table and 5 in the other (a file never advances the game's dice), and seat 1's search picks
    the same in every game.  The control: seat 0's picks, and so the winners, differ."""
    search = {"strategy": "search", "budget": 16}
    a = _play(_table([{"strategy": FILE, "option": 0.0}, search]), n=1000)
    b = _play(_table([{"strategy": FILE, "option": 5.0}, search]), n=1000)
    assert np.array_equal(a[1][:, 1, B.SC_PICK], b[1][:, 1, B.SC_PICK])
    assert not np.array_equal(a[1][:, 0, B.SC_PICK], b[1][:, 0, B.SC_PICK])
    assert not np.array_equal(a[0][:, 0], b[0][:, 0])


def test_search_finds_the_best_option_more_often_with_more_rollouts():
    share = {}
    for budget in (8, 512):
        _, s = _play(_table([{"strategy": "search", "budget": budget}, {"strategy": "random"}]), n=1000)
        share[budget] = (s[:, 0, B.SC_PICK] == 6).mean()
    assert share[8] < 0.5 and share[512] >= 0.98, share  # measured about 0.30 and 0.99+


def test_trace_is_the_bulk_runs_game():
    sc = _table([{"strategy": "search", "budget": 16}, {"strategy": "random"}, {"strategy": "first"}])
    c = sc.compile()
    lines = sc.game.trace(c, 21, 42)
    g, _ = sc.game.play(c, 21, 42, 1)
    assert [x.startswith(f"seat {s} picks option ") for s, x in enumerate(lines[:3])] == [True] * 3
    assert lines[3] == f"seat {int(g[0, 0])} wins" and lines[-1] == sc.game.result_line(g[0])


def test_the_search_bench_counts_rollouts():
    sc = _table([{"strategy": "search", "budget": 64}, {"strategy": "first"}])
    b = sc.game.search_bench(sc.compile(), 1, 30)
    # sequential halving of 64 rollouts over 8 options: 3 rounds, 64 // (8 * 3) = 2 each, then
    # 64 // (4 * 3) = 5 for the better 4, 64 // (2 * 3) = 10 for the best 2: 56 a decision
    assert b["searched_decisions"] == 30 and b["rollouts"] == 30 * 56 and b["rollouts_per_s"] > 0
