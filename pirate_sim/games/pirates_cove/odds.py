"""Exact combat odds of Pirate's Cove beside the kernel's own Monte Carlo (``odds combat``).

* hits of ``n`` dice: Binomial(n, p) with p = (7 - combat.hit_min) / 6;
* crippling a section of level ``k`` with ``n`` dice within ``v`` volleys (nobody fires
  back, every hit on that section): P(Binomial(n v, p) >= k) - the Monte Carlo fires the
  kernel's own ``volley_nb`` at a ship whose weakest section has level ``k``;
* a duel: ship A (faster) against ship B, both with Crew = Cannons = dice and a Hull
  below every other section, so both aim every volley at the other's Hull; exact by
  recursion over (A's Hull, B's Hull, who fires), the Monte Carlo is the kernel's own
  ``fight_nb`` (no fleeing, no cards).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import comb

import numpy as np

from ..base import OddsRow
from . import combat as C
from .policies import ST_FIGHTER

DICE = (1, 2, 3, 4, 5, 6)
BOMBARD = ((2, (1, 2, 3)), (3, (2, 3, 4)), (4, (2, 3, 4, 5)), (6, (3, 4, 5)))  # dice, section levels
VOLLEYS = 4  # cumulative rows for 1..VOLLEYS volleys
# (A dice, A hull, B dice, B hull): A is faster and fires first
DUELS = ((2, 1, 2, 1), (3, 2, 3, 2), (4, 2, 3, 2), (3, 2, 4, 3), (5, 3, 3, 2), (2, 1, 4, 3))


def hit_chance(hit_min: int) -> Fraction:
    return Fraction(max(0, min(6, 7 - hit_min)), 6)


def hits_pmf(n: int, p: Fraction) -> list[Fraction]:
    return [comb(n, h) * p ** h * (1 - p) ** (n - h) for h in range(n + 1)]


def cripple_within(n: int, level: int, volleys: int, p: Fraction) -> Fraction:
    """P(at least ``level`` hits from ``n`` dice in ``volleys`` volleys)."""
    return sum(hits_pmf(n * volleys, p)[level:], Fraction(0))


def duel_exact(na: int, ha: int, nb: int, hb: int, p: Fraction) -> Fraction:
    """P(A wins): A fires first, volleys alternate, each hit lowers the other's Hull."""
    pa, pb = hits_pmf(na, p), hits_pmf(nb, p)

    @lru_cache(maxsize=None)
    def a_turn(x: int, y: int) -> Fraction:
        # x, y: A's and B's Hull; solve the zero-hit loop a_turn = pa0 * b_turn + ..., b_turn = pb0 * a_turn + ...
        xa = sum((pa[h] if h >= y else pa[h] * b_turn(x, y - h)) for h in range(1, na + 1))
        yb = sum((0 if h >= x else pb[h] * a_turn(x - h, y)) for h in range(1, nb + 1))
        denom = 1 - pa[0] * pb[0]
        return (xa + pa[0] * yb) / denom if denom else Fraction(0)

    @lru_cache(maxsize=None)
    def b_turn(x: int, y: int) -> Fraction:
        yb = sum((0 if h >= x else pb[h] * a_turn(x - h, y)) for h in range(1, nb + 1))
        xa = sum((pa[h] if h >= y else pa[h] * b_turn(x, y - h)) for h in range(1, na + 1))
        denom = 1 - pa[0] * pb[0]
        return (yb + pb[0] * xa) / denom if denom else Fraction(0)

    return a_turn(ha, hb)


def _ship(dice: int, hull: int, sails: int) -> np.ndarray:
    other = max(dice, hull) + 1  # every other section above the Hull: it is the weakest
    return np.array([hull, sails, dice if dice > hull else other, dice if dice > hull else other], np.int32)


def combat_rows(game, rules: dict, samples: int, seed: int) -> list[OddsRow]:
    seats = [{"strategy": "fighter"}, {"strategy": "fighter"}]
    c = game.compile(rules, seats + [{"strategy": "fighter"}])
    P = c.params
    strat = np.full(3, ST_FIGHTER, np.int32)
    sp = c.arrays[6]
    p = hit_chance(int(rules["combat.hit_min"]))
    rows: list[OddsRow] = []
    case = np.uint64(seed % 2**64)
    for n in DICE:
        counts = np.zeros(n + 1, np.int64)
        C.volley_hits_mc_nb(case, samples, n, P.hit_min, counts)
        case += np.uint64(1)
        for h, ex in enumerate(hits_pmf(n, p)):
            rows.append(OddsRow(f"{n} dice: exactly {h} hits", float(ex), counts[h] / samples, samples))
    for n, levels in BOMBARD:
        for lvl in levels:
            counts = np.zeros(VOLLEYS + 1, np.int64)
            C.bombard_mc_nb(case, samples, P, strat, sp, n, lvl, counts)
            case += np.uint64(1)
            for v in range(1, VOLLEYS + 1):
                est = counts[1:v + 1].sum() / samples
                rows.append(OddsRow(f"{n} dice cripple a level-{lvl} section within {v} volley(s)",
                                    float(cripple_within(n, lvl, v, p)), float(est), samples))
    for na, ha, nb, hb in DUELS:
        a, b = _ship(na, ha, 9), _ship(nb, hb, 8)
        out = np.zeros(2, np.int64)
        C.duel_mc_nb(case, samples, P, strat, sp, a, b, out)
        case += np.uint64(1)
        rows.append(OddsRow(f"duel: A {na} dice Hull {ha} (fires first) beats B {nb} dice Hull {hb}",
                            float(duel_exact(na, ha, nb, hb, p)), out[0] / samples, samples))
    return rows
