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
    assert list(lad.table["step"]) == [1, 2] and (lad.table["games"] >= 100).all()
    assert "skill_trace" in lad.summary and lad.verdict
