"""Pirate's Cove contract: invariants round by round, bulk outputs, determinism, the joint
action, golden values."""

import numba
import numpy as np
import pytest

from pirate_sim.games.base import N_STD_GAME_COLUMNS, STD_GAME_COLUMNS
from pirate_sim.games.pirates_cove import GAME
from pirate_sim.games.pirates_cove import rules as R
from pirate_sim.games.pirates_cove.game import FAME_SOURCES, decode_round
from pirate_sim.games.pirates_cove.policies import FS_SIZE, choose_island_nb
from pirate_sim.games.pirates_cove.testing import (begin_round, chests_total, finish, gold_total, new_state,
                                                   play_round, rest_of_round, seat, tavern_total)

NAMES = ("treasure_hunter", "fighter", "crowd_avoider", "random")


def seats(names, **over):
    out = []
    for n in names:
        d = {"strategy": n, **{p.key: p.default for p in GAME.strategy(n).params}}
        d.update(over.get(n, {}))
        out.append(d)
    return out


def rules(**over):
    r = {p.key: p.default for p in GAME.params}
    r.update(over)
    return r


def check_invariants(c, st, n, gold0, chests0):
    assert gold_total(st, n) == gold0
    assert chests_total(st, n) == chests0
    assert tavern_total(st, n) == len(c.arrays[3])
    assert st[R.G_SUPPLY_GOLD] >= 0 and st[R.G_SUPPLY_CHESTS] >= 0
    tr = c.arrays[0]
    for s in range(n):
        for k in range(4):
            lv = seat(st, s, R.S_SEC + k)
            assert 1 <= lv <= tr[k, 1], (s, k, lv)  # after Pirate's Cove every section is whole
        assert seat(st, s, R.S_GOLD) >= 0 and seat(st, s, R.S_CHESTS) >= 0
        track = sum(seat(st, s, w) for w in (R.S_F_CHESTS, R.S_F_GOLD, R.S_F_COMBAT, R.S_F_BLACK,
                                                R.S_F_TREASURE, R.S_F_CARDS)) - seat(st, s, R.S_F_MUTINY)
        assert seat(st, s, R.S_FAME) == track  # fame only from the named sources
        assert seat(st, s, R.S_FAME) >= 0
        assert seat(st, s, R.S_BURIED_CHESTS) * c.params.chest_fame == seat(st, s, R.S_F_CHESTS)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_random_and_planned_play_keep_invariants_every_round(n):
    names = (list(NAMES) * 2)[:n]
    for strat_names in (names, ["random"] * n):
        c = GAME.compile(rules(), seats(strat_names))
        for g in range(4):
            st, ev, rng = new_state(c, seed=13, game_index=g, events=0, scripted=False)
            gold0, chests0 = gold_total(st, n), chests_total(st, n)
            assert gold0 == c.params.supply_gold + n * c.params.setup_gold
            for _ in range(R.ROUNDS):
                play_round(c, st, ev, rng)
                check_invariants(c, st, n, gold0, chests0)
            finish(c, st, ev, rng)
            check_invariants(c, st, n, gold0, chests0)
            assert st[R.G_WINNER] >= 0 or st[R.G_END] == R.END_TIE_UNRESOLVED


