"""The "how strong are the players" report page: its pairing table adds up."""

import pytest

from pirate_sim import report, runner, scenario
from pirate_sim.games.pirates_peak import GAME
from pirate_sim.games.pirates_peak import report as PR
from pirate_sim.games.pirates_peak.pairings import share


@pytest.fixture(scope="module")
def data():
    return PR.players_data(GAME, {}, games=300)


def test_every_pairing_is_played_once(data):
    names = data["names"]
    assert names == [s.name for s in GAME.strategies] and "expert" in names
    assert len(data["table"]) == len(names) * (len(names) + 1) // 2
    from pirate_sim.games.pirates_peak.pairings import SEARCH_PAIRING_GAMES

    for p in data["table"]:  # a search pairing plays fewer games, and says so
        n = 2 * (min(300, SEARCH_PAIRING_GAMES) if "search" in (p.a, p.b) else 300)
        assert p.games == n and p.wins_a + p.wins_b + p.ties == n


def test_shares_are_complementary_and_mirrors_are_even(data):
    for r in data["names"]:
        for c in data["names"]:
            assert share(data["table"], r, c).value + share(data["table"], c, r).value == pytest.approx(1)
        # both seatings of a mirror replay the same games: each game gives 1 point in all
        assert share(data["table"], r, r).value == pytest.approx(0.5)


def test_first_player_rate_is_over_decided_games(data):
    for p in data["table"]:
        assert p.first_wins.n == p.wins_a + p.wins_b
        assert p.first_wins.lo <= p.first_wins.value <= p.first_wins.hi


def test_report_has_the_players_page(tmp_path):
    out = tmp_path / "run"
    s = scenario.load("scenarios/pirates_peak/default.toml", ["run.games=400", "run.chunk_size=400"])
    runner.run(s, out)
    _pdf, pngs = report.build_report(out, out / "report")
    png = out / "report" / "10_pirates_peak_players.png"
    assert png in pngs or png.name in {p.name for p in pngs}
    assert png.stat().st_size > 30_000
