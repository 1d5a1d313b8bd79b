"""Pirate's Cove odds: exact combat probabilities against the kernel's own Monte Carlo."""

import math
from fractions import Fraction

import pytest

from pirate_sim.games.pirates_cove import GAME
from pirate_sim.games.pirates_cove.odds import cripple_within, duel_exact, hit_chance, hits_pmf


def test_hits_by_hand():
    p = hit_chance(5)
    assert p == Fraction(1, 3)
    assert hits_pmf(2, p) == [Fraction(4, 9), Fraction(4, 9), Fraction(1, 9)]
    assert sum(hits_pmf(6, p)) == 1
    assert hit_chance(7) == 0 and hit_chance(1) == 1


def test_crippling_by_hand():
    p = Fraction(1, 3)
    # a level-1 section falls to any hit: 1 - (2/3)^(n v)
    assert cripple_within(3, 1, 1, p) == 1 - Fraction(8, 27)
    assert cripple_within(2, 1, 2, p) == 1 - Fraction(16, 81)
    # level 2 with 2 dice in one volley: both hit
    assert cripple_within(2, 2, 1, p) == Fraction(1, 9)
    assert cripple_within(2, 5, 2, p) == 0  # 4 dice cannot score 5 hits


def test_duel_by_hand():
    # both Hull 1, 2 dice: the first volley with a hit wins; A fires first
    q = 1 - Fraction(4, 9)
    assert duel_exact(2, 1, 2, 1, Fraction(1, 3)) == q / (1 - (1 - q) ** 2) == Fraction(9, 13)
    # nobody can hit: no winner; every die hits: the first volley wins
    assert duel_exact(2, 3, 2, 3, Fraction(0)) == 0  # nobody ever hits: no winner
    assert duel_exact(1, 2, 1, 2, Fraction(1)) == 1


def test_combat_rows_match_the_kernel_monte_carlo():
    rows = GAME.odds("combat", {}, 4000, 21)
    assert len(rows) == 27 + 13 * 4 + 6
    bad = [r for r in rows if abs(r.z) >= 4.5]
    assert not bad, bad[:3]
    assert any(r.case == "3 dice cripple a level-2 section within 2 volley(s)" for r in rows)


def test_combat_rows_follow_the_rules():
    rows = {r.case: r for r in GAME.odds("combat", {"combat.hit_min": 6}, 2000, 3)}
    assert abs(rows["1 dice: exactly 1 hits"].exact - 1 / 6) < 1e-12


@pytest.mark.slow
def test_whole_game_rates_match_the_rules():
    """Over whole games a flight mutinies on a 1: 1/6 exactly, whatever the policies; the
    tolerance comes from the sample size (|z| < 4.5)."""
    r = {p.key: p.default for p in GAME.params}
    seats = [{"strategy": n} for n in ("treasure_hunter", "crowd_avoider", "random", "random")]
    c = GAME.compile(r, [{**s, **{p.key: p.default for p in GAME.strategy(s["strategy"]).params}} for s in seats])
    g, s = GAME.play(c, 77, 0, 6000)
    col = GAME.seat_column_index
    flights, mutinies = int(s[:, :, col("flights")].sum()), int(s[:, :, col("mutinies")].sum())
    p = 1 / 6
    z = (mutinies / flights - p) / math.sqrt(p * (1 - p) / flights)
    assert flights > 5000 and abs(z) < 4.5, (flights, mutinies, z)