@pytest.mark.parametrize("n", [3, 5])
def test_bulk_outputs_are_consistent(n):
    names = (list(NAMES) * 2)[:n]
    c = GAME.compile(rules(), seats(names))
    g, s = GAME.play(c, 3, 0, 400)
    assert np.all(g[:, 1] == R.ROUNDS * n)  # every game is 12 rounds
    assert np.all(g[:, 3] == 0) and np.all(g[:, 2] != R.END_TRUNCATED)
    col = GAME.seat_column_index
    won = s[:, :, col("seat_won")]
    ok = g[:, 0] >= 0
    assert np.array_equal(won.sum(axis=1), ok.astype(int))
    fame = s[:, :, col("fame")]
    src = sum(s[:, :, col(k)] for k in FAME_SOURCES) - s[:, :, col("fame_lost_mutiny")]
    assert np.array_equal(fame, src)
    w = g[ok, 0]
    assert np.all(fame[ok][np.arange(len(w)), w] == fame[ok].max(axis=1))  # the winner has most fame
    tie = (g[:, 2] == R.END_TIE_COMBAT) | (g[:, 2] == R.END_TIE_UNRESOLVED)
    assert np.array_equal(tie, g[:, N_STD_GAME_COLUMNS + 6] == 1)
    for k in ("hull", "sails", "cannons", "crew"):
        top = int(rules()[f"sections.{k}.max"])
        assert np.all((s[:, :, col(f"level_{k}")] >= 1) & (s[:, :, col(f"level_{k}")] <= top))
        assert np.all(s[:, :, col(f"setup_{k}")] <= top)
    # island x round columns: every seat sailed somewhere each round
    codes = g[:, N_STD_GAME_COLUMNS + 10:N_STD_GAME_COLUMNS + 10 + R.ROUNDS]
    assert np.all(g[:, N_STD_GAME_COLUMNS + 10 + R.ROUNDS:] == 0)  # round_13.. : beyond a 12-round game
    ships, contested = decode_round(codes)
    assert np.all(ships.sum(axis=2) == n)
    assert np.all(contested[:, :, 5] == 0)  # never a fight on Treasure Island
    visits = sum(s[:, :, col(f"visits_island_{i}")] for i in range(1, 7))
    assert np.all(visits == R.ROUNDS)
    assert np.array_equal(ships.sum(axis=1), np.stack([s[:, :, col(f"visits_island_{i}")].sum(axis=1)
                                                       for i in range(1, 7)], axis=1))
    assert np.all(s[:, :, col("mutinies")] <= s[:, :, col("flights")])


def test_chunk_kernel_writes_every_declared_column():
    """The engine's chunk kernel writes every declared game and seat column (columns.py's codes):
    output arrays filled with a sentinel come back without it, the same as Game.play's; its
    counters count (no search seat nor file here: 0 rollouts, 0 decisions)."""
    from pirate_sim.contract import block_work, table_files
    from pirate_sim.games.pirates_cove.engine import engine, engine_tables
    from pirate_sim.games.pirates_cove.user_view import board_of

    sentinel, n = -31111, 40
    c = GAME.compile(rules(), seats(NAMES))
    out_g = np.full((n, N_STD_GAME_COLUMNS + len(GAME.game_columns)), sentinel, np.int32)
    out_s = np.full((n, c.n_seats, len(GAME.seat_columns)), sentinel, np.int32)
    counters = np.full((n, 3), sentinel, np.int64)
    fi, urows, calls, _ = table_files(c, c.n_seats, board_of(c))
    engine().play_block_nb(np.uint64(11), np.int64(3), np.int64(0), np.int64(n), c.params,
                           *engine_tables(c)[1:], fi, urows, calls,
                           out_g, out_s, counters, np.zeros((n, 4), np.int64),
                           block_work(engine(), c.params, engine_tables(c)[0]))
    names_g = list(STD_GAME_COLUMNS) + [col.name for col in GAME.game_columns]
    assert not [names_g[j] for j in range(out_g.shape[1]) if (out_g[:, j] == sentinel).any()]
    assert not [col.name for j, col in enumerate(GAME.seat_columns) if (out_s[:, :, j] == sentinel).any()]
    assert np.all(counters == 0)
    g, s = GAME.play(c, 11, 3, n)
    assert np.array_equal(g, out_g) and np.array_equal(s, out_s)


def test_determinism_over_chunks_and_threads():
    c = GAME.compile(rules(), seats(list(NAMES)))
    a = GAME.play(c, 9, 0, 600)
    b1 = GAME.play(c, 9, 0, 250)
    b2 = GAME.play(c, 9, 250, 350)
    assert np.array_equal(a[0], np.concatenate([b1[0], b2[0]]))
    assert np.array_equal(a[1], np.concatenate([b1[1], b2[1]]))
    old = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = GAME.play(c, 9, 0, 600)
    finally:
        numba.set_num_threads(old)
    assert np.array_equal(a[0], one[0]) and np.array_equal(a[1], one[1])


def test_trace_replays_the_same_game():
    c = GAME.compile(rules(), seats(list(NAMES)))
    g, s = GAME.play(c, 5, 0, 8)
    ev, og, os_ = GAME.trace_events(c, 5, 7)
    assert np.array_equal(og, g[7]) and np.array_equal(os_, s[7])
    lines = GAME.trace(c, 5, 7)
    assert lines[-1].startswith("Result:") and len(lines) > 40
    assert sum(e[2] == R.EV_CHOICE for e in ev.tolist()) == g[7, 1]


