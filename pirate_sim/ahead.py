"""Compile ahead: a second process compiles half of a first kernel while this one compiles the rest.

numba compiles a kernel in one thread; on a machine with two cores the other idles.  Where a
block kernel calls a cached kernel of its own that another, smaller job also compiles (Pirate's
Peak's ``search`` block calls the scripted game, ``play_rest_nb``, which the scripted table's
block calls too), :func:`start` runs that job in a second process (``python -m pirate_sim.warm
GAME --what play``) while this process compiles its block.  The two share numba's cache, and
the helper writes a claims file: a line when it starts compiling a cached kernel, a line once
its machine code is saved.  Here, while the helper lives, a kernel that is not in the cache but
that the helper has started waits for the helper's line and is then loaded instead of being
compiled a second time (:class:`Helper`).  Nothing else waits: a kernel the helper has not
started is compiled here as usual, and a helper that fails or is stopped ends every wait.

Results never depend on it: the same kernels, from the same sources, through the same cache.
Measured in docs/performance.md ("Compile ahead").
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CLAIMS_ENV = "PIRATE_SIM_AHEAD_CLAIMS"  # the helper's claims file (set by start, read by the helper)
ENABLED = True  # False in warm's own workers: they already keep every core busy
_POLL = 0.05  # seconds between two reads of the claims file while a kernel waits
# the longest a kernel waits for the helper's copy: the helper's part took 20-40 s on 2 cores
# (docs/performance.md), so a helper still busy after this is stuck, and this process compiles
_MAX_WAIT = 600.0
_live: set["Helper"] = set()  # helpers not ended yet (end_all: a command that must leave at once)
_numba_load = None  # numba's own Cache.load_overload while helpers live and ours stands in for it


def _key(cache) -> str | None:
    """A cached kernel's name in the claims file: its index file (the same path in both processes)."""
    f = getattr(cache, "_cache_file", None)
    return getattr(f, "_index_path", None)


def on_disk(dispatcher) -> bool:
    """Does numba's cache hold machine code of ``dispatcher`` (any signature) for this package
    version?  True where the cache's layout is not numba's as read here (start no helper on a guess)."""
    key = _key(getattr(dispatcher, "_cache", None))
    return key is None or os.path.exists(key)


def _load_overload(cache, sig, target_context):
    """numba's load, and where it misses a kernel a live helper is compiling: wait, load again."""
    got = _numba_load(cache, sig, target_context)
    key = _key(cache)
    if got is None and key is not None and any(h.wait_for(key) for h in list(_live)):
        got = _numba_load(cache, sig, target_context)
    return got


class Helper:
    """The helper process of :func:`start`; :meth:`end` stops it (numba's loader is ours while
    any helper lives, numba's own again after the last)."""

    def __init__(self, proc: subprocess.Popen, claims: Path):
        global _numba_load
        from numba.core import caching

        self.proc, self.claims = proc, claims
        if not _live:
            _numba_load = caching.Cache.load_overload
            caching.Cache.load_overload = _load_overload
        _live.add(self)

    def _lines(self) -> list[str]:
        try:
            return self.claims.read_text(encoding="utf-8").splitlines()
        except OSError:
            return []

    def wait_for(self, key: str) -> bool:
        """If the helper has started ``key`` and not saved it: wait until it has (True) or the
        helper is gone or stuck (False, after ``_MAX_WAIT`` s); False at once for a kernel the
        helper has not started."""
        lines = self._lines()
        if f"start {key}" not in lines:
            return False
        deadline = time.monotonic() + _MAX_WAIT
        while f"saved {key}" not in lines:
            if self.proc.poll() is not None or time.monotonic() > deadline:
                return f"saved {key}" in self._lines()
            time.sleep(_POLL)
            lines = self._lines()
        return True

    def end(self) -> None:
        """Give numba its loader back after the last helper; stop the helper if it still runs (this
        process's compile is over) and wait for it, so that no process outlives the command.  numba
        writes each cache file whole (a temporary file, then a rename), so a stopped helper leaves
        no broken one."""
        global _numba_load
        if self in _live:
            _live.discard(self)
            if not _live:
                from numba.core import caching

                caching.Cache.load_overload = _numba_load
                _numba_load = None
        if self.proc.poll() is None:
            self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        try:
            self.claims.unlink()
        except OSError:
            pass


def end_all() -> None:
    """:meth:`Helper.end` of every helper still running: for a command that leaves with
    ``os._exit`` while its kernel thread is still compiling (cli/common.py), which skips the
    ``finally`` that would have ended it."""
    for h in list(_live):
        h.end()


def start(game: str) -> Helper | None:
    """Compile ``game``'s scripted table (warm's ``play`` job) in a second process now; None on
    a one-core machine or in warm's workers."""
    if not ENABLED or (os.cpu_count() or 1) < 2:
        return None
    fd, name = tempfile.mkstemp(prefix="pirate-sim-ahead-", suffix=".txt")
    os.close(fd)
    env = dict(os.environ, PIRATE_SIM_COMPILE_NOTES="0")
    env[CLAIMS_ENV] = name
    proc = subprocess.Popen([sys.executable, "-m", "pirate_sim.warm", game, "--what", "play"],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    return Helper(proc, Path(name))


def record_claims() -> None:
    """In the helper (``CLAIMS_ENV`` set): append "start KEY" to the claims file as each cached
    kernel starts compiling, and "saved KEY" once its machine code is in the cache."""
    path = os.environ.get(CLAIMS_ENV)
    if not path:
        return
    from numba.core import caching, event

    def note(line: str) -> None:
        with open(path, "a", encoding="utf-8") as f:
            f.write(line + "\n")

    class Claims(event.Listener):
        def on_start(self, ev):
            key = _key(getattr(ev.data["dispatcher"], "_cache", None))
            if key is not None:
                note(f"start {key}")

        def on_end(self, ev):
            pass

    save = caching.Cache.save_overload

    def save_overload(cache, sig, data):
        save(cache, sig, data)
        key = _key(cache)
        if key is not None:
            note(f"saved {key}")

    caching.Cache.save_overload = save_overload
    event.register("numba:compile", Claims())
