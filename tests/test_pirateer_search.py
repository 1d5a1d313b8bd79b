"""Pirateer's search player: registration, reproducibility, the winning play, its own
streams, merged plays, rewards and the bench (issue 24)."""

import numpy as np
import pytest

from pirate_sim.games.pirateer import GAME
from pirate_sim.games.pirateer import search_player as SP
from pirate_sim.games.pirateer import state as KS
from pirate_sim.games.pirateer import rules as R
from pirate_sim.games.pirateer.reference import Position, apply_play, legal_plays, wins
from pirate_sim.games.pirateer.strategies import STRATEGY_BY_NAME, seat_tables
from pirate_sim.games.pirateer.testing import kernel_plays, new_state, set_position, step, to_row
from pirate_sim.rng import roll_die_nb
from pirate_sim.runner import set_threads

N, S, E, W = (0, -1), (0, 1), (1, 0), (-1, 0)
FAR = (17, 5)


def compile_game(*seats, **rules):
    return GAME.compile(GAME.full_rules(rules), [s if isinstance(s, dict) else {"strategy": s} for s in seats])


def test_search_is_registered_with_the_shared_parameters():
    s = STRATEGY_BY_NAME["search"]
    assert s.code == KS.ST_SEARCH == 4
    assert [p.key for p in s.params] == ["budget", "rollout", "top_k", "reward", "horizon", "prior"]
    codes, sp = seat_tables([{"strategy": "search", "rollout": "hunter", "prior": "runner", "reward": "rank"},
                             {"strategy": "cautious"}])
    # one row per entry, then the scripted strategies' defaults, a row per rollout choice
    assert codes.tolist() == [KS.ST_SEARCH, KS.ST_CAUTIOUS, 0, 1, 2, 3, KS.ST_EXPERT]
    assert s.params[1].choices == ("random", "runner", "hunter", "cautious", "expert")
    assert sp[0, KS.SP_ROLLOUT] == 2 and sp[0, KS.SP_PRIOR] == 1 and sp[0, KS.SP_REWARD] == 1
    assert codes[2 + 2] == KS.ST_HUNTER and codes[2 + 1] == KS.ST_RUNNER
    assert sp[0, KS.SP_BUDGET] == s.params[0].default and sp[5, KS.SP_RISK] == 30.0 and sp[3, KS.SP_CAPTURE] == 5.0


def test_search_games_are_reproducible_over_threads_chunks_and_traces():
    c = compile_game({"strategy": "search", "budget": 8}, "runner")
    set_threads(1)
    whole = GAME.play(c, 3, 0, 6)
    set_threads(2)
    parts = [GAME.play(c, 3, lo, hi - lo) for lo, hi in ((0, 2), (2, 6))]
    set_threads(None)
    np.testing.assert_array_equal(whole[0], np.concatenate([p[0] for p in parts]))
    np.testing.assert_array_equal(whole[1], np.concatenate([p[1] for p in parts]))
    _ev, g, s = GAME.trace_events(c, 3, 4)
    np.testing.assert_array_equal(whole[0][4], g)
    np.testing.assert_array_equal(whole[1][4], s)
    assert (whole[0][:, 2] != R.END_TRUNCATED).all()


