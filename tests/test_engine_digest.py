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
