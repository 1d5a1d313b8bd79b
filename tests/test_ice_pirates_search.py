"""Ice Pirates' search player: it never cheats, it is reproducible, it finds a strictly best
option, and a searching seat's turn keeps the rules (issue 24)."""

import numba
import numpy as np
import pytest

from pirate_sim.games.ice_pirates import GAME
from pirate_sim.games.ice_pirates import board as KB
from pirate_sim.games.ice_pirates import state as KS
from pirate_sim.games.ice_pirates import protocol as KP
from pirate_sim.games.ice_pirates import rules as R
from pirate_sim.games.ice_pirates.testing import (DIR, clear_bay, new_state, pause_for_search, place,
                                                  scramble_hidden, search_choice, set_wind, step)

HG = 0  # Harbour Grace's cell
HG_SOUTH = 1


def seats(names, **over):
    return [{"strategy": n, **{p.key: p.default for p in GAME.strategy(n).params},
             **(over if n == "search" else {})} for n in names]


def compile_game(names=("search", "raider"), rules=None, **over):
    r = {p.key: p.default for p in GAME.params}
    r.update(rules or {})
    return GAME.compile(r, seats(names, **over))


def test_search_is_registered_with_the_shared_parameters():
    s = GAME.strategy("search")
    # search took the next free code after the four scripted players; the expert came after it
    assert s.code == KS.ST_SEARCH == max(x.code for x in GAME.strategies if x.name not in ("search", "expert")) + 1
    assert GAME.strategy("expert").code == KS.ST_EXPERT == KS.ST_SEARCH + 1
    assert {p.key for p in s.params} == {"budget", "rollout", "top_k", "reward", "horizon", "opponents"}
    c = compile_game(budget=16)
    strat, sp = c.arrays[6], c.arrays[7]
    # the searching entry plays the rollout strategy (the expert, the default) for what it does not search
    assert s.params[[p.key for p in s.params].index("rollout")].default == "expert"
    assert strat[0] == KS.ST_EXPERT and sp[0, KS.SP_SEARCH] == 1 and sp[0, KS.SP_BUDGET] == 16
    assert sp[1, KS.SP_SEARCH] == 0 and list(strat[2:]) == [0, 1, 2, 3, KS.ST_EXPERT]
    # every slot but the search's own is the expert's default row (the expert's chase and
    # cannon_first slots lie after the search slots: they were once left at the table defaults)
    own = [KS.SP_SEARCH, KS.SP_BUDGET, KS.SP_ROLLOUT, KS.SP_TOP_K, KS.SP_REWARD, KS.SP_HORIZON, KS.SP_OPPONENTS]
    scripted = [c for c in range(KS.N_SP) if c not in own]
    assert KS.SP_CHASE in scripted and sp[2 + 4, KS.SP_CHASE] == 1
    np.testing.assert_array_equal(sp[0, scripted], sp[2 + 4, scripted])  # the expert's default row


def _pauses(c, n_wanted, seed=5):
    """Searched choices met in plain play of game 0.. with seat 0 searching: (truth, st0, rng0)."""
    out = []
    k = 0
    while len(out) < n_wanted and k < 50:
        st, ev, rng = new_state(c, seed, k, events=0)
        while st[R.G_END] < 0 and len(out) < n_wanted and st[R.G_TURN] < 80:
            if st[R.G_SEAT] == 0:
                truth, st0, rng0 = pause_for_search(c, st, rng)
                if truth[R.T_PEND] != 0:
                    out.append((truth, st0, rng0))
            step(c, st, ev, rng)  # the policy plays on (the search's choices are not needed here)
        k += 1
    return out


def _turn_pauses(c, seat, n_wanted, seed=5):
    """Every searched choice of ``seat``'s turns met in play of games 0.., in turn order:
    (truth, st0, rng0, nf), the turn's choice number ``nf`` paused with the first ``nf``
    forced to what the search chose, as the protocol replays a turn."""
    out = []
    k = 0
    while len(out) < n_wanted and k < 50:
        st, ev, rng = new_state(c, seed, k, events=0)
        while st[R.G_END] < 0 and len(out) < n_wanted and st[R.G_TURN] < 80:
            if st[R.G_SEAT] == seat:
                st0 = st.copy()
                for nf in range(R.MAX_FORCED - 1):
                    truth, _, rng0 = pause_for_search(c, st0, rng, nf=nf)
                    if truth[R.T_PEND] == 0:
                        break
                    out.append((truth, st0.copy(), rng0, nf))
                    st0[R.T_FORCED + nf] = search_choice(c, truth.copy(), st0.copy(), rng0.copy(), nf)[0]
            step(c, st, ev, rng)  # the policy plays on (the search's choices are not needed here)
        k += 1
    return out


@pytest.mark.parametrize("seat", range(4))
def test_the_search_never_cheats(seat):
    """Scrambling everything outside the seat's information set (where each face-down Bay
    card lies and its iceberg sides) changes neither its choice nor any option's rollout
    sum, given its own stream: at every searched choice of its turns (a turn's later
    directions, fights and raids included), with the searching seat in each of 4 seats."""
    names = ["expert"] * 4
    names[seat] = "search"
    c = compile_game(tuple(names), budget=12, top_k=0)
    gen = np.random.default_rng(3 + seat)
    pauses = _turn_pauses(c, seat, 24)
    assert len(pauses) >= 24  # (a turn's choices are all kept)
    later = kinds = 0
    searched = set()
    for truth, st0, rng0, nf in pauses:
        sums = np.zeros(KP.MAX_OPTIONS)
        opt, rollouts = search_choice(c, truth.copy(), st0.copy(), rng0.copy(), nf, sums)
        later += nf > 0
        if rollouts > 0:
            searched.add(int(truth[R.T_PEND]))
        for _ in range(2):
            t2, s2 = truth.copy(), st0.copy()
            if scramble_hidden(c, [t2, s2], gen) == 0 or (np.array_equal(t2, truth) and np.array_equal(s2, st0)):
                continue  # every Bay card face up, or a re-deal that happens to lie as before
            sums2 = np.zeros(KP.MAX_OPTIONS)
            assert search_choice(c, t2, s2, rng0.copy(), nf, sums2) == (opt, rollouts)
            np.testing.assert_array_equal(sums2, sums)
            kinds += 1
    assert later >= 4 and kinds >= 30  # later choices of a turn, and real scrambles, were met
    assert R.PEND_DIR in searched  # and searched with more than one option


