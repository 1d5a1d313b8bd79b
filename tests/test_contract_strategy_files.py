"""Strategy files on a game written on the decision protocol (pirate_sim/contract.py): the engine
(pirate_sim/engine_template.py) calls a seat's ``file.py:fn`` by address on the game's
``view_nb``, so a protocol game gets them with no code of its own.  Real engine, real files:
tests/toy_race.py (the sum race, with a hidden bonus per seat) and tests/user_strategies/race_probe.py.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import toy_race as R
from pirate_sim import scenario as scen
from pirate_sim import user_strategy as U
from pirate_sim.cli import main
from pirate_sim.rng import RNG_WORDS, seed_game_nb
from pirate_sim.stats import wilson
from strategy_cli import run_illegal_index

ROOT = Path(__file__).resolve().parent.parent
PROBE = "tests/user_strategies/race_probe.py:probe"


def _race(seats: list[dict], **rules) -> scen.Scenario:
    return scen.from_dict({"game": "sum_race", "rules": rules, "seats": seats}, source=str(ROOT / "s.toml"))


def _digest(g, s) -> str:
    return hashlib.sha256(g.tobytes() + s.tobytes()).hexdigest()


def _play(sc: scen.Scenario, seed: int, first: int, n: int):
    return sc.game.play(sc.compile(), seed, first, n)


def test_a_file_that_takes_the_first_option_plays_the_scripted_first_players_games():
    # the file never touches the game's stream, so its games are the built-in `first`'s, bit for bit
    for seating in ("fixed", "rotate"):
        a = _play(_race([{"strategy": PROBE}, {"strategy": "random"}], strategy_seating=seating), 5, 0, 2000)
        b = _play(_race([{"strategy": "first"}, {"strategy": "random"}], strategy_seating=seating), 5, 0, 2000)
        assert _digest(*a) == _digest(*b)


def test_a_file_that_reads_its_view_takes_the_best_option_and_wins():
    # mode "best": option 1 adds one more than option 0; the file reads the rule from its view
    n = 4000
    g, s = _play(_race([{"strategy": PROBE, "mode": 3.0}, {"strategy": "first"}], mode="best"), 11, 0, n)
    assert (s[:, 0, R.SC_TOOK + 1] == 4).all() and (s[:, 0, R.SC_TOOK] == 0).all()  # every turn option 1
    share = wilson(float((g[:, 0] == 0).sum() + 0.5 * (g[:, 0] < 0).sum()), n)
    assert share.lo > 0.5, share
    g, s = _play(_race([{"strategy": PROBE, "mode": 3.0}, {"strategy": "first"}], mode="equal"), 11, 0, 50)
    assert (s[:, 0, R.SC_TOOK] == 4).all()  # no best option: its first


def test_the_seats_parameters_reach_the_file():
    for k in (0, 1, 2):
        _, s = _play(_race([{"strategy": "random"}, {"strategy": PROBE, "mode": 5.0, "k": float(k)}]), 2, 0, 30)
        assert (s[:, 1, R.SC_TOOK + k] == 4).all()


def test_its_private_stream_is_reproducible_and_leaves_the_games_dice_alone():
    sc = _race([{"strategy": PROBE, "mode": 4.0}, {"strategy": PROBE, "mode": 4.0}])
    c = sc.compile()
    whole = sc.game.play(c, 9, 0, 600)
    parts = [sc.game.play(c, 9, k, 200) for k in (0, 200, 400)]
    assert _digest(*whole) == _digest(np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]))
    took = whole[1][:, :, R.SC_TOOK:R.SC_TOOK + 3].sum(axis=(0, 1))
    assert took.min() > 0.3 * took.sum() / 3  # every option taken: a real random stream, not the first
    # the game's dice are those of a table that never draws for a choice (`first`): the file's
    # stream is derived, never the game's own
    ref = _race([{"strategy": "first"}, {"strategy": "first"}])
    rc = ref.compile()
    for k in range(20):
        dice = [sc.game.trace_events(c, 9, k, 64)[0], ref.game.trace_events(rc, 9, k, 64)[0]]
        moves = [ev[ev[:, 2] == R.EV_MOVE][:, 4] for ev in dice]  # (turn, seat, kind, option, die, score)
        assert len(moves[0]) == 8 and np.array_equal(moves[0], moves[1])


def test_its_copies_are_its_own():
    # scribbling over the view and the options changes nothing of the game: the same as `first`
    a = _play(_race([{"strategy": PROBE, "mode": 6.0}, {"strategy": "random"}]), 4, 0, 300)
    b = _play(_race([{"strategy": "first"}, {"strategy": "random"}]), 4, 0, 300)
    assert _digest(*a) == _digest(*b)


def test_the_view_hides_the_opponents_bonus_and_only_that():
    """Scramble test: states of real games at each decision, the opponent's hidden bonus set to each of
    its six values, give the same view; the seat's own bonus and the sums do show."""
    P = _race([{"strategy": "random"}, {"strategy": "random"}]).compile().params
    T = ()
    rng = np.zeros(RNG_WORDS, np.uint64)
    ev = np.zeros((0, 6), np.int32)
    opts = np.zeros(R.MAX_OPTIONS, np.int64)
    views = 0
    for k in range(40):
        st = R.new_state_nb(P)
        seed_game_nb(rng, np.uint64(3), k)
        R.setup_nb(st, ev, rng, P, T, k)
        while (seat := R.next_decision_nb(st, ev, rng, P, T)) >= 0:
            base = np.zeros(R.VIEW_LEN, np.int32)
            R.view_nb(st, P, T, seat, base)
            for b in range(6):
                other = st.copy()
                other[R.ST_BONUS + 1 - seat] = b
                v = np.zeros(R.VIEW_LEN, np.int32)
                R.view_nb(other, P, T, seat, v)
                assert np.array_equal(v, base)
            own = st.copy()
            own[R.ST_BONUS + seat] = (st[R.ST_BONUS + seat] + 1) % 6
            v = np.zeros(R.VIEW_LEN, np.int32)
            R.view_nb(own, P, T, seat, v)
            assert not np.array_equal(v, base)  # the test can tell: what the seat knows does show
            views += 1
            n = R.options_nb(st, P, T, opts)
            R.apply_nb(st, ev, rng, P, T, opts[k % n])
    assert views == 40 * 8


