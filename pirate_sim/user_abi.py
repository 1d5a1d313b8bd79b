"""How a cached game kernel calls a strategy file's function: by address, through one C signature.

numba cannot cache a kernel that takes a jitted function as an argument, and a kernel that
calls a function it imports by name is recompiled whole (minutes) for every new set of
strategy files.  Instead each user function gets a small ``cfunc`` *wrapper* (compiled and
cached on its own, in seconds) whose C signature is the same for every function of a game:
each array argument travels as (data pointer, its dimensions).  The game's kernel is an
ordinary package module compiled once; at a user seat it calls ``call_user_nb(calls, f,
view, options, params, rng)``, which loads address ``calls[0][f]`` and calls it with the
arrays' pointers (:func:`_call_address`).  The wrapper hands those on to a compiled ``_call``,
which rebuilds the arrays (``carray``), makes ``params`` and the board's tables read-only again,
and calls the user function (inlined into it).

An exception inside the user function (numba checks its indices: ``boundscheck``) cannot
cross a C call; the wrapper catches it and returns :data:`RAISED`, which the kernel treats
like any illegal answer (the game stops, ``err`` names it) and :func:`raise_errors`
(pirate_sim.user_strategy) reports as an exception.

This module imports numba, numpy and llvmlite only; the games' user kernels import it.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.core.errors import TypingError
from numba.extending import intrinsic




def user_calls(addrs: np.ndarray, board: tuple) -> tuple:
    """What a kernel needs to call the strategy files of a scenario, as one flat tuple
    ``(addrs, *board)``: ``addrs[f]`` the address of dispatch index f's wrapper, then the
    arrays of the game's read-only public tables (a NamedTuple) in field order.  Flat because
    numba's parallel loops take a tuple of arrays but not a tuple holding a tuple."""
    return (addrs, *board)


def _array_args(tys) -> list:
    """(type, position) of every array to pass, checked to be C-contiguous (only the data
    pointer and the dimensions travel, not the strides)."""
    for t in tys:
        if not isinstance(t, types.Array):
            raise TypingError(f"a strategy-file argument must be an array, got {t}")
        if t.layout != "C":
            raise TypingError(f"a strategy-file argument must be a C-contiguous array, got {t}")
    return list(tys)


@intrinsic
def _call_address(typingctx, addr, view, options, params, rng, calls):
    """int64: call the wrapper at ``addr`` with (pointer, dims...) of view, options, params, rng
    and each board array of ``calls`` (its members after the first) in order."""
    if not isinstance(calls, types.BaseTuple):
        raise TypingError(f"calls must be the tuple of user_calls(), got {calls}")
    fixed = _array_args((view, options, params, rng))
    members = _array_args(calls.types[1:])
    sig = types.int64(addr, view, options, params, rng, calls)

    def codegen(context, builder, signature, args):
        a, *arrays, bval = args
        values = list(zip(fixed, arrays))
        values += [(t, builder.extract_value(bval, i + 1)) for i, t in enumerate(members)]
        i8p = ir.IntType(8).as_pointer()
        intp = context.get_value_type(types.intp)
        call_args, arg_types = [], []
        for t, v in values:
            ary = context.make_array(t)(context, builder, v)
            call_args.append(builder.bitcast(ary.data, i8p))
            arg_types.append(i8p)
            for d in cgutils.unpack_tuple(builder, ary.shape, t.ndim):
                call_args.append(d)
                arg_types.append(intp)
        fnty = ir.FunctionType(ir.IntType(64), arg_types)
        fn = builder.inttoptr(a, fnty.as_pointer())
        return builder.call(fn, call_args)

    return sig, codegen


@intrinsic
def as_readonly(typingctx, arr):
    """The same array, typed read-only (a write to it is a compile error in the user function)."""
    if not isinstance(arr, types.Array):
        raise TypingError("as_readonly takes an array")
    ro = arr.copy(readonly=True)

    def codegen(context, builder, signature, args):
        context.nrt.incref(builder, signature.args[0], args[0])
        return args[0]

    return ro(arr), codegen


