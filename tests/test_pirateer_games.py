"""Whole Pirateer games: replayed through the reference, invariants turn by turn,
determinism, truncation, golden values."""

import numpy as np
import pytest

from pirate_sim import scenario as scen
from pirate_sim.games.pirateer import GAME
from pirate_sim.games.pirateer import rules as R
from pirate_sim.games.pirateer import state as KS
from pirate_sim.games.pirateer.testing import new_state, step
from pirate_sim.games.pirateer.trace import replay_with_reference
from pirate_sim.runner import set_threads


def compile_game(strategies, **rules):
    r = {p.key: p.default for p in GAME.params}
    r.update(rules)
    return GAME.compile(r, [{"strategy": s} for s in strategies])


LINEUPS = [("runner", "hunter", "cautious", "random"), ("random", "random"), ("hunter", "cautious", "runner")]


@pytest.mark.parametrize("lineup", LINEUPS)
def test_traced_games_replay_through_the_reference(lineup):
    c = compile_game(lineup)
    rolls = 0
    for k in range(3):
        ev, out_g, _ = GAME.trace_events(c, 11, k)
        got = replay_with_reference(c, ev, out_g)
        rolls += got["rolls"]
    assert rolls > 50


def test_trace_equals_the_bulk_run():
    c = compile_game(LINEUPS[0])
    out_g, out_s = GAME.play(c, 5, 0, 6)
    for k in range(6):
        _ev, g, s = GAME.trace_events(c, 5, k)
        np.testing.assert_array_equal(out_g[k], g)
        np.testing.assert_array_equal(out_s[k], s)


def _check_invariants(c, st, before):
    sps = c.params.ships_per_seat
    kind = c.arrays[1]
    nodes = [int(st[R.SHIPS_BASE + i]) for i in range(c.n_seats * sps)]
    afloat = [n for n in nodes if n >= 0]
    assert len(afloat) == len(set(afloat)), "two ships on one square (strait halves are one square)"
    occ = st[R.OCC_BASE:R.OCC_BASE + c.params.n_nodes]
    assert (occ >= 0).sum() == len(afloat)
    for i, n in enumerate(nodes):
        if n >= 0:
            assert occ[n] == i and kind[n] in (R.SEA, R.WIND, R.STRAIT)
    for s in range(c.n_seats):
        left = sum(1 for n in nodes[s * sps:(s + 1) * sps] if n >= 0)
        assert st[R.SEATS_BASE + s * R.SEAT_WORDS + R.S_SHIPS] == left
        lost = st[R.SEATS_BASE + s * R.SEAT_WORDS + R.S_LOST]
        assert left == sps - lost, "ships only leave the board by capture"
        assert left <= before[s]
        before[s] = left
    t = int(st[R.G_TREASURE])
    assert t == -1 or nodes[t] >= 0, "the treasure is on Skull Island or aboard a ship afloat"


@pytest.mark.parametrize("lineup", LINEUPS)
def test_invariants_turn_by_turn(lineup):
    c = compile_game(lineup)
    for k in range(4):
        st, ev, rng = new_state(c, seed=3, game_index=k, events=0)
        before = [c.params.ships_per_seat] * c.n_seats
        while st[R.G_END] < 0:
            step(c, st, ev, rng)
            _check_invariants(c, st, before)


def test_outputs_are_consistent():
    c = compile_game(LINEUPS[0])
    out_g, out_s = GAME.play(c, 9, 0, 400)
    caps = out_s[:, :, 2].sum(1)
    assert (caps == out_s[:, :, 3].sum(1)).all(), "captures made = captures suffered"
    assert (out_s[:, :, 1] == 3 - out_s[:, :, 3]).all()
    assert (out_g[:, 6] == out_s[:, :, 6].sum(1)).all(), "treasure changes = treasure ships lost"
    home = out_g[:, 2] == R.END_HOME
    assert (out_g[home, 9] >= 1).all() and (out_g[home, 7] >= 1).all()
    capture = out_g[:, 2] == R.END_CAPTURE
    w = out_g[capture, 0]
    others = out_s[capture].sum(1)[:, 1] - out_s[capture, w, 1]
    assert (others == 0).all(), "a capture win leaves no opposing ship"
    never = out_g[:, 7] < 0
    assert (out_g[never, 9] == 0).all() and (out_g[never, 8] == -1).all()


