"""Ice Pirates odds: exact raid and wind probabilities against the kernel's Monte Carlo."""

from fractions import Fraction

import pytest

from pirate_sim.games.ice_pirates import GAME
from pirate_sim.games.ice_pirates.odds import raid_exact, roll_distribution


def test_roll_distributions():
    assert roll_distribution(False, 2) == {k: Fraction(1, 6) for k in range(1, 7)}
    two = roll_distribution(True, 2)
    assert two[6] == Fraction(11, 36) and two[1] == Fraction(1, 36) and sum(two.values()) == 1


def test_raid_exact_hand_values():
    # crew 1 each (no chips): scores are the dice, raider wins ties: P(r >= d) = 21/36
    assert raid_exact(0, 0, False, False, swashbuckle=False) == Fraction(21, 36)
    assert raid_exact(0, 0, False, False, ties_raider=False, swashbuckle=False) == Fraction(15, 36)
    # no chips: swashbuckling changes nothing
    assert raid_exact(0, 0, False, False, swashbuckle=True) == Fraction(21, 36)
    # a crew of 6 (5 chips + captain) scores 6 whatever it rolls
    assert raid_exact(5, 0, False, False, swashbuckle=False) == 1
    assert raid_exact(0, 5, False, False, swashbuckle=False) == Fraction(1, 6)  # raider needs a 6
    # raider 1 vs defender 2 (one chip): defender scores max(d, 2)
    p = sum(Fraction(1, 36) for r in range(1, 7) for d in range(1, 7) if r >= max(d, 2))
    assert raid_exact(0, 1, False, False, swashbuckle=False) == p


def test_swashbuckling_exact_by_hand():
    # raider 2 (one chip) vs defender 1 (no chips): the raider loses only if it loses the
    # first exchange and its swashbuckle (score max(roll, 1) = roll, ties to it) too.
    total = Fraction(0)
    for r in range(1, 7):
        for d in range(1, 7):
            if max(r, 2) >= d:
                total += Fraction(1, 36)
            else:
                total += Fraction(1, 36) * Fraction(sum(1 for y in range(1, 7) if y >= d), 6)
    assert raid_exact(1, 0, False, False, swashbuckle=True) == total


def test_raid_odds_rows_match_monte_carlo():
    rows = GAME.odds("raid", {}, 4000, 17)
    assert len(rows) == 3 * 2 * 49
    assert all(abs(r.z) < 4.5 for r in rows), [r for r in rows if abs(r.z) >= 4.5][:3]
    assert any("raider 3 vs defender 5, raider cannon, single exchange" == r.case for r in rows)


def test_raid_odds_defender_ties_rule():
    rows = GAME.odds("raid", {"raid.ties_to": "defender"}, 3000, 5)
    first = [r for r in rows if r.case == "raider 1 vs defender 1, no cannon, single exchange"][0]
    assert first.exact == pytest.approx(15 / 36)
    assert all(abs(r.z) < 4.5 for r in rows)


def test_wind_odds():
    rows = GAME.odds("wind", {"wind.weights": [3, 1, 1, 1, 1, 1]}, 50_000, 3)
    assert rows[0].exact == pytest.approx(3 / 8)
    assert all(abs(r.z) < 4.5 for r in rows)
    north_with = [r for r in rows if r.case == "heading N is with the wind"][0]
    # N is with the wind when it blows from SE, S or SW (Ports 3, 4, 5)
    assert north_with.exact == pytest.approx(3 / 8)


def test_unknown_mechanic():
    with pytest.raises(KeyError):
        GAME.odds("squid", {}, 10, 1)
