"""Hand-played Pirate's Cove situations: scripted islands, decisions and dice, exact outcomes."""

import pytest

from pirate_sim.games.pirates_cove import GAME
from pirate_sim.games.pirates_cove import rules as R
from pirate_sim.games.pirates_cove.testing import (begin_round, chests_total, compile_game, empty_hands,
                                                   events, finish, give_card, gold_total, kinds, new_state,
                                                   no_black, play_round, put_on_top, rest_of_round,
                                                   script, seat, set_black, set_ship, tavern_total)
from pirate_sim.rng import script_remaining

HULL, SAILS, CANNONS, CREW = range(4)
TI = R.TREASURE_ISLAND


def table(n=3, dice=None, black=False, gold=0, **rules):
    """Every seat scripted, hands empty, plain ships (all sections 2), no black ships."""
    c = compile_game(n, **rules)
    st, ev, rng = new_state(c, dice=dice)
    empty_hands(st, n)
    if not black:
        no_black(st)
    for s in range(n):
        set_ship(st, s, hull=2, sails=2, cannons=2, crew=2, gold=gold)
    return c, st, ev, rng


def level(st, s, k):
    return seat(st, s, R.S_SEC + k)


def fame(st, s):
    return seat(st, s, R.S_FAME)


def go(st, islands):
    """Script this round's island of every seat."""
    for s, i in enumerate(islands):
        script(st, s, islands=[i])


def test_setup_deals_gold_cards_and_black_ships():
    c = compile_game(3)
    st, ev, rng = new_state(c)
    for s in range(3):
        assert seat(st, s, R.S_GOLD) == 9
        assert [level(st, s, k) for k in range(4)] == [2, 2, 2, 2]
        assert seat(st, s, R.S_DRAWN) == 1
    assert st[R.G_N_BLACK] == 2  # rulebook: a second black ship with 3 players
    nb = R.BLACK_BASE
    assert st[nb + R.B_ISLAND] == 1 and st[nb + R.B_LEGEND] == -1  # the Royal Navy on island 1
    assert st[nb + R.B_WORDS + R.B_ISLAND] == 4 and st[nb + R.B_WORDS + R.B_LEGEND] >= 0
    assert tavern_total(st, 3) == 42
    c4 = compile_game(4)
    st4, _, _ = new_state(c4)
    assert st4[R.G_N_BLACK] == 1  # parameter black.ships = [2, 1, 1]


def test_setup_spending_pays_each_level():
    # treasure hunter (1.3.0), targets hull 3, sails 3, cannons 4, crew 4, 9 gold: the gaps of 2
    # first in its priority order Hull, Crew, Cannons, Sails: Crew 2 -> 3 (2), Cannons 2 -> 3 (2);
    # then every gap is 1: Hull (2), Crew 3 -> 4 (2), Cannons 3 -> 4 (2) too dear with 1 left, Sails (1)
    c = compile_game(3)
    st, ev, rng = new_state(c, scripted=False)
    assert [level(st, 0, k) for k in range(4)] == [3, 3, 3, 4] and seat(st, 0, R.S_GOLD) == 0
    assert [seat(st, 0, R.S_SEC0 + k) for k in range(4)] == [3, 3, 3, 4]
    assert [seat(st, 0, R.S_UPG + k) for k in range(4)] == [1, 1, 1, 2]
    assert seat(st, 0, R.S_SPENT) == 9


def test_alone_on_an_upgrade_island_takes_the_card_and_upgrades():
    c, st, ev, rng = table(gold=5)
    g0, c0 = gold_total(st, 3), chests_total(st, 3)
    go(st, [3, TI, TI])
    script(st, 0, upgrade=2)
    play_round(c, st, ev, rng, cards={3: (3, 1, 1, 1)})
    # 5 + 3 gold, Sails 2 -> 4 costs 1 + 2
    assert level(st, 0, SAILS) == 4 and seat(st, 0, R.S_GOLD) == 5
    assert seat(st, 0, R.S_CHESTS) == 1 and fame(st, 0) == 1 and seat(st, 0, R.S_F_TREASURE) == 1
    assert seat(st, 0, R.S_DRAWN) == 1 + 1 and seat(st, 0, R.S_CARDS_WON) == 1  # set-up card + this one
    assert gold_total(st, 3) == g0 and chests_total(st, 3) == c0
    assert st[R.G_ROUND] == 1


