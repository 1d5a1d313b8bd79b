"""A strategy file as the ``rollout`` of Pirateer's ``search`` (docs/strategies.md).

The scenarios seat the example's ``careful_raider`` as the rollout of a search seat; the
game's user kernel and the function's wrapper are those tests/test_user_strategies.py
compiles (pirate_sim/user_abi.py), so a warm cache serves both files.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from pirate_sim import scenario as scen
from pirate_sim import user_strategy as U
from pirate_sim.cli import main
from pirate_sim.stats import wilson

ROOT = Path(__file__).resolve().parent.parent
RAIDER = "examples/strategies/pirateer_players.py:careful_raider"


def _search(rollout: str = RAIDER, other: str = "random", budget: int = 8, source: Path = ROOT / "scenario.toml",
            **rules) -> scen.Scenario:
    raw = {"game": "pirateer", "rules": {"strategy_seating": "rotate", **rules},
           "seats": [{"strategy": "search", "budget": budget, "rollout": rollout}, {"strategy": other}]}
    return scen.from_dict(raw, source=str(source))


def test_search_with_a_file_rollout_beats_random():
    """Search (budget 8) rolling out careful_raider against random, seats rotating, on a seed
    held out from the docs' figures (7_340_011): the 95% Wilson interval lies above 1/2."""
    s = _search()
    n = 40
    g, _ = s.game.play(s.compile(), 7_340_011, 0, n)
    won = sum(int(g[k, 0] == k % 2) for k in range(n))  # entry 0 plays seat k mod 2 in game k
    est = wilson(won, n)
    assert est.lo > 0.5, est


def test_file_rollout_games_do_not_depend_on_threads_or_chunks():
    import numba

    s = _search(budget=4)
    c = s.compile()
    old = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        g1, s1 = s.game.play(c, 99, 0, 12)
        numba.set_num_threads(max(2, old) if numba.config.NUMBA_NUM_THREADS > 1 else 1)
        parts = [s.game.play(c, 99, a, b - a) for a, b in ((0, 5), (5, 12))]
    finally:
        numba.set_num_threads(old)
    assert np.array_equal(g1, np.concatenate([p[0] for p in parts]))
    assert np.array_equal(s1, np.concatenate([p[1] for p in parts]))


def test_the_file_rollout_is_what_the_search_plays():
    """The rollout decides the search's choices: the same seat rolling out the built-in
    runner plays other games (the same seed), and so does another rollout file."""
    s = _search(budget=8)
    b = _search(rollout="runner", budget=8)
    g_file, _ = s.game.play(s.compile(), 3, 0, 6)
    g_runner, _ = b.game.play(b.compile(), 3, 0, 6)
    assert not np.array_equal(g_file, g_runner)
    assert s.hash() != b.hash()


def test_an_illegal_index_in_a_rollout_is_one_line():
    s = _search(rollout="tests/user_strategies/rollout_probe.py:past_end")
    with pytest.raises(U.UserStrategyError) as info:
        s.game.play(s.compile(), 1, 0, 4)
    msg = str(info.value)
    assert "\n" not in msg
    assert __import__("re").search(r"rollout_probe\.py: past_end: returned (\d+) in a rollout of search at game 0 "
                                   r"turn \d+, where the legal options are 0\.\.\d+; the game was not recorded", msg)


@pytest.mark.parametrize("spec, why", [
    ("nowhere.py:f", r"seats\.0\.rollout: .*nowhere\.py: f: strategy file not found"),
    ("examples/strategies/pirateer_players.py:nobody", r"seats\.0\.rollout: .*: nobody: no such function"),
    ("sideways", r"seats\.0\.rollout: expected one of .* or a strategy file \(file\.py:function\), got .sideways."),
])
def test_a_bad_rollout_spec_is_one_line(spec, why):
    with pytest.raises(scen.ScenarioError) as info:
        _search(rollout=spec)
    assert "\n" not in str(info.value)
    assert __import__("re").search(why, str(info.value)), str(info.value)


FILE_ROLLOUT_TABLES = {  # game: (the other seats, games, where to cut them)
    "pirates_peak": ([{"strategy": "expert"}], 16, 5),
    "pirates_cove": ([{"strategy": "expert"}, {"strategy": "fighter"}], 9, 4),
    "ice_pirates": ([{"strategy": "expert"}], 6, 2),
}


@pytest.mark.parametrize("game", sorted(FILE_ROLLOUT_TABLES))
def test_search_rolls_out_a_file_and_reports_its_illegal_answer(tmp_path, game):
    """Pirate's Peak's, Pirate's Cove's and Ice Pirates' search rolling out a strategy file (the
    protocol's engine, engine_template.playout_nb with the file; Peak: every seat declares by the
    file; Cove: every seat chooses its islands by it; Ice Pirates: every turn's choices by it): a
    file that always takes the first option plays other games than the built-in rollout, chunks
    replay them, and an illegal answer inside a rollout stops the run with one line that says so."""
    others, n, cut = FILE_ROLLOUT_TABLES[game]
    (tmp_path / "r.py").write_text("def first(view, options, params):\n    return 0\n\n\n"
                                   "def bad(view, options, params):\n    return 9\n")

    def table(rollout):
        return scen.from_dict({"game": game, "rules": {"strategy_seating": "rotate"},
                               "seats": [{"strategy": "search", "budget": 8, "rollout": rollout}, *others]},
                              source=str(tmp_path / "s.toml"))

    s = table("r.py:first")
    c = s.compile()
    g, st = s.game.play(c, 3, 0, n)
    g2, st2 = s.game.play(c, 3, cut, n - cut)
    assert np.array_equal(g2, g[cut:]) and np.array_equal(st2, st[cut:])
    b = table("expert")
    gb, stb = b.game.play(b.compile(), 3, 0, n)
    assert not np.array_equal(stb, st)
    bad = table("r.py:bad")
    with pytest.raises(U.UserStrategyError, match=r"r\.py: bad: returned 9 in a rollout of search at game 0"):
        bad.game.play(bad.compile(), 3, 0, 4)


