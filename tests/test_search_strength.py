"""The measured strength of ``search`` (issue 30): the tables the report's "how strong is
search" page and docs/search.md show belong to today's rules and search defaults, say so when
a run differs, and the script that measures them runs end to end on a real kernel."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from pirate_sim.games import available_games, get_game
from pirate_sim.report.strength import differences, draw_strength, measured

ROOT = Path(__file__).resolve().parent.parent


def _games():
    """The bundled games (a test may register a toy game of its own)."""
    return [g for g in available_games() if (ROOT / "scenarios" / g / "default.toml").exists()]


def _script():
    spec = importlib.util.spec_from_file_location("search_strength", ROOT / "docs" / "search_strength.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("game", _games())
def test_every_game_has_a_table_measured_for_todays_rules_and_defaults(game):
    """A change to the rules version or to search's defaults leaves the table stale: re-measure
    (python docs/search_strength.py --game GAME --write) or this fails."""
    g = get_game(game)
    tables = measured(game)
    assert tables, f"{game}: no measured table (docs/search_strength.py --write)"
    rules, _ = _script().default_rules(g)
    for t in tables:
        assert differences(g, t, rules) == [], (game, t["seats"])
        names = [s.name for s in g.strategies if s.name != "search"]
        assert [r["opponent"] for r in t["rows"]] == names  # every scripted player
        for r in t["rows"]:
            s = r["search"]
            assert s["lo"] <= s["share"] <= s["hi"] and s["games"] % t["seats"] == 0 and s["games"] >= 100


def test_expert_is_beaten_where_issue_30_asks():
    """The must-show of issue 30 read off the tables: the Wilson lower bound against expert
    above 1/2 in two seats, above 1/4 among three experts, and ahead of expert in that seat."""
    assert len(_games()) == 4
    for game in _games():
        for t in measured(game):
            row = next(r for r in t["rows"] if r["opponent"] == "expert")
            assert row["search"]["lo"] > 1 / t["seats"], (game, t["seats"], row["search"])
            if t["seats"] > 2:
                assert row["edge"]["lo"] > 0, (game, t["seats"], row["edge"])


def test_a_run_on_other_rules_is_told_so():
    g = get_game("pirates_peak")
    t = measured("pirates_peak")[0]
    rules = dict(t["rules"], **{"squid.escape_total": 13})
    assert differences(g, t, rules) == ["this run's rules differ in squid.escape_total"]
    old = dict(t, version="0.9", search=dict(t["search"], budget=7))
    d = differences(g, old, t["rules"])
    assert d[0] == f"rules version 0.9 (now {g.version})" and "budget 7 -> 128" in d[1]
    fig = draw_strength([t], d)
    texts = " ".join(x.get_text() for x in fig.texts)
    assert "Differs from this run: rules version 0.9" in texts


def test_the_script_measures_prints_and_writes(tmp_path, capsys):
    """A real (tiny) measurement: search against random and expert in Pirate's Peak, written to
    JSON, printed back from it, and kept in a tables module that imports."""
    mod = _script()
    out = tmp_path / "t.json"
    assert mod.main(["--game", "pirates_peak", "--games", "3", "--opponents", "random", "expert",
                     "--json", str(out)]) == 0
    t = json.loads(out.read_text())[0]
    assert t["seats"] == 2 and [r["opponent"] for r in t["rows"]] == ["random", "expert"]
    assert all(len(r["search"]["scores"]) == 6 for r in t["rows"])
    assert "| expert |" in capsys.readouterr().out
    assert mod.main(["--from", str(out)]) == 0
    path = tmp_path / "tables.py"
    mod.write_tables([t], path)
    ns: dict = {}
    exec(path.read_text(), ns)
    kept = ns["TABLES"]["pirates_peak"]
    assert [x["seats"] for x in kept] == [2] and "scores" not in kept[0]["rows"][0]["search"]
