"""A protocol game's engine is named (and so compiled and cached) by what it imports: an edit
elsewhere in the package keeps its name and its machine code; an edit of its rules, of the
protocol module or of a module the engine template imports gives it a new one."""

import importlib

import pytest

from pirate_sim import _cache, contract

PROTOCOL = "pirate_sim.games.pirateer.protocol"


def _name() -> str:
    return contract.engine_source(PROTOCOL, importlib.import_module(PROTOCOL))[0]


@pytest.fixture(autouse=True)
def _fresh_digests():
    _cache.module_digest.cache_clear()  # a process caches its digests (its sources do not change)
    yield
    _cache.module_digest.cache_clear()


def _edit(monkeypatch, rel: str) -> None:
    """Every read of package file ``rel`` now sees one more line (and no digest is cached)."""
    real = _cache._source
    target = _cache.PACKAGE / rel
    assert target.is_file()
    monkeypatch.setattr(_cache, "_source", lambda p: real(p) + (b"\n# edited\n" if p == target else b""))
    _cache.module_digest.cache_clear()


def test_an_edit_outside_its_imports_keeps_the_engine(monkeypatch):
    before = _name()
    _edit(monkeypatch, "report/__init__.py")
    assert _name() == before
    _edit(monkeypatch, "games/pirates_peak/rules.py")
    assert _name() == before


def test_an_edit_of_its_rules_or_the_engines_imports_renames_it(monkeypatch):
    before = _name()
    for rel in ("games/pirateer/players.py", "games/pirateer/turn.py", "search.py", "user_abi.py"):
        with monkeypatch.context() as m:
            _edit(m, rel)
            assert _name() != before, rel
        _cache.module_digest.cache_clear()
        assert _name() == before


def test_an_edit_elsewhere_in_the_package_loads_the_engines_machine_code(tmp_path):
    """A real run in a new process whose whole-package digest differs (as after an edit to the CLI:
    numba's folder for everything else moves) loads Pirateer's engine from the cache, compiling
    nothing: the engine's machine code is kept by its name's SHA (pirate_sim/_numba_locator.py),
    not in the whole-package folder."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    code = ("import sys\n"
            "import pirate_sim._cache as C\n"
            "if sys.argv[1] == 'edited':\n"
            "    C.source_digest = lambda *extra: '0123456789abcdef'  # the package as after an edit\n"
            "    C.configure()\n"
            "import os; print(os.environ['NUMBA_CACHE_DIR'])\n"
            "from pirate_sim.cli import main\n"
            "main(['run', sys.argv[2], '-o', sys.argv[3], '-n', '50', '-q'])\n")
    env = dict(os.environ, PIRATE_SIM_COMPILE_NOTES="1")
    scenario = str(root / "scenarios" / "pirateer" / "default.toml")

    def run(kind, out):
        res = subprocess.run([sys.executable, "-c", code, kind, scenario, str(tmp_path / out)], capture_output=True,
                             text=True, env=env, timeout=600, cwd=root)
        assert res.returncode == 0, res.stderr[-2000:]
        return res.stdout.splitlines()[0], res.stderr

    folder, _ = run("as_is", "a")  # loads (or compiles once) the engine
    edited, notes = run("edited", "b")
    assert edited != folder and edited.endswith("0123456789abcdef")  # numba's folder did move
    assert "pirateer engine" not in notes and "compiling" not in notes, notes
