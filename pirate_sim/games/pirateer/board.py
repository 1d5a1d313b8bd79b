"""The Pirateer board as data: parse a layout file (grid + legend) into a :class:`Board`.

The bundled layout is ``boards/default.txt`` (a copy of the project's shared reading of
the published board).  A scenario may point ``rules.board`` at another file in the same
format, so a designer can try another layout.  Format (see the default file):

* comment lines start with ``#``; two legend lines are read: ``N anchor (x,y) ...
  home direction [+-][xy]`` for each harbor, and ``(x,y) pairs with (x,y)`` for each
  strait pair;
* grid lines ``y <row> <cells>``, one character per square: ``#`` land, ``.`` open sea,
  ``~`` tradewind, ``K`` Skull Island, ``s`` treasure anchor square, ``A`` harbor anchor,
  ``1``-``4`` starting squares of that harbor, ``T`` strait half-square.

This module is the only code the slow reference and the kernel share: both read the
squares from a Board, nothing else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

LAND = "#K"  # characters no ship may enter or pass
SEA = ".sA1234"  # open sea (the anchors and starting squares are open sea too)
TRADEWIND = "~"
STRAIT = "T"
TREASURE_ANCHOR = "s"
HARBOR_ANCHOR = "A"
ALLOWED = set(LAND + SEA + TRADEWIND + STRAIT)

_ROW = re.compile(r"^y\s*(\d+)\s(.*)$")
_HARBOR = re.compile(r"(\d)\s+anchor\s+\((\d+)\s*,\s*(\d+)\).*?home direction\s+([+-])([xy])")
_PAIR = re.compile(r"\((\d+)\s*,\s*(\d+)\)\s+pairs with\s+\((\d+)\s*,\s*(\d+)\)")


@dataclass(frozen=True)
class Harbor:
    number: int  # 1..4 as printed on the board
    anchor: tuple[int, int]  # the anchor square at the end of the channel (bring the treasure here)
    starts: tuple[tuple[int, int], ...]  # starting squares, nearest the anchor first
    home: tuple[int, int]  # unit vector "toward home" (a treasure ship never moves against it)


@dataclass(frozen=True)
class Board:
    width: int
    height: int
    rows: tuple[str, ...]  # rows[y][x] is the square's character
    harbors: tuple[Harbor, ...]  # in harbor-number order
    pairs: tuple[tuple[tuple[int, int], tuple[int, int]], ...]  # strait halves joined into one square
    source: str = "<default>"

    def at(self, x: int, y: int) -> str:
        """The square's character; land (``#``) off the board."""
        if 0 <= x < self.width and 0 <= y < self.height:
            return self.rows[y][x]
        return "#"

    def squares(self, chars: str) -> list[tuple[int, int]]:
        return [(x, y) for y in range(self.height) for x in range(self.width) if self.rows[y][x] in chars]

    def harbor(self, number: int) -> Harbor:
        for h in self.harbors:
            if h.number == number:
                return h
        raise KeyError(number)


def parse_board(text: str, source: str = "<text>") -> Board:
    """A Board from a layout file's text; ``ValueError('board: ...')`` naming the problem."""

    def fail(msg: str):
        raise ValueError(f"board: {source}: {msg}")

    rows: dict[int, str] = {}
    homes: dict[int, tuple[tuple[int, int], tuple[int, int]]] = {}
    pairs = []
    for line in text.splitlines():
        if line.lstrip().startswith("#"):
            for m in _HARBOR.finditer(line):
                n, x, y, sign, axis = int(m[1]), int(m[2]), int(m[3]), m[4], m[5]
                v = 1 if sign == "+" else -1
                homes[n] = ((x, y), (v, 0) if axis == "x" else (0, v))
            for m in _PAIR.finditer(line):
                pairs.append(((int(m[1]), int(m[2])), (int(m[3]), int(m[4]))))
            continue
        m = _ROW.match(line.strip())
        if m:
            rows[int(m[1])] = m[2].rstrip()
    if not rows:
        fail("no grid lines ('y <row> <squares>')")
    height = max(rows) + 1
    if sorted(rows) != list(range(height)):
        fail("grid rows must be numbered 0..height-1 without gaps")
    width = len(rows[0])
    grid = tuple(rows[y] for y in range(height))
    for y, r in enumerate(grid):
        if len(r) != width:
            fail(f"row {y} has {len(r)} squares, row 0 has {width}")
        bad = set(r) - ALLOWED
        if bad:
            fail(f"row {y}: unknown square characters {''.join(sorted(bad))!r}")
    at = lambda x, y: grid[y][x] if 0 <= x < width and 0 <= y < height else "#"
    harbors = []
    numbers = sorted({int(c) for r in grid for c in r if c.isdigit()})
    if len(numbers) < 2:
        fail("needs starting squares of at least two harbors")
    for n in numbers:
        if n not in homes:
            fail(f"harbor {n} has starting squares but no legend line '{n} anchor (x,y) ... home direction +x'")
        anchor, home = homes[n]
        if at(*anchor) != HARBOR_ANCHOR:
            fail(f"harbor {n}: anchor {anchor} is not an 'A' square")
        starts = sorted(((x, y) for y in range(height) for x in range(width) if grid[y][x] == str(n)),
                        key=lambda p: (abs(p[0] - anchor[0]) + abs(p[1] - anchor[1]), p))
        harbors.append(Harbor(n, anchor, tuple(starts), home))
    for a, b in pairs:
        if at(*a) != STRAIT or at(*b) != STRAIT:
            fail(f"strait pair {a}-{b}: both halves must be 'T' squares")
    halves = [p for ab in pairs for p in ab]
    if len(set(halves)) != len(halves) or set(halves) != {(x, y) for y in range(height) for x in range(width)
                                                          if grid[y][x] == STRAIT}:
        fail("every 'T' square must belong to exactly one '(x,y) pairs with (x,y)' legend pair")
    if not any(TREASURE_ANCHOR in r for r in grid):
        fail("no treasure anchor squares ('s')")
    return Board(width, height, grid, tuple(harbors), tuple(pairs), source)


def default_board_text() -> str:
    return resources.files(__package__).joinpath("boards/default.txt").read_text()


def load_board(path: str | Path | None = None) -> Board:
    """The bundled board (``path`` empty or None) or the layout file at ``path``."""
    if not path:
        return parse_board(default_board_text(), "boards/default.txt")
    p = Path(path)
    try:
        text = p.read_text()
    except OSError as exc:
        raise ValueError(f"board: cannot read {p}: {exc.strerror}") from None
    return parse_board(text, str(p))
