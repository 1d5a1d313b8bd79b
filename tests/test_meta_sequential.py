"""Sequential tests on rounds (pirate_sim.meta.sequential): error rates, games saved, and an
interval that keeps its coverage at the round a test stops at.

The toys are players with known win rates: the focal player wins a game with probability
p + e at seat 0 and p - e at seat 1 (a seat advantage e that rounds cancel), and games with
no winner score 1/n.  Every figure is a frequency over a fixed number of simulated tests;
each tolerance is stated with its Monte Carlo standard error."""

from __future__ import annotations

import math

import numpy as np
import pytest

from pirate_sim.meta import sequential as S
from pirate_sim.meta.stats import focal_scores

TESTS = 2000  # simulated sequential tests a point (the figure)
CAP = 4000  # rounds a simulated test may use (none comes near it at these hypotheses)


def _two_seat_games(rng, p, games, edge=0.1, draw=0.1):
    """Per-game focal scores of a two-seat match, seats rotating (focal at seat k mod 2):
    win p + edge at seat 0, p - edge at seat 1 (so p on average), no winner with ``draw``."""
    seat = np.arange(games) % 2
    win = np.where(seat == 0, p + edge, p - edge) - draw / 2
    u = rng.random(games)
    return np.where(u < win, 1.0, np.where(u < win + draw, 0.5, 0.0))


def _rates(p, n_tests=TESTS, seed=0, s0=0.5, s1=0.6):
    rng = np.random.default_rng([seed, int(1000 * p)])
    lo, up = S.wald_bounds()
    ends, rounds = [], []
    for _ in range(n_tests):
        k = S.round_scores(_two_seat_games(rng, p, 2 * CAP), 2)
        used, code, _ = S.sprt_nb(k, 5, s0, s1, lo, up, S.PRIOR_COUNT)
        ends.append(code)
        rounds.append(used)
    ends = np.array(ends)
    return (ends == S.ACCEPT_H1).mean(), (ends == S.ACCEPT_H0).mean(), (ends == S.UNDECIDED).mean(), np.mean(rounds)


@pytest.mark.parametrize("p", [0.50, 0.55, 0.60, 0.65])
def test_error_rates_and_games_saved(p):
    """False "beats" at p = 0.50 and missed "beats" at p = 0.60 within 1.5 points of alpha and
    beta (Monte Carlo s.e. 0.49 points: 3 s.e.); between and beyond, the acceptance rates move
    the way they must; the mean rounds at s0 and s1 are below a fixed-sample test's for the
    same error rates."""
    h1, h0, und, mean_rounds = _rates(p)
    assert und == 0.0
    big = S.round_scores(_two_seat_games(np.random.default_rng(99), p, 400_000), 2) / 4.0
    fixed = S.fixed_rounds(0.5, 0.6, big.var())  # a z-test on rounds with the same alpha and beta
    if p == 0.50:
        assert abs(h1 - S.ALPHA) <= 0.015, h1
        assert mean_rounds < 0.7 * fixed, (mean_rounds, fixed)
    elif p == 0.60:
        assert abs(h0 - S.BETA) <= 0.015, h0
        assert mean_rounds < 0.7 * fixed, (mean_rounds, fixed)
    elif p == 0.55:  # halfway: a coin between the two (the test's slowest point)
        assert 0.4 < h1 < 0.6, h1
    else:
        assert h1 > 0.99, h1


def test_the_test_on_three_seats():
    """Rounds of three games (values k / 9): false "beats" at the fair share 1/3 and missed
    "beats" at the beat threshold stay near alpha and beta (1,000 tests: s.e. 0.7 points)."""
    from pirate_sim.meta.stats import beat_threshold

    rng = np.random.default_rng(3)
    s0, s1 = 1 / 3, beat_threshold(3)
    lo, up = S.wald_bounds()
    for p, wrong in ((s0, S.ACCEPT_H1), (s1, S.ACCEPT_H0)):
        bad = 0
        for _ in range(1000):
            g = np.arange(3 * CAP)
            winner = np.where(rng.random(g.size) < p, g % 3, (g % 3 + 1 + rng.integers(0, 2, g.size)) % 3)
            winner[rng.random(g.size) < 0.05] = -1  # no winner: the focal player scores 1/3
            k = S.round_scores(focal_scores(winner, g, 3), 3)
            bad += S.sprt_nb(k, 10, s0, s1, lo, up, S.PRIOR_COUNT)[1] == wrong
        assert abs(bad / 1000 - 0.05) <= 0.025, (p, bad)


