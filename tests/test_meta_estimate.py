"""The ladder's estimate says why it takes that long and, over 15 minutes, what fits:
skill.explain / tournament.explain on estimates of known cost, and the commands print it."""

from click.testing import CliRunner

import toy_meta  # noqa: F401 - registers the toy games
from pirate_sim import scenario as scen
from pirate_sim.cli import main
from pirate_sim.meta import plan, skill, tournament


def _ladder(steps=6, games=1068, place_games=268, place=("first",)):
    b = scen.from_dict({"game": "best_move", "run": {"seed": 1}, "seats": [{"strategy": "random"}] * 2})
    return skill.build(b, skill.settings(8, steps, games, place_games, list(place)))


def _estimate(matches, per_game_of_budget):
    """An estimate whose matches cost per_game_of_budget(total budget of the seats) a game."""
    costs = [m.games * per_game_of_budget(sum(s.get("budget", 64) for s in m.seats if s["strategy"] == "search"))
             for m in matches]
    return plan.Estimate(sum(costs), 0, sum(m.games for m in matches), len(matches), None,
                         sorted(((m.label, c, m.games) for m, c in zip(matches, costs)), key=lambda t: -t[1]), costs)


def test_a_ladder_that_fits_says_why_and_suggests_nothing():
    matches, st = _ladder()
    est = _estimate(matches, lambda b: 1e-5 * b)  # 1068 games at 768 rollouts: 8 s for the top step
    lines = skill.explain(est, matches, st)
    assert est.seconds < skill.TIME_LIMIT
    assert lines[0].startswith("each step plays 1,068 games: a 95% interval of +-3.0 points at a 50% win rate")
    assert "each placement level 268 games (+-6.0 points)" in lines[0]
    assert "512 vs 256 7.7 ms" in lines[1]  # (512 + 256) * 1e-5 s
    assert lines[2].startswith("placements: 1 scripted strategies x 7 levels")
    assert not any("over 15 minutes" in x for x in lines)


def test_an_expensive_ladder_says_how_long_and_what_fits():
    matches, st = _ladder()
    est = _estimate(matches, lambda b: 1e-3 * b)  # the top step alone: 1068 * 0.768 s = 13.7 min
    lines = skill.explain(est, matches, st)
    over = lines[-1]
    assert over.startswith(f"over 15 minutes on this machine ({skill.duration(est.seconds)})"), over
    step = {m.info["step"]: c for m, c in zip(matches, est.costs) if m.role == "step"}
    place = {m.info["level"]: c for m, c in zip(matches, est.costs) if m.role == "place"}
    k = max(i for i in range(1, 6) if sum(step[j] for j in range(1, i + 1)) + sum(
        place[j] for j in range(i + 1)) <= skill.TIME_LIMIT)
    assert f"-k {k} (budgets 8..{8 * 2 ** k}" in over
    n = int(1068 * skill.TIME_LIMIT / est.seconds)
    assert f"-n {n} --place-games {int(268 * skill.TIME_LIMIT / est.seconds)} (K = 6" in over
    assert "--cluster" in over
    # the suggested games do fit: the estimate scales with the games
    m2, st2 = _ladder(games=n, place_games=int(268 * skill.TIME_LIMIT / est.seconds))
    assert _estimate(m2, lambda b: 1e-3 * b).seconds <= skill.TIME_LIMIT * 1.01


def test_a_tournament_over_the_limit_says_which_games_fit():
    b = scen.from_dict({"game": "best_move", "run": {"seed": 1}, "seats": [{"strategy": "random"}] * 2})
    matches, st = tournament.build(b, tournament.settings(["random", "search"], 1068))
    est = _estimate(matches, lambda bud: 5e-3 * bud)
    lines = tournament.explain(est, matches, st)
    assert lines[0].startswith("each match plays 1,068 games") and "search mirror" in lines[1]
    assert lines[-1].startswith("over 15 minutes") and f"-n {int(1068 * 900 / est.seconds)} fits" in lines[-1]


def test_the_command_prints_the_explanation(tmp_path):
    s = tmp_path / "s.toml"
    s.write_text('game = "best_move"\n[[seats]]\nstrategy = "random"\n[[seats]]\nstrategy = "random"\n')
    r = CliRunner().invoke(main, ["skill", str(s), "-o", str(tmp_path / "o"), "-k", "2", "-n", "100", "--estimate"],
                           catch_exceptions=False)
    assert r.exit_code == 0, r.output
    assert "each step plays 100 games: a 95% interval of +-9.8 points" in r.output
    assert "time per game, by step: 16 vs 8 " in r.output and "32 vs 16 " in r.output
    assert not (tmp_path / "o").exists()
