"""Pirate's Cove's search player: it never cheats (scrambling what the seat cannot know never
changes its decision), re-dealing keeps what the seat knows, a strictly best option is found
at a small budget, games are reproducible, the bench reports its cost."""

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from pirate_sim.games.pirates_cove import GAME
from pirate_sim.games.pirates_cove import rules as R
from pirate_sim.games.pirates_cove import rounds as K
from pirate_sim.games.pirates_cove import search_player as SP
from pirate_sim.games.pirates_cove.actions import WK_SIZE
from pirate_sim.games.pirates_cove.ship import sb_nb
from pirate_sim.games.pirates_cove.strategies import SLOTS
from pirate_sim.games.pirates_cove.testing import (empty_hands, new_state, no_black, search, searched_decisions,
                                                   set_ship, tavern_total)

ROOT = Path(__file__).resolve().parent.parent


def seat(name, **kw):
    d = {p.key: p.default for p in GAME.strategy(name).params}
    d.update(kw)
    d["strategy"] = name
    return d


def table(budget=8, pos=0, **rules):
    """Four seats, ``search`` in seat ``pos`` among a fighter, a crowd avoider and a treasure hunter."""
    others = [seat("fighter"), seat("crowd_avoider"), seat("treasure_hunter")]
    return GAME.compile(GAME.full_rules(rules), others[:pos] + [seat("search", budget=budget)] + others[pos:])


def collect(c, n=600, seed=3):
    """The first ``n`` decisions the table's search seat searched, as the engine recorded them."""
    return searched_decisions(c, n, seed)


def decide(c, st, rng):
    """(option chosen, rollout sums) of the engine's search at state ``st`` with stream ``rng``."""
    return search(c, st.copy(), rng.copy())


def hidden_cards(st, s, n):
    """Codes of the Tavern draw pile and of the other seats' non-Parrot hands."""
    out = [int(x) for x in st[R.G_TDECK:R.G_TDECK + st[R.G_DECK_N]]]
    for o in range(n):
        if o == s:
            continue
        b = int(sb_nb(o))
        for t in range(R.MASTERCRAFT, R.FAME):
            out += [t] * int(st[b + R.S_HAND + t])
        for v in range(R.MAX_FAME_VALUE + 1):
            out += [R.FAME + 16 * v] * int(st[b + R.S_FAMEV + v])
    return sorted(out)


