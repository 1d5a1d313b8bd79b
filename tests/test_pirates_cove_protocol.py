"""Pirate's Cove on the decision protocol (pirate_sim/games/pirates_cove/protocol.py): a waiting
decision, the searched decisions' trace rows, the horizon counted in rounds (a round's one-option
start), a file's rollout choosing the other seats' islands again.  Real kernels, real games; that
every game is the same as before the port is the harnesses' (tests/search_hashes.py,
docs/pirates_cove_hashes.py, docs/strategy_file_hashes.py)."""

from pathlib import Path

import numpy as np
import pytest

from pirate_sim import scenario as scen
from pirate_sim import search as search_mod
from pirate_sim.games.pirates_cove import GAME
from pirate_sim.games.pirates_cove import protocol as PR
from pirate_sim.games.pirates_cove import rules as R
from pirate_sim.games.pirates_cove.engine import engine, engine_tables
from pirate_sim.games.pirates_cove.ship import sb_nb
from pirate_sim.games.pirates_cove.testing import searched_decisions
from pirate_sim.rng import new_rng

ROOT = Path(__file__).resolve().parent.parent
PLANNER = "examples/strategies/pirates_cove_players.py:island_planner"


def _table(*seats, **rules):
    return scen.from_dict({"game": "pirates_cove", "rules": rules, "seats": list(seats)},
                          source=str(ROOT / "s.toml")).compile()


def test_a_decision_waits_until_answered_and_a_game_asks_no_round_start():
    """Set-up, then straight to the search seat's island choice (6 options; a real game asks
    no round's start); asked again before an answer, the same seat and the stream untouched;
    answered, the choice counts (the search's key) and is revealed as answered."""
    c = _table({"strategy": "fighter"}, {"strategy": "search", "budget": 4}, {"strategy": "expert"})
    P = c.params
    TT = PR.thread_tables_nb(P, engine_tables(c)[0])
    st, ev, rng = PR.new_state_nb(P), np.zeros((0, 6), np.int32), new_rng(5, 0)
    opts = np.zeros(PR.MAX_OPTIONS, np.int64)
    PR.setup_nb(st, ev, rng, P, TT, 0)
    assert PR.next_decision_nb(st, ev, rng, P, TT) == 1 and st[R.G_DEC] == R.DEC_ISLAND
    assert PR.options_nb(st, P, TT, opts) == 6 and list(opts[:6]) == [1, 2, 3, 4, 5, 6] and PR.turn_nb(st) == 1
    before, words = rng.copy(), st.copy()
    assert PR.next_decision_nb(st, ev, rng, P, TT) == 1
    assert np.array_equal(rng, before) and np.array_equal(st, words)
    PR.apply_nb(st, ev, rng, P, TT, 3)
    assert st[R.G_DECISIONS] == 1  # a search seat's decision counts (its streams' key)
    assert PR.next_decision_nb(st, ev, rng, P, TT) == 1 and st[R.G_DEC] != PR.DEC_ROUND
    assert st[R.G_CHOICE + 1] == 3  # revealed as answered


def test_every_searched_decision_is_logged_with_its_rollouts():
    """A traced game: one EV_SEARCH row per searched decision (one option included), whose
    rollouts add up to the game's own rollout counter."""
    c = _table({"strategy": "search", "budget": 8}, {"strategy": "fighter"}, {"strategy": "expert"},
               {"strategy": "crowd_avoider"})
    _, _, counters = GAME.play_counted(c, 21, 0, 4)
    unsearched = 0
    for k in range(4):
        ev, _, _ = GAME.trace_events(c, 21, k)
        rows = ev[ev[:, 2] == R.EV_SEARCH]
        assert rows[:, 5].sum() == counters[k, 0] > 0
        assert len(rows) >= counters[k, 1]
        unsearched += int((rows[:, 5] == 0).sum())
    assert unsearched > 0  # one-option decisions are logged too