def test_an_illegal_index_stops_the_run_with_the_game_named():
    sc = _race([{"strategy": "random"}, {"strategy": PROBE, "mode": 1.0}])
    with pytest.raises(U.UserStrategyError, match=r"race_probe.py: probe: returned 3 at game 0 turn 1, where the "
                                                  r"legal options are 0\.\.2; the game was not recorded"):
        sc.game.play(sc.compile(), 1, 0, 20)


def test_reading_beyond_the_view_raises_one_line():
    sc = _race([{"strategy": PROBE, "mode": 2.0}, {"strategy": "random"}])
    with pytest.raises(U.UserStrategyError, match=r"probe: raised an exception at game 0 turn 0 .*nothing was "
                                                  r"recorded"):
        sc.game.play(sc.compile(), 1, 0, 20)


def test_cli_run_with_an_illegal_index_exits_2_and_writes_nothing(tmp_path):
    probe = ROOT / PROBE.split(":")[0]
    line = run_illegal_index(tmp_path, f'game = "sum_race"\n[[seats]]\nstrategy = "random"\n[[seats]]\n'
                                       f'strategy = "{probe}:probe"\nmode = 1.0\n')
    assert "returned 3 at game 0 turn 1, where the legal options are 0..2" in line


def test_trace_equals_the_run_and_a_search_seat_sits_beside_a_file():
    sc = _race([{"strategy": PROBE, "mode": 3.0}, {"strategy": "search", "budget": 6}], mode="best")
    c = sc.compile()
    g, s = sc.game.play(c, 3, 0, 5)
    _ev, out_g, out_s = sc.game.trace_events(c, 3, 2, 64)
    assert np.array_equal(out_g, g[2]) and np.array_equal(out_s, s[2])
    lines = sc.game.trace(c, 3, 2)
    assert lines[-1].startswith("Result:") and any("takes option 1" in ln for ln in lines)
    g2, _ = sc.game.play(c, 3, 2, 3)
    assert np.array_equal(g[2:], g2)


