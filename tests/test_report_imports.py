"""A game's report pages never import the game's plug-in (``game.py`` loads ``report.py``
for its pages: one direction only, so neither module needs the other half-initialised)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

GAMES_DIR = Path(__file__).parent.parent / "pirate_sim" / "games"


def imported_siblings(path: Path) -> set[str]:
    """Modules of the same package that ``path`` imports anywhere (lazy imports in functions too)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                out.add(node.module.split(".")[0])
            else:
                out.update(a.name for a in node.names)
    return out


def reachable(package: Path, start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        mod = todo.pop()
        path = package / f"{mod}.py"
        if mod in seen or not path.exists():
            continue
        seen.add(mod)
        todo += sorted(imported_siblings(path))
    return seen


@pytest.mark.parametrize("package", sorted(p.parent for p in GAMES_DIR.glob("*/report.py")), ids=lambda p: p.name)
def test_report_does_not_import_the_plug_in(package):
    assert "report" in imported_siblings(package / "game.py")  # the direction that stays
    assert "game" not in reachable(package, "report")