def test_upgrade_stops_at_the_top_of_the_track_and_when_gold_runs_out():
    c, st, ev, rng = table(gold=2)
    go(st, [5, TI, TI])
    script(st, 0, upgrade=5)
    play_round(c, st, ev, rng, cards={5: (0, 0, 0, 0)})
    assert level(st, 0, CREW) == 3 and seat(st, 0, R.S_GOLD) == 0  # 2 -> 3 costs 2, 3 -> 4 another 2
    c, st, ev, rng = table(gold=50)
    go(st, [2, TI, TI])
    script(st, 0, upgrade=9)
    play_round(c, st, ev, rng, cards={2: (0, 0, 0, 0)})
    assert level(st, 0, HULL) == 6  # sections.hull.max


def test_hull_limits_the_chests_aboard():
    c, st, ev, rng = table()
    go(st, [2, TI, TI])
    play_round(c, st, ev, rng, cards={2: (0, 5, 0, 0)})
    assert seat(st, 0, R.S_CHESTS) == 2  # hull 2 x 1 chest per level
    c, st, ev, rng = table(hull__chests_per_level=2)
    go(st, [2, TI, TI])
    play_round(c, st, ev, rng, cards={2: (0, 5, 0, 0)})
    assert seat(st, 0, R.S_CHESTS) == 4


def test_tavern_buys_up_to_three_cards_for_two_gold():
    c, st, ev, rng = table(gold=10)
    go(st, [1, TI, TI])
    script(st, 0, buys=5)
    play_round(c, st, ev, rng, cards={1: (0, 0, 0, 0)})
    assert seat(st, 0, R.S_BOUGHT) == 3 and seat(st, 0, R.S_GOLD) == 4
    assert tavern_total(st, 3) == 42


def test_treasure_island_buries_and_upgrades_at_double_cost_with_no_combat():
    c, st, ev, rng = table(gold=10)
    set_ship(st, 0, chests=2)
    set_ship(st, 1, chests=1, gold=4)
    go(st, [TI, TI, 2])
    script(st, 0, bury_gold=1)
    script(st, 1, ti_section=CANNONS)
    play_round(c, st, ev, rng, cards={2: (0, 0, 0, 0)})
    # seat 0: 2 chests + 9 of 10 gold -> 2 + 3 fame; seat 1: Cannons 2 -> 3 at 2 x 2 gold
    assert seat(st, 0, R.S_F_CHESTS) == 2 and seat(st, 0, R.S_F_GOLD) == 3 and fame(st, 0) == 5
    assert seat(st, 0, R.S_GOLD) == 1 and level(st, 0, CANNONS) == 2
    assert st[R.G_BURIED_GOLD] == 9 and st[R.G_BURIED_CHESTS] == 3
    assert seat(st, 1, R.S_F_CHESTS) == 1 and seat(st, 1, R.S_F_GOLD) == 0
    assert level(st, 1, CANNONS) == 3 and seat(st, 1, R.S_GOLD) == 0
    assert R.EV_FIGHT not in kinds(st, ev)
    assert seat(st, 0, R.S_FIGHTS) == 0


def test_combat_speed_order_dice_hits_and_crippling():
    # seat 0 Sails 3 fires first with min(Crew 3, Cannons 4) = 3 dice at seat 1's Hull (level 2)
    c, st, ev, rng = table(dice=[5, 6, 1])
    set_ship(st, 0, sails=3, crew=3, cannons=4)
    set_ship(st, 1, chests=1, gold=4)
    go(st, [4, 4, TI])
    script(st, 0, section=HULL)
    g0, c0 = gold_total(st, 3), chests_total(st, 3)
    play_round(c, st, ev, rng, cards={4: (0, 0, 2, 0)})
    assert script_remaining(rng) == 0
    assert seat(st, 1, R.S_CRIPPLED) == 1 and seat(st, 0, R.S_CRIPPLES) == 1
    assert seat(st, 1, R.S_CHESTS) == 0 and seat(st, 1, R.S_GOLD) == 4 + 2  # chests lost; Cove gold
    assert level(st, 1, HULL) == 1  # repaired at Pirate's Cove to level 1
    assert fame(st, 0) == 1 + 2  # 1 for the sunk ship, 2 from the card it then takes
    assert seat(st, 0, R.S_F_COMBAT) == 1 and seat(st, 0, R.S_CARDS_WON) == 1
    assert seat(st, 1, R.S_VISITS + R.COVE) == 1
    assert gold_total(st, 3) == g0 and chests_total(st, 3) == c0
    ships = [(st[R.G_ROUND_LOG] >> (3 * i)) & 7 for i in range(6)]
    assert ships == [0, 0, 0, 2, 0, 1] and (st[R.G_ROUND_LOG] >> (18 + 3)) & 1 == 1


