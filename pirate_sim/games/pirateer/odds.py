"""``pirate-sim odds pirateer capture``: the chance that a ship can be captured with the
next roll, by where the attacker stands.

Each case puts one attacking ship and its target on an otherwise empty board (a second
target-side ship waits far away, so the capture is not the last).  *Exact*: all 36 rolls
through the slow reference (``reference.py``), counting those for which some legal play
lands on the target.  *Monte Carlo*: the kernel rolls the dice and asks its own generator
the same question.  On open sea in a straight line at distance d the exact value is
P(either die = d or the sum = d), which a test checks.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ..base import OddsRow
from . import kernel as K
from .reference import Position, apply_play, legal_plays
from .rules import MAX_PLAYS, PLAY_WIDTH
from .testing import new_state, set_position

FAR = (17, 5)  # where the target side's second ship waits (open sea, far from every case)

# (label, attacker square, target square) on the bundled board
CASES = (
    [(f"straight, open sea, {d} squares (0,13) -> ({d},13)", (0, 13), (d, 13)) for d in range(1, 10)]
    + [(f"right angle, {dx} across and {dy} down (11,5) -> ({11 + dx},{5 + dy})", (11, 5), (11 + dx, 5 + dy))
       for dx, dy in ((1, 1), (2, 1), (2, 2), (3, 1), (3, 2), (3, 3))]
    + [("through a strait: (3,6) N 2 onto the strait (3,4), N 1 out at (15,15)", (3, 6), (15, 15))]
    + [(f"through a strait: from the strait (3,4) N out through the seam, {k + 1} squares -> (15,{15 - k})",
        (3, 4), (15, 15 - k)) for k in range(0, 6)]
    + [(f"along a tradewind, {k} squares (3,12) -> ({3 + k},{12 - k})", (3, 12), (3 + k, 12 - k))
       for k in range(1, 10)]
)


def case_position(harbors, attacker, target) -> Position:
    return Position([(0, attacker), None, None, (1, target), (1, FAR), None], -1, tuple(harbors))


def capture_exact(board, pos: Position, single_die: str = "either") -> Fraction:
    """Share of the 36 rolls for which seat 0 has a legal play landing on ship 3."""
    target = pos.ships[3][1]
    hit = 0  # rolls with a capturing play
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            if any(_captures(board, pos, play, target) for play in legal_plays(board, pos, 0, d1, d2, single_die)):
                hit += 1
    return Fraction(hit, 36)


def _captures(board, pos: Position, play, target) -> bool:
    for move in play:
        after = apply_play(board, pos, (move,))
        if pos.ships[3] is not None and after.ships[3] is None:
            return True
        pos = after
    return False


def capture_rows(game, rules: dict, samples: int, seed: int) -> list[OddsRow]:
    r = dict(rules)
    r["ships_per_player"] = 3
    c = game.compile(r, [{"strategy": "random"}, {"strategy": "random"}])
    board = c.extra["board"]
    rows = []
    plays = np.zeros((MAX_PLAYS, PLAY_WIDTH), np.int32)
    for k, (label, attacker, target) in enumerate(CASES):
        if any(board.at(*sq) in "#K" for sq in (attacker, target, FAR)):
            continue  # another layout: the case's squares are not sea there
        pos = case_position(c.extra["harbors"], attacker, target)
        exact = capture_exact(board, pos, r.get("single_die", "either"))
        st, _ev, _rng = new_state(c)
        set_position(c, st, pos)
        a = c.arrays
        got = K.capture_mc_nb(np.uint64((seed + k) % 2**64), samples, c.params, a[0], a[1], a[2], a[6], st, 0, 3,
                              plays)
        rows.append(OddsRow(label, float(exact), got / samples, samples))
    return rows
