"""A stop signal that arrives while a compiled kernel runs and is handled as the kernel hands
back NamedTuples (numba's unpickling callback, pirate_sim/interrupts.py).

Each case runs in a subprocess: without the guard the process dies of a segmentation fault,
which would take a test worker with it.  The kernel spins until another thread has sent the
signal, so the signal is always pending when the boxing starts (no timing luck)."""

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

SCRIPT = textwrap.dedent('''
    import ctypes, os, signal, sys, threading, time
    from collections import namedtuple
    import numpy as np
    from numba import njit

    R = namedtuple("R", "a b")
    Q = namedtuple("Q", "x y")
    usleep = ctypes.CDLL(None).usleep  # an outside call: the loop reads flag[1] again after each
    usleep.argtypes = [ctypes.c_uint]
    usleep.restype = ctypes.c_int

    @njit(nogil=True)
    def spin(flag):
        """Until flag[1] is set; then a tuple holding NamedTuples (boxed by numba's callback)."""
        flag[0] = 1
        s = 0.0
        while flag[1] == 0:
            usleep(1000)
            s += 1.0
        return (R(np.zeros(3), np.ones(2)), Q(R(np.zeros(1), 1), s), np.zeros(4))

    spin(np.array([0, 1], np.int64))  # compiled before the signal (a compile is Python code)

    def signal_then_release(flag):
        while flag[0] == 0:  # the kernel is running, without the GIL
            time.sleep(0.001)
        os.kill(os.getpid(), SIGNUM)
        time.sleep(0.05)  # the signal is recorded by the C handler, pending for the main thread
        flag[1] = 1

    mode = sys.argv[1]
    # Python's own Ctrl-C, as at a terminal or in a notebook (a test worker starts this process
    # with SIGINT ignored, and Python keeps an inherited SIG_IGN)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    SIGNUM = signal.SIGTERM if mode == "cli-term" else signal.SIGINT
    if mode.startswith("cli"):
        from pirate_sim.cli.common import stop_signals
        guard = stop_signals()
    elif mode == "api":
        from pirate_sim.interrupts import safe_ctrl_c
        guard = safe_ctrl_c()
    else:
        import contextlib
        guard = contextlib.nullcontext()
    flag = np.zeros(2, np.int64)
    with guard:
        threading.Thread(target=signal_then_release, args=(flag,), daemon=True).start()
        try:
            spin(flag)
            time.sleep(1.0)  # a redelivered signal lands here, in this script's own code
            print("no stop")
        except BaseException as e:
            print("stopped:", type(e).__name__,
                  isinstance(e, KeyboardInterrupt), repr(e.__cause__))
''')


def _run(tmp_path, mode):
    script = tmp_path / "spin.py"
    script.write_text(SCRIPT)
    return subprocess.run([sys.executable, str(script), mode], cwd=ROOT, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("mode", ["cli-int", "cli-term", "api"])
def test_a_stop_pending_as_a_kernel_returns_is_raised_in_the_callers_code(tmp_path, mode):
    """The CLI's handler (SIGINT and SIGTERM) and the API's guard of Python's Ctrl-C: the stop is
    a KeyboardInterrupt raised in the caller's code, with no SystemError chain behind it."""
    r = _run(tmp_path, mode)
    assert r.returncode == 0, (r.returncode, r.stderr[-2000:])
    name = "Interrupted" if mode.startswith("cli") else "KeyboardInterrupt"
    assert r.stdout.strip() == f"stopped: {name} True None", r.stdout + r.stderr[-2000:]


def test_the_hazard_is_real_without_the_guard(tmp_path):
    """The same script with Python's own handler: the stop is raised inside numba's callback and
    the process crashes or ends in a SystemError (the guard above is not guarding nothing)."""
    r = _run(tmp_path, "bare")
    crashed = r.returncode < 0
    assert crashed or "SystemError" in r.stdout + r.stderr, (r.returncode, r.stdout, r.stderr[-2000:])
