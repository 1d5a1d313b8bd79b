"""Exact odds of Pirate's Peak sub-mechanics beside a Monte Carlo of the kernel's own code.

Exact values come from enumerating dice faces with fractions; the estimates call the
very njit mechanic functions the game kernel calls (squid_attempt_nb, whirlpool_attempt_nb,
fog_attempt_nb, interrupt_roll_nb, ship_attack_roll_nb), sample i on the stream
``seed_game_nb(rng, seed, i)``.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
from numba import njit

from ...rng import RNG_WORDS, seed_game_nb
from ..base import OddsRow
from .mechanics import (
    fog_attempt_nb,
    interrupt_roll_nb,
    ship_attack_roll_nb,
    squid_attempt_nb,
    whirlpool_attempt_nb,
)

MECHANICS = {
    "squid": "Giant Squid: escape per attempt and within k attempts, the instant move, "
    "the life-loss chance",
    "whirlpool": "Whirlpool: escape per roll and within k rolls up to the attempt limit",
    "fog": "Fog: chance a guess of 1..6 is within the tolerance of the roll",
    "cannon": "Cannon: search-interrupt outcomes and expected partial gold; ship attack hit chance",
}


# ----------------------------------------------------------------- Monte Carlo kernels


@njit(cache=True)
def squid_mc_nb(seed, samples, n_dice, escape_total, instant_total, life_total, max_k, out):
    """out[0] escapes on one attempt, [1] instant, [2] life losses, [3+k-1] escaped within k."""
    rng = np.zeros(RNG_WORDS, dtype=np.uint64)
    for i in range(samples):
        seed_game_nb(rng, seed, i)
        for k in range(1, max_k + 1):
            t = squid_attempt_nb(rng, n_dice)
            if k == 1:
                if t >= escape_total:
                    out[0] += 1
                if t >= instant_total:
                    out[1] += 1
                if t < escape_total and t <= life_total:
                    out[2] += 1
            if t >= escape_total:
                for j in range(k, max_k + 1):
                    out[2 + j] += 1
                break


@njit(cache=True)
def whirlpool_mc_nb(seed, samples, escape_roll, max_k, out):
    """out[k-1]: escaped within k rolls."""
    rng = np.zeros(RNG_WORDS, dtype=np.uint64)
    for i in range(samples):
        seed_game_nb(rng, seed, i)
        for k in range(1, max_k + 1):
            _, esc = whirlpool_attempt_nb(rng, escape_roll)
            if esc:
                for j in range(k, max_k + 1):
                    out[j - 1] += 1
                break


@njit(cache=True)
def fog_mc_nb(seed, samples, tolerance, out):
    """out[g-1]: successes with guess g."""
    rng = np.zeros(RNG_WORDS, dtype=np.uint64)
    for i in range(samples):
        seed_game_nb(rng, seed, i)
        for g in range(1, 7):
            _, ok = fog_attempt_nb(rng, g, tolerance)
            if ok:
                out[g - 1] += 1


@njit(cache=True)
def cannon_mc_nb(seed, samples, partial_multiplier, out):
    """out: [equal, attacker higher, partial, partial gold total, ship hits]."""
    rng = np.zeros(RNG_WORDS, dtype=np.uint64)
    for i in range(samples):
        seed_game_nb(rng, seed, i)
        _s, _a, gold, outcome = interrupt_roll_nb(rng, partial_multiplier)
        out[outcome] += 1
        out[3] += gold
        _ar, _dr, hit = ship_attack_roll_nb(rng)
        if hit:
            out[4] += 1


# ----------------------------------------------------------------- exact values


def dice_totals(n_dice: int) -> dict[int, Fraction]:
    """Exact distribution of the total of ``n_dice`` d6."""
    dist: dict[int, Fraction] = {}
    w = Fraction(1, 6**n_dice)
    for faces in itertools.product(range(1, 7), repeat=n_dice):
        t = sum(faces)
        dist[t] = dist.get(t, Fraction(0)) + w
    return dist


def squid_exact(n_dice, escape_total, instant_total, life_total, max_k):
    dist = dice_totals(n_dice)
    p_esc = sum((p for t, p in dist.items() if t >= escape_total), Fraction(0))
    p_inst = sum((p for t, p in dist.items() if t >= instant_total), Fraction(0))
    p_life = sum((p for t, p in dist.items() if t < escape_total and t <= life_total), Fraction(0))
    within = [1 - (1 - p_esc) ** k for k in range(1, max_k + 1)]
    return p_esc, p_inst, p_life, within


def whirlpool_exact(escape_roll, max_k):
    p = Fraction(max(0, min(6, 7 - escape_roll)), 6)
    return [1 - (1 - p) ** k for k in range(1, max_k + 1)]


def fog_exact(tolerance):
    return [
        Fraction(sum(1 for r in range(1, 7) if abs(r - g) <= tolerance), 6) for g in range(1, 7)
    ]


def cannon_exact(partial_multiplier):
    eq = Fraction(0)
    hi = Fraction(0)
    lo = Fraction(0)
    gold = Fraction(0)
    for s, a in itertools.product(range(1, 7), repeat=2):
        w = Fraction(1, 36)
        if a == s:
            eq += w
        elif a > s:
            hi += w
        else:
            lo += w
            gold += w * (s - a) * partial_multiplier
    hit = sum(
        (Fraction(1, 36) for a, d in itertools.product(range(1, 7), repeat=2) if a > d), Fraction(0)
    )
    return eq, hi, lo, gold, hit


def cannon_gold_second_moment(partial_multiplier):
    """E[gold^2] of an interrupted search (for the expected-gold row's standard deviation)."""
    return sum(
        (
            Fraction(1, 36) * ((s - a) * partial_multiplier) ** 2
            for s, a in itertools.product(range(1, 7), repeat=2)
            if s > a
        ),
        Fraction(0),
    )


# ----------------------------------------------------------------- rows


def odds_rows(mechanic: str, R, samples: int, seed: int) -> list[OddsRow]:
    seed_u = np.uint64(seed % 2**64)
    n = int(samples)
    if mechanic == "squid":
        max_k = max(3, R.squid_sacrifice_after)
        p_esc, p_inst, p_life, within = squid_exact(
            R.squid_dice,
            R.squid_escape_total,
            R.squid_instant_total,
            R.squid_life_loss_total,
            max_k,
        )
        out = np.zeros(3 + max_k, dtype=np.int64)
        squid_mc_nb(
            seed_u,
            n,
            R.squid_dice,
            R.squid_escape_total,
            R.squid_instant_total,
            R.squid_life_loss_total,
            max_k,
            out,
        )
        rows = [
            OddsRow(
                f"escape per attempt (total >= {R.squid_escape_total})", float(p_esc), out[0] / n, n
            ),
            OddsRow(
                f"instant move (total >= {R.squid_instant_total})", float(p_inst), out[1] / n, n
            ),
            OddsRow(
                f"life point lost per attempt (total <= {R.squid_life_loss_total})",
                float(p_life),
                out[2] / n,
                n,
            ),
        ]
        for k in range(1, max_k + 1):
            rows.append(
                OddsRow(f"escape within {k} attempt{'s' if k != 1 else ''}", float(within[k - 1]), out[2 + k] / n, n)
            )
        return rows
    if mechanic == "whirlpool":
        max_k = R.whirlpool_max_attempts
        exact = whirlpool_exact(R.whirlpool_escape_roll, max_k)
        out = np.zeros(max_k, dtype=np.int64)
        whirlpool_mc_nb(seed_u, n, R.whirlpool_escape_roll, max_k, out)
        rows = []
        for k in range(1, max_k + 1):
            label = f"escape within {k} roll{'s' if k != 1 else ''}" + (" (the attempt limit)" if k == max_k else "")
            rows.append(OddsRow(label, float(exact[k - 1]), out[k - 1] / n, n))
        return rows
    if mechanic == "fog":
        exact = fog_exact(R.fog_tolerance)
        out = np.zeros(6, dtype=np.int64)
        fog_mc_nb(seed_u, n, R.fog_tolerance, out)
        return [
            OddsRow(f"out of the fog calling {g}", float(exact[g - 1]), out[g - 1] / n, n)
            for g in range(1, 7)
        ]
    if mechanic == "cannon":
        m = R.partial_multiplier
        eq, hi, lo, gold, hit = cannon_exact(m)
        out = np.zeros(5, dtype=np.int64)
        cannon_mc_nb(seed_u, n, m, out)
        # the mean gold of a partly interrupted search, an expectation in gold: sd is the
        # exact per-sample standard deviation, so the row's stderr is sd / sqrt(samples)
        var = cannon_gold_second_moment(m) - gold * gold
        return [
            OddsRow("interrupt: equal rolls, no gold", float(eq), out[0] / n, n),
            OddsRow(
                "interrupt: attacker higher, no gold and a life point", float(hi), out[1] / n, n
            ),
            OddsRow("interrupt: attacker lower, partial gold", float(lo), out[2] / n, n),
            OddsRow(
                "interrupt: expected gold found (gold)",
                float(gold),
                out[3] / n,
                n,
                sd=float(var) ** 0.5,
            ),
            OddsRow("ship attack: hit (attacker higher)", float(hit), out[4] / n, n),
        ]
    raise KeyError(f"unknown mechanic {mechanic!r}; known: {', '.join(MECHANICS)}")
