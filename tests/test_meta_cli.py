"""skill and tournament as commands: help, bad input, the results directory (lock, resume
after Ctrl-C and kill -9, verify), the estimate, the report, and the check gate."""

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import toy_meta  # noqa: F401 - registers the toy games
from pirate_sim import results
from pirate_sim import scenario as scen
from pirate_sim.cli import main
from pirate_sim.meta import plan, tournament
from pirate_sim.report.checks import page_problems

ROOT = Path(__file__).resolve().parents[1]


def write(tmp_path, game, seats, rules="", name="s.toml"):
    p = tmp_path / name
    text = f'game = "{game}"\n[run]\nseed = 5\n' + (f"[rules]\n{rules}\n" if rules else "")
    text += "".join(f'[[seats]]\nstrategy = "{s}"\n' for s in seats)
    p.write_text(text)
    return p


def cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def tree(d: Path) -> dict:
    """Every Parquet part of a meta-game directory: path -> SHA-256 of its content."""
    return {str(p.relative_to(d)): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(d.rglob("*.parquet"))}


@pytest.mark.parametrize("cmd", ["skill", "tournament"])
def test_help_has_an_example(cmd):
    r = cli(cmd, "--help")
    assert r.exit_code == 0 and "Example:" in r.output and f"pirate-sim {cmd}" in r.output


def test_bad_input_is_one_line_exit_2_and_nothing_written(tmp_path):
    s = write(tmp_path, "rps", ["rock", "paper"])
    out = tmp_path / "out"
    r = cli("tournament", s, "-o", out, "--strategies", "rock,papr")
    assert r.exit_code == 2 and "unknown strategy 'papr'" in r.output and len(r.output.strip().splitlines()) == 1
    r = cli("skill", s, "-o", out)
    assert r.exit_code == 2 and "has no 'search' strategy" in r.output
    r = cli("tournament", s, "-o", out, "--set", "rules.beats=[1]")
    assert r.exit_code == 2 and "rules.beats" in r.output
    assert not out.exists()


def test_tournament_command_report_verify_and_refusals(tmp_path):
    s = write(tmp_path, "rps", ["rock", "paper"])
    out = tmp_path / "cup"
    r = cli("tournament", s, "-o", out, "-n", "300", "--bootstrap", "50", "-q")
    assert r.exit_code == 0, r.output
    assert "verdict: no strategy dominates" in r.output and "estimate:" in r.output
    assert cli("verify", out).exit_code == 0
    r = cli("tournament", s, "-o", out, "-n", "300")
    assert r.exit_code == 2 and "refusing to overwrite without --force" in r.output
    r = cli("tournament", s, "-o", out, "--resume")  # complete: the summary again, nothing played
    assert r.exit_code == 0 and "verdict" in r.output
    r = cli("skill", s, "-o", out, "--resume")
    assert r.exit_code == 2 and "holds a tournament" in r.output
    r = cli("report", out)
    assert r.exit_code == 0 and (out / "report" / "report.pdf").exists()
    from pirate_sim.report.meta import report_pages

    for name, fig in report_pages(out):
        assert page_problems(fig) == [], name
    # damage a part: verify names it and exits 1; report refuses
    part = next((out / plan.MATCHES).glob("*/games/part-00000.parquet"))
    part.write_bytes(part.read_bytes()[:-10])
    r = cli("verify", out)
    assert r.exit_code == 1 and "damaged part" in r.output
    assert cli("report", out, "--force").exit_code == 2


def test_estimate_only_writes_nothing(tmp_path):
    s = write(tmp_path, "best_move", ["random", "random"])
    out = tmp_path / "est"
    r = cli("skill", s, "-o", out, "-k", "2", "-n", "100", "--estimate")
    assert r.exit_code == 0 and "skill: 8 matches" in r.output and "of disk" in r.output and "most of it: " in r.output
    assert not out.exists()


def test_skill_command_and_report(tmp_path):
    s = write(tmp_path, "best_move", ["random", "random"])
    out = tmp_path / "sk"
    r = cli("skill", s, "-o", out, "-b", "16", "-k", "3", "-n", "200", "--place-games", "40", "--place", "first",
            "--bootstrap", "50", "-q")
    assert r.exit_code == 0, r.output
    assert "skill trace (Ludii)" in r.output and "first: worth" in r.output
    meta = plan.read_meta(out)
    assert [m["id"] for m in meta["matches"]] == [  # level by level: a level's placements, then the step above
        "place-first-00", "step-01", "place-first-01", "step-02", "place-first-02", "step-03", "place-first-03"]
    assert cli("report", out).exit_code == 0
    from pirate_sim.report.meta import report_pages

    for name, fig in report_pages(out):
        assert page_problems(fig) == [], name


