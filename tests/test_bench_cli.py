"""bench: the scenario it is given is the game it benchmarks (issue 20)."""

import pytest
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


def _bench_json(game, tmp_path):
    """`pirate-sim bench GAME --json > FILE` in a real subprocess, as a user runs it."""
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    out = tmp_path / f"{game}.json"
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    with out.open("w") as fh:
        res = subprocess.run([sys.executable, "-c", "from pirate_sim.cli import main; main()", "bench", game, "-n", "1000", "--nojit-games",
                              "10", "--search-decisions", "20", "--json"], stdout=fh, stderr=subprocess.PIPE, text=True, env=env)
    assert res.returncode == 0, res.stderr[-2000:]
    (b,) = json.loads(out.read_text())
    assert b["game"] == game and b["games_per_s_1"] > 0 and b["games_per_s_nojit"] > 0
    assert b["search_decisions"] == 20  # --search-decisions reaches the search bench (every game here has one)
    return b


def test_bench_measures_search_on_a_scenario_without_a_search_seat(tmp_path):
    # Ice Pirates' default scenario seats no search player: the bench ended in a traceback, --json wrote nothing
    b = _bench_json("ice_pirates", tmp_path)
    assert b["search_rollouts_per_s"] > 0 and b["search_seat"].startswith("seats.0 set to search at its defaults")


@pytest.mark.slow
@pytest.mark.parametrize("game", ["pirates_peak", "ice_pirates", "pirates_cove", "pirateer"])
def test_bench_runs_on_every_games_default_scenario(game, tmp_path):
    b = _bench_json(game, tmp_path)
    assert b["search_rollouts_per_s"] > 0 and b["search_seat"]
