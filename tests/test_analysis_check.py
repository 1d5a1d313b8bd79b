"""check: the three verdict exit codes, JUnit XML, JSON verdict, baselines, spec errors (exit 2)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

from pirate_sim.analysis import check as ck
from pirate_sim.cli import main

HEAD = """title = "duel gate"
min_games = 2000
max_games = {max_games}
[[scenario]]
name = "duel"
path = "duel.toml"
"""

HOLDS = """
[[bound]]
metric = "win_rate.roller"
min = 0.45
max = 0.55
[[bound]]
metric = "decisiveness"
min = 0.99
[[bound]]
metric = "length.mean"
min = 3
max = 8
"""
VIOLATED = """
[[bound]]
metric = "length.mean"
max = 2
"""
UNDECIDED = """
[[bound]]
metric = "win_rate.seat0"
target = 0.5
tolerance = 0.0001
"""


def _spec(tmp_path, body, max_games=16000, name="spec.toml"):
    path = tmp_path / name
    path.write_text(HEAD.format(max_games=max_games) + body)
    return path


def _invoke(*args):
    return CliRunner().invoke(main, ["check", *map(str, args), "-q"])


def _junit(path):
    junitparser = pytest.importorskip("junitparser")
    xml = junitparser.JUnitXml.fromfile(str(path))
    cases = [(suite.name, case) for suite in xml for case in suite]
    return xml, cases


@pytest.mark.parametrize("body, code, verdicts", [
    (HOLDS, 0, ["holds", "holds", "holds"]),
    (HOLDS + VIOLATED, 1, ["holds", "holds", "holds", "violated"]),
    (HOLDS + UNDECIDED, 3, ["holds", "holds", "holds", "undecided"]),
])
def test_check_exit_codes_and_reports(toy_scenario_file, tmp_path, body, code, verdicts):
    spec = _spec(toy_scenario_file.parent, body)
    out = tmp_path / "out"
    r = _invoke(spec, "-o", out)
    assert r.exit_code == code, r.output
    verdict = json.loads((out / "verdict.json").read_text())
    assert verdict["exit_code"] == code
    assert [b["verdict"] for b in verdict["bounds"]] == verdicts
    assert verdict["per_interval_confidence"] > 0.95
    root = ET.parse(out / "junit.xml").getroot()  # always: standard structure
    assert [c.find("failure") is not None for c in root.iter("testcase")] == [v == "violated" for v in verdicts]
    assert [c.find("skipped") is not None for c in root.iter("testcase")] == [v == "undecided" for v in verdicts]
    xml, cases = _junit(out / "junit.xml")  # and a standard JUnit parser reads it the same way
    assert len(cases) == len(verdicts)
    for (_suite, case), v in zip(cases, verdicts):
        kinds = {type(x).__name__ for x in case.result}
        assert kinds == {"holds": set(), "violated": {"Failure"}, "undecided": {"Skipped"}}[v], (v, kinds)
    assert xml.failures == verdicts.count("violated")
    assert xml.skipped == verdicts.count("undecided")
    assert xml.tests == len(verdicts)


def test_junit_structure_with_etree(toy_scenario_file, tmp_path):
    spec = _spec(toy_scenario_file.parent, HOLDS + VIOLATED + UNDECIDED)
    r = _invoke(spec, "--junit", tmp_path / "j.xml", "--json", tmp_path / "v.json")
    assert r.exit_code == 1  # a violation wins over undecided
    root = ET.parse(tmp_path / "j.xml").getroot()
    assert root.tag == "testsuites" and root.get("tests") == "5" and root.get("failures") == "1"
    suite = root.find("testsuite")
    assert suite.get("name") == "spec.duel" and len(suite.findall("testcase")) == 5
    assert len(suite.findall("testcase/failure")) == 1 and len(suite.findall("testcase/skipped")) == 1
    assert "length.mean" in suite.find("testcase/failure").get("message")


def test_decided_early_stops_early(toy_scenario_file):
    spec = ck.load_spec(_spec(toy_scenario_file.parent, HOLDS + VIOLATED, max_games=64000))
    res = ck.run_check(spec)
    assert res.looks == [2000, 4000, 8000, 16000, 32000, 64000]
    assert res.games["duel"] == 2000  # every bound decided at the first look
    spec = ck.load_spec(_spec(toy_scenario_file.parent, UNDECIDED, max_games=8000))
    res = ck.run_check(spec)
    assert res.games["duel"] == 8000 and res.exit_code == 3


def test_bonferroni_split(toy_scenario_file):
    spec = ck.load_spec(_spec(toy_scenario_file.parent, HOLDS, max_games=16000))
    res = ck.run_check(spec)
    # 3 bounds x 4 looks share alpha = 0.05
    assert res.per_interval_confidence == pytest.approx(1 - 0.05 / 12)


def test_glob_bound_expands(toy_scenario_file):
    spec = ck.load_spec(_spec(toy_scenario_file.parent, '[[bound]]\nmetric = "win_rate.seat*"\nmin = 0.3\n'))
    assert [b.metric for b in spec.bounds] == ["win_rate.seat0", "win_rate.seat1"]


def test_baseline_update_then_check(toy_scenario_file, tmp_path):
    body = HOLDS + '[baseline]\nmetrics = ["win_rate.seat*", "length.mean"]\ntolerance = 0.03\ngames = 8000\n'
    spec = _spec(toy_scenario_file.parent, body, max_games=32000)
    bl = tmp_path / "baseline.json"
    r = _invoke(spec, "--baseline", bl, "--update-baseline")
    assert r.exit_code == 0, r.output
    data = json.loads(bl.read_text())
    assert data["scenarios"]["duel"]["games"] == 8000
    r = _invoke(spec, "--baseline", bl, "-o", tmp_path / "o")
    assert r.exit_code == 0, r.output
    v = json.loads((tmp_path / "o" / "verdict.json").read_text())
    assert sum(b["id"] == "baseline" for b in v["bounds"]) == 3
    # a rules change moves the game length far beyond the tolerance: the gate fails
    scen = toy_scenario_file.parent / "duel.toml"
    scen.write_text(scen.read_text().replace("target = 10", "target = 14"))
    r = _invoke(spec, "--baseline", bl, "-o", tmp_path / "o2")
    assert r.exit_code == 1, r.output
    v = json.loads((tmp_path / "o2" / "verdict.json").read_text())
    assert any(b["id"] == "baseline" and b["metric"] == "length.mean" and b["verdict"] == "violated"
               for b in v["bounds"])


@pytest.mark.parametrize("body, needle", [
    ('[[bound]]\nmetric = "seat_balanse"\nmax = 0.05\n', "bound[0].metric: unknown metric 'seat_balanse' "
                                                          "(did you mean 'seat_balance'?)"),
    ('[[bound]]\nmetric = "seat_balance"\nmaxx = 0.05\n', "bound[0].maxx: unknown key (did you mean 'max'?)"),
    ('[[bound]]\nmetric = "seat_balance"\nmax = "low"\n', "bound[0].max: expected a number"),
    ('[[bound]]\nmetric = "seat_balance"\n', "bound[0]: needs min, max, or target and tolerance"),
    ('[[bound]]\nmetric = "seat_balance"\nmin = 0.5\nmax = 0.1\n', "bound[0]: min 0.5 is above max 0.1"),
    ('[[bound]]\nmetric = "length.mean"\ntarget = 5\n', "bound[0].tolerance: missing"),
    ('[[bound]]\nscenario = "dul"\nmetric = "length.mean"\nmax = 9\n', "unknown scenario 'dul' (did you mean 'duel'?)"),
    ('[[bound]\nmetric = "x"\n', "malformed TOML"),
])
def test_spec_errors_exit_2(toy_scenario_file, body, needle):
    spec = _spec(toy_scenario_file.parent, body)
    r = _invoke(spec)
    assert r.exit_code == 2, r.output
    assert needle in r.output, r.output
    assert str(spec) in r.output and len(r.output.strip().splitlines()) == 1


def test_spec_unknown_parameter_in_set(toy_scenario_file):
    spec = toy_scenario_file.parent / "s.toml"
    spec.write_text('[[scenario]]\npath = "duel.toml"\nset = ["rules.targt=3"]\n'
                    '[[bound]]\nmetric = "length.mean"\nmax = 9\n')
    r = _invoke(spec)
    assert r.exit_code == 2
    assert "scenario[0].set" in r.output and "did you mean 'rules.target'" in r.output


def test_spec_missing_scenario_file_and_spec(toy_scenario_file, tmp_path):
    spec = toy_scenario_file.parent / "s.toml"
    spec.write_text('[[scenario]]\npath = "nope.toml"\n[[bound]]\nmetric = "length.mean"\nmax = 9\n')
    r = _invoke(spec)
    assert r.exit_code == 2 and "scenario[0].path" in r.output and "file not found" in r.output
    r = _invoke(tmp_path / "missing.toml")
    assert r.exit_code == 2 and "file not found" in r.output


def test_baseline_errors(toy_scenario_file, tmp_path):
    spec = _spec(toy_scenario_file.parent, HOLDS)
    r = _invoke(spec, "--baseline", tmp_path / "none.json")
    assert r.exit_code == 2 and "create it with --update-baseline" in r.output
    r = _invoke(spec, "--update-baseline")
    assert r.exit_code == 2 and "needs --baseline" in r.output


def test_example_spec_parses_when_pirates_peak_exists():
    from pathlib import Path

    root = Path(__file__).parent.parent
    if not (root / "scenarios/pirates_peak/default.toml").exists():
        pytest.skip("Pirate's Peak default scenario not there yet")
    spec = ck.load_spec(root / "scenarios/checks/pirates_peak_balance.toml")
    assert spec.bounds


def test_check_help_has_example():
    r = CliRunner().invoke(main, ["check", "--help"])
    assert r.exit_code == 0 and "Example:" in r.output and "exit" in r.output.lower()


# ------------------------------------------------------------ seat_balance bounds and undefined metrics
def _duel_spec(tmp_path, body, cutoff, max_games=64000):
    (tmp_path / "duel.toml").write_text(
        'game = "dice_duel"\n[run]\nseed = 3\nchunk_size = 2000\n'
        f'[rules]\ntarget = 10\nfirst_player_cutoff = {cutoff}\n')
    return _spec(tmp_path, body, max_games=max_games)


@pytest.mark.parametrize("cutoff, body, code", [
    (3, '[[bound]]\nmetric = "seat_balance"\nmax = 0.1\n', 0),  # exactly balanced: decided "holds"
    (6, '[[bound]]\nmetric = "seat_balance"\nmax = 0.1\n', 1),  # seat 0 always starts: gap ~0.32
    (3, '[[bound]]\nmetric = "seat_balance"\nmin = 0.05\n', 1),  # balance excludes a gap of 5 points
    (3, '[[bound]]\nmetric = "seat_balance"\nmax = 0.001\n', 3),  # true 0 but too tight for 64k games
])
def test_seat_balance_bounds_decide_as_the_truth_says(tmp_path, cutoff, body, code):
    r = _invoke(_duel_spec(tmp_path, body, cutoff), "-o", tmp_path / "out")
    assert r.exit_code == code, r.output


def test_undefined_metric_rejects_the_spec_at_the_first_look(tmp_path, monkeypatch):
    # one turn a game, target 60: nobody ever wins, so the first player's win rate is undefined
    (tmp_path / "duel.toml").write_text('game = "dice_duel"\n[rules]\ntarget = 60\nturn_cap = 1\n')
    spec = _spec(tmp_path, '[[bound]]\nmetric = "first_player_win_rate"\nmax = 0.6\n', max_games=1_000_000)
    played = []
    real = ck._play
    monkeypatch.setattr(ck, "_play", lambda *a: played.append(a[4]) or real(*a))
    r = _invoke(spec, "-o", tmp_path / "out")
    assert r.exit_code == 2, r.output
    assert "bound[0].metric" in r.output and "undefined" in r.output and "Traceback" not in r.output
    assert played == [2000]  # before: a million games, then "undecided"


def test_meta_metrics_count_their_games_and_their_names_are_never_cut(tmp_path):
    # before: JUnit said games="0" for a scenario gated on meta-game metrics only, and the table of a
    # piped run cut the names ("dominance.max_w...")
    import os
    import subprocess
    import sys
    from pathlib import Path

    (tmp_path / "s.toml").write_text('game = "rps"\n[rules]\nbeats = [0.5, 0.7, 0.7, 0.7, 0.3, 0.5, 0.5, 0.5, 0.3, '
                                     '0.5, 0.5, 0.5, 0.3, 0.5, 0.5, 0.5]\n[[seats]]\nstrategy = "rock"\n'
                                     '[[seats]]\nstrategy = "paper"\n')
    spec = tmp_path / "gate.toml"
    spec.write_text('confidence = 0.8\nmin_games = 4000\nmax_games = 4000\n[[scenario]]\npath = "s.toml"\n'
                    '[[bound]]\nmetric = "dominance.max_win_rate"\nmax = 0.6\n'
                    '[[bound]]\nmetric = "equilibrium.first_player_win_rate"\nmin = 0.3\n')
    tests = Path(__file__).resolve().parent
    code = "import toy_meta; from pirate_sim.cli import main; main()"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tests.parent), str(tests)]), COLUMNS="60")
    r = subprocess.run([sys.executable, "-c", code, "check", str(spec), "-o", str(tmp_path / "g"), "-q"],
                       capture_output=True, text=True, env=env)  # stdout a pipe
    assert r.returncode == 1, r.stderr[-2000:]
    assert "dominance.max_win_rate <= 0.6" in r.stdout and "equilibrium.first_player_win_rate >= 0.3" in r.stdout
    props = {p.get("name"): p.get("value") for p in ET.parse(tmp_path / "g" / "junit.xml").iter("property")}
    verdict = json.loads((tmp_path / "g" / "verdict.json").read_text())
    played = {b["games"] for b in verdict["bounds"]}
    assert played == {4000} and props["games"] == "4000"  # 10 matches of 400 games (4 strategies, mirrors too)
    assert verdict["scenarios"]["s"]["games"] == 4000
