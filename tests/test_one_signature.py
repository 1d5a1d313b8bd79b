"""pirate_sim._one_signature: a package function called from jitted code with int32 words and
integer constants compiles once, for int64 (a boolean constant still gets its own version), and
computes the same values; outside the package, and with the switch off, numba's own per-type
versions come back (so the test can fail)."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
from numba import njit, types

from pirate_sim import _one_signature

SOURCE = """
def rule(x, y, flag):
    return x * 2 + y if flag else x - y

def caller(a):
    # an int32 word, an int64, integer constants and both boolean constants
    return rule(a[0], 3, True) + rule(np.int64(5), a[1], True) + rule(a[0], 0, False) + rule(a[1], a[0], False)
"""


def _compiled(module_name: str):
    """(rule, caller) jitted, as if defined in module ``module_name``."""
    g = {"__name__": module_name, "np": np}
    exec(SOURCE, g)
    rule = njit(g["rule"])
    g["rule"] = rule
    return rule, njit(g["caller"])


def _expected(a):
    r = lambda x, y, f: x * 2 + y if f else x - y  # noqa: E731
    return r(int(a[0]), 3, True) + r(5, int(a[1]), True) + r(int(a[0]), 0, False) + r(int(a[1]), int(a[0]), False)


def test_a_package_rule_compiles_once_per_boolean_constant():
    assert _one_signature.install()
    rule, caller = _compiled("pirate_sim._probe_rules")
    a = np.array([7, -9], np.int32)
    assert caller(a) == _expected(a)
    sigs = sorted(str(s) for s in rule.signatures)
    assert sigs == [str((types.int64, types.int64, types.BooleanLiteral(False))),
                    str((types.int64, types.int64, types.BooleanLiteral(True)))], sigs


def test_outside_the_package_numba_keeps_its_versions():
    _one_signature.install()
    rule, caller = _compiled("somebody_elses_rules")
    a = np.array([7, -9], np.int32)
    assert caller(a) == _expected(a)
    assert len(rule.signatures) >= 4, rule.signatures  # int32 / int64 / literal combinations


def test_switched_off_numba_keeps_its_versions():
    code = textwrap.dedent(f"""
        import os, sys
        sys.path.insert(0, {str(Path(__file__).parent)!r})
        from pirate_sim import _one_signature
        assert not _one_signature.install()
        import test_one_signature as t
        rule, caller = t._compiled("pirate_sim._probe_rules")
        import numpy as np
        a = np.array([7, -9], np.int32)
        assert caller(a) == t._expected(a)
        print(len(rule.signatures))
    """)
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, "PIRATE_SIM_ONE_SIGNATURE": "0"})
    assert res.returncode == 0, res.stderr
    assert int(res.stdout.strip()) >= 4