def scramble(st, s, n, ncards, g):
    """Everything outside seat ``s``'s information set, re-dealt at random: the Tavern pile's
    order and the other seats' hands (same sizes, no Parrots), the unrevealed Treasure
    cards' order, and the other seats' secret choices of the round."""
    st = st.copy()
    pool = hidden_cards(st, s, n)
    g.shuffle(pool)
    for o in range(n):
        if o == s:
            continue
        b = int(sb_nb(o))
        need = int(sum(st[b + R.S_HAND + t] for t in range(R.MASTERCRAFT, R.FAME + 1)))
        for t in range(R.MASTERCRAFT, R.FAME + 1):
            st[b + R.S_HAND + t] = 0
        st[b + R.S_FAMEV:b + R.S_FAMEV + R.MAX_FAME_VALUE + 1] = 0
        st[b + R.S_FAME_CARDS] = 0
        for code in [c for c in pool if c % 16 > R.TRELAWNEY][:need]:
            pool.remove(code)
            st[b + R.S_HAND + code % 16] += 1
            if code % 16 == R.FAME:
                st[b + R.S_FAMEV + code // 16] += 1
                st[b + R.S_FAME_CARDS] += code // 16
    st[R.G_TDECK:R.G_TDECK + len(pool)] = pool
    st[R.G_DECK_N] = len(pool)
    r = int(st[R.G_ROUND])
    for i in range(R.N_CARD_ISLANDS):
        lo = R.G_TPERM + i * R.MAX_TREASURE + r + 1
        hi = R.G_TPERM + i * R.MAX_TREASURE + int(ncards[i])
        st[lo:hi] = g.permutation(st[lo:hi])
    if st[R.G_DEC] == R.DEC_ISLAND:
        for o in range(n):
            if o != s:
                st[R.G_PEND + o] = g.integers(1, 7)
    return st


def test_search_is_a_registered_strategy():
    s = GAME.strategy("search")
    assert s.code == 4 and {p.key for p in s.params} >= {"budget", "rollout", "top_k", "reward", "horizon"}
    # stored as its rollout strategy (the expert by default: the fighter's code with the expert's
    # parameters), searching
    cols = [SLOTS[p.key] for p in GAME.strategy("expert").params]
    c = GAME.compile(GAME.full_rules({}), [seat("search"), seat("fighter"), seat("expert"),
                                           seat("search", rollout="fighter")])
    strat, sp = c.arrays[5], c.arrays[6]
    assert list(strat) == [2, 2, 2, 2] and sp[0, 9] == sp[3, 9] == 1.0 and sp[1, 9] == sp[2, 9] == 0.0
    assert np.array_equal(sp[0, cols], sp[2, cols]) and not np.array_equal(sp[0, cols], sp[1, cols])
    assert np.array_equal(sp[3, cols], sp[1, cols])  # rolling out as the fighter


@pytest.mark.parametrize("pos", range(4))
def test_the_search_never_cheats(pos):
    """Scrambling what seat ``pos`` cannot know (the Tavern pile, the others' non-Parrot
    hands, the unrevealed Treasure order, the others' secret island choices already made
    this round) changes neither its choice nor any option's rollout sum: every kind of
    searched decision, the searching seat in each of the four seats (so that at its island
    choice the seats before it have chosen)."""
    c = table(budget=8, pos=pos)
    n = c.n_seats
    ncards = c.arrays[2]
    states, rngs = collect(c)
    g = np.random.default_rng(5)
    kinds = {}
    changed = chosen = 0
    for d in range(len(states)):
        st, rng = states[d], rngs[d]
        if kinds.get(int(st[R.G_DEC]), 0) >= 20:  # up to 20 decisions of each kind
            continue
        s = int(st[R.G_DEC_SEAT])
        assert s == pos
        if st[R.G_DEC] == R.DEC_ISLAND and s > 0:
            chosen += int((st[R.G_PEND:R.G_PEND + s] > 0).all())  # the seats before it have chosen
        a, sums = decide(c, st, rng)
        sc = scramble(st, s, n, ncards, g)
        changed += int(not np.array_equal(sc, st))
        assert hidden_cards(sc, s, n) == hidden_cards(st, s, n)
        b, sums2 = decide(c, sc, rng)
        assert a == b and np.array_equal(sums, sums2), (d, int(st[R.G_DEC]))
        kinds[int(st[R.G_DEC])] = kinds.get(int(st[R.G_DEC]), 0) + 1
    assert changed > 40  # the scramble did change the hidden words
    assert set(kinds) >= {R.DEC_ISLAND, R.DEC_FLEE, R.DEC_UPGRADE, R.DEC_BUY, R.DEC_TI}, kinds
    assert pos == 0 or chosen >= 10  # island choices made after others' secret choices


def test_resampling_keeps_what_the_seat_knows():
    c = table()
    n = c.n_seats
    states, rngs = collect(c, n=60)
    pool = np.zeros(R.MAX_TAVERN, np.int64)
    for d in range(len(states)):
        st = states[d].copy()
        s = int(st[R.G_DEC_SEAT])
        before = st.copy()
        SP.resample_nb(st, rngs[d].copy(), c.params, c.arrays[2], s, pool)
        assert hidden_cards(st, s, n) == hidden_cards(before, s, n)
        assert tavern_total(st, n) == tavern_total(before, n) == len(c.arrays[3])
        b0 = int(sb_nb(s))
        assert np.array_equal(st[b0:b0 + R.SEAT_WORDS], before[b0:b0 + R.SEAT_WORDS])  # its own hand
        for o in range(n):
            b = int(sb_nb(o))
            assert st[b + R.S_HAND:b + R.S_HAND + R.N_CARD_TYPES].sum() == \
                before[b + R.S_HAND:b + R.S_HAND + R.N_CARD_TYPES].sum()
            assert np.array_equal(st[b + R.S_HAND:b + R.S_HAND + R.TRELAWNEY + 1],
                                  before[b + R.S_HAND:b + R.S_HAND + R.TRELAWNEY + 1])  # Parrots are public
            vals = np.arange(R.MAX_FAME_VALUE + 1)
            assert st[b + R.S_FAME_CARDS] == (st[b + R.S_FAMEV:b + R.S_FAMEV + len(vals)] * vals).sum()
        r = int(st[R.G_ROUND])
        for i in range(R.N_CARD_ISLANDS):  # cards that turned up stay where they were
            lo = R.G_TPERM + i * R.MAX_TREASURE
            assert np.array_equal(st[lo:lo + r + 1], before[lo:lo + r + 1])
            m = int(c.arrays[2][i])
            assert sorted(st[lo:lo + m]) == sorted(before[lo:lo + m])
        outside = np.ones(R.STATE_WORDS, bool)
        outside[R.G_TDECK:R.G_TDECK + R.MAX_TAVERN] = False
        outside[R.G_TPERM:R.G_TPERM + R.N_CARD_ISLANDS * R.MAX_TREASURE] = False
        for o in range(n):
            b = int(sb_nb(o))
            outside[b + R.S_HAND:b + R.S_HAND + R.N_CARD_TYPES] = False
            outside[b + R.S_FAMEV:b + R.S_FAMEV + R.MAX_FAME_VALUE + 1] = False
            outside[b + R.S_FAME_CARDS] = False
        assert np.array_equal(st[outside], before[outside])  # nothing public is touched


def test_a_strictly_best_island_is_found_at_a_small_budget():
    # the last round: the others lead 30 to 26 and no mutiny can cost them fame; only
    # Sails Island's 5-fame card can win it for seat 0, every other island loses for sure
    c = GAME.compile(GAME.full_rules({"combat.mutiny_fame": 0}),
                     [seat("search", budget=48), seat("fighter"), seat("fighter")])
    tr, cards, ncards, tavern, legends, strat, sp = c.arrays
    for game in range(4):
        st, ev, rng = new_state(c, game_index=game, scripted=False, events=0)
        empty_hands(st, 3)
        no_black(st)
        for s, f in enumerate((26, 30, 30)):
            set_ship(st, s, fame=f, gold=0, chests=0)
        st[R.G_ROUND] = c.params.rounds - 1
        K.begin_round_nb(st, ev, c.params, cards, legends)
        st[R.G_CARD:R.G_CARD + 20] = 0
        st[R.G_CARD + 2 * 4 + 2] = 5  # island 3: 5 fame
        st[R.G_PHASE] = R.PH_CHOOSE
        st[R.G_CUR] = 0
        fs = np.zeros(96)
        wk = np.zeros(WK_SIZE, np.int64)
        d = K.advance_nb(st, ev, rng, c.params, tr, cards, legends, strat, sp, fs, wk, c.params.rounds + 1)
        assert d == R.DEC_ISLAND and st[R.G_DEC_SEAT] == 0
        opt, sums = decide(c, st, rng)
        assert opt == 3
        assert np.all(sums[[0, 1, 3, 4, 5]] == 0)  # every other island: no win in any rollout


def test_search_games_are_reproducible_over_chunks_and_traces():
    c = table(budget=4)
    g, s = GAME.play(c, 11, 0, 12)
    g1, s1 = GAME.play(c, 11, 0, 5)
    g2, s2 = GAME.play(c, 11, 5, 7)
    assert np.array_equal(g, np.concatenate([g1, g2])) and np.array_equal(s, np.concatenate([s1, s2]))
    ev, og, os_ = GAME.trace_events(c, 11, 7)
    assert np.array_equal(og, g[7]) and np.array_equal(os_, s[7])
    searched = ev[ev[:, 2] == R.EV_SEARCH]
    assert len(searched) >= 12 and set(searched[:, 3]) >= {R.DEC_ISLAND}
    assert all(1 <= e[4] <= 6 for e in searched if e[3] == R.DEC_ISLAND)
    lines = GAME.trace(c, 11, 7)
    assert any("searches its island choice" in x for x in lines)


def test_a_table_without_a_search_seat_plays_as_before():
    # the resumable kernel answers no decision from outside: one advance_nb call a game
    c = GAME.compile(GAME.full_rules({}), [seat("fighter"), seat("fighter"), seat("crowd_avoider")])
    tr, cards, ncards, tavern, legends, strat, sp = c.arrays
    st, ev, rng = new_state(c, scripted=False, events=0)
    d = K.advance_nb(st, ev, rng, c.params, tr, cards, legends, strat, sp, np.zeros(96),
                     np.zeros(WK_SIZE, np.int64), c.params.rounds + 1)
    assert d == R.DEC_NONE and st[R.G_PHASE] == R.PH_DONE and st[R.G_ROUND] == c.params.rounds


def test_search_bench_reports_its_cost():
    out = GAME.search_bench(table(budget=8), 3, 30)
    assert out["decisions"] == 30 and out["rollouts"] > 30
    assert out["rollouts_per_s"] > 0 and out["s_per_playout"] > 0
    assert np.isfinite(out["overhead"]) and out["overhead"] > -0.9


@pytest.mark.parametrize("what", ["strength", "first"])
def test_the_measurement_script_runs(what, capsys):
    spec = importlib.util.spec_from_file_location("cove_search_doc", ROOT / "docs" / "pirates_cove_search.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert mod.main([what, "--games", "6", "--budget", "2"]) == 0
    assert '"result"' in capsys.readouterr().out
