"""Compile each rules function once, not once per integer type its callers happen to pass.

numba compiles a jitted function once per tuple of argument types it is called with, and a
call from jitted code types a constant argument as a literal (``Literal[int](0)``) and a word
read from an int32 state array as int32.  So the same rule was compiled three to five times
in one kernel: ``combat.fight_setup_nb`` for ``(..., Literal[int](0))``, ``(..., int64)`` and
``(..., int32, ..., int64)``; Pirate's Peak's ``search_decide_nb`` once per decision kind.  A
per-function compile profile of a first ``search`` seat counted 17 s of Pirate's Cove's 76 s,
12 s of Pirate's Peak's 79 s and 6 s of Ice Pirates' 74 s in such second copies, before each
caller also linked every copy into its own machine code (docs/performance.md).

:func:`install` widens, for calls from jitted code to the package's own functions (modules
``pirate_sim.*`` and the engines ``pirate_sim_engine_*``), an integer literal and a signed
integer narrower than 64 bits to int64 before numba picks or compiles the callee's version;
the caller casts its value, as it does for any call.  The values are the same, so every result
is (the hash harnesses of tests/ and docs/ prove it on every bundled game).  A boolean literal
is kept: the kernels pass ``True`` / ``False`` to have numba drop a branch, and that is a
specialization they want.  Unsigned integers (seeds, stream words) and every other type are
kept as they are.  A function called from Python is compiled for its arguments as before.

``PIRATE_SIM_ONE_SIGNATURE=0`` turns it off.  It rewrites one method of numba's dispatcher
(``Dispatcher.get_call_template``); a numba without that method compiles as before.
"""

from __future__ import annotations

import os

_PREFIXES = ("pirate_sim.", "pirate_sim_engine_")  # the package's modules and its generated engines
_state: dict = {}  # "installed": True/False once install() has run


def _widened(t):
    """int64 for an integer literal (not a boolean one) or a narrow signed integer; else ``t``."""
    from numba.core import types

    if isinstance(t, types.Boolean):  # a boolean literal too: kept, it selects a branch
        return t
    if isinstance(t, types.IntegerLiteral) or (isinstance(t, types.Integer) and t.signed and t.bitwidth < 64):
        return types.int64
    return t


def install() -> bool:
    """Patch numba's dispatcher once per process; True if calls are widened."""
    if "installed" in _state:
        return _state["installed"]
    _state["installed"] = False
    if os.environ.get("PIRATE_SIM_ONE_SIGNATURE", "1") == "0":
        return False
    from numba.core import dispatcher

    original = getattr(dispatcher.Dispatcher, "get_call_template", None)
    if original is None:
        return False

    def get_call_template(self, args, kws):
        module = getattr(getattr(self, "py_func", None), "__module__", None) or ""
        if module.startswith(_PREFIXES):
            args = tuple(_widened(a) for a in args)
            kws = {k: _widened(v) for k, v in kws.items()}
        return original(self, args, kws)

    get_call_template.__wrapped__ = original
    dispatcher.Dispatcher.get_call_template = get_call_template
    _state["installed"] = True
    return True
