"""The arena allocator that keeps freed frame-stack chunks (pirate_sim/_frame_stack.py).

Each check runs in a fresh interpreter: the allocator is process-wide, and the thrashing it
cures depends on the exact call depth, which a pytest worker's own stack would shift.
"""

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pirate_sim import _frame_stack

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(not _frame_stack.applies(), reason="CPython 3.11+ on 64-bit Linux only")

# A recursion to each depth in turn; the depth whose calls fault the most is where the call
# depth crosses a chunk's end.  REPS calls there: CPython 3.11 maps and unmaps a chunk each time.
_PROBE = textwrap.dedent("""
    import json, resource, sys
    sys.path.insert(0, sys.argv[1])
    from pirate_sim import _frame_stack
    REPS = 20000

    def rec(n):
        return rec(n - 1) if n else 0

    def faults():
        return resource.getrusage(resource.RUSAGE_SELF).ru_minflt

    def worst():
        out = (0, 0)
        for d in range(1, 400):
            f0 = faults()
            for _ in range(REPS // 100):
                rec(d)
            out = max(out, (faults() - f0, d))
        f0 = faults()
        for _ in range(REPS):
            rec(out[1])
        return faults() - f0

    before = worst()
    installed = _frame_stack.install()
    after = worst()
    # the allocator must serve ordinary work too: many objects, arenas freed and taken again
    junk = [[str(i)] * 50 for i in range(200000)]
    del junk
    junk = [bytes(100) for i in range(300000)]
    kept = int(_frame_stack._state["slot"][0])
    _frame_stack.uninstall()
    again = sum(len(str(i)) for i in range(100000))
    print(json.dumps({"before": before, "after": after, "installed": installed, "kept": kept,
                      "reps": REPS, "again": again}))
""")


def _probe() -> dict:
    out = subprocess.run([sys.executable, "-c", _PROBE, str(ROOT)], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_call_depth_on_a_chunk_end_no_longer_maps_a_chunk_per_call():
    r = _probe()
    assert r["installed"] is True
    # with the allocator: the worst depth costs no page fault per call (under 1 per 100 calls)
    assert r["after"] < r["reps"] / 100, r
    if sys.version_info < (3, 13):  # CPython's own allocator, which has no chunk cache before 3.13
        assert r["before"] >= r["reps"], r  # at least one fault per call: the probe sees the thrashing
    assert 0 <= r["kept"] <= _frame_stack.KEEP
    assert r["again"] == sum(len(str(i)) for i in range(100000))


def test_the_first_compile_of_a_watched_kernel_switches_the_allocator_on():
    code = textwrap.dedent("""
        import sys
        sys.path.insert(0, sys.argv[1])
        from numba import njit
        from pirate_sim import _frame_stack, compiling
        compiling.install()
        compiling.watch("__main__")
        assert "new" not in _frame_stack._state  # importing and registering switch nothing
        f = njit(lambda x: x + 1)
        assert f(41) == 42
        print("installed" if "new" in _frame_stack._state else "not installed")
    """)
    out = subprocess.run([sys.executable, "-c", code, str(ROOT)], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "installed"


def test_it_can_be_turned_off(monkeypatch):
    monkeypatch.setenv("PIRATE_SIM_FRAME_STACK", "0")
    assert not _frame_stack.applies()
