"""bench: the scenario it is given is the game it benchmarks (issue 20)."""

from click.testing import CliRunner

from pirate_sim.cli import main


def _invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def test_bench_refuses_a_scenario_of_another_game(tmp_path):
    p = tmp_path / "duel.toml"
    assert _invoke("scenario", "new", "dice_duel", p).exit_code == 0
    res = _invoke("bench", "pirates_peak", "--scenario", p, "--games", 1000, "--nojit-games", 10, "--json")
    assert res.exit_code == 2
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and "dice_duel scenario, not pirates_peak" in lines[0] and "duel.toml" in lines[0]


def test_bench_without_a_game_benchmarks_the_scenarios_own_game(tmp_path):
    p = tmp_path / "duel.toml"
    assert _invoke("scenario", "new", "dice_duel", p).exit_code == 0
    res = _invoke("bench", "--scenario", p, "--games", 2000, "--nojit-games", 10, "--json")
    assert res.exit_code == 0, res.output
    import json

    assert [b["game"] for b in json.loads(res.output)] == ["dice_duel"]


def test_bench_reports_the_search_players_cost_where_a_game_has_one():
    from types import SimpleNamespace

    from pirate_sim.bench import search_figures
    from pirate_sim.games.base import Game, Strategy
    from pirate_sim.games.pirates_peak import GAME

    c = GAME.compile({}, [{"strategy": "expert"}, {"strategy": "expert"}])
    f = search_figures(GAME, c, 3, n_decisions=20)
    assert f["search_rollouts_per_s"] > 0 and f["search_s_per_playout"] > 0 and f["search_decisions"] == 20
    assert f["search_overhead"] == f["search_s_per_rollout"] / f["search_s_per_playout"] - 1
    # a game without a search player, and one whose search player has no search_bench: skipped
    assert search_figures(SimpleNamespace(strategies=(Strategy("roller", 0, "rolls"),)), None, 1) == {}

    class NoBench(Game):
        strategies = (Strategy("search", 0, "searches"),)

    assert search_figures(NoBench(), None, 1) == {}


def test_bench_table_shows_a_dash_for_a_game_without_search():
    from pirate_sim.cli.bench import cell

    assert cell({}, "search_overhead", "{:.0%}") == "-"
    assert cell({"search_overhead": 0.12}, "search_overhead", "{:.0%}") == "12%"
    r = {"search_s_per_rollout": 3.1e-6, "search_s_per_playout": 2.7e-6}
    assert cell(r, "search_s_per_rollout", "{0:.2e} / {r[search_s_per_playout]:.2e}") == "3.10e-06 / 2.70e-06"
