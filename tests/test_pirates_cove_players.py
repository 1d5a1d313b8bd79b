"""Pirate's Cove's scripted players (rules 1.3.0): the aim among equally weak sections, upgrade
targets that grow over the game, the treasure barge's weight, the expert as the fighter's
policy with its own parameters, and the two measuring scripts on a tiny budget."""

import importlib.util
from pathlib import Path

import numpy as np

from pirate_sim.games.pirates_cove import GAME
from pirate_sim.games.pirates_cove import policies as PO
from pirate_sim.games.pirates_cove import rules as R
from pirate_sim.games.pirates_cove.strategies import EXPERT, seat_tables
from pirate_sim.games.pirates_cove.testing import new_state, set_ship
from pirate_sim.rng import new_rng

ROOT = Path(__file__).resolve().parent.parent


def load(name):
    spec = importlib.util.spec_from_file_location(name, ROOT / "docs" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def state(**ship):
    c = GAME.compile(GAME.full_rules({}), [{"strategy": "fighter"}] * 3)
    st, _ev, _rng = new_state(c)
    set_ship(st, 1, **ship)
    return c, st


def test_threat_aim_shoots_the_section_that_also_cuts_the_dice_without_a_draw():
    # hull and cannons both weakest at 2, crew 4: a hit on Cannons leaves 1 die x 1, on Hull 2 dice x 1
    c, st = state(hull=2, sails=3, cannons=2, crew=4)
    rng = new_rng(5, 0)
    before = rng.copy()
    assert PO.aim_section_nb(st, rng, c.params, 1, PO.AIM_THREAT) == R.CANNONS
    assert np.array_equal(rng, before)  # one best section: no draw from the game's stream
    # sails and hull tie at 2 (both leave 3 dice x 1): never Cannons or Crew, which are higher
    c, st = state(hull=2, sails=2, cannons=3, crew=3)
    assert PO.aim_section_nb(st, new_rng(5, 0), c.params, 1, PO.AIM_CANNONS) == R.HULL  # fixed order


def test_threat_and_random_aims_split_true_ties_evenly_from_the_games_stream():
    c, st = state(hull=4, sails=5, cannons=3, crew=3)  # Cannons and Crew both weakest, the same loss
    n = 4000
    for aim, allowed in ((PO.AIM_THREAT, (R.CANNONS, R.CREW)), (PO.AIM_RANDOM, (R.CANNONS, R.CREW))):
        picks = np.array([PO.aim_section_nb(st, new_rng(11, k), c.params, 1, aim) for k in range(n)])
        assert set(picks.tolist()) == set(allowed)
        share = float((picks == R.CANNONS).mean())
        assert abs(share - 0.5) < 4.5 * np.sqrt(0.25 / n)  # binomial sd 0.0079: a 4.5 sd band
    assert PO.aim_section_nb(st, new_rng(11, 0), c.params, 1, PO.AIM_CANNONS) == R.CANNONS
    # all four sections at 1: any hit cripples and Cove repairs it to 1, so the threat aim sees a 4-way tie
    c, st = state(hull=1, sails=1, cannons=1, crew=1)
    picks = {PO.aim_section_nb(st, new_rng(3, k), c.params, 1, PO.AIM_THREAT) for k in range(200)}
    assert picks == {0, 1, 2, 3}


def test_a_volley_with_scripted_dice_hits_the_aimed_section():
    """A fighter (aim threat) fires 2 dice (scripted 6, 1: one hit) at a ship with Hull = Cannons = 2
    < Crew 4: the hit takes Cannons to 1 (its dice to 1), Hull stays 2; with aim = cannons the same."""
    from pirate_sim.games.pirates_cove import combat as K
    from pirate_sim.games.pirates_cove.testing import empty_hands

    for aim in ("threat", "cannons"):
        c = GAME.compile(GAME.full_rules({}), [{"strategy": "fighter", "aim": aim}] * 3)
        tr, cards, ncards, tavern, legends, strat, sp = c.arrays
        st, ev, rng = new_state(c, dice=[6, 1])  # every seat scripted ...
        strat[0] = PO.ST_FIGHTER  # ... but the shooter
        empty_hands(st, 3)
        set_ship(st, 0, hull=4, sails=4, cannons=2, crew=2)
        set_ship(st, 1, hull=2, sails=3, cannons=2, crew=4)
        f = R.G_FIGHT
        st[f + R.F_N] = 2
        st[f + R.F_UNITS:f + R.F_UNITS + 2] = (0, 1)
        st[f + R.F_ACTIVE:f + R.F_ACTIVE + 2] = (1, 1)
        K.volley_nb(st, ev, rng, c.params, strat, sp, 0, 0)
        b = R.SEATS_BASE + R.SEAT_WORDS
        assert list(st[b + R.S_SEC:b + R.S_SEC + 4]) == [2, 3, 1, 4], aim
        assert st[R.SEATS_BASE + R.S_HITS] == 1


def test_targets_grow_over_the_game_and_stop_at_the_tracks_top():
    c, st = state()
    tr, _cards, _n, _t, _l, strat, sp = c.arrays
    sp = sp.copy()
    sp[:, PO.SP_GROWTH] = 3.0
    sp[:, PO.SP_TARGET + R.HULL] = 4
    got = []
    for r in (0, 3, 4, 8, 11):
        st[R.G_ROUND] = r
        got.append(PO.target_nb(st, c.params, tr, sp, 1, PO.ST_FIGHTER, R.HULL))
    assert got == [4, 4, 5, 6, 6]  # 4 + int(3 r / 12), capped at sections.hull.max = 6


def test_the_barge_weight_decides_whether_the_hunter_sails_for_it():
    """The hunter alone on the table, a 2-fame barge on Tavern (island 1) with an empty card:
    barge_weight 1 sails there over a 1-gold card elsewhere, 0 ignores the barge."""
    for w, want_tavern in ((1.0, True), (0.0, False)):
        c = GAME.compile(GAME.full_rules({}), [{"strategy": "treasure_hunter", "barge_weight": w}] * 3)
        tr, cards, ncards, tavern, legends, strat, sp = c.arrays
        st, _ev, rng = new_state(c, scripted=False)
        for i in range(1, 6):
            base = R.G_CARD + (i - 1) * 4
            st[base:base + 4] = (1, 0, 0, 0) if i != 1 else (0, 0, 0, 0)
        for b in range(R.MAX_BLACK):
            st[R.BLACK_BASE + b * R.B_WORDS + R.B_ISLAND] = 0
        bb = R.BLACK_BASE
        st[bb + R.B_ISLAND], st[bb + R.B_BARGE], st[bb + R.B_FAME] = 1, 1, 2
        st[bb + R.B_SEC:bb + R.B_SEC + 4] = 0
        st[R.G_N_BLACK] = 1
        set_ship(st, 0, gold=0, chests=0)
        fs = np.zeros(PO.FS_SIZE)
        pick = PO.choose_island_nb(st, rng, c.params, tr, strat, sp, fs, 0)
        assert (pick == R.TAVERN) == want_tavern, (w, pick)


def test_expert_is_the_fighter_policy_with_its_own_parameters():
    codes, sp = seat_tables([{"strategy": "expert"}, {"strategy": "fighter", **EXPERT}])
    assert codes.tolist() == [PO.ST_FIGHTER, PO.ST_FIGHTER]
    assert np.array_equal(sp[0], sp[1])
    a = GAME.play(GAME.compile(GAME.full_rules({}), [{"strategy": "expert"}, {"strategy": "fighter"},
                                                     {"strategy": "crowd_avoider"}]), 7, 0, 300)
    b = GAME.play(GAME.compile(GAME.full_rules({}), [{"strategy": "fighter", **EXPERT}, {"strategy": "fighter"},
                                                     {"strategy": "crowd_avoider"}]), 7, 0, 300)
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])


