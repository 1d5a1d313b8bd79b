"""`pirate-sim odds GAME` and `odds GAME --help` list the game's mechanics."""

from click.testing import CliRunner

from pirate_sim.cli import main
from pirate_sim.games.pirates_peak import GAME


def _invoke(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_odds_game_alone_lists_its_mechanics():
    res = _invoke("odds", "pirates_peak")
    assert res.exit_code == 0
    for m in GAME.odds_mechanics:
        assert m in res.output


def test_odds_game_help_lists_its_mechanics_only():
    res = _invoke("odds", "pirates_peak", "--help")
    assert res.exit_code == 0 and "Example" in res.output
    tail = res.output.split("Mechanics:")[1]
    assert all(f"pirates_peak {m}" in tail for m in GAME.odds_mechanics)
    assert "ice_pirates" not in tail


def test_odds_help_lists_every_games_mechanics():
    tail = _invoke("odds", "--help").output.split("Mechanics:")[1]
    assert "pirates_peak squid" in tail and "ice_pirates raid" in tail


def test_odds_unknown_mechanic_still_fails():
    res = _invoke("odds", "pirates_peak", "nope")
    assert res.exit_code == 2 and "one of squid" in res.output
