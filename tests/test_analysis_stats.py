"""The intervals are right: ~95% coverage on known Bernoulli/mean, paired differences, and
through the real pipeline on the toy game whose answers are exactly known."""

from __future__ import annotations

import numpy as np
import pytest

from pirate_sim import metrics, runner, scenario, stats
from pirate_sim.analysis.compare import PairedMoments

REPS = 2000


def _covers(e, truth):
    return e.lo <= truth <= e.hi


def test_wilson_coverage_known_bernoulli():
    rng = np.random.default_rng(1)
    p, n = 0.3, 400
    k = rng.binomial(n, p, size=REPS)
    cov = np.mean([_covers(stats.wilson(x, n), p) for x in k])
    assert 0.93 <= cov <= 0.97, cov


def test_wilson_coverage_small_p():
    rng = np.random.default_rng(2)
    p, n = 0.02, 500
    k = rng.binomial(n, p, size=REPS)
    cov = np.mean([_covers(stats.wilson(x, n), p) for x in k])
    assert 0.93 <= cov <= 0.97, cov


def test_mean_ci_coverage_known_mean():
    rng = np.random.default_rng(3)
    n, mean = 300, 4.0
    x = rng.exponential(mean, size=(REPS, n))  # skewed, like game lengths
    cov = np.mean([_covers(stats.mean_ci(r.sum(), (r**2).sum(), n), mean) for r in x])
    assert 0.93 <= cov <= 0.97, cov


def test_paired_difference_coverage():
    """Correlated Bernoulli pairs with a known difference: the paired interval covers ~95%."""
    rng = np.random.default_rng(4)
    n, pa, pb = 2000, 0.5, 0.45  # ~100 discordant pairs: the delta method needs a few dozen
    hits, ratio = 0, []
    for _ in range(REPS):
        u = rng.random(n)  # common random numbers: both variants read the same u
        xa, xb = (u < pa).astype(float), (u < pb).astype(float)
        pm = PairedMoments(["m"])
        pm.update({"m": (xa, None, 0.0)}, {"m": (xb, None, 0.0)})
        paired, indep = pm.difference("m")
        hits += _covers(paired, pa - pb)
        ratio.append(paired.half_width / indep.half_width)
    assert 0.93 <= hits / REPS <= 0.97, hits / REPS
    assert np.median(ratio) < 0.5  # strongly correlated pairs: pairing narrows a lot


def test_higher_confidence_widens_every_interval(toy_scenario_file):
    s = scenario.load(toy_scenario_file)
    acc = runner.run(s, None, games=2000).accumulator
    e95 = metrics.compute(acc)
    e999 = metrics.compute(acc, 0.999)
    for m in ("win_rate.seat0", "length.mean", "length.median", "seat_balance"):
        assert e999[m].lo <= e95[m].lo and e999[m].hi >= e95[m].hi, m
    assert e999["win_rate.seat0"].half_width > 1.5 * e95["win_rate.seat0"].half_width


# ---------------------------------------------------------------- exact dice duel answers


def _rolls_to_reach(target: int) -> np.ndarray:
    """P(T = t): number of d6 rolls until the running total reaches ``target``."""
    dist = np.zeros(target)  # probability mass of totals below target
    dist[0] = 1.0
    out = [0.0]
    while dist.sum() > 1e-15:
        new = np.zeros(target)
        done = 0.0
        for total, pr in enumerate(dist):
            if pr == 0:
                continue
            for face in range(1, 7):
                if total + face >= target:
                    done += pr / 6
                else:
                    new[total + face] += pr / 6
        out.append(done)
        dist = new
    return np.array(out)


def duel_exact(target: int) -> tuple[float, float]:
    """(P(first mover wins), mean game length in turns) of the toy dice duel."""
    pt = _rolls_to_reach(target)
    surv = pt[::-1].cumsum()[::-1]  # P(T >= t)
    t = np.arange(pt.size)
    p_first = float((pt * surv).sum())
    # first mover wins at its t-th roll (turn 2t-1) if T2 >= t; else second wins at its T2-th roll (turn 2 T2)
    surv_gt = np.append(surv[1:], 0.0)  # P(T > t)
    mean_len = float((pt * surv * (2 * t - 1)).sum() + (pt * surv_gt * (2 * t)).sum())
    return p_first, mean_len


