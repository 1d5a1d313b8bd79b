"""The meta-game on a Dask cluster: the same matches, parts and summary as on this process."""

from pathlib import Path

import pytest

pytest.importorskip("distributed")

import pirate_sim as ps  # noqa: E402
import toy_meta  # noqa: E402,F401 - registers the toy games
from pirate_sim import cluster as cl  # noqa: E402
from pirate_sim import scenario as scen  # noqa: E402
from pirate_sim.meta import plan, skill, tournament  # noqa: E402
from test_meta_cli import tree  # noqa: E402

TESTS = str(Path(__file__).resolve().parent)


@pytest.mark.slow
def test_cluster_gives_identical_results(tmp_path):
    b = scen.from_dict({"game": "best_move", "run": {"seed": 9}, "seats": [{"strategy": "random"}] * 2})
    cup, cup_st = tournament.build(b, tournament.settings(["random", "first", "search"], 2200, 50))
    lad, lad_st = skill.build(b, skill.settings(4, 2, 1200, 200, ["first"], bootstrap=50))
    local = {"cup": plan.execute(tmp_path / "cup", "tournament", b, cup, cup_st, tournament.analyse),
             "lad": plan.execute(tmp_path / "lad", "skill", b, lad, lad_st, skill.analyse)}
    with cl.connect("local:2") as c:
        # the workers learn the toy games the way this process did (tests/toy_meta.py)
        c.client.run(exec, f"import sys; sys.path.insert(0, {TESTS!r}); import toy_meta")
        on = {"cup": plan.execute(tmp_path / "cup-c", "tournament", b, cup, cup_st, tournament.analyse, cluster=c),
              "lad": plan.execute(tmp_path / "lad-c", "skill", b, lad, lad_st, skill.analyse, cluster=c)}
        # the command's path: ps.skill (what `pirate-sim skill --cluster local:2` calls) on the same cluster
        api_lad = ps.skill(b, tmp_path / "lad-api", base_budget=4, steps=2, games=1200, place_games=200,
                           place=["first"], bootstrap=50, cluster=c, progress=False).summary
    assert on == local and api_lad == local["lad"]
    assert tree(tmp_path / "lad-api") == tree(tmp_path / "lad")
    assert tree(tmp_path / "cup-c") == tree(tmp_path / "cup") and tree(tmp_path / "lad-c") == tree(tmp_path / "lad")
    assert len(tree(tmp_path / "cup")) > 2 * len(cup), "matches of several chunks each"
