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


def test_a_ladder_above_the_maximum_budget_is_refused_up_front_naming_the_largest_k(tmp_path):
    # before: -k 20 was accepted, then failed at step 18 ("seats.0.budget: 2097152 is above the maximum")
    s = tmp_path / "s.toml"
    s.write_text('game = "best_move"\n[[seats]]\nstrategy = "random"\n[[seats]]\nstrategy = "random"\n')
    r = CliRunner().invoke(main, ["skill", str(s), "-o", str(tmp_path / "o"), "-k", "20", "--estimate"])
    assert r.exit_code == 2, r.output
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and "the largest -k with -b 8 is 17" in lines[0] and "8*2^20 = 8,388,608" in lines[0]
    assert not (tmp_path / "o").exists()
    r = CliRunner().invoke(main, ["skill", str(s), "-o", str(tmp_path / "o"), "-k", "17", "-n", "2", "--place",
                                  "none", "--estimate"])
    assert "largest -k" not in r.output


def test_the_estimate_never_prices_a_higher_budget_below_a_lower_one_and_says_what_it_rests_on(tmp_path):
    # before: each step was priced from its own one or few probe games ("64 vs 32" above "128 vs 64"), and a
    # 1-game difference of two timings could put a game's whole cost in the fixed part ("32 vs 16 0.2 ms")
    matches, st = _ladder(steps=6, games=200, place_games=40)
    b = scen.from_dict({"game": "best_move", "run": {"seed": 1}, "seats": [{"strategy": "random"}] * 2})
    est = plan.estimate([plan.match_scenario(b, m) for m in matches])
    for role in ("step", "place"):
        mine = sorted(((m.info.get("strong", m.info.get("budget")), c / m.games)
                       for m, c in zip(matches, est.costs) if m.role == role))
        per_game = [c for _b, c in mine]
        assert all(x > 0 for x in per_game) and per_game == sorted(per_game), (role, mine)
    assert "probe games timed on" in est.basis and f"{len(matches)} matches that differ only in their search budget" \
        in est.basis
    assert est.basis in skill.explain(est, matches, st)


def test_the_fit_by_budget_is_monotone_through_noisy_probes():
    import numpy as np

    x = np.array([24, 48, 96, 192, 384, 768], np.float64)
    y = 1e-4 * x * np.array([8, 1, 1, 3, 0.5, 1])  # one long game probed at the first step, a short one at 384
    a, b = plan.fit_per_game(x, y, np.ones(6))
    fitted = a + b * x
    assert a >= 0 and b > 0 and list(fitted) == sorted(fitted)
    assert 0.5e-4 < b < 4e-4  # the slope of the truth (1e-4 a rollout) within the spread of the probes