def test_pipeline_coverage_on_dice_duel(tmp_path):
    """Many independent small runs of the real engine: the 95% intervals cover the exact values."""
    p_first, mean_len = duel_exact(10)
    s = scenario.from_dict({"game": "dice_duel", "rules": {"target": 10},
                            "run": {"games": 200 * 1000, "seed": 11, "chunk_size": 200 * 1000}})
    g, seats = runner.play_arrays(s, 0, 200 * 1000)
    reps, n = 1000, 200
    cov_first = cov_len = 0
    for r in range(reps):
        acc = metrics.Accumulator(s.game, ("roller", "roller"))
        acc.update(g[r * n:(r + 1) * n], seats[r * n:(r + 1) * n])
        est = metrics.compute(acc)
        cov_first += _covers(est["first_player_win_rate"], p_first)
        cov_len += _covers(est["length.mean"], mean_len)
    assert 0.93 <= cov_first / reps <= 0.97, cov_first / reps
    assert 0.93 <= cov_len / reps <= 0.97, cov_len / reps
    # and the full sample agrees with the exact values
    acc = metrics.Accumulator(s.game, ("roller", "roller"))
    acc.update(g, seats)
    est = metrics.compute(acc)
    assert _covers(est["first_player_win_rate"], p_first)
    assert _covers(est["length.mean"], mean_len)


@pytest.mark.parametrize("cutoff", [2, 6])
def test_who_starts_matches_cutoff(cutoff):
    """P(seat 0 starts) = cutoff/6 exactly: the Wilson interval of the pipeline's share covers it."""
    s = scenario.from_dict({"game": "dice_duel", "rules": {"first_player_cutoff": cutoff},
                            "run": {"games": 30000, "seed": 5, "chunk_size": 10000}})
    g, _ = runner.play_arrays(s, 0, 30000)
    e = stats.wilson(int((g[:, 4] == 0).sum()), g.shape[0])
    assert e.lo <= cutoff / 6 <= e.hi


def test_precision_target_stops_early_below_target(toy_scenario_file):
    s = scenario.load(toy_scenario_file, ["run.chunk_size=2000"])
    target = 0.02
    res = runner.run(s, None, games=200_000, stop_when=metrics.precision_reached(target))
    assert res.games < 200_000
    widths = metrics.win_rate_half_widths(res.accumulator)
    assert max(widths.values()) < target
    # and not absurdly late: one chunk earlier it had not been reached
    acc = metrics.Accumulator(s.game, ("roller", "roller"))
    acc.update(*runner.play_arrays(s, 0, res.games - 2000))
    assert max(metrics.win_rate_half_widths(acc).values()) >= target


def test_run_precision_cli(toy_scenario_file, tmp_path):
    from click.testing import CliRunner

    from pirate_sim.cli import main

    out = tmp_path / "r"
    r = CliRunner().invoke(main, ["run", str(toy_scenario_file), "-n", "100000", "--precision", "0.02",
                                  "-o", str(out), "-q"])
    assert r.exit_code == 0, r.output
    assert "reached after" in r.output
    summ = __import__("json").loads((out / "summary.json").read_text())
    assert summ["games"] < 100_000
    for k, v in summ["metrics"].items():
        if k.startswith("win_rate.seat"):
            assert (v["hi"] - v["lo"]) / 2 < 0.02


def test_ratio_interval_covers_about_95_percent():
    """ratio_ci on games with a random number of Bernoulli(p) trials each: coverage of p."""
    rng = np.random.default_rng(11)
    p, n, reps = 0.375, 300, 2000
    hits = 0
    for _ in range(reps):
        trials = rng.poisson(3.0, n)
        succ = rng.binomial(trials, p)
        x, y = succ.astype(float), trials.astype(float)
        e = stats.ratio_ci(x.sum(), y.sum(), (x**2).sum(), (y**2).sum(), (x * y).sum(), n)
        hits += e.lo <= p <= e.hi
    assert 0.93 <= hits / reps <= 0.97, hits / reps
