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
