"""Pirate's Peak odds: exact values by hand, and the kernel's Monte Carlo within 4.5 SE."""

from __future__ import annotations

from fractions import Fraction

import pytest

from pirate_sim.games.pirates_peak import GAME
from pirate_sim.games.pirates_peak import odds as O
from pirate_sim.games.pirates_peak import rules as r

N = 200_000


def rows(mechanic, **rules):
    rr = r.defaults()
    rr.update({k.replace("__", "."): v for k, v in rules.items()})
    return GAME.odds(mechanic, rr, N, 42)


def test_hand_computed_exact_values():
    p_esc, p_inst, p_life, within = O.squid_exact(3, 12, 18, 6, 3)
    assert p_esc == Fraction(81, 216) and p_inst == Fraction(1, 216) and p_life == Fraction(20, 216)
    assert within[2] == 1 - Fraction(135, 216) ** 3
    assert O.whirlpool_exact(6, 5)[-1] == 1 - Fraction(5, 6) ** 5
    assert O.fog_exact(1) == [
        Fraction(2, 6),
        Fraction(3, 6),
        Fraction(3, 6),
        Fraction(3, 6),
        Fraction(3, 6),
        Fraction(2, 6),
    ]
    eq, hi, lo, gold, hit = O.cannon_exact(2)
    assert (eq, hi, lo, hit) == (
        Fraction(6, 36),
        Fraction(15, 36),
        Fraction(15, 36),
        Fraction(15, 36),
    )
    assert gold == Fraction(70, 36)  # 2 x sum over s > a of (s - a) / 36 = 2 x 35 / 36
    # E[gold^2] = 4 x sum over s > a of (s - a)^2 / 36 = 4 x 105 / 36
    assert O.cannon_gold_second_moment(2) == Fraction(420, 36)


def test_expected_gold_row_is_in_gold_with_its_sd():
    cannon = rows("cannon")
    row = next(x for x in cannon if "expected gold" in x.case)
    assert row.exact == pytest.approx(70 / 36)
    assert row.sd == pytest.approx((420 / 36 - (70 / 36) ** 2) ** 0.5)
    assert row.stderr == pytest.approx(row.sd / N**0.5) and abs(row.z) < 4.5
    probabilities = [x for x in cannon if x is not row]
    assert all(x.sd is None for x in probabilities)


@pytest.mark.parametrize("mechanic", sorted(GAME.odds_mechanics))
def test_monte_carlo_matches_exact(mechanic):
    out = rows(mechanic)
    assert out
    for row in out:
        assert row.samples == N
        assert abs(row.z) < 4.5, (row.case, row.exact, row.estimate)


def test_odds_respect_rules_params():
    out = {row.case: row for row in rows("squid", squid__escape_total=11)}
    row = out["escape per attempt (total >= 11)"]
    assert row.exact == pytest.approx(108 / 216) and abs(row.z) < 4.5
    fog = rows("fog", fog__tolerance=0)
    assert all(row.exact == pytest.approx(1 / 6) for row in fog)


def test_unknown_mechanic():
    with pytest.raises(KeyError):
        rows("kraken")
