"""Every cold numba compile says what it compiles while it happens; a cache load says nothing.

Real numba, a real on-disk cache (NUMBA_CACHE_DIR in a temporary folder), a real child
process: the first run compiles and must say so, the second loads the cache and must not.
"""

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np

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
                          env={**os.environ, "PIRATE_SIM_COMPILE_NOTES": "1",
                               "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path]), "NUMBA_CACHE_DIR": str(tmp_path / "numba"),
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

    log = tmp_path / "compiles.tsv"
    shutil.rmtree(tmp_path / "numba")
    quiet = _run(tmp_path, PIRATE_SIM_COMPILE_NOTES="0", PIRATE_SIM_COMPILE_LOG=str(log))
    assert "compil" not in quiet.stderr
    (line,) = log.read_text().splitlines()  # the log keeps what the notes do not say: one top-level compile
    _end, pid, seconds, functions, key = line.split("\t")
    assert int(pid) > 0 and float(seconds) > 0 and functions == "2" and key.startswith("pirate_sim_probe.kernel_nb")


def test_every_game_module_installs_the_notes():
    """Reaching any game installs the listener (every kernel is reached through a game)."""
    code = ("import numba.core.event as e; from pirate_sim.games import get_game; get_game('pirateer');"
            "from pirate_sim import compiling; print(compiling._LISTENER in e._registered['numba:compile'])")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert res.stdout.strip() == "True", res.stderr


CALLEE = "import numba\n\n\n@numba.njit(cache=True)\ndef bonus_nb(x):\n    return x + {bonus}\n"
CALLER = ("import numba\nfrom callee import bonus_nb\n\n\n@numba.njit(cache=True)\n"
          "def total_nb(n):\n    s = 0\n    for i in range(n):\n        s += bonus_nb(i)\n    return s\n")


def _total(tmp_path, keyed: bool) -> int:
    """total_nb(10) in a fresh process: numba's plain cache (one folder) or the digest-keyed one."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env.update(PIRATE_SIM_CACHE=str(tmp_path / "cache"), PIRATE_SIM_COMPILE_NOTES="0",
               PYTHONPATH=os.pathsep.join([str(tmp_path / "src"), *sys.path]))
    if keyed:
        code = "from pirate_sim import _cache; from pathlib import Path; _cache.configure(Path('src'));"
    else:
        env["NUMBA_CACHE_DIR"] = str(tmp_path / "plain")
        code = ""
    code += "import caller; print(caller.total_nb(10))"
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, env=env,
                         timeout=300)
    assert res.returncode == 0, res.stderr
    return int(res.stdout)


def test_an_edit_to_a_called_module_never_runs_stale_machine_code(tmp_path):
    """The kernel's own file is unchanged; the function it calls changed: numba's plain cache
    runs the old code (why the Makefile used to wipe every cache), the digest-keyed cache the new."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "caller.py").write_text(CALLER)
    (src / "callee.py").write_text(CALLEE.format(bonus=1))
    assert _total(tmp_path, keyed=False) == 55 and _total(tmp_path, keyed=True) == 55
    (src / "callee.py").write_text(CALLEE.format(bonus=2))
    assert _total(tmp_path, keyed=False) == 55  # numba's own cache: stale (45 + 10 * 1)
    assert _total(tmp_path, keyed=True) == 65  # keyed by the sources' digest: fresh (45 + 10 * 2)


def test_a_user_numba_cache_dir_wins(tmp_path):
    code = "import os; import pirate_sim; print(os.environ['NUMBA_CACHE_DIR'])"
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "mine"), "PIRATE_SIM_CACHE": str(tmp_path / "c")}
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert res.stdout.strip() == str(tmp_path / "mine"), res.stderr
    env.pop("NUMBA_CACHE_DIR")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert res.stdout.strip().startswith(str(tmp_path / "c" / "numba")), res.stderr