def test_cove_file_rollout_beside_the_file_at_a_seat(tmp_path):
    """A Cove table whose search rolls out the file that another seat plays: both calls in one
    game, the games replayed by a seed."""
    (tmp_path / "r.py").write_text("def first(view, options, params):\n    return 0\n")
    s = scen.from_dict({"game": "pirates_cove", "rules": {"strategy_seating": "rotate"},
                        "seats": [{"strategy": "search", "budget": 8, "rollout": "r.py:first"},
                                  {"strategy": "r.py:first"}, {"strategy": "fighter"}]},
                       source=str(tmp_path / "s.toml"))
    c = s.compile()
    g, st = s.game.play(c, 3, 0, 6)
    g2, st2 = s.game.play(c, 3, 0, 6)
    assert np.array_equal(g, g2) and np.array_equal(st, st2) and (g[:, 0] >= -1).all()


def _toml(tmp_path: Path, rollout: str) -> Path:
    p = tmp_path / "s.toml"
    p.write_text(f'game = "pirateer"\n[rules]\nstrategy_seating = "rotate"\n[[seats]]\nstrategy = "search"\n'
                 f'budget = 4\nrollout = "{rollout}"\n[[seats]]\nstrategy = "random"\n')
    return p


def test_cli_bad_rollout_exits_2_and_writes_nothing(tmp_path):
    res = CliRunner().invoke(main, ["run", str(_toml(tmp_path, "gone.py:f")), "-o", str(tmp_path / "out"),
                                    "--games", "4"], catch_exceptions=False)
    assert res.exit_code == 2
    assert "seats.0.rollout" in res.output and "gone.py: f: strategy file not found" in res.output
    assert not (tmp_path / "out").exists()


def test_run_records_and_keeps_the_rollout_file(tmp_path):
    """The manifest lists the rollout file and its SHA-256, the run keeps a copy that its
    scenario.toml names (same hash), and a cluster worker's copy of the source plays the
    same games."""
    shutil.copy(ROOT / "examples/strategies/pirateer_players.py", tmp_path / "players.py")
    path = _toml(tmp_path, "players.py:careful_raider")
    out = tmp_path / "out"
    res = CliRunner().invoke(main, ["run", str(path), "-o", str(out), "--games", "6"], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    man = json.loads((out / "manifest.json").read_text())
    sha = U.sha256_text((tmp_path / "players.py").read_text())
    assert man["strategy_files"] == [{"strategy": "players.py:careful_raider", "path": str(tmp_path / "players.py"),
                                      "sha256": sha}]
    assert [p.read_text() for p in (out / "strategies").glob("*.py")] == [(tmp_path / "players.py").read_text()]
    kept = scen.load(out / "scenario.toml")
    s = scen.load(path)
    assert kept.seats[0]["rollout"].startswith("strategies/") and kept.hash() == s.hash()
    # the hash counts the file by content: the example at its own place gives the same games
    assert _search(budget=4).hash() == s.hash()
    # a cluster worker builds the scenario from the client's copy of the source
    w = scen.from_dict(scen.read_toml(path), source="<task>", user_sources=s.user_sources())
    assert w.hash() == s.hash()
    g_w, _ = w.game.play(w.compile(), s.seed, 0, 3)
    g_s, _ = s.game.play(s.compile(), s.seed, 0, 3)
    assert np.array_equal(g_w, g_s)


def test_a_file_only_rolled_out_is_no_tournament_entrant():
    """The tournament's default entrants are the registered strategies and the files that
    play a seat; a file that only a search rolls out is not one (and cannot be asked for)."""
    from pirate_sim.meta import tournament
    from pirate_sim.meta.plan import MetaError

    s = _search()
    _matches, st = tournament.build(s, tournament.settings(games=2))
    assert st["strategies"] == [x.name for x in s.game.strategies]
    with pytest.raises(MetaError, match="unknown strategy"):
        tournament.build(s, tournament.settings([RAIDER, "random"], games=2))


def test_bench_says_when_it_does_not_time_the_file_rollout(tmp_path):
    """`pirate-sim bench` times every bundled game's file rollouts (the protocol's engine, since
    2026-12-04 Pirate's Peak's too): its label names the scenario's search seat and says nothing
    of a placeholder (a game whose bench could not time one would say so: ``bench_user_rollout``)."""
    from pirate_sim.bench import search_scenario

    (tmp_path / "r.py").write_text("def first(view, options, params):\n    return 0\n")
    for game, says in (("pirates_cove", False), ("ice_pirates", False), ("pirates_peak", False), ("pirateer", False)):
        s = scen.from_dict({"game": game, "seats": [{"strategy": "search", "rollout": "r.py:first"},
                                                    {"strategy": "expert"}] + [{"strategy": "expert"}] * (game == "pirates_cove")},
                           source=str(tmp_path / "s.toml"))
        _, where = search_scenario(s)
        assert where.startswith("seats.0 (the scenario's)")
        assert ("bench does not time a strategy-file or learned rollout" in where) == says, (game, where)
