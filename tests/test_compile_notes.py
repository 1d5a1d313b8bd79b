"""Every cold numba compile says what it compiles while it happens; a cache load says nothing.

Real numba, a real on-disk cache (NUMBA_CACHE_DIR in a temporary folder), a real child
process: the first run compiles and must say so, the second loads the cache and must not.
"""

import os
import subprocess
import sys
import textwrap

KERNEL = textwrap.dedent('''
    import numba
    from pirate_sim import compiling

    compiling.install()
    compiling.ANNOUNCE_S = compiling.FIRST_NOTE_S = 0.0  # announce at once, so the test sees it


    @numba.njit(cache=True)
    def helper_nb(x):
        return x * 3 + 1


    @numba.njit(cache=True)
    def kernel_nb(n):
        s = 0
        for i in range(n):
            s += helper_nb(i)
        return s

''')


def _run(tmp_path, **env):
    code = "import pirate_sim_probe as p; print(p.kernel_nb(10))"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path]), "NUMBA_CACHE_DIR": str(tmp_path / "numba"),
                               "PIRATE_SIM_CACHE": str(tmp_path / "cache"), **env}, timeout=300)


def test_a_cold_compile_is_announced_and_a_cache_load_is_not(tmp_path):
    (tmp_path / "pirate_sim_probe.py").write_text(KERNEL)
    cold = _run(tmp_path)
    assert cold.returncode == 0, cold.stderr
    assert cold.stdout.strip() == "145"
    err = cold.stderr
    assert "compiling pirate_sim_probe.kernel_nb (numba" in err
    assert "no earlier compile on this machine" in err
    assert "compiled pirate_sim_probe.kernel_nb in " in err and "(2 functions); cached" in err
    assert err.count("compiling pirate_sim_probe.helper_nb") == 0  # inner functions count, not announce

    warm = _run(tmp_path)
    assert warm.returncode == 0 and warm.stdout.strip() == "145"
    assert "compil" not in warm.stderr  # loaded from the cache: nothing to say

    # after a cache wipe the estimate is the time measured on this machine last time
    import shutil

    shutil.rmtree(tmp_path / "numba")
    again = _run(tmp_path)
    assert "last compile on this machine took" in again.stderr

    quiet = _run(tmp_path, PIRATE_SIM_COMPILE_NOTES="0")
    assert "compil" not in quiet.stderr


def test_every_game_module_installs_the_notes():
    """Reaching any game installs the listener (every kernel is reached through a game)."""
    code = ("import numba.core.event as e; from pirate_sim.games import get_game; get_game('pirateer');"
            "from pirate_sim import compiling; print(compiling._LISTENER in e._registered['numba:compile'])")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert res.stdout.strip() == "True", res.stderr