@pytest.mark.parametrize("horizon", [1, 3, 11])
def test_a_rollout_stops_at_its_horizon_in_rounds(horizon):
    """The engine checks ``turn_nb`` (rounds begun) before each decision: a rollout from a
    decision in round r stops as round r + horizon is about to begin, or plays the game to its
    end (the final scoring included) when that is past the last round."""
    c = _table({"strategy": "search", "budget": 4, "horizon": horizon}, {"strategy": "fighter"},
               {"strategy": "expert"})
    eng = engine()
    P = c.params
    T, codes, prm, rprm, _ = engine_tables(c)
    _, urows, calls, _ = GAME.engine_files(c)  # no files: the engine's placeholders
    TT = PR.thread_tables_nb(P, T)
    states, rngs = searched_decisions(c, 40)
    scr = eng.new_scratch_nb(P)
    opts, alive, sums, counts, h = scr[2], scr[5], scr[6], scr[7], scr[8]
    ends = set()
    for st, rng in zip(states, rngs):
        s = int(st[R.G_DEC_SEAT])
        assert PR.options_nb(st, P, TT, opts) >= 2
        # the search's own rollouts (the block's compiled rollouts_nb): options 0 and 1 one each,
        # option 1's last, so the scratch's rollout state is where that rollout stopped
        alive[:2], sums[:], counts[:] = (0, 1), 0.0, 0.0
        search_mod.halving_start_nb(h, 2, 2)
        assert eng.rollouts_nb(st, rng, P, TT, prm[0], rprm[0], s, opts, np.int64(0), scr, np.int64(-1), urows[0],
                               calls, np.zeros(4, np.int64))
        assert counts[:2].tolist() == [1.0, 1.0]
        rs, r = scr[0], int(st[R.G_ROUND])
        if r + horizon < P.rounds:
            assert rs[R.G_PHASE] == R.PH_START and rs[R.G_ROUND] == r + horizon
            assert rs[R.G_STEP] == PR.STEP_GO  # that round's start was asked (one option) and taken
        else:
            assert rs[R.G_PHASE] == R.PH_DONE and rs[R.G_ROUND] == P.rounds
        assert rs[sb_nb(0) + R.S_ENTRY] >= c.n_seats  # every seat on a rollout row
        ends.add(bool(rs[R.G_PHASE] == R.PH_DONE))
    assert True in ends  # decisions late enough that the horizon reaches past the last round


def test_a_files_rollout_chooses_the_other_seats_islands_again():
    """A search rolling out a strategy file, at an island choice: the option is the seat's
    island, and the file chooses every other seat's island again, in seat order, before the
    round is revealed."""
    c = _table({"strategy": "fighter"}, {"strategy": "search", "budget": 4, "rollout": PLANNER},
               {"strategy": "expert"})
    P = c.params
    TT = PR.thread_tables_nb(P, engine_tables(c)[0])
    states, rngs = searched_decisions(c, 30)
    at = [i for i in range(len(states)) if states[i][R.G_DEC] == R.DEC_ISLAND]
    assert at
    ev = np.zeros((0, 6), np.int32)
    for i in at[:5]:
        truth, rng = states[i], rngs[i].copy()
        s = int(truth[R.G_DEC_SEAT])
        rs = PR.new_state_nb(P)
        PR.determinise_nb(rs, truth, rng, P, TT, s)
        PR.apply_nb(rs, ev, rng, P, TT, 2)
        assert rs[R.G_PEND + s] == 2 and rs[R.G_RECHOOSE] == 0b111 & ~(1 << s)
        for o in [o for o in range(3) if o != s]:
            assert PR.next_decision_nb(rs, ev, rng, P, TT) == o and rs[R.G_DEC] == R.DEC_ISLAND
            PR.apply_nb(rs, ev, rng, P, TT, 5)
            assert rs[R.G_PEND + o] == 5
        assert rs[R.G_RECHOOSE] == 0 and rs[R.G_CUR] == 3
