"""The RNG: per-game streams, scripted dice, uniformity."""

import numpy as np
from scipy import stats

from pirate_sim.rng import (dice_rolled, new_rng, roll_die_nb, script_remaining, scripted_rng, shuffle_nb,
                            weighted_choice_nb)


def _dice(rng, n):
    return [roll_die_nb(rng, 6) for _ in range(n)]


def test_stream_depends_only_on_seed_and_game_index():
    assert _dice(new_rng(5, 3), 50) == _dice(new_rng(5, 3), 50)
    assert _dice(new_rng(5, 3), 50) != _dice(new_rng(5, 4), 50)
    assert _dice(new_rng(5, 3), 50) != _dice(new_rng(6, 3), 50)
    # (seed, k) and (seed + 1, k - 1) must not collide
    assert _dice(new_rng(5, 3), 50) != _dice(new_rng(6, 2), 50)


def test_scripted_dice_come_first_then_pseudo_random():
    rng = scripted_rng([6, 6, 1])
    assert _dice(rng, 3) == [6, 6, 1]
    assert script_remaining(rng) == 0
    rest = _dice(rng, 200)
    assert set(rest) == {1, 2, 3, 4, 5, 6}
    assert dice_rolled(rng) == 203


def test_d6_is_uniform_chi_square():
    rng = new_rng(11, 0)
    counts = np.bincount(_dice(rng, 60_000), minlength=7)[1:]
    # chi-square goodness of fit; p < 1e-4 would flag a biased die
    assert stats.chisquare(counts).pvalue > 1e-4


def test_shuffle_is_a_permutation_and_varies():
    rng = new_rng(1, 1)
    seen = set()
    for _ in range(50):
        a = np.arange(10)
        shuffle_nb(rng, a)
        assert sorted(a.tolist()) == list(range(10))
        seen.add(tuple(a))
    assert len(seen) > 45


def test_weighted_choice_follows_weights():
    rng = new_rng(2, 0)
    cum = np.cumsum(np.array([3.0, 1.0, 0.0, 0.0, 0.0, 2.0]))
    n = 30_000
    draws = np.bincount([weighted_choice_nb(rng, cum) for _ in range(n)], minlength=6)
    assert draws[2] == draws[3] == draws[4] == 0
    expected = np.array([3, 1, 2]) / 6 * n
    assert stats.chisquare(draws[[0, 1, 5]], expected).pvalue > 1e-4