def test_interval_keeps_its_coverage_where_the_test_stops():
    """At the round the test stops at, the confidence sequence covers the true mean at least
    95% of the time (2,000 tests at p = 0.55, where stops are most selective; s.e. 0.5 points).
    A fixed-sample interval read at the same stop is the one that may not."""
    rng = np.random.default_rng(11)
    p = 0.55
    covered = 0
    for _ in range(TESTS):
        d = S.sprt(_two_seat_games(rng, p, 2 * CAP), 2, 0.5, 0.6)
        covered += d.score.lo <= p <= d.score.hi
    assert covered / TESTS >= 0.95 - 3 * math.sqrt(0.05 * 0.95 / TESTS), covered / TESTS


def test_interval_at_a_fixed_length_covers_and_narrows():
    rng = np.random.default_rng(5)
    widths, covered = [], 0
    for _ in range(300):
        x = S.round_scores(_two_seat_games(rng, 0.6, 2000), 2) / 4.0
        e = S.confidence_sequence(x)
        covered += e.lo <= 0.6 <= e.hi
        widths.append(e.hi - e.lo)
    assert covered / 300 >= 0.95 - 3 * math.sqrt(0.05 * 0.95 / 300)
    # wider than a fixed-n interval (1.96 * sd / sqrt(n), sd about 0.33) but of its order
    fixed = 2 * 1.96 * 0.33 / math.sqrt(1000)
    assert fixed < np.mean(widths) < 4 * fixed, (np.mean(widths), fixed)
    e = S.confidence_sequence(np.ones(3))
    assert e.hi == 1.0 and e.lo < 0.9  # three rounds say little


def test_round_scores_are_the_pentanomial_values():
    scores = np.array([1, 1, 1, 0, 0.5, 0.5, 0, 0, 1, 0.5, 1.0])  # the last game's round is unfinished
    assert S.round_scores(scores, 2).tolist() == [4, 2, 2, 0, 3]
    assert S.round_scores(np.array([1, 1 / 3, 0, 0, 0, 0]), 3).tolist() == [4, 0]
    with pytest.raises(ValueError):
        S.round_scores(np.array([2.0, 0.0]), 2)


def test_constrained_mle_has_the_asked_mean():
    """The multinomial MLE under "mean = s" (p_j = c_j / (N (1 + lam (x_j - s)))) sums to 1 and has mean s."""
    c = np.array([3.0, 10.0, 40.0, 12.0, 2.0])
    x = np.arange(5) / 4.0
    for s in (0.3, 0.5, 0.6, 0.9):
        lam = S._lambda_nb(c, x, s)
        pj = c / (c.sum() * (1 + lam * (x - s)))
        assert pj.sum() == pytest.approx(1.0, abs=1e-9) and pj @ x == pytest.approx(s, abs=1e-9)
    # the data's mean is 0.5: the ratio favours 0.5 against 0.6 (negative) and against 0.4 (positive)
    assert S.llr_nb(c, x, 0.5, 0.6) < 0 < S.llr_nb(c, x, 0.4, 0.5)


def test_decisions_say_what_was_decided():
    d = S.sprt(np.tile([1.0, 1.0, 0.0, 1.0], 200), 2, 0.5, 0.6)
    assert d.outcome == "accepted s1" and d.decided and d.games == 2 * d.rounds
    assert d.describe().startswith("scores 60.0%, not 50.0% (decided after")
    short = S.sprt(np.array([1.0, 0.0, 0.0, 1.0]), 2, 0.5, 0.6)
    assert short.outcome == "undecided" and short.rounds == 2 and not short.decided
    assert short.describe().startswith("undecided after 2 rounds (4 games)")
    lose = S.sprt(np.tile([0.0, 1.0, 0.0, 0.0], 200), 2, 0.5, 0.6)
    assert lose.outcome == "accepted s0" and lose.score.hi < 0.6
    with pytest.raises(ValueError):
        S.sprt(np.ones(4), 2, 0.6, 0.5)
    with pytest.raises(ValueError):
        S.wald_bounds(0.0, 0.05)


def test_a_test_fed_in_pieces_decides_as_one_fed_at_once():
    """A run's chunks feed the test piece by piece: the same decision, the same round, the
    same interval as the whole sequence at once, and nothing taken after the decision."""
    rng = np.random.default_rng(8)
    k = S.round_scores(_two_seat_games(rng, 0.58, 4000), 2)
    whole = S.SequentialTest(5, 0.5, 0.6)
    whole.feed(k)
    parts = S.SequentialTest(5, 0.5, 0.6)
    taken = [parts.feed(k[a:a + 7]) for a in range(0, k.size, 7)]
    assert whole.decided and (parts.code, parts.used, parts.llr) == (whole.code, whole.used, whole.llr)
    assert sum(taken) == whole.used and taken[-1] == 0
    assert parts.interval.estimate() == whole.interval.estimate()
    assert S.confidence_sequence(k[:whole.used] / 4.0) == whole.interval.estimate()
    with pytest.raises(ValueError):
        S.SequentialTest(5, 0.5, 0.5)
    with pytest.raises(ValueError, match="0..4"):
        S.SequentialTest(5, 0.5, 0.6).feed(np.array([1, 5]))
