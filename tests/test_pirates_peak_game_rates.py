"""Whole-game rates against exact values: the kernel's encounters roll fair dice.

Pooled over 100,000 full games (ratio metrics, delta-method standard errors), the
per-attempt rates of sub-mechanics must match their exact probabilities within 4.5
standard errors: a rule applied with a wrong threshold or an attempt miscounted shows up.
"""

from pathlib import Path

import pytest

from pirate_sim import metrics, runner, scenario

ROOT = Path(__file__).resolve().parents[1]
GAMES = 100_000

EXACT = {
    "ratio.squid_escape_rate": 81 / 216,  # P(3d6 >= 12), the instant 18 included
    "ratio.whirlpool_escape_rate": 1 / 6,  # a 6 escapes
    "ratio.cannon_hit_rate": 15 / 36,  # attacker strictly higher (interrupts: higher = life point too)
}


@pytest.fixture(scope="module")
def estimates():
    s = scenario.load(ROOT / "scenarios/pirates_peak/digger_vs_gunner.toml", [f"run.games={GAMES}"])
    return metrics.compute(runner.run(s, None).accumulator)


@pytest.mark.parametrize("name", sorted(EXACT))
def test_pooled_rate_matches_exact_value(estimates, name):
    e = estimates[name]
    se = e.half_width / 1.959964
    assert e.n == GAMES and se > 0
    assert abs(e.value - EXACT[name]) < 4.5 * se, (name, e, EXACT[name])


def test_squid_escape_threshold_is_a_parameter():
    s = scenario.load(ROOT / "scenarios/pirates_peak/digger_vs_gunner.toml",
                      ["run.games=40000", "rules.squid.escape_total=13"])
    e = metrics.compute(runner.run(s, None).accumulator)["ratio.squid_escape_rate"]
    exact = 56 / 216  # P(3d6 >= 13)
    assert abs(e.value - exact) < 4.5 * e.half_width / 1.959964
