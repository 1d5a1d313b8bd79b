"""The generic "how strong are the players" page: who plays, how many games, the cache.

On the toy game, where the answers are known: a sixer (6 every turn) against a roller in a
race to 6 wins whenever it moves first and 5/6... of the games otherwise; a `search` player
registered under that name (here: a stand-in playing like the roller) joins the page
without any change to the page's code, at a fixed small count of games that its cells mark.
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


def test_known_answer_and_games_played(game_with_search, cache):
    # race to 6: a sixer wins on its first turn; moving second it wins unless the roller rolls a 6
    d = P.players_data(game_with_search, rules(target=6), [{"strategy": "roller"}], seed=1, n_scenario=2,
                       games=3000, search_games=5)
    p = next(p for p in d["table"] if {p.a, p.b} == {"roller", "sixer"})
    sixer = P.share(d["table"], "sixer", "roller", 2)
    assert p.games == 6000
    assert sixer.lo <= (0.5 + 0.5 * 5 / 6) <= sixer.hi
    slow = [p for p in d["table"] if P.SEARCH in (p.a, p.b)]
    assert len(slow) == 3  # against the roller, the sixer and itself
    assert all(p.per_seating == 5 and p.games == (5 if p.a == p.b else 10) for p in slow)


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PIRATE_SIM_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_the_page_is_played_once_then_read_from_the_cache(game_with_search, cache):
    heard = []
    args = (game_with_search, rules(), [{"strategy": "roller"}])
    first = P.players_data(*args, seed=1, n_scenario=2, games=50, search_games=4, progress=heard.append)
    assert not first["cached"] and len(heard) == len(first["table"]) == 6  # one line per pairing, as it plays
    assert heard[0] == "players: roller vs roller, 50 games per seating (1 of 6)"
    assert [p.name for p in (cache / "players").iterdir()] and len(list((cache / "players").iterdir())) == 1
    again = []
    second = P.players_data(*args, seed=1, n_scenario=2, games=50, search_games=4, progress=again.append)
    assert second["cached"] and not again and second["table"] == first["table"]
    other = P.players_data(*args, seed=2, n_scenario=2, games=50, search_games=4)  # another key: played
    assert not other["cached"] and len(list((cache / "players").iterdir())) == 2
    fig = P.draw_players(second)
    try:
        assert "read from the cache" in " ".join(t.get_text() for t in fig.texts)
    finally:
        plt.close(fig)


def test_search_cells_play_a_fixed_count_hatched_with_n_and_interval(game_with_search, cache):
    d = P.players_data(game_with_search, rules(), [{"strategy": "roller"}], seed=1, n_scenario=2,
                       games=300, search_games=6)
    slow = [p for p in d["table"] if P.SEARCH in (p.a, p.b)]
    assert all(p.per_seating == 6 for p in slow)  # fixed, never cut by a clock: the cache holds one answer
    fig = P.draw_players(d)
    try:
        heat = fig.axes[0]
        hatched = [p for p in heat.patches if p.get_hatch()]
        assert len(hatched) == 5  # search against roller and sixer (both orders) and its mirror
        cells = [t.get_text() for t in heat.texts]
        assert sum("n=12" in t and "[" in t for t in cells) == 4 and sum("n=6" in t for t in cells) == 1
        assert not any("n=" in t for t in cells if "600" in t)  # 600-game cells: no mark
        assert "Hatched cells rest on fewer than 200 games" in " ".join(t.get_text() for t in fig.texts)
        assert not page_problems(fig)
    finally:
        plt.close(fig)


def test_three_seat_games_place_one_player_among_the_others():
    """Pirate's Cove needs three seats or more: the row sits alone among column players, every seat in turn."""
    g = get_game("pirates_cove")
    assert P.players_seat_count(g, 4) == 4 and P.players_seat_count(get_game("pirateer"), 4) == 2


def test_a_game_whose_search_is_too_slow_leaves_it_out_and_says_so(cache):
    """Pirateer's report module sets PLAYERS_SEARCH_GAMES = 0: no search cells, a line saying why."""
    g = get_game("pirateer")
    assert P.search_games_for(g) == 0 and P.search_games_for(get_game("pirates_peak")) == P.SEARCH_GAMES
    d = P.players_data(g, dict(scenario.from_dict({"game": "pirateer"}).rules), [{"strategy": "runner"}],
                       seed=1, n_scenario=2, games=10)
    assert d["search_left_out"] and P.SEARCH not in [e.label for e in d["entries"]]
    fig = P.draw_players(d)
    try:
        assert "'search' is left out of this page" in " ".join(t.get_text() for t in fig.texts)
        assert not page_problems(fig)
    finally:
        plt.close(fig)


def test_search_measured_on_these_rules_gets_no_cells_of_its_own(game_with_search, cache):
    # the report's measured table covers search at its defaults: no few-game cells, the footnote says where
    d = P.players_data(game_with_search, rules(), [{"strategy": "roller"}], seed=1, n_scenario=2, games=40,
                       search_games=4, search_measured=True)
    assert d["search_measured"] and [e.label for e in d["entries"]] == ["roller", "sixer"]
    assert all(P.SEARCH not in (p.a, p.b) for p in d["table"])
    fig = P.draw_players(d)
    try:
        assert "'how strong is search' page" in " ".join(t.get_text() for t in fig.texts)
    finally:
        plt.close(fig)
    # a scenario's own search seat (its settings, not the measured defaults) keeps its cells
    own = P.players_data(game_with_search, rules(), [{"strategy": "roller"}, {"strategy": P.SEARCH}], seed=1,
                         n_scenario=2, games=40, search_games=4, search_measured=True)
    assert not own["search_measured"] and any(P.SEARCH in (p.a, p.b) for p in own["table"])


@pytest.mark.parametrize("name", ["pirates_peak", "ice_pirates", "pirates_cove", "pirateer"])
def test_measured_search_table_applies_to_the_default_rules_only(name):
    from pirate_sim.report.strength import applies

    g = get_game(name)
    s = scenario.default_scenario(g)
    n = P.players_seat_count(g, len(s.seats))
    assert applies(g, s.rules, n)
    assert not applies(g, s.rules, n + 7)  # no table for that many seats
    changed = dict(s.rules)
    changed["turn_cap"] = int(changed.get("turn_cap", 100)) + 1
    assert not applies(g, changed, n)


def test_default_peak_report_page_plays_no_search(cache):
    # the real game and tables: the default scenario's page plays only the scripted pairings, so a
    # first report never compiles the search kernel for cells the next page measured with 2,000 games
    from pirate_sim.report.strength import applies

    g = get_game("pirates_peak")
    s = scenario.default_scenario(g)
    heard = []
    d = P.players_data(g, s.rules, s.seats, seed=3, n_scenario=2, quick=True, progress=heard.append,
                       search_measured=applies(g, s.rules, 2))
    assert d["search_measured"] and heard and not any(P.SEARCH in h for h in heard)


def test_a_learned_player_keeps_its_cells_against_search():
    # the measured search table has no learned player: its head-to-head with search stays on the page
    learned_seat = {"strategy": "learned", "weights": "w.npz", "weights_sha256": "ab" * 32, "base": "expert"}
    plain = [P.Entry("expert", {"strategy": "expert"}, "defaults"), P.Entry("search", {"strategy": "search"},
                                                                           "search defaults")]
    assert P.measured_elsewhere(plain)
    assert not P.measured_elsewhere(plain + [P.Entry("learned", learned_seat, "scenario")])
    assert not P.measured_elsewhere([plain[0], P.Entry("search", {"strategy": "search", "budget": 9}, "scenario")])
