"""Where compiled kernels are kept: one numba cache folder per digest of the package's sources.

numba's ``cache=True`` checks only the modification time of the file that defines a kernel,
not of the files whose functions it calls and inlines, so editing ``rules.py`` left
``kernel.py``'s cached machine code running the old rules (the Makefile used to delete every
cache after any edit to be safe).  Pointing ``NUMBA_CACHE_DIR`` at a folder named by the
SHA-256 of every source file of the package instead makes an unchanged package load its
kernels at once and a changed one compile afresh, never run stale code.

This module imports nothing heavy: ``pirate_sim/__init__`` calls :func:`configure` before any
kernel module (and numba) is imported.  A ``NUMBA_CACHE_DIR`` the user set is left alone.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import shutil
import sys
import time
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
ENV_CACHE = "PIRATE_SIM_CACHE"
# digest folders not used for this long are removed (each holds a full set of kernels, 10-60 MB)
KEEP_UNUSED_DAYS = 30
_USES_NUMBA = re.compile(rb"^\s*(?:import numba|from numba)", re.M)
_configured: str | None = None  # the NUMBA_CACHE_DIR this module set, if it set one


def root() -> Path:
    """The user cache folder: $PIRATE_SIM_CACHE, else $XDG_CACHE_HOME/pirate-sim, else ~/.cache/pirate-sim."""
    if os.environ.get(ENV_CACHE):
        return Path(os.environ[ENV_CACHE])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "pirate-sim"


@functools.lru_cache(maxsize=8)  # the sources a process imported do not change under it
def source_digest(*extra: Path) -> str:
    """SHA-256 (16 hex digits) of every Python source of the package (a kernel also freezes the
    constants it imports from modules without numba) and of the numba-using sources of ``extra``
    folders (the tests' toy games: editing an ordinary test compiles nothing)."""
    h = hashlib.sha256()
    for top, only_numba in ((PACKAGE, False), *((Path(e), True) for e in extra)):
        for f in sorted(top.rglob("*.py")):
            if "__pycache__" in f.parts:
                continue
            data = f.read_bytes()
            if only_numba and not _USES_NUMBA.search(data):
                continue
            h.update(str(f.relative_to(top)).encode())
            h.update(data)
    return h.hexdigest()[:16]


def numba_dir(*extra: Path) -> Path:
    return root() / "numba" / source_digest(*extra)


def configure(*extra: Path) -> str | None:
    """Set NUMBA_CACHE_DIR to this source digest's folder (unless the user set one); returns it.

    Called again with ``extra`` folders (the test suite adds ``tests/``) before numba is
    imported, it moves the folder; once numba is loaded it changes numba's config too, which
    takes effect for kernels defined from then on."""
    global _configured
    current = os.environ.get("NUMBA_CACHE_DIR")
    if current and current != _configured:
        return current  # the user's choice
    path = numba_dir(*extra)
    if not _usable(path):
        return None  # numba falls back to __pycache__ beside the sources
    os.environ["NUMBA_CACHE_DIR"] = _configured = str(path)
    config = sys.modules.get("numba.core.config")
    if config is not None:
        config.CACHE_DIR = str(path)
    _prune(path)
    return str(path)


def _usable(path: Path) -> bool:
    try:
        path.mkdir(parents=True, exist_ok=True)
        return os.access(path, os.W_OK)
    except OSError:  # a read-only home: numba would refuse to cache into it
        return False


def _prune(keep: Path) -> None:
    """Mark ``keep`` as used now and remove digest folders unused for KEEP_UNUSED_DAYS."""
    try:
        os.utime(keep)
        cutoff = time.time() - KEEP_UNUSED_DAYS * 86400
        for d in keep.parent.iterdir():
            if d != keep and d.is_dir() and d.stat().st_mtime < cutoff:
                shutil.rmtree(d, ignore_errors=True)
    except OSError:  # another process pruning at the same time
        pass
