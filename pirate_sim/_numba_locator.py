"""numba cache locator for the package's own kernels: a folder per digest of what they import.

numba's own cache keys a kernel by its file's path and modification time, so it misses edits
to the modules a kernel inlines (stale machine code) and recompiles identical sources in
another folder (every clone).  This locator, listed first in ``NUMBA_CACHE_LOCATOR_CLASSES``
by :func:`pirate_sim._cache.configure`, keeps each package module's kernels under
``<cache>/kernels/<module digest>/<module's folder>/``, where the digest
(:func:`pirate_sim._cache.module_digest`) covers the module and everything in the package it
imports, and it gives numba that digest as the source stamp instead of the file's time.
A bundled game's engine (``<cache>/engines/pirate_sim_engine_<game>_<sha>.py``, rendered by
``pirate_sim.contract.engine``) is kept the same way, under ``<cache>/kernels/<sha>/engines/``:
its name's SHA already covers the template, the game's protocol module and the import closures
of both, which is everything its machine code is made of, so an edit elsewhere in the package
(the CLI, a report) no longer compiles the four engines again (a toy's engine, whose protocol
lives outside the package, keeps the whole-package folder).  Any other function (a test's toy,
a generated strategy-file module) falls through to numba's locators, which use the
whole-package digest folder.  With a ``NUMBA_CACHE_DIR`` of the user's it steps aside.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from numba.core.caching import _CacheLocator

from . import _cache

_touched: set[Path] = set()  # digest folders marked as used by this process


# a rendered engine's name (contract.engine_source) and its line importing a protocol module of the package
_ENGINE_NAME = re.compile(r"pirate_sim_engine_\w+_([0-9a-f]{16})\.py")
_PACKAGE_PROTOCOL = re.compile(r"^import pirate_sim\.\S+ as G  # the game's protocol module$", re.M)


@functools.lru_cache(maxsize=64)
def engine_digest(path: Path) -> str | None:
    """The SHA in the name of a bundled game's rendered engine (``path``: resolved), else None."""
    m = _ENGINE_NAME.fullmatch(path.name)
    if m is None or path.parent != (_cache.root() / "engines").resolve():
        return None
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return None
    return m.group(1) if _PACKAGE_PROTOCOL.search(text) else None


class KernelLocator(_CacheLocator):
    def __init__(self, py_func, py_file: Path, digest: str, parts: tuple[str, ...]):
        self._py_file = str(py_file)
        self._lineno = py_func.__code__.co_firstlineno
        self._digest = digest
        self._folder = _cache.kernels_dir() / digest
        self._cache_path = str(self._folder.joinpath(*parts))

    def get_cache_path(self) -> str:
        return self._cache_path

    def get_source_stamp(self):
        return self._digest  # the content of the module and its imports, not a file time

    def get_disambiguator(self) -> str:
        return str(self._lineno)

    @classmethod
    def from_function(cls, py_func, py_file):
        if not _cache.keyed_kernels():
            return None
        try:
            path = Path(py_file).resolve()
        except OSError:
            return None
        digest = engine_digest(path)
        if digest is not None:
            self = cls(py_func, path, digest, ("engines",))
        else:
            try:
                path.relative_to(_cache.PACKAGE)
            except ValueError:
                return None  # not a file of the package
            if path.suffix != ".py" or not path.is_file():
                return None
            self = cls(py_func, path, _cache.module_digest(path), path.parent.relative_to(_cache.PACKAGE.parent).parts)
        try:
            self.ensure_cache_path()
        except OSError:
            return None  # an unwritable cache: numba's own locators decide
        if self._folder not in _touched:
            _touched.add(self._folder)
            _cache._prune(self._folder)
        return self
