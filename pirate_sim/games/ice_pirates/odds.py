"""Exact odds of Ice Pirates' sub-mechanics beside the kernel's own Monte Carlo.

* ``raid``: the chance that the raider wins, for crews 1..7 on each side (captain
  included, so 0..6 chips), with no Cannon or a Cannon on either side, for a single
  exchange and with swashbuckling.  Swashbuckling assumption: the losing side always
  swashbuckles while it has a chip (both sides, every time).
* ``wind``: the wind's distribution and the chance that a heading is with the wind,
  a tack, or rowing.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import numpy as np

from ..base import OddsRow
from .turn import raid_mc_nb, wind_mc_nb
from .rules import DIR_NAMES, PORT_NAMES, TACK, WITH, relation_table


def roll_distribution(cannon: bool, cannon_dice: int) -> dict[int, Fraction]:
    """Distribution of one raid roll: one d6, or the highest of ``cannon_dice`` d6."""
    n = cannon_dice if cannon else 1
    return {k: Fraction(k ** n - (k - 1) ** n, 6 ** n) for k in range(1, 7)}


def _score(roll: int, chips: int, max_score: int) -> int:
    return min(max(roll, chips + 1), max_score)


def raid_exact(r_chips: int, d_chips: int, r_cannon: bool, d_cannon: bool, *, ties_raider: bool = True,
               swash_ties_swash: bool = True, max_score: int = 6, cannon_dice: int = 2,
               swashbuckle: bool = True) -> Fraction:
    """Exact P(raider wins): the first exchange, then :func:`_after_exchange`'s recursion."""
    dist = {False: roll_distribution(False, cannon_dice), True: roll_distribution(True, cannon_dice)}
    after = _after_exchange(r_cannon, d_cannon, swash_ties_swash, max_score, cannon_dice, swashbuckle)
    total = Fraction(0)
    for x, px in dist[r_cannon].items():
        for y, py in dist[d_cannon].items():
            rs = _score(x, r_chips, max_score)
            ds = _score(y, d_chips, max_score)
            won = rs > ds or (rs == ds and ties_raider)
            total += px * py * after(won, r_chips, d_chips, x, y)
    return total


@lru_cache(maxsize=64)  # one recursion per rules and cannons, shared by every starting crew
def _after_exchange(r_cannon: bool, d_cannon: bool, swash_ties_swash: bool, max_score: int, cannon_dice: int,
                    swashbuckle: bool):
    """P(raider wins | who won the last exchange, chips left, the kept rolls), memoised: a
    recursion over (loser, chips left, the other's kept roll), the loser swashbuckling while it
    has a chip.  It does not depend on the crews a raid starts with, so the raid matrix's 49
    starts share it."""
    dist = {False: roll_distribution(False, cannon_dice), True: roll_distribution(True, cannon_dice)}
    cannon = (r_cannon, d_cannon)

    @lru_cache(maxsize=None)
    def after(raider_won: bool, rc: int, dc: int, r_roll: int, d_roll: int) -> Fraction:
        # the losing side swashbuckles if it has a chip
        if not swashbuckle:
            return Fraction(int(raider_won))
        if raider_won:
            if dc == 0:
                return Fraction(1)
            total = Fraction(0)
            for y, p in dist[cannon[1]].items():
                ds = _score(y, dc - 1, max_score)
                rs = _score(r_roll, rc, max_score)
                d_wins = ds > rs or (ds == rs and swash_ties_swash)
                total += p * after(not d_wins, rc, dc - 1, r_roll, y)
            return total
        if rc == 0:
            return Fraction(0)
        total = Fraction(0)
        for y, p in dist[cannon[0]].items():
            rs = _score(y, rc - 1, max_score)
            ds = _score(d_roll, dc, max_score)
            r_wins = rs > ds or (rs == ds and swash_ties_swash)
            total += p * after(r_wins, rc - 1, dc, y, d_roll)
        return total

    return after


def raid_rows(rules: dict, samples: int, seed: int) -> list[OddsRow]:
    ties_raider = rules.get("raid.ties_to", "raider") == "raider"
    swash_ties = rules.get("raid.swashbuckle_ties_to", "swashbuckler") == "swashbuckler"
    max_score = int(rules.get("raid.max_score", 6))
    cannon_dice = int(rules.get("raid.cannon_dice", 2))
    rows = []
    case_seed = seed
    for label, rcan, dcan in (("no cannon", False, False), ("raider cannon", True, False),
                              ("defender cannon", False, True)):
        for swash in (False, True):
            for r_crew in range(1, 8):
                for d_crew in range(1, 8):
                    exact = raid_exact(r_crew - 1, d_crew - 1, rcan, dcan, ties_raider=ties_raider,
                                       swash_ties_swash=swash_ties, max_score=max_score,
                                       cannon_dice=cannon_dice, swashbuckle=swash)
                    case_seed += 1
                    wins = raid_mc_nb(np.uint64(case_seed), samples, r_crew - 1, d_crew - 1, rcan, dcan,
                                      ties_raider, swash_ties, max_score, cannon_dice, swash)
                    mode = "swashbuckling while chips last" if swash else "single exchange"
                    rows.append(OddsRow(f"raider {r_crew} vs defender {d_crew}, {label}, {mode}",
                                        float(exact), wins / samples, samples))
    return rows


def wind_rows(rules: dict, samples: int, seed: int) -> list[OddsRow]:
    weights = np.asarray(rules.get("wind.weights", [1.0] * 6), np.float64)
    cum = np.cumsum(weights)
    counts = np.zeros(6, np.int64)
    wind_mc_nb(np.uint64(seed), samples, cum, counts)
    p = weights / weights.sum()
    est = counts / samples
    rel = relation_table()
    rows = [OddsRow(f"wind blows from Port {w + 1} ({PORT_NAMES[w]})", float(p[w]), float(est[w]), samples)
            for w in range(6)]
    for d in range(6):
        for kind, name in ((WITH, "with the wind"), (TACK, "a tack")):
            ex = float(sum(p[w] for w in range(6) if rel[w, d] == kind))
            mc = float(sum(est[w] for w in range(6) if rel[w, d] == kind))
            rows.append(OddsRow(f"heading {DIR_NAMES[d]} is {name}", ex, mc, samples))
    return rows
