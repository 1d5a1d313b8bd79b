"""numba cache locator for the package's own kernels: a folder per digest of what they import.

numba's own cache keys a kernel by its file's path and modification time, so it misses edits
to the modules a kernel inlines (stale machine code) and recompiles identical sources in
another folder (every clone).  This locator, listed first in ``NUMBA_CACHE_LOCATOR_CLASSES``
by :func:`pirate_sim._cache.configure`, keeps each package module's kernels under
``<cache>/kernels/<module digest>/<module's folder>/``, where the digest
(:func:`pirate_sim._cache.module_digest`) covers the module and everything in the package it
imports, and it gives numba that digest as the source stamp instead of the file's time.
Any other function (a test's toy, a generated strategy-file module) falls through to numba's
locators, which use the whole-package digest folder.  With a ``NUMBA_CACHE_DIR`` of the user's
it steps aside.
"""

from __future__ import annotations

from pathlib import Path

from numba.core.caching import _CacheLocator

from . import _cache

_touched: set[Path] = set()  # digest folders marked as used by this process


class KernelLocator(_CacheLocator):
    def __init__(self, py_func, py_file: Path, digest: str):
        self._py_file = str(py_file)
        self._lineno = py_func.__code__.co_firstlineno
        self._digest = digest
        rel = py_file.parent.relative_to(_cache.PACKAGE.parent)
        self._folder = _cache.kernels_dir() / digest
        self._cache_path = str(self._folder.joinpath(*rel.parts))

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
            path.relative_to(_cache.PACKAGE)
        except (OSError, ValueError):
            return None  # not a file of the package
        if path.suffix != ".py" or not path.is_file():
            return None
        self = cls(py_func, path, _cache.module_digest(path))
        try:
            self.ensure_cache_path()
        except OSError:
            return None  # an unwritable cache: numba's own locators decide
        if self._folder not in _touched:
            _touched.add(self._folder)
            _cache._prune(self._folder)
        return self
