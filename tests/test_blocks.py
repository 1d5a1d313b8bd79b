"""pirate_sim/blocks.py: a chunk's blocks handed to threads (every game once, errors raised
in the caller).  That the games do not depend on threads or blocks is the real kernels' tests'
(test_contract_engine.py, test_engine_runner.py, tests/results_hash.py)."""

import threading
import time

import pytest

from pirate_sim.blocks import BLOCKS_PER_THREAD, block_bounds, run_blocks


@pytest.mark.parametrize("n", [1, 2, 7, 15, 16, 17, 1000])
@pytest.mark.parametrize("threads", [1, 2, 3])
def test_every_game_once(n, threads):
    seen, lock = [], threading.Lock()

    def play(lo, hi):
        with lock:
            seen.append((lo, hi))

    run_blocks(play, n, threads)
    games = sorted(g for lo, hi in seen for g in range(lo, hi))
    assert games == list(range(n))
    assert all(hi > lo for lo, hi in seen)
    assert len(seen) == (1 if threads == 1 else min(n, BLOCKS_PER_THREAD * threads))


def test_blocks_run_on_several_threads_at_once():
    """A block that releases the GIL (time.sleep here; the kernels are nogil) overlaps another."""
    names, lock = set(), threading.Lock()
    running, most = [0], [0]

    def play(lo, hi):
        with lock:
            names.add(threading.current_thread().name)
            running[0] += 1
            most[0] = max(most[0], running[0])
        time.sleep(0.02)
        with lock:
            running[0] -= 1

    run_blocks(play, 100, 2)
    assert len(names) == 2 and most[0] == 2


def test_a_blocks_error_is_raised_in_the_caller_and_stops_the_rest():
    started = []

    def play(lo, hi):
        started.append(lo)
        time.sleep(0.01)
        if lo == 0:
            raise ValueError("block 0 failed")

    with pytest.raises(ValueError, match="block 0 failed"):
        run_blocks(play, 1000, 2)
    assert len(started) < 2 * BLOCKS_PER_THREAD  # no block started once the error was seen (one in flight)
    assert not [t for t in threading.enumerate() if t.name.startswith("pirate-sim block")]  # all joined


def test_no_games_no_call():
    run_blocks(lambda lo, hi: pytest.fail("called"), 0, 2)


def test_block_bounds_cover_in_order():
    n, k = 103, 9
    bounds = [block_bounds(n, k, b) for b in range(k)]
    assert bounds[0][0] == 0 and bounds[-1][1] == n
    assert all(a[1] == b[0] for a, b in zip(bounds, bounds[1:]))
