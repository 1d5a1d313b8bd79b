"""Copy a function's IR once, not once per block, when numba inlines it (most of a cold compile).

Every game's kernels call small rules with ``inline="always"`` (a call left out of line costs 7
to 30% of a game's speed: docs/performance.md, "Compile time").  numba inlines such a call by
copying the callee's IR (``InlineWorker.inline_ir``), and its ``copy_ir`` deep-copies each
block with a fresh memo.  A block's first variable drags the function's whole ``Scope`` (every
variable of the function) into that copy, so one copy costs blocks x variables: a profile of
Ice Pirates' cold ``play`` compile spent 311 of its 420 s in ``copy.deepcopy`` (numba issues
#8989 and #9204, numba-cuda #688 measure the same).  :func:`install` rewrites that one helper
so the blocks of one copy share one memo: the scope is copied once per copy, as one
``copy.deepcopy`` of the whole IR would; and it drops a second, never-read copy of each callee.  The IR that comes out is the same (one scope copy
instead of equal ones per block; numba itself keeps only the first of those and points every
inlined block at the caller's scope), so the machine code and every result are too
(tests/results_hash.py and the other hash harnesses prove it on every bundled game).

The rewrite is of numba's own source, text for text: if the expected lines are not there (a
numba that changed them), nothing is patched and numba compiles as before, only slower.
``PIRATE_SIM_FAST_INLINE=0`` turns it off.
"""

from __future__ import annotations

import inspect
import os
import textwrap

# numba's copy_ir as written in numba 0.59-0.68, indented as in the method's dedented source:
# each block deep-copied with its own memo
_OLD = """\
        for block_label, block in the_ir.blocks.items():
            new_block = copy.deepcopy(the_ir.blocks[block_label])
            kernel_copy.blocks[block_label] = new_block
"""
# the same copy with one memo for the whole function (what copy.deepcopy(the_ir.blocks) does)
_NEW = """\
        memo = {}
        for block_label, block in the_ir.blocks.items():
            new_block = copy.deepcopy(the_ir.blocks[block_label], memo)
            kernel_copy.blocks[block_label] = new_block
"""
# numba then copies the copy again, to return an unmutated IR that neither of its callers
# (InlineInlinables, InlineOverloads) reads; the caller's IR is returned instead, as it is never
# mutated here (numba-cuda #689 makes the same change)
_OLD_ORIGINAL = ("    callee_ir = copy_ir(callee_ir)\n", "    callee_ir_original = copy_ir(callee_ir)\n")
_NEW_ORIGINAL = ("    callee_ir_original = callee_ir  # pirate-sim: the caller's IR, never mutated here\n"
                 "    callee_ir = copy_ir(callee_ir)\n", "")
_state: dict = {}  # "installed": True/False once install() has run


def install() -> bool:
    """Patch ``InlineWorker.inline_ir`` once per process; True if the fast copy is in use."""
    if "installed" in _state:
        return _state["installed"]
    _state["installed"] = False
    if os.environ.get("PIRATE_SIM_FAST_INLINE", "1") == "0":
        return False
    from numba.core import inline_closurecall as icc

    try:
        src = textwrap.dedent(inspect.getsource(icc.InlineWorker.inline_ir))
    except (OSError, TypeError):  # no source shipped: leave numba as it is
        return False
    if any(src.count(old) != 1 for old in (_OLD, *_OLD_ORIGINAL)):
        return False
    src = src.replace(_OLD, _NEW)
    for old, new in zip(_OLD_ORIGINAL, _NEW_ORIGINAL):
        src = src.replace(old, new)
    namespace = dict(vars(icc))
    exec(compile(src, icc.__file__, "exec"), namespace)  # noqa: S102 - numba's own text
    fast = namespace["inline_ir"]
    fast.__qualname__ = icc.InlineWorker.inline_ir.__qualname__
    fast.__doc__ = icc.InlineWorker.inline_ir.__doc__
    icc.InlineWorker.inline_ir = fast
    _state["installed"] = True
    return True