def _choices(c, st, rng):
    tr, cards, ncards, tavern, legends, strat, sp = c.arrays
    fs = np.zeros(FS_SIZE)
    return [choose_island_nb(st, rng.copy(), c.params, tr, strat, sp, fs, s) for s in range(c.n_seats)]


def test_island_choices_use_only_what_a_player_could_know():
    """The secret choice is a joint action: hidden deck orders and the other seats' choices
    of the same round (written anywhere in the state) never change a seat's choice."""
    c = GAME.compile(rules(), seats(["treasure_hunter", "fighter", "crowd_avoider"]))
    for g in range(30):
        st, ev, rng = new_state(c, seed=4, game_index=g, events=0, scripted=False)
        for _ in range(g % 6):
            play_round(c, st, ev, rng)
        begin_round(c, st, ev)
        base = _choices(c, st, rng)
        other = st.copy()
        n = int(other[R.G_DECK_N])
        other[R.G_TDECK:R.G_TDECK + n] = other[R.G_TDECK:R.G_TDECK + n][::-1]  # another deck order
        other[R.G_TPERM:R.G_TPERM + 5 * R.MAX_TREASURE] = 0  # other Treasure stacks
        other[R.G_CHOICE:R.G_CHOICE + 5] = [6, 1, 2, 3, 4]  # "revealed" choices
        for s in range(3):  # another hand of the same size
            b = R.SEATS_BASE + s * R.SEAT_WORDS
            other[b + R.S_FAME_CARDS] += 3
        assert _choices(c, other, rng) == base


def test_all_choices_are_made_before_any_is_revealed():
    """Each seat's choice in play_round equals its choice computed on the state before the reveal."""
    c = GAME.compile(rules(), seats(["treasure_hunter", "crowd_avoider", "fighter", "crowd_avoider"]))
    for g in range(20):
        st, ev, rng = new_state(c, seed=8, game_index=g, events=0, scripted=False)
        begin_round(c, st, ev)
        expect = _choices(c, st, rng)
        rest_of_round(c, st, ev, rng)
        assert [int(x) for x in st[R.G_CHOICE:R.G_CHOICE + 4]] == expect


def test_seating_rotation_and_first_player_modes():
    c = GAME.compile(rules(strategy_seating="rotate", first_player="rotate"), seats(list(NAMES)))
    g, _ = GAME.play(c, 2, 0, 8)
    assert g[:, 4].tolist() == [k % 4 for k in range(8)]
    st, _, _ = new_state(c, seed=2, game_index=1, events=0, scripted=False)
    assert [seat(st, s, R.S_ENTRY) for s in range(4)] == [3, 0, 1, 2]
    c = GAME.compile(rules(), seats(list(NAMES)))
    g, _ = GAME.play(c, 2, 0, 400)
    counts = np.bincount(g[:, 4], minlength=4)
    assert counts.min() > 60  # the rule: a die roll, every seat equally likely


# Golden values: seed 2026, games 0..19, default four seats.  Update with Game.version.
GOLDEN = {"winners": [1, 1, 1, 1, 1, 1, 0, 1, 1, 2, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1],
          "fame_sum": 957, "dice": 2800, "seat_sum": 13637}  # rules 1.3.0


def test_golden_values():
    c = GAME.compile(rules(), seats(list(GAME.default_seats)))
    g, s = GAME.play(c, 2026, 0, 20)
    got = {"winners": g[:, 0].tolist(), "fame_sum": int(s[:, :, 0].sum()),
           "dice": int(g[:, N_STD_GAME_COLUMNS].sum()), "seat_sum": int(s.sum())}
    assert got == GOLDEN, got


def test_game_metadata():
    assert GAME.name == "pirates_cove" and GAME.version == R.VERSION
    assert GAME.min_seats == 3 and GAME.max_seats == 5
    assert {s.name for s in GAME.strategies} == {"random", "treasure_hunter", "fighter", "crowd_avoider", "search",
                                                  "expert"}
    assert GAME.score_column == "fame"
