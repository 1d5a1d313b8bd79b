"""seat_balance (largest gap between seats' win rates): its interval covers the truth at least
95% of the time, at perfect balance too, on multinomial draws and on the toy game's exactly
known gap; non-negative means never get negative bounds; one game gives no false certainty."""

from __future__ import annotations

import math

import numpy as np
import pytest
from test_analysis_stats import duel_exact
from toy_game import BALANCED_CUTOFF

from pirate_sim import metrics, runner, scenario, stats

NOMINAL = 0.95
REPS = 2000  # SE of a 95% coverage over 2000 reps is 0.0049: 0.935 is 3 SE below nominal


def _coverage(p, n, reps, seed):
    rng = np.random.default_rng(seed)
    probs = np.append(p, 1 - sum(p))
    draws = rng.multinomial(n, probs / probs.sum(), size=reps)[:, :-1]
    truth = max(p) - min(p)
    return np.mean([e.lo <= truth <= e.hi for e in (stats.max_gap_simultaneous(c, n) for c in draws)])


# The bootstrap this interval replaced covered 0.71-0.88 in the cases marked *.
@pytest.mark.parametrize("p, n", [
    ([0.5, 0.5], 1000),  # perfect balance
    ([0.5, 0.5], 20),
    ([0.505, 0.495], 10_000),  # * close to balance
    ([0.5004, 0.4996], 1_000_000),  # * the Pirate's Peak case of the issue
    ([1 / 3] * 3, 3000),  # *
    ([0.225] * 4, 5000),  # * four seats, 10% of games without a winner
    ([0.24, 0.23, 0.22, 0.22], 5000),  # *
])
def test_seat_balance_coverage_multinomial(p, n):
    cov = _coverage(p, n, REPS, seed=int(n) + len(p))
    assert cov >= NOMINAL - 3 * math.sqrt(NOMINAL * (1 - NOMINAL) / REPS), cov


def _duel_gap(cutoff: int, target: int = 10) -> float:
    """Exact |P(seat 0 wins) - P(seat 1 wins)| of the toy dice duel (every game has a winner)."""
    q, _ = duel_exact(target)  # P(the first mover wins)
    s0 = cutoff / 6  # P(seat 0 moves first)
    return abs(2 * (s0 * q + (1 - s0) * (1 - q)) - 1)


def _toy_coverage(cutoff, reps, n):
    s = scenario.from_dict({"game": "dice_duel", "rules": {"target": 10, "first_player_cutoff": cutoff},
                            "run": {"games": reps * n, "seed": 23, "chunk_size": reps * n}})
    g, seats = runner.play_arrays(s, 0, reps * n)
    truth = _duel_gap(cutoff)
    hits = 0
    for r in range(reps):
        acc = metrics.Accumulator(s.game, ("roller", "roller"))
        acc.update(g[r * n:(r + 1) * n], seats[r * n:(r + 1) * n])
        e = metrics.compute(acc)["seat_balance"]
        hits += e.lo <= truth <= e.hi
    return hits / reps, truth


@pytest.mark.parametrize("cutoff", [BALANCED_CUTOFF, 5])
def test_seat_balance_coverage_on_the_toy_game(cutoff):
    """Through the real engine and metrics: 1000 runs of 400 games, exact gap 0 (balanced) or known."""
    reps = 1000
    cov, truth = _toy_coverage(cutoff, reps, 400)
    assert (truth == 0) == (cutoff == BALANCED_CUTOFF)
    assert cov >= NOMINAL - 3 * math.sqrt(NOMINAL * (1 - NOMINAL) / reps), cov


@pytest.mark.slow
def test_seat_balance_coverage_on_the_balanced_toy_game_many_runs():
    reps = 10_000  # SE 0.0022: detects an under-coverage of one point
    cov, _ = _toy_coverage(BALANCED_CUTOFF, reps, 200)
    assert cov >= NOMINAL - 3 * math.sqrt(NOMINAL * (1 - NOMINAL) / reps), cov


def test_upper_bound_near_balance_is_not_twice_the_estimate():
    """1M games, 0.08 points apart: the difference alone has SE 0.10 points, so hi is near 0.28."""
    n = 1_000_000
    e = stats.max_gap_simultaneous(np.array([500_400, 499_600]), n)
    se = math.sqrt(1.0 / n)  # var(p0 - p1) = (p0 + p1 - d^2) / n with p0 + p1 = 1
    assert e.value == pytest.approx(0.0008)
    assert e.hi == pytest.approx(0.0008 + 1.96 * se, abs=2e-5)
    assert e.lo == 0.0


def test_clear_gap_has_a_positive_lower_bound():
    e = stats.max_gap_simultaneous(np.array([6000, 4000]), 10_000)
    assert 0.15 < e.lo < 0.2 < e.hi < 0.25


def test_one_and_two_game_runs_are_not_certain():
    for counts, n in (([1, 0], 1), ([1, 1], 2), ([2, 0], 2), ([1, 0, 0], 1)):
        e = stats.max_gap_simultaneous(np.array(counts), n)
        assert e.lo == 0.0 and e.hi == 1.0, (counts, e)  # before: 100% [100..100] for one game


def test_means_of_counts_never_go_below_zero():
    e = stats.mean_ci(total=1, total_sq=1, n=5000, floor=0.0)  # one event in 5000 games
    assert e.lo == 0.0 and e.hi > e.value > 0
    assert stats.mean_ci(1, 1, 5000).lo < 0  # unbounded quantities keep the symmetric interval
    r = stats.ratio_ci(1, 100, 1, 200, 1, 50, floor=0.0)
    assert r.lo >= 0.0


def test_one_game_means_have_no_infinite_interval():
    e = stats.mean_ci(7, 49, 1)
    assert e.value == 7 and math.isnan(e.lo) and math.isnan(e.hi)


def test_one_game_run_metrics_are_finite_or_undefined(toy_scenario_file):
    s = scenario.load(toy_scenario_file)
    est = metrics.compute(runner.run(s, None, games=1).accumulator)
    for name, e in est.items():
        assert not math.isinf(e.lo) and not math.isinf(e.hi), name
        if name.startswith(("events.", "seat")) and e.lo == e.lo:
            assert e.lo >= 0, name
    assert est["seat_balance"].hi == 1.0 and est["seat_balance"].lo == 0.0
