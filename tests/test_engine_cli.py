"""Every CLI command through click's CliRunner (on the engine's test game)."""

import json
from pathlib import Path

import click
from click.testing import CliRunner

from pirate_sim.cli import main

ROOT = Path(__file__).resolve().parents[1]


def _invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def _all_commands(group=main, prefix=()):
    for name, cmd in group.commands.items():
        path = prefix + (name,)
        yield path, cmd
        if isinstance(cmd, click.Group):
            yield from _all_commands(cmd, path)


def test_every_command_has_help_with_an_example_and_is_in_the_readme():
    readme = (ROOT / "README.md").read_text()
    for path, cmd in _all_commands():
        res = _invoke(*path, "--help")
        assert res.exit_code == 0, path
        if not isinstance(cmd, click.Group) or path == ("scenario",):
            assert "Example" in res.output, f"{' '.join(path)} --help has no example"
        assert f"pirate-sim {' '.join(path)}" in readme, f"README does not show `pirate-sim {' '.join(path)}`"


def test_scenario_new_then_check(tmp_path):
    p = tmp_path / "duel.toml"
    assert _invoke("scenario", "new", "dice_duel", p).exit_code == 0
    assert "target = 10" in p.read_text()
    res = _invoke("scenario", "check", p, "--set", "rules.target=12")
    assert res.exit_code == 0 and "default" in res.output
    row = next(line for line in res.output.splitlines() if "rules.target" in line)
    assert "12" in row and "10" in row  # the value and, labelled, the default it replaces
    again = _invoke("scenario", "new", "dice_duel", p)
    assert again.exit_code == 2 and "--force" in again.output


def test_bad_scenario_exits_2_and_creates_nothing(tmp_path, toy_scenario_file):
    out = tmp_path / "never"
    for bad in ("rules.targte=3", "rules.target=0", "rules.target=\"x\"", "seats.0.strategy=rollr"):
        res = _invoke("run", toy_scenario_file, "--set", bad, "-o", out)
        assert res.exit_code == 2, bad
        assert str(toy_scenario_file) in res.output and bad.split("=")[0] in res.output
        assert not out.exists()
    broken = tmp_path / "broken.toml"
    broken.write_text("game = [\n")
    res = _invoke("run", broken, "-o", out)
    assert res.exit_code == 2 and "malformed TOML" in res.output and not out.exists()


def test_run_report_and_no_silent_overwrite(tmp_path, toy_scenario_file):
    out = tmp_path / "r"
    res = _invoke("run", toy_scenario_file, "-n", 3000, "-o", out, "-q")
    assert res.exit_code == 0, res.output
    assert "win rate, seat 0" in res.output and "95% CI" in res.output
    assert (out / "summary.txt").exists() and (out / "summary.json").exists()
    res = _invoke("run", toy_scenario_file, "-n", 3000, "-o", out, "-q")
    assert res.exit_code == 2 and "--force" in res.output
    res = _invoke("report", out)
    assert res.exit_code == 0, res.output
    assert (out / "report" / "report.pdf").stat().st_size > 10_000
    assert len(list((out / "report").glob("*.png"))) >= 6
    assert _invoke("report", out).exit_code == 2  # report dir exists: needs --force


def test_run_precision(tmp_path, toy_scenario_file):
    res = _invoke("run", toy_scenario_file, "-n", 100_000, "--precision", "0.03", "-o", tmp_path / "p", "-q")
    assert res.exit_code == 0 and "reached after" in res.output


def test_trace_replays_the_runs_game(tmp_path, toy_scenario_file):
    import pandas as pd

    out = tmp_path / "r"
    _invoke("run", toy_scenario_file, "-n", 50, "-o", out, "-q")
    g = pd.read_parquet(out / "games").set_index("game")
    res = _invoke("trace", toy_scenario_file, "--game", 17)
    assert res.exit_code == 0
    assert f"after {g.loc[17, 'turns']} turns" in res.output


def test_games_odds_and_bench():
    res = _invoke("games")
    assert res.exit_code == 0 and "dice_duel" in res.output
    res = _invoke("odds", "dice_duel", "start", "--samples", 20000, "--json", "--set", "rules.first_player_cutoff=2")
    assert res.exit_code == 0
    row = json.loads(res.output)[0]
    assert abs(row["exact"] - 2 / 6) < 1e-12 and abs(row["z"]) < 4.5
    assert _invoke("odds", "dice_duel", "nope").exit_code == 2
    res = _invoke("bench", "dice_duel", "--games", 2000, "--nojit-games", 20, "--json")
    assert res.exit_code == 0, res.output
    b = json.loads(res.output)[0]
    assert b["games_per_s_1"] > 0 and b["dice_per_game"] > 1 and b["jit_speedup"] > 1
    assert b["run_games_per_s_1"] > 0 and 0 < b["run_ratio_all"] < 10


def test_bench_ratio_is_the_median_of_back_to_back_pairs(monkeypatch):
    """The machine slows down between pairs: bests taken apart would say 4/6, the pairs say 1/2."""
    from types import SimpleNamespace

    from pirate_sim import bench

    clock = [0.0]
    plays, runs = iter([1.0, 2.0, 4.0]), iter([2.0, 4.0, 6.0])  # ratios 1/2, 1/2, 2/3
    game = SimpleNamespace(play=lambda *a: clock.__setitem__(0, clock[0] + next(plays)))
    monkeypatch.setattr(bench.time, "perf_counter", lambda: clock[0])
    monkeypatch.setattr(bench, "run", lambda *a, **k: clock.__setitem__(0, clock[0] + next(runs)))
    monkeypatch.setattr(bench, "set_threads", lambda n: n)
    g, r, ratio = bench.paired_rates(SimpleNamespace(game=game, seed=1, run={"chunk_size": 100}), None, 100, 1)
    assert (g, r, ratio) == (100.0, 50.0, 0.5)


def test_bench_table_cells_show_a_dash_for_missing_figures():
    from pirate_sim.cli.bench import cell

    r = {"games_per_s_all": 12345.6, "threads": 4, "turns_per_game": 41.25, "ns_per_turn_1": float("nan")}
    assert cell(r, "games_per_s_all", "{0:,.0f} ({r[threads]} threads)") == "12,346 (4 threads)"
    assert cell(r, "turns_per_game", "{:.1f}") == "41.2"
    assert cell(r, "ns_per_turn_1", "{:,.0f}") == "-"  # not a number
    assert cell({}, "turns_per_game", "{:.1f}") == "-"  # an older result without it
    assert cell({"games_per_s_all": 1.0}, "games_per_s_all", "{0:,.0f} ({r[threads]} threads)") == "-"


def test_summary_says_in_one_line_which_events_never_happened(tmp_path):
    from pirate_sim import metrics
    from pirate_sim.stats import Estimate

    est = {"events.a": Estimate(0.0, 0.0, 0.0, 10, "t"), "events.b": Estimate(1.5, 1.2, 1.8, 10, "t"),
           "events.c": Estimate(0.0, 0.0, 0.01, 10, "t")}  # c: an interval above 0
    assert metrics.never_happened(est) == ["a"]
    res = _invoke("run", "scenarios/pirates_peak/default.toml", "-n", 500, "-o", tmp_path / "r", "-q")
    assert res.exit_code == 0, res.output
    assert "never happened in 500 games:" in res.output and "squid_sacrifices" in res.output
    assert "per game: squid_sacrifices" not in res.output
