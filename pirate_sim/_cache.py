"""Where compiled kernels are kept: one numba cache folder per digest of the package's sources.

numba's ``cache=True`` checks only the modification time of the file that defines a kernel,
not of the files whose functions it calls and inlines, so editing ``rules.py`` left
``kernel.py``'s cached machine code running the old rules (the Makefile used to delete every
cache after any edit to be safe).  Pointing ``NUMBA_CACHE_DIR`` at a folder named by the
SHA-256 of every source file of the package instead makes an unchanged package load its
kernels at once and a changed one compile afresh, never run stale code.

The package's own kernels go one step further (:func:`module_digest`,
``pirate_sim/_numba_locator.py``): a kernel module's machine code is kept in a folder named by
the digest of the sources it can depend on, the module and every package module it imports at
its top level, transitively (ast-read).  So an edit to the CLI, a report, the meta-game or
another game compiles nothing, an edit to a game recompiles that game only, and a second copy
of the same sources (a fresh clone, CI) loads what the first compiled: the folder is named by
content, not by the file's path and modification time as in numba's own cache.  A bundled
game's engine (the module ``contract.engine`` renders, named by the SHA of everything it is made
of) is kept by that name the same way.  Everything
else numba caches (the tests' toys, the modules generated for strategy files) stays under the
whole-package digest above.

This module imports nothing heavy: ``pirate_sim/__init__`` calls :func:`configure` before any
kernel module (and numba) is imported.  A ``NUMBA_CACHE_DIR`` the user set is left alone, and
then numba's own locators place everything.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import json
import os
import re
import shutil
import sys
import time
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
ENV_CACHE = "PIRATE_SIM_CACHE"
ENV_SET = "PIRATE_SIM_NUMBA_CACHE_DIR"  # the NUMBA_CACHE_DIR pirate-sim set, so that child processes know it
# numba (0.62+) reads its cache locators from this variable: ours first, then numba's own, in
# numba's default order (names without a module are looked up in numba.core.caching)
LOCATORS = ("pirate_sim._numba_locator.KernelLocator,UserProvidedCacheLocator,InTreeCacheLocator,"
            "UserWideCacheLocator,IPythonCacheLocator,ZipCacheLocator")
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


# pirate_sim/players/: the learned players, strategy files that no kernel imports (each is
# compiled on its own, cached by its SHA-256, pirate_sim.user_strategy), so editing one
# recompiles nothing else
BUNDLED_PLAYERS = "players"


@functools.lru_cache(maxsize=8)  # the sources a process imported do not change under it
def source_digest(*extra: Path) -> str:
    """SHA-256 (16 hex digits) of every Python source of the package (a kernel also freezes the
    constants it imports from modules without numba) and of the numba-using sources of ``extra``
    folders (the tests' toy games: editing an ordinary test compiles nothing)."""
    h = hashlib.sha256()
    for top, only_numba in ((PACKAGE, False), *((Path(e), True) for e in extra)):
        for f in sorted(top.rglob("*.py")):
            if "__pycache__" in f.parts or (not only_numba and f.parent.name == BUNDLED_PLAYERS):
                continue
            data = f.read_bytes()
            if only_numba and not _USES_NUMBA.search(data):
                continue
            h.update(str(f.relative_to(top)).encode())
            h.update(data)
    return h.hexdigest()[:16]


def _top_level(body):
    """The statements a module runs when imported: not function or class bodies, not
    ``if TYPE_CHECKING:`` blocks (a kernel freezes only what exists at import time)."""
    for n in body:
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        if isinstance(n, ast.If) and "TYPE_CHECKING" in ast.dump(n.test):
            continue
        yield n
        for field in ("body", "orelse", "finalbody", "handlers"):
            sub = getattr(n, field, None)
            if isinstance(sub, list):
                yield from _top_level(sub)


def _module_file(dotted: str) -> Path | None:
    p = PACKAGE.parent.joinpath(*dotted.split("."))
    if (p / "__init__.py").is_file():
        return p / "__init__.py"
    return p.with_suffix(".py") if p.with_suffix(".py").is_file() else None


def _imported_names(source: bytes, here: list[str]) -> list[str]:
    """Dotted names of the package modules a module's top-level imports read names from, relative
    imports resolved from the package ``here``: ``from .rules import X`` gives ``pkg.rules`` (not
    ``pkg``, whose ``__init__`` runs but lends no name), ``from . import kernel`` gives
    ``pkg.kernel``, and ``from . import NAME`` of a name defined in ``pkg/__init__.py`` gives ``pkg``."""
    names = set()
    for node in _top_level(ast.parse(source).body):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for a in node.names:
                sub = f"{target}.{a.name}"
                names.add(sub if _module_file(sub) is not None else target)
    return sorted(n for n in names if n.split(".")[0] == PACKAGE.name)


_NAMES_FILE = "imports-v2.json"  # source SHA-256 -> its imported names: parsing 50 modules costs 0.3 s a start


@functools.lru_cache(maxsize=1)
def _known_names() -> dict:
    try:
        return json.loads((root() / _NAMES_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


@functools.lru_cache(maxsize=None)
def _source(path: Path) -> bytes:
    return path.read_bytes()  # a process's sources do not change under it


@functools.lru_cache(maxsize=None)
def _imports(path: Path) -> frozenset[Path]:
    """Package files ``path`` reads names from at its top level (the names read from the user
    cache when this very source was parsed before).  The ``__init__`` files such an import runs
    on the way are not followed (a game's ``__init__`` loads its plug-in, reports and all, and
    none of it reaches a kernel); :func:`module_digest` still hashes their own text."""
    source = _source(path)
    key = hashlib.sha256(source).hexdigest()
    known = _known_names()
    if key not in known:
        here = list(path.relative_to(PACKAGE.parent).parts[:-1])  # a.b for a/b/c.py and a/b/__init__.py
        known[key] = _imported_names(source, here)
        _save_names(known)
    return frozenset(f for f in map(_module_file, known[key]) if f is not None)


def _save_names(known: dict) -> None:
    path = root() / _NAMES_FILE
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(known), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:  # an unwritable cache: the next process parses again
        pass


def import_closure(path: Path) -> frozenset[Path]:
    """``path`` and every package file it imports at its top level, transitively."""
    seen, todo = {path}, [path]
    while todo:
        for f in _imports(todo.pop()):
            if f not in seen:
                seen.add(f)
                todo.append(f)
    return frozenset(seen)


@functools.lru_cache(maxsize=1)
def _data_files() -> tuple[Path, ...]:
    return tuple(f for f in PACKAGE.rglob("*") if f.is_file() and f.suffix not in (".py", ".pyc", ".nbi", ".nbc")
                 and "__pycache__" not in f.parts)


@functools.lru_cache(maxsize=64)
def module_digest(path: Path) -> str:
    """SHA-256 (16 hex digits) of a package module's import closure inside the package (see the
    module docstring), of the ``__init__`` files of the packages those modules sit in (their own
    text: an import runs them) and of the package's data files (a board read at import time)."""
    closure = import_closure(path)
    inits = {p / "__init__.py" for f in closure for p in f.parents
             if PACKAGE in (p, *p.parents) and (p / "__init__.py").is_file()}
    h = hashlib.sha256()
    for f in sorted(closure | inits | set(_data_files())):
        h.update(str(f.relative_to(PACKAGE)).encode())
        h.update(_source(f))
    return h.hexdigest()[:16]


def kernels_dir() -> Path:
    """Where the package's kernels are kept: one folder per :func:`module_digest`."""
    return root() / "kernels"


def keyed_kernels() -> bool:
    """Does pirate-sim place the package's kernels (numba's cache folder is the one it set)?"""
    return _configured is not None and os.environ.get("NUMBA_CACHE_DIR") == _configured


def numba_dir(*extra: Path) -> Path:
    return root() / "numba" / source_digest(*extra)


def configure(*extra: Path) -> str | None:
    """Set NUMBA_CACHE_DIR to this source digest's folder (unless the user set one); returns it.

    Called again with ``extra`` folders (the test suite adds ``tests/``) before numba is
    imported, it moves the folder; once numba is loaded it changes numba's config too, which
    takes effect for kernels defined from then on."""
    global _configured
    current = os.environ.get("NUMBA_CACHE_DIR")
    inherited = bool(current) and current == os.environ.get(ENV_SET)  # set by pirate-sim in a parent process
    if current and current != _configured and not inherited:
        return current  # the user's choice
    # a child process (warm-up, test worker, Dask worker) keeps its parent's folder unless told
    # otherwise: the parent may have keyed it by more sources (the tests' toys)
    path = Path(current) if inherited and not extra and _configured is None else numba_dir(*extra)
    if not _usable(path):
        return None  # numba falls back to __pycache__ beside the sources
    os.environ["NUMBA_CACHE_DIR"] = os.environ[ENV_SET] = _configured = str(path)
    locators = os.environ.setdefault("NUMBA_CACHE_LOCATOR_CLASSES", LOCATORS)
    config = sys.modules.get("numba.core.config")
    if config is not None:
        config.CACHE_DIR = str(path)
        if hasattr(config, "CACHE_LOCATOR_CLASSES"):
            config.CACHE_LOCATOR_CLASSES = locators
    _prune(path)
    return str(path)


def _usable(path: Path) -> bool:
    try:
        path.mkdir(parents=True, exist_ok=True)
        return os.access(path, os.W_OK)
    except OSError:  # a read-only home: numba would refuse to cache into it
        return False


def _prune(keep: Path) -> None:
    """Mark ``keep`` as used now and remove its sibling digest folders unused for KEEP_UNUSED_DAYS
    (kernels_dir's digest folders are marked and pruned the same way, by the locator)."""
    try:
        os.utime(keep)
        cutoff = time.time() - KEEP_UNUSED_DAYS * 86400
        for d in keep.parent.iterdir():
            if d != keep and d.is_dir() and d.stat().st_mtime < cutoff:
                shutil.rmtree(d, ignore_errors=True)
    except OSError:  # another process pruning at the same time
        pass
