"""Pirateer on the decision protocol (pirate_sim/games/pirateer/protocol.py): the packed options,
the pending decision and the pass, the heat map read from the event log; every check on the real
kernels.  That the engine plays every game as the bundled drivers did is the hash harnesses'
(docs/pirateer_hashes.py, tests/search_hashes.py, docs/strategy_file_hashes.py)."""

import numpy as np
import pytest

from pirate_sim.games.pirateer import GAME
from pirate_sim.games.pirateer import protocol as G
from pirate_sim.games.pirateer import rules as R
from pirate_sim.games.pirateer.engine import engine_tables
from pirate_sim.games.pirateer.game import add_heat
from pirate_sim.games.pirateer.reference import Position
from pirate_sim.games.pirateer.testing import new_state, set_position
from pirate_sim.rng import new_rng

FAR = (17, 5)  # an open-sea square far from everything (tests/test_pirateer_rules.py)


def _compiled(*strategies, **rules):
    return GAME.compile(GAME.full_rules(rules), [{"strategy": s} for s in strategies])


def _tables(c):
    T = engine_tables(c)[0]
    return G.thread_tables_nb(c.params, T)


def _waiting_turn(c, TT, turns=12, seed=5):
    """A real game's state after ``turns`` decisions, at a waiting turn with more than one play."""
    st = G.new_state_nb(c.params)
    ev = np.zeros((0, 6), np.int32)
    rng = new_rng(seed, 0)
    opts = np.zeros(G.MAX_OPTIONS, np.int64)
    G.setup_nb(st, ev, rng, c.params, TT, 0)
    k = 0
    while True:
        s = G.next_decision_nb(st, ev, rng, c.params, TT)
        n = G.options_nb(st, c.params, TT, opts)
        if k >= turns and n > 1:
            return st, rng, s, n
        G.apply_nb(st, ev, rng, c.params, TT, opts[G.policy_nb(st, rng, c.params, TT, s, 1, engine_tables(c)[2][0],
                                                                opts, n, np.zeros(G.MAX_OPTIONS))])
        k += 1


def test_a_search_leaves_the_turns_plays_as_they_were():
    """The options are rows of the thread's plays table, which a search's rollouts reuse: each
    rollout must start from the searched turn's plays (determinise_nb) and the table must hold
    them again once the search is over (the engine's refresh_nb), or the play made is another."""
    from pirate_sim.contract import no_files
    from pirate_sim.games.pirateer.engine import engine
    from pirate_sim.games.pirateer.user_view import board_of

    c = _compiled("search", "hunter")
    T, codes, prm, rprm, _ = engine_tables(c)
    TT = G.thread_tables_nb(c.params, T)
    st, rng, s, n = _waiting_turn(c, TT)
    listed = TT[G.W_PLAYS][:n].copy()
    opts = np.arange(G.MAX_OPTIONS, dtype=np.int64)
    eng = engine()
    fi, urows, calls, _ = no_files(2, board_of(c.arrays))
    scr = eng.new_scratch_nb(c.params)
    i = eng.search_nb(st, rng, c.params, TT, prm[0], rprm[0], s, opts, n, 0, scr, -1, urows[2], calls,
                      np.zeros(4, np.int64))
    assert scr[9][eng.CNT_ROLLOUTS] > 0 and 0 <= i < n  # rollouts were played
    np.testing.assert_array_equal(TT[G.W_PLAYS][:n], listed)
    rs = st.copy()
    TT[G.W_PLAYS][:] = -7  # a rollout's own turns overwrote the table
    G.determinise_nb(rs, st, rng, c.params, TT, s)
    np.testing.assert_array_equal(TT[G.W_PLAYS][:n], listed)
    np.testing.assert_array_equal(rs, st)