# What :func:`must_be_index` says of a function that returns something else; the loader reads the
# type back out of numba's error (pirate_sim.user_strategy.compile_calls)
NOT_AN_INDEX = "returns {}, expected the index (an integer) of the option it takes"


@intrinsic
def must_be_index(typingctx, x):
    """``x`` unchanged where it is an integer, else a typing error naming its type: the wrapper's
    cast to int64 would otherwise accept a float (or a bool) silently."""
    if not isinstance(x, types.Integer):
        raise TypingError(NOT_AN_INDEX.format(x))

    def codegen(context, builder, signature, args):
        return args[0]

    return x(x), codegen


@njit(cache=True)
def call_user_nb(calls, f, view, options, params, rng):
    """Dispatch index ``f``'s answer (int64; :data:`RAISED` if it raised) for these arrays."""
    return _call_address(calls[0][f], view, options, params, rng, calls)


# ------------------------------------------------------------------ the wrapper's source
def c_signature(arg_types) -> str:
    """The cfunc signature text for arrays of these numba types (pointer, then one intp per dim)."""
    parts = []
    for t in arg_types:
        parts.append("types.voidptr")
        parts += ["types.intp"] * t.ndim
    return f"types.int64({', '.join(parts)})"


def wrapper_source(user_module: str, func: str, n_args: int, arg_types: tuple, board_type, cache: bool = True) -> str:
    """Python source of the cfunc wrapper calling ``user_module.func`` with its first ``n_args``
    of (view, options, params, rng, board).  ``arg_types``: numba types of the first four;
    ``board_type``: the NamedTuple type of the board (its class imported by name); ``cache``
    False where the module cannot be cached (a recursive function: user_strategy._jit_module)."""
    members = list(board_type.types)
    cls = board_type.instance_class
    everything = list(arg_types) + members
    params, lines = [], []
    names = ["view", "options", "params", "rng"] + [f"_b{i}" for i in range(len(members))]
    for k, (t, nm) in enumerate(zip(everything, names)):
        p = f"p{k}"
        dims = [f"d{k}_{j}" for j in range(t.ndim)]
        params += [p, *dims]
        shape = f"({', '.join(dims)},)"
        expr = f"carray({p}, {shape}, np.{t.dtype})"
        if not t.mutable:
            expr = f"as_readonly({expr})"
        lines.append(f"    {nm} = {expr}")
    lines.append(f"    board = _Board({', '.join(names[4:])})")
    call_args = ", ".join(["view", "options", "params", "rng", "board"][:n_args])
    return "\n".join([
        "# generated by pirate_sim.user_abi: the C-callable wrapper of one strategy-file function; do not edit",
        "import numpy as np",
        "from numba import carray, cfunc, njit, types",
        "",
        f"from {cls.__module__} import {cls.__qualname__} as _Board",
        f"from {user_module} import {func} as _user",
        "from pirate_sim.user_abi import as_readonly, must_be_index",
        "from pirate_sim.user_strategy import RAISED",
        "",
        "",
        "# the user function is inlined into _call where user_strategy._jit_module compiled it so;",
        "# _call is out of line: inlined into the try below, an exception would escape it (numba 0.68);",
        "# it takes the C arguments and rebuilds the arrays itself: an out-of-line call hands each array",
        "# over as its whole structure, and the board's tables made that call cost more than some players;",
        "# its typing is the loader's check of the function (a typing error or a result that is no index)",
        f"@njit(cache={cache}, boundscheck=True)",
        f"def _call({', '.join(params)}):",
        *lines,
        f"    return must_be_index(_user({call_args}))",
        "",
        "",
        f"@cfunc({c_signature(everything)}, cache={cache})",
        f"def wrapper({', '.join(params)}):",
        "    try:",
        f"        return np.int64(_call({', '.join(params)}))",
        "    except Exception:  # noqa: BLE001 - nothing may cross the C call; the kernel reports RAISED",
        "        return RAISED",
        "",
    ])
