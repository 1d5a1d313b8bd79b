"""make clean-cache really removes numba's cache files (and nothing in the virtual environment)."""

import shutil
import subprocess
from pathlib import Path

import pytest

MAKEFILE = Path(__file__).resolve().parents[1] / "Makefile"


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_clean_cache_removes_kernels_but_not_the_venv(tmp_path):
    stale = [tmp_path / "pirate_sim/games/__pycache__/kernel.play_nb-12.py311.nbi",
             tmp_path / "pirate_sim/games/__pycache__/kernel.play_nb-12.py311.1.nbc",
             tmp_path / "tests/__pycache__/toy_game.play_one_nb-20.py311.nbi"]
    keep = [tmp_path / ".venv/lib/site/__pycache__/lib.f-1.py311.nbi", tmp_path / "pirate_sim/games/kernel.py"]
    for p in stale + keep:
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("x")
    res = subprocess.run(["make", "-s", "-f", str(MAKEFILE), "-C", str(tmp_path), "clean-cache"],
                         capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    assert "removed 3 numba cache files" in res.stdout
    assert not any(p.exists() for p in stale)  # before: GNU find refused -prune with -delete, 0 removed
    assert all(p.exists() for p in keep)


ROOT = MAKEFILE.parent


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_ci_test_target_runs_the_linter():
    """`.ci/run` calls `make test`; ruff is configured, so the test target runs it (dry run)."""
    assert "make test" in (ROOT / ".ci/run").read_text()
    res = subprocess.run(["make", "-n", "-C", str(ROOT), "test"], capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    lint = [i for i, line in enumerate(lines) if "ruff check" in line]
    tests = [i for i, line in enumerate(lines) if "pytest" in line]
    assert lint and tests and lint[0] < tests[0], res.stdout


def test_declared_package_data_exists():
    """Every file pyproject.toml ships as package data is in the tree (py.typed was declared, absent)."""
    import tomllib

    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text())
    for pkg, patterns in cfg["tool"]["setuptools"]["package-data"].items():
        folder = ROOT.joinpath(*pkg.split("."))
        for pattern in patterns:
            assert list(folder.glob(pattern)), f"{pkg}: {pattern} matches nothing in {folder}"


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_targets_named_in_the_project_exist():
    """A `make X` named in pyproject.toml, the README or docs is a real target of the Makefile."""
    import re

    targets = set(re.findall(r"^([A-Za-z][\w-]*):", MAKEFILE.read_text(), re.M))
    texts = [ROOT / "pyproject.toml", ROOT / "README.md", *sorted((ROOT / "docs").glob("**/*.md"))]
    for path in texts:
        for name in re.findall(r"`make ([A-Za-z][\w-]*)", path.read_text()):
            assert name in targets, f"{path.name} names `make {name}`, which the Makefile lacks"


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_a_first_demo_installs_no_test_tools_and_the_tests_do():
    """`make demo` on a fresh clone installs the package and what it runs on, not the test tools
    (15 s of a 45 s install, measured); `make test` and `make lint` add them (dry runs, -B: as if
    nothing were installed).  Both install with uv (13 s against pip's 31 s, measured), from uv's
    cache first (--offline) then online, and fall back to pip where uv cannot run; uv does not
    byte-compile the whole venv (13 s of a 14 s install): the recipes keep the bytecode of what
    they import (test_the_targets_keep_pythons_bytecode_where_the_environment_turns_it_off)."""
    def recipe(target):
        res = subprocess.run(["make", "-n", "-B", "-C", str(ROOT), target], capture_output=True, text=True)
        assert res.returncode == 0, res.stderr
        return res.stdout

    demo = recipe("demo")
    uv = "uv pip install --quiet --python .venv/bin/python"  # no --compile-bytecode: Python compiles what it imports
    assert f"{uv} --offline -e . 2>/dev/null || .venv/bin/python -m {uv} -e .) ||" in demo, demo
    assert "|| .venv/bin/python -m pip install --quiet -e .\n" in demo and "[test]" not in demo, demo
    for target in ("test", "lint", "test-fast"):
        r = recipe(target)
        assert f"{uv} --offline -e '.[test]' 2>/dev/null || .venv/bin/python -m {uv} -e '.[test]') ||" in r, target
        assert "|| .venv/bin/python -m pip install --quiet -e '.[test]'" in r, target


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
@pytest.mark.parametrize("target", ["test", "test-fast", "demo"])
def test_the_targets_keep_pythons_bytecode_where_the_environment_turns_it_off(target):
    """Under PYTHONDONTWRITEBYTECODE=1 (containers), each Python process the target starts would
    compile the package again and pytest would rewrite every test module in each worker: the
    recipe's own environment prefix, run by a real shell and Python, writes bytecode again."""
    import os
    import sys

    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    res = subprocess.run(["make", "-n", "-C", str(ROOT), target], capture_output=True, text=True, env=env)
    assert res.returncode == 0, res.stderr
    lines = [line for line in res.stdout.splitlines() if "pytest" in line or "pirate-sim" in line]
    assert lines, res.stdout
    for line in lines:
        prefix = line.split(" .venv/bin/")[0]  # the variables the recipe sets before its command
        probe = subprocess.run(["sh", "-c", f"{prefix} {sys.executable} -c 'import sys; print(sys.dont_write_bytecode)'"],
                               capture_output=True, text=True, env=env)
        assert probe.stdout.strip() == "False", (line, probe.stdout, probe.stderr)
