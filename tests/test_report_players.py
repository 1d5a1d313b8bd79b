"""The generic "how strong are the players" page: who plays, how many games, the time guard.

On the toy game, where the answers are known: a sixer (6 every turn) against a roller in a
race to 6 wins whenever it moves first and 5/6... of the games otherwise; a `search` player
registered under that name (here: a stand-in playing like the roller) joins the page
without any change to the page's code, and its pairings are cut by the time guard.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import pytest

from pirate_sim import scenario
from pirate_sim.games import get_game
from pirate_sim.games.base import Strategy
from pirate_sim.report import players as P
from pirate_sim.report.checks import page_problems


@pytest.fixture
def game_with_search(monkeypatch):
    g = get_game("dice_duel")
    stand_in = Strategy(P.SEARCH, 0, "stand-in for a searching player (plays like the roller)")
    monkeypatch.setattr(type(g), "strategies", (*g.strategies, stand_in))
    return g


def rules(**extra):
    return dict(scenario.from_dict({"game": "dice_duel", "rules": extra}).rules)


def test_entries_are_the_scenario_strategies_then_search(game_with_search):
    seats = [{"strategy": "roller", "reroll_ones": True}, {"strategy": "roller", "reroll_ones": False}]
    ents = P.entries(game_with_search, seats)
    assert [e.label for e in ents] == ["roller (1)", "roller (2)", "sixer", "search"]
    assert [e.source for e in ents] == ["scenario", "scenario", "defaults", "search defaults"]


def test_no_search_entry_until_one_is_registered():
    assert [e.label for e in P.entries(get_game("dice_duel"), [{"strategy": "roller"}])] == ["roller", "sixer"]


def test_known_answer_and_games_played(game_with_search):
    # race to 6: a sixer wins on its first turn; moving second it wins unless the roller rolls a 6
    d = P.players_data(game_with_search, rules(target=6), [{"strategy": "roller"}], seed=1, n_scenario=2,
                       games=3000, search_games=5)
    p = next(p for p in d["table"] if {p.a, p.b} == {"roller", "sixer"})
    sixer = P.share(d["table"], "sixer", "roller", 2)
    assert p.games == 6000 and not p.cut
    assert sixer.lo <= (0.5 + 0.5 * 5 / 6) <= sixer.hi
    slow = [p for p in d["table"] if P.SEARCH in (p.a, p.b)]
    assert len(slow) == 3  # against the roller, the sixer and itself
    assert all(p.per_seating == 5 and p.games == (5 if p.a == p.b else 10) for p in slow)


def test_time_guard_cuts_search_pairings_and_says_so(game_with_search):
    ticks = iter(range(0, 10**6, 50))  # a clock where every reading is 50 s later

    d = P.players_data(game_with_search, rules(), [{"strategy": "roller"}], seed=1, n_scenario=2,
                       games=50, search_games=40, time_limit=60.0, clock=lambda: next(ticks))
    slow = [p for p in d["table"] if P.SEARCH in (p.a, p.b)]
    assert slow and all(p.cut and p.per_seating == P.PROBE_GAMES for p in slow)
    assert all(not p.cut for p in d["table"] if P.SEARCH not in (p.a, p.b))
    fig = P.draw_players(d)
    try:
        text = " ".join(t.get_text() for t in fig.texts)
        assert f"cut to {P.PROBE_GAMES} per seating by the 60 s guard" in text
        assert "40 per seating with search" in text
        assert not page_problems(fig)
    finally:
        plt.close(fig)


def test_three_seat_games_place_one_player_among_the_others():
    """Pirate's Cove needs three seats or more: the row sits alone among column players, every seat in turn."""
    g = get_game("pirates_cove")
    assert P.players_seat_count(g, 4) == 4 and P.players_seat_count(get_game("pirateer"), 4) == 2
