"""Pirate's Peak seating: who moves first and which strategy sits where (pirate_sim.seating)."""

from __future__ import annotations

import numpy as np

from pirate_sim.games.base import G_FIRST_SEAT
from pirate_sim.games.pirates_peak import GAME
from pirate_sim.games.pirates_peak import rules as r

N = 400


def play(a, b, **rules):
    rr = r.defaults()
    rr.update(rules)
    c = GAME.compile(rr, [{"strategy": a}, {"strategy": b}])
    return GAME.play(c, 3, 0, N)


def test_defaults_keep_the_rulebook_roll_off():
    assert r.defaults()["first_player"] == "rule" and r.defaults()["strategy_seating"] == "fixed"
    g, _ = play("treasure_digger", "racer")
    first = g[:, G_FIRST_SEAT]
    assert set(np.unique(first)) == {0, 1}


def test_rotate_first_player_alternates_by_game_index():
    g, _ = play("treasure_digger", "racer", first_player="rotate")
    assert (g[:, G_FIRST_SEAT] == np.arange(N) % 2).all()


def test_random_first_player_is_fair():
    g, _ = play("treasure_digger", "treasure_digger", first_player="random")
    # share of seat 0: sd = sqrt(0.25 / 400) = 0.025; 4 sd
    assert abs(g[:, G_FIRST_SEAT].mean() - 0.5) < 0.1


def test_rotated_strategies_replay_the_fixed_seating_game_by_game():
    """In game k, entry j plays seat (j + k) mod 2: odd games are the swapped fixed line-up,
    even games the fixed one, draw for draw (same stream per game index)."""
    rot_g, rot_s = play("treasure_digger", "racer", strategy_seating="rotate")
    fix_g, fix_s = play("treasure_digger", "racer")
    swp_g, swp_s = play("racer", "treasure_digger")
    even, odd = np.arange(N) % 2 == 0, np.arange(N) % 2 == 1
    assert (rot_g[even] == fix_g[even]).all() and (rot_s[even] == fix_s[even]).all()
    assert (rot_g[odd] == swp_g[odd]).all() and (rot_s[odd] == swp_s[odd]).all()


def test_trace_names_the_strategy_each_seat_plays_in_that_game():
    rr = r.defaults()
    rr.update(first_player="rotate", strategy_seating="rotate")
    c = GAME.compile(rr, [{"strategy": "treasure_digger"}, {"strategy": "racer"}])
    lines = GAME.trace(c, 3, 5)  # game 5: entries swapped, seat 1 starts
    assert lines[0].startswith("Setup: seat 0 (racer)") and lines[1].startswith("Setup: seat 1 (treasure_digger)")
    assert "Setup: seat 1 (treasure_digger) goes first (rules.first_player: rotation)" in lines
