"""A slow, plain-Python Pirateer move generator read straight off the rulebook.

It shares nothing with the kernel but the parsed :class:`~.board.Board`: squares are
``(x, y)`` coordinates, a position is a list of ships, and every rule is a line or two
below, in the rulebook's words.  Tests hold the kernel's fast generator to it (the same
set of plays for a position and a roll) and replay traced games through it.

A *move* is one die moving one ship: ``(ship, (dx, dy), die, take)`` where ``take`` is 1
when the ship takes the treasure on the square it lands on.  A *play* is the tuple of
moves of one turn, in the order made: two moves; or one when that move wins the game at
once (the game ends the moment the treasure reaches home or the last opposing ship is
captured, so nothing is left to play); or, when no play uses both dice, one move of
either die, winning or not.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .board import SEA, STRAIT, TRADEWIND, TREASURE_ANCHOR, Board

# "Ships can only move with the lines of the board on open sea": the four orthogonal steps.
ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))
# "Ships can move diagonally within the tradewinds": along a band, steps (+1,-1) / (-1,+1).
DIAGONAL = ((1, -1), (-1, 1))


@dataclass
class Position:
    """Who is where: ``ships[i] = (seat, (x, y))`` or None once captured."""

    ships: list
    treasure: int = -1  # -1 on Skull Island, else the ship carrying it
    harbors: tuple = ()  # harbor number of each seat
    notes: dict = field(default_factory=dict)

    def copy(self) -> Position:
        return Position(list(self.ships), self.treasure, self.harbors)


def partner(board: Board, sq):
    """The other half of a strait square, or None."""
    for a, b in board.pairs:
        if sq == a:
            return b
        if sq == b:
            return a
    return None


def same_square(board: Board, p, q) -> bool:
    """Strait halves are one square: "a ship on one half also occupies the other"."""
    return p == q or partner(board, p) == q


def ship_on(board: Board, pos: Position, sq):
    for i, s in enumerate(pos.ships):
        if s is not None and same_square(board, s[1], sq):
            return i
    return None


def step(board: Board, sq, d):
    """The square one step from ``sq`` in direction ``d``; None into land or off the board.

    From a strait square the step may leave through either half: the pair is one square
    whose sides are the open sides of its two halves (the seam of a cylinder)."""
    halves = [sq] + ([partner(board, sq)] if board.at(*sq) == STRAIT else [])
    out = []
    for h in halves:
        n = (h[0] + d[0], h[1] + d[1])
        if board.at(*n) not in "#K":
            out.append(n)
    if len(out) > 1:
        raise ValueError(f"strait {sq}: both halves open towards {d}")
    return out[0] if out else None


def die_moves(board: Board, pos: Position, ship: int, die: int):
    """Every ``(direction, landing square)`` for ``ship`` moving ``die`` squares."""
    seat, start = pos.ships[ship]
    home = board.harbor(pos.harbors[seat]).home
    out = []
    for d in ORTHOGONAL + DIAGONAL:
        # "A treasure ship cannot move outward, or directly away from its harbor."
        if pos.treasure == ship and d[0] * home[0] + d[1] * home[1] < 0:
            continue
        # Diagonal moves only within the tradewinds.
        if d in DIAGONAL and board.at(*start) != TRADEWIND:
            continue
        sq = start
        ok = True
        for i in range(1, die + 1):
            sq = step(board, sq, d)
            if sq is None:  # "nor through land"
                ok = False
                break
            kind = board.at(*sq)
            # "Ships cannot move diagonally from the tradewinds": every diagonal step stays on the band.
            if d in DIAGONAL and kind != TRADEWIND:
                ok = False
                break
            other = ship_on(board, pos, sq)
            if i < die:
                if other is not None:  # "nor can they cross other ships"
                    ok = False
                    break
                # "cannot jump across the tradewinds / straits with a move from one die":
                # an orthogonal move passes over open sea only.
                if d in ORTHOGONAL and kind not in SEA:
                    ok = False
                    break
            elif other is not None and pos.ships[other][0] == seat:  # "cannot capture ships of their own flag"
                ok = False
        if ok:
            out.append((d, sq))
    return out


def apply_move(board: Board, pos: Position, ship: int, sq, take: int) -> Position:
    """The position after ``ship`` lands on ``sq`` (capturing whoever is there)."""
    new = pos.copy()
    victim = ship_on(board, new, sq)
    if victim is not None:  # "Once captured, ships are removed from play"
        new.ships[victim] = None
        if new.treasure == victim:  # "the treasure is taken by the capturing ship"
            new.treasure = ship
    new.ships[ship] = (pos.ships[ship][0], sq)
    if take:
        new.treasure = ship
    return new


def wins(board: Board, pos: Position, seat: int) -> bool:
    """The treasure on the seat's anchor square, or no opposing ship left."""
    t = pos.treasure
    if t >= 0 and pos.ships[t] is not None and pos.ships[t][0] == seat:
        if pos.ships[t][1] == board.harbor(pos.harbors[seat]).anchor:
            return True
    return not any(s is not None and s[0] != seat for s in pos.ships)


def single_moves(board: Board, pos: Position, seat: int, die: int):
    """Every move of one die: ``((ship, d, die, take), position after)``."""
    out = []
    for i, s in enumerate(pos.ships):
        if s is None or s[0] != seat:
            continue
        for d, sq in die_moves(board, pos, i, die):
            takes = [0]
            # "take the treasure ... by landing in any of eight anchor spaces" (optional)
            if pos.treasure == -1 and board.at(*sq) == TREASURE_ANCHOR:
                takes.append(1)
            for take in takes:
                out.append(((i, d, die, take), apply_move(board, pos, i, sq, take)))
    return out


def legal_plays(board: Board, pos: Position, seat: int, d1: int, d2: int, single_die: str = "either") -> set:
    """Every legal play of ``seat`` for the roll ``(d1, d2)``.

    "Both dice must be used for movement wherever possible. If it is not possible to move
    with both dice, one die may be used" (``single_die='larger'``: the larger die when it
    can move, as in backgammon)."""
    both, winning = set(), set()
    orders = [(d1, d2)] if d1 == d2 else [(d1, d2), (d2, d1)]
    for a, b in orders:
        for m1, p1 in single_moves(board, pos, seat, a):
            if wins(board, p1, seat):  # the game ends: nothing is left to play
                winning.add((m1,))
                continue
            for m2, _p2 in single_moves(board, p1, seat, b):
                both.add((m1, m2))
    if both:  # some play uses both dice: those, and a first move that wins
        return both | winning
    # none does: "one die may be used", any one-die move (the winning ones among them)
    one = {}
    for die in sorted({d1, d2}, reverse=True):
        one[die] = {(m,) for m, _p in single_moves(board, pos, seat, die)}
    if single_die == "larger":
        for die in sorted(one, reverse=True):
            if one[die]:
                return one[die]
        return set()
    return set().union(*one.values())


def apply_play(board: Board, pos: Position, play) -> Position:
    for ship, d, die, take in play:
        sq = dict(die_moves(board, pos, ship, die))[d]
        pos = apply_move(board, pos, ship, sq, take)
    return pos


def start_position(board: Board, harbors, ships_per_seat: int) -> Position:
    """Each seat's ships on the starting squares next to its anchor, nearest first."""
    ships = []
    for seat, h in enumerate(harbors):
        for k in range(ships_per_seat):
            ships.append((seat, board.harbor(h).starts[k]))
    return Position(ships, -1, tuple(harbors))
