"""A chunk's games on several threads, from Python: the compiled kernel plays one block of games
on one thread (``nogil``) and this module hands the blocks out.

Why not numba's ``prange``: a parallel driver compiles its loop's body twice (the body as a
gufunc, then the driver that links it), and the body holds a game's whole machine code.  A
per-function compile profile of Ice Pirates' first default run (docs/performance.md, "One
compiled block a chunk") measured the chunk driver at 25-27 s as a ``prange`` and 10 s as a
serial block, every callee already compiled.  The games are the same whatever the blocks and
threads: game k's stream is derived from (seed, k) alone.

Blocks are handed out as threads come free (a thread delayed by other work, the run's Parquet
writing, takes fewer), as numba's dynamic schedule did (``runner.PARALLEL_CHUNK``).  The
calling thread plays blocks too; Ctrl-C (or SIGTERM turned into an exception) is seen between
its blocks, the other threads finish the block they are in, no block starts after it, and the
exception goes on.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable

from .interrupts import safe_ctrl_c

# Blocks per thread in a call: enough to even out threads that other work delays (a call's
# blocks are handed out as threads come free), few enough that a block's fixed cost (about
# 12 us: the call from Python and the block's scratch, measured on Ice Pirates and Pirate's
# Cove) stays far below a run's pieces of about 0.1 s (pipeline.PIECE_SECONDS).  One thread
# plays a call's games as one block.  Results never depend on it.
BLOCKS_PER_THREAD = 8


def block_bounds(n: int, n_blocks: int, b: int) -> tuple[int, int]:
    """Games ``lo .. hi - 1`` of block ``b`` of ``n`` split into ``n_blocks`` near-equal blocks."""
    return (n * b) // n_blocks, (n * (b + 1)) // n_blocks


def threads_in_use() -> int:
    """The thread count a run set (``runner.set_threads``; numba's setting, all cores by default)."""
    import numba

    return numba.get_num_threads()


def run_blocks(play: Callable[[int, int], object], n: int, threads: int | None = None) -> None:
    """``play(lo, hi)`` for blocks covering games ``0 .. n - 1``, on ``threads`` threads (None:
    :func:`threads_in_use`).  The first exception a block raises is raised here once every
    thread has stopped; no block starts after it."""
    if n <= 0:
        return
    with safe_ctrl_c():  # a kernel's work areas come back boxed by numba's callbacks: no Ctrl-C there
        _run_blocks(play, n, max(1, min(threads or threads_in_use(), n)))


def _run_blocks(play: Callable[[int, int], object], n: int, threads: int) -> None:
    if threads == 1:
        play(0, n)
        return
    n_blocks = min(n, BLOCKS_PER_THREAD * threads)
    todo = itertools.count()  # next() of a count is atomic under the GIL
    stop = threading.Event()
    errors: list[BaseException] = []

    def work() -> None:
        try:
            while not stop.is_set():
                b = next(todo)
                if b >= n_blocks:
                    return
                play(*block_bounds(n, n_blocks, b))
        except BaseException as e:  # noqa: BLE001 -- handed to the calling thread
            errors.append(e)
            stop.set()

    helpers = [threading.Thread(target=work, daemon=True, name=f"pirate-sim block {i}") for i in range(threads - 1)]
    for t in helpers:
        t.start()
    try:
        work()
    finally:
        stop.set()  # (an interrupt in the calling thread: no block starts after it)
        for t in helpers:
            t.join()
    if errors:
        raise errors[0]
