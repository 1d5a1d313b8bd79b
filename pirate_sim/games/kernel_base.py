"""The numba side of the game contract (``games/base.py`` is the Python side).

What every game kernel does the same way is written here once and called by each game:

* the event log: :func:`append_event_nb` writes one row of a game's trace, :func:`log_event_nb`
  also counts it in a word of the game's state;
* the outputs writers' copies of state words into output columns: :func:`copy_words_nb` over a
  table of (column, word) pairs that each game declares once beside its writer.

May import numba only; every game's kernel modules import it, so an edit here recompiles
every game (``pirate_sim/_cache.py`` keys each kernel by what it imports).
"""

from __future__ import annotations

from numba import njit


@njit(cache=True, _nrt=False, inline="always")
def append_event_nb(ev, row, c0, c1, c2, c3, c4, c5):
    """Write event row ``row`` of ``ev`` = (c0, ..., c5) when the log has room; True if written.

    Bulk runs pass a log with no rows, so logging costs one comparison there; a traced game
    passes a log with room and its game counts the rows this returns True for.
    """
    if row < ev.shape[0]:
        ev[row, 0] = c0
        ev[row, 1] = c1
        ev[row, 2] = c2
        ev[row, 3] = c3
        ev[row, 4] = c4
        ev[row, 5] = c5
        return True
    return False


@njit(cache=True, _nrt=False, inline="always")
def log_event_nb(st, ev, count, turn, seat, kind, a, b, c):
    """Event row (turn, seat, kind, a, b, c) after the ``st[count]`` rows logged so far, counted
    there when the log has room: every game's ``log_nb`` with its own count word and turn."""
    n = st[count]
    if append_event_nb(ev, n, turn, seat, kind, a, b, c):
        st[count] = n + 1


@njit(cache=True, _nrt=False, inline="always")
def copy_words_nb(dst, src, base, pairs):
    """``dst[c] = src[base + w]`` for every row ``(c, w)`` of ``pairs``: the output columns that
    copy a word of the state (a seat's block at ``base``), declared as one table beside a game's
    writer, so that a new counter is one row there and the writer keeps only its computed columns."""
    for i in range(pairs.shape[0]):
        dst[pairs[i, 0]] = src[base + pairs[i, 1]]


@njit(cache=True, _nrt=False, inline="always")
def copy_range_nb(dst, d0, src, s0, n):
    """``dst[d0:d0 + n] = src[s0:s0 + n]`` as a loop: numba counts a slice copy as an allocation,
    which the engine's loops compiled without reference counts refuse (engine_template.ENGINE_NRT)."""
    for i in range(n):
        dst[d0 + i] = src[s0 + i]


@njit(cache=True, _nrt=False, inline="always")
def copy_rows_nb(dst, src, n):
    """``dst[:n] = src[:n]`` for 2-D tables, as a loop (:func:`copy_range_nb`)."""
    for k in range(n):
        for c in range(dst.shape[1]):
            dst[k, c] = src[k, c]
