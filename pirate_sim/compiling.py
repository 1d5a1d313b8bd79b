"""Say what numba compiles while it compiles: which kernel, for how long so far, how far along.

numba compiles a kernel the first time it is called on a machine and caches the machine code
(``cache=True``); every later process loads it in well under a second.  A cold compile takes
from seconds to minutes on a small machine, and a run that sits silent for minutes looks hung.
numba fires a ``numba:compile`` event around every real compile (never around a cache load),
nested for the functions a kernel calls, so one listener can say, for each top-level compile
of a pirate-sim kernel: what it compiles, the functions compiled so far, the seconds elapsed,
what it took last time on this machine, and when it is done.

Lines go to standard error (``sys.stderr`` looked up at each write, so a rich progress bar
that redirects it prints them above the bar, and a notebook shows them).  Set
``PIRATE_SIM_COMPILE_NOTES=0`` to silence them.  ``PIRATE_SIM_COMPILE_LOG=FILE`` appends one
tab-separated line per finished top-level compile (end time, process id, seconds, functions,
kernel), whether or not the notes are shown: a whole test suite's compiles, over every process
it starts, in one file (docs/performance.md reads one).  The times of the last compile of each kernel
are kept in ``compile-times.json`` in the user cache directory, so the next cold compile
(after an upgrade or a cache wipe) gives an estimate measured on this machine.

The first compile of a process also switches CPython's arena allocator to one that keeps freed
frame-stack chunks (pirate_sim/_frame_stack.py): numba's compiler otherwise spends up to 60% of
a compile mapping and unmapping them.  A process that only loads cached kernels never does.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
import threading
import time

from numba.core import event

from . import _fast_inline, _frame_stack, _one_signature
from ._cache import root as cache_dir

# Module-name prefixes whose top-level compiles are announced (besides every registered game's
# module): the package and the modules it generates for strategy files (pirate_sim_user_*,
# pirate_sim_kernel_*).
WATCHED = ["pirate_sim"]
# A compile is announced once it has run ANNOUNCE_S (shorter ones keep nobody waiting), then
# "still compiling" FIRST_NOTE_S later and every EVERY_S after that.
ANNOUNCE_S = 1.0
FIRST_NOTE_S = 10.0
EVERY_S = 30.0
TIMES_FILE = "compile-times.json"


def watch(prefix: str) -> None:
    """Announce compiles of functions whose module name starts with ``prefix`` too."""
    if prefix not in WATCHED:
        WATCHED.append(prefix)


_GAMES: dict = {}  # the registry of games (name -> module), handed over by install()


def _watched(module: str) -> bool:
    """The package, its generated modules, and every registered game's module (a game added
    from outside the package included)."""
    return any(module.startswith(p) for p in (*WATCHED, *_GAMES.values()))


def enabled() -> bool:
    return os.environ.get("PIRATE_SIM_COMPILE_NOTES", "1") not in ("0", "", "no", "false")


def _say(text: str) -> None:
    if enabled():
        stream = sys.stderr
        try:
            stream.write(text + "\n")
            stream.flush()
        except (OSError, ValueError):  # a closed or broken stderr must never stop a run
            pass


_ENGINE = re.compile(r"pirate_sim_engine_(\w+?)_[0-9a-f]{16}")  # a protocol game's engine module


def _name(dispatcher) -> tuple[str, str]:
    """(module, short name) of a dispatcher, e.g. ('pirate_sim.games.pirates_peak.kernel', 'play_block_nb')."""
    py = getattr(dispatcher, "py_func", None)
    return getattr(py, "__module__", "") or "", getattr(py, "__qualname__", "") or str(dispatcher)


# A strategy file's generated wrapper (pirate_sim.user_strategy.compile_calls): named by a hash, so
# its module is registered with what the user wrote (name_module), and its compile times are kept
# under one key for every file (each file's first compile estimates from the last file's)
_WRAPPER = "pirate_sim_call_"
_NAMED: dict[str, str] = {}  # generated module -> what a user reads


def name_module(module: str, what: str) -> None:
    """Announce compiles of generated module ``module`` as ``what`` (a strategy file: its file
    and function)."""
    _NAMED[module] = what


def label(module: str, name: str) -> str:
    """What a user reads: the game (or 'strategy file') and the kernel's name."""
    if module in _NAMED:
        return _NAMED[module]
    parts = module.split(".")
    if module.startswith("pirate_sim.games.") and len(parts) > 2:
        return f"{parts[2]} {name}"
    if module.startswith(("pirate_sim_user_", "pirate_sim_kernel_")):
        return f"strategy-file kernel {name}"
    engine = _ENGINE.fullmatch(module)
    if engine:  # contract.engine_source's name: the protocol module's, then the sources' digest
        return f"{engine.group(1)} engine {name}"
    return f"{module}.{name}" if module else name


def _key(module: str, name: str, args=None) -> str:
    """Where a kernel's last compile time is kept: its module and name, without an engine's
    digest (every edit of the package renames the engine; its last compile is still the
    estimate), and the argument types it compiles for where they are known: one entry point
    compiles a version per table kind (a ``search`` argument None at a scripted table prunes
    the search player), and each kind's last compile is its own estimate."""
    engine = _ENGINE.fullmatch(module)
    key = f"pirate_sim_engine_{engine.group(1)}.{name}" if engine else f"{module}.{name}"
    if module.startswith(_WRAPPER):
        key = f"{_WRAPPER}.{name}"
    if args is not None:
        key += "[" + hashlib.sha256(repr(tuple(args)).encode()).hexdigest()[:12] + "]"
    return key


