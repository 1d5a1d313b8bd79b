import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from pirate_sim import _cache  # noqa: E402

# The toys under tests/ are numba kernels too: their cache folder is keyed by the tests'
# sources as well as the package's (set before any kernel is imported; child processes
# the tests start inherit it).
_cache.configure(Path(__file__).parent)
# Compile notes go to stderr, which click's test runner mixes into the output the tests parse;
# tests/test_compile_notes.py turns them back on where it checks them.
os.environ["PIRATE_SIM_COMPILE_NOTES"] = "0"

from pirate_sim.games import GAME_MODULES  # noqa: E402

GAME_MODULES.setdefault("dice_duel", "toy_game")
GAME_MODULES.setdefault("sum_race", "toy_race")  # a game on the decision protocol (pirate_sim/contract.py)
REAL_GAMES = ("pirates_peak", "ice_pirates", "pirates_cove", "pirateer")


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session):
    """With PIRATE_SIM_TEST_WARM=N (``make test`` sets it to its worker count), compile every
    game's kernels in N processes before the test workers start (pirate_sim/warm.py): each
    kernel is then compiled once, not once per worker that happens to reach it first."""
    n = os.environ.get("PIRATE_SIM_TEST_WARM")
    if not n or hasattr(session.config, "workerinput"):
        return
    import time

    from pirate_sim.warm import warm

    t = time.perf_counter()
    try:
        done = warm(list(REAL_GAMES), int(n))
    except Exception as exc:  # noqa: BLE001 - a broken pool: the tests compile their own kernels, as without it
        print(f"\nwarm: stopped ({type(exc).__name__}: {exc}); the tests compile their kernels themselves", flush=True)
        return
    slow = sorted(done, key=lambda w: -w.seconds)[:4]
    print(f"\nwarm: {len(done)} kernel jobs in {time.perf_counter() - t:.0f} s (longest: "
          + ", ".join(f"{w.game} {w.what} {w.seconds:.0f} s" for w in slow) + ")", flush=True)
    for w in done:
        if w.error:  # the tests that need the kernel fail and say why
            print(f"warm: {w.game} {w.what} failed: {w.error}", flush=True)


@pytest.fixture
def toy_scenario_file(tmp_path):
    path = tmp_path / "duel.toml"
    path.write_text('game = "dice_duel"\n[run]\ngames = 5000\nseed = 7\nchunk_size = 1000\n'
                    '[rules]\ntarget = 10\n[[seats]]\nstrategy = "roller"\n[[seats]]\nstrategy = "roller"\n')
    return path
