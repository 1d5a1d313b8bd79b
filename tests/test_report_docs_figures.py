"""The balance figures quoted in README.md and docs/ are the ones docs/figures.py computes.

The marker machinery is checked in the default suite (fast); replaying the documented runs
and comparing every figure in the text is ``slow`` (about a minute on 2 cores).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def figures_module():
    spec = importlib.util.spec_from_file_location("docs_figures", ROOT / "docs" / "figures.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up there
    spec.loader.exec_module(mod)
    return mod


def test_markers_are_replaced_and_changes_named():
    F = figures_module()
    text = "first player <!-- fig:a -->52.5%<!-- /fig --> and <!-- fig:b -->\nold\n<!-- /fig -->."
    new, changed = F.apply(text, {"a": "53.7%", "b": "\nnew\n"})
    assert new == "first player <!-- fig:a -->53.7%<!-- /fig --> and <!-- fig:b -->\nnew\n<!-- /fig -->."
    assert changed == ["a: '52.5%' -> '53.7%'", "b: 'old' -> 'new'"]
    assert F.apply(new, {"a": "53.7%", "b": "\nnew\n"}) == (new, [])
    with pytest.raises(KeyError, match="unknown figure 'c'"):
        F.apply("<!-- fig:c -->1<!-- /fig -->", {"a": "1"})


def test_every_marker_in_the_text_names_a_figure():
    F = figures_module()
    names = set(F.FIGURE_NAMES)
    found = set()
    for rel in F.FILES:
        found |= {m.group(1) for m in F.MARKER.finditer((ROOT / rel).read_text())}
    assert found == names
    assert "52.5% of decided games at the rulebook's values)" not in (ROOT / "README.md").read_text()


@pytest.mark.slow
def test_the_quoted_figures_are_current(capsys):
    F = figures_module()
    rc = F.main(["--check"])
    out = capsys.readouterr().out
    assert rc == 0, out
