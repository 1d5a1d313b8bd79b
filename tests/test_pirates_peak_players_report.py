"""The "how strong are the players" page on Pirate's Peak: the scenario's settings, an honest axis.

The page is generic (pirate_sim/report/players.py); Pirate's Peak is where it began, so its
pairing table's properties are checked here on the real game: complementary shares, every
pairing played the stated number of games, the scenario's strategy settings rather than the
defaults, and a first-player axis that spans the rates rather than starting at 0.
"""

import matplotlib.pyplot as plt
import pytest

from pirate_sim import report, runner, scenario
from pirate_sim.games.pirates_peak import GAME
from pirate_sim.report import players as P

GAMES = 150
# a digger that never sacrifices crew and calls 6 in the fog: not the strategy's defaults
SEATS = [{"strategy": "treasure_digger", "sacrifice_crew": False, "fog_guess": 6}, {"strategy": "racer"}]


@pytest.fixture(scope="module")
def data():
    s = scenario.from_dict({"game": "pirates_peak", "seats": SEATS})
    return P.players_data(GAME, s.rules, list(s.seats), seed=5, n_scenario=2, games=GAMES, cache=False)


def test_the_scenario_settings_are_played_not_the_defaults(data):
    by = {e.label: e for e in data["entries"]}
    assert set(by) == {s.name for s in GAME.strategies}
    assert by["treasure_digger"].source == "scenario"
    assert by["treasure_digger"].seat["sacrifice_crew"] is False and by["treasure_digger"].seat["fog_guess"] == 6
    assert by["expert"].source == "defaults" and by["expert"].seat == {"strategy": "expert"}
    assert by["search"].source == "search defaults"  # registered: on the page without being asked for


def test_every_pairing_is_played_the_stated_games(data):
    names = [e.label for e in data["entries"]]
    assert len(data["table"]) == len(names) * (len(names) + 1) // 2
    for p in data["table"]:
        per = data["search_games"] if "search" in (p.a, p.b) else GAMES  # search pairings play fewer, and say so
        assert p.per_seating == per
        assert p.games == (p.per_seating if p.a == p.b else 2 * p.per_seating)
        assert p.first_wins.lo <= p.first_wins.value <= p.first_wins.hi


def test_shares_are_complementary(data):
    names = [e.label for e in data["entries"]]
    for r in names:
        for c in names:
            if r != c:
                assert P.share(data["table"], r, c, 2).value + P.share(data["table"], c, r, 2).value == pytest.approx(1)


def test_a_scenario_setting_changes_the_result():
    """The digger's settings reach the kernel: its share against the racer moves with them."""
    plain = scenario.from_dict({"game": "pirates_peak", "seats": [{"strategy": "treasure_digger"},
                                                                 {"strategy": "racer"}]})
    odd = scenario.from_dict({"game": "pirates_peak", "seats": SEATS})
    a = P.entries(GAME, list(plain.seats))
    b = P.entries(GAME, list(odd.seats))
    dig_a = next(e for e in a if e.label == "treasure_digger")
    dig_b = next(e for e in b if e.label == "treasure_digger")
    racer = next(e for e in a if e.label == "racer")
    s1 = P._play_pairing(GAME, plain.rules, dig_a, racer, 2, 400, 5)[0].mean()
    s2 = P._play_pairing(GAME, odd.rules, dig_b, racer, 2, 400, 5)[0].mean()
    assert s1 != s2


def test_first_player_axis_spans_the_rates_not_zero(data):
    fig = P.draw_players(data)
    try:
        ax = fig.axes[1]
        lo, hi = ax.get_xlim()
        rates = [100 * p.first_wins.lo for p in data["table"]]
        # from just below the lowest interval (0 only where a search pairing's few games reach it)
        assert lo <= min(rates) and lo >= min(rates) - 0.25 * (hi - lo)
        assert tuple(fig.get_size_inches()) == report.PAGE
    finally:
        plt.close(fig)


def test_report_has_the_players_page(tmp_path):
    out = tmp_path / "run"
    s = scenario.load("scenarios/pirates_peak/default.toml", ["run.games=400", "run.chunk_size=400"])
    runner.run(s, out)
    _pdf, pngs = report.build_report(out, out / "report", quick=True)
    assert "08_players_strength" in {p.stem for p in pngs}
    assert "10_pirates_peak_players" not in {p.stem for p in pngs}  # one page, the generic one
