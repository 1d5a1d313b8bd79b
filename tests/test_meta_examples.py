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
    mod = examples()
    args = ["--scenarios", str(toml), "--games", "40", "--skill-games", "40", "--place-games", "20", "--steps", "2",
            "--bootstrap", "20", "--results", str(tmp_path / "r"), "--doc", str(doc), "--no-full-estimate"]
    assert mod.main(args) == 0
    text = doc.read_text()
    assert "**Tournament**" in text and "| random | mirror |" in text and "Verdict: **" in text
    assert "wall-clock: " in text and " playing the games, the rest compiling and timing" in text
    assert "**Skill ladder**" in text and "| 1 | 16 vs 8 | 40 | " in text and "| 50% | " in text
    assert "Skill trace (Ludii) " in text and "skill depth " in text
    assert "| first | less than 8 rollouts" in text or "| first | about " in text
    # a page built game by game: a second scenario's section joins the first one's
    toml2 = tmp_path / "luck.toml"
    toml2.write_text('game = "luck"\n[[seats]]\nstrategy = "random"\n[[seats]]\nstrategy = "random"\n')
    args[1] = str(toml2)
    assert mod.main(args + ["--keep-others"]) == 0
    both = doc.read_text()
    assert f"(`{toml}`" in both and f"(`{toml2}`" in both and both.count("# Meta-game worked examples") == 1
    assert both.count("**Skill ladder**") == 2


def test_the_estimate_block_quotes_the_command():
    from pirate_sim.meta import plan

    est = plan.Estimate(1800.0, 2_000_000, 100, 2, None, [("t: search 16 vs 8", 1500.0, 50), ("t: x", 300.0, 50)],
                        [1500.0, 300.0], ["each step plays 50 games", "over 15 minutes on this machine (30.0 min)"])
    block = examples().estimate_md("skill", "pirate-sim skill s.toml -o DIR", est)
    assert block[0] == "```" and block[1] == "$ pirate-sim skill s.toml -o DIR --estimate"
    assert "skill: 2 matches, 100 games: 30.0 min on this machine" in block[2]
    assert "search 16 vs 8 83% (30.0 s/game)" in block[2]
    assert block[3] == "  each step plays 50 games" and block[-2] == "```"


@pytest.mark.slow
def test_examples_of_the_four_games(tmp_path):
    doc = tmp_path / "ex.md"
    assert examples().main(["--games", "8", "--bootstrap", "20", "--search-budget", "4", "--skill-games", "8",
                            "--place-games", "4", "--steps", "2", "--base-budget", "2", "--no-full-estimate",
                            "--results", str(tmp_path / "r"), "--doc", str(doc)]) == 0
    text = doc.read_text()
    for title in ("Pirate's Peak", "Ice Pirates", "Pirate's Cove", "Pirateer"):
        assert f"## {title}" in text
    assert text.count("**Tournament**") == 4 and text.count("**Skill ladder**") == 4
