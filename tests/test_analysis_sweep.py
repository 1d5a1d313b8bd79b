"""sweep: grid syntax, equality with separate runs, resume, no overwriting, CLI and bad input."""

from __future__ import annotations

import json
import shutil

import pandas as pd
import pytest
from click.testing import CliRunner

from pirate_sim import metrics, results, runner, scenario
from pirate_sim.analysis import sweep as sw
from pirate_sim.cli import main


@pytest.mark.parametrize("text, key, values", [
    ("rules.target=8,10,12", "rules.target", [8, 10, 12]),
    ("rules.target=8:12:2", "rules.target", [8, 10, 12]),
    ("rules.target=8:10", "rules.target", [8, 9, 10]),
    ("rules.p=0.1:0.3:0.1", "rules.p", [0.1, 0.2, 0.3]),
    ("rules.w=[1,1,1,1,1,1],[3,1,1,1,1,1]", "rules.w", [[1, 1, 1, 1, 1, 1], [3, 1, 1, 1, 1, 1]]),
    ("rules.w=[1,1,1,1,1,1];[3,1,1,1,1,1]", "rules.w", [[1, 1, 1, 1, 1, 1], [3, 1, 1, 1, 1, 1]]),
    ("seats.1.strategy=roller,\"x,y\"", "seats.1.strategy", ["roller", "x,y"]),
    ("rules.flag=true,false", "rules.flag", [True, False]),
])
def test_parse_vary(text, key, values):
    assert sw.parse_vary(text) == (key, values)


@pytest.mark.parametrize("text, needle", [
    ("rules.target", "expected KEY=v1,v2"),
    ("rules.target=", "no values"),
    ("rules.target=1:5:0", "step must be positive"),
    ("rules.target=5:1", "below its start"),
    ("rules.target=1,,2", "empty value"),
    ("rules.w=[1,2", "unbalanced"),
    ("rules.target=1,1", "listed twice"),
    ("run.games=1,2", "sweep options"),
])
def test_parse_vary_errors(text, needle):
    with pytest.raises(sw.GridError, match=needle):
        sw.parse_vary(text)


def _point_metrics(acc):
    return {k: (e.value, e.lo, e.hi, e.n) for k, e in metrics.compute(acc).items()}


def test_sweep_equals_separate_runs(toy_scenario_file, tmp_path):
    axes = [sw.parse_vary("rules.target=8,12"), sw.parse_vary("rules.first_player_cutoff=2:4:2")]
    points = sw.build_grid(toy_scenario_file, [], axes, seed=99, games=3000)
    res = sw.sweep(points, axes, tmp_path / "sw", chart_metrics=["length.mean"])
    assert [p.id for p in points] == ["p000", "p001", "p002", "p003"]
    for p in points:
        s = scenario.load(toy_scenario_file, [f"rules.target={p.values['rules.target']}",
                                              f"rules.first_player_cutoff={p.values['rules.first_player_cutoff']}",
                                              "run.seed=99", "run.games=3000"])
        sep = runner.run(s, tmp_path / f"sep-{p.id}")
        assert _point_metrics(res.accumulators[p.id]) == _point_metrics(sep.accumulator)
        # each point is a normal results directory with identical games
        pdir = tmp_path / "sw" / "points" / p.id
        assert results.read_manifest(pdir)["scenario_hash"] == s.hash()
        assert results.read_games(pdir).equals(results.read_games(tmp_path / f"sep-{p.id}"))
    tidy = pd.read_parquet(tmp_path / "sw" / "sweep.parquet")
    assert {"point", "rules.target", "rules.first_player_cutoff", "metric", "value", "lo", "hi", "n"} <= set(tidy.columns)
    assert len(tidy) == 4 * len(metrics.compute(res.accumulators["p000"]))
    per = pd.read_parquet(tmp_path / "sw" / "metrics" / "p002.parquet")
    assert set(per["point"]) == {"p002"}
    assert (tmp_path / "sw" / "sweep.pdf").stat().st_size > 0
    assert any(f.name.startswith("heatmap_") for f in res.files)
    assert any(f.name == "sweep_length.mean.png" for f in res.files)


def test_sweep_resume_skips_finished_and_resumes_unfinished(toy_scenario_file, tmp_path):
    axes = [sw.parse_vary("rules.target=8,10,12")]
    points = sw.build_grid(toy_scenario_file, [], axes, games=4000)
    out = tmp_path / "sw"
    full = sw.sweep(points, axes, out, chart_metrics=["length.mean"])
    ref = {k: _point_metrics(a) for k, a in full.accumulators.items()}
    # simulate an interruption: p001 half done, p002 never started
    shutil.rmtree(out / "points" / "p002")
    man = results.read_manifest(out / "points" / "p001")
    man.update(chunks_done=2, complete=False)
    results.atomic_write_json(out / "points" / "p001" / "manifest.json", man)
    (out / "sweep.parquet").unlink()
    with pytest.raises(sw.SweepError, match="--resume"):
        sw.sweep(points, axes, out)
    res = sw.sweep(points, axes, out, resume=True, chart_metrics=["length.mean"])
    assert res.skipped == ["p000"] and res.resumed == ["p001"]
    assert {k: _point_metrics(a) for k, a in res.accumulators.items()} == ref
    assert (out / "sweep.parquet").exists()
    # a different grid cannot be resumed into the same directory
    other = [sw.parse_vary("rules.target=8,9")]
    with pytest.raises(sw.SweepError, match="different grid"):
        sw.sweep(sw.build_grid(toy_scenario_file, [], other, games=4000), other, out, resume=True)


