"""Overlap the kernel with what follows it: a bounded producer/consumer pipeline.

A run's work per piece of games is the kernel (compiled, parallel, GIL released) then
accumulating, building Arrow tables and writing Parquet.  Done one after the other,
every core but one idles while the post-kernel work runs.  Here a producer thread plays
piece after piece and hands them over through a queue of at most ``depth`` pieces,
while the caller consumes them in game order: the kernel of the next piece runs while
the last is accumulated and written, and memory stays a few pieces whatever the run's
size.

Pieces subdivide the run's chunks (the Parquet parts) so that progress and stop rules
see the run move often; their size adapts to the kernel's speed (about
``PIECE_SECONDS`` of kernel time each).  Game ``k`` depends only on ``(seed, k)``, so
the piece sizes change nothing in the results.
"""

from __future__ import annotations

import queue
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterator

# Kernel time per piece: progress moves 4 times a second.  On all cores each piece ends at
# a barrier where a kernel thread delayed by the writing holds the others, so fewer
# pieces pay (Pirate's Peak, 2 threads: 0.1 s 78-80% of the kernel, 0.3 s 80-83%).
PIECE_SECONDS = 0.25
MIN_PIECE = 1_000  # games: the first piece (speed unknown) and the smallest
DEPTH = 2  # pieces played ahead of the consumer: enough to keep the kernel busy, memory stays flat
_POLL_S = 0.05  # how often a blocked producer looks whether the consumer has gone
# How long an interrupted consumer waits for the producer's piece: a kernel that never
# returns (a strategy file in a loop) must not hold a Ctrl-C / SIGTERM stop.
STOP_WAIT_S = 2.0


@dataclass
class Piece:
    chunk: int  # index of the chunk (Parquet part) the games belong to
    start: int  # first game
    stop: int  # one past the last game
    last: bool  # the chunk's last piece
    result: Any  # what ``produce(start, stop)`` returned
    seconds: float  # time ``produce`` took


class _Failed:
    def __init__(self, exc: BaseException):
        self.exc = exc


_DONE = object()


def _with_last(items: Iterator) -> Iterator:
    """``(*item, is_last)`` for each item of a one-pass iterator."""
    it = iter(items)
    try:
        prev = next(it)
    except StopIteration:
        return
    for item in it:
        yield (*prev, False)
        prev = item
    yield (*prev, True)


def pieces(bounds: list[tuple[int, int]], produce: Callable[[int, int], Any], first_chunk: int = 0,
           depth: int = DEPTH, setup: Callable[[], None] | None = None,
           piece_seconds: float | None = None, min_piece: int | None = None) -> Iterator[Piece]:
    """Yield the pieces of the chunks ``bounds`` (chunk indices from ``first_chunk``) in game order.

    ``produce(start, stop)`` runs in a producer thread (``setup()`` first, in that thread:
    numba's thread count is per thread); an exception there is raised here.  Closing the
    iterator early (``break``, an exception in the consumer) stops the producer after its
    current piece and waits for it.
    """
    piece_seconds = PIECE_SECONDS if piece_seconds is None else piece_seconds
    min_piece = MIN_PIECE if min_piece is None else min_piece
    q: queue.Queue = queue.Queue(maxsize=max(1, depth))
    gone = threading.Event()

    def put(item) -> bool:
        while not gone.is_set():
            try:
                q.put(item, timeout=_POLL_S)
                return True
            except queue.Full:
                continue
        return False

    def work() -> None:
        try:
            if setup is not None:
                setup()
            size = min_piece
            for c, (a, b), last_chunk in _with_last(enumerate(bounds, start=first_chunk)):
                while a < b:
                    if gone.is_set():
                        return
                    stop = min(b, a + size)
                    if last_chunk and stop == b and b - a > min_piece:
                        # the run's end: halve the pieces, so that what the consumer does with
                        # a piece overlaps the next one and little is left after the last game
                        stop = a + max(min_piece, (b - a) // 2)
                    t = time.perf_counter()
                    out = produce(a, stop)
                    dt = time.perf_counter() - t
                    if not put(Piece(c, a, stop, stop == b, out, dt)):
                        return
                    size = max(min_piece, int((stop - a) * piece_seconds / max(dt, 1e-6)))
                    a = stop
            put(_DONE)
        except BaseException as exc:  # handed to the consumer, raised there
            put(_Failed(exc))

    worker = threading.Thread(target=work, name="pirate-sim-kernel", daemon=True)
    worker.start()
    wait = None
    try:
        while True:
            item = q.get()
            if item is _DONE:
                return
            if isinstance(item, _Failed):
                raise item.exc
            yield item
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM (pirate_sim.cli.common.Interrupted)
        wait = STOP_WAIT_S
        raise
    finally:
        gone.set()
        worker.join(wait)
