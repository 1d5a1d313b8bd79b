"""The package's kernels are cached by the content of what they import (pirate_sim/_numba_locator.py).

Real numba, real cache files, fresh processes over copies of the package: a second copy of the
same sources loads what the first compiled; an edit outside a kernel's imports compiles
nothing; an edit inside them compiles afresh.
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from pirate_sim import _cache

PACKAGE = _cache.PACKAGE

# rng.py's kernels: small (a second to compile), imported by every game
_PROBE = ("import json, numpy as np, pirate_sim; from pirate_sim import rng; "
          "r = np.zeros(rng.RNG_WORDS, np.uint64); rng.seed_game_nb(r, 3, 4); x = rng.roll_die_nb(r, 6); "
          "s = rng.roll_die_nb.stats; "
          "print(json.dumps({'file': pirate_sim.__file__, 'hits': sum(s.cache_hits.values()), "
          "'misses': sum(s.cache_misses.values()), 'x': int(x)}))")


def _copy(dst: Path) -> Path:
    shutil.copytree(PACKAGE, dst / "pirate_sim", ignore=shutil.ignore_patterns("__pycache__"))
    return dst / "pirate_sim"


def _probe(where: Path, cache: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "NUMBA_CACHE_LOCATOR_CLASSES")}
    env.update(PIRATE_SIM_CACHE=str(cache), PIRATE_SIM_COMPILE_NOTES="0", PYTHONPATH=str(where))
    res = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, cwd=where, env=env,
                         timeout=300)
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout.strip().splitlines()[-1])
    assert out["file"].startswith(str(where)), out  # the copy ran, not the installed package
    return out


def test_a_second_copy_of_the_sources_loads_the_kernels_the_first_compiled(tmp_path):
    cache = tmp_path / "cache"
    a, b = _copy(tmp_path / "a"), _copy(tmp_path / "b")
    first = _probe(a.parent, cache)
    assert first["misses"] == 1 and first["hits"] == 0
    again = _probe(b.parent, cache)  # another folder, other file times: numba's own cache would compile
    assert again["hits"] == 1 and again["misses"] == 0
    assert again["x"] == first["x"]
    assert len(list((cache / "kernels").iterdir())) == 1


def test_an_edit_outside_a_kernels_imports_compiles_nothing_and_one_inside_compiles(tmp_path):
    cache = tmp_path / "cache"
    pkg = _copy(tmp_path / "a")
    assert _probe(pkg.parent, cache)["misses"] == 1
    # the CLI, the reports and the meta-game are not imported by rng.py
    for rel in ("cli/__init__.py", "report/__init__.py", "meta/skill.py", "api.py"):
        with open(pkg / rel, "a", encoding="utf-8") as f:
            f.write("\n# an edit\n")
    assert _probe(pkg.parent, cache)["hits"] == 1
    with open(pkg / "rng.py", "a", encoding="utf-8") as f:
        f.write("\n# an edit\n")
    assert _probe(pkg.parent, cache)["misses"] == 1


def test_a_kernels_digest_covers_every_package_module_it_imports():
    names = {str(f.relative_to(PACKAGE)) for f in _cache.import_closure(PACKAGE / "games/pirates_peak/protocol.py")}
    # what the kernel inlines and the constants it freezes
    assert {"rng.py", "search.py", "seating.py", "games/pirates_peak/rules.py", "games/pirates_peak/board.py",
            "games/pirates_peak/strategies.py"} <= names
    # what it never reads: the plug-in layer its package's __init__ loads (game.py, the report pages)
    # included, so that an edit to a game's report or plug-in compiles none of its kernels
    assert not names & {"api.py", "cli/__init__.py", "report/__init__.py", "meta/skill.py",
                        "games/ice_pirates/game.py", "games/pirates_peak/game.py",
                        "games/pirates_peak/report.py", "games/pirates_peak/__init__.py"}


def _peak_digest(where: Path, cache: Path) -> str:
    env = {**os.environ, "PIRATE_SIM_CACHE": str(cache), "PYTHONPATH": str(where)}
    code = ("from pirate_sim import _cache; "
            "print(_cache.module_digest(_cache.PACKAGE / 'games/pirates_peak/protocol.py'))")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=where, env=env, timeout=60)
    assert res.returncode == 0, res.stderr
    return res.stdout.strip()


def test_an_edit_to_a_games_plug_in_or_report_leaves_its_kernels_digest(tmp_path):
    """A game's ``__init__`` loads its plug-in and report pages; an import of the kernel runs it, but
    none of that reaches machine code: editing them keeps the digest (no compile), while an edit to
    the ``__init__`` itself or to a module the kernel imports changes it."""
    pkg = _copy(tmp_path / "a")
    first = _peak_digest(pkg.parent, tmp_path / "c")
    for rel in ("games/pirates_peak/game.py", "games/pirates_peak/report.py"):
        with open(pkg / rel, "a", encoding="utf-8") as f:
            f.write("\n# an edit\n")
    assert _peak_digest(pkg.parent, tmp_path / "c") == first
    for rel in ("games/pirates_peak/__init__.py", "games/pirates_peak/rules.py"):
        with open(pkg / rel, "a", encoding="utf-8") as f:
            f.write("\n# an edit\n")
        now = _peak_digest(pkg.parent, tmp_path / "c")
        assert now != first, rel
        first = now


def test_a_user_numba_cache_dir_places_the_kernels_itself(tmp_path):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "mine"), "PIRATE_SIM_CACHE": str(tmp_path / "c")}
    code = "import pirate_sim; from pirate_sim import _cache; print(_cache.keyed_kernels())"
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert res.stdout.strip() == "False", res.stderr


def test_a_child_process_keeps_the_content_keyed_kernels(tmp_path):
    """The warm-up's, the test workers' and Dask's processes inherit the NUMBA_CACHE_DIR their
    parent set: that is still pirate-sim's folder, not a user's, so their kernels are keyed by
    content too (they once fell back to numba's path-keyed cache and every clone recompiled)."""
    code = ("import os, subprocess, sys; import pirate_sim; from pirate_sim import _cache; "
            "child = subprocess.run([sys.executable, '-c', 'import pirate_sim; from pirate_sim import _cache; "
            "print(_cache.keyed_kernels(), __import__(\"os\").environ[\"NUMBA_CACHE_DIR\"])'], "
            "capture_output=True, text=True, env=dict(os.environ)); "
            "print(_cache.keyed_kernels(), os.environ['NUMBA_CACHE_DIR']); print(child.stdout.strip(), child.stderr)")
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", _cache.ENV_SET)}
    env["PIRATE_SIM_CACHE"] = str(tmp_path / "c")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert res.returncode == 0, res.stderr
    parent, child = res.stdout.strip().splitlines()[:2]
    assert parent.startswith("True ") and child == parent, res.stdout