def test_cli_sweep(toy_scenario_file, tmp_path):
    out = tmp_path / "grid"
    args = ["sweep", str(toy_scenario_file), "--vary", "rules.target=8:12:4", "--vary", "rules.first_player_cutoff=1,5",
            "-n", "2000", "-o", str(out), "-q", "--metrics", "win_rate.seat0", "--metrics", "length.mean"]
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 0, r.output
    assert "p003" in r.output
    state = json.loads((out / "sweep.json").read_text())
    assert state["complete"] and len(state["points"]) == 4
    assert (out / "heatmap_win_rate.seat0.png").exists() and (out / "sweep_length.mean.png").exists()
    r2 = CliRunner().invoke(main, args)
    assert r2.exit_code == 2 and "--resume" in r2.output
    r3 = CliRunner().invoke(main, args + ["--resume"])
    assert r3.exit_code == 0 and "4 finished points skipped" in r3.output


@pytest.mark.parametrize("vary, needle", [
    ("rules.targt=8,10", "did you mean 'rules.target'"),
    ("rules.target=8:12:-1", "step must be positive"),
    ("rules.target=0,5", "below the minimum"),
    ("rules.target", "expected KEY=v1,v2"),
])
def test_cli_sweep_bad_input(toy_scenario_file, tmp_path, vary, needle):
    r = CliRunner().invoke(main, ["sweep", str(toy_scenario_file), "--vary", vary, "-n", "100",
                                  "-o", str(tmp_path / "x"), "-q"])
    assert r.exit_code == 2, r.output
    assert needle in r.output and len(r.output.strip().splitlines()) == 1
    assert not (tmp_path / "x").exists()


def test_cli_sweep_unknown_metric(toy_scenario_file, tmp_path):
    r = CliRunner().invoke(main, ["sweep", str(toy_scenario_file), "--vary", "rules.target=8,9", "-n", "100",
                                  "-o", str(tmp_path / "x"), "-q", "--metrics", "seat_balanse"])
    assert r.exit_code == 2 and "did you mean 'seat_balance'" in r.output


def test_sweep_help_has_example():
    r = CliRunner().invoke(main, ["sweep", "--help"])
    assert r.exit_code == 0 and "Example:" in r.output


def test_sweep_over_lists_of_strings_charts_and_resumes(toy_scenario_file, tmp_path):
    """A list-of-strings axis (rules.peak.treasures, rules.deck.cards, rules.map.ports in the
    games): the tidy table holds each value as TOML text, and the charts find it there
    (they looked up Python's ['a', 'b'] and raised KeyError after every point was played)."""
    axes = [sw.parse_vary('rules.banner=["skull", "bones"];["red"]'), sw.parse_vary("rules.target=8,10")]
    points = sw.build_grid(toy_scenario_file, [], axes, games=1000)
    out = tmp_path / "sw"
    res = sw.sweep(points, axes, out, chart_metrics=["length.mean"])
    assert set(res.tidy["rules.banner"]) == {'["skull", "bones"]', '["red"]'}
    assert (out / "sweep_length.mean.png").exists() and (out / "heatmap_length.mean.png").exists()
    (out / "sweep.parquet").unlink()
    state = json.loads((out / "sweep.json").read_text())
    state["complete"] = False
    (out / "sweep.json").write_text(json.dumps(state))
    again = sw.sweep(points, axes, out, resume=True, chart_metrics=["length.mean"])
    assert again.skipped == [p.id for p in points]


def test_the_sweeps_progress_bar_ends_at_100_percent(tmp_path):
    # before: tqdm drops an update within mininterval of the last shown, so the bar's last state was 99%
    # (here, with tqdm's interval raised past the whole sweep, 0%) while the charts were drawn
    import os
    import subprocess
    import sys
    from pathlib import Path

    tests = Path(__file__).resolve().parent
    s = tmp_path / "duel.toml"
    s.write_text('game = "dice_duel"\n[run]\ngames = 3000\nseed = 7\nchunk_size = 1000\n[rules]\ntarget = 10\n'
                 '[[seats]]\nstrategy = "roller"\n[[seats]]\nstrategy = "roller"\n')
    code = ("from pirate_sim.games import GAME_MODULES; GAME_MODULES.setdefault('dice_duel', 'toy_game'); "
            "import sys, pirate_sim as ps; "
            "ps.sweep(ps.load(sys.argv[1]), {'rules.target': [9, 10]}, out=sys.argv[2])")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tests.parent), str(tests)]), TQDM_MININTERVAL="1000")
    r = subprocess.run([sys.executable, "-c", code, str(s), str(tmp_path / "sw")], capture_output=True, text=True,
                       env=env)
    assert r.returncode == 0, r.stderr[-2000:]
    states = [x for x in r.stderr.replace("\r", "\n").splitlines() if "games" in x and "%" in x]
    assert states and "100%" in states[-1] and "6000/6000" in states[-1], states[-3:]
