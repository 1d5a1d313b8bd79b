"""The shared seating rules: the kernel formula and the engine's numpy labels agree."""

import numpy as np

from pirate_sim.rng import new_rng
from pirate_sim.seating import (FP_RANDOM, FP_ROTATE, FP_RULE, entries_of_seats, entry_of_seat_nb,
                                first_player_code, first_seat_nb, rotates, seating_params)


def test_rotation_is_a_permutation_and_matches_the_kernel():
    n = 4
    games = np.arange(0, 11, dtype=np.int64)
    lab = entries_of_seats(games, n, True)
    for k in games:
        assert sorted(lab[k]) == list(range(n)), "every entry plays exactly one seat"
        assert [entry_of_seat_nb(s, k, n, True) for s in range(n)] == list(lab[k])
        assert lab[k][k % n] == 0, "entry 0 sits at seat k mod n in game k"
    fixed = entries_of_seats(games, n, False)
    assert (fixed == np.arange(n)).all()
    assert [entry_of_seat_nb(s, 7, n, False) for s in range(n)] == [0, 1, 2, 3]


def test_first_seat_modes():
    rng = new_rng(1, 2)
    assert first_seat_nb(FP_RULE, 1, 10, 3, rng) == 1
    assert first_seat_nb(FP_ROTATE, 1, 10, 3, rng) == 10 % 3
    counts = np.zeros(3, dtype=int)
    for k in range(3000):
        counts[first_seat_nb(FP_RANDOM, 0, k, 3, new_rng(5, k))] += 1
    # each seat 1/3: sd of a count = sqrt(3000 * 1/3 * 2/3) ~ 26; 5 sd
    assert (abs(counts - 1000) < 130).all()


def test_params_and_codes():
    fp, ss = seating_params("random")
    assert fp.key == "first_player" and fp.default == "random" and ss.default == "fixed"
    assert first_player_code({}) == FP_RULE and first_player_code({"first_player": "rotate"}) == FP_ROTATE
    assert rotates({"strategy_seating": "rotate"}) and not rotates({})