def test_a_pending_decision_waits_and_a_pass_asks_nobody():
    """next_decision_nb at a waiting turn returns the same seat without rolling; a turn without a
    legal play is one PASS option, which the scripted player takes without a die, and apply
    passes the turn."""
    c = _compiled("random", "random")
    TT = _tables(c)
    st, ev, rng = new_state(c, dice=[6, 6, 3, 4])
    sps = c.params.ships_per_seat
    pos = Position([None] * (2 * sps), -1, tuple(c.extra["harbors"]))
    pos.ships[0] = (0, (0, 9))  # boxed in: no move with two sixes (test_no_legal_move_passes_the_turn)
    pos.ships[3] = (1, FAR)
    set_position(c, st, pos)
    st[R.G_SEAT] = 0
    st[R.G_EVENTS] = 0
    assert G.next_decision_nb(st, ev, rng, c.params, TT) == 0
    used = rng.copy()
    assert G.next_decision_nb(st, ev, rng, c.params, TT) == 0  # waiting: no new roll
    np.testing.assert_array_equal(rng, used)
    opts = np.zeros(G.MAX_OPTIONS, np.int64)
    assert G.options_nb(st, c.params, TT, opts) == 1 and opts[0] == G.PASS
    assert G.policy_nb(st, rng, c.params, TT, 0, 0, np.zeros(12), opts, 1, np.zeros(G.MAX_OPTIONS)) == 0
    np.testing.assert_array_equal(rng, used)  # the random player drew nothing
    G.apply_nb(st, ev, rng, c.params, TT, opts[0])
    assert st[R.SEATS_BASE + R.S_PASSED] == 1 and st[R.G_SEAT] == 1 and st[R.G_PLAYS] == 0
    assert [e[2] for e in ev[:st[R.G_EVENTS]].tolist()] == [R.EV_ROLL, R.EV_PASS]
    assert G.next_decision_nb(st, ev, rng, c.params, TT) == 1  # seat 1 rolls 3 and 4
    assert st[R.G_ROLL] == 3 * 8 + 4 and st[R.G_PLAYS] > 0


def test_the_heat_map_counts_captures_and_follows_the_treasure():
    """add_heat on a hand-written log: a capture counts on its square; a capture of the ship that
    carries the treasure counts in the second row too, and the capturer carries it on."""
    ev = np.array([
        (3, 1, R.EV_TAKE, 3, 40, 0),  # ship 3 takes the treasure
        (4, 0, R.EV_CAPTURE, 0, 5, 20),  # ship 0 captures ship 5 at 20: not the carrier
        (5, 0, R.EV_CAPTURE, 0, 3, 17),  # ship 0 captures the carrier at 17: ship 0 carries it
        (6, 1, R.EV_CAPTURE, 4, 0, 21),  # ship 4 captures ship 0 at 21: the carrier again
        (7, 0, R.EV_CAPTURE, 1, 2, 22),  # ship 1 captures ship 2 at 22: ship 4 carries it
    ], np.int32)
    heat = np.zeros((2, 30), np.int64)
    add_heat(heat, ev)
    assert {i: int(v) for i, v in enumerate(heat[0]) if v} == {17: 1, 20: 1, 21: 1, 22: 1}
    assert {i: int(v) for i, v in enumerate(heat[1]) if v} == {17: 1, 21: 1}


@pytest.mark.parametrize("strategies", [("hunter", "hunter", "cautious"), ("random", "expert")])
def test_the_heat_map_adds_up_to_the_games_own_counts(strategies):
    """Over real games, the heat map's captures and treasure-ship captures sum to the games'
    own captures_made and treasure_losses columns, which the kernel counts apart from the log."""
    c = _compiled(*strategies)
    n = 150
    heat = GAME.heat(c, 11, n)
    _, out_s = GAME.play(c, 11, 0, n)
    made = out_s[:, :, GAME.seat_column_index("captures_made")].sum()
    lost = out_s[:, :, GAME.seat_column_index("treasure_losses")].sum()
    assert made > 50 and lost > 0
    assert heat[0].sum() == made and heat[1].sum() == lost