def test_skill_climbs_until_a_step_does_not_beat_and_every_game_plays_them_all(tmp_path):
    s = write(tmp_path, "luck", ["random", "random"])
    r = cli("skill", s, "-o", tmp_path / "seq", "-b", "2", "-k", "3", "-n", "2000", "--place", "none",
            "--bootstrap", "50", "-q")
    assert r.exit_code == 0, r.output
    assert "the ladder climbed 1 of 3 steps" in r.output and "does not beat (" in r.output
    summary = json.loads((tmp_path / "seq" / plan.SUMMARY).read_text())
    assert len(summary["steps"]) == 1 and summary["steps"][0]["games"] < 2000
    r = cli("skill", s, "-o", tmp_path / "all", "-b", "2", "-k", "3", "-n", "200", "--place", "none",
            "--bootstrap", "50", "-q", "--every-game")
    assert r.exit_code == 0, r.output
    summary = json.loads((tmp_path / "all" / plan.SUMMARY).read_text())
    assert [x["games"] for x in summary["steps"]] == [200, 200, 200] and "climbed" not in r.output
    r = cli("tournament", write(tmp_path, "rps", ["rock", "paper"]), "-o", tmp_path / "t", "-n", "3000",
            "--bootstrap", "50", "-q")
    assert r.exit_code == 0 and "games played in all" in r.output, r.output


def _plan(tmp_path, name, games=400):
    b = scen.from_dict({"game": "best_move", "run": {"seed": 3}, "seats": [{"strategy": "random"}] * 2})
    matches, st = tournament.build(b, tournament.settings(["random", "first", "search"], games, 50))
    return b, matches, st, tmp_path / name


def test_ctrl_c_then_resume_equals_an_uninterrupted_run(tmp_path):
    b, matches, st, out = _plan(tmp_path, "cut")
    full = plan.execute(tmp_path / "full", "tournament", b, matches, st, tournament.analyse)

    def stop(done, total, label):
        if done >= 900:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        plan.execute(out, "tournament", b, matches, st, tournament.analyse, progress=stop)
    meta = plan.read_meta(out)
    assert 0 < sum(m["done"] for m in meta["matches"]) < len(matches) and not meta["complete"]
    with pytest.raises(plan.MetaError, match="add --resume"):
        plan.execute(out, "tournament", b, matches, st, tournament.analyse)
    again = plan.execute(out, "tournament", b, matches, st, tournament.analyse, resume=True)
    assert again == full
    assert tree(out) == tree(tmp_path / "full")
    assert plan.verify(out) == []


def test_resume_of_another_plan_is_refused_and_the_lock_holds(tmp_path):
    b, matches, st, out = _plan(tmp_path, "a", games=60)
    plan.execute(out, "tournament", b, matches, st, tournament.analyse)
    b2, m2, st2, _ = _plan(tmp_path, "a", games=80)
    with pytest.raises(plan.MetaError, match="holds another tournament"):
        plan.execute(out, "tournament", b2, m2, st2, tournament.analyse, resume=True)
    with results.lock_dir(out):
        with pytest.raises(results.ResultsError, match="in use by another pirate-sim command"):
            plan.execute(out, "tournament", b, matches, st, tournament.analyse, force=True)


