"""Unit tests of the shared helpers of pirate_sim/search.py (the search player's known answers
on a toy game are in tests/test_contract_engine.py: the engine written once plays it)."""

from __future__ import annotations

import numpy as np

from pirate_sim import search as S
from pirate_sim.rng import RNG_WORDS, new_rng, next_u64_nb, roll_die_nb, scripted_rng

# ------------------------------------------------------------------ helpers of search.py


def test_top_k_best_first_ties_by_lower_index():
    idx = np.zeros(6, np.int64)
    sc = np.array([0.5, 2.0, 0.5, 3.0, 2.0, -1.0])
    assert S.top_k_nb(sc, 6, 3, idx) == 3 and list(idx[:3]) == [3, 1, 4]
    assert S.top_k_nb(sc, 6, 0, idx) == 6 and list(idx) == [3, 1, 4, 0, 2, 5]
    assert S.top_k_nb(sc, 4, 10, idx) == 4 and list(idx[:4]) == [3, 1, 0, 2]  # k > n: all n
    assert S.top_k_nb(sc, 1, 3, idx) == 1 and idx[0] == 0


def test_halving_rounds_and_per_round_rollouts():
    assert [S.halving_rounds_nb(n) for n in (1, 2, 3, 4, 5, 8, 9, 16, 17)] == [1, 1, 2, 2, 3, 3, 4, 4, 5]
    assert S.per_round_rollouts_nb(64, 3, 2) == 10 and S.per_round_rollouts_nb(64, 2, 2) == 16
    assert S.per_round_rollouts_nb(1, 5, 3) == 1  # at least one rollout per option


def test_halve_keeps_the_better_half_by_mean_ties_in_prior_order():
    alive = np.array([0, 1, 2, 3, 4], np.int64)
    sums = np.array([3.0, 4.0, 6.0, 1.0, 8.0])
    counts = np.array([6.0, 4.0, 12.0, 1.0, 16.0])  # means 0.5, 1.0, 0.5, 1.0, 0.5
    assert S.halve_nb(alive, 5, sums, counts) == 3
    assert list(alive[:3]) == [1, 3, 0]  # the two 1.0s in prior order, then the first 0.5
    assert S.best_mean_nb(alive, 3, sums, counts) == 1
    assert S.halve_nb(alive, 1, sums, counts) == 1 and alive[0] == 1


def test_derived_streams_leave_the_parent_alone_and_are_distinct_across_decision_and_rollout():
    parent = scripted_rng([6, 6, 6], seed=3)  # a dice script the derived streams must not inherit
    before = parent.copy()
    out = np.zeros(RNG_WORDS, np.uint64)
    firsts = set()
    for d in range(40):
        for j in range(40):
            S.derive_stream_nb(out, parent, d, j)
            assert out[4] == 0 and out[5] == 0 and out[6] == 0  # no script, no dice counted
            firsts.add(int(next_u64_nb(out.copy())))
    assert np.array_equal(parent, before)  # the parent is not advanced
    assert len(firsts) == 40 * 40
    # the same (parent state, decision, rollout): the same stream (reproducible)
    a, b = np.zeros(RNG_WORDS, np.uint64), np.zeros(RNG_WORDS, np.uint64)
    S.derive_stream_nb(a, parent, 7, 9)
    S.derive_stream_nb(b, parent.copy(), 7, 9)
    assert np.array_equal(a, b)


def test_derived_streams_follow_the_parent_once_it_advances():
    """A stream is a function of the parent's current state: after the parent draws, the
    same (decision, rollout) gives a new stream (a later decision never reuses dice)."""
    parent = new_rng(1, 0)
    a, b = np.zeros(RNG_WORDS, np.uint64), np.zeros(RNG_WORDS, np.uint64)
    S.derive_stream_nb(a, parent, 0, 0)
    roll_die_nb(parent, 6)
    S.derive_stream_nb(b, parent, 0, 0)
    assert not np.array_equal(a[:4], b[:4])


def test_derived_stream_dice_are_uniform():
    parent = new_rng(2, 5)
    out = np.zeros(RNG_WORDS, np.uint64)
    counts = np.zeros(6)
    for j in range(3000):  # the first die of 3,000 rollouts (what common random numbers share)
        S.derive_stream_nb(out, parent, 0, j)
        counts[roll_die_nb(out, 6) - 1] += 1
    chi2 = float(((counts - 500) ** 2 / 500).sum())
    assert chi2 < 20.5  # chi-square, 5 degrees of freedom: P(> 20.5) = 0.001