def test_cli_run_plays_a_file_in_a_protocol_game(tmp_path):
    probe = ROOT / PROBE.split(":")[0]
    (tmp_path / "s.toml").write_text(
        f'game = "sum_race"\n[rules]\nmode = "best"\n[[seats]]\nstrategy = "{probe}:probe"\nmode = 3.0\n'
        '[[seats]]\nstrategy = "first"\n')
    res = CliRunner().invoke(main, ["run", str(tmp_path / "s.toml"), "-o", str(tmp_path / "out"), "--games", "2000"],
                             catch_exceptions=False)
    assert res.exit_code == 0, res.output
    assert (tmp_path / "out" / "summary.json").is_file()


# ------------------------------------------------------------------ search rolling out a file
def test_search_rolling_out_a_file_plays_the_games_of_the_same_scripted_rollout():
    # a file that takes option 0 in every rollout decision is the scripted `first` in the rollouts:
    # the same searched choices, the same games (its private streams never touch the rollouts' dice)
    for rules in ({"mode": "best"}, {"mode": "equal", "strategy_seating": "rotate"}):
        a = _play(_race([{"strategy": "search", "budget": 12, "rollout": PROBE}, {"strategy": "random"}], **rules),
                  8, 0, 300)
        b = _play(_race([{"strategy": "search", "budget": 12, "rollout": "first"}, {"strategy": "random"}], **rules),
                  8, 0, 300)
        assert _digest(*a) == _digest(*b)
    c = _play(_race([{"strategy": "search", "budget": 12, "rollout": "random"}, {"strategy": "random"}],
                    mode="best"), 8, 0, 300)
    assert _digest(*c) != _digest(*_play(_race([{"strategy": "search", "budget": 12, "rollout": PROBE},
                                                 {"strategy": "random"}], mode="best"), 8, 0, 300))


def test_an_illegal_answer_in_a_rollout_is_one_line():
    # a rollout plays the file with its PARAMS defaults: race_bad.py's function always answers past the options
    bad = ROOT / "tests" / "user_strategies" / "race_bad.py"
    sc = scen.from_dict({"game": "sum_race", "seats": [{"strategy": "search", "budget": 4, "rollout": f"{bad}:bad"},
                                                        {"strategy": "random"}]}, source=str(ROOT / "s.toml"))
    with pytest.raises(U.UserStrategyError, match=r"race_bad.py: bad: returned 3 in a rollout of search at game 0 "
                                                  r"turn 1, where the legal options are 0\.\.2"):
        sc.game.play(sc.compile(), 1, 0, 5)


def test_search_bench_times_a_file_rollout():
    sc = _race([{"strategy": "search", "budget": 12, "rollout": PROBE}, {"strategy": "random"}])
    b = sc.game.search_bench(sc.compile(), 3, 50)
    assert b["searched_decisions"] == 50 and b["rollouts"] == 50 * 12 and b["s_per_playout"] > 0


def test_the_dice_duel_takes_strategy_files_with_no_code_of_its_own():
    """The engine tests' toy moved onto the protocol (tests/toy_game.py) and got strategy files
    for free: a file taking each of a turn's three options plays exactly the games of the
    scripted player that takes it (roller, roller re-rolling ones, sixer), seats fixed or rotating."""
    file = "tests/user_strategies/duel_moves.py:move"
    scripted = ({"strategy": "roller"}, {"strategy": "roller", "reroll_ones": True}, {"strategy": "sixer"})

    def duel(first, seating="fixed"):
        return scen.from_dict({"game": "dice_duel", "rules": {"strategy_seating": seating},
                               "seats": [first, {"strategy": "roller"}]}, source=str(ROOT / "s.toml"))

    for option, same in enumerate(scripted):
        for seating in ("fixed", "rotate"):
            a = _play(duel({"strategy": file, "option": float(option)}, seating), 3, 0, 2000)
            b = _play(duel(same, seating), 3, 0, 2000)
            assert _digest(*a) == _digest(*b), (option, seating)
    # and the games differ by option: the test can tell
    assert _digest(*_play(duel({"strategy": file, "option": 0.0}), 3, 0, 2000)) \
        != _digest(*_play(duel({"strategy": file, "option": 2.0}), 3, 0, 2000))