def _load_times() -> dict:
    try:
        return json.loads((cache_dir() / TIMES_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def _save_time(key: str, seconds: float, functions: int) -> None:
    path = cache_dir() / TIMES_FILE
    try:
        times = _load_times()
        times[key] = {"seconds": round(seconds, 1), "functions": functions, "cpus": os.cpu_count(),
                      "load": round(os.getloadavg()[0], 1) if hasattr(os, "getloadavg") else None}
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(times, indent=1, sort_keys=True), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:  # an unwritable cache only loses the next estimate
        pass


def _log(key: str, seconds: float, functions: int) -> None:
    path = os.environ.get("PIRATE_SIM_COMPILE_LOG")
    if not path:
        return
    try:  # one short append per compile: lines from concurrent processes stay whole
        with open(path, "a", encoding="utf-8") as f:
            f.write(f"{time.time():.1f}\t{os.getpid()}\t{seconds:.2f}\t{functions}\t{key}\n")
    except OSError:  # a log that cannot be written never stops a compile
        pass


class _Compile:
    """One top-level compile in progress."""

    def __init__(self, module: str, name: str, args=None):
        self.key = _key(module, name, args)
        self.file = module.startswith(_WRAPPER)
        self.what = label(module, name)
        self.start = time.monotonic()
        self.functions = 1
        self.done = threading.Event()
        self.last = _load_times().get(self.key)
        self.cached = False
        self.announced = False
        self.lock = threading.Lock()

    def saved(self) -> str:
        return "cached for the next run" if self.cached else "not cached (cache=False)"

    def opening(self) -> str:
        if self.last:
            est = (f"last compile on this machine took {self.last['seconds']:.0f} s"
                   + (f" at load {self.last['load']}" if self.last.get("load") is not None else ""))
        elif self.file:
            est = "no earlier compile on this machine to go by; a file takes a few seconds"
        else:
            est = "no earlier compile on this machine to go by; kernels take 10 s to several minutes on 2 cores"
        once = "once per version of the file" if self.file else "once per machine and package version"
        return f"compiling {self.what} (numba, {once}, then cached; {est})..."

    def tick(self) -> None:
        """Announce the compile once it has run ANNOUNCE_S, then say 'still compiling' now and
        then until it ends (a daemon thread)."""
        if self.done.wait(ANNOUNCE_S):
            return
        with self.lock:
            if self.done.is_set():
                return
            self.announced = True
            _say(self.opening())
        wait = FIRST_NOTE_S
        while not self.done.wait(wait):
            elapsed = time.monotonic() - self.start
            tail = ""
            if self.last and self.last.get("functions"):
                share = min(self.functions / self.last["functions"], 0.99)
                tail = f", about {100 * share:.0f}% of last time's {self.last['functions']} functions"
            _say(f"  still compiling {self.what}: {elapsed:.0f} s, {self.functions} functions so far{tail}")
            wait = EVERY_S


class CompileNotes(event.Listener):
    """numba ``numba:compile`` listener: announces top-level compiles of watched modules."""

    def __init__(self):
        self.local = threading.local()

    def _stack(self) -> list:
        if not hasattr(self.local, "stack"):
            self.local.stack = []
        return self.local.stack

    def on_start(self, ev):
        _fast_inline.install()  # before numba inlines anything: a copy per function, not per block
        _one_signature.install()  # before numba types a call: one version of a rule per kernel
        stack = self._stack()
        module, name = _name(ev.data.get("dispatcher"))
        if stack:  # a function the top-level kernel calls
            top = next((c for c in reversed(stack) if c is not None), None)
            if top is not None:
                top.functions += 1
            stack.append(None)
            return
        if not _watched(module):
            stack.append(None)
            return
        _frame_stack.install()  # a cold compile is coming: 2-3x faster without chunk thrashing
        c = _Compile(module, name, ev.data.get("args"))
        c.cached = type(getattr(ev.data.get("dispatcher"), "_cache", None)).__name__ != "NullCache"
        stack.append(c)
        threading.Thread(target=c.tick, daemon=True, name="pirate-sim-compile-notes").start()

    def on_end(self, ev):
        stack = self._stack()
        if not stack:
            return
        c = stack.pop()
        if c is None:
            return
        c.done.set()
        seconds = time.monotonic() - c.start
        exc = getattr(ev, "exc_details", None)
        if exc and exc[0] is not None:  # a type error in a strategy file, an interrupt...
            if c.announced:
                _say(f"compiling {c.what} stopped after {seconds:.1f} s")
            return
        _save_time(c.key, seconds, c.functions)
        _log(c.key, seconds, c.functions)
        with c.lock:  # the announcement, if one is being written, comes first
            if not c.announced:
                return
        _say(f"compiled {c.what} in {seconds:.1f} s ({c.functions} functions); {c.saved()}")


_LISTENER: CompileNotes | None = None


def install(games: dict | None = None) -> CompileNotes:
    """Register the listener once per process (idempotent); ``games`` is the game registry
    (pirate_sim.games.GAME_MODULES), whose modules are watched too."""
    global _LISTENER, _GAMES
    if games is not None:
        _GAMES = games
    if _LISTENER is None:
        _LISTENER = CompileNotes()
        event.register("numba:compile", _LISTENER)
    return _LISTENER