def test_the_first_run_of_a_game_says_what_it_compiles(tmp_path, toy_scenario_file):
    """`pirate-sim run` of a real game kernel (the dice-duel toy, registered as a game: its engine
    is the decision protocol's, pirate_sim/contract.py) on a cold cache names the kernel it
    compiles; the second run, from the cache, says nothing of it."""
    tests = Path(__file__).parent
    code = ("import sys; sys.path.insert(0, sys.argv[1]); from pirate_sim.games import GAME_MODULES;"
            "GAME_MODULES['dice_duel'] = 'toy_game'; from pirate_sim.cli import main; main(sys.argv[2:])")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba"), "PIRATE_SIM_CACHE": str(tmp_path / "c"),
           "PIRATE_SIM_COMPILE_NOTES": "1"}

    def run(out, numba_dir="numba"):
        return subprocess.run([sys.executable, "-c", code, str(tests), "run", str(toy_scenario_file), "-o",
                               str(tmp_path / out), "-q"], capture_output=True, text=True,
                              env={**env, "NUMBA_CACHE_DIR": str(tmp_path / numba_dir)}, timeout=600)

    cold = run("a")
    assert cold.returncode == 0, cold.stderr
    first = "compiling toy_game engine play_block_nb (numba, once per machine and package version, then cached; "
    assert first + "no earlier compile" in cold.stderr, cold.stderr  # the protocol's engine, named by its game
    assert "compiled toy_game engine play_block_nb in " in cold.stderr
    warm = run("b")
    assert warm.returncode == 0 and "toy_game" not in warm.stderr, warm.stderr
    # the engine's machine code gone (the package's kernels kept: only the engine compiles again),
    # the times kept: the next compile of the same table estimates from the last (its key, the
    # kernel and its argument types, is the same in another process)
    shutil.copytree(tmp_path / "numba", tmp_path / "numba2", ignore=lambda d, names: [n for n in names if n.startswith("engines_")])
    again = run("r3", numba_dir="numba2")
    assert again.returncode == 0 and first + "last compile on this machine took " in again.stderr, again.stderr


def test_an_engine_is_named_by_its_game_and_keeps_its_last_compile_time_across_digests():
    """A protocol game's engine module is named by the digest of the package's sources
    (contract.engine_source): the note names the game, and the last compile time that the next
    note estimates from survives an edit of the package (which renames the engine)."""
    from pirate_sim import compiling
    from pirate_sim.contract import engine_source

    import toy_game

    module = engine_source("toy_game", toy_game)[0]
    assert compiling.label(module, "play_block_nb") == "toy_game engine play_block_nb"
    other = module[:-16] + "0123456789abcdef"  # the same engine after an edit of the package
    assert compiling._key(module, "play_block_nb") == compiling._key(other, "play_block_nb") \
        == "pirate_sim_engine_toy_game.play_block_nb"
    assert compiling.label("pirate_sim.games.pirateer.kernel", "play_chunk_nb") == "pirateer play_chunk_nb"
    assert compiling._key("pirate_sim.games.pirateer.kernel", "x") == "pirate_sim.games.pirateer.kernel.x"
    # one entry point, two table kinds (a search argument None or not): two estimates
    from numba import typeof

    plain, search = (compiling._key("m", "play_chunk_nb", (typeof(np.zeros(2)), typeof(x))) for x in (None, True))
    assert plain != search and plain.startswith("m.play_chunk_nb[")


def test_a_strategy_file_is_announced_by_its_file_and_function(tmp_path, monkeypatch, capfd):
    """A strategy file's compile (its generated wrapper, a module named by a hash) is announced
    by the file and function the scenario names, as a file's compile (seconds, once per version
    of the file); the next new file's estimate is the last file's time on this machine."""
    from pirate_sim import compiling
    from pirate_sim import scenario as scen

    monkeypatch.setenv("PIRATE_SIM_COMPILE_NOTES", "1")
    # no compile time kept yet (not PIRATE_SIM_CACHE: the engines' generated modules live there too,
    # and the game's engine would compile again; the files below are new, so they compile anyway)
    monkeypatch.setattr(compiling, "cache_dir", lambda: tmp_path)
    monkeypatch.setattr(compiling, "ANNOUNCE_S", 0.0)  # announce however fast this machine compiles it
    source = (Path(__file__).resolve().parents[1] / "pirate_sim" / "players" / "pirates_cove.py").read_text()
    for i, name in enumerate(("first.py", "second.py")):
        (tmp_path / name).write_text(f"{source}\n# {tmp_path} {i}\n")  # a file never compiled before
        seats = [{"strategy": f"{name}:learned"}] + [{"strategy": "expert"}] * 3
        s = scen.from_dict({"game": "pirates_cove", "seats": seats}, source=str(tmp_path / "s.toml"))
        s.game.play(s.compile(), 1, 0, 1)
    err = capfd.readouterr().err
    once = "(numba, once per version of the file, then cached; "
    assert f"compiling strategy file first.py:learned {once}no earlier compile on this machine to go by; " \
           "a file takes a few seconds)" in err, err
    assert "compiled strategy file first.py:learned in " in err, err
    assert f"compiling strategy file second.py:learned {once}last compile on this machine took " in err, err
    assert "pirate_sim_call_" not in err, err