@pytest.mark.slow
def test_kill_9_then_resume_equals_an_uninterrupted_run(tmp_path):
    s = write(tmp_path, "luck", ["random", "random"])
    args = ["skill", str(s), "-b", "4096", "-k", "3", "-n", "600", "--place", "none", "--bootstrap", "50", "-q",
            "--every-game"]  # every step to its end: the kill lands inside the last one
    code = ("import sys; sys.path.insert(0, %r); import toy_meta; from pirate_sim.cli import main; main()"
            % str(ROOT / "tests"))
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NUMBA_NUM_THREADS": "1"}
    out = tmp_path / "killed"
    proc = subprocess.Popen([sys.executable, "-c", code, *args, "-o", str(out)], env=env, cwd=tmp_path,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 120
    try:  # kill once the first match is done and the last has started
        while time.time() < deadline:
            if (out / plan.MATCHES / "step-03" / "manifest.json").exists():
                break
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait()
    meta = plan.read_meta(out)
    assert not meta["complete"], "killed before the end"
    r = subprocess.run([sys.executable, "-c", code, *args, "-o", str(out), "--resume"], env=env, cwd=tmp_path,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    r2 = subprocess.run([sys.executable, "-c", code, *args, "-o", str(tmp_path / "whole")], env=env, cwd=tmp_path,
                        capture_output=True, text=True)
    assert r2.returncode == 0, r2.stderr
    assert json.loads((out / plan.SUMMARY).read_text()) == json.loads((tmp_path / "whole" / plan.SUMMARY).read_text())
    assert tree(out) == tree(tmp_path / "whole")
    assert plan.verify(out) == []


def test_check_gates_meta_metrics(tmp_path):
    write(tmp_path, "rps", ["rock", "paper"], rules="beats = [0.5, 0.7, 0.7, 0.7, 0.3, 0.5, 0.5, 0.5, 0.3, "
              "0.5, 0.5, 0.5, 0.3, 0.5, 0.5, 0.5]")
    spec = tmp_path / "gate.toml"
    spec.write_text('confidence = 0.8\nmin_games = 8000\nmax_games = 8000\n[[scenario]]\npath = "s.toml"\n'
                    '[[bound]]\nmetric = "dominance.max_win_rate"\nmax = 0.6\n'
                    '[[bound]]\nmetric = "equilibrium.support"\nmin = 2\n'
                    '[[bound]]\nmetric = "length.mean"\nmin = 1\nmax = 1\n')
    r = cli("check", spec, "-o", tmp_path / "gate", "-q")
    assert r.exit_code == 1, r.output  # rock dominates: worst case 70%, support 1
    verdict = json.loads((tmp_path / "gate" / "verdict.json").read_text())
    by = {b["metric"]: b for b in verdict["bounds"]}
    assert by["dominance.max_win_rate"]["verdict"] == "violated"
    assert by["dominance.max_win_rate"]["estimate"]["lo"] > 0.6
    assert by["equilibrium.support"]["verdict"] == "violated"
    assert by["length.mean"]["verdict"] == "holds"
    spec.write_text('min_games = 2000\nmax_games = 4000\n[[scenario]]\npath = "s.toml"\n'
                    '[[bound]]\nmetric = "skill.trace"\nmax = 1\n')
    r = cli("check", spec, "-o", tmp_path / "gate2", "-q")
    assert r.exit_code == 2 and "skill.trace" in r.output, "rps has no search: no skill metrics to gate"


def test_the_estimate_is_near_the_play_it_predicts(tmp_path):
    """Time within a factor 4 (a loaded 2-core machine times the probe), disk within 2."""
    b = scen.from_dict({"game": "luck", "run": {"seed": 1}, "seats": [{"strategy": "random"}] * 2})
    b.seats[0] = {"strategy": "search", **{p.key: p.default for p in b.game.strategy("search").params},
                  "budget": 20000}
    matches, st = tournament.build(b, tournament.settings(["random", "search"], 1200, 20))
    seen = []
    plan.execute(tmp_path / "e", "tournament", b, matches, st, tournament.analyse, on_estimate=seen.append)
    est, meta = seen[0], plan.read_meta(tmp_path / "e")
    played = meta["timings"]["play_seconds"]
    assert est.games == 3 * 1200 and 0.25 <= est.seconds / played <= 4, (est, played)
    written = sum(p.stat().st_size for p in (tmp_path / "e" / plan.MATCHES).rglob("*.parquet"))
    assert 0.5 <= est.bytes / written <= 2, (est.bytes, written)


def test_report_of_a_run_points_to_its_tournament(tmp_path):
    """`report RUN --tournament DIR`: the cover cites the tournament; a missing one is one line, exit 2."""
    from pirate_sim import report, runner

    run = tmp_path / "run"
    runner.run(scen.from_dict({"game": "dice_duel", "run": {"games": 400, "seed": 3},
                               "seats": [{"strategy": "roller"}, {"strategy": "roller"}]}), run)
    s = write(tmp_path, "rps", ["rock", "paper"])
    cup = tmp_path / "cup"
    assert cli("tournament", s, "-o", cup, "-n", "60", "--bootstrap", "20", "-q").exit_code == 0
    r = cli("report", run, "--tournament", tmp_path / "nowhere", "-o", tmp_path / "rep0")
    assert r.exit_code == 2 and "--tournament: tournament directory" in r.output and "does not exist" in r.output
    assert not (tmp_path / "rep0").exists()
    r = cli("report", run, "--tournament", cup, "-o", tmp_path / "rep")
    assert r.exit_code == 0, r.output
    assert (tmp_path / "rep" / "report.pdf").exists()
    assert report.report_context(run, quick=True, tournament=cup).tournament == cup
    assert str(cup) in report.players_note(report.report_context(run, quick=True, tournament=cup))