def test_same_games_whatever_the_threads_and_chunks():
    c = compile_game(LINEUPS[0])
    set_threads(1)
    a = GAME.play(c, 21, 0, 200)
    set_threads(None)
    b = GAME.play(c, 21, 0, 200)
    parts = [GAME.play(c, 21, lo, hi - lo) for lo, hi in ((0, 70), (70, 133), (133, 200))]
    for x in (b, (np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]))):
        np.testing.assert_array_equal(a[0], x[0])
        np.testing.assert_array_equal(a[1], x[1])


@pytest.mark.parametrize("lineup", LINEUPS)
def test_both_ends_happen_and_games_finish(lineup):
    c = compile_game(lineup, turn_cap=20000)  # random play has a long tail (p99.9 ~ 6000 turns)
    out_g, _ = GAME.play(c, 2, 0, 600)
    ends = np.bincount(out_g[:, 2], minlength=3)
    assert ends[R.END_HOME] > 0 and ends[R.END_CAPTURE] > 0
    assert ends[R.END_TRUNCATED] == 0


def test_golden_values():
    """Fixed seed, default scenario: change only together with rules.VERSION."""
    s = scen.from_dict({"game": "pirateer", "run": {"seed": 2026}, "rules": {},
                        "seats": [{"strategy": x} for x in GAME.default_seats]})
    out_g, out_s = GAME.play(s.compile(), s.seed, 0, 200)
    got = {
        "version": GAME.version,
        "turns": int(out_g[:, 1].sum()),
        "wins": np.bincount(out_g[:, 0] + 1, minlength=5).tolist(),
        "ends": np.bincount(out_g[:, 2], minlength=3).tolist(),
        "captures": int(out_s[:, :, 2].sum()),
        "sailed": int(out_s[:, :, 7].sum()),
    }
    assert got == GOLDEN


GOLDEN = {"version": "1.1.0", "turns": 14750, "wins": [0, 40, 52, 79, 29], "ends": [133, 67, 0],
          "captures": 1747, "sailed": 83953}


def test_scripted_strategy_is_not_offered():
    assert KS.ST_SCRIPTED not in {s.code for s in GAME.strategies}


def test_trace_names_the_players_of_that_game_under_rotation():
    c = compile_game(("runner", "hunter", "cautious", "random"), strategy_seating="rotate")
    head = GAME.trace(c, 1, 1)[0]
    assert "seat 0 harbor 1 random" in head and "seat 1 harbor 2 runner" in head


@pytest.mark.parametrize("lineup", [LINEUPS[0], LINEUPS[1]])
def test_the_chunk_kernel_writes_every_declared_column(lineup):
    """The outputs writer writes every column of columns.py (by its GC_* / SC_* code): the
    chunk kernel, called as Game.play_chunk calls it, on outputs filled with a sentinel
    instead of zeros, leaves no sentinel in any game or seat row."""
    sentinel = -31111
    c = compile_game(lineup)
    n = 40
    out_g, out_s = GAME.new_outputs(n, c.n_seats)
    out_g[:] = sentinel
    out_s[:] = sentinel
    from pirate_sim.contract import block_work, no_files
    from pirate_sim.games.pirateer.engine import engine, engine_tables
    from pirate_sim.games.pirateer.user_view import board_of

    engine().play_block_nb(np.uint64(9), np.int64(0), np.int64(0), np.int64(n), c.params,
                           *engine_tables(c)[1:],
                           *no_files(c.n_seats, board_of(c.arrays))[:3], out_g, out_s, np.zeros((n, 3), np.int64),
                           np.zeros((n, 4), np.int64), block_work(engine(), c.params, engine_tables(c)[0]))
    assert out_g.shape[1] == 5 + len(GAME.game_columns) and out_s.shape[2] == len(GAME.seat_columns)
    left = sorted({GAME.game_columns[j - 5].name if j >= 5 else j for j in np.nonzero(out_g == sentinel)[1].tolist()}
                  | {GAME.seat_columns[j].name for j in np.nonzero(out_s == sentinel)[2].tolist()}, key=str)
    assert not left, f"columns never written: {left}"
    ref_g, ref_s = GAME.play(c, 9, 0, n)  # the same games on zeroed outputs
    np.testing.assert_array_equal(out_g, ref_g)
    np.testing.assert_array_equal(out_s, ref_s)
