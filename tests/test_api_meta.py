"""ps.skill and ps.tournament: the same summary as the commands, on the toy games."""

import json

from click.testing import CliRunner

import pirate_sim as ps
import toy_meta  # noqa: F401 - registers the toy games
from pirate_sim.cli import main


def _scenario(tmp_path, game, seats):
    p = tmp_path / f"{game}.toml"
    p.write_text(f'game = "{game}"\n[run]\nseed = 5\n' + "".join(f'[[seats]]\nstrategy = "{s}"\n' for s in seats))
    return p


def _strip(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if "seconds" not in k and k != "timings"}


def test_api_tournament_equals_the_command(tmp_path):
    s = _scenario(tmp_path, "rps", ["rock", "paper"])
    r = CliRunner().invoke(main, ["tournament", str(s), "-o", str(tmp_path / "cli"), "-n", "200", "--bootstrap", "50",
                                  "-q"], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    t = ps.tournament(s, tmp_path / "api", games=200, bootstrap=50, progress=False)
    on_disk = json.loads((tmp_path / "cli" / "summary.json").read_text())
    assert _strip(t.summary) == _strip(on_disk)
    assert t.verdict == on_disk["verdict"]
    table = t.table
    assert set(table["strategy"]) == set(on_disk["strategies"]) and ((table.lo <= table.win_rate)
                                                                     & (table.win_rate <= table.hi)).all()
    pdf, *_ = t.report(tmp_path / "rep")
    assert pdf.name == "report.pdf" and pdf.exists()


def test_api_skill_ladder_and_its_estimate(tmp_path):
    s = _scenario(tmp_path, "best_move", ["random", "random"])
    est = ps.skill(s, tmp_path / "est", base_budget=16, steps=2, games=100, place=[], estimate_only=True)
    assert est.games > 0 and not (tmp_path / "est").exists()
    lad = ps.skill(s, tmp_path / "lad", base_budget=16, steps=2, games=100, place=[], bootstrap=50, progress=False)
    assert list(lad.table["step"]) == [1, 2] and (lad.table["games"] <= 100).all()  # a cap: sequential stops
    assert "skill_trace" in lad.summary and lad.verdict


def test_one_progress_callback_helper():
    """api._callback: the caller's callable as it is, a bar moved through the mapping, or None."""
    from pirate_sim import api

    seen = []
    mine = seen.append
    assert api._callback(mine, None, None) is mine
    assert api._callback(False, None, None) is None

    def bar(done, total, desc=None):
        seen.append((done, total, desc))

    cb = api._callback(True, bar, lambda b, name, done, tot: b(done, tot, f"check {name}"))
    cb("pp", 3, 10)
    assert seen == [(3, 10, "check pp")]


def test_api_skill_progress_callback_gets_match_labels(tmp_path):
    s = _scenario(tmp_path, "best_move", ["random", "random"])
    seen = []
    ps.skill(s, tmp_path / "lad", base_budget=16, steps=1, games=40, place=[], bootstrap=20,
             progress=lambda d, t, label: seen.append((d, t, label)))
    assert seen[-1][:2] == (40, 40) and seen[-1][2] == "search 32 vs 16"


def test_the_bars_of_sweep_check_sensitivity_and_tune(tmp_path, monkeypatch):
    """progress=True: each command's bar is moved through api._callback with its own description."""
    from pathlib import Path

    from pirate_sim import api

    seen = []
    monkeypatch.setattr(api._Bar, "__call__", lambda self, done, total=None, desc=None: seen.append(desc))
    pp = str(Path(__file__).resolve().parents[1] / "scenarios" / "pirates_peak" / "default.toml")
    ps.sweep(pp, {"rules.squid.escape_total": [10, 12]}, games=200, out=tmp_path / "sw")
    assert "sweep p001 (2/2)" in seen
    spec = tmp_path / "gate.toml"
    spec.write_text(f'min_games = 300\nmax_games = 300\n[[scenario]]\npath = "{pp}"\n'
                    '[[bound]]\nmetric = "length.mean"\nmin = 1\n')
    seen.clear()
    ps.check(spec)
    assert seen and all(d.startswith("check ") for d in seen)
    seen.clear()
    ps.sensitivity(pp, {"rules.ship.life_points": (3, 6)}, points=2, games=100, metrics=["length.mean"],
                   out=tmp_path / "sa")
    assert seen and all(d.startswith("sensitivity ") for d in seen)
    seen.clear()
    ps.tune(pp, {"rules.ship.life_points": (2, 6)}, "first_player_win_rate=0.5", trials=2, games=100,
            out=tmp_path / "tu")
    assert seen and all(d.startswith("tune: ") for d in seen)


def test_api_skill_equals_the_command(tmp_path):
    s = _scenario(tmp_path, "best_move", ["random", "random"])
    r = CliRunner().invoke(main, ["skill", str(s), "-o", str(tmp_path / "cli"), "-b", "16", "-k", "2", "-n", "60",
                                  "--place-games", "20", "--place", "first", "--bootstrap", "30", "--seed", "11", "-q"],
                           catch_exceptions=False)
    assert r.exit_code == 0, r.output
    lad = ps.skill(s, tmp_path / "api", base_budget=16, steps=2, games=60, place_games=20, place=["first"],
                   bootstrap=30, seed=11, progress=False)
    assert _strip(lad.summary) == _strip(json.loads((tmp_path / "cli" / "summary.json").read_text()))
    assert json.loads((tmp_path / "cli" / "meta.json").read_text())["plan_hash"] == json.loads(
        (tmp_path / "api" / "meta.json").read_text())["plan_hash"]
