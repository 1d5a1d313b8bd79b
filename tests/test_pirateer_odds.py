"""`odds pirateer capture`: exact (reference over 36 rolls) beside the kernel's Monte Carlo."""

from fractions import Fraction

import numpy as np
import pytest

from pirate_sim.games.pirateer import GAME
from pirate_sim.games.pirateer.board import load_board
from pirate_sim.games.pirateer.odds import CASES, capture_exact, case_position


def straight_formula(d: int) -> Fraction:
    """Either die = d, or the sum = d (both dice in the same direction)."""
    return Fraction(sum(1 for a in range(1, 7) for b in range(1, 7) if d in (a, b, a + b)), 36)


@pytest.mark.parametrize("d", range(1, 10))
def test_straight_line_on_open_sea_matches_the_formula(d):
    board = load_board()
    assert capture_exact(board, case_position((1, 3), (0, 13), (d, 13))) == straight_formula(d)


def test_tradewind_and_strait_cases():
    board = load_board()
    # along the band: one die of k, or a + b = k, like a straight line
    for k in range(1, 10):
        assert capture_exact(board, case_position((1, 3), (3, 12), (3 + k, 12 - k))) == straight_formula(k)
    # out of the strait (3,4) through the seam to (15,15): a 1 (then anything), like a straight line
    assert capture_exact(board, case_position((1, 3), (3, 4), (15, 15))) == straight_formula(1)
    # onto the strait with 2, out with 1: only the roll {1, 2} in that order of use
    assert capture_exact(board, case_position((1, 3), (3, 6), (15, 15))) == Fraction(2, 36)


def test_monte_carlo_agrees_with_exact():
    samples = 4000
    rows = GAME.odds("capture", {}, samples, 17)
    assert len(rows) == len(CASES)
    z = np.array([r.z for r in rows if 0 < r.exact < 1])
    # |z| > 4 has probability 6e-5 per case under the null
    assert np.abs(z).max() < 4.0, [(r.case, r.z) for r in rows if abs(r.z) >= 4]
