"""Ctrl-C and SIGTERM that never land inside numba's own Python callbacks.

A compiled kernel that hands a tuple of NamedTuples back to Python (a game's work areas,
``engine_template.block_work_nb``) boxes them through ``numba.core.serialize._numba_unpickle``,
Python code that the machine code calls.  A signal that came in while the kernel ran is
handled at the first Python line the thread reaches, which is that callback's; an exception
raised there is not checked by the machine code that called it: the process ends in a
``SystemError`` chain (a real ``pirate-sim learn`` stopped that way, exit 1 instead of 130) or
a segmentation fault (numba issue 2324; ``tests/test_interrupts.py`` reproduces both).

So a handler here does not raise in such a frame: it sends the signal again a moment later
(:data:`REDELIVER_S`), when the thread is back in the caller's code, and raises there.  Only
the main thread handles signals; this module imports nothing but the standard library.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Callable, Iterator

# how long a signal waits when it came in inside numba's callback: the callbacks take
# microseconds, so 5 ms puts the new delivery back in the caller's code, and a person
# pressing Ctrl-C does not notice the wait
REDELIVER_S = 0.005
# numba's Python callbacks from machine code (unpickling the objects a kernel boxes) live here
_CALLBACK_FILE = os.path.join("numba", "core", "serialize.py")


def in_numba_callback(frame) -> bool:
    """Is ``frame`` (a signal handler's) one of numba's callbacks from machine code?"""
    return frame is not None and frame.f_code.co_filename.endswith(_CALLBACK_FILE)


def redeliver(signum: int) -> None:
    """Send ``signum`` to this process again in :data:`REDELIVER_S` seconds."""
    t = threading.Timer(REDELIVER_S, os.kill, (os.getpid(), signum))
    t.daemon = True
    t.start()


def safe_handler(handler: Callable) -> Callable:
    """``handler`` (a signal handler) run only outside numba's callbacks; inside one the
    signal is delivered again shortly (:func:`redeliver`)."""

    def on_signal(signum, frame):
        if in_numba_callback(frame):
            redeliver(signum)
            return None
        return handler(signum, frame)

    return on_signal


@contextlib.contextmanager
def safe_ctrl_c() -> Iterator[None]:
    """Python's own Ctrl-C (KeyboardInterrupt) made safe for the block: where SIGINT has
    Python's default handler and this is the main thread (a notebook, a script calling the
    API), the handler is wrapped by :func:`safe_handler` until the block ends.  Any other
    handler (the CLI's, one the caller installed) is left as it is."""
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler):
        yield
        return
    signal.signal(signal.SIGINT, safe_handler(signal.default_int_handler))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
