"""Kernel tables built from a :class:`~.board.Board`: squares as nodes, neighbours, distances.

Every non-land square is a node; the two halves of a strait pair are one node (its
coordinates are the pair's first half).  ``nb[node, d]`` is the node one step away in
direction ``d`` (``rules.DX/DY``) or -1: orthogonal steps into any non-land square (from a
strait, out of whichever half is open that way), diagonal steps only from a tradewind
square to a tradewind square.  What a die's move may pass over is the kernel's business.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np

from .board import LAND, SEA, STRAIT, TRADEWIND, TREASURE_ANCHOR, Board
from .rules import DX, DY, N_DIRS, N_ORTHO
from .rules import SEA as K_SEA
from .rules import STRAIT as K_STRAIT
from .rules import WIND as K_WIND

UNREACHABLE = 999  # distance of a node from which the target cannot be reached


@dataclass
class Geometry:
    n_nodes: int
    node_xy: np.ndarray  # int32[n, 2]
    node_of: dict  # (x, y) -> node (both strait halves)
    kind: np.ndarray  # int32[n]: SEA, WIND, STRAIT
    is_anchor: np.ndarray  # int32[n]: 1 on the eight treasure anchor squares
    nb: np.ndarray  # int32[n, 6]
    dist: np.ndarray  # int16[n, n]: fewest single steps between nodes, ships ignored
    dist_island: np.ndarray  # int16[n]: fewest steps to a treasure anchor square
    dist_home: np.ndarray  # int16[5, n]: fewest treasure-ship steps to harbor h's anchor (row h)
    allowed: np.ndarray  # int32[5, 6]: 1 if a treasure ship of harbor h may move in direction d
    anchor_node: np.ndarray  # int32[5]: node of harbor h's anchor, -1 if absent
    start_nodes: np.ndarray  # int32[5, 3]: harbor h's starting squares, nearest the anchor first


def build(board: Board) -> Geometry:
    node_of: dict = {}
    xy = []
    pair_of = {}
    for a, b in board.pairs:
        pair_of[a] = b
        pair_of[b] = a
    for y in range(board.height):
        for x in range(board.width):
            c = board.at(x, y)
            if c in LAND or (x, y) in node_of:
                continue
            node_of[(x, y)] = len(xy)
            if (x, y) in pair_of:
                node_of[pair_of[(x, y)]] = len(xy)
            xy.append((x, y))
    n = len(xy)
    kind = np.zeros(n, np.int32)
    is_anchor = np.zeros(n, np.int32)
    nb = np.full((n, N_DIRS), -1, np.int32)
    for i, (x, y) in enumerate(xy):
        c = board.at(x, y)
        kind[i] = K_WIND if c == TRADEWIND else (K_STRAIT if c == STRAIT else K_SEA)
        is_anchor[i] = int(c == TREASURE_ANCHOR)
        halves = [(x, y)] + ([pair_of[(x, y)]] if (x, y) in pair_of else [])
        for d in range(N_DIRS):
            found = []
            for hx, hy in halves:
                q = (hx + DX[d], hy + DY[d])
                qc = board.at(*q)
                if qc in LAND:
                    continue
                if d >= N_ORTHO and (c != TRADEWIND or qc != TRADEWIND):
                    continue
                found.append(node_of[q])
            if len(found) > 1:
                raise ValueError(f"board: {board.source}: strait {halves} is open towards "
                                 f"({DX[d]},{DY[d]}) on both halves")
            if found:
                nb[i, d] = found[0]
    assert set(SEA) | {TRADEWIND, STRAIT} >= {board.at(*p) for p in xy}
    dist = np.full((n, n), UNREACHABLE, np.int16)
    for s in range(n):
        dist[s] = _bfs(nb, [s], range(N_DIRS), reverse=False)
    anchors = [node_of[p] for p in board.squares(TREASURE_ANCHOR)]
    dist_island = dist[:, anchors].min(axis=1).astype(np.int16)
    allowed = np.zeros((5, N_DIRS), np.int32)
    dist_home = np.full((5, n), UNREACHABLE, np.int16)
    anchor_node = np.full(5, -1, np.int32)
    start_nodes = np.full((5, 3), -1, np.int32)
    for h in board.harbors:
        hx, hy = h.home
        for d in range(N_DIRS):
            allowed[h.number, d] = int(DX[d] * hx + DY[d] * hy >= 0)
        anchor_node[h.number] = node_of[h.anchor]
        for k, p in enumerate(h.starts[:3]):
            start_nodes[h.number, k] = node_of[p]
        ok_dirs = [d for d in range(N_DIRS) if allowed[h.number, d]]
        dist_home[h.number] = _bfs(nb, [node_of[h.anchor]], ok_dirs, reverse=True)
    return Geometry(n, np.asarray(xy, np.int32), node_of, kind, is_anchor, nb, dist, dist_island,
                    dist_home, allowed, anchor_node, start_nodes)


def _bfs(nb: np.ndarray, sources, dirs, reverse: bool) -> np.ndarray:
    """Single-step distances from ``sources`` (``reverse``: to them) using directions ``dirs``."""
    n = nb.shape[0]
    out = np.full(n, UNREACHABLE, np.int16)
    dirs = list(dirs)
    pred: list[list[int]] = [[] for _ in range(n)]
    if reverse:
        for u in range(n):
            for d in dirs:
                v = nb[u, d]
                if v >= 0:
                    pred[v].append(u)
    q = deque()
    for s in sources:
        out[s] = 0
        q.append(s)
    while q:
        u = q.popleft()
        nxt = pred[u] if reverse else [nb[u, d] for d in dirs if nb[u, d] >= 0]
        for v in nxt:
            if out[v] == UNREACHABLE:
                out[v] = out[u] + 1
                q.append(v)
    return out


def trapped_squares(board: Board, geo: Geometry, harbor: int) -> list[tuple[int, int]]:
    """Squares from which a treasure ship of ``harbor`` can never reach home (ships ignored)."""
    return [tuple(int(v) for v in geo.node_xy[n]) for n in range(geo.n_nodes)
            if geo.dist_home[harbor, n] >= UNREACHABLE]


def poison_harbors(board: Board, geo: Geometry) -> dict[int, list[int]]:
    """For each harbor, the opponents' harbors whose anchor and starting squares all trap its
    treasure ship: taking the treasure there (by capturing a ship at home) leaves it stuck."""
    out = {}
    for h in board.harbors:
        trapped = set(trapped_squares(board, geo, h.number))
        out[h.number] = [o.number for o in board.harbors
                         if o.number != h.number and {o.anchor, *o.starts} <= trapped]
    return out
