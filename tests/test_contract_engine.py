"""The decision protocol (pirate_sim/contract.py) and the engine written once on it
(pirate_sim/engine_template.py), on the toy game tests/toy_race.py: known answers for the
search player, its information set, reproducibility, the trace, and the meta-game for free."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from pirate_sim import contract
from pirate_sim import scenario as scen
from pirate_sim.search import REWARD_MARGIN

import toy_race as R

# sum_race is registered by tests/conftest.py, so the tests over every game (report pages...) play it too
N = 4000


def _compiled(rules: dict, seats: list[dict]):
    s = scen.from_dict({"game": "sum_race", "rules": rules, "seats": seats}, source="sum_race.toml")
    return s.game, s.compile()


def _search_seat(g: np.ndarray, k0: int = 0) -> np.ndarray:
    """With strategy_seating = rotate, entry 0 (search) plays seat k mod 2 in game k."""
    return (np.arange(len(g)) + k0) % 2


def test_where_no_decision_matters_search_wins_exactly_its_fair_share():
    game, c = _compiled({"strategy_seating": "rotate"}, [{"strategy": "search", "budget": 30}, {"strategy": "first"}])
    g, s = game.play(c, 11, 0, N)
    me = _search_seat(g)
    share = (g[:, 0] == me) + 0.5 * (g[:, 0] == -1)
    m, h = share.mean(), 1.96 * share.std(ddof=1) / np.sqrt(N)
    assert abs(m - 0.5) <= h, (m, h)  # the exact answer 1/2 inside the 95% interval
    took = s[np.arange(N), me][:, 2:].sum(0)
    assert (took > 0).all(), took  # it did choose among the options, not only the prior's


@pytest.mark.parametrize("budget", [3, 4, 8])
def test_where_one_option_is_strictly_best_search_always_finds_it(budget):
    """Option 1 adds one more than option 0 in every rollout (common random numbers), so with a
    margin reward it has the best mean after any number of rollouts, even one each; the prior
    (``first``) prefers option 0."""
    game, c = _compiled({"mode": "best"}, [{"strategy": "search", "budget": budget, "reward": "margin",
                                            "rollout": "first"}, {"strategy": "random"}])
    _, s = game.play(c, 5, 0, 300)
    assert (s[:, 0, 3] == 4).all()  # took_1: all 4 turns


def test_top_k_one_keeps_the_priors_choice():
    game, c = _compiled({"mode": "best"}, [{"strategy": "search", "budget": 64, "top_k": 1, "reward": "margin",
                                            "rollout": "first"}, {"strategy": "random"}])
    _, s = game.play(c, 5, 0, 100)
    assert (s[:, 0, 2] == 4).all()  # took_0: the prior's favourite every turn


def test_the_games_dice_never_depend_on_how_long_a_seat_thinks():
    """Search reads the game's stream without advancing it: with budgets 5 and 60 the choices
    differ but every die of the game is the same."""
    dice = []
    for budget in (5, 60):
        game, c = _compiled({}, [{"strategy": "search", "budget": budget}, {"strategy": "random"}])
        ev, _, _ = game.trace_events(c, 3, 17, 64)
        dice.append(ev[:, [2, 4]].tolist())  # (kind, die) of every event: bonuses and moves
    assert dice[0] == dice[1]


def _decision_sums(leak: int, opponent_bonus: int) -> np.ndarray:
    """Rollout sums of seat 0's search at its third turn, with the opponent's hidden bonus set."""
    P = R.RaceRules(4, 3, R.MODE_BEST, leak)
    eng = contract.engine("toy_race")
    st = R.new_state_nb(P)
    ev = np.zeros((0, 6), np.int32)
    from pirate_sim.rng import new_rng

    rng = new_rng(7, 3)
    R.setup_nb(st, ev, rng, P, (), 3)
    for opt in (0, 2, 1, 0):  # two turns each
        R.apply_nb(st, ev, rng, P, (), opt)
    st[R.ST_BONUS + 1] = opponent_bonus
    sp = np.array([24, 0, REWARD_MARGIN, 0, R.FIRST, 0, 0, 0], np.float64)
    scr = eng.new_scratch_nb(P)
    opts = np.arange(3, dtype=np.int64)
    from pirate_sim.contract import NoBoard
    from pirate_sim.user_abi import user_calls
    from pirate_sim.user_strategy import readonly

    calls = user_calls(readonly(np.zeros(1, np.int64)), NoBoard(readonly(np.zeros(0, np.int64))))  # no files
    eng.search_nb(st, rng, P, (), sp, np.zeros(8), 0, opts, 3, 4, scr, -1, readonly(np.zeros(1)), calls,
                  np.zeros(4, np.int64))
    return scr[6][:3].copy()


def test_search_reads_only_its_seats_information():
    """Scramble what seat 0 cannot know (the opponent's hidden bonus): every rollout sum of its
    search stays the same.  The same test with the cheating determinisation (``leak``) fails."""
    honest = [_decision_sums(0, b) for b in range(6)]
    assert all(np.array_equal(honest[0], h) for h in honest), honest
    leaky = [_decision_sums(1, b) for b in range(6)]
    assert not all(np.array_equal(leaky[0], h) for h in leaky), leaky


def test_games_do_not_depend_on_chunks_or_threads():
    game, c = _compiled({"strategy_seating": "rotate"}, [{"strategy": "search", "budget": 9}, {"strategy": "random"}])
    g, s = game.play(c, 21, 0, 500)
    parts = [game.play(c, 21, a, b - a) for a, b in ((0, 7), (7, 260), (260, 500))]
    assert np.array_equal(g, np.concatenate([p[0] for p in parts]))
    assert np.array_equal(s, np.concatenate([p[1] for p in parts]))
    old = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        g1, s1 = game.play(c, 21, 0, 500)
    finally:
        numba.set_num_threads(old)
    assert np.array_equal(g, g1) and np.array_equal(s, s1)


def test_trace_is_the_bulk_runs_game():
    game, c = _compiled({}, [{"strategy": "search", "budget": 9}, {"strategy": "random"}])
    lines = game.trace(c, 21, 42)
    g, s = game.play(c, 21, 42, 1)
    assert lines[0].startswith("set-up: seat 0 draws a hidden bonus of ")
    assert sum("takes option" in x for x in lines) == 8
    assert lines[-1] == game.result_line(g[0])


def test_the_search_bench_counts_rollouts():
    game, c = _compiled({}, [{"strategy": "search", "budget": 30}, {"strategy": "first"}])
    b = game.search_bench(c, 1, 50)
    assert b["searched_decisions"] == 50 and b["rollouts"] == 50 * 29  # 29 a decision: see below
    assert b["rollouts_per_s"] > 0 and b["s_per_playout"] > 0 and b["overhead"] > -1
    _, _, cnt = game.play_counted(c, 1, 0, 10)
    assert (cnt[:, 1] == 4).all() and (cnt[:, 2] == 8).all()  # 4 searched decisions of 8
    # halving of 30 rollouts over 3 options: 2 rounds, 30 // (3 * 2) = 5 each, then the better 2
    # get 30 // (2 * 2) = 7 each: 29 rollouts a decision
    assert (cnt[:, 0] == 4 * 29).all()


def test_tournament_on_a_protocol_game_ranks_search_first(tmp_path):
    """Where option 1 is strictly best, search (which finds it) beats both scripted players
    head to head: the meta-game comes with the contract, nothing game-specific."""
    import pirate_sim as ps

    path = tmp_path / "race.toml"
    path.write_text('game = "sum_race"\n[rules]\nmode = "best"\n[run]\nseed = 3\n'
                    '[[seats]]\nstrategy = "first"\n[[seats]]\nstrategy = "random"\n')
    t = ps.tournament(path, tmp_path / "meta", strategies=["first", "random", "search"], games=300, bootstrap=50,
                      progress=False)
    assert t.verdict.startswith("search beats every other strategy"), t.verdict


def test_skill_ladder_on_a_protocol_game_where_no_decision_matters(tmp_path):
    """``mode = "equal"``: no option is better, so search at any budget wins its fair share against
    search at half that budget; the ladder (meta/skill.py, nothing game-specific) says so."""
    from pirate_sim.meta import plan, skill

    b = scen.from_dict({"game": "sum_race", "run": {"seed": 11}, "rules": {},
                        "seats": [{"strategy": "first"}, {"strategy": "first"}]})
    matches, st = skill.build(b, skill.settings(base_budget=2, steps=3, games=600, place=[], sequential=False))
    s = plan.execute(tmp_path / "skill", "skill", b, matches, st, skill.analyse, skip=skill.skip)
    assert s["fair_share"] == pytest.approx(0.5)
    for step in s["steps"]:
        assert step["win_rate"]["lo"] <= 0.5 <= step["win_rate"]["hi"], step
    assert s["skill_depth"]["value"] == 0 and 0 <= s["skill_trace"]["value"] < 0.1


def test_a_trace_longer_than_its_log_says_it_was_cut():
    import copy

    game, c = _compiled({}, [{"strategy": "search", "budget": 9}, {"strategy": "random"}])
    short = copy.copy(game)
    short.trace_capacity = 3  # the game logs 10 events: 2 bonuses, 8 moves
    lines = short.trace(c, 21, 42)
    assert len(lines) == 5 and lines[3] == "(the trace stops at 3 events; the game went on)"
    assert lines[:3] == game.trace(c, 21, 42)[:3] and lines[-1] == game.trace(c, 21, 42)[-1]


def _engine_name(folder) -> str:
    """The engine name of the rps toy whose files lie in ``folder``, in a fresh process."""
    import subprocess
    import sys

    code = ("import sys; sys.path.insert(0, sys.argv[1]); import toy_rps; from pirate_sim import contract; "
            "print(contract.engine_source('toy_rps', toy_rps)[0])")
    done = subprocess.run([sys.executable, "-c", code, str(folder)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip()


def test_an_edit_to_a_module_a_protocol_takes_functions_from_renames_its_engine(tmp_path):
    # rps takes its set-up, picks and outputs from luck: numba's cache of the engine checks only
    # the engine's file, so an edit to luck alone must give the engine another name (no stale code)
    import shutil
    from pathlib import Path

    here = Path(__file__).parent
    for f in ("toy_luck.py", "toy_rps.py"):
        shutil.copy(here / f, tmp_path / f)
    before = _engine_name(tmp_path)
    assert _engine_name(tmp_path) == before, "the name is a pure function of the sources"
    luck = tmp_path / "toy_luck.py"
    luck.write_text(luck.read_text().replace("    st[ST_WINNER] = -1\n", "    st[ST_WINNER] = -1  # edited\n"))
    assert _engine_name(tmp_path) != before
