"""Keep CPython from mapping and unmapping a frame-stack chunk at every call (a compile that hit it ran 2.7x slower).

CPython 3.11-3.13 keeps Python frames in 16 KiB chunks taken from the OS with ``mmap`` and given
back with ``munmap`` as soon as the last frame in them returns (CPython issue gh-142183, fixed
in 3.13 and 3.14 releases of 2026 by keeping one freed chunk).  Code whose call depth goes back
and forth across a chunk's end maps and unmaps a chunk on every such call.  numba's compiler
does that by the million: a cold compile of Pirate's Peak's ``play`` kernels, started a few
frames deeper (from ``pirate_sim.warm``), took 200 s instead of 75 s, 116 s of it in the kernel
handling 15 million page faults.  Whether it happens depends only on the depth the compile starts
at, so it came and went with unrelated edits.

:func:`install` applies the same cure from outside: it replaces CPython's *arena allocator*
(``PyObject_SetArenaAllocator``, the hook behind both pymalloc's arenas and the frame chunks)
by one that maps and unmaps exactly as CPython's does (``mmap`` anonymous private read-write,
``munmap``), except that it keeps the last ``KEEP`` freed blocks of at most ``CACHE_MAX`` bytes and hands
them back to the next requests of their size.  Blocks mapped before the switch are unmapped by it
as CPython would; nothing else about Python's memory changes.  The two functions are numba
``cfunc`` machine code (a Python callback inside the allocator would allocate), so this needs
no C compiler.  Linux only (the ``mmap`` flags are Linux's); elsewhere :func:`install` does
nothing.  ``PIRATE_SIM_FRAME_STACK=0`` turns it off.
"""

from __future__ import annotations

import ctypes
import os
import sys

# The largest freed block kept for the next request: a frame chunk is 16 KiB (more for a frame
# too large for one); pymalloc's arenas (256 KiB or 1 MiB) are never kept.
CACHE_MAX = 64 * 1024
# How many freed blocks are kept (newest first out): a compile's depth swings across several
# chunk ends, and one kept chunk (CPython's own fix) covers only one of them.  At most
# KEEP * CACHE_MAX = 2 MiB stays mapped.
KEEP = 32
_PROT_RW = 0x1 | 0x2  # PROT_READ | PROT_WRITE
_MAP_PRIVATE_ANON = 0x02 | 0x20  # MAP_PRIVATE | MAP_ANONYMOUS (Linux)
_MAP_FAILED = (1 << 64) - 1  # (void *) -1 as an unsigned 64-bit address


class _ArenaAllocator(ctypes.Structure):
    """CPython's ``PyObjectArenaAllocator``: ctx, alloc(ctx, size), free(ctx, ptr, size)."""

    _fields_ = [("ctx", ctypes.c_void_p), ("alloc", ctypes.c_void_p), ("free", ctypes.c_void_p)]


_state: dict = {}  # what install() made: kept alive for the life of the process


def applies() -> bool:
    """Is this a CPython on Linux x86-64 or arm64 whose frame stack is made of chunks (3.11+)?"""
    return (sys.implementation.name == "cpython" and sys.platform.startswith("linux")
            and sys.version_info >= (3, 11) and ctypes.sizeof(ctypes.c_void_p) == 8
            and os.environ.get("PIRATE_SIM_FRAME_STACK", "1") not in ("0", "no", "false", ""))


def _build():
    import numpy as np
    from numba import carray, cfunc, types

    libc = ctypes.CDLL(None, use_errno=False)
    mmap = libc.mmap
    # pointers passed as 64-bit unsigned integers: the same registers, and numba calls it
    mmap.argtypes = [ctypes.c_uint64, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int64]
    mmap.restype = ctypes.c_uint64
    munmap = libc.munmap
    munmap.argtypes = [ctypes.c_uint64, ctypes.c_size_t]
    munmap.restype = ctypes.c_int

    # slot[0]: blocks kept; then (address, size) pairs, the newest last
    slot = np.zeros(2 + 2 * KEEP, dtype=np.uint64)
    ctx_t = types.CPointer(types.uint64)

    @cfunc(types.uint64(ctx_t, types.uint64), nopython=True)
    def alloc(ctx, size):
        s = carray(ctx, 2 + 2 * KEEP)
        n = np.int64(s[0])
        for i in range(n - 1, -1, -1):  # the newest kept block of this size
            if s[2 + 2 * i + 1] == size:
                p = s[2 + 2 * i]
                for j in range(i, n - 1):
                    s[2 + 2 * j] = s[2 + 2 * j + 2]
                    s[2 + 2 * j + 1] = s[2 + 2 * j + 3]
                s[0] = n - 1
                return p
        p = mmap(0, size, _PROT_RW, _MAP_PRIVATE_ANON, -1, 0)
        return 0 if p == _MAP_FAILED else p

    @cfunc(types.void(ctx_t, types.uint64, types.uint64), nopython=True)
    def free(ctx, ptr, size):
        s = carray(ctx, 2 + 2 * KEEP)
        if size > CACHE_MAX:
            munmap(ptr, size)
            return
        n = np.int64(s[0])
        if n == KEEP:  # full: the oldest kept block goes back to the OS
            munmap(s[2], s[3])
            for j in range(n - 1):
                s[2 + 2 * j] = s[2 + 2 * j + 2]
                s[2 + 2 * j + 1] = s[2 + 2 * j + 3]
            n -= 1
        s[2 + 2 * n] = ptr
        s[2 + 2 * n + 1] = size
        s[0] = n + 1

    return slot, alloc, free, munmap


def install() -> bool:
    """Switch to the caching arena allocator (once per process); True when it is in use."""
    if "new" in _state:
        return True
    if not applies() or _state.get("building") or _state.get("failed"):
        return False
    _state["building"] = True  # building compiles two cfuncs: a compile listener may call back
    try:
        slot, alloc, free, munmap = _build()
    except Exception:  # noqa: BLE001 - an optimisation only: no libc mmap, a numba that refuses, ...
        _state["failed"] = True
        return False
    finally:
        _state["building"] = False
    api = ctypes.pythonapi
    api.PyObject_GetArenaAllocator.argtypes = [ctypes.POINTER(_ArenaAllocator)]
    api.PyObject_GetArenaAllocator.restype = None
    api.PyObject_SetArenaAllocator.argtypes = [ctypes.POINTER(_ArenaAllocator)]
    api.PyObject_SetArenaAllocator.restype = None
    old = _ArenaAllocator()
    api.PyObject_GetArenaAllocator(ctypes.byref(old))
    new = _ArenaAllocator(slot.ctypes.data, alloc.address, free.address)
    _state.update(slot=slot, alloc=alloc, free=free, munmap=munmap, old=old, new=new, api=api)
    api.PyObject_SetArenaAllocator(ctypes.byref(new))
    return True


def uninstall() -> None:
    """Back to CPython's allocator (for tests): the kept blocks are unmapped first."""
    if "new" not in _state:
        return
    _state["api"].PyObject_SetArenaAllocator(ctypes.byref(_state["old"]))
    slot = _state["slot"]
    for i in range(int(slot[0])):
        _state["munmap"](int(slot[2 + 2 * i]), int(slot[3 + 2 * i]))
    slot[0] = 0
    del _state["new"]
