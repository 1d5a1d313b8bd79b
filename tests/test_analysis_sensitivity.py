"""sensitivity on the dice duel, whose parameters have effects known in closed form.

With ``start_die = 12`` seat 0 starts when the start roll is at most ``cutoff + bonus``, so
``win_rate.seat0 = (1 - q) + (2q - 1) (cutoff + bonus) / 12`` (q: the first mover's chance,
exact below).  Over cutoff uniform on 0..6 and bonus on 0..3 the metric is additive:
``S1 = ST = Var(cutoff) / (Var(cutoff) + Var(bonus))`` with Var(uniform on 0..k) =
((k+1)^2 - 1) / 12, i.e. 4 / 5.25 and 1.25 / 5.25; ``decor`` and ``banner`` are read by
nothing, so with common random numbers every game is the same and their indices are 0.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from pirate_sim.analysis import sensitivity as sa
from pirate_sim.analysis import space
from pirate_sim.analysis.sweep import GridError
from pirate_sim.cli import main
from pirate_sim.scenario import ScenarioError

DUEL = ('game = "dice_duel"\n[run]\ngames = 5000\nseed = 7\nchunk_size = 100000\n'
        '[rules]\ntarget = 10\nstart_die = 12\n[[seats]]\nstrategy = "roller"\n[[seats]]\nstrategy = "roller"\n')
VAR_CUTOFF, VAR_BONUS = (7**2 - 1) / 12, (4**2 - 1) / 12  # discrete uniform on 0..6 and 0..3
S_CUTOFF, S_BONUS = VAR_CUTOFF / (VAR_CUTOFF + VAR_BONUS), VAR_BONUS / (VAR_CUTOFF + VAR_BONUS)


def first_mover_chance(target: int) -> float:
    """Exact chance that the seat moving first reaches ``target`` first (two seats, one d6 a turn)."""

    @lru_cache(None)
    def win(need_mover: int, need_other: int) -> float:
        return sum(1 / 6 if f >= need_mover else (1 - win(need_other, need_mover - f)) / 6 for f in range(1, 7))

    return win(target, target)


@pytest.fixture
def duel(tmp_path):
    path = tmp_path / "duel.toml"
    path.write_text(DUEL)
    return str(path)


def _run(duel, varies, method, points, games, out, metrics=("win_rate.seat0",), **kw):
    base, factors = space.parse_factors(varies, duel, [])
    return sa.sensitivity(base, duel, [], factors, list(metrics), method, points, games, out, threads=1, **kw)


def test_first_mover_chance_by_hand():
    assert first_mover_chance(1) == pytest.approx(1.0)
    assert first_mover_chance(2) == pytest.approx(5 / 6 + 1 / 6 * 1 / 6)  # a 1, then the other rolls 1 as well


def test_factor_parsing(duel):
    base, fs = space.parse_factors(["rules.first_player_cutoff=0:6", "rules.decor=0.2:0.8",
                                    'rules.banner=plain=["x"];duo=["y","z"]', "seats.0.reroll_ones=false,true"],
                                   duel, [])
    cut, decor, banner, reroll = fs
    assert (cut.kind, cut.levels, cut.value(0.0), cut.value(0.999), cut.value(1.0)) == ("int", 7, 0, 6, 6)
    assert [cut.value(u) for u in (0, 1 / 3, 2 / 3, 1)] == [0, 2, 4, 6]  # Morris' four levels
    assert decor.kind == "float" and decor.value(0.5) == pytest.approx(0.5)
    assert banner.labels == ["plain", "duo"] and banner.value(0.7) == ["y", "z"]
    assert reroll.values == [False, True] and reroll.label(True) == "true"


@pytest.mark.parametrize("vary, needle", [
    ("rules.targt=1:5", "did you mean 'rules.target'"),
    ("rules.target=0:5", "below the minimum"),
    ("rules.first_player_cutoff=2:61", "above the maximum"),
    ("rules.target=5:5", "must be above its start"),
    ("rules.target=1.5:4", "whole-number ends"),
    ("rules.banner=0:1", "str_list parameter"),
    ("rules.banner=[\"x\"]", "at least two values"),
    ("run.games=1:2", "options of the command"),
    ("seats.4.reroll_ones=true,false", "no seat 4"),
])
def test_bad_factors(duel, vary, needle):
    with pytest.raises((GridError, ScenarioError), match=needle):
        space.parse_factors([vary], duel, [])


def test_morris_ranks_dominant_first_and_no_effect_is_zero(duel, tmp_path):
    games = 20_000
    res = _run(duel, ["rules.decor=0:1", "rules.first_player_bonus=0:3", "rules.first_player_cutoff=0:6",
                      'rules.banner=a=["x"];b=["y","z"]'], "morris", 8, games, tmp_path / "m",
               metrics=("win_rate.seat0", "length.mean"))
    idx = res.indices.set_index(["metric", "parameter"])
    w = idx.loc["win_rate.seat0"]
    assert list(w.sort_values("rank").index[:2]) == ["rules.first_player_cutoff", "rules.first_player_bonus"]
    assert w.loc["rules.decor", "mu_star"] == 0 and w.loc["rules.banner", "mu_star"] == 0  # the very same games
    slope = 2 * first_mover_chance(10) - 1  # change of win_rate.seat0 per unit of cutoff + bonus, times 12
    # A Morris step moves the cutoff 4 of 12 faces (Delta u = 2/3): the games whose start roll lies in
    # between change by d in {-1, 0, 1}; SE(EE) <= 1.5 sqrt(n/3) / n.  Tolerance: 4 SE.
    tol = 4 * 1.5 * math.sqrt(games / 3) / games
    assert w.loc["rules.first_player_cutoff", "mu_star"] == pytest.approx(slope * 6 / 12, abs=tol)
    assert w.loc["rules.first_player_bonus", "mu_star"] == pytest.approx(slope * 3 / 12, abs=tol)
    # who starts does not change how long the race lasts: the same dice, whoever rolls them
    noise = res.noise.set_index("metric")
    assert bool(noise.loc["length.mean", "constant"]) and not bool(noise.loc["win_rate.seat0", "noise_dominates"])
    out = tmp_path / "m"
    for name in ("summary.txt", "design.parquet", "point_metrics.parquet", "indices.parquet", "sensitivity.pdf",
                 "morris_win_rate.seat0.png", "surface_win_rate.seat0.png", "noise.png"):
        assert (out / name).stat().st_size > 0, name
    design = pd.read_parquet(out / "design.parquet")
    assert len(design) == 8 * 5 and set(design["rules.banner"]) <= {"a", "b"}
    per = pd.read_parquet(out / "point_metrics.parquet")
    assert {"row", "config", "metric", "value", "lo", "hi", "rules.first_player_cutoff"} <= set(per.columns)
    assert "noise share" in (out / "summary.txt").read_text()


def test_sobol_matches_closed_form_within_ci(duel, tmp_path):
    res = _run(duel, ["rules.first_player_cutoff=0:6", "rules.first_player_bonus=0:3",
                      'rules.banner=a=["x"];b=["y","z"]'], "sobol", 64, 20_000, tmp_path / "s")
    idx = res.indices.set_index("parameter")
    for key, exact in (("rules.first_player_cutoff", S_CUTOFF), ("rules.first_player_bonus", S_BONUS)):
        r = idx.loc[key]
        assert abs(r["S1"] - exact) <= r["S1_conf"], (key, r["S1"], r["S1_conf"], exact)
        assert abs(r["ST"] - exact) <= r["ST_conf"], (key, r["ST"], r["ST_conf"], exact)
    assert idx.loc["rules.banner", "S1"] == pytest.approx(0, abs=1e-12)
    assert idx.loc["rules.banner", "ST"] == pytest.approx(0, abs=1e-12)
    assert idx.loc["rules.first_player_cutoff", "rank"] == 1
    # discrete factors repeat: 64 x 5 design rows, at most 7 x 4 x 2 configurations played
    assert res.design.rows == 64 * 5 and len(res.played) <= 56
    assert (tmp_path / "s" / "sobol_win_rate.seat0.png").exists()


@pytest.mark.slow
def test_sobol_closed_form_large(duel, tmp_path):
    """A bigger design with a continuous no-effect parameter: tighter intervals, same closed form."""
    res = _run(duel, ["rules.first_player_cutoff=0:6", "rules.first_player_bonus=0:3", "rules.decor=0:1"],
               "sobol", 256, 20_000, tmp_path / "s")
    idx = res.indices.set_index("parameter")
    for key, exact in (("rules.first_player_cutoff", S_CUTOFF), ("rules.first_player_bonus", S_BONUS)):
        assert abs(idx.loc[key, "S1"] - exact) <= idx.loc[key, "S1_conf"]
        assert abs(idx.loc[key, "ST"] - exact) <= idx.loc[key, "ST_conf"]
    assert idx.loc["rules.decor", "ST"] == pytest.approx(0, abs=1e-12)


def test_noise_dominates_warning(duel, tmp_path):
    """A weak effect on few games: the noise share flags the metric."""
    res = _run(duel, ["rules.first_player_cutoff=3:4", "rules.decor=0:1"], "morris", 4, 50, tmp_path / "n")
    assert bool(res.noise.set_index("metric").loc["win_rate.seat0", "noise_dominates"])
    assert "NOISE DOMINATES" in (tmp_path / "n" / "summary.txt").read_text()


def test_resume_reuses_points_and_refuses_other_designs(duel, tmp_path):
    varies = ["rules.first_player_cutoff=0:6", "rules.first_player_bonus=0:3"]
    out = tmp_path / "r"
    full = _run(duel, varies, "morris", 4, 2000, out)
    ref = full.indices
    stored = sorted((out / "points").glob("*.parquet"))
    stored[-1].unlink()  # as if interrupted before the last point
    (out / "summary.txt").unlink()
    with pytest.raises(sa.SensitivityError, match="--resume"):
        _run(duel, varies, "morris", 4, 2000, out)
    again = _run(duel, varies, "morris", 4, 2000, out, resume=True)
    assert len(again.played) == 1 and len(again.skipped) == len(stored) - 1
    pd.testing.assert_frame_equal(again.indices, ref)
    with pytest.raises(sa.SensitivityError, match="other parameters"):
        _run(duel, varies, "morris", 5, 2000, out, resume=True)


def test_cli_sensitivity(duel, tmp_path):
    out = tmp_path / "cli"
    args = ["sensitivity", duel, "--vary", "rules.first_player_cutoff=0:6", "--vary", "rules.decor=0:1",
            "--metric", "win_rate.seat0", "-p", "3", "-n", "500", "-t", "1", "-o", str(out), "-q"]
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 0, r.output
    assert "rules.first_player_cutoff" in r.output and "mu*" in r.output
    state = json.loads((out / "sensitivity.json").read_text())
    assert state["complete"] and state["design_rows"] == 9
    r2 = CliRunner().invoke(main, args)
    assert r2.exit_code == 2 and "--resume" in r2.output
    r3 = CliRunner().invoke(main, args + ["--resume"])
    assert r3.exit_code == 0 and "stored points reused" in r3.output


@pytest.mark.parametrize("extra, needle", [
    (["--vary", "rules.targt=1:5"], "did you mean 'rules.target'"),
    (["--vary", "rules.target=0:5"], "below the minimum"),
    (["--vary", "rules.target=5:9", "--metric", "win_rate.seat9"], "unknown metric 'win_rate.seat9'"),
    (["--vary", "rules.target=5:9", "--metric", "length.mean", "--set", "rules.turn_cap=0"], "below the minimum"),
])
def test_cli_sensitivity_bad_input(duel, tmp_path, extra, needle):
    r = CliRunner().invoke(main, ["sensitivity", duel, *extra, "-n", "100", "-o", str(tmp_path / "x"), "-q"])
    assert r.exit_code == 2, r.output
    assert needle in r.output and len(r.output.strip().splitlines()) == 1
    assert not (tmp_path / "x").exists()


def test_point_evaluation_is_common_random_numbers(duel):
    """A point is game 0..n-1 of (seed, k) whatever its values; an extension continues the same streams."""
    spec = space.PointSpec(duel, ("rules.decor=0.9",), 11, 3000)
    a = space.evaluate_point(spec, threads=1)
    b = space.evaluate_point(space.PointSpec(duel, ("rules.decor=0.1",), 11, 3000), threads=1)
    assert a.to_json() == b.to_json()
    head = space.evaluate_point(space.PointSpec(duel, (), 11, 1000), threads=1)
    tail = space.evaluate_point(space.PointSpec(duel, (), 11, 2000, first_game=1000), threads=1)
    head.merge(tail)
    assert head.to_json() == space.evaluate_point(space.PointSpec(duel, (), 11, 3000), threads=1).to_json()


def test_real_game_with_a_named_list_parameter(tmp_path):
    """Through the plug-in contract on Ice Pirates: wind weights vary as a named set of lists."""
    root = Path(__file__).parent.parent
    r = CliRunner().invoke(main, ["sensitivity", str(root / "scenarios/ice_pirates/default.toml"),
                                  "--vary", "rules.wind.weights=flat=[1,1,1,1,1,1];west=[3,1,1,1,1,1]",
                                  "--vary", "rules.raid.ties_to=raider,defender", "--metric", "length.mean",
                                  "-p", "2", "-n", "200", "-t", "1", "-q", "-o", str(tmp_path / "ice")])
    assert r.exit_code == 0, r.output
    design = pd.read_parquet(tmp_path / "ice" / "design.parquet")
    assert set(design["rules.wind.weights"]) <= {"flat", "west"}


def test_docs_cover_both_commands():
    text = (Path(__file__).parent.parent / "docs/sensitivity.md").read_text()
    for needle in ("pirate-sim sensitivity", "pirate-sim tune", "common random numbers", "best.toml", "--resume",
                   "Pareto", "noise"):
        assert needle in text, needle


def test_undefined_metric_gets_no_indices(duel, tmp_path):
    """With one turn and a far target nobody wins: the first-player rate among decided games is undefined."""
    base, factors = space.parse_factors(["rules.target=50:60", "rules.decor=0:1"], duel, ["rules.turn_cap=1"])
    res = sa.sensitivity(base, duel, ["rules.turn_cap=1"], factors, ["first_player_win_rate", "win_rate.seat0"],
                         "morris", 2, 100, tmp_path / "u", threads=1)
    idx = res.indices.set_index("metric")
    assert bool(idx.loc["first_player_win_rate", "undefined"].all())
    assert bool(idx.loc["win_rate.seat0", "constant"].all())
    assert "undefined at some design points" in (tmp_path / "u" / "summary.txt").read_text()


def test_a_directory_in_use_is_refused_and_force_keeps_the_lock(duel, tmp_path):
    from pirate_sim import results

    varies = ["rules.first_player_cutoff=0:6"]
    out = tmp_path / "r"
    with results.lock_dir(out):  # another command writing there
        with pytest.raises(results.ResultsError, match="in use by another"):
            _run(duel, varies, "morris", 2, 500, out)
    _run(duel, varies, "morris", 2, 500, out)
    _run(duel, varies, "morris", 2, 500, out, force=True)  # replaced, lock file kept
    assert (out / results.LOCK).exists() and (out / "summary.txt").exists()
