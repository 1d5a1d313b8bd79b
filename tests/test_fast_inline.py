"""The inliner's copy (pirate_sim/_fast_inline.py): same compiled results, a fraction of the copying.

Each case compiles a real function tree with ``inline="always"`` in a fresh process (numba
caches nothing here), once with the fast copy and once with numba's own (``PIRATE_SIM_FAST_INLINE=0``),
and counts the IR variables numba deep-copies while it inlines.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

# Three levels of inlined functions with branches and loops (many blocks, many variables):
# the shape of a game's turn, small enough to compile in seconds.
PROBE = textwrap.dedent('''
    import json, sys
    from numba import njit
    from numba.core import ir
    from pirate_sim import _fast_inline

    fast = _fast_inline.install()
    copies = [0]
    _orig = ir.Var.__deepcopy__
    def counting(self, memo):
        copies[0] += 1
        return _orig(self, memo)
    ir.Var.__deepcopy__ = counting

    @njit(inline="always")
    def leaf(a, i):
        x = a[i] * 3 + 1
        if x % 2 == 0:
            x //= 2
        elif x > 50:
            x -= 7
        else:
            x += i
        return x

    @njit(inline="always")
    def middle(a, n):
        t = 0
        for i in range(n):
            v = leaf(a, i)
            if v > 10:
                t += v
            else:
                t -= leaf(a, (i + 1) % n)
        return t

    @njit
    def top(a, rounds):
        s = 0
        for r in range(rounds):
            s += middle(a, a.shape[0]) if r % 3 else -middle(a, a.shape[0] - 1)
            a[r % a.shape[0]] = s % 97
        return s

    import numpy as np
    out = [int(top(np.arange(k, k + 9, dtype=np.int64), 40)) for k in range(6)]
    print(json.dumps({"fast": fast, "copies": copies[0], "out": out}))
''')


def _probe(env_extra: dict, script: str = PROBE) -> dict:
    env = {**os.environ, **env_extra}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_fast_copy_compiles_the_same_function_with_fewer_copies():
    fast = _probe({})
    slow = _probe({"PIRATE_SIM_FAST_INLINE": "0"})
    assert fast["fast"] is True, "the installed numba's inline_ir no longer has the text the patch rewrites"
    assert slow["fast"] is False
    assert fast["out"] == slow["out"]
    # numba's copy drags the whole scope into every block's copy; one memo per copy does it once
    assert fast["copies"] * 2 < slow["copies"], (fast["copies"], slow["copies"])


def test_numba_with_other_text_is_left_alone():
    script = PROBE.replace("fast = _fast_inline.install()",
                           "_fast_inline._OLD = 'text numba no longer has'\n"
                           "from numba.core import inline_closurecall as icc\n"
                           "before = icc.InlineWorker.inline_ir\n"
                           "fast = _fast_inline.install()\n"
                           "assert icc.InlineWorker.inline_ir is before")
    got = _probe({}, script)
    assert got["fast"] is False
    assert got["out"] == _probe({"PIRATE_SIM_FAST_INLINE": "0"})["out"]


def test_switch_off_keeps_numba_as_is():
    script = ("import os, json\nfrom numba.core import inline_closurecall as icc\nb = icc.InlineWorker.inline_ir\n"
              "from pirate_sim import _fast_inline\nprint(json.dumps({'fast': _fast_inline.install(), "
              "'same': icc.InlineWorker.inline_ir is b}))")
    assert _probe({"PIRATE_SIM_FAST_INLINE": "0"}, script) == {"fast": False, "same": True}