def test_speed_ties_are_broken_by_a_die_roll_and_fire_in_turn():
    # equal Sails: seat 0 rolls 2, seat 1 rolls 5 -> seat 1 fires first (2 dice: 1, 1),
    # seat 0 answers (6, 6) and cripples seat 1's Sails (level 2)
    c, st, ev, rng = table(dice=[2, 5, 1, 1, 6, 6])
    go(st, [2, 2, TI])
    script(st, 0, section=SAILS)
    script(st, 1, section=SAILS)
    play_round(c, st, ev, rng, cards={2: (0, 0, 0, 0)})
    assert script_remaining(rng) == 0
    vol = [e for e in events(st, ev) if e[2] == R.EV_VOLLEY]
    assert [e[5] // 2 for e in vol] == [1, 0]
    assert seat(st, 1, R.S_CRIPPLED) == 1 and seat(st, 0, R.S_CARDS_WON) == 1


def test_hits_are_fives_and_sixes_and_lower_the_named_section():
    c, st, ev, rng = table(dice=[4, 5, 1, 1, 3, 3, 1, 1, 6, 6, 1, 3])
    set_ship(st, 0, sails=3, cannons=3, crew=3)  # 3 dice, fires first
    set_ship(st, 1, crew=5)
    go(st, [5, 5, TI])
    script(st, 0, section=CREW)
    script(st, 1, section=CREW, flee=3)
    play_round(c, st, ev, rng, cards={5: (0, 0, 0, 0)})
    # volley 1: 4, 5, 1 -> one hit: seat 1 Crew 5 -> 4; seat 1 (2 dice): 1, 3 -> nothing;
    # volley 3: 3, 1, 1 -> nothing; seat 1: 6, 6 -> seat 0's Crew 3 -> 1; then seat 0 fires
    # 1 die (1) and seat 1 flees (its third turn)
    vol = [e for e in events(st, ev) if e[2] == R.EV_VOLLEY]
    assert [(e[4] >> 4, e[4] & 15) for e in vol][:4] == [(3, 1), (2, 0), (3, 0), (2, 2)]
    assert level(st, 1, CREW) == 4
    assert level(st, 0, CREW) == 1


def test_flee_mutiny_on_a_one():
    # seat 0 fires (2 dice: 1, 1); seat 1 flees on its first turn and rolls 1: mutiny
    c, st, ev, rng = table(dice=[1, 1, 1], gold=3)
    set_ship(st, 0, sails=3)
    set_ship(st, 1, chests=2, fame=5)
    go(st, [3, 3, TI])
    script(st, 1, flee=1)
    g0, c0 = gold_total(st, 3), chests_total(st, 3)
    play_round(c, st, ev, rng, cards={3: (0, 0, 0, 0)})
    assert script_remaining(rng) == 0
    assert seat(st, 1, R.S_FLIGHTS) == 1 and seat(st, 1, R.S_MUTINIES) == 1
    assert fame(st, 1) == 3 and seat(st, 1, R.S_F_MUTINY) == 2
    assert seat(st, 1, R.S_CHESTS) == 0 and seat(st, 1, R.S_GOLD) == 0 + 2  # all lost; Cove gold
    assert fame(st, 0) == 1 and seat(st, 0, R.S_F_COMBAT) == 1
    assert gold_total(st, 3) == g0 and chests_total(st, 3) == c0


def test_flee_without_mutiny_keeps_the_treasure():
    c, st, ev, rng = table(dice=[1, 1, 2], gold=3)
    set_ship(st, 0, sails=3)
    set_ship(st, 1, chests=2)
    go(st, [3, 3, TI])
    script(st, 1, flee=1)
    play_round(c, st, ev, rng, cards={3: (0, 0, 0, 0)})
    assert seat(st, 1, R.S_MUTINIES) == 0 and seat(st, 1, R.S_CHESTS) == 2 and seat(st, 1, R.S_GOLD) == 5


def test_the_first_volley_of_a_fight_is_never_a_flight():
    c, st, ev, rng = table(dice=[1, 1, 3])
    set_ship(st, 0, sails=3)
    go(st, [3, 3, TI])
    script(st, 0, flee=1)  # wants to flee at once, but the fastest ship opens fire
    script(st, 1, flee=1)
    play_round(c, st, ev, rng, cards={3: (0, 0, 0, 0)})
    assert seat(st, 0, R.S_VOLLEYS) == 1 and seat(st, 1, R.S_FLIGHTS) == 1


def test_three_ships_each_loss_pays_every_other_ship_still_there():
    # speed 0 > 1 > 2; seat 0 cripples seat 1 (Hull 2: 6, 6); seat 2 flees (roll 4)
    c, st, ev, rng = table(dice=[6, 6, 4])
    set_ship(st, 0, sails=4)
    set_ship(st, 1, sails=3)
    go(st, [2, 2, 2])
    script(st, 0, section=HULL)
    script(st, 2, flee=1)
    play_round(c, st, ev, rng, cards={2: (0, 0, 0, 0)})
    assert script_remaining(rng) == 0
    cr = [e for e in events(st, ev) if e[2] == R.EV_CRIPPLE]
    assert len(cr) == 1 and cr[0][3] == 1  # the scripted shooter aims at the first other ship
    assert fame(st, 0) == 2 and fame(st, 2) == 1  # seat 2 was still there when seat 1 sank
    assert seat(st, 2, R.S_FLIGHTS) == 1 and seat(st, 0, R.S_CARDS_WON) == 1


def test_royal_navy_fight_gives_its_fame_and_it_sails_on_repaired():
    c, st, ev, rng = table(black=True, dice=[6, 6, 6, 6])
    set_ship(st, 0, sails=5, crew=4, cannons=4)
    go(st, [1, TI, TI])
    script(st, 0, section=SAILS)  # the Navy's Sails is 3: four hits cripple it
    play_round(c, st, ev, rng, cards={1: (0, 0, 0, 0)})
    assert script_remaining(rng) == 0
    assert seat(st, 0, R.S_F_BLACK) == 4 and seat(st, 0, R.S_NAVY_WINS) == 1
    assert seat(st, 0, R.S_NAVY_FIGHTS) == 1 and fame(st, 0) == 4 and seat(st, 0, R.S_F_COMBAT) == 0
    nb = R.BLACK_BASE
    assert st[nb + R.B_ISLAND] == 2 and st[nb + R.B_SEC + SAILS] == 3 and st[nb + R.B_CRIPPLED] == 0
    assert st[nb + R.B_WORDS + R.B_ISLAND] == 5  # the Legendary Pirate moved on from 4


def test_black_ships_sail_the_circuit_once_a_round():
    c, st, ev, rng = table(black=True)
    go(st, [TI, TI, TI])
    play_round(c, st, ev, rng)
    assert st[R.BLACK_BASE + R.B_ISLAND] == 2  # round 1 at its start island 1, then on
    for _ in range(4):
        go(st, [TI, TI, TI])
        play_round(c, st, ev, rng)
    assert st[R.BLACK_BASE + R.B_ISLAND] == 1  # 1 -> 2 -> 3 -> 4 -> 5 -> 1, never Treasure Island


def test_black_move_is_not_a_parameter():
    # "start_of_round" gave bit-identical games (nothing happens between one round's end and
    # the next round's choice), so the switch is gone: a scenario that sets it is refused
    assert "black.move" not in {p.key for p in GAME.params}


def test_a_black_ship_alone_keeps_the_card_from_everyone_and_a_barge_is_plundered():
    c, st, ev, rng = table(black=True, legendary__cards=["Treasure_Barge 0 0 0 0 2"])
    set_black(st, 1, 3)
    nb1 = R.BLACK_BASE + R.B_WORDS
    assert st[nb1 + R.B_BARGE] == 1
    go(st, [3, TI, TI])
    play_round(c, st, ev, rng, cards={3: (1, 0, 0, 0)})
    assert seat(st, 0, R.S_F_BLACK) == 2 and seat(st, 0, R.S_FIGHTS) == 0 and seat(st, 0, R.S_CARDS_WON) == 1
    assert seat(st, 0, R.S_F_BARGE) == 2  # counted apart (seat column fame_barge), within fame_black


def test_pirates_cove_repairs_and_gives_a_card_or_gold():
    c, st, ev, rng = table(dice=[6, 6, 3])
    set_ship(st, 0, sails=3)
    go(st, [2, 2, TI])
    script(st, 0, section=CANNONS)
    script(st, 1, cove_card=1)
    play_round(c, st, ev, rng, cards={2: (0, 0, 0, 0)})
    assert level(st, 1, CANNONS) == 1 and seat(st, 1, R.S_COVE_CARDS) == 1 and seat(st, 1, R.S_GOLD) == 0
    ev_cove = [e for e in events(st, ev) if e[2] == R.EV_COVE]
    assert ev_cove[0][3] == 1 << CANNONS


def test_battle_volley_and_fog_bank_cards():
    # seat 0 plays Battle (+1 die) and Volley (+2): 2 + 1 + 2 = 5 dice; seat 1's Fog Bank
    # cancels a crippling volley
    c, st, ev, rng = table(dice=[6, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1])
    set_ship(st, 0, sails=3)
    give_card(st, 0, R.BATTLE)
    give_card(st, 0, R.VOLLEY)
    give_card(st, 1, R.EVENT)
    script(st, 0, play=1, section=HULL)
    script(st, 1, play=1)
    go(st, [4, 4, TI])
    play_round(c, st, ev, rng, cards={4: (0, 0, 0, 0)})
    vol = [e for e in events(st, ev) if e[2] == R.EV_VOLLEY]
    assert vol[0][4] >> 4 == 5 and vol[0][4] & 15 == 2 and vol[0][5] & 1 == 1  # 2 hits cancelled by the Fog Bank
    assert vol[1][4] >> 4 == 2  # seat 1: no cards
    assert vol[2][4] >> 4 == 3  # seat 0's Battle bonus stays for the fight
    played = [e[3] for e in events(st, ev) if e[2] == R.EV_PLAY]
    assert played == [R.BATTLE, R.VOLLEY, R.EVENT]
    assert tavern_total(st, 3) == 42


def test_mastercraft_makes_a_level_free():
    c, st, ev, rng = table(gold=2)
    give_card(st, 0, R.MASTERCRAFT)
    script(st, 0, play=1, upgrade=2)
    go(st, [4, TI, TI])
    play_round(c, st, ev, rng, cards={4: (0, 0, 0, 0)})
    assert level(st, 0, CANNONS) == 4 and seat(st, 0, R.S_GOLD) == 0  # 2 -> 3 free, 3 -> 4 for 2


def test_parrots_act_when_drawn_and_fly_off_at_pirates_cove():
    c, st, ev, rng = table(dice=[6, 6, 6, 6, 6, 6, 1])
    put_on_top(st, R.SILVER)
    go(st, [5, 5, TI])
    set_ship(st, 0, sails=3)
    script(st, 0, section=HULL)
    from pirate_sim.games.pirates_cove import actions as K
    K.draw_card_nb(st, ev, rng, c.params, 0)  # Long John Silver: always 6 dice
    play_round(c, st, ev, rng, cards={5: (0, 0, 0, 0)})
    vol = [e for e in events(st, ev) if e[2] == R.EV_VOLLEY]
    assert vol[0][4] >> 4 == 6
    # Flint lifts the hull limit; losing it at Pirate's Cove throws the extra chests overboard
    c, st, ev, rng = table(dice=[6, 6])
    put_on_top(st, R.FLINT)
    K.draw_card_nb(st, ev, rng, c.params, 1)
    set_ship(st, 0, sails=3)
    go(st, [2, 2, TI])
    set_ship(st, 1, chests=5)
    script(st, 0, section=CREW)
    play_round(c, st, ev, rng, cards={2: (0, 0, 0, 0)})
    assert seat(st, 1, R.S_HAND + R.FLINT) == 0 and seat(st, 1, R.S_CHESTS) == 0  # crippled: lost


def test_billy_bones_and_trelawney():
    from pirate_sim.games.pirates_cove import actions as K
    c, st, ev, rng = table(dice=[1, 1, 1, 1, 1])
    put_on_top(st, R.TRELAWNEY)
    K.draw_card_nb(st, ev, rng, c.params, 1)  # seat 1 Sails 2 + 20 outruns seat 0's 5
    put_on_top(st, R.BONES)
    K.draw_card_nb(st, ev, rng, c.params, 0)  # seat 0 fires all 5 Cannons
    set_ship(st, 0, sails=5, cannons=5, crew=1)
    script(st, 0, flee=2)
    script(st, 1, flee=2)
    go(st, [3, 3, TI])
    play_round(c, st, ev, rng, cards={3: (0, 0, 0, 0)})
    vol = [e for e in events(st, ev) if e[2] == R.EV_VOLLEY]
    assert vol[0][5] // 2 == 1 and vol[1][5] // 2 == 0 and vol[1][4] >> 4 == 5


def test_fame_cards_score_at_the_end_and_a_tie_is_settled_by_a_final_combat():
    c, st, ev, rng = table(dice=[6, 6])
    set_ship(st, 0, fame=4, sails=3)
    set_ship(st, 1, fame=2)
    give_card(st, 1, R.FAME, 2)
    st[R.G_ROUND] = R.ROUNDS
    finish(c, st, ev, rng)
    assert seat(st, 1, R.S_F_CARDS) == 2 and fame(st, 1) == 4
    assert st[R.G_TIE] == 1 and st[R.G_END] == R.END_TIE_COMBAT and st[R.G_WINNER] == 0
    c, st, ev, rng = table()
    set_ship(st, 2, fame=7)
    finish(c, st, ev, rng)
    assert st[R.G_WINNER] == 2 and st[R.G_END] == R.END_MOST_FAME


def test_the_tavern_deck_is_reshuffled_when_empty():
    c, st, ev, rng = table(gold=10)
    st[R.G_TDISC:R.G_TDISC + 3] = st[R.G_TDECK:R.G_TDECK + 3]
    st[R.G_DISC_N] = 3
    st[R.G_TDECK:R.G_TDECK + 39] = st[R.G_TDECK + 3:R.G_TDECK + 42].copy()
    st[R.G_DECK_N] = 39
    for s in range(3):  # hand out all 39 cards
        for _ in range(13):
            from pirate_sim.games.pirates_cove import actions as K
            K.draw_card_nb(st, ev, rng, c.params, s)
    assert st[R.G_DECK_N] == 0 and tavern_total(st, 3) == 42
    go(st, [1, TI, TI])
    script(st, 0, buys=3)
    play_round(c, st, ev, rng, cards={1: (0, 0, 0, 0)})
    assert st[R.G_RESHUFFLES] == 1 and seat(st, 0, R.S_BOUGHT) == 3 and tavern_total(st, 3) == 42


def test_cards_not_taken_are_discarded_and_every_round_turns_up_new_ones():
    c, st, ev, rng = table()
    begin_round(c, st, ev)
    first = st[R.G_CARD:R.G_CARD + 20].copy()
    go(st, [TI, TI, TI])
    rest_of_round(c, st, ev, rng)
    assert (st[R.G_CARD_LIVE:R.G_CARD_LIVE + 5] == 0).all()
    tr, cards, ncards, *_ = c.arrays
    for i in range(5):
        idx = st[R.G_TPERM + i * R.MAX_TREASURE]
        assert tuple(first[i * 4:i * 4 + 4]) == tuple(cards[i, idx])


@pytest.mark.parametrize("bad, key", [
    ({"treasure.island2": ["1g"] * 11}, "treasure.island2"),
    ({"treasure.island3": ["1x"] * 12}, "treasure.island3"),
    ({"sections.hull.costs": [1, 1]}, "sections.hull.costs"),
    ({"legendary.cards": ["Kidd 1 2"]}, "legendary.cards"),
    ({"cove.repair_to": 7}, "cove.repair_to"),
    ({"black.ships": [3, 1, 1], "legendary.cards": ["Kidd 3 3 3 3 3"]}, "black.ships"),
])
def test_bad_rules_name_their_key(bad, key):
    r = {p.key: p.default for p in GAME.params}
    r.update(bad)
    with pytest.raises(ValueError, match=key.replace(".", r"\.")):
        GAME.compile(r, [{"strategy": "random"}] * 3)


def _order(st, ev):
    """Units of the round's first fight in speed order (from its EV_ORDER event)."""
    e = [e for e in events(st, ev) if e[2] == R.EV_ORDER][0]
    n, code = e[4], e[5]
    return [(code >> (4 * (n - 1 - j))) & 15 for j in range(n)]


def test_a_ship_that_won_its_tie_roll_outright_stays_ahead_of_the_re_rollers():
    # three ships tied on Sails roll 5, 5, 6: seat 2 is first at once; seats 0 and 1 roll
    # again (1, 6): seat 1 second, seat 0 last.  (Issue 20: the 6 used to fire last, [1, 0, 2].)
    c, st, ev, rng = table(dice=[5, 5, 6, 1, 6])
    go(st, [2, 2, 2])
    play_round(c, st, ev, rng, cards={2: (0, 0, 0, 0)})
    assert _order(st, ev) == [2, 1, 0]
    # a 4-way tie behind a faster ship: Sails 4 first; seats 1-4 (Sails 2) roll 2, 3, 6, 3:
    # seat 3 leads the tie outright and seat 1 is last; seats 2 and 4 roll again 1, 4
    c, st, ev, rng = table(n=5, dice=[2, 3, 6, 3, 1, 4])
    set_ship(st, 0, sails=4)
    go(st, [3, 3, 3, 3, 3])
    play_round(c, st, ev, rng, cards={3: (0, 0, 0, 0)})
    assert _order(st, ev) == [0, 3, 4, 2, 1]  # the old keys 2, 22, 6, 25 gave [0, 4, 2, 3, 1]


def test_cove_repairs_only_crippled_sections():
    # cove.repair_to = 3: seat 1 is hit once on Cannons (2 -> 1) and flees: damaged, not
    # crippled, it stays at 1 (the old code raised it to 3)
    c, st, ev, rng = table(dice=[6, 1, 4], cove__repair_to=3)
    set_ship(st, 0, sails=3)
    go(st, [2, 2, TI])
    script(st, 0, section=CANNONS)
    script(st, 1, flee=1, cove_card=0)
    play_round(c, st, ev, rng, cards={2: (0, 0, 0, 0)})
    assert seat(st, 1, R.S_FLIGHTS) == 1 and seat(st, 1, R.S_CRIPPLED) == 0
    assert level(st, 1, CANNONS) == 1
    assert [e for e in events(st, ev) if e[2] == R.EV_COVE][0][3] == 0  # nothing repaired
    # crippled: the section comes back at repair_to
    c, st, ev, rng = table(dice=[6, 6], cove__repair_to=3)
    set_ship(st, 0, sails=3)
    go(st, [2, 2, TI])
    script(st, 0, section=CANNONS)
    play_round(c, st, ev, rng, cards={2: (0, 0, 0, 0)})
    assert seat(st, 1, R.S_CRIPPLED) == 1 and level(st, 1, CANNONS) == 3


def test_the_final_combat_is_counted_apart_from_the_rounds_volleys_hits_and_dice():
    from pirate_sim.rng import dice_rolled
    c, st, ev, rng = table(dice=[6, 6])
    set_ship(st, 0, fame=4, sails=3)
    set_ship(st, 1, fame=4)
    st[R.G_ROUND] = R.ROUNDS
    d0 = dice_rolled(rng)
    finish(c, st, ev, rng)
    assert st[R.G_END] == R.END_TIE_COMBAT and st[R.G_WINNER] == 0
    assert (st[R.G_TIE_VOLLEYS], st[R.G_TIE_HITS], st[R.G_TIE_DICE]) == (1, 2, 2)
    assert dice_rolled(rng) - d0 == 2
    assert st[R.G_VOLLEYS] == 0 and st[R.G_FIGHTS] == 0
    assert seat(st, 0, R.S_VOLLEYS) == 0 and seat(st, 0, R.S_HITS) == 0


def test_bulk_final_combat_columns():
    import numpy as np
    c = compile_game(4, "fighter")
    g, s = GAME.play(c, 5, 0, 600)
    col = GAME.game_column_index
    tie = g[:, col("tie_combat")] == 1
    assert tie.any() and np.all(g[tie, col("tie_volleys")] >= 1)
    assert np.all(g[~tie, col("tie_volleys")] == 0) and np.all(g[~tie, col("tie_dice")] == 0)
    assert np.all(g[:, col("tie_hits")] <= g[:, col("tie_dice")])
    assert np.array_equal(g[:, col("volleys")] >= s[:, :, GAME.seat_column_index("volleys")].sum(axis=1),
                          np.ones(len(g), bool))  # seats' volleys (black ships fire too) within the game's


def test_rounds_is_a_parameter():
    import numpy as np
    short = {f"treasure__island{i}": R.DEFAULT_TREASURE[i][:8] for i in range(1, 6)}
    c = compile_game(4, "fighter", rounds=8, **short)
    g, s = GAME.play(c, 1, 0, 200)
    assert np.all(g[:, 1] == 8 * 4)
    col = GAME.game_column_index
    assert np.all(g[:, col("round_08")] != 0) and np.all(g[:, col("round_09")] == 0)
    visits = sum(s[:, :, GAME.seat_column_index(f"visits_island_{i}")] for i in range(1, 7))
    assert np.all(visits == 8)
    # the last round is the parameter's: nothing is bought in round 8
    from pirate_sim.games.pirates_cove import policies as Pol
    st, ev, rng = new_state(c, scripted=False)
    tr, cards, ncards, tavern, legends, strat, sp = c.arrays
    set_ship(st, 0, gold=9)
    st[R.G_ROUND] = 6
    assert Pol.tavern_buys_nb(st, rng, c.params, strat, sp, 0) > 0
    st[R.G_ROUND] = 7
    assert Pol.tavern_buys_nb(st, rng, c.params, strat, sp, 0) == 0
    with pytest.raises(ValueError, match=r"treasure\.island1: needs 16\.\.24"):
        compile_game(4, rounds=16)
    c = compile_game(3, rounds=16, **{f"treasure__island{i}": R.DEFAULT_TREASURE[i] * 2 for i in range(1, 6)})
    g, _ = GAME.play(c, 1, 0, 50)
    assert np.all(g[:, 1] == 16 * 3) and np.all(g[:, col("round_16")] != 0)


def _fight(c, st, units):
    """The fight scratch of a fight among ``units`` (all still in it)."""
    base = R.G_FIGHT
    st[base + R.F_N] = len(units)
    for j, u in enumerate(units):
        st[base + R.F_UNITS + j] = u
        st[base + R.F_ACTIVE + j] = 1


def test_a_planned_player_measures_a_crowded_fight_against_its_fair_share():
    # three equal ships: each has own power / all = 1/3; the crowd avoider (flee_below 0.4)
    # stays (its line is 0.4 x 2 / 3 = 0.27), where 1.1.0 fled at once (1/3 < 0.4)
    from pirate_sim.games.pirates_cove import policies as Pol
    c = compile_game(3, "crowd_avoider")
    st, ev, rng = new_state(c, scripted=False)
    tr, cards, ncards, tavern, legends, strat, sp = c.arrays
    for s in range(3):
        set_ship(st, s, hull=2, sails=2, cannons=2, crew=2)
    _fight(c, st, [0, 1, 2])
    assert not Pol.decide_flee_nb(st, rng, c.params, strat, sp, 0, 2)
    # one on one against a ship twice as strong (1/3 < 0.4): it flees
    _fight(c, st, [0, 1])
    set_ship(st, 1, hull=4, cannons=4, crew=4, sails=4)
    set_ship(st, 0, hull=2, cannons=2, crew=2, sails=2)
    assert Pol.win_chance_nb(Pol.power_nb(st, c.params, 0), Pol.power_nb(st, c.params, 1)) < 0.4
    assert Pol.decide_flee_nb(st, rng, c.params, strat, sp, 0, 2)
    assert Pol.flee_line_nb(0.4, 2) == 0.4 and abs(Pol.flee_line_nb(0.4, 4) - 0.2) < 1e-12


def test_a_hunter_does_not_sail_into_a_fight_it_would_flee():
    # the Royal Navy on the Tavern with the richest card: a weak hunter (win chance < its
    # flee_below 0.5) goes elsewhere; a strong one takes the fight
    import numpy as np
    from pirate_sim.games.pirates_cove import policies as Pol
    c = compile_game(3, "treasure_hunter")
    tr, cards, ncards, tavern, legends, strat, sp = c.arrays
    picks = []
    for strong in (False, True):
        st, ev, rng = new_state(c, scripted=False)
        empty_hands(st, 3)
        begin_round(c, st, ev)
        st[R.G_CARD:R.G_CARD + 20] = 0
        st[R.G_CARD + 0 * 4 + 2] = 3  # the Tavern's card: 3 fame
        st[R.G_CARD + 1 * 4 + 0] = 1  # Hull Island: 1 gold
        st[R.BLACK_BASE + R.B_ISLAND] = 1
        st[R.BLACK_BASE + R.B_WORDS + R.B_ISLAND] = 5
        v = 6 if strong else 2
        set_ship(st, 0, hull=v, sails=v, cannons=v, crew=v, gold=0, chests=0)
        picks.append(int(Pol.choose_island_nb(st, rng, c.params, tr, strat, sp, np.zeros(Pol.FS_SIZE), 0)))
    assert picks[0] != 1 and picks[1] == 1