def test_players_script_measures_spending_on_a_tiny_budget():
    m = load("pirates_cove_players")
    sp = m.spending(300)
    assert set(sp) == set(m.MIX)
    # the fighter aims at 6 dice: it always buys after set-up; a random player's dice are at most 6
    assert sp["fighter"]["after_setup"] > 2.0 and 0 < sp["random"]["dice_end"] <= 6
    mix = m.mix(300)
    assert sum(v["wins"] for v in mix.values()) == 300  # a winner in every game (ties go to a final combat)


def test_expert_search_runs_and_its_held_out_table_is_complete():
    m = load("pirates_cove_expert_search")
    logs = []
    best, f = m.search(candidates=7, games=20, generations=1, seed=2, log=logs.append)
    assert set(best) == set(m.SPACE) and 0.0 <= f <= 1.0
    assert logs[0].startswith("  8 candidates at 20 games/setup") and "generation 1" in logs
    assert m.fitness(best, 80) == f  # common random numbers: the same games, the same fitness
    rows = m.held_out_table(best, 40)
    assert len(rows) == 4 + 2 * len(m.SCRIPTED)
    mix = rows[:4]
    assert sum(r["wins"] for r in mix) == 40  # the mix's four entries share every game
    assert all(r["lo"] <= r["share"] <= r["hi"] for r in rows)


def test_registered_expert_clears_the_bar_on_held_out_games():
    m = load("pirates_cove_expert_search")
    rows = m.held_out_table(m.params_of("expert"), 1500)
    assert m.passes(rows), rows