def _position_state(c, ships, treasure=-1, dice=None):
    st, ev, rng = new_state(c, dice=dice)
    pos = Position([None] * (c.n_seats * c.params.ships_per_seat), treasure, tuple(c.extra["harbors"]))
    for i, sq in ships.items():
        pos.ships[i] = (i // c.params.ships_per_seat, sq)
    set_position(c, st, pos)
    st[R.G_SEAT] = 0
    st[R.G_EVENTS] = 0
    return st, ev, rng, pos


@pytest.mark.parametrize("ships, treasure, dice", [
    ({0: (5, 13), 1: (2, 12), 2: (0, 13), 3: FAR}, 2, [4, 1]),  # N4 sails the treasure home
    ({0: (9, 13), 1: (6, 3), 2: (2, 13), 3: (5, 13)}, -1, [3, 2]),  # E3 captures the last opposing ship
])
def test_search_takes_a_winning_play_at_once(ships, treasure, dice):
    """With no prior (listing order), one play kept and one rollout, only the search's own
    winning-play check can find the win: it must, whatever the order of the list."""
    c = compile_game({"strategy": "search", "budget": 1, "top_k": 1, "prior": "random"}, "runner")
    st, ev, rng, pos = _position_state(c, ships, treasure, dice)
    board = c.extra["board"]
    listed = kernel_plays(c, st, 0, *dice)
    winning = [p for p in listed if wins(board, apply_play(board, pos, p), 0)]
    assert winning and listed[0] not in winning  # the first listed play does not win
    assert set(listed) == legal_plays(board, pos, 0, *dice)
    step(c, st, ev, rng)
    assert st[R.G_WINNER] == 0 and st[R.G_END] in (R.END_HOME, R.END_CAPTURE)


def test_the_search_never_draws_from_the_games_stream():
    c = compile_game({"strategy": "search", "budget": 16}, "cautious")
    st, ev, rng, _pos = _position_state(c, {0: (2, 13), 1: (5, 9), 2: (9, 13), 3: (12, 12), 4: (14, 9)})
    want = rng.copy()
    roll_die_nb(want, 6)
    roll_die_nb(want, 6)
    step(c, st, ev, rng)
    np.testing.assert_array_equal(rng, want)  # the roll only: the rollouts ran on derived streams
    assert st[R.G_SEAT] == 1 and st[R.G_TURN] == 1


def test_plays_reaching_the_same_position_share_a_key():
    c = compile_game("search", "runner")
    st, _ev, _rng, _pos = _position_state(c, {0: (2, 13), 1: (9, 13), 3: FAR})
    a, b = np.zeros((2, R.MAX_SHIPS + 1), np.int32)
    # ship 0 E3 then ship 1 S2, and ship 1 S2 then ship 0 E3: one position
    p1 = np.array(to_row(((0, E, 3, 0), (1, S, 2, 0))), np.int32)
    p2 = np.array(to_row(((1, S, 2, 0), (0, E, 3, 0))), np.int32)
    p3 = np.array(to_row(((0, E, 2, 0), (1, S, 3, 0))), np.int32)
    before = st.copy()
    h1, w1 = SP.play_key_nb(st, c.params, c.arrays[0], c.arrays[1], 0, p1, a)
    h2, _ = SP.play_key_nb(st, c.params, c.arrays[0], c.arrays[1], 0, p2, b)
    assert h1 == h2 and (a == b).all() and not w1
    h3, _ = SP.play_key_nb(st, c.params, c.arrays[0], c.arrays[1], 0, p3, b)
    assert h3 != h1 and not (a == b).all()
    np.testing.assert_array_equal(st, before)


def test_rewards():
    c = compile_game("search", "runner", "runner")
    st, _ev, _rng, _pos = _position_state(c, {0: (2, 13), 1: (9, 13), 3: FAR, 6: (13, 3), 7: (14, 3)})
    P = c.params
    assert SP.reward_nb(st, P, 0, 0) == pytest.approx(1 / 3)  # not won: shared by the 3 seats afloat
    st[R.G_WINNER] = 2
    assert SP.reward_nb(st, P, 0, 0) == 0.0 and SP.reward_nb(st, P, 2, 0) == 1.0
    # rank: the winner (seat 2) first, then seat 0 (2 ships) above seat 1 (1 ship)
    assert SP.reward_nb(st, P, 2, 1) == 1.0
    assert SP.reward_nb(st, P, 0, 1) == pytest.approx(0.5) and SP.reward_nb(st, P, 1, 1) == 0.0
    # margin: the win plus 0.01 x (own ships - most ships of another seat) / ships per seat
    assert SP.reward_nb(st, P, 2, 2) == pytest.approx(1.0)
    assert SP.reward_nb(st, P, 1, 2) == pytest.approx(0.01 * (1 - 2) / 3)


def test_search_bench_reports_its_cost():
    c = compile_game({"strategy": "search", "budget": 16}, "cautious")
    b = GAME.search_bench(c, 7, 6)
    assert b["decisions"] == 6 and b["rollout"] == "runner" and b["budget"] == 16
    assert 6 <= b["rollouts"] <= 6 * 16
    assert b["rollouts_per_s"] > 0 and b["s_per_playout"] > 0 and b["s_per_rollout"] > 0
    assert np.isfinite(b["overhead"])
    # no search seat: the default parameters
    assert GAME.search_bench(compile_game("runner", "cautious"), 7, 2)["budget"] == STRATEGY_BY_NAME["search"].params[0].default == 256


def test_the_head_to_head_script_runs_on_a_small_budget(capsys):
    """docs/pirateer_search.py makes the rules page's search table; here on 4 games."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "docs" / "pirateer_search.py"
    spec = importlib.util.spec_from_file_location("pirateer_search", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    h = mod.head_to_head({"strategy": "search", "budget": 2}, {"strategy": "runner"}, 4, threads=1)
    assert h["games"] == 4 and 0.0 <= h["lo"] <= h["win"] <= h["hi"] <= 1.0 and h["truncated"] == 0
    assert mod.main(["--pair", "cautious,runner", "--games", "8"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last.startswith("| cautious | runner | ") and "| 8 |" in last
