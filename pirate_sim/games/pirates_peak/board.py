"""Small njit helpers on the laid track, shared by the kernel and the strategies.

Track picture (physical space indices ``x``; D = dock.spaces, P = the Peak space)::

    x:  0 1 .. D-1 | D ...... | ...... | P
        Starting    journey     journey  Pirate's Peak card (one turning space)
        Dock card   card 1      card 2

A ship's progress ``d`` runs 0..P on the way out and P+1..2P on the way back over the
same spaces in reverse (x = 2P - d); docking is d == 2P (x == 0) with an exact roll.
"""

from __future__ import annotations

from numba import njit

from .rules import G_PEAK_X, ROW_ST


@njit(cache=True, inline="always", _nrt=False)
def phys_nb(w, d):
    """Physical space index of progress ``d``."""
    p = w[ROW_ST, G_PEAK_X]
    if p < 0 or d <= p:
        return d
    return 2 * p - d


@njit(cache=True, inline="always", _nrt=False)
def dock_progress_nb(w):
    """Progress of the dock (2P), or a large number while the Peak is unknown."""
    p = w[ROW_ST, G_PEAK_X]
    if p < 0:
        return 1 << 30
    return 2 * p
