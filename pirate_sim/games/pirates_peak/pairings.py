"""How strong are the players: every bundled strategy against every other.

For each pair of strategies (a, b) it plays ``games`` games with a in seat 0 and as many
with b in seat 0 (the same seeds, so the seatings are paired), and reports

* a's share of the points (a win 1, a tie or truncated game 1/2), both seatings pooled,
  with a normal 95% interval over games (the per-game score is bounded, n is large);
* the first-player win rate among decided games of that pairing (who moves first is
  rolled for, so it is spread evenly over the strategies), Wilson 95% interval: the
  first-player advantage depends on who plays whom.

A pairing with the ``search`` player plays at most SEARCH_PAIRING_GAMES per seating.

Used by the report page ``pirates_peak_players`` (a modest number of games with the
run's rules) and for the tables of docs/rules/pirates_peak.md:

    .venv/bin/python -m pirate_sim.games.pirates_peak.pairings --games 20000
"""

from __future__ import annotations

import argparse
import itertools
from dataclasses import dataclass

import numpy as np

from ...games.base import G_FIRST_SEAT, G_WINNER
from ...stats import Estimate, mean_ci, wilson

SEED = 20261129  # the seed of the documented tables
# A pairing with the search player plays at most this many games per seating: a search
# game costs about 2,000 scripted ones (docs/search.md), so a report's players page would
# otherwise take minutes; each Pairing says how many games it played (``games``).
SEARCH_PAIRING_GAMES = 30


@dataclass(frozen=True)
class Pairing:
    a: str
    b: str
    share_a: Estimate  # a's share of the points, both seatings
    first_wins: Estimate  # first player's win rate among decided games, both seatings
    wins_a: int
    wins_b: int
    ties: int  # ties and truncated games
    games: int  # both seatings together
    share_a_seat0: Estimate  # a's share with a in seat 0 ...
    share_a_seat1: Estimate  # ... and in seat 1 (who moves first is rolled for in both)


def _score(g, seat_of_a: int) -> np.ndarray:
    w = g[:, G_WINNER]
    return np.where(w == seat_of_a, 1.0, np.where(w < 0, 0.5, 0.0))


def play_pairing(game, rules: dict, a: str, b: str, games: int, seed: int = SEED,
                 seats: dict | None = None) -> Pairing:
    """a vs b over ``games`` games in each seating (``seats``: strategy name -> extra params)."""
    seats = seats or {}
    if "search" in (a, b):
        games = min(games, SEARCH_PAIRING_GAMES)
    sa = dict({"strategy": a}, **seats.get(a, {}))
    sb = dict({"strategy": b}, **seats.get(b, {}))
    g1, _ = game.play(game.compile(rules, [sa, sb]), seed, 0, games)
    g2, _ = game.play(game.compile(rules, [sb, sa]), seed, 0, games)
    s1, s2 = _score(g1, 0), _score(g2, 1)
    score = np.concatenate([s1, s2])
    win = np.concatenate([g1[:, G_WINNER], g2[:, G_WINNER]])
    first = np.concatenate([g1[:, G_FIRST_SEAT], g2[:, G_FIRST_SEAT]])
    decided = win >= 0
    a_won = np.concatenate([g1[:, G_WINNER] == 0, g2[:, G_WINNER] == 1])
    return Pairing(
        a,
        b,
        mean_ci(float(score.sum()), float((score**2).sum()), len(score)),
        wilson(int((win[decided] == first[decided]).sum()), int(decided.sum())),
        int(a_won.sum()),
        int((decided & ~a_won).sum()),
        int((~decided).sum()),
        len(score),
        mean_ci(float(s1.sum()), float((s1**2).sum()), len(s1)),
        mean_ci(float(s2.sum()), float((s2**2).sum()), len(s2)),
    )


def pairing_table(game, rules: dict, names, games: int, seed: int = SEED) -> list[Pairing]:
    """Every unordered pair of ``names`` (mirrors included)."""
    return [
        play_pairing(game, rules, a, b, games, seed)
        for a, b in itertools.combinations_with_replacement(names, 2)
    ]


def share(table: list[Pairing], row: str, col: str) -> Estimate:
    """row's share of the points against col (either order of the stored pair)."""
    for p in table:
        if (p.a, p.b) == (row, col):
            return p.share_a
        if (p.a, p.b) == (col, row):
            e = p.share_a
            return Estimate(1 - e.value, 1 - e.hi, 1 - e.lo, e.n, e.method)
    raise KeyError((row, col))


def markdown(table: list[Pairing], names) -> str:
    """The two tables of the rules page: row's share vs column, first-player win rate."""
    pct = "{:.1f}".format
    lines = ["| row wins vs column | " + " | ".join(names) + " |",
             "|---|" + "---|" * len(names)]
    for r in names:
        cells = []
        for c in names:
            e = share(table, r, c)
            cells.append("50.0" if r == c else f"{pct(100 * e.value)} ± {pct(100 * (e.hi - e.value))}")
        lines.append(f"| {r} | " + " | ".join(cells) + " |")
    lines += ["", "| pairing | first-named in seat 0 | first-named in seat 1 |", "|---|---|---|"]
    for p in table:
        if p.a != p.b:
            lines.append(f"| {p.a} vs {p.b} | {pct(100 * p.share_a_seat0.value)} ± "
                         f"{pct(100 * (p.share_a_seat0.hi - p.share_a_seat0.value))} | "
                         f"{pct(100 * p.share_a_seat1.value)} ± "
                         f"{pct(100 * (p.share_a_seat1.hi - p.share_a_seat1.value))} |")
    lines += ["", "| pairing | first player wins (decided games) | advantage |", "|---|---|---|"]
    for p in table:
        f = p.first_wins
        lines.append(f"| {p.a} vs {p.b} | {pct(100 * f.value)} [{pct(100 * f.lo)}, {pct(100 * f.hi)}] "
                     f"| {100 * (f.value - 0.5):+.1f} |")
    return "\n".join(lines)


def main(argv=None) -> int:
    from . import GAME
    from .rules import defaults

    ap = argparse.ArgumentParser(description="Pirate's Peak pairing table (rulebook defaults).")
    ap.add_argument("--games", type=int, default=20000, help="games per seating of each pair")
    ap.add_argument("--seed", type=int, default=SEED)
    args = ap.parse_args(argv)
    names = [s.name for s in GAME.strategies]
    table = pairing_table(GAME, defaults(), names, args.games, args.seed)
    print(f"VERSION {GAME.version}, seed {args.seed}, {args.games:,} games per seating of each pair")
    print(markdown(table, names))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