def test_the_rollouts_do_see_the_dice():
    """The same pause with another stream of the seat may choose differently: the test above
    would be vacuous if the choice ignored its rollouts."""
    c = compile_game(budget=8, top_k=0)
    changed = 0
    for truth, st0, rng0 in _pauses(c, 12):
        a = search_choice(c, truth.copy(), st0.copy(), rng0.copy())
        other = rng0.copy()
        other[0] ^= np.uint64(0x5DEECE66D)
        changed += search_choice(c, truth.copy(), st0.copy(), other)[0] != a[0]
    assert changed >= 1


def test_a_winning_move_is_found_without_the_prior():
    """One option strictly best (into Harbour Grace with the treasure: an immediate win):
    found at a budget of 8 with every legal option searched (top_k = 0)."""
    c = compile_game(("search", "map_hunter"), budget=8, top_k=0)
    for wind in (1, 3, 4):  # from N (entering Harbour Grace is a row), S, SW
        st, ev, rng = new_state(c, 0, 0, events=0)
        clear_bay(st)
        set_wind(st, wind)
        st[R.G_SEAT] = 0
        place(st, 0, HG_SOUTH, crew=2)
        place(st, 1, 27)
        st[R.G_TREASURE] = 0
        KB.refresh_all_nb(st, c.arrays[0])
        truth, st0, rng0 = pause_for_search(c, st, rng)
        assert truth[R.T_PEND] == R.PEND_DIR and bin(int(truth[R.T_PMASK])).count("1") >= 2
        assert search_choice(c, truth, st0, rng0)[0] == DIR["N"]


def test_search_games_are_reproducible_whatever_threads_and_chunks():
    c = compile_game(budget=6, rules={"first_player": "rotate"})
    whole = GAME.play(c, 11, 0, 6)
    numba.set_num_threads(1)
    try:
        a = GAME.play(c, 11, 0, 2)
        b = GAME.play(c, 11, 2, 4)
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    np.testing.assert_array_equal(whole[0], np.concatenate([a[0], b[0]]))
    np.testing.assert_array_equal(whole[1], np.concatenate([a[1], b[1]]))
    ev, out_g, out_s = GAME.trace_events(c, 11, 4)
    np.testing.assert_array_equal(out_g, whole[0][4])  # the trace is the same game
    np.testing.assert_array_equal(out_s, whole[1][4])
    assert (ev[:, 2] == R.EV_TURN).sum() == out_g[1]  # one turn event per turn: replays leave none


def test_a_searching_seat_keeps_the_invariants():
    """Crew chips are conserved through a game with a searching seat, and a game driven from
    Python through the protocol's functions one decision at a time (testing.play_through_protocol)
    is the engine's game, output for output."""
    from pirate_sim.games.ice_pirates.testing import crew_chips, play_through_protocol

    c = compile_game(("search", "map_hunter", "raider"), budget=4)
    g, s = GAME.play(c, 2, 0, 4)
    assert (g[:, 3] == 0).all() and ((g[:, 0] >= 0) & (g[:, 0] < 3)).all()
    assert (g[:, 0] == (g[:, 4] + g[:, 1] - 1) % 3).all()  # each win on the winner's turn
    total = crew_chips(new_state(c, 2, 1, events=0)[0], 3)
    st, out_g, out_s = play_through_protocol(c, 2, 1)
    assert st[R.G_END] >= 0 and crew_chips(st, 3) == total and st[R.T_PEND] == 0
    np.testing.assert_array_equal(out_g, g[1])
    np.testing.assert_array_equal(out_s, s[1])
    counters = GAME.play_counted(c, 2, 1, 1)[2][0]
    assert counters[0] > 0 and counters[1] > 0  # rollouts were played, choices searched


@pytest.mark.slow
def test_search_bench_reports_its_cost():
    c = compile_game(budget=16)
    out = GAME.search_bench(c, 1, 40)
    assert out["decisions"] == 40 and out["rollouts"] > 0 and out["searched_decisions"] == 40
    assert out["rollouts_per_s"] > 0 and out["s_per_playout"] > 0
    assert out["overhead"] == pytest.approx(out["s_per_rollout"] / out["s_per_playout"] - 1)


def test_the_strength_script_runs(capsys):
    """docs/ice_pirates_search.py (the rules page's strength table) on a tiny budget."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "docs" / "ice_pirates_search.py"
    spec = importlib.util.spec_from_file_location("ice_pirates_search", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert mod.main(["--budgets", "4", "--games", "6", "--first-games", "2"]) == 0
    out = capsys.readouterr().out
    assert "| 4 | 6 |" in out and "first mover wins" in out
    r = mod.head_to_head(4, "upgrader", 4)
    assert r["games"] == 4 and 0 <= r["lo"] <= r["win"] <= r["hi"] <= 1 and r["truncated"] == 0
