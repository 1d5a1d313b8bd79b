"""docs/meta_examples.py writes the worked examples: on a toy game with `search` (tournament
and ladder) by default, on the four games' default scenarios in the slow suite."""

import importlib.util
from pathlib import Path

import pytest

import toy_meta  # noqa: F401 - registers the toy games

ROOT = Path(__file__).resolve().parents[1]


def examples():
    spec = importlib.util.spec_from_file_location("meta_examples", ROOT / "docs" / "meta_examples.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_examples_include_the_ladder_when_search_is_registered(tmp_path):
    toml = tmp_path / "bm.toml"
    toml.write_text('game = "best_move"\n[[seats]]\nstrategy = "random"\n[[seats]]\nstrategy = "random"\n')
    doc = tmp_path / "ex.md"
    assert examples().main(["--scenarios", str(toml), "--games", "40", "--skill-games", "40", "--place-games", "20",
                            "--steps", "2", "--bootstrap", "20", "--results", str(tmp_path / "r"),
                            "--doc", str(doc)]) == 0
    text = doc.read_text()
    assert "**Tournament**" in text and "| random | mirror |" in text and "Verdict: **" in text
    assert "**Skill ladder**" in text and "| 1 | 16 vs 8 |" in text and "- first: worth" in text


@pytest.mark.slow
def test_examples_of_the_four_games(tmp_path):
    doc = tmp_path / "ex.md"
    assert examples().main(["--games", "8", "--bootstrap", "20", "--search-budget", "4", "--skill-games", "8",
                            "--place-games", "4", "--steps", "2", "--base-budget", "2",
                            "--results", str(tmp_path / "r"), "--doc", str(doc)]) == 0
    text = doc.read_text()
    for title in ("Pirate's Peak", "Ice Pirates", "Pirate's Cove", "Pirateer"):
        assert f"## {title}" in text
    assert text.count("**Tournament**") == 4 and text.count("**Skill ladder**") == 4
