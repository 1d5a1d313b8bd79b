"""The meta-game's statistics against hand-computed values and exact answers."""

import math

import numpy as np
import pytest

from pirate_sim.meta import stats as ms


def test_focal_scores_follow_the_rotation_and_score_no_winner_as_the_fair_share():
    # entry 0 plays seat k mod n: game 0 seat 0, game 1 seat 1, game 2 seat 2, game 3 seat 0
    winner = np.array([0, 0, 2, -1, 1])
    game = np.arange(5)
    assert ms.focal_scores(winner, game, 3).tolist() == [1.0, 0.0, 1.0, 1 / 3, 1.0]


def test_utility_maps_wins_losses_and_the_fair_share_like_ludii():
    assert ms.utility(1.0, 2) == 1.0 and ms.utility(0.0, 2) == -1.0 and ms.utility(0.5, 2) == 0.0
    assert ms.utility(1 / 4, 4) == pytest.approx(0.0)  # the fair share is worth 0
    assert ms.utility(0.0, 4) == pytest.approx(-1 / 3)  # mean utility of ranks 2..4: (1/3 - 1/3 - 1) / 3


def test_beat_threshold_is_sixty_percent_for_two_seats_and_the_same_odds_for_more():
    assert ms.beat_threshold(2) == pytest.approx(0.6)
    t = ms.beat_threshold(4)
    assert t / ((1 - t) / 3) == pytest.approx(1.5)  # 1.5 times as often as each weak seat


@pytest.mark.parametrize("r, expected", [
    ([0.1, 0.1, 0.1], 0.1 + 0.9 * 0.03),  # flat: yhat 0.1, area 3 * 0.01
    ([-0.2, 0.0, 0.2], 0.6 + 0.4 * 0.04),  # line -0.2 + 0.2 x predicted at x = 4; area 0.2^2
    ([0.2, 0.4, 0.6], 1.0),  # predicted 1.0 at x = 4: clipped, the area no longer counts
    ([-0.5, -0.4], 0.0),  # the prediction clipped at 0, nothing positive
    ([0.3], 0.3 + 0.7 * 0.09),  # one match: no line, its value
])
def test_skill_trace_is_ludii_s_formula(r, expected):
    assert ms.skill_trace(np.array(r)) == pytest.approx(expected)


def rps(noise=0.0):
    m = np.array([[0.5, 0.0, 1.0], [1.0, 0.5, 0.0], [0.0, 1.0, 0.5]])
    return m * (1 - 2 * noise) + noise


def test_nash_of_rock_paper_scissors_is_uniform_and_a_dominated_strategy_gets_zero():
    x = ms.nash_symmetric_zero_sum(2 * rps() - 1)
    assert x == pytest.approx([1 / 3] * 3, abs=1e-9)
    m = np.full((4, 4), 0.5)
    m[:3, :3] = rps(0.2)
    m[3, :3], m[:3, 3] = 0.4, 0.6  # dud: strictly dominated by the uniform mix of the others
    x = ms.nash_symmetric_zero_sum(2 * m - 1)
    assert x[:3] == pytest.approx([1 / 3] * 3, abs=1e-9) and x[3] == pytest.approx(0.0, abs=1e-12)


def test_nash_of_a_game_with_a_dominant_strategy_is_that_strategy():
    m = np.array([[0.5, 0.7, 0.8], [0.3, 0.5, 0.6], [0.2, 0.4, 0.5]])
    assert ms.nash_symmetric_zero_sum(2 * m - 1) == pytest.approx([1, 0, 0], abs=1e-9)


def test_replicator_finds_the_cyclic_equilibrium_and_the_dominant_strategy():
    fair = 1 / 3
    c = np.array([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], float)
    x = ms.replicator(fair + 0.2 * c, fair)
    assert x == pytest.approx([1 / 3] * 3, abs=0.02)
    dom = np.array([[fair, 0.5, 0.5], [0.2, fair, 0.3], [0.2, 0.3, fair]])
    assert ms.replicator(dom, fair)[0] > 0.9
    stack = ms.replicator(np.stack([fair + 0.2 * c, dom]), fair)  # a stack solves each matrix alike
    assert stack[0] == pytest.approx(x) and stack[1][0] > 0.9


def test_luce_ratings_recover_known_strengths_from_expected_counts():
    pi = np.array([1.0, 2.0, 4.0])
    comps, wins, dec = [], [], []
    big = 1e6
    for n in (2, 3):
        for i in range(3):
            for j in range(3):
                c = np.zeros(3)
                c[i] += 1
                c[j] += n - 1
                p = c * pi / (c * pi).sum()
                comps.append(c)
                wins.append(big * p)
                dec.append(big)
    elo = ms.luce_ratings(np.array(comps), np.array(wins), np.array(dec))
    want = 400 * np.log10(pi)
    assert elo == pytest.approx(want - want.mean(), abs=0.5)


@pytest.mark.parametrize("p, n_seats, draw", [(0.5, 2, 0.0), (0.2, 2, 0.0), (0.7, 2, 0.1), (0.25, 4, 0.2)])
def test_win_rate_intervals_cover_the_true_rate(p, n_seats, draw):
    """Coverage of the ladder's and the matrix's 95% intervals, from 4,000 simulated steps
    of 300 games (scores 1 win, 1/n no winner, 0 loss): within 2.5 points of 95%, or above
    it where games without a winner make the Wilson interval conservative (the coverage
    estimate's own standard error is 0.34 points)."""
    rng = np.random.default_rng(5)
    reps, n = 4000, 300
    u = rng.random((reps, n))
    scores = np.where(u < p, 1.0, np.where(u < p + draw, 1.0 / n_seats, 0.0))
    truth = p + draw / n_seats
    hits = 0
    for row in scores:
        e = ms.win_rate(row)
        hits += e.lo <= truth <= e.hi
    cov = hits / reps
    assert cov >= 0.925 and (draw > 0 or cov <= 0.975), cov


def test_simultaneous_wilson_is_wider_than_one_interval():
    lo, hi = ms.simultaneous_wilson(np.array([[50.0]]), np.array([[100.0]]), 10)
    from pirate_sim.stats import wilson

    one = wilson(50, 100)
    assert lo[0, 0] < one.lo and hi[0, 0] > one.hi


def test_bootstrap_counts_resample_every_game_count():
    w = ms.bootstrap_counts(50, 7, 3)
    assert w.shape == (7, 50) and (w.sum(axis=1) == 50).all()
    assert (w == ms.bootstrap_counts(50, 7, 3)).all(), "seeded: the same intervals every time"
    assert not math.isnan(ms.percentile_ci(np.arange(100.0), 50.0).lo)
